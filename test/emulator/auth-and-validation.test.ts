import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startExport, startTestEmulator } from './helpers.js';
import type { TestEmulator } from './helpers.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(() => emulator.stop());

const errorOf = (json: unknown): string => (json as { error: string }).error;

describe('authentication', () => {
  it.each([
    ['no header', 'none'],
    ['an empty header', ''],
    ['a non-bearer scheme', 'Basic bWludDp4'],
    ['a key without the mint_ prefix', 'Bearer sk_live_123'],
    ['an unknown key', 'Bearer mint_unknownkey123'],
  ])('answers 401 {error} for %s', async (_case, key) => {
    const response = await call(emulator, 'POST', '/v1/static-export/jobs', {
      key,
      body: { domain: 'docs.example.com' },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(errorOf(response.json)).toMatch(/Authorization|API key/);
  });

  it('checks auth on every API endpoint', async () => {
    const paths = [
      ['GET', '/v1/static-export/jobs/se_0000000000000000'],
      ['POST', '/v1/static-export/jobs/se_0000000000000000/bundle'],
      ['POST', '/v2/agent/demo-project/job'],
      ['GET', '/v2/agent/demo-project/job/abc'],
      ['POST', '/v2/agent/demo-project/job/abc/message'],
    ];
    for (const [method = '', path = ''] of paths) {
      expect((await call(emulator, method, path, { key: 'none' })).status, path).toBe(401);
    }
  });

  it('lets the read key GET but answers 403 naming the write scope on POST', async () => {
    const job = await startExport(emulator);
    const get = await call(emulator, 'GET', `/v1/static-export/jobs/${job.jobId}`, { key: 'read' });
    expect(get.status).toBe(200);
    const post = await call(emulator, 'POST', '/v1/static-export/jobs', {
      key: 'read',
      body: { domain: 'docs.example.com' },
    });
    expect(post.status).toBe(403);
    expect(errorOf(post.json)).toMatch(/write/);
    const agent = await call(emulator, 'POST', '/v2/agent/demo-project/job', {
      key: 'read',
      body: { prompt: 'x' },
    });
    expect(agent.status).toBe(403);
  });

  it('accepts keys passed as options', async () => {
    const custom = await startTestEmulator({
      keys: { write: 'mint_customwrite1', read: 'mint_customread1' },
    });
    try {
      expect(custom.keys).toEqual({ write: 'mint_customwrite1', read: 'mint_customread1' });
      const ok = await call(custom, 'POST', '/v1/static-export/jobs', {
        body: { domain: 'a.example.com' },
      });
      expect(ok.status).toBe(202);
      const old = await call(custom, 'GET', '/v1/static-export/jobs/x', {
        key: 'Bearer mint_emulatorwritekey0001',
      });
      expect(old.status).toBe(401);
    } finally {
      await custom.stop();
    }
  });
});

describe('start body validation', () => {
  it.each([
    ['docs.example.com', 202],
    ['example.com', 202],
    ['a.b-c.d9.example.io', 202],
    ['localhost', 202],
    [`${'a'.repeat(63)}.example.com`, 202],
    ['https://docs.example.com', 400],
    ['http://docs.example.com', 400],
    ['docs.example.com/', 400],
    ['docs.example.com/guides', 400],
    ['docs.example.com:443', 400],
    ['docs.example.com.', 400],
    ['docs example.com', 400],
    [' docs.example.com', 400],
    ['', 400],
    ['-docs.example.com', 400],
    ['docs-.example.com', 400],
    ['docs..example.com', 400],
    ['docs_site.example.com', 400],
    ['Docs.Example.com', 400],
    [`${'a'.repeat(64)}.example.com`, 400],
  ])('domain %j -> %i', async (domain, status) => {
    const response = await call(emulator, 'POST', '/v1/static-export/jobs', { body: { domain } });
    expect(response.status).toBe(status);
    if (status === 400) expect(typeof errorOf(response.json)).toBe('string');
  });

  it.each([
    ['invalid JSON', { rawBody: '{"domain":' }],
    ['an empty body', { rawBody: '' }],
    ['a JSON array', { body: ['docs.example.com'] }],
    ['a missing domain', { body: {} }],
    ['a numeric domain', { body: { domain: 42 } }],
    ['a non-string version', { body: { domain: 'docs.example.com', version: 2 } }],
    ['paths that are not a list', { body: { domain: 'docs.example.com', paths: '/guides' } }],
    ['paths with a non-string', { body: { domain: 'docs.example.com', paths: ['/a', 1] } }],
    ['a null version', { body: { domain: 'docs.example.com', version: null } }],
    ['null paths', { body: { domain: 'docs.example.com', paths: null } }],
    [
      'a body sent as text/plain',
      { body: { domain: 'docs.example.com' }, headers: { 'content-type': 'text/plain' } },
    ],
    [
      'a form body',
      {
        rawBody: 'domain=docs.example.com',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
    ],
  ])('answers 400 {error} for %s', async (_case, options) => {
    const response = await call(emulator, 'POST', '/v1/static-export/jobs', options);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(Object.keys(response.json as object)).toEqual(['error']);
  });

  it('accepts version and paths, keeps them on the job and answers with the documented fields only', async () => {
    const response = await call(emulator, 'POST', '/v1/static-export/jobs', {
      body: { domain: 'docs.example.com', version: '2024-06', paths: ['/a', '/b'] },
    });
    expect(response.status).toBe(202);
    const { jobId } = response.json as { jobId: string };
    expect(response.json).not.toHaveProperty('version');
    expect(emulator.exportJobs.get(jobId)).toMatchObject({
      version: '2024-06',
      paths: ['/a', '/b'],
    });
  });
});

describe('request size', () => {
  it('answers 413 for a body over 1 MiB and keeps the connection usable', async () => {
    const { Agent, fetch: undiciFetch } = await import('undici');
    // One connection, so the next request goes where the 413 went.
    const agent = new Agent({ connections: 1 });
    try {
      const headers = {
        authorization: `Bearer ${emulator.keys.write}`,
        'content-type': 'application/json',
      };
      const send = (body: string) =>
        undiciFetch(`${emulator.baseUrl}/v2/agent/demo-project/job`, {
          method: 'POST',
          headers,
          body,
          dispatcher: agent,
        });
      const big = await send(JSON.stringify({ prompt: 'x'.repeat(2 * 1024 * 1024) }));
      expect(big.status).toBe(413);
      expect(await big.json()).toEqual({ error: 'Request body too large' });
      const next = await send(JSON.stringify({ prompt: 'Fix the typo' }));
      expect(next.status).toBe(201);
    } finally {
      await agent.close();
    }
  });
});

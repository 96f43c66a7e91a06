import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, completedBundle, download, rawGet, startTestEmulator, untarGz } from './helpers.js';
import type { BundleJson, TestEmulator } from './helpers.js';

let emulator: TestEmulator;
let bundle: BundleJson;
let full: Buffer;
let etag: string;

beforeAll(async () => {
  emulator = await startTestEmulator({ archiveSizeBytes: 512 * 1024 });
  bundle = await completedBundle(emulator);
  const response = await download(bundle.bundleUrl);
  full = response.body;
  etag = response.headers.get('etag') ?? '';
});
afterAll(() => emulator.stop());
beforeEach(() => emulator.faults.clear());

const startBody = { body: { domain: 'docs.example.com' } };

describe('API faults', () => {
  it('answers with a status, a JSON error and a verbatim Retry-After, once by default', async () => {
    emulator.faults.add({ route: 'export.start', status: 503, retryAfter: '2' });
    const faulted = await call(emulator, 'POST', '/v1/static-export/jobs', startBody);
    expect(faulted.status).toBe(503);
    expect(faulted.headers.get('retry-after')).toBe('2');
    expect(faulted.headers.get('content-type')).toBe('application/json');
    expect(typeof (faulted.json as { error: string }).error).toBe('string');
    expect((await call(emulator, 'POST', '/v1/static-export/jobs', startBody)).status).toBe(202);
  });

  it('answers with a proxy-style HTML page and an HTTP-date Retry-After', async () => {
    const date = new Date(Date.now() + 5000).toUTCString();
    emulator.faults.add({ route: 'export.get', status: 502, body: 'html', retryAfter: date });
    const response = await call(emulator, 'GET', '/v1/static-export/jobs/se_1');
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(response.headers.get('retry-after')).toBe(date);
    expect(response.text).toContain('<title>502 Bad Gateway</title>');
  });

  it('handledFirst: the request is acted on, then the answer is replaced, as a gateway that timed out', async () => {
    const jobs = emulator.exportJobs.list().length;
    emulator.faults.add({ route: 'export.start', status: 504, body: 'html', handledFirst: true });
    const faulted = await call(emulator, 'POST', '/v1/static-export/jobs', startBody);
    expect(faulted.status).toBe(504);
    expect(faulted.text).toContain('<title>504 Gateway Timeout</title>');
    expect(emulator.exportJobs.list()).toHaveLength(jobs + 1);
    expect(emulator.requests.at(-1)).toMatchObject({ route: 'export.start', status: 504 });

    const agents = emulator.agentJobs.list().length;
    emulator.faults.add({ route: 'agent.create', status: 503, body: 'html', handledFirst: true });
    const body = { body: { prompt: 'Fix the typo' } };
    expect((await call(emulator, 'POST', '/v2/agent/demo-project/job', body)).status).toBe(503);
    expect(emulator.agentJobs.list()).toHaveLength(agents + 1);
  });

  it('sends any other body verbatim', async () => {
    emulator.faults.add({ route: 'agent.get', status: 504, body: 'upstream timed out' });
    const response = await call(emulator, 'GET', '/v2/agent/demo-project/job/x');
    expect(response.status).toBe(504);
    expect(response.text).toBe('upstream timed out');
  });

  it('applies a rule `times` times, Infinity until cleared, in insertion order', async () => {
    emulator.faults.add({ route: 'export.start', status: 500, times: 2 });
    emulator.faults.add({ route: 'export.start', status: 429 });
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await call(emulator, 'POST', '/v1/static-export/jobs', startBody)).status);
    }
    expect(statuses).toEqual([500, 500, 429, 202]);

    emulator.faults.add({ route: 'export.get', status: 503, times: Infinity });
    for (let i = 0; i < 5; i++) {
      expect((await call(emulator, 'GET', '/v1/static-export/jobs/se_1')).status).toBe(503);
    }
    expect(emulator.faults.pending).toHaveLength(1);
    emulator.faults.clear();
    expect((await call(emulator, 'GET', '/v1/static-export/jobs/se_1')).status).toBe(404);
  });

  it("matches every route with '*', store included, and records faulted requests", async () => {
    emulator.faults.add({ route: '*', status: 503, times: 2 });
    expect((await call(emulator, 'GET', '/v2/agent/demo-project/job/x')).status).toBe(503);
    const store = await download(bundle.bundleUrl);
    expect(store.status).toBe(503);
    expect(store.body.toString()).toContain('<Code>SlowDown</Code>');
    const recorded = emulator.requests.slice(-2);
    expect(recorded.map((r) => [r.server, r.route, r.status, r.faulted])).toEqual([
      ['api', 'agent.get', 503, true],
      ['store', 'store.get', 503, true],
    ]);
  });

  it('resets the connection without a response', async () => {
    emulator.faults.add({ route: 'export.bundle', reset: true });
    await expect(
      call(emulator, 'POST', `/v1/static-export/jobs/${bundle.jobId}/bundle`),
    ).rejects.toThrow();
    expect(emulator.requests.at(-1)).toMatchObject({ route: 'export.bundle', status: 0 });
    expect(
      (await call(emulator, 'POST', `/v1/static-export/jobs/${bundle.jobId}/bundle`)).status,
    ).toBe(200);
  });

  it('delays handling by latencyMs, alone or before a status', async () => {
    emulator.faults.add({ route: 'export.get', latencyMs: 150 });
    let started = performance.now();
    const slow = await call(emulator, 'GET', `/v1/static-export/jobs/${bundle.jobId}`);
    expect(slow.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);

    emulator.faults.add({ route: 'export.get', latencyMs: 100, status: 504 });
    started = performance.now();
    expect((await call(emulator, 'GET', `/v1/static-export/jobs/${bundle.jobId}`)).status).toBe(
      504,
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('echoes the Authorization header in the error body but never in the log', async () => {
    emulator.faults.add({ route: 'export.get', echoAuthorization: true });
    const response = await call(emulator, 'GET', `/v1/static-export/jobs/${bundle.jobId}`);
    expect(response.status).toBe(401);
    expect(response.text).toContain(emulator.keys.write);
    expect(emulator.logLines.join('\n')).not.toContain(emulator.keys.write);
  });

  it('issues an already expired link on export.bundle with expireLink', async () => {
    emulator.faults.add({ route: 'export.bundle', expireLink: true });
    const response = await call(emulator, 'POST', `/v1/static-export/jobs/${bundle.jobId}/bundle`);
    const link = response.json as BundleJson;
    expect(Date.parse(link.expiresAt)).toBeLessThan(emulator.clock.now());
    const fetched = await download(link.bundleUrl);
    expect(fetched.status).toBe(403);
    expect(fetched.body.toString()).toContain('Request has expired');
  });
});

describe('object store faults', () => {
  it('answers a store status fault with an S3 XML error', async () => {
    emulator.faults.add({ route: 'store.get', status: 500 });
    const response = await download(bundle.bundleUrl);
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/xml');
    expect(response.body.toString()).toContain('<Code>InternalError</Code>');
  });

  it('answers a rate limit (429) as S3 throttles: 503 SlowDown, in XML', async () => {
    emulator.faults.add({ route: 'store.get', status: 429, retryAfter: '1' });
    const response = await download(bundle.bundleUrl);
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toBe('application/xml');
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.body.toString()).toContain('<Code>SlowDown</Code>');
    expect(emulator.requests.at(-1)).toMatchObject({ route: 'store.get', status: 503 });
    // '*' throttles each server in its own way: the API with 429 and its JSON error.
    emulator.faults.add({ route: '*', status: 429, times: 2 });
    expect((await call(emulator, 'GET', `/v1/static-export/jobs/${bundle.jobId}`)).status).toBe(
      429,
    );
    expect((await download(bundle.bundleUrl)).status).toBe(503);
  });

  it('treats the link as expired with expireLink', async () => {
    emulator.faults.add({ route: 'store.get', expireLink: true });
    const response = await download(bundle.bundleUrl);
    expect(response.status).toBe(403);
    expect(response.body.toString()).toContain('<Message>Request has expired</Message>');
    expect((await download(bundle.bundleUrl)).status).toBe(200);
  });

  it('cuts the connection after cutAfterBytes body bytes', async () => {
    emulator.faults.add({ route: 'store.get', cutAfterBytes: 1000 });
    const raw = await rawGet(bundle.bundleUrl, 2000);
    expect(raw.status).toBe(200);
    expect(Number(raw.headers['content-length'])).toBe(full.length);
    expect(raw.closedByServer).toBe(true);
    expect(raw.body.equals(full.subarray(0, 1000))).toBe(true);
  });

  it('cuts a range response too, and a client sees the body fail', async () => {
    emulator.faults.add({ route: 'store.get', cutAfterBytes: 10 });
    const response = await request(bundle.bundleUrl, { headers: { range: 'bytes=100-' } });
    expect(response.statusCode).toBe(206);
    await expect(response.body.arrayBuffer()).rejects.toThrow();
  });

  it('stalls after stallAfterBytes with the socket kept open', async () => {
    emulator.faults.add({ route: 'store.get', stallAfterBytes: 2048 });
    const raw = await rawGet(bundle.bundleUrl, 300);
    expect(raw.status).toBe(200);
    expect(raw.closedByServer).toBe(false);
    expect(raw.body.equals(full.subarray(0, 2048))).toBe(true);

    emulator.faults.add({ route: 'store.get', stallAfterBytes: 0 });
    const headersOnly = await rawGet(bundle.bundleUrl, 200);
    expect(headersOnly).toMatchObject({ status: 200, closedByServer: false });
    expect(headersOnly.body.length).toBe(0);
  });

  it.each(['longer', 'shorter'] as const)(
    'sends a Content-Length that disagrees with a %s body',
    async (lengthMismatch) => {
      emulator.faults.add({ route: 'store.get', lengthMismatch });
      const raw = await rawGet(bundle.bundleUrl, 2000);
      const announced = Number(raw.headers['content-length']);
      expect(raw.closedByServer).toBe(true);
      expect(raw.body.equals(full)).toBe(true);
      if (lengthMismatch === 'longer') expect(announced).toBeLessThan(full.length);
      else expect(announced).toBeGreaterThan(full.length);
    },
  );

  it('changes the archive bytes and ETag from a changeArchive request on', async () => {
    const own = await startTestEmulator({ pageCount: 6 });
    try {
      const link = await completedBundle(own);
      const before = await download(link.bundleUrl);
      own.faults.add({ route: 'store.get', changeArchive: true });
      const resumed = await download(link.bundleUrl, {
        range: 'bytes=100-',
        'if-range': before.headers.get('etag') ?? '',
      });
      expect(resumed.status).toBe(200);
      expect(resumed.headers.get('etag')).not.toBe(before.headers.get('etag'));
      expect(resumed.body.equals(before.body)).toBe(false);
      const after = await download(link.bundleUrl);
      expect(after.headers.get('etag')).toBe(resumed.headers.get('etag'));
      const files = await untarGz(after.body);
      expect(files.get('index.html')?.toString()).toContain('build 2');
      expect(own.exportJobs.get(link.jobId)?.revision).toBe(1);
    } finally {
      await own.stop();
    }
  });

  it('keeps serving the same ETag without faults', async () => {
    const response = await download(bundle.bundleUrl, { range: 'bytes=0-0' });
    expect(response.status).toBe(206);
    expect(response.headers.get('etag')).toBe(etag);
  });
});

import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ResultsService, startResultsService } from '../../emulator/results-service.js';
import { unzip } from './helpers.js';

const TWIRP = '/twirp/github.actions.results.api.v1.ArtifactService';
const ENV_NAMES = [
  'ACTIONS_RESULTS_URL',
  'ACTIONS_RUNTIME_TOKEN',
  'GITHUB_SERVER_URL',
  'GITHUB_WORKSPACE',
] as const;

let service: ResultsService;
let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'results-service-'));
  await fs.mkdir(path.join(dir, 'site', 'guide'), { recursive: true });
  await fs.writeFile(path.join(dir, 'site', 'index.html'), '<h1>Home</h1>');
  await fs.writeFile(path.join(dir, 'site', 'guide', 'start.html'), '<h1>Start</h1>');
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

// @actions/artifact reads its configuration from process.env and logs to stdout.
const saved: Partial<Record<(typeof ENV_NAMES)[number], string>> = {};
beforeEach(async () => {
  service = await startResultsService();
  for (const name of ENV_NAMES) saved[name] = process.env[name];
  Object.assign(process.env, service.env, { GITHUB_WORKSPACE: dir });
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const name of ENV_NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await service.stop();
});

async function client() {
  const { DefaultArtifactClient } = await import('@actions/artifact');
  return new DefaultArtifactClient();
}

const siteFiles = () => [
  path.join(dir, 'site', 'index.html'),
  path.join(dir, 'site', 'guide', 'start.html'),
];

/** One Twirp JSON call with the service's runtime token unless told otherwise. */
async function rpc(method: string, body: unknown, token: string | null = service.runtimeToken) {
  const response = await fetch(`${service.url}${TWIRP}/${method}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const ids = () => ({
  workflow_run_backend_id: service.runId,
  workflow_job_run_backend_id: service.jobId,
});

async function createArtifact(name: string): Promise<string> {
  const created = await rpc('CreateArtifact', { ...ids(), name, version: 7 });
  expect(created.status).toBe(200);
  return created.json.signed_upload_url as string;
}

const blockUrl = (url: string, id: string) =>
  `${url}&comp=block&blockid=${encodeURIComponent(Buffer.from(id).toString('base64'))}`;
const put = (url: string, body: string | Buffer, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'PUT', headers: { 'x-ms-version': '2025-01-05', ...headers }, body });
const blockList = (ids: string[]) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><BlockList>${ids
    .map((id) => `<Latest>${Buffer.from(id).toString('base64')}</Latest>`)
    .join('')}</BlockList>`;

describe('the results service, driven by @actions/artifact', () => {
  it('creates, receives the zip as block blob uploads and finalizes', async () => {
    const uploaded = await (
      await client()
    ).uploadArtifact('docs-site', siteFiles(), path.join(dir, 'site'));
    expect(service.artifacts).toHaveLength(1);
    const [artifact] = service.artifacts;
    expect(uploaded.id).toBe(Number(artifact?.id));
    expect(artifact).toMatchObject({ name: 'docs-site', finalized: true, runId: service.runId });
    expect(artifact?.size).toBe(artifact?.zip.length);
    expect(uploaded.size).toBe(artifact?.size);
    expect(artifact?.digest).toBe(`sha256:${uploaded.digest}`);
    expect(artifact?.contentType).toBe('application/zip');
    const files = await unzip(artifact?.zip as Buffer);
    expect([...files.keys()].sort()).toEqual(['guide/start.html', 'index.html']);
    expect(files.get('index.html')?.toString()).toBe('<h1>Home</h1>');

    expect(service.requests.map((r) => `${r.route} ${r.status}`)).toEqual([
      'CreateArtifact 200',
      'blob.block 201',
      'blob.blocklist 201',
      'FinalizeArtifact 200',
    ]);
    // Twirp calls carry the runtime token; blob calls only the signed URL.
    expect(service.requests.map((r) => r.hasAuthorization)).toEqual([true, false, false, true]);
    expect(JSON.stringify(service.requests)).not.toContain('sig=');
  });

  it('assembles a blob of several blocks in block-list order and serves it back', async () => {
    const big = path.join(dir, 'big.bin');
    await fs.writeFile(big, randomBytes(9 * 1024 * 1024));
    const artifacts = await client();
    const uploaded = await artifacts.uploadArtifact('big', [big], dir, { compressionLevel: 0 });
    expect(service.requests.filter((r) => r.route === 'blob.block')).toHaveLength(2);
    const files = await unzip(service.artifacts[0]?.zip as Buffer);
    const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
    expect(sha(files.get('big.bin') as Buffer)).toBe(sha(await fs.readFile(big)));

    // ListArtifacts -> GetSignedArtifactURL -> GET on the blob, unzipped by the client.
    const target = path.join(dir, 'downloaded');
    await artifacts.downloadArtifact(uploaded.id as number, { path: target });
    expect(sha(await fs.readFile(path.join(target, 'big.bin')))).toBe(sha(await fs.readFile(big)));
  });

  it('refuses a duplicate name in the same run, from any job, but not in another run', async () => {
    const artifacts = await client();
    const root = path.join(dir, 'site');
    await artifacts.uploadArtifact('docs-site', siteFiles(), root);
    process.env.ACTIONS_RUNTIME_TOKEN = service.mintToken({ jobId: 'another-job' });
    await expect(artifacts.uploadArtifact('docs-site', siteFiles(), root)).rejects.toThrow(
      'Failed to CreateArtifact: Received non-retryable error: Failed request: (409) Conflict: an artifact with this name already exists on the workflow run',
    );
    process.env.ACTIONS_RUNTIME_TOKEN = service.mintToken({ runId: 'another-run' });
    await artifacts.uploadArtifact('docs-site', siteFiles(), root);
    expect(service.artifacts.map((a) => [a.runId, a.name, a.finalized])).toEqual([
      [service.runId, 'docs-site', true],
      ['another-run', 'docs-site', true],
    ]);
  });

  it('answers a planned failure once, as a Twirp error the client reports', async () => {
    service.fail({
      route: 'CreateArtifact',
      code: 'permission_denied',
      msg: 'insufficient usage to create artifact',
    });
    const artifacts = await client();
    const root = path.join(dir, 'site');
    await expect(artifacts.uploadArtifact('docs-site', siteFiles(), root)).rejects.toThrow(
      /Artifact storage quota has been hit/,
    );
    expect(service.artifacts).toEqual([]);
    expect(service.requests[0]).toMatchObject({ status: 403, error: 'permission_denied' });
    await artifacts.uploadArtifact('docs-site', siteFiles(), root);
    expect(service.artifacts[0]?.finalized).toBe(true);
  });

  it('fails blob uploads with Azure XML errors, which the storage client does not retry', async () => {
    service.fail({
      route: 'blob.block',
      status: 403,
      code: 'AuthorizationFailure',
      msg: 'This request is not authorized to perform this operation.',
    });
    await expect(
      (await client()).uploadArtifact('docs-site', siteFiles(), path.join(dir, 'site')),
    ).rejects.toThrow('This request is not authorized to perform this operation.');
    expect(service.requests.map((r) => `${r.route} ${r.status} ${r.error ?? ''}`.trim())).toEqual([
      'CreateArtifact 200',
      'blob.block 403 AuthorizationFailure',
    ]);
    expect(service.artifacts[0]?.finalized).toBe(false);
  });
});

describe('the Twirp endpoints', () => {
  it('wants a valid, unexpired runtime token whose scope matches the ids', async () => {
    const body = { ...ids(), name: 'a', version: 7 };
    expect((await rpc('CreateArtifact', body, null)).json.code).toBe('unauthenticated');
    const forged = `${service.runtimeToken.slice(0, -4)}AAAA`;
    expect((await rpc('CreateArtifact', body, forged)).status).toBe(401);
    const expired = service.mintToken({ expiresInMs: -60_000 });
    expect((await rpc('CreateArtifact', body, expired)).json).toEqual({
      code: 'unauthenticated',
      msg: 'the runtime token has expired',
    });
    const otherJob = await rpc('CreateArtifact', { ...body, workflow_job_run_backend_id: 'x' });
    expect(otherJob).toMatchObject({ status: 403, json: { code: 'permission_denied' } });
    expect(service.artifacts).toEqual([]);
  });

  it('validates names and routes like a Twirp server', async () => {
    const bad = await rpc('CreateArtifact', { ...ids(), name: 'a/b', version: 7 });
    expect(bad).toMatchObject({ status: 400, json: { code: 'invalid_argument' } });
    expect((await rpc('UploadEverything', {})).json.code).toBe('bad_route');
    const get = await fetch(`${service.url}${TWIRP}/CreateArtifact`);
    expect(get.status).toBe(404);
    expect(((await get.json()) as { code: string }).code).toBe('bad_route');
    const notJson = await fetch(`${service.url}${TWIRP}/CreateArtifact`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${service.runtimeToken}`,
      },
      body: '{',
    });
    expect(((await notJson.json()) as { code: string }).code).toBe('malformed');
  });

  it('finalizes only a committed blob whose size and hash match', async () => {
    const url = await createArtifact('notes');
    const finalize = (extra: Record<string, unknown>) =>
      rpc('FinalizeArtifact', { ...ids(), name: 'notes', size: '5', ...extra });
    expect((await finalize({})).json.code).toBe('failed_precondition');
    expect((await put(blockUrl(url, 'block-0'), 'hello')).status).toBe(201);
    expect((await put(`${url}&comp=blocklist`, blockList(['block-0']))).status).toBe(201);
    expect((await finalize({ size: '4' })).json.code).toBe('invalid_argument');
    expect((await finalize({ hash: 'sha256:00' })).json.code).toBe('invalid_argument');
    const sha = createHash('sha256').update('hello').digest('hex');
    const done = await finalize({ hash: `sha256:${sha}` });
    expect(done).toMatchObject({
      status: 200,
      json: { ok: true, artifact_id: service.artifacts[0]?.id },
    });
    expect((await finalize({})).json.code).toBe('failed_precondition');
    expect((await rpc('FinalizeArtifact', { ...ids(), name: 'other', size: '0' })).status).toBe(
      404,
    );
  });

  it('lists, signs and deletes finalized artifacts of the run', async () => {
    const url = await createArtifact('notes');
    await put(`${url}&comp=blocklist`, '<BlockList></BlockList>');
    await createArtifact('unfinished');
    await rpc('FinalizeArtifact', { ...ids(), name: 'notes', size: '0' });
    const listed = await rpc('ListArtifacts', ids());
    expect((listed.json.artifacts as { name: string }[]).map((a) => a.name)).toEqual(['notes']);
    const signed = await rpc('GetSignedArtifactURL', { ...ids(), name: 'notes' });
    expect((await fetch(signed.json.signed_url as string)).status).toBe(200);
    expect((await rpc('DeleteArtifact', { ...ids(), name: 'notes' })).json.ok).toBe(true);
    expect(service.artifacts.map((a) => a.name)).toEqual(['unfinished']);
    expect((await fetch(signed.json.signed_url as string)).status).toBe(404);
  });
});

describe('the block blob endpoint', () => {
  it('commits blocks in the order of the block list, not of arrival', async () => {
    const url = await createArtifact('ordered');
    await put(blockUrl(url, 'block-1'), 'world');
    await put(blockUrl(url, 'block-0'), 'hello ');
    await put(blockUrl(url, 'block-2'), 'never committed');
    const committed = await put(`${url}&comp=blocklist`, blockList(['block-0', 'block-1']), {
      'x-ms-blob-content-type': 'text/plain',
    });
    expect(committed.status).toBe(201);
    expect(committed.headers.get('etag')).toMatch(/^"0x[0-9A-F]+"$/);
    expect(committed.headers.get('x-ms-request-id')).toBeTruthy();
    expect(service.artifacts[0]).toMatchObject({ size: 11, contentType: 'text/plain' });
    expect(service.artifacts[0]?.zip.toString()).toBe('hello world');
  });

  it('refuses bad signatures, wrong permissions and invalid blocks with Azure errors', async () => {
    const url = await createArtifact('guarded');
    const tampered = url.replace(/sig=[^&]+/, 'sig=AAAA');
    const denied = await put(blockUrl(tampered, 'block-0'), 'x');
    expect(denied.status).toBe(403);
    expect(denied.headers.get('x-ms-error-code')).toBe('AuthenticationFailed');
    expect(await denied.text()).toMatch(/^<\?xml .*<Error><Code>AuthenticationFailed<\/Code>/);
    expect((await put(blockUrl(url.replace(/\?.*$/, ''), 'block-0'), 'x')).status).toBe(403);

    expect((await put(blockUrl(url, 'block-0'), 'x', { 'x-ms-version': '' })).status).toBe(400);
    expect((await put(blockUrl(url, 'block-0'), 'x')).status).toBe(201);
    const longer = await put(blockUrl(url, 'block-10'), 'y');
    expect([longer.status, longer.headers.get('x-ms-error-code')]).toEqual([
      400,
      'InvalidBlobOrBlock',
    ]);
    const unknown = await put(`${url}&comp=blocklist`, blockList(['block-9']));
    expect([unknown.status, unknown.headers.get('x-ms-error-code')]).toEqual([
      400,
      'InvalidBlockList',
    ]);
    expect((await put(`${url}&comp=blocklist`, 'not xml')).status).toBe(400);
    expect(service.artifacts[0]?.size).toBe(0);

    // A read URL cannot write, and nothing is readable before the commit.
    await put(`${url}&comp=blocklist`, blockList(['block-0']));
    await rpc('FinalizeArtifact', { ...ids(), name: 'guarded', size: '1' });
    const readUrl = (await rpc('GetSignedArtifactURL', { ...ids(), name: 'guarded' })).json
      .signed_url as string;
    const write = await put(blockUrl(readUrl, 'block-1'), 'x');
    expect(write.headers.get('x-ms-error-code')).toBe('AuthorizationPermissionMismatch');
  });

  it('expires signed URLs', async () => {
    const shortLived = await startResultsService({ signedUrlTtlMs: -1000 });
    try {
      const created = await fetch(`${shortLived.url}${TWIRP}/CreateArtifact`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${shortLived.runtimeToken}`,
        },
        body: JSON.stringify({
          workflow_run_backend_id: shortLived.runId,
          workflow_job_run_backend_id: shortLived.jobId,
          name: 'late',
          version: 7,
        }),
      });
      const url = ((await created.json()) as { signed_upload_url: string }).signed_upload_url;
      const late = await put(blockUrl(url, 'block-0'), 'x');
      expect(late.status).toBe(403);
      expect(await late.text()).toContain('expiry');
    } finally {
      await shortLived.stop();
    }
  });
});

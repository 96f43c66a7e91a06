import { afterEach, describe, expect, it } from 'vitest';
import { call, download, startTestEmulator } from './helpers.js';
import type { ExportJobJson, TestEmulator } from './helpers.js';

let emulator: TestEmulator | undefined;
afterEach(async () => {
  await emulator?.stop();
  emulator = undefined;
});

const jobsPath = '/v1/static-export/demo-project/jobs';

const start = (emu: TestEmulator, domain = 'docs.example.com') =>
  call(emu, 'POST', jobsPath, { body: { domain } });

const getJob = async (emu: TestEmulator, jobId: string): Promise<ExportJobJson> => {
  const response = await call(emu, 'GET', `${jobsPath}/${jobId}`);
  expect(response.status).toBe(200);
  return response.json as ExportJobJson;
};

describe('inline-bundle variant (pending API change)', () => {
  it('scopes paths by project and drops the standard paths and the bundle endpoint', async () => {
    emulator = await startTestEmulator({ variant: 'inline-bundle' });
    const started = await start(emulator);
    expect(started.status).toBe(202);
    const { jobId } = started.json as ExportJobJson;
    expect(
      (await call(emulator, 'POST', '/v1/static-export/jobs', { body: { domain: 'a.io' } })).status,
    ).toBe(404);
    expect((await call(emulator, 'GET', `/v1/static-export/jobs/${jobId}`)).status).toBe(404);
    emulator.clock.advance(10_000);
    expect((await call(emulator, 'POST', `/v1/static-export/jobs/${jobId}/bundle`)).status).toBe(
      404,
    );
    expect((await call(emulator, 'POST', `${jobsPath}/${jobId}/bundle`)).status).toBe(404);
    expect(
      (await call(emulator, 'POST', '/v1/static-export/nope/jobs', { body: { domain: 'a.io' } }))
        .status,
    ).toBe(404);
    expect((await call(emulator, 'GET', `/v1/static-export/other/jobs/${jobId}`)).status).toBe(404);
  });

  it('shows no progress or pageCount, and a fresh bundle link on each GET once completed', async () => {
    emulator = await startTestEmulator({ variant: 'inline-bundle', linkLifetimeSec: 300 });
    const { jobId } = (await start(emulator)).json as ExportJobJson;
    const running: ExportJobJson[] = [];
    for (let i = 0; i < 4; i++) {
      running.push(await getJob(emulator, jobId));
      emulator.clock.advance(800);
    }
    expect(running.map((job) => job.status)).toContain('running');
    for (const job of running) {
      expect(job).not.toHaveProperty('progress');
      expect(job).not.toHaveProperty('pageCount');
      expect(job).not.toHaveProperty('bundleUrl');
    }
    emulator.clock.advance(5000);
    const done = await getJob(emulator, jobId);
    expect(done.status).toBe('completed');
    expect(done).not.toHaveProperty('progress');
    expect(done.sizeBytes).toBeGreaterThan(1000);
    expect(Date.parse(done.expiresAt ?? '') - emulator.clock.now()).toBeGreaterThan(298_000);
    const archive = await download(done.bundleUrl ?? '');
    expect(archive.status).toBe(200);
    expect(archive.body.length).toBe(done.sizeBytes);
    emulator.clock.advance(1500);
    const again = await getJob(emulator, jobId);
    expect(again.bundleUrl).not.toBe(done.bundleUrl);
    expect(Date.parse(again.expiresAt ?? '')).toBeGreaterThan(Date.parse(done.expiresAt ?? ''));
  });

  it('answers 409 to a second start while a job of the organization is active', async () => {
    emulator = await startTestEmulator({
      variant: 'inline-bundle',
      projects: ['demo-project', 'second-project'],
    });
    const first = await start(emulator);
    expect(first.status).toBe(202);
    const second = await call(emulator, 'POST', '/v1/static-export/second-project/jobs', {
      body: { domain: 'docs.example.com' },
    });
    expect(second.status).toBe(409);
    expect((second.json as { error: string }).error).toContain((first.json as ExportJobJson).jobId);
    emulator.clock.advance(10_000);
    expect((await start(emulator)).status).toBe(202);
  });

  it('rate-limits starts to 10 per rolling hour with 429', async () => {
    emulator = await startTestEmulator({ variant: 'inline-bundle' });
    for (let i = 0; i < 10; i++) {
      expect((await start(emulator)).status).toBe(202);
      emulator.clock.advance(5000);
    }
    const limited = await start(emulator);
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({
      error: 'Rate limit exceeded: 10 export jobs per organization per hour',
    });
    emulator.clock.advance(3_600_000);
    expect((await start(emulator)).status).toBe(202);
  });

  it('carries the job error of a failed export and no link', async () => {
    emulator = await startTestEmulator({ variant: 'inline-bundle' });
    const { jobId } = (await start(emulator, 'fail.example.com')).json as ExportJobJson;
    emulator.clock.advance(10_000);
    const job = await getJob(emulator, jobId);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/Rendering failed/);
    expect(job).not.toHaveProperty('bundleUrl');
  });

  it('issues an expired link on GET with an expireLink fault', async () => {
    emulator = await startTestEmulator({ variant: 'inline-bundle' });
    const { jobId } = (await start(emulator)).json as ExportJobJson;
    emulator.clock.advance(10_000);
    emulator.faults.add({ route: 'export.get', expireLink: true });
    const job = await getJob(emulator, jobId);
    expect(Date.parse(job.expiresAt ?? '')).toBeLessThan(emulator.clock.now());
    expect((await download(job.bundleUrl ?? '')).status).toBe(403);
  });
});

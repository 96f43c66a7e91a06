import { afterEach, describe, expect, it } from 'vitest';
import { call, startExport, startTestEmulator } from './helpers.js';
import type { ExportJobJson, TestEmulator } from './helpers.js';

let emulator: TestEmulator | undefined;
afterEach(async () => {
  await emulator?.stop();
  emulator = undefined;
});

const getJob = async (emu: TestEmulator, jobId: string): Promise<ExportJobJson> => {
  const response = await call(emu, 'GET', `/v1/static-export/jobs/${jobId}`);
  expect(response.status).toBe(200);
  return response.json as ExportJobJson;
};

describe('static export jobs (standard variant)', () => {
  it('answers 202 with the whole job object', async () => {
    emulator = await startTestEmulator();
    const response = await call(emulator, 'POST', '/v1/static-export/jobs', {
      body: { domain: 'docs.example.com', version: 'v2', paths: ['/guides'] },
    });
    expect(response.status).toBe(202);
    expect(response.headers.get('content-type')).toBe('application/json');
    const job = response.json as ExportJobJson;
    expect(job).toMatchObject({
      status: 'queued',
      progress: 0,
      pageCount: 0,
      error: null,
    });
    // Only the fields of the vendor's StaticExportJob (static-export-openapi.json).
    expect(Object.keys(job).sort()).toEqual(
      ['createdAt', 'error', 'jobId', 'pageCount', 'progress', 'status', 'updatedAt'].sort(),
    );
    expect(job.jobId).toMatch(/^se_[0-9a-f]{16}$/);
    expect(Date.parse(job.createdAt as string)).not.toBeNaN();
    expect(Date.parse(job.updatedAt as string)).not.toBeNaN();
    expect(emulator.exportJobs.get(job.jobId)).toMatchObject({
      domain: 'docs.example.com',
      version: 'v2',
      paths: ['/guides'],
    });
  });

  it('goes queued -> running -> completed with monotone progress and pageCount', async () => {
    emulator = await startTestEmulator({ jobDurationMs: 4000, queuedMs: 500, pageCount: 24 });
    const { jobId } = await startExport(emulator);
    const seen: ExportJobJson[] = [];
    for (let step = 0; step < 12; step++) {
      seen.push(await getJob(emulator, jobId));
      emulator.clock.advance(400);
    }
    seen.push(await getJob(emulator, jobId));
    const statuses = [...new Set(seen.map((job) => job.status))];
    expect(statuses).toEqual(['queued', 'running', 'completed']);
    for (let i = 1; i < seen.length; i++) {
      const [before, after] = [seen[i - 1] as ExportJobJson, seen[i] as ExportJobJson];
      expect(after.progress).toBeGreaterThanOrEqual(before.progress as number);
      expect(after.pageCount).toBeGreaterThanOrEqual(before.pageCount as number);
      expect(Number.isInteger(after.pageCount)).toBe(true);
    }
    const running = seen.filter((job) => job.status === 'running');
    expect(running.length).toBeGreaterThan(3);
    expect(
      running.every((job) => (job.progress as number) > 0 && (job.progress as number) < 100),
    ).toBe(true);
    const last = seen[seen.length - 1] as ExportJobJson;
    expect(last).toMatchObject({ status: 'completed', progress: 100, pageCount: 24, error: null });
  });

  it('derives state from the clock: timeScale runs jobs faster in real time', async () => {
    emulator = await startTestEmulator({ timeScale: 100, jobDurationMs: 4000 });
    const { jobId } = await startExport(emulator);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect((await getJob(emulator, jobId)).status).toBe('completed');
    expect(emulator.clock.scale).toBe(100);
  });

  it('ends `failed` with an error for domains whose first label is "fail"', async () => {
    emulator = await startTestEmulator();
    const { jobId } = await startExport(emulator, 'fail.example.com');
    emulator.clock.advance(1000);
    expect((await getJob(emulator, jobId)).status).toBe('running');
    emulator.clock.advance(10_000);
    const job = await getJob(emulator, jobId);
    expect(job.status).toBe('failed');
    expect(job.error).toBe('Rendering failed: page /guides/broken could not be built');
    expect(job.progress).toBeLessThan(100);
  });

  it('lets outcomeFor decide the outcome, error text and page count', async () => {
    emulator = await startTestEmulator({
      outcomeFor: (domain) =>
        domain.startsWith('broken.')
          ? { status: 'failed', error: 'Custom failure' }
          : domain.startsWith('fail.')
            ? 'completed'
            : { status: 'completed', pageCount: 7 },
    });
    const broken = await startExport(emulator, 'broken.example.com');
    const notFailing = await startExport(emulator, 'fail.example.com');
    const small = await startExport(emulator, 'small.example.com');
    emulator.clock.advance(10_000);
    expect(await getJob(emulator, broken.jobId)).toMatchObject({
      status: 'failed',
      error: 'Custom failure',
    });
    expect((await getJob(emulator, notFailing.jobId)).status).toBe('completed');
    expect(await getJob(emulator, small.jobId)).toMatchObject({
      status: 'completed',
      pageCount: 7,
    });
  });

  it('holds ~10% for most of the run with the stall-then-jump profile', async () => {
    emulator = await startTestEmulator({
      progressProfile: 'stall-then-jump',
      jobDurationMs: 10_500,
      queuedMs: 500,
    });
    const { jobId } = await startExport(emulator);
    const progress: number[] = [];
    for (let t = 0; t <= 11_000; t += 1000) {
      progress.push((await getJob(emulator, jobId)).progress as number);
      emulator.clock.advance(1000);
    }
    // t = 2s..8s is 15%..75% of the running phase.
    expect(progress.slice(2, 9).every((p) => p === 10)).toBe(true);
    expect(progress[9]).toBe(100);
    expect(progress.slice(-1)[0]).toBe(100);
  });

  it('bundle: 409 before completion, 200 with a fresh link on each call after it', async () => {
    emulator = await startTestEmulator({ linkLifetimeSec: 600 });
    const { jobId } = await startExport(emulator);
    const early = await call(emulator, 'POST', `/v1/static-export/jobs/${jobId}/bundle`);
    expect(early.status).toBe(409);
    expect(early.json).toEqual({ error: 'Export job has not finished yet' });
    emulator.clock.advance(5000);
    const first = await call(emulator, 'POST', `/v1/static-export/jobs/${jobId}/bundle`);
    expect(first.status).toBe(200);
    const bundle = first.json as Record<string, unknown>;
    expect(Object.keys(bundle).sort()).toEqual(['bundleUrl', 'expiresAt', 'jobId', 'sizeBytes']);
    expect(bundle.jobId).toBe(jobId);
    expect(bundle.sizeBytes).toBeGreaterThan(1000);
    const expiresAt = Date.parse(bundle.expiresAt as string);
    expect(expiresAt - emulator.clock.now()).toBeGreaterThan(598_000);
    expect(expiresAt - emulator.clock.now()).toBeLessThanOrEqual(600_000);
    expect(bundle.bundleUrl).toMatch(
      new RegExp(
        `^${emulator.storeUrl}/static-exports/exports/${jobId}/docs\\.example\\.com\\.tar\\.gz\\?`,
      ),
    );
    emulator.clock.advance(2000);
    const second = (await call(emulator, 'POST', `/v1/static-export/jobs/${jobId}/bundle`))
      .json as Record<string, unknown>;
    expect(second.bundleUrl).not.toBe(bundle.bundleUrl);
    expect(Date.parse(second.expiresAt as string)).toBeGreaterThan(expiresAt);
    expect(second.sizeBytes).toBe(bundle.sizeBytes);
  });

  it('bundle of a failed job answers 409 with the job error', async () => {
    emulator = await startTestEmulator();
    const { jobId } = await startExport(emulator, 'fail.example.com');
    emulator.clock.advance(10_000);
    const response = await call(emulator, 'POST', `/v1/static-export/jobs/${jobId}/bundle`);
    expect(response.status).toBe(409);
    expect((response.json as { error: string }).error).toContain('Rendering failed');
  });

  it('answers 404 {error} for unknown jobs and paths, 405 for a wrong method', async () => {
    emulator = await startTestEmulator();
    for (const [method, path] of [
      ['GET', '/v1/static-export/jobs/se_0000000000000000'],
      ['POST', '/v1/static-export/jobs/se_0000000000000000/bundle'],
      ['GET', '/v1/nothing-here'],
      ['POST', '/v1/static-export/demo-project/jobs'],
    ] as const) {
      const response = await call(emulator, method, path, {
        body: method === 'POST' ? {} : undefined,
      });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(typeof (response.json as { error: unknown }).error).toBe('string');
    }
    const wrongMethod = await call(emulator, 'DELETE', '/v1/static-export/jobs');
    expect(wrongMethod.status).toBe(405);
    expect(typeof (wrongMethod.json as { error: unknown }).error).toBe('string');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { call, startTestEmulator } from './helpers.js';
import type { TestEmulator } from './helpers.js';

let emulator: TestEmulator | undefined;
afterEach(async () => {
  await emulator?.stop();
  emulator = undefined;
});

interface AgentJobJson {
  id: string;
  status?: string;
  prLink: string | null;
  archivedAt: string | null;
  error?: string;
  [field: string]: unknown;
}

const create = async (emu: TestEmulator, prompt: string, project = 'demo-project') =>
  call(emu, 'POST', `/v2/agent/${project}/job`, { body: { prompt } });

const getJob = async (emu: TestEmulator, id: string): Promise<AgentJobJson> => {
  const response = await call(emu, 'GET', `/v2/agent/demo-project/job/${id}`);
  expect(response.status).toBe(200);
  return response.json as AgentJobJson;
};

const createJob = async (emu: TestEmulator, prompt: string): Promise<AgentJobJson> => {
  const response = await create(emu, prompt);
  expect(response.status).toBe(201);
  return response.json as AgentJobJson;
};

describe('agent jobs', () => {
  it('answers 201 without `status`, like the documented example', async () => {
    emulator = await startTestEmulator();
    const response = await create(emulator, 'Document the new webhook');
    expect(response.status).toBe(201);
    const job = response.json as AgentJobJson;
    expect(job).not.toHaveProperty('status');
    expect(job).toMatchObject({
      source: {
        repository: 'https://github.com/example/docs',
        ref: `agent/${String(job.id).slice(0, 8)}`,
      },
      model: 'claude-sonnet-4',
      prLink: null,
      archivedAt: null,
    });
    expect(typeof job.id).toBe('string');
    expect(Date.parse(job.createdAt as string)).not.toBeNaN();
  });

  it('includes `status` on create with createIncludesStatus', async () => {
    emulator = await startTestEmulator({ createIncludesStatus: true });
    const job = await createJob(emulator, 'x');
    expect(job.status).toBe('active');
  });

  it('goes active -> completed with a PR link after agentDurationMs', async () => {
    emulator = await startTestEmulator({ agentDurationMs: 3000, timeScale: 0 });
    const { id } = await createJob(emulator, 'Fix the typo');
    expect(await getJob(emulator, id)).toMatchObject({ status: 'active', prLink: null });
    emulator.clock.advance(2999);
    expect((await getJob(emulator, id)).status).toBe('active');
    emulator.clock.advance(1);
    const done = await getJob(emulator, id);
    expect(done.status).toBe('completed');
    expect(done.prLink).toMatch(/^https:\/\/github\.com\/example\/docs\/pull\/\d+$/);
    expect(done).not.toHaveProperty('error');
    expect(emulator.agentJobs.get(id)?.prompts).toEqual(['Fix the typo']);
  });

  it('completes without a PR link for [no-changes]', async () => {
    emulator = await startTestEmulator();
    const { id } = await createJob(emulator, 'Check spelling [no-changes]');
    emulator.clock.advance(5000);
    expect(await getJob(emulator, id)).toMatchObject({ status: 'completed', prLink: null });
  });

  it('fails for [fail] without a reason, as the vendor schema has no error field', async () => {
    emulator = await startTestEmulator();
    const { id } = await createJob(emulator, 'Do the impossible [fail]');
    emulator.clock.advance(5000);
    const job = await getJob(emulator, id);
    expect(job.status).toBe('failed');
    expect(job).not.toHaveProperty('error');
  });

  it('fails with an error text in the agentFailureReason variant', async () => {
    emulator = await startTestEmulator({ agentFailureReason: true });
    const { id } = await createJob(emulator, 'Do the impossible [fail]');
    emulator.clock.advance(5000);
    expect((await getJob(emulator, id)).error).toMatch(/Agent failed/);
  });

  it('archives right after completion for [archive]', async () => {
    emulator = await startTestEmulator({ agentDurationMs: 1000 });
    const { id, createdAt } = await createJob(emulator, 'Tidy up [archive]');
    emulator.clock.advance(1000);
    const job = await getJob(emulator, id);
    expect(job.status).toBe('archived');
    expect(Date.parse(job.archivedAt ?? '')).toBe(Date.parse(createdAt as string) + 1000);
    expect(job.prLink).not.toBeNull();
  });

  it('archives any job through archiveAgentJob and the control endpoint', async () => {
    emulator = await startTestEmulator();
    const first = await createJob(emulator, 'one');
    const second = await createJob(emulator, 'two');
    expect(emulator.archiveAgentJob('demo-project', first.id)?.status).toBe('archived');
    expect(emulator.archiveAgentJob('other-project', first.id)).toBeUndefined();
    const response = await fetch(
      `${emulator.baseUrl}/__emulator/agent/demo-project/${second.id}/archive`,
      { method: 'POST' },
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as AgentJobJson).status).toBe('archived');
    const archived = await getJob(emulator, second.id);
    expect(archived.status).toBe('archived');
    expect(archived.archivedAt).not.toBeNull();
  });

  it('answers 404 for unknown jobs and projects, 400 for a missing or empty prompt', async () => {
    emulator = await startTestEmulator();
    const missing = await call(emulator, 'GET', '/v2/agent/demo-project/job/nope');
    expect(missing).toMatchObject({ status: 404, json: { error: 'Job not found' } });
    expect((await create(emulator, 'x', 'unknown-project')).status).toBe(404);
    for (const body of [{}, { prompt: '' }, { prompt: 3 }]) {
      const response = await call(emulator, 'POST', '/v2/agent/demo-project/job', { body });
      expect(response.status).toBe(400);
      expect(typeof (response.json as { error: string }).error).toBe('string');
    }
    const { id } = await createJob(emulator, 'x');
    const otherProject = await startTestEmulator({ projects: ['demo-project', 'second'] });
    try {
      const job = await createJob(otherProject, 'y');
      const crossed = await call(otherProject, 'GET', `/v2/agent/second/job/${job.id}`);
      expect(crossed.status).toBe(404);
    } finally {
      await otherProject.stop();
    }
    expect(id).toBeTruthy();
  });

  it('rate-limits creations per project in a rolling hour, without Retry-After by default', async () => {
    emulator = await startTestEmulator({ agentRateLimit: 3, projects: ['demo-project', 'other'] });
    for (let i = 0; i < 3; i++) await createJob(emulator, `job ${i}`);
    const limited = await create(emulator, 'one too many');
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({
      error: 'Rate limit exceeded: 3 agent jobs per project per hour',
    });
    expect(limited.headers.get('retry-after')).toBeNull();
    expect((await create(emulator, 'other project', 'other')).status).toBe(201);
    emulator.clock.advance(3_600_000);
    expect((await create(emulator, 'an hour later')).status).toBe(201);
  });

  it('sends Retry-After on 429 with agentRetryAfter', async () => {
    emulator = await startTestEmulator({ agentRateLimit: 1, agentRetryAfter: true });
    await createJob(emulator, 'first');
    emulator.clock.advance(600_000);
    const limited = await create(emulator, 'second');
    expect(limited.status).toBe(429);
    const seconds = Number(limited.headers.get('retry-after'));
    expect(seconds).toBeGreaterThan(2990);
    expect(seconds).toBeLessThanOrEqual(3000);
  });

  it('accepts follow-up messages that run the job again and share the hourly limit', async () => {
    emulator = await startTestEmulator({ agentRateLimit: 2, agentDurationMs: 1000 });
    const { id } = await createJob(emulator, 'first pass [no-changes]');
    emulator.clock.advance(1000);
    expect((await getJob(emulator, id)).status).toBe('completed');
    const message = await call(emulator, 'POST', `/v2/agent/demo-project/job/${id}/message`, {
      body: { prompt: 'now change something' },
    });
    expect(message.status).toBe(200);
    expect((message.json as AgentJobJson).status).toBe('active');
    emulator.clock.advance(1000);
    expect((await getJob(emulator, id)).prLink).toMatch(/pull\/\d+$/);
    const limited = await call(emulator, 'POST', `/v2/agent/demo-project/job/${id}/message`, {
      body: { prompt: 'again' },
    });
    expect(limited.status).toBe(429);
    expect((await create(emulator, 'new job')).status).toBe(429);
    const unknown = await call(emulator, 'POST', '/v2/agent/demo-project/job/nope/message', {
      body: { prompt: 'x' },
    });
    expect(unknown.status).toBe(404);
    const empty = await call(emulator, 'POST', `/v2/agent/demo-project/job/${id}/message`, {
      body: { prompt: '' },
    });
    expect(empty.status).toBe(400);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { call, startTestEmulator } from './helpers.js';
import type { TestEmulator } from './helpers.js';

/**
 * Follow-ups and faithfulness of agent job bodies to the vendor's description: the
 * AgentJob schema (id, status, source.repository, source.ref, model, prLink, createdAt,
 * archivedAt) and the message route (200 with the job, 400, 404, 429).
 */

let emulator: TestEmulator | undefined;
afterEach(async () => {
  await emulator?.stop();
  emulator = undefined;
});

/** The fields the vendor's AgentJob schema names; nothing else goes out by default. */
const DOCUMENTED = ['archivedAt', 'createdAt', 'id', 'model', 'prLink', 'source', 'status'];

type Job = Record<string, unknown> & { id: string; status?: string; prLink: string | null };

async function post(emu: TestEmulator, path: string, prompt: string) {
  return call(emu, 'POST', `/v2/agent/demo-project/${path}`, { body: { prompt } });
}

async function get(emu: TestEmulator, id: string): Promise<Job> {
  return (await call(emu, 'GET', `/v2/agent/demo-project/job/${id}`)).json as Job;
}

describe('agent job bodies', () => {
  it('carry only documented fields, failed jobs included', async () => {
    emulator = await startTestEmulator({ agentDurationMs: 1000, timeScale: 0 });
    const created = (await post(emulator, 'job', 'Break it [fail]')).json as Job;
    expect(Object.keys(created).every((key) => DOCUMENTED.includes(key))).toBe(true);
    emulator.clock.advance(1000);
    const failed = await get(emulator, created.id);
    expect(failed.status).toBe('failed');
    expect(Object.keys(failed).sort()).toEqual(DOCUMENTED);
    expect(Object.keys(failed.source as object).sort()).toEqual(['ref', 'repository']);
    const message = (await post(emulator, `job/${created.id}/message`, 'Try again')).json as Job;
    expect(Object.keys(message).sort()).toEqual(DOCUMENTED);
  });

  it('name a branch of the job’s own', async () => {
    emulator = await startTestEmulator();
    const one = (await post(emulator, 'job', 'one')).json as Job;
    const two = (await post(emulator, 'job', 'two')).json as Job;
    expect(one.source).toEqual({
      repository: 'https://github.com/example/docs',
      ref: `agent/${one.id.slice(0, 8)}`,
    });
    expect((two.source as { ref: string }).ref).not.toBe((one.source as { ref: string }).ref);
  });
});

describe('follow-up messages', () => {
  it('interrupt the run in progress, which then changes nothing', async () => {
    emulator = await startTestEmulator({ agentDurationMs: 1000, timeScale: 0 });
    const { id } = (await post(emulator, 'job', 'Rewrite the intro')).json as Job;
    emulator.clock.advance(600);
    const answer = await post(emulator, `job/${id}/message`, 'Only fix the typos [no-changes]');
    expect(answer.status).toBe(200);
    expect((answer.json as Job).status).toBe('active');
    // The first run would have ended here: it was interrupted, so it opened no pull request.
    emulator.clock.advance(500);
    expect(await get(emulator, id)).toMatchObject({ status: 'active', prLink: null });
    emulator.clock.advance(500);
    expect(await get(emulator, id)).toMatchObject({ status: 'completed', prLink: null });
    expect(emulator.agentJobs.get(id)?.prompts).toEqual([
      'Rewrite the intro',
      'Only fix the typos [no-changes]',
    ]);
  });

  it('keep the job’s pull request, null while active as documented, and may revive a failed job', async () => {
    emulator = await startTestEmulator({ agentDurationMs: 1000, timeScale: 0 });
    const { id } = (await post(emulator, 'job', 'Add a page')).json as Job;
    emulator.clock.advance(1000);
    const pr = (await get(emulator, id)).prLink;
    expect(pr).toMatch(/\/pull\/\d+$/);
    const active = (await post(emulator, `job/${id}/message`, 'Also link it [fail]')).json as Job;
    expect(active).toMatchObject({ status: 'active', prLink: null });
    emulator.clock.advance(500);
    expect(await get(emulator, id)).toMatchObject({ status: 'active', prLink: null });
    emulator.clock.advance(500);
    expect(await get(emulator, id)).toMatchObject({ status: 'failed', prLink: pr });
    await post(emulator, `job/${id}/message`, 'Try once more');
    emulator.clock.advance(1000);
    expect(await get(emulator, id)).toMatchObject({ status: 'completed', prLink: pr });
  });

  it('are refused for an archived job (400)', async () => {
    emulator = await startTestEmulator();
    const { id } = (await post(emulator, 'job', 'x')).json as Job;
    emulator.archiveAgentJob('demo-project', id);
    const refused = await post(emulator, `job/${id}/message`, 'more');
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ error: 'Job is archived: create a new agent job instead' });
  });
});

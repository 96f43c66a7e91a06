import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../emulator/index.js';
import type { EmulatorOptions } from '../../emulator/index.js';
import { errorMessage } from '../../src/errors.js';
import {
  cancelWhen,
  type CaseOptions,
  type CaseRun,
  errorLines,
  type Harness,
  startHarness,
} from '../support/in-process.js';

/**
 * Agent jobs you can come back to, end to end through the core against the emulator:
 * following a job another run created (agent-job-id), sending it a follow-up (with a
 * prompt), and the outputs a workflow chains on.
 */

const PROJECT = 'demo-project';
const REPOSITORY = 'https://github.com/example/docs';
const RUN_MS = 20_000;

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ agentDurationMs: RUN_MS });
});
afterAll(async () => {
  await harness.stop();
});

const failure = (run: CaseRun) =>
  run.outcome.error === undefined ? undefined : errorMessage(run.outcome.error);

const agent = (inputs: Record<string, string>, on: Harness = harness, options?: CaseOptions) =>
  on.run({ command: 'agent', 'project-id': PROJECT, 'poll-interval': '0.5s', ...inputs }, options);

/** A job created directly on the emulator, as another workflow run would have. */
async function createdElsewhere(prompt: string, on: Harness = harness): Promise<string> {
  const response = await fetch(`${on.emulator.baseUrl}/v2/agent/${PROJECT}/job`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${on.emulator.keys.write}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ prompt }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Lets the job's run end (emulator time moves only when told). */
function settle(id: string): void {
  harness.emulator.clock.advance(RUN_MS);
  expect(harness.emulator.agentJobs.get(id)?.status).not.toBe('active');
}

function requestsFrom(): (route?: RecordedRequest['route']) => RecordedRequest[] {
  const before = harness.emulator.requests.length;
  return (route) =>
    harness.emulator.requests.slice(before).filter((r) => !route || r.route === route);
}

/** A harness of its own, for emulator options the shared one does not have. */
async function withHarness<T>(
  options: EmulatorOptions,
  fn: (own: Harness) => Promise<T>,
): Promise<T> {
  const own = await startHarness(options);
  try {
    return await fn(own);
  } finally {
    await own.stop();
  }
}

describe('agent-job-id without a prompt: follow an existing job', () => {
  it('polls the job until it settles and sets the outputs a new job would', async () => {
    const id = await createdElsewhere('Document the webhooks');
    const seen = requestsFrom();
    const run = await agent({ 'agent-job-id': id });
    expect(run.outcome.error).toBeUndefined();
    const job = harness.emulator.agentJobs.get(id);
    expect(run.outputs).toEqual({
      'agent-job-id': id,
      'agent-repository': REPOSITORY,
      'agent-branch': `agent/${id.slice(0, 8)}`,
      'agent-model': 'claude-sonnet-4',
      'agent-status': 'completed',
      'pr-link': job?.prLink,
    });
    expect(Object.keys(run.outputs)[0]).toBe('agent-job-id');
    expect(seen('agent.create')).toEqual([]);
    expect(seen('agent.message')).toEqual([]);
    expect(seen('agent.get').length).toBeGreaterThan(1);
    expect(job?.prompts).toEqual(['Document the webhooks']);
    expect(run.summary).toContain(
      `### ✅ Agent job in ${PROJECT} opened [example/docs#${job?.prLink?.split('/').pop()}](${job?.prLink})`,
    );
    expect(run.summary).toContain(`| Job | \`${id}\` (followed) |`);
    expect(run.summary).not.toContain('| Prompt |');
  });

  it('with wait: false, reads the job once and returns', async () => {
    const id = await createdElsewhere('Document the webhooks');
    const seen = requestsFrom();
    const run = await agent({ 'agent-job-id': id, wait: 'false' });
    expect(run.outcome.error).toBeUndefined();
    expect(seen().map((r) => r.route)).toEqual(['agent.get']);
    expect(run.outputs['agent-status']).toBe('active');
  });

  it('fails with one clear message for a job that does not exist', async () => {
    const run = await agent({ 'agent-job-id': 'nosuchjob' });
    expect(failure(run)).toMatch(/^Could not read agent job nosuchjob \(HTTP 404: Job not found\)/);
    expect(run.summary).toContain(`### ❌ Agent job in ${PROJECT} failed`);
  });
});

describe('agent-job-id of another project', () => {
  it('names agent-job-id and project-id when the job to follow is not in the project', async () => {
    const id = await createdElsewhere('Add a quickstart');
    const run = await agent({ 'agent-job-id': id, 'project-id': 'other-project' });
    expect(failure(run)).toMatch(
      /HTTP 404: .*Check `agent-job-id` and `project-id`: the job must exist in project other-project\.$/,
    );
  });
});

describe('agent-job-id with a prompt: a follow-up', () => {
  it('sends the prompt to the job, waits for the new run, and keeps the pull request', async () => {
    const id = await createdElsewhere('Add a quickstart');
    settle(id);
    const pr = harness.emulator.agentJobs.get(id)?.prLink;
    expect(pr).toMatch(/\/pull\/\d+$/);
    const seen = requestsFrom();
    const run = await agent({ 'agent-job-id': id, prompt: 'Also add error handling examples' });
    expect(run.outcome.error).toBeUndefined();
    expect(harness.emulator.agentJobs.get(id)?.prompts).toEqual([
      'Add a quickstart',
      'Also add error handling examples',
    ]);
    expect(seen('agent.message').map((r) => r.status)).toEqual([200]);
    expect(seen('agent.create')).toEqual([]);
    // It waited for the follow-up's own run, not the first one that had ended already.
    const firstPoll = seen('agent.get')[0] as RecordedRequest;
    const message = seen('agent.message')[0] as RecordedRequest;
    expect(firstPoll.at).toBeGreaterThanOrEqual(message.at);
    expect(harness.emulator.agentJobs.get(id)?.status).toBe('completed');
    expect(run.outputs).toMatchObject({
      'agent-job-id': id,
      'agent-status': 'completed',
      'pr-link': pr,
      'agent-branch': `agent/${id.slice(0, 8)}`,
    });
    expect(run.stdout).toContain(`Follow-up sent to agent job ${id}, which is now active.\n`);
    expect(run.summary).toContain('| Follow-up | Also add error handling examples |');
    expect(run.summary).toContain(`| Job | \`${id}\` (sent a follow-up) |`);
  });

  it('says when the follow-up run fails, with the pull request the job already has', async () => {
    const id = await createdElsewhere('Add a quickstart');
    settle(id);
    const pr = harness.emulator.agentJobs.get(id)?.prLink as string;
    const run = await agent({ 'agent-job-id': id, prompt: 'Rewrite everything [fail]' });
    expect(failure(run)).toBe(
      `Agent job ${id} failed: the API gave no reason. Its pull request: ${pr}. To try again, send it a follow-up (\`agent-job-id: ${id}\` and a \`prompt\` saying what to change), or start a new job.`,
    );
    expect(run.outputs).toMatchObject({ 'agent-status': 'failed', 'pr-link': pr });
  });

  it('refuses a follow-up to an archived job and says how to go on', async () => {
    const id = await createdElsewhere('x');
    harness.emulator.archiveAgentJob(PROJECT, id);
    const run = await agent({ 'agent-job-id': id, prompt: 'more' });
    // The job is what was refused: no input is named to check.
    expect(failure(run)).toBe(
      `Could not send a follow-up to agent job ${id} (HTTP 400: Job is archived: create a new agent job instead). An archived job takes no follow-ups: leave \`agent-job-id\` empty to create a new job with this prompt.`,
    );
  });

  it('says the follow-up was probably delivered when the 200 answer is not usable, and sends it once', async () => {
    const id = await createdElsewhere('Add a quickstart');
    settle(id);
    const seen = requestsFrom();
    harness.emulator.faults.add({ route: 'agent.message', status: 200, body: 'html' });
    const run = await agent({ 'agent-job-id': id, prompt: 'more' });
    expect(failure(run)).toMatch(
      /^Could not send a follow-up to agent job [0-9a-f]+: .* The API accepted the request \(HTTP 200\), so the message was probably delivered: check the job before sending it again, since the agent would act on it twice\.$/,
    );
    expect(seen('agent.message')).toHaveLength(1);
  });

  it('on SIGTERM while the follow-up awaits its answer, says it may have been delivered', async () => {
    const id = await createdElsewhere('Add a quickstart');
    settle(id);
    harness.emulator.faults.add({ route: 'agent.message', latencyMs: 10_000 });
    const cancel = cancelWhen(harness, /^::group::Sending a follow-up/, 'SIGTERM', {
      afterMs: 300,
      realTime: true,
    });
    const run = await agent({ 'agent-job-id': id, prompt: 'more' }, harness, cancel.options);
    expect(errorLines(run)).toEqual([
      `::error::Cancelled (SIGTERM). The follow-up to agent job ${id} had been sent but not answered, so it may have been delivered: check the job before sending it again, since the agent would act on it twice.`,
    ]);
    expect(run.summary).toContain(`| Job | \`${id}\` (follow-up sent, not answered) |`);
    harness.emulator.faults.clear();
  });

  it('does not blame archiving for a 400 on a job that is not archived', async () => {
    const id = await createdElsewhere('Add a quickstart');
    settle(id);
    harness.emulator.faults.add({
      route: 'agent.message',
      status: 400,
      body: JSON.stringify({ error: 'prompt is longer than 10000 characters' }),
    });
    const run = await agent({ 'agent-job-id': id, prompt: 'more' });
    expect(failure(run)).toBe(
      `Could not send a follow-up to agent job ${id} (HTTP 400: prompt is longer than 10000 characters). Check prompt.`,
    );
  });

  it('names the inputs to check when a 400 on a job that is not archived names none', async () => {
    const id = await createdElsewhere('Add a quickstart');
    settle(id);
    harness.emulator.faults.add({
      route: 'agent.message',
      status: 400,
      body: JSON.stringify({ error: 'Invalid request' }),
    });
    const run = await agent({ 'agent-job-id': id, prompt: 'more' });
    expect(failure(run)).toBe(
      `Could not send a follow-up to agent job ${id} (HTTP 400: Invalid request). The service does not say which input it refuses: check \`prompt\` (an instruction of at least one character) and \`project-id\`.`,
    );
  });

  it('names agent-job-id and project-id when the job is not found', async () => {
    const run = await agent({ 'agent-job-id': 'nosuchjob', prompt: 'more' });
    expect(failure(run)).toMatch(
      /HTTP 404: Job not found.*Check `agent-job-id` and `project-id`: the job must exist in project demo-project\.$/,
    );
    expect(run.summary).toContain('| Job | `nosuchjob` (follow-up not sent) |');
  });
});

describe('the hourly limit, shared by creations and follow-ups', () => {
  it('explains a 429 on a follow-up once the run’s time is used up', async () => {
    await withHarness({ agentRateLimit: 1 }, async (limited) => {
      const id = await createdElsewhere('uses the budget', limited);
      const run = await agent({ 'agent-job-id': id, prompt: 'more', timeout: '2s' }, limited);
      expect(failure(run)).toMatch(
        /HTTP 429.*follow-up messages count too.*raise `timeout` so the run waits longer\.$/,
      );
      expect(limited.emulator.agentJobs.get(id)?.prompts).toEqual(['uses the budget']);
    });
  });
});

describe('wait: false', () => {
  /** Creates a job that fails at once, on an emulator whose create answer carries status. */
  const instantFailure = (options: EmulatorOptions = {}) =>
    // The schema names status in the create answer (the documented example omits it).
    withHarness({ agentDurationMs: 0, createIncludesStatus: true, ...options }, (own) =>
      agent({ prompt: 'Impossible [fail]', wait: 'false' }, own),
    );

  it('fails when the create answer already says failed', async () => {
    const run = await instantFailure();
    const id = run.outputs['agent-job-id'] as string;
    expect(failure(run)).toBe(
      `Agent job ${id} failed right away: the API gave no reason. To try again, send it a follow-up (\`agent-job-id: ${id}\` and a \`prompt\` saying what to change), or start a new job.`,
    );
    expect(run.outputs['agent-status']).toBe('failed');
    expect(run.summary).toContain(`### ❌ Agent job in ${PROJECT} failed`);
  });

  it('reads the job once when the create answer gives no status, as documented, and fails if it has', async () => {
    const run = await withHarness({ agentDurationMs: 0 }, (own) =>
      agent({ prompt: 'Impossible [fail]', wait: 'false' }, own),
    );
    const id = run.outputs['agent-job-id'] as string;
    expect(failure(run)).toMatch(new RegExp(`^Agent job ${id} failed right away: `));
    expect(run.outputs['agent-status']).toBe('failed');
  });

  it('does not take a follow-up for failed on the status its earlier run left', async () => {
    const id = await createdElsewhere('Impossible [fail]');
    settle(id);
    // The follow-up's answer has no status, as documented, and the job still reads as its
    // earlier run ended.
    harness.emulator.faults.add({
      route: 'agent.message',
      status: 200,
      body: JSON.stringify({ id }),
    });
    harness.emulator.faults.add({
      route: 'agent.get',
      status: 200,
      body: JSON.stringify({ id, status: 'failed', source: {} }),
    });
    const run = await agent({ 'agent-job-id': id, prompt: 'Try it the other way', wait: 'false' });
    harness.emulator.faults.clear();
    expect(failure(run)).toBeUndefined();
    expect(run.outputs['agent-status']).toBe('active');
  });

  it('at a timeout within the follow-up grace, says the job still read its earlier run', async () => {
    const id = await createdElsewhere('Fix the typos');
    settle(id);
    // No status in the answer (as documented), and the job goes on reading as completed.
    harness.emulator.faults.add({
      route: 'agent.message',
      status: 200,
      body: JSON.stringify({ id }),
    });
    harness.emulator.faults.add({
      route: 'agent.get',
      status: 200,
      body: JSON.stringify({ id, status: 'completed', source: {} }),
    });
    const run = await agent({ 'agent-job-id': id, prompt: 'Also the headings', timeout: '5s' });
    harness.emulator.faults.clear();
    expect(run.stdout).toContain(`Follow-up sent to agent job ${id}.\n`);
    expect(errorLines(run)).toEqual([
      `::error::Agent job ${id} still read completed from before the follow-up when the 5.0s timeout passed. The follow-up may still be taken up on the server, and the job may still update its pull request (${harness.emulator.agentJobs.get(id)?.prLink}): follow it with \`agent-job-id: ${id}\`.`,
    ]);
    // The job did not fail: the summary says where the run left it.
    expect(run.summary).toContain(
      `### ❌ Agent job in ${PROJECT} not followed to its end: the follow-up was not seen taken up (the job still read completed)`,
    );
    expect(run.summary).not.toMatch(/Agent job in \S+ failed/);
  });

  it('when the job can no longer be read while waiting, says it may still run and how to follow it', async () => {
    const id = await createdElsewhere('Fix the typos');
    settle(id);
    // A rate limit that outlasts the run: the follow-up went through, its run is not seen.
    harness.emulator.faults.add({ route: 'agent.get', status: 429, retryAfter: '7200' });
    const run = await agent({ 'agent-job-id': id, prompt: 'Also the headings' });
    harness.emulator.faults.clear();
    expect(failure(run)).toMatch(
      new RegExp(
        `HTTP 429.* The follow-up was sent to agent job ${id}, which may still be running: follow it with \`agent-job-id: ${id}\` and no \`prompt\`; with the prompt, it would be sent again\\.$`,
      ),
    );
  });

  it('at a timeout, names a status the API does not document as such', async () => {
    const id = await createdElsewhere('Fix the typos');
    harness.emulator.faults.add({
      route: 'agent.get',
      status: 200,
      body: JSON.stringify({ id, status: 'cancelled', source: {} }),
      times: Infinity,
    });
    const run = await agent({ 'agent-job-id': id, timeout: '3s' });
    harness.emulator.faults.clear();
    settle(id);
    expect(errorLines(run)).toEqual([
      `::error::Agent job ${id} reported "cancelled", a status the API does not document, when the 3.0s timeout passed. It may keep running on the server and may still open a pull request: follow it with \`agent-job-id: ${id}\`.`,
    ]);
  });

  it('keeps a created job when reading its status fails, and says not to run the step again', async () => {
    await withHarness({}, async (own) => {
      own.emulator.faults.add({
        route: 'agent.get',
        status: 404,
        body: '{"error":"Job not found"}',
        times: Infinity,
      });
      const run = await agent({ prompt: 'Add a FAQ page', wait: 'false' }, own);
      const id = run.outputs['agent-job-id'] as string;
      expect(failure(run)).toBeUndefined();
      expect(run.outputs['agent-status']).toBe('active');
      expect(run.stdout).toMatch(
        new RegExp(
          `::warning::Agent job ${id} was created, but reading its status failed \\(.*HTTP 404.*\\): it is taken as active\\. Follow it with \`agent-job-id: ${id}\`; running this step again would create a second job\\.`,
        ),
      );
    });
  });

  it('shows the reason when the server sends one (a variant the vendor does not document)', async () => {
    const run = await instantFailure({ agentFailureReason: true });
    expect(failure(run)).toMatch(
      /failed right away: Agent failed: the requested changes could not be applied\. To try again, send it a follow-up/,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { unknownOutcomeAdvice } from '../../src/agent/follow-up.js';
import { ApiError } from '../../src/api/errors.js';
import { FOLLOW_UP_GRACE_MS, runAgent } from '../../src/agent/run.js';
import type { AdminApi } from '../../src/api/client.js';
import type { AgentJob } from '../../src/api/schemas.js';
import type { Clock } from '../../src/clock.js';
import type { AgentConfig } from '../../src/config.js';
import type { AgentRecord } from '../../src/report.js';
import { recordingReporter } from '../support/recording-reporter.js';

/** A clock whose sleeps pass at once. */
function instantClock(): Clock & { slept: number[] } {
  let now = 1_000_000;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

const job = (status: string, prLink?: string): AgentJob => ({
  id: 'job1',
  status,
  statusStated: true,
  source: { repository: 'https://github.com/example/docs', ref: 'agent/job1' },
  model: 'm',
  prLink,
  prLinkUnusable: false,
});

const config: AgentConfig = {
  command: 'agent',
  projectId: 'p',
  jobId: 'job1',
  prompt: 'Also fix the links',
  wait: true,
  apiKey: 'mint_x',
  baseUrl: new URL('https://api.example.com'),
  timeoutMs: 600_000,
  pollInterval: 1000,
  requestTimeoutMs: 1000,
};

async function followUp(answer: AgentJob, polls: AgentJob[]) {
  const clock = instantClock();
  const reads: number[] = [];
  const api = {
    sendAgentMessage: async () => answer,
    getAgentJob: async () => {
      reads.push(clock.now());
      return polls[Math.min(reads.length - 1, polls.length - 1)] as AgentJob;
    },
  } as unknown as AdminApi;
  const record: AgentRecord = {
    command: 'agent',
    projectId: 'p',
    startedAt: clock.now(),
    waited: true,
  };
  await runAgent(config, {
    api,
    reporter: recordingReporter().reporter,
    clock,
    deadline: clock.now() + 600_000,
    record,
  });
  return { record, reads, clock };
}

describe('waiting after a follow-up', () => {
  it('does not take the earlier run’s result for the follow-up’s', async () => {
    // The message was accepted, but the job still reads completed from the earlier run.
    const pr = 'https://github.com/example/docs/pull/7';
    const { record, reads } = await followUp(job('completed', pr), [
      job('completed', pr),
      job('completed', pr),
      job('active', pr),
      job('active', pr),
      job('completed', pr),
    ]);
    expect(reads).toHaveLength(5);
    expect(record.status).toBe('completed');
  });

  it('accepts a settled job after the grace period when the run never shows active', async () => {
    const { reads, clock } = await followUp(job('completed'), [job('completed')]);
    const waited = (reads.at(-1) as number) - (reads[0] as number);
    expect(waited).toBeGreaterThanOrEqual(FOLLOW_UP_GRACE_MS - 1000);
    expect(clock.slept.every((ms) => ms === 1000)).toBe(true);
  });

  it('settles at once when the answer to the message is already active', async () => {
    const { reads } = await followUp(job('active'), [job('completed')]);
    expect(reads).toHaveLength(1);
  });
});

describe('whether a send-once call may have gone through', () => {
  const call = { subject: 'The job', done: 'created', check: 'check first.' };

  it('says nothing of the kind after failures the client retries as never acted on', () => {
    const refused = new ApiError('Could not create: the connection was refused.', {
      kind: 'network',
      code: 'ECONNREFUSED',
      transient: true,
    });
    const unavailable = new ApiError('Could not create (HTTP 503).', {
      kind: 'server',
      status: 503,
      fromApi: true,
    });
    const later = new ApiError('Could not create (HTTP 503).', {
      kind: 'server',
      status: 503,
      retryAfterMs: 1000,
    });
    expect(unknownOutcomeAdvice(refused.withMessage(`${refused.message} Gave up.`), call)).toBe(
      undefined,
    );
    expect(unknownOutcomeAdvice(unavailable.withMessage('Gave up.'), call)).toBe(undefined);
    expect(unknownOutcomeAdvice(later, call)).toBe(undefined);
  });

  it('warns after a failure that may have reached the server', () => {
    const reset = new ApiError('x', { kind: 'network', code: 'ECONNRESET', transient: true });
    const failing = new ApiError('x', { kind: 'server', status: 500 });
    // A proxy's page: the service behind it may have acted before the proxy gave up.
    const proxyPage = new ApiError('x', { kind: 'server', status: 503 });
    expect(unknownOutcomeAdvice(reset, call)).toMatch(/may have been created anyway/);
    expect(unknownOutcomeAdvice(failing, call)).toMatch(/may have been created anyway/);
    expect(unknownOutcomeAdvice(proxyPage, call)).toMatch(/may have been created anyway/);
  });
});

import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/clock.js';
import { CancelledError, TimeoutError } from '../../src/errors.js';
import {
  AGENT_SCHEDULE,
  EXPORT_SCHEDULE,
  estimateRemainingMs,
  nextPollDelay,
  pollUntilSettled,
} from '../../src/poll.js';

/** A clock whose sleeps advance time instantly, recording each wait. */
function fakeClock(start = 0) {
  let now = start;
  const sleeps: number[] = [];
  const clock: Clock = {
    now: () => now,
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      now += ms;
    },
  };
  return { clock, sleeps, advance: (ms: number) => (now += ms) };
}

/** A job that runs `durationMs` with linear progress, started at clock time 0. */
function linearJob(clock: Clock, durationMs: number) {
  let reads = 0;
  return {
    reads: () => reads,
    read: async () => {
      reads += 1;
      const t = clock.now();
      return t >= durationMs
        ? { status: 'completed', progress: 100 }
        : { status: 'running', progress: (100 * t) / durationMs };
    },
  };
}

describe('nextPollDelay', () => {
  it('uses a fixed interval as given', () => {
    expect(nextPollDelay([{ at: 0, progress: 10 }], 7000, EXPORT_SCHEDULE)).toBe(7000);
  });

  it('backs off from 2 s to 15 s when the job reports no progress (agent jobs)', () => {
    const delays = Array.from({ length: 10 }, (_, i) =>
      nextPollDelay(
        Array.from({ length: i + 1 }, (_, j) => ({ at: j })),
        'auto',
        AGENT_SCHEDULE,
      ),
    );
    expect(delays[0]).toBe(2000);
    expect(delays).toEqual([...delays].sort((a, b) => a - b));
    expect(delays.at(-1)).toBe(15_000);
  });

  it('waits about half the estimated time left, within 0.5 s and 15 s', () => {
    expect(
      estimateRemainingMs([
        { at: 0, progress: 0 },
        { at: 1000, progress: 10 },
      ]),
    ).toBe(9000);
    expect(
      nextPollDelay(
        [
          { at: 0, progress: 0 },
          { at: 1000, progress: 10 },
        ],
        'auto',
        EXPORT_SCHEDULE,
      ),
    ).toBe(4500);
    expect(
      nextPollDelay(
        [
          { at: 0, progress: 0 },
          { at: 1000, progress: 1 },
        ],
        'auto',
        EXPORT_SCHEDULE,
      ),
    ).toBe(15_000);
    expect(
      nextPollDelay(
        [
          { at: 0, progress: 0 },
          { at: 1000, progress: 99.99 },
        ],
        'auto',
        EXPORT_SCHEDULE,
      ),
    ).toBe(500);
  });

  it('has no estimate while progress stands still', () => {
    expect(
      estimateRemainingMs([
        { at: 0, progress: 40 },
        { at: 5000, progress: 40 },
      ]),
    ).toBeUndefined();
  });
});

describe('pollUntilSettled', () => {
  it('notices the end of a 20 s linear job within a second, with few requests', async () => {
    const { clock } = fakeClock();
    const job = linearJob(clock, 20_000);
    const final = await pollUntilSettled({
      read: job.read,
      isSettled: (j) => j.status === 'completed',
      progressOf: (j) => j.progress,
      interval: 'auto',
      limits: EXPORT_SCHEDULE,
      clock,
      deadline: 60_000,
      onDeadline: () => new Error('deadline'),
    });
    expect(final.status).toBe('completed');
    expect(clock.now() - 20_000).toBeLessThanOrEqual(1000);
    expect(job.reads()).toBeLessThanOrEqual(15);
  });

  it('polls at a fixed pace when asked to', async () => {
    const { clock, sleeps } = fakeClock();
    const job = linearJob(clock, 10_000);
    await pollUntilSettled({
      read: job.read,
      isSettled: (j) => j.status === 'completed',
      progressOf: (j) => j.progress,
      interval: 3000,
      limits: EXPORT_SCHEDULE,
      clock,
      deadline: 60_000,
      onDeadline: () => new Error('deadline'),
    });
    expect(sleeps).toEqual([3000, 3000, 3000, 3000]);
  });

  it('throws the deadline error after a last read at the deadline', async () => {
    const { clock, sleeps } = fakeClock();
    let reads = 0;
    const promise = pollUntilSettled({
      read: async () => ({ status: `mystery-${++reads}` }),
      isSettled: () => false,
      interval: 'auto',
      limits: EXPORT_SCHEDULE,
      clock,
      deadline: 20_000,
      onDeadline: (last) => new TimeoutError(`still ${last.status}`),
    });
    await expect(promise).rejects.toThrow(TimeoutError);
    expect(clock.now()).toBe(20_000);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBe(20_000);
  });

  it('stops at once when the signal aborts', async () => {
    const { clock } = fakeClock();
    const controller = new AbortController();
    let reads = 0;
    const promise = pollUntilSettled({
      read: async () => {
        reads += 1;
        if (reads === 3) controller.abort(new CancelledError('stop'));
        return { status: 'running' };
      },
      isSettled: () => false,
      interval: 1000,
      limits: EXPORT_SCHEDULE,
      clock,
      deadline: 60_000,
      onDeadline: () => new Error('deadline'),
      signal: controller.signal,
    });
    await expect(promise).rejects.toThrow(CancelledError);
    expect(reads).toBe(3);
  });
});

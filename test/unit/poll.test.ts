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

  it('waits about half the estimated time left, measured from the first progress', () => {
    const running = [
      { at: 0, progress: 0 },
      { at: 1000, progress: 10 },
      { at: 5000, progress: 30 },
    ];
    // 20 points in 4 s since progress began: 5%/s, 70% left → 14 s, so wait 7 s … but
    // never more than half the 5 s polled so far.
    expect(estimateRemainingMs(running)).toBe(14_000);
    expect(nextPollDelay(running, 'auto', EXPORT_SCHEDULE)).toBe(2500);
    expect(nextPollDelay([...running, { at: 18_000, progress: 95 }], 'auto', EXPORT_SCHEDULE)).toBe(
      1250,
    );
  });

  it('stays within 0.5 s and 15 s', () => {
    const slow = [
      { at: 0, progress: 1 },
      { at: 100_000, progress: 2 },
    ];
    expect(nextPollDelay(slow, 'auto', EXPORT_SCHEDULE)).toBe(15_000);
    const almost = [
      { at: 0, progress: 1 },
      { at: 1000, progress: 99.99 },
    ];
    expect(nextPollDelay(almost, 'auto', EXPORT_SCHEDULE)).toBe(500);
  });

  it('has no estimate while progress stands still, and waits a share of the stall', () => {
    const stalled = [
      { at: 0, progress: 10 },
      { at: 4000, progress: 10 },
      { at: 8000, progress: 10 },
    ];
    expect(estimateRemainingMs(stalled)).toBeUndefined();
    expect(nextPollDelay(stalled, 'auto', EXPORT_SCHEDULE)).toBe(2000);
  });

  it('backs off gently once progress reads 100% but the job is not done yet', () => {
    const full = [
      { at: 0, progress: 50 },
      { at: 1000, progress: 100 },
      { at: 1500, progress: 100 },
    ];
    expect(nextPollDelay(full.slice(0, 2), 'auto', EXPORT_SCHEDULE)).toBe(500);
    expect(nextPollDelay(full, 'auto', EXPORT_SCHEDULE)).toBe(750);
  });
});

/** Progress of the emulator's profiles, for a fraction of the running phase. */
function progressAt(profile: 'linear' | 'stall-then-jump', fraction: number): number {
  const f = Math.min(1, Math.max(0, fraction));
  return profile === 'linear' ? 100 * f : f < 0.8 ? 10 * Math.min(1, f / 0.1) : 100;
}

describe('adaptive polling against progress profiles', () => {
  it.each([
    ['linear', 20_000, 1000, 15],
    ['linear', 60_000, 1000, 15],
    ['linear', 300_000, 1000, 35],
    ['stall-then-jump', 20_000, 1000, 20],
    ['stall-then-jump', 60_000, 3000, 25],
  ] as const)(
    'a %s job of %i ms is noticed within %i ms using at most %i status reads',
    async (profile, total, delay, reads) => {
      const { clock } = fakeClock();
      const queued = 500;
      let count = 0;
      const final = await pollUntilSettled({
        read: async () => {
          count += 1;
          const t = clock.now();
          if (t >= total) return { status: 'completed', progress: 100 };
          return {
            status: 'running',
            progress: t < queued ? 0 : progressAt(profile, (t - queued) / (total - queued)),
          };
        },
        isSettled: (j) => j.status === 'completed',
        progressOf: (j) => j.progress,
        interval: 'auto',
        limits: EXPORT_SCHEDULE,
        clock,
        deadline: total * 3,
        onDeadline: () => new Error('deadline'),
      });
      expect(final.status).toBe('completed');
      expect(clock.now() - total).toBeLessThanOrEqual(delay);
      expect(count).toBeLessThanOrEqual(reads);
    },
  );
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

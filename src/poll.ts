import type { Clock } from './clock.js';
import type { PollInterval } from './config.js';
import { throwIfAborted } from './errors.js';

/** What one poll saw, as far as scheduling is concerned. */
export interface PollSample {
  at: number;
  /** Percent complete, when the job reports it. */
  progress?: number;
}

export interface ScheduleLimits {
  minMs: number;
  maxMs: number;
  /** First wait and growth factor when the job reports no progress. */
  initialMs: number;
  factor: number;
}

export const EXPORT_SCHEDULE: ScheduleLimits = {
  minMs: 500,
  maxMs: 15_000,
  initialMs: 1000,
  factor: 1.5,
};
/** Agent jobs report no progress: back off from 2 s to 15 s. */
export const AGENT_SCHEDULE: ScheduleLimits = {
  minMs: 500,
  maxMs: 15_000,
  initialMs: 2000,
  factor: 1.5,
};

/** Once the estimate says the job is this close to done, poll just after the estimate. */
const NEAR_MS = 2000;
const JUST_AFTER_MS = 250;

/**
 * Estimated time to completion from the progress rate: the rate between the first
 * sample that reported progress and the latest one.
 */
export function estimateRemainingMs(history: readonly PollSample[]): number | undefined {
  const withProgress = history.filter((s) => s.progress !== undefined);
  if (withProgress.length < 2) return undefined;
  const first = withProgress[0] as PollSample & { progress: number };
  const last = withProgress[withProgress.length - 1] as PollSample & { progress: number };
  const rate = (last.progress - first.progress) / (last.at - first.at);
  if (!(rate > 0)) return undefined;
  return Math.max(0, (100 - last.progress) / rate);
}

/**
 * The wait before the next poll. With progress, poll half-way to the estimated end and
 * then just after it; without, back off geometrically. Always within [minMs, maxMs].
 */
export function nextPollDelay(
  history: readonly PollSample[],
  interval: PollInterval,
  limits: ScheduleLimits,
): number {
  if (interval !== 'auto') return interval;
  const clamp = (ms: number) => Math.min(limits.maxMs, Math.max(limits.minMs, Math.round(ms)));
  const remaining = estimateRemainingMs(history);
  if (remaining !== undefined) {
    return clamp(remaining > NEAR_MS ? remaining / 2 : remaining + JUST_AFTER_MS);
  }
  return clamp(limits.initialMs * limits.factor ** Math.max(0, history.length - 1));
}

export interface PollOptions<T> {
  read: (signal?: AbortSignal) => Promise<T>;
  isSettled: (value: T) => boolean;
  progressOf?: (value: T) => number | undefined;
  /** Called after every poll with the value and the estimated time left, if any. */
  onPoll?: (value: T, remainingMs: number | undefined) => void;
  interval: PollInterval;
  limits: ScheduleLimits;
  clock: Clock;
  /** Clock time when polling gives up. */
  deadline: number;
  /** The error thrown when the deadline passes before the value settles. */
  onDeadline: (last: T) => Error;
  signal?: AbortSignal;
}

/** Polls until `isSettled`, the deadline or the signal, whichever comes first. */
export async function pollUntilSettled<T>(options: PollOptions<T>): Promise<T> {
  const { clock, signal } = options;
  const history: PollSample[] = [];
  for (;;) {
    throwIfAborted(signal);
    const value = await options.read(signal);
    const progress = options.progressOf?.(value);
    history.push({ at: clock.now(), ...(progress !== undefined ? { progress } : {}) });
    options.onPoll?.(value, estimateRemainingMs(history));
    if (options.isSettled(value)) return value;
    const left = options.deadline - clock.now();
    if (left <= 0) throw options.onDeadline(value);
    await clock.sleep(
      Math.min(left, nextPollDelay(history, options.interval, options.limits)),
      signal,
    );
  }
}

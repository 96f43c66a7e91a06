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
/** While progress stands still, wait at most this share of the time it has stood still. */
const STALL_SHARE = 0.25;
/** Never wait longer than this share of the time polled so far: early estimates are poor. */
const ELAPSED_SHARE = 0.5;

type Progressed = PollSample & { progress: number };

/**
 * Estimated time to completion from the progress rate, measured from the first sample
 * that showed any progress (a queued job's 0% would make a running job look slow).
 */
export function estimateRemainingMs(history: readonly PollSample[]): number | undefined {
  const moving = history.filter((s): s is Progressed => s.progress !== undefined && s.progress > 0);
  const last = history.at(-1);
  const first = moving[0];
  if (!first || last?.progress === undefined || last.at <= first.at) return undefined;
  const rate = (last.progress - first.progress) / (last.at - first.at);
  if (!(rate > 0)) return undefined;
  return Math.max(0, (100 - last.progress) / rate);
}

/**
 * The wait before the next poll. With progress: half-way to the estimated end, then
 * just after it; while progress stands still, a quarter of the time it has stood still
 * (so a job that stalls and then jumps is noticed soon after); past the estimated end,
 * a short backoff. Without progress: a geometric backoff. Always within [minMs, maxMs].
 */
export function nextPollDelay(
  history: readonly PollSample[],
  interval: PollInterval,
  limits: ScheduleLimits,
): number {
  if (interval !== 'auto') return interval;
  const clamp = (ms: number) => Math.min(limits.maxMs, Math.max(limits.minMs, Math.round(ms)));
  const last = history.at(-1);
  if (last?.progress === undefined) {
    return clamp(limits.initialMs * limits.factor ** Math.max(0, history.length - 1));
  }
  // Samples at the current progress value, oldest first: how long it has stood still.
  let since = history.length - 1;
  while (since > 0 && history[since - 1]?.progress === last.progress) since -= 1;
  const still = history.length - 1 - since;
  if (last.progress >= 100) return clamp(limits.minMs * limits.factor ** still);
  const remaining = estimateRemainingMs(history);
  const stalled =
    still > 0 ? STALL_SHARE * (last.at - (history[since] as PollSample).at) : Infinity;
  if (remaining === undefined) {
    return clamp(Math.min(stalled, limits.initialMs * limits.factor ** still));
  }
  const ahead = remaining > NEAR_MS ? remaining / 2 : remaining + JUST_AFTER_MS;
  const elapsed = ELAPSED_SHARE * (last.at - (history[0] as PollSample).at);
  return clamp(Math.min(ahead, stalled, elapsed));
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

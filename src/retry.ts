import type { Clock, Random } from './clock.js';
import { formatDuration } from './duration.js';

/**
 * How long a run of failures may go on, and how the waits between tries grow. The budget
 * is time, not a count of tries: an outage of a few seconds costs a few tries whatever
 * the backoff, and a long one ends after the same time for the API and the storage.
 */
export interface RetryBudget {
  /** Longest time from the first failure of a run of failures to giving up (ms). */
  outageMs: number;
  /** Ceiling of the first wait; it doubles after each failure, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Network and server failures of the API and the storage alike: five minutes of outage. */
export const OUTAGE_BUDGET: RetryBudget = {
  outageMs: 5 * 60_000,
  baseDelayMs: 500,
  maxDelayMs: 15_000,
};

/** A try needs at least this much time left before the deadline to be worth making. */
export const MIN_TRY_MS = 250;

/** Exponential backoff with full jitter: a random delay in [50, min(max, base·2^(n-1))). */
export function backoffDelay(
  failure: number,
  budget: Pick<RetryBudget, 'baseDelayMs' | 'maxDelayMs'>,
  random: Random,
): number {
  const ceiling = Math.min(budget.maxDelayMs, budget.baseDelayMs * 2 ** Math.max(0, failure - 1));
  // Never zero: two callers that both drew 0 would retry in lockstep.
  return Math.max(50, Math.floor(random() * ceiling));
}

/** One failure, as the caller judged it worth another try. */
export interface RetryableFailure {
  /** Shown in the line announcing the next try. */
  reason: string;
  /** The server's Retry-After, in ms: never shortened, and at least the backoff. */
  retryAfterMs?: number;
  /** Keep trying until the deadline, past the outage budget (a rate limit is not an outage). */
  untilDeadline?: boolean;
  /**
   * Added to the backoff (which a Retry-After may still lengthen): a rate limit is not
   * lifted in the 50 ms that full jitter may draw.
   */
  extraDelayMs?: number;
  /** The server refused for a rate limit (429): the line announcing the next try says so. */
  rateLimited?: boolean;
}

/**
 * How a 429 is tried again, from the API or the storage: until the deadline (a rate limit
 * is not an outage), and a second more than the backoff, so that no wait after one is
 * under a second, as far as the deadline allows.
 */
export const RATE_LIMITED = { untilDeadline: true, extraDelayMs: 1000, rateLimited: true } as const;

/** Why a run of failures ended without another try. */
export interface GiveUp {
  why: 'outage' | 'deadline';
  /** Tries made in this run of failures. */
  attempts: number;
  /** Time since the first failure of the run (ms). */
  elapsedMs: number;
  /** The wait the server asked for, when that is what did not fit. */
  retryAfterMs?: number;
}

export interface RetryEvent {
  /** The number of the try about to be made (2 for the first retry). */
  attempt: number;
  delayMs: number;
  reason: string;
  /** A rate limit is waited out: with the wait the server asked for, or the backoff's cap. */
  rateLimit?: { askedMs: number } | { capMs: number };
}

export interface RetryOptions {
  clock: Clock;
  random: Random;
  budget?: RetryBudget;
  /** Clock time after which no try is made (the run's overall deadline). */
  deadline?: () => number | undefined;
  signal?: AbortSignal;
  onRetry?: (event: RetryEvent) => void;
}

/**
 * The one retry schedule of the action, for the API client, the download and the bundle
 * wait alike: each caller judges its own failures, calls `failed` for those worth another
 * try (it sleeps, or says why it gives up), and `succeeded` whenever progress is made.
 */
export class RetrySchedule {
  readonly #options: RetryOptions & { budget: RetryBudget };
  #failures = 0;
  #firstFailureAt: number | undefined;
  /** Time the server asked to wait, not counted as outage (ms). */
  #askedMs = 0;

  constructor(options: RetryOptions) {
    this.#options = { ...options, budget: options.budget ?? OUTAGE_BUDGET };
  }

  /** Failures in the current run (0 after progress). */
  get failures(): number {
    return this.#failures;
  }

  /** Progress was made: the next failure starts a new run with a fresh budget. */
  succeeded(): void {
    this.#failures = 0;
    this.#firstFailureAt = undefined;
    this.#askedMs = 0;
  }

  #backoff(failure: RetryableFailure): number {
    const { budget, random } = this.#options;
    return (failure.extraDelayMs ?? 0) + backoffDelay(this.#failures, budget, random);
  }

  /** Waits before the next try; returns why not instead when the budget or deadline is spent. */
  async failed(failure: RetryableFailure): Promise<GiveUp | undefined> {
    const { clock, budget } = this.#options;
    const now = clock.now();
    this.#failures += 1;
    this.#firstFailureAt ??= now;
    const elapsedMs = now - this.#firstFailureAt;
    const stop = (why: GiveUp['why']): GiveUp => ({
      why,
      attempts: this.#failures,
      elapsedMs,
      ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
    });
    const deadline = this.#options.deadline?.();
    const left = deadline === undefined ? Infinity : deadline - now;
    let outageLeft = failure.untilDeadline
      ? Infinity
      : this.#firstFailureAt + budget.outageMs + this.#askedMs - now;
    let delayMs: number;
    if (failure.retryAfterMs !== undefined) {
      // Trying earlier than the server asked is pointless, so the wait is not shortened.
      if (failure.retryAfterMs + MIN_TRY_MS > left) return stop('deadline');
      if (deadline !== undefined) {
        // A server that names when it is back (a maintenance window) is waited for, up to
        // the run's deadline: its wait is no part of the outage.
        this.#askedMs += failure.retryAfterMs;
        outageLeft += failure.retryAfterMs;
      } else if (failure.retryAfterMs > outageLeft) {
        // Without a deadline, nothing else would bound the waits.
        return stop('outage');
      }
      const room = Math.min(left, outageLeft) - MIN_TRY_MS;
      // Nor is it shorter than the backoff: a server answering "Retry-After: 0" (or a date
      // already past) again and again would otherwise be asked in a tight loop.
      const backoff = room < MIN_TRY_MS ? 0 : this.#backoff(failure);
      delayMs = Math.max(failure.retryAfterMs, Math.min(backoff, room));
    } else {
      const room = Math.min(left, outageLeft) - MIN_TRY_MS;
      if (room < MIN_TRY_MS) return stop(left <= outageLeft ? 'deadline' : 'outage');
      delayMs = Math.min(this.#backoff(failure), room);
    }
    const rateLimit = !failure.rateLimited
      ? {}
      : {
          rateLimit:
            failure.retryAfterMs !== undefined
              ? { askedMs: failure.retryAfterMs }
              : { capMs: (failure.extraDelayMs ?? 0) + budget.maxDelayMs },
        };
    this.#options.onRetry?.({
      attempt: this.#failures + 1,
      delayMs,
      reason: failure.reason,
      ...rateLimit,
    });
    await clock.sleep(delayMs, this.#options.signal);
    return undefined;
  }
}

/** A server's wait in whole seconds; one past a day (a broken header) is not spelled out. */
export function askedWait(ms: number): string {
  return ms > 86_400_000 ? 'over a day' : `${Math.ceil(ms / 1000)}s`;
}

/** "for 4.2 s over 6 attempts", "the run's timeout leaves no time…": why the tries ended. */
export function describeGiveUp(stop: GiveUp): string {
  const tries = `${stop.attempts} attempt${stop.attempts === 1 ? '' : 's'}`;
  if (stop.why === 'deadline') {
    return `The run's timeout leaves no time to try again${
      stop.retryAfterMs !== undefined
        ? ` (the server asked to wait ${askedWait(stop.retryAfterMs)})`
        : ''
    }; gave up after ${tries}.`;
  }
  return `Gave up after ${tries} over ${formatDuration(stop.elapsedMs)}${
    stop.retryAfterMs !== undefined
      ? ` (the server asked to wait ${askedWait(stop.retryAfterMs)} more)`
      : ''
  }.`;
}

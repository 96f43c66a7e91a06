import type { Clock, Random } from '../clock.js';

/** Which failures of a call may be tried again, and for how long. */
export interface RetryPolicy {
  /** HTTP statuses worth another try. */
  statuses: ReadonlySet<number>;
  /**
   * Network failures worth another try: `any` for calls that are safe to repeat,
   * `refused` for calls that must not run twice (only a refused connection proves the
   * server never saw the request).
   */
  network: 'any' | 'refused';
  /** Tries for server and network failures; 429 keeps trying until the deadline. */
  maxAttempts: number;
}

/** Reads (and calls that only hand out a fresh link) are safe to repeat. */
export const REPEATABLE: RetryPolicy = {
  statuses: new Set([408, 429, 500, 502, 503, 504]),
  network: 'any',
  maxAttempts: 6,
};

/**
 * Starting an export twice only wastes work on the server, so gateway errors are tried
 * again; a 500 may mean the job exists, so it is not.
 */
export const START_EXPORT: RetryPolicy = {
  statuses: new Set([429, 502, 503, 504]),
  network: 'any',
  maxAttempts: 5,
};

/** A second agent job would open a second pull request: only retry certain refusals. */
export const CREATE_ONCE: RetryPolicy = {
  statuses: new Set([429, 503]),
  network: 'refused',
  maxAttempts: 5,
};

export interface Backoff {
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseDelayMs: 1000, maxDelayMs: 30_000 };

/** Exponential backoff with full jitter: a random delay in [0, min(max, base·2^n)). */
export function backoffDelay(attempt: number, backoff: Backoff, random: Random): number {
  const ceiling = Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  // Never zero: two callers that both drew 0 would retry in lockstep.
  return Math.max(50, Math.floor(random() * ceiling));
}

/** Retry-After in seconds or as an HTTP date, as a delay in ms from `clock.now()`. */
export function parseRetryAfter(value: string | undefined, clock: Clock): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - clock.now());
}

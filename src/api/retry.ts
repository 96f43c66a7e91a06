import type { RetryBudget } from '../retry.js';

/** Which failures of a call may be tried again (how long: the shared RetryBudget). */
export interface RetryPolicy {
  /** HTTP statuses worth another try. */
  statuses: ReadonlySet<number>;
  /**
   * Network failures worth another try: `any` transient one for calls that are safe to
   * repeat, `refused` for calls that must not run twice (only a refused connection proves
   * the server never saw the request).
   */
  network: 'any' | 'refused';
  /**
   * Whether the call is sent again when its success status arrived but its body was cut
   * off: a read may be, while a call that makes something has made it.
   */
  afterSuccess: boolean;
}

/** Reads (and calls that only hand out a fresh link) are safe to repeat. */
export const REPEATABLE: RetryPolicy = {
  statuses: new Set([408, 429, 500, 502, 503, 504]),
  network: 'any',
  afterSuccess: true,
};

/**
 * Starting an export twice only wastes work on the server, so gateway errors are tried
 * again; a 500 may mean the job exists, so it is not, nor is a start whose 202 arrived.
 */
export const START_EXPORT: RetryPolicy = {
  statuses: new Set([429, 502, 503, 504]),
  network: 'any',
  afterSuccess: false,
};

/** A second agent job would open a second pull request: only retry certain refusals. */
export const CREATE_ONCE: RetryPolicy = {
  statuses: new Set([429, 503]),
  network: 'refused',
  afterSuccess: false,
};

/**
 * A 404 about a job this run has just created, before any call has found it: behind a
 * load balancer, a replica that has not seen the job yet answers for it. A few seconds of
 * the usual backoff, then the 404 stands.
 */
export const JUST_CREATED_BUDGET: RetryBudget = {
  outageMs: 10_000,
  baseDelayMs: 500,
  maxDelayMs: 4000,
};

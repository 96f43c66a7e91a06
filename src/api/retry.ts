import type { RetryBudget } from '../retry.js';
import type { ApiError } from './errors.js';

/** Which failures of a call may be tried again (how long: the shared RetryBudget). */
export interface RetryPolicy {
  /** HTTP statuses worth another try. */
  statuses: ReadonlySet<number>;
  /**
   * For calls that must not run twice: a failure is tried again only when it proves the
   * server did not act on the request (`notActedOn`), whatever its status. Otherwise any
   * transient network failure is tried again.
   */
  once: boolean;
  /**
   * Whether the call is sent again when its success status arrived but its body was cut
   * off: a read may be, while a call that makes something has made it.
   */
  afterSuccess: boolean;
}

/** Reads (and calls that only hand out a fresh link) are safe to repeat. */
export const REPEATABLE: RetryPolicy = {
  statuses: new Set([408, 429, 500, 502, 503, 504]),
  once: false,
  afterSuccess: true,
};

/**
 * A second export of the same site only costs the service work: a start that a gateway
 * answered (502, 503, 504), or that broke off, is sent again even when the service may
 * have acted on it; the run follows the job of the answer it gets, and the other runs to
 * its end unused. A 500 is the API saying, in its own words, that it failed this request,
 * maybe after making the job and maybe every time: retried through the outage budget, on
 * the published routes (no 409 for a second export), it could start an unused export per
 * try. A start whose 202 arrived has started its job.
 */
export const START_EXPORT: RetryPolicy = {
  statuses: new Set([429, 502, 503, 504]),
  once: false,
  afterSuccess: false,
};

/**
 * A second agent job would open a second pull request, and a follow-up sent twice is
 * acted on twice: only what proves the service did not act is tried again.
 */
export const CREATE_ONCE: RetryPolicy = {
  statuses: new Set([429, 503]),
  once: true,
  afterSuccess: false,
};

/**
 * Network failures before any connection was made, to the API or a proxy: refused, or a
 * host name that did not resolve (for good, or for now).
 */
const NEVER_SENT: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Whether a failed call provably was not acted on: a rate limit (refused before any work),
 * a 503 in the API's own words (its `{ "error" }` body) or with a Retry-After (the server
 * asks to come back later), or a connection never made (the request never left the runner).
 * A 502 or 504, a proxy's 503 page, a 500, a reset or a timeout may come after the service
 * acted: a gateway that gave up waiting, or an answer lost on the way back.
 */
export function notActedOn(failure: ApiError): boolean {
  if (failure.status === undefined)
    return failure.code !== undefined && NEVER_SENT.has(failure.code);
  if (failure.kind === 'proxy') return false;
  if (failure.status === 429) return true;
  return failure.status === 503 && (failure.fromApi || failure.retryAfterMs !== undefined);
}

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

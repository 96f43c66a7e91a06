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
}

/** Reads (and calls that only hand out a fresh link) are safe to repeat. */
export const REPEATABLE: RetryPolicy = {
  statuses: new Set([408, 429, 500, 502, 503, 504]),
  network: 'any',
};

/**
 * Starting an export twice only wastes work on the server, so gateway errors are tried
 * again; a 500 may mean the job exists, so it is not.
 */
export const START_EXPORT: RetryPolicy = {
  statuses: new Set([429, 502, 503, 504]),
  network: 'any',
};

/** A second agent job would open a second pull request: only retry certain refusals. */
export const CREATE_ONCE: RetryPolicy = {
  statuses: new Set([429, 503]),
  network: 'refused',
};

/**
 * Expected failures carry a message written for the person reading the CI log: what
 * happened and what to do. Anything else that is thrown is a bug and keeps its stack.
 */
export class ActionError extends Error {
  override name = 'ActionError';
  /** Process exit code when this error ends a run (1: the step failed, 2: bad usage). */
  readonly exitCode: number = 1;
}

/** An input the user must fix; raised before any network call. */
export class InputError extends ActionError {
  override name = 'InputError';
  override readonly exitCode = 2;
  constructor(readonly problems: readonly { input: string; message: string }[]) {
    super(problems.map((p) => `${p.input}: ${p.message}`).join('; '));
  }
}

/** The run was cancelled by SIGINT/SIGTERM (or the CI stopping the job). */
export class CancelledError extends ActionError {
  override name = 'CancelledError';
  constructor(detail = 'cancelled') {
    super(detail);
  }
}

/** The overall `timeout` passed. */
export class TimeoutError extends ActionError {
  override name = 'TimeoutError';
}

/** The export or agent job ended in `failed` on the server. */
export class JobFailedError extends ActionError {
  override name = 'JobFailedError';
}

/** The archive (or the bytes served as one) is unsafe to extract. */
export class UnsafeArchiveError extends ActionError {
  override name = 'UnsafeArchiveError';
}

/** The bundle could not be downloaded completely or did not verify. */
export class DownloadError extends ActionError {
  override name = 'DownloadError';
}

/** One readable line for anything thrown. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  if (typeof err === 'string') return err;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}

/** The reason an AbortSignal fired, as an error the caller can rethrow. */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new CancelledError(typeof reason === 'string' ? reason : 'cancelled');
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

import { formatBytes } from './duration.js';

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
  constructor(
    detail = 'cancelled',
    /** The signal that cancelled the run, when one did (the CLI exits with 128 + its number). */
    readonly signal?: NodeJS.Signals,
  ) {
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

/**
 * Another run is writing the same `path`: it held the lock on it for longer than this run
 * waits, or `path` changed while it was checked. Not the inputs' fault: the same run
 * succeeds once the other has ended.
 */
export class PathInUseError extends ActionError {
  override name = 'PathInUseError';
  readonly kind = 'path-in-use';
}

/** Local file system failures: retrying cannot help, and the network is not to blame. */
const LOCAL_CAUSES: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  EIO: 'an input/output error on the disk',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files on the system',
  ENOENT: 'the directory no longer exists',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'the path is a directory',
};

/** What is known of the space where a disk filled up (ENOSPC, EDQUOT), for the message. */
export interface DiskSpace {
  /** Bytes the run had written there by then. */
  written?: number;
  /** Bytes the write needed in all (a file copied whole). */
  needed?: number;
  /** Bytes free there, to this user, when it filled up. */
  free?: number;
  /** No inode was free: the file system holds as many files as it can, whatever its bytes. */
  noInodes?: boolean;
}

interface LocalFileFacts {
  code: string;
  path: string;
  doing: string;
  cause?: unknown;
  space?: DiskSpace;
}

/** Writing to (or reading from) the runner's own disk failed: named with its path and cause. */
export class LocalFileError extends ActionError {
  override name = 'LocalFileError';
  readonly kind = 'local-file';
  readonly code: string;
  readonly path: string;
  readonly #facts: LocalFileFacts;
  constructor(options: LocalFileFacts) {
    const cause = LOCAL_CAUSES[options.code] ?? options.code;
    super(
      `Could not ${options.doing} ${options.path}: ${cause} (${options.code})${options.space ? spaceSaid(options.space) : ''}. ${
        options.code === 'ENOSPC' || options.code === 'EDQUOT'
          ? 'Free space on the runner, or point `path` (and RUNNER_TEMP or TMPDIR) at a larger disk.'
          : 'Check that the runner may write there, or choose another `path` (and RUNNER_TEMP or TMPDIR).'
      }`,
      { cause: options.cause },
    );
    this.code = options.code;
    this.path = options.path;
    this.#facts = options;
  }

  /** The same failure, said with what is known of the space there. */
  withSpace(space: DiskSpace): LocalFileError {
    return new LocalFileError({ ...this.#facts, space: { ...this.#facts.space, ...space } });
  }
}

/** `, with 412 MB written so far and 95 MB free on that file system`. */
function spaceSaid(space: DiskSpace): string {
  const parts = [
    ...(space.written !== undefined ? [`${formatBytes(space.written)} written so far`] : []),
    ...(space.needed !== undefined ? [`${formatBytes(space.needed)} needed`] : []),
    ...(space.free !== undefined ? [`${formatBytes(space.free)} free on that file system`] : []),
  ];
  const listed =
    parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts.join('');
  const inodes = space.noInodes ? 'no inode left for another file' : '';
  if (listed === '') return inodes === '' ? '' : `, with ${inodes}`;
  return `, with ${listed}${inodes === '' ? '' : `, but ${inodes}`}`;
}

/**
 * The LocalFileError for an errno failure of the local file system, or undefined when
 * `err` is something else (classified by its code, never by its message).
 */
export function asLocalFileError(
  err: unknown,
  fallbackPath: string,
  doing: string,
): LocalFileError | undefined {
  if (err instanceof LocalFileError) return err;
  const { code, path: where } = (err ?? {}) as { code?: unknown; path?: unknown };
  if (typeof code !== 'string' || !(code in LOCAL_CAUSES)) return undefined;
  return new LocalFileError({
    code,
    path: typeof where === 'string' ? where : fallbackPath,
    doing,
    cause: err,
  });
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

/**
 * `err` with one more sentence at the end of its message, keeping its kind (class, code,
 * path); anything thrown that is not an Error is returned as it is.
 */
export function withSentence<T>(err: T, sentence: string): T {
  if (err instanceof Error) err.message = `${err.message.trimEnd()} ${sentence}`;
  return err;
}

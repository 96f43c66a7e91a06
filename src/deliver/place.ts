import { randomBytes } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ActionError, asLocalFileError, errorMessage } from '../errors.js';
import { withDiskSpace } from './full-disk.js';
import { holdsMountsSync, mountsInside } from './mounts.js';
import { ownNamePart, processState } from './process-identity.js';

/**
 * Everything lands in a sibling of the target first and is renamed into place only when
 * complete. Every temporary path is registered, so that it is removed however the run
 * ends: by the run's own cleanup, or, when the process dies first (a crash, an exit from
 * elsewhere), by an exit hook. Names carry the process id and, where known, a tag of when
 * it started (process-identity.ts), so a later run can recognise and remove what a killed
 * run (SIGKILL, power loss) left behind, even once another process has its id.
 */

const leftovers = new Set<string>();
/** Earlier exports moved aside (value) while the new one is renamed to their place (key). */
const movedAside = new Map<string, string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', cleanUpSync);
}

/** Registers a temporary path for removal should the process end before the run does. */
export function trackTemporary(file: string): void {
  leftovers.add(file);
  installExitHook();
}

/** Removes a temporary path now and forgets it. */
export async function removeTemporary(file: string): Promise<void> {
  await fs.rm(file, { recursive: true, force: true });
  leftovers.delete(file);
}

/** Forgets a temporary path that became the real thing (renamed into place). */
function untrack(file: string): void {
  leftovers.delete(file);
}

function cleanUpSync(): void {
  for (const [target, previous] of movedAside) {
    try {
      if (!fsSync.existsSync(target)) fsSync.renameSync(previous, target);
    } catch {
      // A later run puts it back (recoverInterruptedRuns).
    }
  }
  movedAside.clear();
  for (const file of leftovers) {
    try {
      // On Node 24 rmSync crosses into mount points and deletes what they hold.
      if (holdsMountsSync(file)) continue;
      fsSync.rmSync(file, { recursive: true, force: true });
    } catch {
      // Nothing more can be done while the process exits.
    }
  }
  leftovers.clear();
}

/**
 * `partial`: staging; `previous`: moved aside during a swap; `removed`: being removed,
 * never put back. Exactly what siblingPath names (a process id, the tag of its start
 * where known, 8 hex digits): a directory of the user's that merely looks like one
 * (`.site.previous-2024-12`, a dated backup) is never taken for a killed run's, to be put
 * back over path or removed. Names without the tag, of earlier versions, are judged by
 * the process id alone.
 */
const SIBLING = /^\.(.+)\.(partial|previous|removed)-(\d{1,10})(?:-([0-9a-f]{8}))?-[0-9a-f]{8}$/s;

/** The download's temporary file in the runner's temp directory, named as SIBLING is. */
const TEMPORARY_FILE = /^static-export-(\d+)(?:-([0-9a-f]{8}))?-[0-9a-f]+\.download$/;

/** `.site.partial-<pid>-<tag>-<random>` beside `site`. */
export function siblingPath(target: string, label: 'partial' | 'previous' | 'removed'): string {
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}.${label}-${ownNamePart()}-${randomBytes(4).toString('hex')}`,
  );
}

/** A temporary file name in `dir` that a later run recognises as this run's. */
export function temporaryFileName(dir: string, suffix: string): string {
  return path.join(
    dir,
    `static-export-${ownNamePart()}-${randomBytes(6).toString('hex')}${suffix}`,
  );
}

/**
 * Whether the run that named `file` after its process (`pid`, and `tag` of its start when
 * the name has one) may still be using it. This process only uses what it made: in a
 * container every run gets the same small id, so whatever else carries it was left by an
 * earlier run.
 */
function isAlive(pid: number, tag: string | undefined, file: string): boolean {
  if (processState(pid, tag) !== 'running') return false;
  return pid !== process.pid || leftovers.has(file) || [...movedAside.values()].includes(file);
}

/** What recoverInterruptedRuns did (for the log) and could not do (warnings). */
export interface Recovery {
  done: string[];
  warnings: string[];
}

/**
 * Cleans up after runs that were killed before they could, for the entries `bases` of
 * `dir` that this run writes (the site, or an archive and its manifest): their staging
 * is removed, and an earlier export they had moved aside but not yet replaced is put
 * back. `dir` is listed once. Never fails the run: what it cannot remove (a read-only
 * tree) is left, with a warning, rather than blocking every later run in this place.
 */
export async function recoverInterruptedRuns(
  dir: string,
  bases: readonly string[],
): Promise<Recovery> {
  const wanted = new Set(bases);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const recovery: Recovery = { done: [], warnings: [] };
  for (const name of names) {
    const match = SIBLING.exec(name);
    const base = match?.[1];
    const file = path.join(dir, name);
    if (
      !match ||
      base === undefined ||
      !wanted.has(base) ||
      isAlive(Number(match[3]), match[4], file)
    )
      continue;
    const target = path.join(dir, base);
    const targetExists = await fs.lstat(target).then(
      () => true,
      () => false,
    );
    const putBack = match[2] === 'previous' && !targetExists;
    let at = file;
    try {
      if (putBack) {
        await fs.rename(file, target);
        recovery.done.push(
          `Put back the earlier export that an interrupted run had moved to ${name}.`,
        );
      } else {
        if (match[2] === 'previous') {
          at = siblingPath(target, 'removed');
          await fs.rename(file, at);
        }
        await removeEarlierTree(at);
        recovery.done.push(`Removed ${name}, left by an interrupted run.`);
      }
    } catch (err) {
      recovery.warnings.push(
        putBack
          ? `Could not put back the earlier export that an interrupted run had moved to ${file} (${errorMessage(err)}): it is left there, and this run writes a new ${base}.`
          : `Could not remove ${at}, left by an earlier run (${errorMessage(err)}): remove it by hand; this run goes on without it.`,
      );
    }
  }
  return recovery;
}

/** Removes this action's temporary files that killed runs left in `dir`. */
export async function removeStaleTemporaryFiles(dir: string): Promise<void> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const match = TEMPORARY_FILE.exec(name);
    const file = path.join(dir, name);
    if (match && !isAlive(Number(match[1]), match[2], file)) {
      await fs.rm(file, { force: true });
    }
  }
}

export async function createStagingDirectory(target: string): Promise<string> {
  await fs.mkdir(path.dirname(target), { recursive: true });
  const staging = siblingPath(target, 'partial');
  trackTemporary(staging);
  await fs.mkdir(staging, { mode: 0o755 });
  return staging;
}

/**
 * Puts `staging` where `target` is. The earlier tree is moved aside, the new one renamed
 * into place, and only then is the earlier one removed; if the second rename fails the
 * earlier tree is put back. Either way `target` is a complete tree, old or new.
 * `leftBehind` says why the earlier tree is still beside it, when it could not be removed.
 */
export async function replaceDirectory(
  staging: string,
  target: string,
): Promise<{ replaced: boolean; leftBehind?: string }> {
  const previous = siblingPath(target, 'previous');
  let replaced = false;
  installExitHook();
  movedAside.set(target, previous);
  try {
    try {
      await fs.rename(target, previous);
      replaced = true;
    } catch (err) {
      // ENOENT: nothing there to move aside.
      const { code } = err as NodeJS.ErrnoException;
      if (code !== 'ENOENT')
        throw asLocalFileError({ code }, target, 'move aside the earlier export in') ?? err;
    }
    try {
      await fs.rename(staging, target);
    } catch (err) {
      if (replaced) await putBack(previous, target, err);
      throw clashOr(err, target);
    }
  } finally {
    movedAside.delete(target);
  }
  untrack(staging);
  if (!replaced) return { replaced };
  return { replaced, ...(await removePrevious(previous, target)) };
}

/**
 * Puts the earlier tree back after the new one could not take its place. When that fails
 * too, something else wrote `target` meanwhile (a second run into the same path): what it
 * wrote stays, and the earlier tree, now out of date, is removed by the next run.
 */
async function putBack(previous: string, target: string, cause: unknown): Promise<void> {
  try {
    await fs.rename(previous, target);
  } catch {
    throw new ActionError(
      `The new site could not be put in place at ${target} (${errorMessage(cause)}), nor the earlier export put back: something else wrote ${target} meanwhile, such as another run into the same path ${overlapped(target)}`,
    );
  }
}

/** A directory that appeared at `target` during the swap is named as such. */
function clashOr(err: unknown, target: string): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code !== 'ENOTEMPTY' && code !== 'EEXIST') return err;
  return new ActionError(
    `The new site could not be put in place: ${target} appeared while this run was replacing it, such as from another run into the same path ${overlapped(target)}`,
  );
}

/** The end of both messages about another writer at `target` during the swap. */
function overlapped(target: string): string {
  return `(runs into one path must not overlap). ${target} holds what was written there; this run's site was discarded.`;
}

/**
 * Removes the earlier tree once the new one is in place. The run has done its job by
 * then, so a tree that cannot be removed (made read-only by its owner) is left, with
 * the reason, for the caller to warn about, rather than failing a run that succeeded.
 */
async function removePrevious(previous: string, target: string): Promise<{ leftBehind?: string }> {
  // Renamed first: a tree left half removed must never be put back as one moved aside
  // by a run killed mid-swap (recoverInterruptedRuns).
  let at = previous;
  trackTemporary(at);
  try {
    const removed = siblingPath(target, 'removed');
    await fs.rename(previous, removed);
    untrack(previous);
    at = removed;
    trackTemporary(at);
    await removeEarlierTree(at);
    untrack(at);
    return {};
  } catch (err) {
    untrack(at);
    return {
      leftBehind: `The earlier export could not be removed after the new one was put in place, and is left in ${at} (${errorMessage(err)}): remove it by hand, ${howToRemove(err)}.`,
    };
  }
}

/**
 * Removes a tree that held an earlier export (or a user's directory replaced with
 * `overwrite`), unless something is mounted inside it: what a mount holds is never ours
 * to delete, whichever way a runtime's recursive removal treats mount points.
 */
async function removeEarlierTree(dir: string): Promise<void> {
  const mounts = await mountsInside(dir);
  if (mounts.length > 0) {
    throw Object.assign(
      new Error(`something is mounted inside it, at ${mounts.slice(0, 3).join(', ')}`),
      { code: 'EBUSY' },
    );
  }
  await fs.rm(dir, { recursive: true, force: true });
}

/** What stands in the way of removing a tree, by the error its removal met. */
function howToRemove(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EBUSY')
    return 'after unmounting what is mounted inside it (its data is not touched)';
  if (code === 'EACCES' || code === 'EPERM') return 'after making it writable';
  return 'once what kept it there is out of the way';
}

/** Moves a finished file into `dir` under `name`, atomically on the destination side. */
export async function moveFileInto(file: string, dir: string, name: string): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const destination = path.join(dir, name);
  const staging = siblingPath(destination, 'partial');
  trackTemporary(staging);
  try {
    try {
      await fs.rename(file, staging);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      try {
        await fs.copyFile(file, staging);
      } catch (copyErr) {
        // Named by the directory written into: the error's own path is the temp file's.
        const { code } = copyErr as NodeJS.ErrnoException;
        const failure = asLocalFileError({ code }, dir, 'copy the archive into') ?? copyErr;
        // Its partial copy goes first: the space then said free is what the archive had.
        await removeTemporary(staging);
        const archive = await fs.stat(file).catch(() => undefined);
        throw await withDiskSpace(failure, { needed: archive?.size });
      }
      await fs.rm(file, { force: true });
    }
    await fs.chmod(staging, 0o644);
    await fs.rename(staging, destination);
    untrack(staging);
  } finally {
    await removeTemporary(staging);
  }
  return destination;
}

/** Writes a small text file atomically (temp file, then rename). */
export async function writeFileAtomic(file: string, content: string, mode = 0o644): Promise<void> {
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
  } catch (err) {
    // A file where a folder should be: EEXIST for the file's own folder, ENOTDIR above it.
    const { code } = err as NodeJS.ErrnoException;
    throw asLocalFileError({ code: code === 'EEXIST' ? 'ENOTDIR' : code }, file, 'write') ?? err;
  }
  // What killed runs left beside the file while writing it; never fails the write.
  await recoverInterruptedRuns(path.dirname(file), [path.basename(file)]);
  const staging = siblingPath(file, 'partial');
  trackTemporary(staging);
  try {
    await fs.writeFile(staging, content, { mode });
    await fs.rename(staging, file);
    untrack(staging);
  } catch (err) {
    // Named by the file the user gave: the error's own path is the temporary one's.
    const { code } = err as NodeJS.ErrnoException;
    throw await withDiskSpace(asLocalFileError({ code }, file, 'write') ?? err);
  } finally {
    await removeTemporary(staging);
  }
}

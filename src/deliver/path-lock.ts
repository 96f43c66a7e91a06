import { randomBytes } from 'node:crypto';
import fsSync, { type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { type Clock, systemClock } from '../clock.js';
import { formatDuration } from '../duration.js';
import { ActionError, asLocalFileError, PathInUseError, throwIfAborted } from '../errors.js';
import type { Reporter } from '../report.js';
import { removeTemporary, trackTemporary } from './place.js';
import { ownNamePart, ownPidNamespace, ownStart, processState } from './process-identity.js';

/**
 * One run at a time writes a `path`. Before it first looks at what `path` holds, a run
 * creates a lock file beside what it replaces (with O_EXCL: only one run can), naming its
 * process, and removes it once the new export is in place and its temporary files are
 * gone, however it ends (an exit hook covers a crash and a second signal). A run that
 * finds the lock held waits for that run to end, for a while; a lock whose run has ended
 * without removing it (killed outright) is taken over. The process is judged as the
 * leftovers beside `path` are (process-identity.ts), and never that of another host (a
 * shared disk) or container, whose ids mean nothing here: the run renews its lock's
 * modification time while it holds it, and one that another run sees go unrenewed for
 * minutes has ended, whatever the two hosts' clocks say.
 */

export interface LockWait {
  /** How long a run waits for the one holding the lock before it fails. */
  limitMs: number;
  /** How often it looks again. */
  everyMs: number;
  /** Real time: the holder is another process, whatever clock drives the rest of the run. */
  clock: Clock;
  /** How often the run holding the lock renews it; RENEW_EVERY_MS by default. */
  renewEveryMs?: number;
  /**
   * How long a lock of another host or container may go unrenewed, as this run sees it,
   * before its run is taken as ended; UNRENEWED_MS by default, and never under six of the
   * holder's renewals.
   */
  unrenewedMs?: number;
}

export const LOCK_WAIT: LockWait = { limitMs: 10 * 60_000, everyMs: 1000, clock: systemClock };

/** The run holding a lock sets its modification time this often. */
const RENEW_EVERY_MS = 20_000;
/** A lock of another host or container unrenewed for this long has no run left. */
const UNRENEWED_MS = 3 * 60_000;
/** The longest renewal interval a record may name. */
const RENEW_MAX_MS = 10 * 60_000;

/** A lock without a record this young is being written by its run, not left empty. */
const BEING_WRITTEN_MS = 10_000;
/**
 * How long after its run's own time limit (`until`) a lock is still taken as held, where
 * whether its process runs cannot be seen from here: the run's cleanup after its timeout,
 * and the clocks of two hosts, which may disagree.
 */
const PAST_LIMIT_MS = 15 * 60_000;
/** A record is a line of JSON: anything larger is not one. */
const RECORD_MAX_BYTES = 4096;
/** While it waits, a run says so once a minute. */
const STILL_WAITING_EVERY_MS = 60_000;

/** `.site.static-export.lock` beside `site`, the site or the archive's base name. */
export function lockFileBeside(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.static-export.lock`);
}

/** Text of the record the log shows: one line, no control characters. */
const shownText = z
  .string()
  .max(255)
  .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/);

const lockRecord = z.object({
  format: z.literal('static-export-lock'),
  pid: z.number().int().positive(),
  /** When the process started (process-identity.ts), where known. */
  start: shownText.optional(),
  pidNamespace: shownText.optional(),
  hostname: shownText,
  /** When the run took the lock. */
  startedAt: z.iso.datetime(),
  /** When the run's `timeout` ends it, and its lock with it. */
  until: z.iso.datetime().optional(),
  /** How often the run renews the lock's modification time (earlier versions did not). */
  renewEveryMs: z.number().int().positive().max(RENEW_MAX_MS).optional(),
});
type LockRecord = z.output<typeof lockRecord>;

export interface PathLock {
  file: string;
  /**
   * Throws a PathInUseError when the lock file is no longer this run's: another run
   * judged it ended and took it over, and may be writing `path` now.
   */
  confirm(): Promise<void>;
  /** Removes the lock file, once; one another run has taken over meanwhile is left to it. */
  release(): Promise<void>;
}

export interface LockOptions {
  wait: LockWait;
  reporter: Pick<Reporter, 'info' | 'notice'>;
  /** `path` as messages name it. */
  shown: string;
  /** Told which run holds the lock while this one waits for it, and undefined once it has it. */
  onWaiting?: (holder: string | undefined) => void;
  signal?: AbortSignal;
  /** When this run's time limit ends it (real time, as `wait.clock` tells it), for the record. */
  until?: number;
}

/** The lock files this process holds, each with the identity of the file it created. */
const held = new Map<string, FileIdentity>();
let exitHookInstalled = false;

interface FileIdentity {
  dev: number;
  ino: number;
}

/**
 * Takes the lock `file`: at once when it is free, after taking it over when the run that
 * holds it has ended, else once that run has removed it. Throws a PathInUseError when
 * that run still holds it after `wait.limitMs`.
 */
export async function lockPath(file: string, options: LockOptions): Promise<PathLock> {
  const { wait, reporter, signal } = options;
  const began = wait.clock.now();
  let waitingFor: string | undefined;
  let saidAt = began;
  /** The lock file as last seen, and since when this run has seen it unrenewed. */
  let seen: { stat: Stats; since: number } | undefined;
  for (;;) {
    throwIfAborted(signal);
    const lock = await createLock(file, wait, options.until, options.shown);
    if (lock) {
      if (waitingFor !== undefined) options.onWaiting?.(undefined);
      return lock;
    }
    const holder = await readHolder(file);
    // Removed between the two looks: free again.
    if (holder === undefined) continue;
    const seenAt = wait.clock.now();
    if (
      seen === undefined ||
      !sameFile(holder.stat, seen.stat) ||
      holder.stat.mtimeMs !== seen.stat.mtimeMs
    ) {
      seen = { stat: holder.stat, since: seenAt };
    }
    const verdict = judge(file, holder, seenAt, {
      unrenewedForMs: seenAt - seen.since,
      unrenewedMs: wait.unrenewedMs ?? UNRENEWED_MS,
    });
    if (verdict.kind === 'ended') {
      if (await takeOver(file, holder.stat)) {
        reporter.notice(
          `Took over ${file}, left by a run that ended without removing it ${verdict.run}: ${verdict.why}.`,
        );
      }
      continue;
    }
    const now = wait.clock.now();
    const waited = now - began;
    if (waitingFor !== verdict.run) {
      waitingFor = verdict.run;
      saidAt = now;
      options.onWaiting?.(`the run that holds ${file} ${verdict.run}`);
      reporter.info(
        `Waiting for the run that holds ${file} ${verdict.run} to end, for up to ${formatDuration(wait.limitMs)}: runs into one \`path\` take turns${verdict.unjudged ? `; ${verdict.unjudged}` : ''}.`,
      );
    } else if (now - saidAt >= STILL_WAITING_EVERY_MS) {
      saidAt = now;
      reporter.info(
        `Still waiting for the run that holds ${file} (${formatDuration(waited)} so far).`,
      );
    }
    if (waited >= wait.limitMs) {
      throw new PathInUseError(
        `Another run is writing ${options.shown}: the run that holds ${file} ${verdict.run} had not ended after ${formatDuration(waited)}${verdict.unjudged ? ` (${verdict.unjudged})` : ''}. Runs into one \`path\` must not overlap: give each its own \`path\`, or have them take turns (one \`concurrency\` group in a workflow). If that run is no longer going on, remove ${file} and run again.`,
      );
    }
    await wait.clock.sleep(Math.min(wait.everyMs, wait.limitMs - waited), signal);
  }
}

/** Creates `file` for this run, or undefined when it exists. */
async function createLock(
  file: string,
  wait: LockWait,
  until: number | undefined,
  shown: string,
): Promise<PathLock | undefined> {
  const { clock } = wait;
  const renewEveryMs = Math.min(wait.renewEveryMs ?? RENEW_EVERY_MS, RENEW_MAX_MS);
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw asLocalFileError(err, file, 'create the lock file') ?? err;
  }
  let identity: FileIdentity;
  try {
    const start = ownStart();
    const pidNamespace = ownPidNamespace();
    const record: LockRecord = {
      format: 'static-export-lock',
      pid: process.pid,
      ...(start !== undefined ? { start } : {}),
      ...(pidNamespace !== undefined ? { pidNamespace } : {}),
      hostname: os.hostname(),
      startedAt: new Date(clock.now()).toISOString(),
      ...(until !== undefined ? { until: new Date(until).toISOString() } : {}),
      renewEveryMs,
    };
    await handle.writeFile(`${JSON.stringify(record)}\n`);
    const { dev, ino } = await handle.stat();
    identity = { dev, ino };
  } catch (err) {
    await fs.rm(file, { force: true });
    throw asLocalFileError(err, file, 'write the lock file') ?? err;
  } finally {
    await handle.close();
  }
  held.set(file, identity);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', releaseAllSync);
  }
  let released = false;
  const renewing = renewLock(file, identity, renewEveryMs);
  return {
    file,
    async confirm() {
      // Gone, or another file: taken over. Any other failure is the disk's, said as such.
      const now = await fs.lstat(file).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return undefined;
        throw asLocalFileError(err, file, 'read the lock file') ?? err;
      });
      if (now && sameFile(now, identity)) return;
      renewing.stop();
      throw new PathInUseError(
        `Another run took over the lock on ${shown} (${file}) while this run held it, and may be writing there now: this run takes it for ended when its lock goes unrenewed (a run stopped for minutes, or a clock set back), or when the file is removed. Runs into one \`path\` must not overlap: give each its own \`path\`, or have them take turns (one \`concurrency\` group in a workflow).`,
      );
    },
    async release() {
      if (released) return;
      released = true;
      renewing.stop();
      held.delete(file);
      const now = await fs.lstat(file).catch(() => undefined);
      if (now && sameFile(now, identity)) await fs.rm(file, { force: true });
    },
  };
}

/**
 * Sets the lock's modification time every `everyMs` while it is this run's (another host
 * or container judges the run by it), never keeping the process alive.
 */
function renewLock(file: string, identity: FileIdentity, everyMs: number): { stop(): void } {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void (async () => {
      try {
        const now = await fs.lstat(file);
        // Taken over by another run: its lock is left to it.
        if (!sameFile(now, identity)) {
          clearInterval(timer);
          return;
        }
        const time = new Date();
        await fs.utimes(file, time, time);
      } catch {
        // Gone, or not writable for a moment: confirm() says so when it matters.
      } finally {
        busy = false;
      }
    })();
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

function releaseAllSync(): void {
  for (const [file, identity] of held) {
    try {
      const now = fsSync.lstatSync(file, { throwIfNoEntry: false });
      if (now && sameFile(now, identity)) fsSync.rmSync(file, { force: true });
    } catch {
      // Nothing more can be done while the process exits; the next run judges it ended.
    }
  }
  held.clear();
}

function sameFile(stat: Stats, identity: FileIdentity): boolean {
  return stat.dev === identity.dev && stat.ino === identity.ino;
}

interface Holder {
  stat: Stats;
  /** Undefined when the file holds no record (empty, being written, or not ours). */
  record?: LockRecord;
}

/** The lock as it is now, or undefined when it is gone. */
async function readHolder(file: string): Promise<Holder | undefined> {
  let stat: Stats;
  let text: string;
  try {
    stat = await fs.lstat(file);
    if (!stat.isFile()) {
      throw new ActionError(
        `${file} stands where this action keeps the lock on \`path\`, and is not a file: remove it, or choose another \`path\`.`,
      );
    }
    if (stat.size > RECORD_MAX_BYTES) return { stat };
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw asLocalFileError(err, file, 'read the lock file') ?? err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { stat };
  }
  const parsed = lockRecord.safeParse(json);
  return parsed.success ? { stat, record: parsed.data } : { stat };
}

type Verdict =
  /** `unjudged`: why whether it still runs is not known. */
  { kind: 'held'; run: string; unjudged?: string } | { kind: 'ended'; run: string; why: string };

/**
 * Whether the run that holds the lock is still going on; `now` in real time, as file
 * times are, and how long this run has seen the lock unrenewed.
 */
function judge(
  file: string,
  { stat, record }: Holder,
  now: number,
  renewal: { unrenewedForMs: number; unrenewedMs: number },
): Verdict {
  if (record === undefined) {
    return now - stat.mtimeMs < BEING_WRITTEN_MS
      ? { kind: 'held', run: '(being created)' }
      : {
          kind: 'ended',
          run: `(written ${stat.mtime.toISOString()})`,
          why: 'it does not say which run holds it',
        };
  }
  const host = os.hostname();
  const run = `(pid ${record.pid}${record.hostname === host ? '' : ` on ${record.hostname}`}, started ${record.startedAt})`;
  const namespace = ownPidNamespace();
  const elsewhere =
    record.hostname !== host
      ? 'another host'
      : record.pidNamespace !== undefined &&
          namespace !== undefined &&
          record.pidNamespace !== namespace
        ? 'another process namespace (another container)'
        : undefined;
  if (elsewhere !== undefined) {
    // Its process cannot be seen from here; whether it renews its lock, and its time
    // limit, can.
    if (record.renewEveryMs !== undefined) {
      const unrenewedMs = Math.max(renewal.unrenewedMs, 6 * record.renewEveryMs);
      if (renewal.unrenewedForMs >= unrenewedMs) {
        return {
          kind: 'ended',
          run,
          why: `it runs on ${elsewhere}, and its lock went ${formatDuration(unrenewedMs)} without being renewed (its run renews it every ${formatDuration(record.renewEveryMs)})`,
        };
      }
      // Renewed long ago by the file's time: ended without a wait, the two hosts' clocks
      // allowed to disagree by as much as past a time limit.
      if (now - stat.mtimeMs >= unrenewedMs + PAST_LIMIT_MS) {
        return {
          kind: 'ended',
          run,
          why: `it runs on ${elsewhere}, and its lock was last renewed at ${stat.mtime.toISOString()}, over ${formatDuration(unrenewedMs + PAST_LIMIT_MS)} ago`,
        };
      }
      return {
        kind: 'held',
        run,
        unjudged: `it runs on ${elsewhere}, so it is judged by its lock, which its run renews every ${formatDuration(record.renewEveryMs)}: it is taken as ended once the lock goes ${formatDuration(unrenewedMs)} without being renewed`,
      };
    }
    const limit = record.until === undefined ? undefined : Date.parse(record.until);
    if (limit !== undefined && now > limit + PAST_LIMIT_MS) {
      return {
        kind: 'ended',
        run,
        why: `it runs on ${elsewhere}, and its \`timeout\` ended it at ${record.until}, over ${formatDuration(PAST_LIMIT_MS)} ago`,
      };
    }
    return {
      kind: 'held',
      run,
      unjudged: `it runs on ${elsewhere}, so whether it still runs is not judged from here${limit !== undefined ? `; it is taken over ${formatDuration(PAST_LIMIT_MS)} after its \`timeout\` (${record.until})` : ''}`,
    };
  }
  const state = processState(record.pid, record.start);
  if (state === 'gone') return { kind: 'ended', run, why: `no process has pid ${record.pid}` };
  if (state === 'reused') {
    return {
      kind: 'ended',
      run,
      why: `the process with pid ${record.pid} now started at another time, so it is another process`,
    };
  }
  // This process holds only the locks it took: in a container each run has the same id.
  const ours = held.get(file);
  if (record.pid === process.pid && !(ours && sameFile(stat, ours))) {
    return { kind: 'ended', run, why: 'an earlier run with the same pid left it' };
  }
  return { kind: 'held', run };
}

/**
 * Removes the lock `judged`, whose run has ended. Renamed aside first, then compared: if
 * another run took it over between the look and the rename, its lock is put back.
 */
async function takeOver(file: string, judged: Stats): Promise<boolean> {
  const aside = `${file}.ended-${ownNamePart()}-${randomBytes(4).toString('hex')}`;
  trackTemporary(aside);
  try {
    try {
      await fs.rename(file, aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw asLocalFileError(err, file, 'take over the lock file') ?? err;
    }
    if (sameFile(await fs.lstat(aside), judged)) return true;
    await fs.link(aside, file).catch(async (err: NodeJS.ErrnoException) => {
      // A file system without hard links: renamed back instead.
      if (err.code !== 'EEXIST') await fs.rename(aside, file).catch(() => undefined);
    });
    return false;
  } finally {
    await removeTemporary(aside);
  }
}

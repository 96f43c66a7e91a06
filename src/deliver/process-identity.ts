import { createHash } from 'node:crypto';
import fs from 'node:fs';

/**
 * A run is known by its process, to tell whether what it left (staging beside `path`, a
 * lock) is still in use. The id alone is reused: by the next run in a container, by any
 * process after a reboot or once ids wrap. Where Linux says when a process started
 * (/proc/<pid>/stat, in the boot it belongs to), that start is recorded and compared too;
 * elsewhere, and for what an earlier version recorded, the id alone tells.
 *
 * /proc is read synchronously: its files are made in memory, and an exit hook reads them too.
 */

/** When process `pid` started: the boot's id and the clock ticks since boot; undefined where unknown. */
export function startOf(pid: number): string | undefined {
  const boot = bootId();
  if (boot === undefined) return undefined;
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Field 2, the command name, is in parentheses and may hold spaces and parentheses;
  // field 22 (starttime) is the 20th after it.
  const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  return ticks !== undefined && /^\d+$/.test(ticks) ? `${boot}/${ticks}` : undefined;
}

let boot: string | null | undefined;

function bootId(): string | undefined {
  if (boot === undefined) {
    try {
      boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      boot = null;
    }
  }
  return boot ?? undefined;
}

/** A start shortened to 8 hex digits, for a file name: `.site.partial-<pid>-<tag>-<random>`. */
export function startTag(start: string): string {
  return createHash('sha256').update(start).digest('hex').slice(0, 8);
}

let own: { start: string | undefined } | undefined;

/** This process's start, read once (undefined where unknown). */
export function ownStart(): string | undefined {
  own ??= { start: startOf(process.pid) };
  return own.start;
}

/** `<pid>-<tag>` (or `<pid>` where the start is unknown): what names this process's files. */
export function ownNamePart(): string {
  const start = ownStart();
  return start === undefined ? String(process.pid) : `${process.pid}-${startTag(start)}`;
}

/**
 * What became of the process that recorded itself as `pid`, started at `started` (its
 * start, or the tag of it; undefined when only the id was recorded): `running`; `gone`
 * when no process has the id; `reused` when the one that has it started at another time.
 */
export function processState(pid: number, started?: string): 'running' | 'gone' | 'reused' {
  if (!processExists(pid)) return 'gone';
  if (started === undefined) return 'running';
  const actual = startOf(pid);
  // Its start cannot be read now (/proc mounted with hidepid): the id alone tells.
  if (actual === undefined) return 'running';
  return started === actual || started === startTag(actual) ? 'running' : 'reused';
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, as another user's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let namespace: { id: string | undefined } | undefined;

/**
 * The process id namespace this process is in (`pid:[4026531836]`), undefined where
 * unknown: an id means nothing in another one (another container on the same host).
 */
export function ownPidNamespace(): string | undefined {
  if (namespace === undefined) {
    let id: string | undefined;
    try {
      id = fs.readlinkSync('/proc/self/ns/pid');
    } catch {
      id = undefined;
    }
    namespace = { id };
  }
  return namespace.id;
}

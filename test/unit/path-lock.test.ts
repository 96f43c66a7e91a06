import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { LocalFileError, PathInUseError } from '../../src/errors.js';
import { type LockOptions, lockFileBeside, lockPath } from '../../src/deliver/path-lock.js';
import { childEnded, endChild, srcModule, startChildScript } from '../support/child-script.js';

/**
 * The lock beside `path`, against other runs that are real processes: one that holds it,
 * one killed outright (SIGKILL) while it held it, one on another host. Waits are in real
 * time, cut to milliseconds.
 */

let dir: string;
let lockFile: string;
beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sea-path-lock-')));
  lockFile = lockFileBeside(path.join(dir, 'site'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** What a run's log gets from the lock: its lines and its notices. */
function options(limitMs = 300): LockOptions & { lines: string[]; notices: string[] } {
  const lines: string[] = [];
  const notices: string[] = [];
  return {
    wait: { limitMs, everyMs: 10, clock: systemClock },
    reporter: { info: (line) => lines.push(line), notice: (line) => notices.push(line) },
    shown: path.join(dir, 'site'),
    lines,
    notices,
  };
}

/** Another run, in a process of its own, that takes the lock and prints its pid, then `then`. */
function otherRun(then = 'setInterval(() => {}, 60_000);') {
  return startChildScript(
    `import { lockPath, LOCK_WAIT } from ${srcModule('deliver/path-lock.ts')};
     const lock = await lockPath(${JSON.stringify(lockFile)}, {
       wait: LOCK_WAIT, reporter: { info() {}, notice() {} }, shown: 'site',
     });
     console.log(process.pid);
     ${then}`,
  );
}

async function lockRecord(): Promise<Record<string, unknown>> {
  return JSON.parse(await fs.readFile(lockFile, 'utf8')) as Record<string, unknown>;
}

/** The record as versions before renewal wrote it. */
function earlierVersion(record: Record<string, unknown>): Record<string, unknown> {
  const { renewEveryMs: _, ...rest } = record;
  return rest;
}

describe('the lock on path', () => {
  it('is a file beside path naming this run, removed on release', async () => {
    expect(lockFile).toBe(path.join(dir, '.site.static-export.lock'));
    const lock = await lockPath(lockFile, options());
    expect(await lockRecord()).toEqual({
      format: 'static-export-lock',
      pid: process.pid,
      start: expect.stringMatching(/^[0-9a-f-]+\/\d+$/),
      pidNamespace: expect.stringMatching(/^pid:\[\d+\]$/),
      hostname: os.hostname(),
      startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      renewEveryMs: 20_000,
    });
    await lock.release();
    await lock.release();
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it("waits for another run's lock, saying whose, then fails without touching it", async () => {
    const { child, line: pid } = await otherRun();
    try {
      const before = await fs.readFile(lockFile, 'utf8');
      const waiting = options();
      const started = performance.now();
      const error = await lockPath(lockFile, waiting).catch((err: unknown) => err);
      expect(performance.now() - started).toBeGreaterThanOrEqual(300);
      const startedAt = (await lockRecord()).startedAt as string;
      expect(waiting.lines).toEqual([
        `Waiting for the run that holds ${lockFile} (pid ${pid}, started ${startedAt}) to end, for up to 300ms: runs into one \`path\` take turns.`,
      ]);
      expect(error).toBeInstanceOf(PathInUseError);
      expect((error as Error).message).toMatch(
        new RegExp(
          `^Another run is writing ${dir}/site: the run that holds ${lockFile} \\(pid ${pid}, started ${startedAt}\\) had not ended after \\S+\\. Runs into one \`path\` must not overlap: give each its own \`path\`, or have them take turns \\(one \`concurrency\` group in a workflow\\)\\. If that run is no longer going on, remove ${lockFile} and run again\\.$`,
        ),
      );
      expect(await fs.readFile(lockFile, 'utf8')).toBe(before);
    } finally {
      await endChild(child);
    }
  });

  it('is taken once the run that holds it releases it', async () => {
    const { child } = await otherRun("process.stdin.once('data', () => lock.release());");
    try {
      const waiting = options(20_000);
      // The other run ends once this one has said it waits.
      const info = waiting.reporter.info;
      waiting.reporter.info = (line) => {
        info(line);
        child.stdin?.write('done\n');
      };
      const lock = await lockPath(lockFile, waiting);
      expect(waiting.lines).toEqual([expect.stringMatching(/^Waiting for the run that holds /)]);
      expect((await lockRecord()).pid).toBe(process.pid);
      await lock.release();
    } finally {
      await endChild(child);
    }
  });

  it('is taken over, with a notice, from a run killed outright (SIGKILL)', async () => {
    const { child, line: pid } = await otherRun();
    await endChild(child, 'SIGKILL');
    const startedAt = (await lockRecord()).startedAt as string;
    const taking = options();
    const lock = await lockPath(lockFile, taking);
    expect(taking.notices).toEqual([
      `Took over ${lockFile}, left by a run that ended without removing it (pid ${pid}, started ${startedAt}): no process has pid ${pid}.`,
    ]);
    expect(taking.lines).toEqual([]);
    expect((await lockRecord()).pid).toBe(process.pid);
    await lock.release();
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('is taken over from a run whose pid another process has now (a reboot, an id reused)', async () => {
    const lock = await lockPath(lockFile, options());
    const record = await lockRecord();
    await lock.release();
    // The parent of this process is alive, and started at another time than the run that wrote this.
    await fs.writeFile(lockFile, JSON.stringify({ ...record, pid: process.ppid }));
    const taking = options();
    await (await lockPath(lockFile, taking)).release();
    expect(taking.notices).toEqual([
      expect.stringMatching(
        `: the process with pid ${process.ppid} now started at another time, so it is another process\\.$`,
      ),
    ]);
  });

  it("never judges an earlier version's lock of another host (a shared disk): it waits, and says so", async () => {
    const lock = await lockPath(lockFile, options());
    const record = earlierVersion(await lockRecord());
    await lock.release();
    // A pid no process has here, which says nothing of the other host.
    const gone = Number(spawnSync(process.execPath, ['-e', 'console.log(process.pid)']).stdout);
    await fs.writeFile(lockFile, JSON.stringify({ ...record, pid: gone, hostname: 'runner-b' }));
    const waiting = options(50);
    await expect(lockPath(lockFile, waiting)).rejects.toThrow(
      `(pid ${gone} on runner-b, started ${record.startedAt as string}) had not ended after`,
    );
    expect(waiting.lines).toEqual([
      expect.stringMatching(
        /take turns; it runs on another host, so whether it still runs is not judged from here\.$/,
      ),
    ]);
    expect(waiting.notices).toEqual([]);
    expect((await lockRecord()).hostname).toBe('runner-b');
  });

  it("takes over an earlier version's lock of another host once its run's timeout is long past, and says when it will", async () => {
    const until = Date.now() + 3_600_000;
    const lock = await lockPath(lockFile, { ...options(), until });
    const record = earlierVersion(await lockRecord());
    expect(record.until).toBe(new Date(until).toISOString());
    await lock.release();
    // Within its time limit (and the quarter of an hour after it): waited for.
    const hour = new Date(Date.now() + 3_600_000).toISOString();
    await fs.writeFile(lockFile, JSON.stringify({ ...record, hostname: 'runner-b', until: hour }));
    const waiting = options(30);
    await expect(lockPath(lockFile, waiting)).rejects.toThrow(PathInUseError);
    expect(waiting.lines).toEqual([
      expect.stringContaining(`it is taken over 15m 00s after its \`timeout\` (${hour})`),
    ]);
    // Its run's timeout ended it 16 minutes ago: whatever it runs on, the lock is over.
    const past = new Date(Date.now() - 16 * 60_000).toISOString();
    await fs.writeFile(lockFile, JSON.stringify({ ...record, hostname: 'runner-b', until: past }));
    const taking = options();
    const taken = await lockPath(lockFile, taking);
    expect(taking.notices).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Took over .* on runner-b, .*: it runs on another host, and its \`timeout\` ended it at ${past.replace(/[.]/g, '\\.')}, over 15m 00s ago\\.$`,
        ),
      ),
    ]);
    expect((await lockRecord()).hostname).toBe(os.hostname());
    await taken.release();
  });

  it("waits for another host's run while it renews its lock, and takes over once it stops", async () => {
    const lock = await lockPath(lockFile, {
      ...options(),
      wait: { ...options().wait, renewEveryMs: 20 },
    });
    const record = await lockRecord();
    expect(record.renewEveryMs).toBe(20);
    // The holder renews it: a lock dated long ago is dated now within a few renewals.
    const past = new Date('2001-01-01T00:00:00Z');
    await fs.utimes(lockFile, past, past);
    await expect
      .poll(async () => (await fs.stat(lockFile)).mtimeMs, { timeout: 2000 })
      .toBeGreaterThan(Date.now() - 60_000);
    await lock.release();
    // Another host's run, killed outright while its lock is renewed here by hand.
    await fs.writeFile(lockFile, JSON.stringify({ ...record, hostname: 'runner-b' }));
    const renewing = setInterval(() => {
      const now = new Date();
      fs.utimes(lockFile, now, now).catch(() => undefined);
    }, 20);
    const unrenewed = (limitMs: number) => {
      const each = options(limitMs);
      return { ...each, wait: { ...each.wait, unrenewedMs: 150 } };
    };
    try {
      const waiting = unrenewed(400);
      await expect(lockPath(lockFile, waiting)).rejects.toThrow(PathInUseError);
      expect(waiting.lines).toEqual([
        expect.stringMatching(
          /; it runs on another host, so it is judged by its lock, which its run renews every \S+: it is taken as ended once the lock goes \S+ without being renewed\.$/,
        ),
      ]);
    } finally {
      clearInterval(renewing);
    }
    // No longer renewed: taken over once this run has seen it unrenewed long enough.
    const taking = unrenewed(5000);
    const began = Date.now();
    const taken = await lockPath(lockFile, taking);
    expect(Date.now() - began).toBeGreaterThanOrEqual(150);
    expect(taking.notices).toEqual([
      expect.stringMatching(
        /^Took over .* on runner-b, .*: it runs on another host, and its lock went \S+ without being renewed \(its run renews it every \S+\)\.$/,
      ),
    ]);
    await taken.release();
  });

  it("takes over at once another host's lock last renewed long ago", async () => {
    const lock = await lockPath(lockFile, options());
    const record = await lockRecord();
    await lock.release();
    await fs.writeFile(lockFile, JSON.stringify({ ...record, hostname: 'runner-b' }));
    const renewed = new Date(Date.now() - 30 * 60_000);
    await fs.utimes(lockFile, renewed, renewed);
    const taking = options(50);
    const taken = await lockPath(lockFile, taking);
    expect(taking.notices).toEqual([
      expect.stringContaining(
        `: it runs on another host, and its lock was last renewed at ${renewed.toISOString()}, over 18m 00s ago.`,
      ),
    ]);
    await taken.release();
  });

  it("is confirmed while it is this run's, and no longer once another run took it over", async () => {
    const lock = await lockPath(lockFile, {
      ...options(),
      wait: { ...options().wait, renewEveryMs: 20 },
    });
    await lock.confirm();
    // Another run judged it ended and took it over: its own lock, dated when it wrote it.
    await fs.rm(lockFile);
    await fs.writeFile(lockFile, JSON.stringify({ format: 'static-export-lock', other: true }));
    const written = new Date('2001-01-01T00:00:00Z');
    await fs.utimes(lockFile, written, written);
    await expect(lock.confirm()).rejects.toThrow(
      new RegExp(
        `^Another run took over the lock on .*site \\(${lockFile.replace(/[.]/g, '\\.')}\\) while this run held it`,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Neither renewed nor removed by this run.
    expect((await fs.stat(lockFile)).mtimeMs).toBe(written.getTime());
    await lock.release();
    expect((await fs.readFile(lockFile, 'utf8')).includes('"other":true')).toBe(true);
  });

  it('says a lock it cannot look at is a disk error, not a takeover', async () => {
    const site = path.join(dir, 'docs', 'site');
    await fs.mkdir(path.dirname(site));
    const lock = await lockPath(lockFileBeside(site), options());
    // The folder it is in is now a file: the lock can no longer be looked at (ENOTDIR).
    await fs.rename(path.dirname(site), path.join(dir, 'moved'));
    await fs.writeFile(path.dirname(site), 'not a folder');
    const error = await lock.confirm().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(LocalFileError);
    expect(error).not.toBeInstanceOf(PathInUseError);
    expect((error as Error).message).toContain('ENOTDIR');
    await lock.release();
  });

  it('waits for a lock being created, and takes over one left empty', async () => {
    await fs.writeFile(lockFile, '');
    await expect(lockPath(lockFile, options(30))).rejects.toThrow(
      /\(being created\) had not ended/,
    );
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(lockFile, old, old);
    const taking = options();
    await (await lockPath(lockFile, taking)).release();
    expect(taking.notices).toEqual([
      expect.stringMatching(/\): it does not say which run holds it\.$/),
    ]);
  });

  it('leaves a lock another run took over meanwhile to that run', async () => {
    const lock = await lockPath(lockFile, options());
    await fs.rm(lockFile);
    await fs.writeFile(lockFile, 'the lock of another run');
    await lock.release();
    expect(await fs.readFile(lockFile, 'utf8')).toBe('the lock of another run');
  });

  it('is removed when the process exits before the run releases it (a crash, a second signal)', async () => {
    const { child } = await otherRun('process.exit(1);');
    await childEnded(child);
    expect(await fs.readdir(dir)).toEqual([]);
  });
});

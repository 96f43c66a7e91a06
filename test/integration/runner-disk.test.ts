import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { formatBytes } from '../../src/duration.js';
import { type Harness, startHarness, treeDigest } from '../support/in-process.js';

/**
 * The runner's own disk, as a persistent self-hosted runner meets it: `path` on a small
 * file system of its own (a tmpfs mounted in a temp dir, so root only: skipped where this
 * machine cannot mount). Whatever fails, `path` is left as it was, nothing half written
 * is left beside it, and the error names the place and the cause.
 */

let harness: Harness;
let machine: string;
beforeAll(async () => {
  harness = await startHarness({ jobDurationMs: 1000, queuedMs: 100, pageCount: 12 });
  machine = await fs.mkdtemp(path.join(os.tmpdir(), 'runner-disk-'));
});
afterAll(async () => {
  await harness.stop();
  await fs.rm(machine, { recursive: true, force: true });
});

/** A tmpfs with `options` on a fresh directory, unmounted when the test ends. */
async function mountedDisk(context: TestContext, options: string): Promise<string> {
  const disk = await fs.mkdtemp(path.join(machine, 'disk-'));
  const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', disk], {
    encoding: 'utf8',
  });
  if (mount.status !== 0) {
    const why = mount.error?.message ?? mount.stderr.trim();
    console.warn(`skipping a test: cannot mount a tmpfs here (${why})`);
    context.skip(`cannot mount a tmpfs here (${why})`);
  }
  context.onTestFinished(() => {
    spawnSync('umount', [disk]);
  });
  return disk;
}

function remount(disk: string, options: string): void {
  const mount = spawnSync('mount', ['-o', `remount,${options}`, disk], { encoding: 'utf8' });
  expect(mount.status, mount.stderr).toBe(0);
}

/** Inodes in use on the file system holding `dir`. */
async function inodesUsed(dir: string): Promise<number> {
  const stats = await fs.statfs(dir);
  return stats.files - stats.ffree;
}

function exportInto(workspace: string) {
  return harness.run(
    { domain: 'docs.example.com', path: 'site', 'poll-interval': '0.5s' },
    { workspace, tempDir: path.join(machine, 'temp') },
  );
}

/** A size as the messages give it: `17 B`, `1.4 MB`, `812 KB`. */
const SIZE = '\\d+(?:\\.\\d)? [KMG]?B';

function errorLine(run: { stdout: string }): string | undefined {
  return run.stdout.split('\n').find((line) => line.startsWith('::error'));
}

describe('a full disk under path (root only)', () => {
  it('while the site is extracted: the error names the directory and the way out; path is as it was', async (context) => {
    const disk = await mountedDisk(context, 'size=2m');
    const workspace = path.join(disk, 'ws');
    expect((await exportInto(workspace)).code).toBe(0);
    const before = await treeDigest(path.join(workspace, 'site'));
    // Room for what is there, not for a second site beside it.
    const { blocks, bfree, bsize } = await fs.statfs(disk);
    remount(disk, `size=${(blocks - bfree) * bsize + 16 * 1024}`);
    const run = await exportInto(workspace);
    expect(run.code).toBe(1);
    expect(errorLine(run)).toMatch(
      new RegExp(
        `^::error::Could not write the extracted site into ${workspace}/\\.site\\.partial-\\d+(?:-[0-9a-f]+)+: the disk is full \\(ENOSPC\\), with ${SIZE} written so far and ${SIZE} free on that file system\\. Free space on the runner`,
      ),
    );
    expect(await treeDigest(path.join(workspace, 'site'))).toEqual(before);
    expect(await fs.readdir(workspace)).toEqual(['site']);
  });

  it('while the manifest is written: the error names the file and the way out, never a stack; path is as it was', async (context) => {
    const disk = await mountedDisk(context, 'size=4m');
    const workspace = path.join(disk, 'ws');
    expect((await exportInto(workspace)).code).toBe(0);
    const before = await treeDigest(path.join(workspace, 'site'));
    // What is there (the mount, ws, site and its files, the manifest among them), the lock
    // on path, and the same again beside it but for the new manifest: the last file the
    // run creates there.
    const used = await inodesUsed(disk);
    const site = used - 2;
    remount(disk, `nr_inodes=${used + 1 + site - 1}`);
    const run = await exportInto(workspace);
    expect(run.code).toBe(1);
    expect(errorLine(run)).toMatch(
      new RegExp(
        `^::error::Could not write the export manifest ${workspace}/\\.site\\.partial-\\d+(?:-[0-9a-f]+)+/\\.static-export\\.json: the disk is full \\(ENOSPC\\), with ${SIZE} written so far and ${SIZE} free on that file system, but no inode left for another file\\. Free space on the runner`,
      ),
    );
    expect(run.stdout).not.toMatch(/::debug::Error: ENOSPC/);
    expect(await treeDigest(path.join(workspace, 'site'))).toEqual(before);
    expect(await fs.readdir(workspace)).toEqual(['site']);
  });
  it('with extract false, path on a disk of its own (a copy across devices): the error names path; the earlier archive stays', async (context) => {
    const disk = await mountedDisk(context, 'size=2m');
    const workspace = path.join(disk, 'ws');
    const keep = (inputs: Record<string, string> = {}) =>
      harness.run(
        {
          domain: 'docs.example.com',
          path: 'out',
          extract: 'false',
          'poll-interval': '0.5s',
          ...inputs,
        },
        { workspace, tempDir: path.join(machine, 'temp') },
      );
    expect((await keep()).code).toBe(0);
    const out = path.join(workspace, 'out');
    const before = await treeDigest(out);
    // Full: the temp directory (another file system) holds the download, path has no room
    // for it, once the lock and the new manifest (a page each) are written there.
    const { blocks, bfree, bsize } = await fs.statfs(disk);
    remount(disk, `size=${(blocks - bfree) * bsize + 2 * 4096}`);
    const run = await keep();
    expect(run.code).toBe(1);
    expect(errorLine(run)).toMatch(
      new RegExp(
        `^::error::Could not copy the archive into ${out}: the disk is full \\(ENOSPC\\), with ${formatBytes(Number(run.outputs['size-bytes']))} needed and ${SIZE} free on that file system\\. Free space on the runner`,
      ),
    );
    expect(run.stdout).not.toMatch(/::debug::Error: ENOSPC/);
    expect(await treeDigest(out)).toEqual(before);
  });
  it('a download into a full temp directory: the error names the file, what was written of how much, and what is free; no cut archive is kept', async (context) => {
    // One page: the archive takes two. A write there writes what fits and fails only
    // when written to again.
    const temp = await mountedDisk(context, 'size=4k');
    const workspace = await fs.mkdtemp(path.join(machine, 'ws-'));
    const run = await harness.run(
      { domain: 'docs.example.com', path: 'out', extract: 'false', 'poll-interval': '0.5s' },
      { workspace, tempDir: temp },
    );
    const size = Number(run.outputs['size-bytes']);
    expect(size).toBeGreaterThan(4096);
    expect(errorLine(run)).toMatch(
      new RegExp(
        `^::error::Could not write the download to ${temp}/\\S+: the disk is full \\(ENOSPC\\), with ${SIZE} written so far, ${formatBytes(size).replace('.', '\\.')} needed and ${SIZE} free on that file system\\. Free space on the runner`,
      ),
    );
    expect(run.code).toBe(1);
    expect(await fs.readdir(path.join(workspace, 'out')).catch(() => [])).toEqual([]);
  });

  it('a helm-values-file on a full disk: the error names the file and the way out; the file is as it was', async (context) => {
    const disk = await mountedDisk(context, 'size=64k');
    const values = path.join(disk, 'values.yaml');
    await fs.writeFile(values, '');
    // Every block taken: nothing more can be written there.
    await fs.writeFile(path.join(disk, 'filler'), Buffer.alloc(64 * 1024)).catch(() => undefined);
    const workspace = await fs.mkdtemp(path.join(machine, 'ws-'));
    const run = await harness.run(
      {
        domain: 'docs.example.com',
        path: 'site',
        'poll-interval': '0.5s',
        'helm-values-file': values,
      },
      { workspace, tempDir: path.join(machine, 'temp') },
    );
    expect(run.code).toBe(1);
    expect(errorLine(run)).toMatch(
      new RegExp(
        `^::error::Could not write ${values}: the disk is full \\(ENOSPC\\), with ${SIZE} free on that file system\\. Free space on the runner`,
      ),
    );
    expect(run.stdout).not.toMatch(/::debug::Error: ENOSPC/);
    expect(await fs.readFile(values, 'utf8')).toBe('');
    expect((await fs.readdir(disk)).sort()).toEqual(['filler', 'values.yaml']);
  });
  it('an earlier export that cannot be moved aside (immutable): the error names path, which is as it was', async (context) => {
    const workspace = await fs.mkdtemp(path.join(machine, 'ws-'));
    expect((await exportInto(workspace)).code).toBe(0);
    const site = path.join(workspace, 'site');
    const before = await treeDigest(site);
    const chattr = spawnSync('chattr', ['+i', site], { encoding: 'utf8' });
    if (chattr.status !== 0) {
      const why = chattr.error?.message ?? chattr.stderr.trim();
      console.warn(`skipping a test: cannot make a directory immutable here (${why})`);
      context.skip(`cannot make a directory immutable here (${why})`);
    }
    context.onTestFinished(() => {
      spawnSync('chattr', ['-i', site]);
    });
    const run = await exportInto(workspace);
    expect(run.code).toBe(1);
    expect(errorLine(run)).toBe(
      `::error::Could not move aside the earlier export in ${site}: operation not permitted (EPERM). Check that the runner may write there, or choose another \`path\` (and RUNNER_TEMP or TMPDIR).`,
    );
    expect(await treeDigest(site)).toEqual(before);
    expect(await fs.readdir(workspace)).toEqual(['site']);
  });
});

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnsafeArchiveError } from '../../src/errors.js';
import { tarOf, type TarEntrySpec } from '../support/archives.js';
import { extractBuffer, treeOf } from '../support/extract.js';

/**
 * Extraction onto a filesystem that folds case and Unicode normalization, as macOS and
 * Windows runners have by default: a FUSE filesystem (test/support/casefold-fs.py) mounted
 * over a backing directory, so the kernel, not a stub, answers every call. Needs
 * /dev/fuse and Debian's python3-fusepy (.ci/run installs it); in CI their absence fails.
 */

const run = promisify(execFile);
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
let scratch: string;
let backing: string;
let mountpoint: string;
let server: ChildProcess | undefined;
let unavailable: string | undefined;
let cases = 0;

async function mounted(): Promise<boolean> {
  const mounts = await fs.readFile('/proc/mounts', 'utf8').catch(() => '');
  return mounts.split('\n').some((line) => line.split(' ')[1] === mountpoint);
}

beforeAll(async () => {
  scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'casefold-'));
  backing = path.join(scratch, 'backing');
  mountpoint = path.join(scratch, 'mnt');
  await fs.mkdir(backing);
  await fs.mkdir(mountpoint);
  const probe = await run(PYTHON, ['-c', 'import fusepy']).then(
    () => undefined,
    () => 'python3-fusepy is not installed',
  );
  unavailable = probe ?? (existsSync('/dev/fuse') ? undefined : '/dev/fuse is missing');
  if (unavailable) return;
  server = spawn(
    PYTHON,
    [path.join(__dirname, '..', 'support', 'casefold-fs.py'), backing, mountpoint],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  server.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (let waited = 0; !(await mounted()); waited += 50) {
    if (waited > 10_000 || server.exitCode !== null) {
      unavailable = `the FUSE filesystem did not mount: ${stderr.trim().slice(0, 300)}`;
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

afterAll(async () => {
  if (server) {
    await run('umount', [mountpoint]).catch(() =>
      run('fusermount', ['-u', mountpoint]).catch(() => undefined),
    );
    if (server.exitCode === null) server.kill();
  }
  await fs.rm(scratch, { recursive: true, force: true });
});

/** Extracts onto the folding filesystem; the sandbox is the mount itself. */
async function extractFolding(entries: TarEntrySpec[]) {
  if (unavailable) {
    if (process.env.CI === 'true') throw new Error(unavailable);
    return undefined;
  }
  const name = `site${(cases += 1)}`;
  const outcome = await extractBuffer(await tarOf(entries), path.join(mountpoint, name));
  // Nothing outside the destination: the backing directory holds the site only.
  expect((await fs.readdir(backing)).sort()).toEqual([name]);
  return { outcome, root: path.join(mountpoint, name), name };
}

describe('a case-insensitive, normalizing filesystem is judged by its own name rules', () => {
  it('the filesystem folds names (the premise of the cases below)', async (context) => {
    if (unavailable && process.env.CI !== 'true') context.skip(unavailable);
    if (unavailable) throw new Error(unavailable);
    await fs.writeFile(path.join(mountpoint, 'Probe.TXT'), 'x');
    expect(await fs.readFile(path.join(mountpoint, 'probe.txt'), 'utf8')).toBe('x');
    await fs.rm(path.join(mountpoint, 'probe.txt'));
  });

  it('a/up -> .., A/UP/w -> .., then a/Up/W/package.json writes nothing outside', async (context) => {
    const result = await extractFolding([
      { name: 'a/', type: 'directory' },
      { name: 'a/up', type: 'symlink', linkname: '..' },
      { name: 'A/UP/w', type: 'symlink', linkname: '..' },
      { name: 'a/Up/W/package.json', content: '{"scripts":{"postinstall":"pwned"}}' },
    ]);
    if (!result) return context.skip(unavailable);
    expect(result.outcome.ok).toBe(false);
    if (!result.outcome.ok) {
      expect(result.outcome.error).toBeInstanceOf(UnsafeArchiveError);
      expect(result.outcome.error.message).toMatch(
        /collides with another entry on this filesystem/,
      );
    }
    await fs.rm(path.join(backing, result.name), { recursive: true, force: true });
  });

  for (const [what, first, second] of [
    ['case', 'Index.html', 'index.HTML'],
    ['Unicode normalization', 'caf\u00e9.html', 'cafe\u0301.html'],
    ['a trailing dot (Windows drops it)', 'notes', 'notes.'],
  ] as const) {
    it(`two files whose names differ only in ${what} are refused, not written through`, async (context) => {
      const result = await extractFolding([
        { name: first, content: 'first' },
        { name: second, content: 'second' },
      ]);
      if (!result) return context.skip(unavailable);
      expect(result.outcome.ok).toBe(false);
      if (!result.outcome.ok) expect(result.outcome.error.message).toMatch(/collides/);
      await fs.rm(path.join(backing, result.name), { recursive: true, force: true });
    });
  }

  it('long directory names differing only in case make one directory, every file listed', async (context) => {
    // Names over 32 characters are kept as digests while extracting and read back from
    // the disk to list the site: the second spelling is not on disk.
    const upper = 'Reference-Documentation-Section-01';
    const lower = upper.toLowerCase();
    const result = await extractFolding([
      { name: `${upper}/a.html`, content: 'a' },
      { name: `${lower}/b.html`, content: 'b' },
      { name: `${lower}/${'Nested-Long-Directory-Name-Number-2'}/c.html`, content: 'c' },
    ]);
    if (!result) return context.skip(unavailable);
    if (!result.outcome.ok) throw result.outcome.error;
    expect([...result.outcome.site.contents.filePaths]).toEqual([
      `${upper}/a.html`,
      `${lower}/Nested-Long-Directory-Name-Number-2/c.html`,
      `${lower}/b.html`,
    ]);
    expect(result.outcome.site.contents.directories).toBeUndefined();
    expect(await treeOf(result.root)).toEqual([
      `${upper}/`,
      `${upper}/Nested-Long-Directory-Name-Number-2/`,
      `${upper}/Nested-Long-Directory-Name-Number-2/c.html`,
      `${upper}/a.html`,
      `${upper}/b.html`,
    ]);
    await fs.rm(path.join(backing, result.name), { recursive: true, force: true });
  });

  it('long names that lose a trailing dot or space on disk are listed as the archive spells them', async (context) => {
    // Windows stores `…version.` as `…version`: read back from the disk to list the site,
    // such a long name would no longer match its digest.
    const directory = 'Reference-Documentation-Section-02 ';
    const file = 'release-notes-for-the-latest-version.';
    const result = await extractFolding([
      { name: `${directory}/${file}`, content: 'notes' },
      { name: `${directory}/index.html`, content: 'index' },
    ]);
    if (!result) return context.skip(unavailable);
    if (!result.outcome.ok) throw result.outcome.error;
    expect([...result.outcome.site.contents.filePaths].sort()).toEqual([
      `${directory}/index.html`,
      `${directory}/${file}`,
    ]);
    const onDisk = directory.trimEnd();
    expect(await treeOf(result.root)).toEqual([
      `${onDisk}/`,
      `${onDisk}/index.html`,
      `${onDisk}/release-notes-for-the-latest-version`,
    ]);
    await fs.rm(path.join(backing, result.name), { recursive: true, force: true });
  });

  it('an ordinary site, links included, extracts as on any filesystem', async (context) => {
    const result = await extractFolding([
      { name: 'index.html', content: 'home' },
      { name: 'Guides/intro.html', content: 'intro' },
      { name: 'guides/more.html', content: 'more' },
      { name: 'latest.html', type: 'symlink', linkname: 'Guides/intro.html' },
    ]);
    if (!result) return context.skip(unavailable);
    if (!result.outcome.ok) throw result.outcome.error;
    expect(await treeOf(result.root)).toEqual([
      'Guides/',
      'Guides/intro.html',
      'Guides/more.html',
      'index.html',
      'latest.html',
    ]);
    expect(await fs.readFile(path.join(result.root, 'latest.html'), 'utf8')).toBe('intro');
    await fs.rm(path.join(backing, result.name), { recursive: true, force: true });
  });
});

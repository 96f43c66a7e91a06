import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, type TestContext, vi } from 'vitest';
import { buildManifest, MANIFEST_NAME, serializeManifest } from '../../src/deliver/manifest.js';
import {
  recoverInterruptedRuns,
  removeStaleTemporaryFiles,
  replaceDirectory,
} from '../../src/deliver/place.js';
import { ownNamePart } from '../../src/deliver/process-identity.js';
import {
  archiveManifestName,
  inspectArchiveTarget,
  inspectTarget,
  type TargetRules,
} from '../../src/deliver/target.js';
import { NODE24, ROOT } from '../../scripts/runner.js';
import { CancelledError, PathInUseError } from '../../src/errors.js';
import { treeDigest } from '../support/action.js';
import { endChild, srcModule, startChildScript } from '../support/child-script.js';
import { writeEarlierExport } from '../support/earlier-export.js';

/**
 * What `path` may replace, on real directories of a fake machine built in a temp dir:
 * a workspace, a home and a runner temp directory, with user data around them.
 */

let root: string;
let rules: TargetRules;
let workspace: string;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'target-')));
  workspace = path.join(root, 'home', 'runner', 'work', 'docs', 'docs');
  await fs.mkdir(workspace, { recursive: true });
  await fs.mkdir(path.join(root, 'home', 'runner', 'work', '_temp'), { recursive: true });
  rules = {
    platform: process.platform,
    workspace,
    home: path.join(root, 'home', 'runner'),
    runnerDirs: [path.join(root, 'home', 'runner', 'work', '_temp')],
    overwrite: false,
  };
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** Mounts as root may, or skips the test where this machine cannot (a skip fails CI). */
function mountOrSkip(context: TestContext, args: string[]): void {
  const mount = spawnSync('mount', args, { encoding: 'utf8' });
  if (mount.status === 0) return;
  const why = mount.error?.message ?? mount.stderr.trim();
  console.warn(`skipping a test: cannot mount here (${why})`);
  context.skip(`cannot mount here (${why})`);
}

async function write(file: string, content = 'user data'): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
}

describe('inspectTarget', () => {
  it('names overlapping runs when path is swapped away while it is read, never a bare ENOENT nor an input error', async () => {
    const site = path.join(workspace, 'site');
    await writeEarlierExport(site, { 'index.html': '<h1>Docs</h1>' });
    const manifest = path.join(site, MANIFEST_NAME);
    const lstat = fs.lstat.bind(fs);
    let reads = 0;
    // Another run into the same path moves it aside between two reads of the manifest.
    const spy = vi.spyOn(fs, 'lstat').mockImplementation(async (file, ...rest) => {
      if (file === manifest && ++reads === 2) await fs.rename(site, `${site}.aside`);
      return lstat(file as string, ...(rest as []));
    });
    try {
      const error = await inspectTarget(site, rules).catch((err: unknown) => err);
      // Not the input's fault: the same run succeeds once the other has ended.
      expect(error).toBeInstanceOf(PathInUseError);
      expect((error as Error).message).toMatch(
        /changed while it was being checked, such as by another run into the same path \(runs into one path must not overlap\)/,
      );
    } finally {
      spy.mockRestore();
    }
  });

  it('accepts a missing directory and an empty one in the workspace', async () => {
    expect(await inspectTarget(path.join(workspace, 'site'), rules)).toEqual({ kind: 'absent' });
    await fs.mkdir(path.join(workspace, 'empty', 'nested'), { recursive: true });
    expect(await inspectTarget(path.join(workspace, 'empty'), rules)).toEqual({ kind: 'empty' });
  });

  it("refuses a directory of the user's, naming the count, a few files and the way out", async () => {
    const docs = path.join(workspace, 'docs');
    await write(path.join(docs, 'NOTES.md'));
    await write(path.join(docs, 'guides', 'intro.mdx'));
    const before = await treeDigest(docs);
    await expect(inspectTarget(docs, rules, 'docs')).rejects.toThrow(
      `"docs" (${docs}) holds 2 files (NOTES.md, guides/intro.mdx) and no export manifest (.static-export.json) says this action wrote it: refusing to replace it. Choose a new or empty directory, or set overwrite to true to replace it and everything in it.`,
    );
    expect(await treeDigest(docs)).toEqual(before);
  });

  it('refuses an export of a newer version of the action, saying so', async () => {
    const docs = path.join(workspace, 'docs');
    await writeEarlierExport(docs, { 'index.html': '<h1>' });
    const file = path.join(docs, MANIFEST_NAME);
    const manifest = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
    await fs.writeFile(file, JSON.stringify({ ...manifest, version: 2 }));
    await expect(inspectTarget(docs, rules, 'docs')).rejects.toThrow(
      `"docs" (${docs}) holds 2 files (.static-export.json, index.html) and its .static-export.json was written by a newer version of the action (manifest version 2; this one reads version 1): refusing to replace it.`,
    );
  });

  it('shows at most a few names of a large directory', async () => {
    const docs = path.join(workspace, 'docs');
    for (let i = 0; i < 40; i += 1)
      await write(path.join(docs, `page-${String(i).padStart(2, '0')}.md`));
    await expect(inspectTarget(docs, rules)).rejects.toThrow(
      /holds 40 files \(page-00\.md, page-01\.md, page-02\.md, … 37 more\)/,
    );
  });

  it("lets overwrite replace a directory of the user's, and says what it holds", async () => {
    const docs = path.join(workspace, 'docs');
    await write(path.join(docs, 'NOTES.md'));
    expect(await inspectTarget(docs, { ...rules, overwrite: true })).toEqual({
      kind: 'foreign',
      description: expect.stringMatching(/^holds 1 file \(NOTES\.md\)/),
    });
  });

  it('accepts an earlier export: its manifest and nothing it does not list', async () => {
    const site = path.join(workspace, 'site');
    await writeEarlierExport(site, { 'index.html': '<h1>', 'guides/a.html': 'a' });
    await fs.mkdir(path.join(site, 'empty-dir-from-the-archive'));
    const state = await inspectTarget(site, rules);
    expect(state).toMatchObject({ kind: 'export', manifest: { jobId: 'se_0000000000000001' } });
  });

  it('refuses an earlier export that the user added files to', async () => {
    const site = path.join(workspace, 'site');
    await writeEarlierExport(site, { 'index.html': '<h1>' });
    await write(path.join(site, 'drafts', 'todo.md'));
    await expect(inspectTarget(site, rules)).rejects.toThrow(
      /holds an earlier export plus 1 file that it did not contain \(drafts\/todo\.md\)/,
    );
  });

  /** Sets the mtime of the manifest of `site`, and of the given files after it by `later` s. */
  async function age(site: string, files: string[], later: number): Promise<void> {
    const written = new Date('2026-11-01T00:00:00Z');
    await fs.utimes(path.join(site, MANIFEST_NAME), written, written);
    const then = new Date(written.getTime() + later * 1000);
    for (const file of files) await fs.utimes(path.join(site, file), then, then);
  }

  it('refuses an earlier export whose file was edited since, naming it and the way out', async () => {
    const site = path.join(workspace, 'site');
    await writeEarlierExport(site, { 'index.html': '<h1>', 'notes.html': 'exported notes' });
    await write(path.join(site, 'notes.html'), 'MY HAND-WRITTEN NOTES, 3 hours of work');
    const before = await treeDigest(site);
    await expect(inspectTarget(site, rules, 'site')).rejects.toThrow(
      `"site" (${site}) holds an earlier export whose files were changed since (notes.html): refusing to replace it. Choose a new or empty directory, or set overwrite to true to replace it and everything in it.`,
    );
    await expect(inspectTarget(site, { ...rules, invokedAs: 'cli' })).rejects.toThrow(
      /or pass --overwrite true to replace it/,
    );
    // Replaced with overwrite, it is still the earlier export the change report counts from.
    expect(await inspectTarget(site, { ...rules, overwrite: true })).toEqual({
      kind: 'foreign',
      description: 'holds an earlier export whose files were changed since (notes.html)',
      manifest: expect.objectContaining({ jobId: 'se_0000000000000001' }),
    });
    expect(await treeDigest(site)).toEqual(before);
  });

  it("refuses the user's own files under a manifest copied from another export", async () => {
    const other = path.join(root, 'other-export');
    await writeEarlierExport(other, { 'index.html': 'x', 'about.html': 'y' });
    const site = path.join(workspace, 'site');
    await write(path.join(site, 'index.html'), 'USER OWN INDEX');
    await write(path.join(site, 'about.html'), 'USER OWN ABOUT');
    await fs.copyFile(path.join(other, MANIFEST_NAME), path.join(site, MANIFEST_NAME));
    await expect(inspectTarget(site, rules)).rejects.toThrow(
      /holds an earlier export whose files were changed since \(about\.html, index\.html\)/,
    );
  });

  it("refuses the user's files of the same names and sizes under a manifest copied in after them", async () => {
    // The user's own copy of an export, edited to the same sizes, then a manifest put
    // beside it: older than the manifest in both times, the files prove nothing by them.
    const other = path.join(root, 'other-export');
    await writeEarlierExport(other, { 'index.html': 'Footer 2025', 'about.html': 'About' });
    const site = path.join(workspace, 'site');
    await write(path.join(site, 'index.html'), 'Footer 2026');
    await write(path.join(site, 'about.html'), 'About');
    await new Promise((resolve) => setTimeout(resolve, 30));
    await fs.copyFile(path.join(other, MANIFEST_NAME), path.join(site, MANIFEST_NAME));
    const manifestTime = (await fs.stat(path.join(site, MANIFEST_NAME))).mtimeMs;
    for (const name of ['index.html', 'about.html']) {
      const { mtimeMs, ctimeMs } = await fs.stat(path.join(site, name));
      expect(Math.max(mtimeMs, ctimeMs)).toBeLessThan(manifestTime);
    }
    await expect(inspectTarget(site, rules)).rejects.toThrow(/changed since \(index\.html\)/);
    // The export itself, moved (renamed), is still known as the directory it was written in.
    const moved = path.join(workspace, 'moved');
    await fs.rename(other, moved);
    expect(await inspectTarget(moved, rules)).toMatchObject({ kind: 'export' });
    // A manifest of an earlier version, which names no directory, has every file read.
    const text = await fs.readFile(path.join(site, MANIFEST_NAME), 'utf8');
    const earlier = JSON.parse(text) as Record<string, unknown>;
    delete earlier.directory;
    await fs.writeFile(path.join(site, MANIFEST_NAME), JSON.stringify(earlier));
    await expect(inspectTarget(site, rules)).rejects.toThrow(/changed since \(index\.html\)/);
  });

  it('refuses an earlier export where a listed file is now a directory or a link', async () => {
    const site = path.join(workspace, 'site');
    await writeEarlierExport(site, { 'a.html': 'a', 'b.html': 'b', 'c.html': 'c', 'd.html': 'd' });
    for (const name of ['a.html', 'b.html', 'c.html']) await fs.rm(path.join(site, name));
    await fs.mkdir(path.join(site, 'a.html'));
    await fs.symlink('d.html', path.join(site, 'b.html'));
    await write(path.join(site, 'c.html', 'mine.txt'));
    await expect(inspectTarget(site, rules)).rejects.toThrow(
      /holds an earlier export plus 1 file that it did not contain \(c\.html\/mine\.txt\)/,
    );
    await fs.rm(path.join(site, 'c.html'), { recursive: true });
    await expect(inspectTarget(site, rules)).rejects.toThrow(
      /whose files were changed since \(a\.html, b\.html\)/,
    );
  });

  it('hashes a file modified after the manifest: other bytes of the same size are refused', async () => {
    const site = path.join(workspace, 'site');
    await writeEarlierExport(site, { 'index.html': 'exported', 'page.html': 'same-size' });
    await write(path.join(site, 'page.html'), 'SAME-SIZE');
    await age(site, ['page.html'], 60);
    await expect(inspectTarget(site, rules)).rejects.toThrow(/changed since \(page\.html\)/);
    // Touched but with the bytes it was written with: still the export.
    await write(path.join(site, 'page.html'), 'same-size');
    await age(site, ['page.html'], 60);
    expect(await inspectTarget(site, rules)).toMatchObject({ kind: 'export' });
  });

  it('takes back an export copied with new times by its bytes, files of several megabytes included', async () => {
    const written = path.join(root, 'written-export');
    const large = Buffer.alloc(2.5 * 1024 * 1024, 'a');
    await writeEarlierExport(written, { 'index.html': 'exported', 'video.bin': large });
    const site = path.join(workspace, 'site');
    await fs.cp(written, site, { recursive: true });
    await age(site, ['index.html', 'video.bin'], 60);
    expect(await inspectTarget(site, rules)).toMatchObject({ kind: 'export' });
    // One byte of the last megabyte: the same size, only the whole read tells.
    large[large.length - 1] = 0x62;
    await fs.writeFile(path.join(site, 'video.bin'), large);
    await age(site, ['video.bin'], 60);
    await expect(inspectTarget(site, rules)).rejects.toThrow(/changed since \(video\.bin\)/);
  });

  it('sees an edit whose time was set back (cp -p, tar, rsync -t): the change time tells', async () => {
    const site = path.join(workspace, 'site');
    await writeEarlierExport(site, { 'index.html': 'exported', 'about.html': 'about' });
    // Other bytes of the same size, stamped older than the manifest.
    await write(path.join(site, 'index.html'), 'EXPORTED');
    await age(site, ['index.html'], -60);
    await expect(inspectTarget(site, rules)).rejects.toThrow(
      /holds an earlier export whose files were changed since \(index\.html\)/,
    );
  });

  it('reads every file under a manifest stamped in the future (a clock ahead)', async () => {
    const site = path.join(workspace, 'site');
    await writeEarlierExport(site, { 'index.html': 'exported' });
    await write(path.join(site, 'index.html'), 'EXPORTED');
    const ahead = new Date(Date.now() + 86_400_000);
    await fs.utimes(path.join(site, MANIFEST_NAME), ahead, ahead);
    await expect(inspectTarget(site, rules)).rejects.toThrow(/changed since \(index\.html\)/);
    // Untouched, the same export is still one.
    await write(path.join(site, 'index.html'), 'exported');
    expect(await inspectTarget(site, rules)).toMatchObject({ kind: 'export' });
  });

  it('accepts an earlier export whose listed files are missing (a manifest restored alone)', async () => {
    const site = path.join(workspace, 'site');
    await writeEarlierExport(site, { 'index.html': 'x', 'about.html': 'y' });
    await fs.rm(path.join(site, 'about.html'));
    expect(await inspectTarget(site, rules)).toMatchObject({ kind: 'export' });
  });

  it.each([
    ['not JSON', '{ nope', /is not JSON/],
    ['another format', JSON.stringify({ format: 'something-else' }), /format/],
  ])('does not take a manifest that is %s as proof', async (_, content, why) => {
    const site = path.join(workspace, 'site');
    await write(path.join(site, 'index.html'));
    await write(path.join(site, MANIFEST_NAME), content);
    await expect(inspectTarget(site, rules)).rejects.toThrow(why);
  });

  it('refuses a file, and a symbolic link, at path', async () => {
    await write(path.join(workspace, 'file'));
    await expect(inspectTarget(path.join(workspace, 'file'), rules)).rejects.toThrow(
      /exists and is not a directory/,
    );
    await fs.mkdir(path.join(root, 'elsewhere'));
    await fs.symlink(path.join(root, 'elsewhere'), path.join(workspace, 'link'));
    await expect(inspectTarget(path.join(workspace, 'link'), rules)).rejects.toThrow(
      /is a symbolic link \(to .*elsewhere\): give the directory itself/,
    );
  });

  it('refuses the workspace reached through a symlink in the path', async () => {
    await fs.mkdir(path.join(workspace, 'sub'));
    await fs.symlink('../..', path.join(workspace, 'sub', 'up'));
    const sneaky = path.join(workspace, 'sub', 'up', 'docs');
    await expect(inspectTarget(sneaky, { ...rules, overwrite: true })).rejects.toThrow(
      /is never replaced: it is the workspace itself \(it resolves to /,
    );
  });

  it('refuses protected directories even with overwrite', async () => {
    for (const target of [
      workspace,
      path.dirname(workspace),
      rules.home as string,
      rules.runnerDirs[0] as string,
    ]) {
      await expect(inspectTarget(target, { ...rules, overwrite: true })).rejects.toThrow(
        /is never replaced/,
      );
    }
  });

  it('outside the workspace, replaces only a missing directory or an earlier export', async () => {
    const outside = path.join(root, 'srv');
    expect(await inspectTarget(path.join(outside, 'new'), rules)).toEqual({ kind: 'absent' });
    await fs.mkdir(path.join(outside, 'empty'), { recursive: true });
    await expect(inspectTarget(path.join(outside, 'empty'), rules)).rejects.toThrow(
      /is an existing directory outside the workspace: refusing to replace it\. Choose a new or empty directory inside the workspace, or set overwrite to true/,
    );
    await writeEarlierExport(path.join(outside, 'docs'), { 'index.html': 'x' });
    expect(await inspectTarget(path.join(outside, 'docs'), rules)).toMatchObject({
      kind: 'export',
    });
    await write(path.join(outside, 'mine', 'a.txt'));
    await expect(inspectTarget(path.join(outside, 'mine'), rules)).rejects.toThrow(/holds 1 file/);
  });
  it('judges a path through a symlinked parent by where it leads: outside the workspace', async () => {
    const www = path.join(root, 'srv', 'www');
    await fs.mkdir(path.join(www, 'site', 'uploads', '2024'), { recursive: true });
    await fs.symlink(www, path.join(workspace, 'www'));
    const site = path.join(workspace, 'www', 'site');
    await expect(inspectTarget(site, rules, 'www/site')).rejects.toThrow(
      `"www/site" (${site}) is an existing directory outside the workspace (it resolves to ${path.join(www, 'site')}): refusing to replace it. Choose a new or empty directory inside the workspace, or set overwrite to true`,
    );
    expect(await fs.readdir(path.join(www, 'site', 'uploads'))).toEqual(['2024']);
  });

  it('refuses, before the export, a name too long for the hidden directory made beside it', async () => {
    const longest = 255 - `..previous-${ownNamePart()}-00000000`.length;
    await fs.mkdir(path.join(workspace, 's'.repeat(longest + 1)));
    await expect(
      inspectTarget(path.join(workspace, 's'.repeat(longest + 1)), rules),
    ).rejects.toThrow(
      `has a name too long to create the new site beside it under a name of its own (.${'s'.repeat(longest + 1)}.previous-…, more than 255 bytes): choose a name of at most ${longest} bytes.`,
    );
    expect(await inspectTarget(path.join(workspace, 's'.repeat(longest)), rules)).toEqual({
      kind: 'absent',
    });
  });

  it("refuses another user's directory in a sticky directory (like /tmp), which only its owner may move", async () => {
    const shared = path.join(root, 'srv', 'shared');
    await writeEarlierExport(path.join(shared, 'site'), { 'index.html': 'theirs' });
    await fs.chmod(shared, 0o1777);
    await fs.chown(path.join(shared, 'site'), 2000, 2000);
    const uid = vi.spyOn(process, 'getuid').mockReturnValue(1000);
    try {
      await expect(
        inspectTarget(path.join(shared, 'site'), { ...rules, overwrite: true }),
      ).rejects.toThrow(
        `${path.join(shared, 'site')} belongs to another user (uid 2000) in a directory where only an entry's owner may move it (the sticky bit, as on /tmp), so it cannot be swapped for the new site: choose a \`path\` of this runner's own.`,
      );
      // The runner's own directory there is fine, and any in a sticky directory of its own.
      await fs.chown(shared, 1000, 1000);
      expect((await inspectTarget(path.join(shared, 'site'), rules)).kind).toBe('export');
      await fs.chown(shared, 0, 0);
      await fs.chown(path.join(shared, 'site'), 1000, 1000);
      expect((await inspectTarget(path.join(shared, 'site'), rules)).kind).toBe('export');
    } finally {
      uid.mockRestore();
    }
  });
});

describe('inspectTarget on a place it cannot write', () => {
  it("refuses a path whose parent is not writable, before the export, and the archive's directory too", async () => {
    const pub = path.join(workspace, 'pub');
    await writeEarlierExport(path.join(pub, 'site'), { 'index.html': 'x' });
    // Permissions never fail for root, who runs the tests: the check is answered as for a user.
    const access = fs.access.bind(fs);
    const denied = vi.spyOn(fs, 'access').mockImplementation(async (file, mode) => {
      if (String(file) !== pub) return access(file, mode);
      throw Object.assign(new Error(`EACCES: permission denied, access '${pub}'`), {
        code: 'EACCES',
      });
    });
    try {
      await expect(inspectTarget(path.join(pub, 'site'), rules, 'pub/site')).rejects.toThrow(
        `"pub/site" (${path.join(pub, 'site')}) cannot be written: ${pub} is not writable (EACCES), and the new site is created beside \`path\` before it takes its place. Make it writable for the runner, or choose another \`path\`.`,
      );
      // A directory yet to be created is judged by the nearest parent that exists.
      await expect(inspectTarget(path.join(pub, 'new', 'site'), rules)).rejects.toThrow(
        `cannot be written: ${pub} is not writable (EACCES)`,
      );
      await expect(inspectArchiveTarget(pub, ['docs.example.com.zip'], rules)).rejects.toThrow(
        `${pub} is not written into: ${pub} is not writable (EACCES). Make it writable for the runner, or choose another \`path\`.`,
      );
    } finally {
      denied.mockRestore();
    }
  });

  it('refuses a path that is a mount point, suggesting a directory inside it (root only)', async (context) => {
    const site = path.join(workspace, 'site');
    await fs.mkdir(site);
    mountOrSkip(context, ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', site]);
    try {
      await writeEarlierExport(site, { 'index.html': 'on its own volume' });
      await expect(inspectTarget(site, { ...rules, overwrite: true }, 'site')).rejects.toThrow(
        `"site" (${site}) is a mount point (a file system or a bind mount is mounted there), and a mount point cannot be swapped for a new directory: give a directory inside it as \`path\`, such as site/site.`,
      );
    } finally {
      spawnSync('umount', [site]);
    }
  });

  it('refuses a bind mount of the same file system at path (as docker -v makes), before the export (root only)', async (context) => {
    const site = path.join(workspace, 'site');
    const volume = path.join(root, 'volume');
    await writeEarlierExport(volume, { 'index.html': 'on a bind mount' });
    await fs.mkdir(site);
    mountOrSkip(context, ['--bind', volume, site]);
    try {
      await expect(inspectTarget(site, rules, 'site')).rejects.toThrow(
        `"site" (${site}) is a mount point (a file system or a bind mount is mounted there)`,
      );
    } finally {
      spawnSync('umount', [site]);
    }
    expect(await inspectTarget(site, rules, 'site')).toEqual({ kind: 'empty' });
  });
});

/** What `script` (an ES module) prints when run as nobody, with `tmp` as its TMPDIR. */
function asNobody(script: string, tmp: string): string {
  const child = spawnSync(
    'setpriv',
    [
      '--reuid=65534',
      '--regid=65534',
      '--clear-groups',
      process.execPath,
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      script,
    ],
    { encoding: 'utf8', env: { ...process.env, HOME: root, TMPDIR: tmp, TSX_DISABLE_CACHE: '1' } },
  );
  return child.stdout.trim() || child.stderr.trim();
}

/**
 * A directory nobody may write into, for a check run as that user (skipped unless this
 * runs as root with setpriv); the test run's temp root and this test's are only traversed.
 */
async function sharedWithNobody(context: TestContext): Promise<string> {
  if (process.getuid?.() !== 0 || spawnSync('setpriv', ['--version']).status !== 0) {
    context.skip('needs root and setpriv to run the check as another user');
  }
  await fs.chmod(os.tmpdir(), 0o711);
  await fs.chmod(root, 0o711);
  return path.join(root, 'shared');
}

describe('inspectTarget as a user who cannot read all of path (root only: runs as nobody)', () => {
  it('refuses, before the export, a directory inside path it cannot read, even with overwrite', async (context) => {
    const shared = await sharedWithNobody(context);
    const site = path.join(shared, 'site');
    await writeEarlierExport(site, { 'index.html': 'x' });
    await write(path.join(site, 'private', 'notes.txt'));
    await fs.chmod(shared, 0o777);
    await fs.chmod(path.join(site, 'private'), 0o000);
    const check = (overwrite: boolean) =>
      asNobody(
        `import { inspectTarget } from ${JSON.stringify(path.resolve('src/deliver/target.ts'))};
        const rules = { platform: process.platform, workspace: ${JSON.stringify(shared)}, runnerDirs: [], overwrite: ${overwrite} };
        await inspectTarget(${JSON.stringify(site)}, rules).then(() => console.log('accepted'), (err) => console.log(err.message));`,
        shared,
      );
    for (const overwrite of [false, true]) {
      expect(check(overwrite)).toBe(
        `${site} holds private, a directory the runner cannot read (EACCES), so what it holds cannot be checked: make it readable for the runner, or choose another \`path\`.`,
      );
    }
    await fs.chmod(path.join(site, 'private'), 0o755);
    expect(await fs.readFile(path.join(site, 'private', 'notes.txt'), 'utf8')).toBe('user data');
  });
});

describe('inspectTarget through a bind mount (root only)', () => {
  it('refuses the workspace, and its parent, reached through a bind mount, even with overwrite', async (context) => {
    await write(path.join(workspace, 'README.md'), 'the checkout');
    const alias = path.join(root, 'alias');
    await fs.mkdir(alias);
    mountOrSkip(context, ['--bind', path.dirname(workspace), alias]);
    try {
      const overwrite = { ...rules, overwrite: true };
      await expect(inspectTarget(path.join(alias, 'docs'), overwrite)).rejects.toThrow(
        `${path.join(alias, 'docs')} is never replaced: it is the workspace, reached by another path (the same device and inode: a bind mount or another mount of it). Choose a directory of its own`,
      );
      await expect(inspectTarget(alias, overwrite)).rejects.toThrow(
        /is never replaced: it contains the workspace, reached by another path/,
      );
      await fs.mkdir(path.join(alias, 'site'));
      expect(await inspectTarget(path.join(alias, 'site'), overwrite)).toEqual({ kind: 'empty' });
      expect(await fs.readdir(workspace)).toEqual(['README.md']);
    } finally {
      // Unmounted before the temp root is removed, which would otherwise descend into it.
      spawnSync('umount', [alias]);
    }
  });
});

describe('inspectArchiveTarget (extract: false)', () => {
  const names = ['docs.example.com.tar.gz', 'docs.example.com.zip'];

  it('writes into the workspace itself and beside other files', async () => {
    await write(path.join(workspace, 'README.md'));
    await expect(inspectArchiveTarget(workspace, names, rules)).resolves.toEqual(new Map());
  });

  it('never overwrites an archive it did not write, unless asked', async () => {
    await write(path.join(workspace, 'out', 'docs.example.com.zip'), 'my own zip');
    await expect(inspectArchiveTarget(path.join(workspace, 'out'), names, rules)).rejects.toThrow(
      /already holds docs\.example\.com\.zip, and no export manifest \(docs\.example\.com\.zip\.static-export\.json\) says this action wrote it/,
    );
    await expect(
      inspectArchiveTarget(path.join(workspace, 'out'), names, { ...rules, overwrite: true }),
    ).resolves.toEqual(new Map());
  });

  it('overwrites its own earlier archive', async () => {
    const out = path.join(workspace, 'out');
    await write(path.join(out, 'docs.example.com.tar.gz'), '0123456789');
    const manifest = buildManifest({
      domain: 'docs.example.com',
      jobId: 'se_1',
      exportedAt: new Date(),
      archive: {
        file: 'docs.example.com.tar.gz',
        format: 'tar.gz',
        sha256: 'c'.repeat(64),
        sizeBytes: 10,
      },
    });
    await writeAfter(
      path.join(out, archiveManifestName('docs.example.com.tar.gz')),
      serializeManifest(manifest),
      path.join(out, 'docs.example.com.tar.gz'),
    );
    // Untouched since its manifest was written: known by its size, never read (the
    // SHA-256 its manifest records is not its own).
    await expect(inspectArchiveTarget(out, names, rules)).resolves.toEqual(
      new Map([['docs.example.com.tar.gz', { sha256: 'c'.repeat(64), sizeBytes: 10 }]]),
    );
    // The same name with other bytes than the manifest describes is not ours any more.
    await write(path.join(out, 'docs.example.com.tar.gz'), 'replaced by hand');
    await expect(inspectArchiveTarget(out, names, rules)).rejects.toThrow(
      /docs\.example\.com\.tar\.gz, which is not the archive its export manifest/,
    );
  });

  it('never overwrites its archive edited since to bytes of the same size', async () => {
    const out = path.join(workspace, 'out');
    await keptArchive(out, 'the export', { archive: 'the export' });
    await expect(inspectArchiveTarget(out, names, rules)).resolves.toEqual(
      new Map([['docs.example.com.tar.gz', archiveBytes('the export')]]),
    );
    // Written since (a copy restored by a cache): read, and still ours by its bytes.
    const manifestTime = (
      await fs.stat(path.join(out, archiveManifestName('docs.example.com.tar.gz')))
    ).mtime;
    await fs.utimes(path.join(out, 'docs.example.com.tar.gz'), manifestTime, manifestTime);
    await expect(inspectArchiveTarget(out, names, rules)).resolves.toEqual(
      new Map([['docs.example.com.tar.gz', archiveBytes('the export')]]),
    );
    // Edited in place, as long as it was: not ours any more.
    await write(path.join(out, 'docs.example.com.tar.gz'), 'THE EXPORT');
    await expect(inspectArchiveTarget(out, names, rules)).rejects.toThrow(
      /already holds docs\.example\.com\.tar\.gz, which is not the archive its export manifest \(docs\.example\.com\.tar\.gz\.static-export\.json\) describes \(changed or replaced since this action wrote it\): refusing to overwrite it/,
    );
    expect(await fs.readFile(path.join(out, 'docs.example.com.tar.gz'), 'utf8')).toBe('THE EXPORT');
  });

  /** An archive of `bytes` in `out`, with a manifest that describes `manifest`. */
  async function keptArchive(
    out: string,
    bytes: string,
    manifest: { archive: string; replacing?: string },
  ): Promise<void> {
    const name = 'docs.example.com.tar.gz';
    await write(path.join(out, name), bytes);
    const written = buildManifest({
      domain: 'docs.example.com',
      jobId: 'se_2',
      exportedAt: new Date(),
      archive: { file: name, format: 'tar.gz', ...archiveBytes(manifest.archive) },
      ...(manifest.replacing === undefined ? {} : { replacing: archiveBytes(manifest.replacing) }),
    });
    await writeAfter(
      path.join(out, archiveManifestName(name)),
      serializeManifest(written),
      path.join(out, name),
    );
  }

  /**
   * Writes `file` once `earlier` is older than it in both times, as a run writes the
   * manifest after the archive: file times tick by milliseconds, and the same tick would
   * read as the archive written since.
   */
  async function writeAfter(file: string, content: string, earlier: string): Promise<void> {
    const { ctimeMs, mtimeMs } = await fs.stat(earlier);
    for (;;) {
      await write(file, content);
      if ((await fs.stat(file)).mtimeMs > Math.max(ctimeMs, mtimeMs)) return;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
  const archiveBytes = (bytes: string) => ({
    sha256: createHash('sha256').update(bytes).digest('hex'),
    sizeBytes: Buffer.byteLength(bytes),
  });

  it('overwrites its earlier archive that a run killed before renaming the new one over it left', async () => {
    const out = path.join(workspace, 'out');
    // The manifest is written first and names the archive it replaces.
    await keptArchive(out, 'the earlier export', {
      archive: 'the new export, longer',
      replacing: 'the earlier export',
    });
    await expect(inspectArchiveTarget(out, names, rules)).resolves.toEqual(
      new Map([['docs.example.com.tar.gz', archiveBytes('the earlier export')]]),
    );
    // Renamed over it: the new one is recognised as before.
    await keptArchive(out, 'the new export, longer', {
      archive: 'the new export, longer',
      replacing: 'the earlier export',
    });
    await expect(inspectArchiveTarget(out, names, rules)).resolves.toEqual(
      new Map([['docs.example.com.tar.gz', archiveBytes('the new export, longer')]]),
    );
  });

  it('tells the two archives of the same size apart by their bytes', async () => {
    const out = path.join(workspace, 'out');
    const manifest = { archive: 'the new export', replacing: 'an old export!' };
    for (const bytes of [manifest.archive, manifest.replacing]) {
      await keptArchive(out, bytes, manifest);
      await expect(inspectArchiveTarget(out, names, rules)).resolves.toEqual(
        new Map([['docs.example.com.tar.gz', archiveBytes(bytes)]]),
      );
    }
    await keptArchive(out, 'edited by hand', manifest);
    await expect(inspectArchiveTarget(out, names, rules)).rejects.toThrow(
      /already holds docs\.example\.com\.tar\.gz, which is not the archive its export manifest \(docs\.example\.com\.tar\.gz\.static-export\.json\) describes \(changed or replaced since this action wrote it\): refusing to overwrite it/,
    );
  });

  it.each([
    ['of the same size as the one it replaces', 'the earlier export', 'the EARLIER export'],
    ['of another size', 'the earlier export', "the user's archive"],
  ])(
    'never overwrites an archive a user put in place of the one its manifest replaces, %s',
    async (_, earlier, user) => {
      const out = path.join(workspace, 'out');
      await keptArchive(out, user, { archive: 'the new export, longer', replacing: earlier });
      await expect(inspectArchiveTarget(out, names, rules)).rejects.toThrow(
        /already holds docs\.example\.com\.tar\.gz, which is not the archive its export manifest \(docs\.example\.com\.tar\.gz\.static-export\.json\) describes \(changed or replaced since this action wrote it\): refusing to overwrite it/,
      );
      expect(await fs.readFile(path.join(out, 'docs.example.com.tar.gz'), 'utf8')).toBe(user);
    },
  );

  it('stops reading an archive written since its manifest when the run is cancelled', async () => {
    const out = path.join(workspace, 'out');
    const sizeBytes = 512 * 1024 * 1024;
    await write(
      path.join(out, archiveManifestName('docs.example.com.tar.gz')),
      serializeManifest(
        buildManifest({
          domain: 'docs.example.com',
          jobId: 'se_3',
          exportedAt: new Date(),
          archive: {
            file: 'docs.example.com.tar.gz',
            format: 'tar.gz',
            sha256: 'c'.repeat(64),
            sizeBytes,
          },
        }),
      ),
    );
    // Written since, of the size it describes, and large (sparse: read at memory speed):
    // it must be read to be known.
    await write(path.join(out, 'docs.example.com.tar.gz'), '');
    await fs.truncate(path.join(out, 'docs.example.com.tar.gz'), sizeBytes);
    const cancelled = new CancelledError('Cancelled (SIGTERM).', 'SIGTERM');
    const controller = new AbortController();
    controller.abort(cancelled);
    await expect(
      inspectArchiveTarget(out, names, rules, undefined, controller.signal),
    ).rejects.toBe(cancelled);
  });

  it('says an archive written since its manifest could not be read, rather than changed (root only: runs as nobody)', async (context) => {
    const shared = await sharedWithNobody(context);
    const out = path.join(shared, 'out');
    await keptArchive(out, 'the export', { archive: 'the export' });
    const archive = path.join(out, 'docs.example.com.tar.gz');
    await fs.utimes(archive, new Date(), new Date());
    await fs.chmod(shared, 0o777);
    await fs.chmod(out, 0o777);
    await fs.chmod(archive, 0o200);
    const message = asNobody(
      `import { inspectArchiveTarget } from ${JSON.stringify(path.resolve('src/deliver/target.ts'))};
      const rules = { platform: process.platform, workspace: ${JSON.stringify(shared)}, runnerDirs: [], overwrite: false };
      await inspectArchiveTarget(${JSON.stringify(out)}, ${JSON.stringify(names)}, rules).then(() => console.log('accepted'), (err) => console.log(err.message));`,
      shared,
    );
    expect(message).toBe(
      `${out} already holds docs.example.com.tar.gz, which could not be read (EACCES) to check it is the archive its export manifest (docs.example.com.tar.gz.static-export.json) describes: refusing to overwrite it. Make it readable for the runner, move it away, choose another \`path\`, or set overwrite to true.`,
    );
  });

  it('refuses to write into the home directory itself', async () => {
    await expect(inspectArchiveTarget(rules.home as string, names, rules)).rejects.toThrow(
      /is not written into: it contains the workspace/,
    );
  });
});

describe('recoverInterruptedRuns', () => {
  /** A process id that has ended: a child that already exited. */
  function deadPid(): number {
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    return Number(child.stdout.toString());
  }

  it('removes staging left by a killed run and keeps staging of live ones', async () => {
    const site = path.join(workspace, 'site');
    await writeEarlierExport(site, { 'index.html': 'live' });
    const dead = path.join(workspace, `.site.partial-${deadPid()}-0a0b0c0d`);
    // The parent (the test runner) is a live process other than this one.
    const live = path.join(workspace, `.site.partial-${process.ppid}-01020304`);
    const other = path.join(workspace, `.other.partial-${deadPid()}-01020304`);
    for (const dir of [dead, live, other]) await write(path.join(dir, 'half.html'));
    const { done, warnings } = await recoverInterruptedRuns(workspace, ['site']);
    expect(warnings).toEqual([]);
    expect(done).toEqual([
      expect.stringMatching(/^Removed \.site\.partial-\d+-0a0b0c0d, left by an interrupted run\.$/),
    ]);
    expect((await fs.readdir(workspace)).sort()).toEqual(
      [path.basename(live), path.basename(other), 'site'].sort(),
    );
  });

  it('removes what a run left once its process id is another process (a reboot, an id reused), and keeps a live one', async (context) => {
    // Another run, live: the id and the tag of the start it names its files with.
    const { child, line: named } = await startChildScript(
      `import { ownNamePart } from ${srcModule('deliver/process-identity.ts')};
       console.log(ownNamePart()); setInterval(() => {}, 60_000);`,
    );
    try {
      const [pid, tag] = named.split('-');
      if (tag === undefined) context.skip('no /proc here: runs are known by their id alone');
      // The same id with another start: a process that is not the run that wrote it.
      const reused = `${pid}-${tag === '00000000' ? '11111111' : '00000000'}`;
      const running = [`.site.partial-${named}-01020304`, `.site.partial-${pid}-02030405`];
      const ended = [`.site.partial-${reused}-0a0b0c0d`, `.site.previous-${reused}-0a0b0c0e`];
      for (const name of [...running, ...ended]) await write(path.join(workspace, name, 'a.html'));
      const temp = path.join(root, 'home', 'runner', 'work', '_temp');
      const downloads = [
        `static-export-${named}-0a0b0c0d0e0f.download`,
        `static-export-${reused}-0a0b0c0d0e0f.download`,
      ];
      for (const name of downloads) await write(path.join(temp, name));

      const { done, warnings } = await recoverInterruptedRuns(workspace, ['site']);
      await removeStaleTemporaryFiles(temp);
      expect(warnings).toEqual([]);
      expect(done.sort()).toEqual([
        `Put back the earlier export that an interrupted run had moved to ${ended[1]}.`,
        `Removed ${ended[0]}, left by an interrupted run.`,
      ]);
      expect((await fs.readdir(workspace)).sort()).toEqual([...running, 'site'].sort());
      expect(await fs.readdir(temp)).toEqual([downloads[0]]);
    } finally {
      await endChild(child);
    }
  });

  it('puts back an earlier export that a run killed mid-swap had moved aside', async () => {
    const site = path.join(workspace, 'site');
    const aside = path.join(workspace, `.site.previous-${deadPid()}-0a0b0c0d`);
    await writeEarlierExport(aside, { 'index.html': 'the earlier export' });
    expect(await recoverInterruptedRuns(workspace, ['site'])).toEqual({
      done: [expect.stringMatching(/^Put back the earlier export/)],
      warnings: [],
    });
    expect(await fs.readFile(path.join(site, 'index.html'), 'utf8')).toBe('the earlier export');
    expect(await fs.readdir(workspace)).toEqual(['site']);

    // A name with a line break in it is recognised too.
    await fs.rm(site, { recursive: true });
    const odd = path.join(workspace, `.site\nv2.previous-${deadPid()}-0a0b0c0d`);
    await writeEarlierExport(odd, { 'index.html': 'the earlier export' });
    await recoverInterruptedRuns(workspace, ['site\nv2']);
    expect(await fs.readdir(workspace)).toEqual(['site\nv2']);
  });

  it('never takes a directory of the user named like a leftover for one (a dated backup)', async () => {
    const site = path.join(workspace, 'site');
    await writeEarlierExport(site, { 'index.html': 'live' });
    const pid = deadPid();
    const mine = [
      '.site.previous-2024-12',
      `.site.partial-${pid}-beef`,
      `.site.previous-${pid}-0a0b0c0d0e`,
      `.site.removed-${pid}-0A0B0C0D`,
    ];
    for (const name of mine) await write(path.join(workspace, name, 'NOTES.md'));
    expect(await recoverInterruptedRuns(workspace, ['site'])).toEqual({ done: [], warnings: [] });
    expect((await fs.readdir(workspace)).sort()).toEqual([...mine, 'site'].sort());
    // Nor is one put back in the place of a path that is not there.
    await fs.rm(site, { recursive: true });
    expect(await recoverInterruptedRuns(workspace, ['site'])).toEqual({ done: [], warnings: [] });
    expect((await fs.readdir(workspace)).sort()).toEqual([...mine].sort());
  });

  it('recovers what an earlier run with the same process id left (a container: same pid every run)', async () => {
    const site = path.join(workspace, 'site');
    const aside = path.join(workspace, `.site.previous-${process.pid}-0a0b0c0d`);
    const staging = path.join(workspace, `.site.partial-${process.pid}-01020304`);
    // Named with the tag of another start: an earlier process with this id.
    const tagged = path.join(workspace, `.site.partial-${process.pid}-00000000-01020304`);
    await writeEarlierExport(aside, { 'index.html': 'the earlier export' });
    await write(path.join(staging, 'half.html'));
    await write(path.join(tagged, 'half.html'));
    const { done, warnings } = await recoverInterruptedRuns(workspace, ['site']);
    expect(warnings).toEqual([]);
    expect(done).toHaveLength(3);
    expect(await fs.readFile(path.join(site, 'index.html'), 'utf8')).toBe('the earlier export');
    expect(await fs.readdir(workspace)).toEqual(['site']);
  });

  it('warns about a leftover it cannot remove (read-only), and never fails the run', async () => {
    const site = path.join(workspace, 'site');
    await writeEarlierExport(site, { 'index.html': 'the new export' });
    const aside = path.join(workspace, `.site.previous-${deadPid()}-0a0b0c0d`);
    await writeEarlierExport(aside, { 'index.html': 'made read-only by its owner' });
    // Renamed before it is removed, so that it is never put back as a mid-swap leftover.
    let left = '';
    const rm = denyRemoving((file) => {
      if (path.basename(file).startsWith('.site.removed-')) left = file;
      return left === file;
    });
    try {
      const { done, warnings } = await recoverInterruptedRuns(workspace, ['site']);
      expect(done).toEqual([]);
      expect(warnings).toEqual([
        `Could not remove ${left}, left by an earlier run (EACCES: permission denied, rmdir '${left}'): remove it by hand; this run goes on without it.`,
      ]);
    } finally {
      rm.mockRestore();
    }
    expect((await fs.readdir(workspace)).sort()).toEqual([path.basename(left), 'site'].sort());
  });
});

/**
 * Makes removing the paths that `denied` picks fail as a read-only tree does for its
 * non-root owner (the tests run as root, for whom permissions never fail).
 */
function denyRemoving(denied: (file: string) => boolean) {
  const rm = fs.rm.bind(fs);
  return vi.spyOn(fs, 'rm').mockImplementation(async (file, options) => {
    const at = String(file);
    if (!denied(at)) return rm(file, options);
    throw Object.assign(new Error(`EACCES: permission denied, rmdir '${at}'`), {
      code: 'EACCES',
      path: at,
    });
  });
}

describe('replaceDirectory', () => {
  /** A process id that has ended: a child that already exited. */
  function deadPid(): number {
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    return Number(child.stdout.toString());
  }

  it('puts the new tree in place and warns, without failing, when the earlier one cannot be removed', async () => {
    const site = path.join(workspace, 'site');
    await writeEarlierExport(site, { 'index.html': 'old' });
    const staging = path.join(workspace, '.site.partial-1-00000000');
    await write(path.join(staging, 'index.html'), 'new');
    let aside = '';
    const spy = denyRemoving((file) => {
      if (path.basename(file).startsWith('.site.removed-')) aside = file;
      return aside === file;
    });
    try {
      const result = await replaceDirectory(staging, site);
      expect(result).toEqual({
        replaced: true,
        leftBehind: `The earlier export could not be removed after the new one was put in place, and is left in ${aside} (EACCES: permission denied, rmdir '${aside}'): remove it by hand, after making it writable.`,
      });
    } finally {
      spy.mockRestore();
    }
    expect(await fs.readFile(path.join(site, 'index.html'), 'utf8')).toBe('new');
    expect(await fs.readFile(path.join(aside, 'index.html'), 'utf8')).toBe('old');
  });

  it('leaves an earlier tree with a mount inside it, its data untouched, and says to unmount it (root only)', async (context) => {
    const site = path.join(workspace, 'site');
    await write(path.join(site, 'data', 'placeholder'), '');
    const shared = path.join(root, 'shared');
    await write(path.join(shared, 'precious.txt'), 'precious');
    mountOrSkip(context, ['--bind', shared, path.join(site, 'data')]);
    const staging = path.join(workspace, '.site.partial-1-00000000');
    await write(path.join(staging, 'index.html'), 'new');
    let left: string | undefined;
    try {
      const result = await replaceDirectory(staging, site);
      left = result.leftBehind?.match(/is left in (\S+) /)?.[1];
      expect(result.leftBehind).toMatch(
        /\(something is mounted inside it, at data\): remove it by hand, after unmounting what is mounted inside it \(its data is not touched\)\.$/,
      );
      expect(await fs.readFile(path.join(shared, 'precious.txt'), 'utf8')).toBe('precious');
      // A later run does not remove it either while the mount is there.
      const recovery = await recoverInterruptedRuns(workspace, ['site']);
      expect(recovery.warnings).toEqual([
        expect.stringMatching(/^Could not remove .*\(something is mounted inside it, at data\)/),
      ]);
      expect(await fs.readFile(path.join(shared, 'precious.txt'), 'utf8')).toBe('precious');
    } finally {
      if (left) spawnSync('umount', [path.join(left, 'data')]);
      spawnSync('umount', [path.join(site, 'data')]);
    }
    expect(await fs.readFile(path.join(site, 'index.html'), 'utf8')).toBe('new');
  });

  it('on exit, removes what a run registered, but never a tree with a mount inside it, on Node 24 too (root only)', async (context) => {
    const plain = path.join(workspace, '.site.removed-1-00000001');
    const mounted = path.join(workspace, '.site.removed-1-00000002');
    await write(path.join(plain, 'index.html'), 'old');
    await write(path.join(mounted, 'data', 'placeholder'), '');
    const shared = path.join(root, 'shared');
    await write(path.join(shared, 'precious.txt'), 'precious');
    mountOrSkip(context, ['--bind', shared, path.join(mounted, 'data')]);
    try {
      // Node 24's recursive rmSync deletes what a mount inside the tree holds.
      const script = `import { trackTemporary } from ${JSON.stringify(path.join(ROOT, 'src', 'deliver', 'place.ts'))};
        trackTemporary(${JSON.stringify(plain)}); trackTemporary(${JSON.stringify(mounted)}); process.exit(1);`;
      const child = spawnSync(NODE24, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      expect(child.status, child.stderr).toBe(1);
      expect(await fs.readFile(path.join(shared, 'precious.txt'), 'utf8')).toBe('precious');
      expect((await fs.readdir(workspace)).sort()).toEqual([path.basename(mounted)]);
    } finally {
      spawnSync('umount', [path.join(mounted, 'data')]);
    }
  });

  it('says so plainly when another run puts a site at path during the swap, and keeps that one', async () => {
    const site = path.join(workspace, 'site');
    await writeEarlierExport(site, { 'index.html': 'old' });
    const staging = path.join(workspace, '.site.partial-1-00000000');
    await write(path.join(staging, 'index.html'), 'ours');
    const rename = fs.rename.bind(fs);
    const spy = vi.spyOn(fs, 'rename').mockImplementation(async (from, to) => {
      // The other run renames its site into place just before this one does.
      if (String(from) === staging) await write(path.join(site, 'index.html'), 'the other run');
      return rename(from, to);
    });
    try {
      await expect(replaceDirectory(staging, site)).rejects.toThrow(
        `The new site could not be put in place at ${site} (ENOTEMPTY: directory not empty, rename '${staging}' -> '${site}'), nor the earlier export put back: something else wrote ${site} meanwhile, such as another run into the same path (runs into one path must not overlap). ${site} holds what was written there; this run's site was discarded.`,
      );
    } finally {
      spy.mockRestore();
    }
    expect(await fs.readFile(path.join(site, 'index.html'), 'utf8')).toBe('the other run');
  });

  it('never has a tree it could not remove put back in place of an export moved aside mid-swap', async () => {
    const site = path.join(workspace, 'site');
    await writeEarlierExport(site, { 'index.html': 'oldest', 'gone.html': 'half removed' });
    const staging = path.join(workspace, '.site.partial-1-00000000');
    await writeEarlierExport(staging, { 'index.html': 'the complete export' });
    const rm = fs.rm.bind(fs);
    // Removes a file of the earlier tree, then fails: a tree partly removed.
    const spy = vi.spyOn(fs, 'rm').mockImplementation(async (file, options) => {
      const at = String(file);
      if (!/^\.site\.(previous|removed)-/.test(path.basename(at))) return rm(file, options);
      await rm(path.join(at, 'gone.html'), { force: true });
      throw Object.assign(new Error(`EACCES: permission denied, rmdir '${at}'`), {
        code: 'EACCES',
      });
    });
    try {
      expect((await replaceDirectory(staging, site)).leftBehind).toBeDefined();
      // A later run, killed mid-swap, had moved the complete export aside.
      await fs.rename(site, path.join(workspace, `.site.previous-${deadPid()}-0a0b0c0d`));
      await recoverInterruptedRuns(workspace, ['site']);
    } finally {
      spy.mockRestore();
    }
    expect(await fs.readFile(path.join(site, 'index.html'), 'utf8')).toBe('the complete export');

    // Without that export: the half-removed tree stays where it is, never becomes path.
    await fs.rm(site, { recursive: true });
    await recoverInterruptedRuns(workspace, ['site']);
    expect(await fs.readdir(workspace)).toEqual([]);
  });
});

import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildManifest, MANIFEST_NAME, serializeManifest } from '../../src/deliver/manifest.js';
import { recoverInterruptedRuns } from '../../src/deliver/place.js';
import {
  archiveManifestName,
  inspectArchiveTarget,
  inspectTarget,
  type TargetRules,
} from '../../src/deliver/target.js';
import { treeDigest } from '../support/action.js';
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

async function write(file: string, content = 'user data'): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
}

describe('inspectTarget', () => {
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
});

describe('inspectArchiveTarget (extract: false)', () => {
  const names = ['docs.example.com.tar.gz', 'docs.example.com.zip'];

  it('writes into the workspace itself and beside other files', async () => {
    await write(path.join(workspace, 'README.md'));
    await expect(inspectArchiveTarget(workspace, names, rules)).resolves.toBeUndefined();
  });

  it('never overwrites an archive it did not write, unless asked', async () => {
    await write(path.join(workspace, 'out', 'docs.example.com.zip'), 'my own zip');
    await expect(inspectArchiveTarget(path.join(workspace, 'out'), names, rules)).rejects.toThrow(
      /already holds docs\.example\.com\.zip, and no export manifest \(docs\.example\.com\.zip\.static-export\.json\) says this action wrote it/,
    );
    await expect(
      inspectArchiveTarget(path.join(workspace, 'out'), names, { ...rules, overwrite: true }),
    ).resolves.toBeUndefined();
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
    await write(
      path.join(out, archiveManifestName('docs.example.com.tar.gz')),
      serializeManifest(manifest),
    );
    await expect(inspectArchiveTarget(out, names, rules)).resolves.toBeUndefined();
    // The same name with other bytes than the manifest describes is not ours any more.
    await write(path.join(out, 'docs.example.com.tar.gz'), 'replaced by hand');
    await expect(inspectArchiveTarget(out, names, rules)).rejects.toThrow(
      /says this action wrote it/,
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
    const live = path.join(workspace, `.site.partial-${process.pid}-01020304`);
    const other = path.join(workspace, `.other.partial-${deadPid()}-01020304`);
    for (const dir of [dead, live, other]) await write(path.join(dir, 'half.html'));
    const done = await recoverInterruptedRuns(site);
    expect(done).toEqual([
      expect.stringMatching(/^Removed \.site\.partial-\d+-0a0b0c0d, left by an interrupted run\.$/),
    ]);
    expect((await fs.readdir(workspace)).sort()).toEqual(
      [path.basename(live), path.basename(other), 'site'].sort(),
    );
  });

  it('puts back an earlier export that a run killed mid-swap had moved aside', async () => {
    const site = path.join(workspace, 'site');
    const aside = path.join(workspace, `.site.previous-${deadPid()}-0a0b0c0d`);
    await writeEarlierExport(aside, { 'index.html': 'the earlier export' });
    expect(await recoverInterruptedRuns(site)).toEqual([
      expect.stringMatching(/^Put back the earlier export/),
    ]);
    expect(await fs.readFile(path.join(site, 'index.html'), 'utf8')).toBe('the earlier export');
    expect(await fs.readdir(workspace)).toEqual(['site']);
  });
});

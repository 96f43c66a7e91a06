import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MANIFEST_NAME, readManifest, writtenIn } from '../../src/deliver/manifest.js';
import { identityOf } from '../../src/deliver/protected.js';
import { InputError } from '../../src/errors.js';
import {
  type CaseRun,
  type Harness,
  listTree,
  sha256File,
  startHarness,
  treeDigest,
} from '../support/in-process.js';
import { SITE, tarOf } from '../support/archives.js';
import { writeEarlierExport } from '../support/earlier-export.js';

/**
 * What `path` may replace, end to end through the core against the emulator, on real
 * directories of a fake machine in a temp dir: the user's data survives byte for byte,
 * a refusal costs no request, an earlier export is replaced whole.
 */

let harness: Harness;
let machine: string;
let workspace: string;
let runnerTemp: string;
let home: string;
/** The archive the next export serves; the emulator's generated site when undefined. */
let serving: Buffer | undefined;

beforeAll(async () => {
  harness = await startHarness({ jobDurationMs: 3000, queuedMs: 100, archiveFor: () => serving });
});
afterAll(async () => {
  await harness.stop();
});
beforeEach(async () => {
  machine = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'path-safety-')));
  home = path.join(machine, 'home', 'runner');
  workspace = path.join(home, 'work', 'docs', 'docs');
  runnerTemp = path.join(home, 'work', '_temp');
  await fs.mkdir(workspace, { recursive: true });
  await fs.mkdir(runnerTemp, { recursive: true });
  harness.emulator.requests.length = 0;
  serving = undefined;
  return () => fs.rm(machine, { recursive: true, force: true });
});

interface Run extends CaseRun {
  error: unknown;
  warnings: string[];
  ms: number;
}

/** A run on the fake machine: its workspace, home and runner temp directory. */
async function run(inputs: Record<string, string>): Promise<Run> {
  const started = performance.now();
  const result = await harness.run(
    { domain: 'docs.example.com', ...inputs },
    { workspace, tempDir: runnerTemp, home, runnerDirs: [runnerTemp] },
  );
  const warnings = result.stdout
    .split('\n')
    .filter((line) => line.startsWith('::warning::'))
    .map((line) => line.slice('::warning::'.length));
  return { ...result, error: result.outcome.error, warnings, ms: performance.now() - started };
}

const apiRequests = () => harness.emulator.requests.filter((r) => r.server === 'api');

async function userDirectory(dir: string): Promise<Record<string, string>> {
  await fs.mkdir(path.join(dir, 'guides'), { recursive: true });
  await fs.writeFile(path.join(dir, 'NOTES.md'), '# my notes\n');
  await fs.writeFile(path.join(dir, 'guides', 'intro.mdx'), 'Intro, hand-written.\n');
  return treeDigest(dir);
}

describe('path safety, end to end', () => {
  it("refuses a directory of the user's in well under a second, before any request", async () => {
    const docs = path.join(workspace, 'docs');
    const before = await userDirectory(docs);
    const result = await run({ path: 'docs' });
    expect(result.error).toBeInstanceOf(InputError);
    expect((result.error as InputError).problems).toEqual([
      {
        input: 'path',
        message: expect.stringMatching(
          /^"docs" \(.*\/docs\) holds 2 files \(NOTES\.md, guides\/intro\.mdx\) and no export manifest .* set overwrite to true/,
        ),
      },
    ]);
    expect(result.ms).toBeLessThan(1000);
    expect(apiRequests()).toEqual([]);
    expect(await treeDigest(docs)).toEqual(before);
    expect(await fs.readdir(workspace)).toEqual(['docs']);
  });

  it("leaves a directory of the user's outside the workspace untouched, byte for byte", async () => {
    const outside = path.join(machine, 'srv', 'docs');
    const before = await userDirectory(outside);
    const result = await run({ path: outside });
    expect((result.error as InputError).problems[0]?.message).toMatch(/holds 2 files/);
    expect(apiRequests()).toEqual([]);
    expect(await treeDigest(outside)).toEqual(before);
  });

  it.each([
    ['the workspace itself', '.'],
    ['a parent of the workspace', '..'],
    ['the home directory', '~'],
    ["the runner's temp directory", '../../_temp'],
  ])('refuses %s even with overwrite, before any request', async (_, given) => {
    await fs.writeFile(path.join(workspace, 'README.md'), 'the checkout');
    const result = await run({ path: given, overwrite: 'true' });
    expect((result.error as InputError).problems[0]?.message).toMatch(/is never replaced: it /);
    expect(apiRequests()).toEqual([]);
    expect(await fs.readFile(path.join(workspace, 'README.md'), 'utf8')).toBe('the checkout');
  });

  it('exports into a new directory with a manifest that describes every file, and no secret', async () => {
    const result = await run({ path: 'site' });
    expect(result.error).toBeUndefined();
    const site = path.join(workspace, 'site');
    const read = await readManifest(path.join(site, MANIFEST_NAME));
    expect(read.kind).toBe('valid');
    const manifest = read.kind === 'valid' ? read.manifest : undefined;
    expect(manifest).toMatchObject({
      domain: 'docs.example.com',
      jobId: result.outputs['job-id'],
      archive: {
        format: 'tar.gz',
        sha256: result.outputs.sha256,
        sizeBytes: Number(result.outputs['size-bytes']),
      },
    });
    // Every file, with the hash of what is on disk: the extraction pass computed them.
    const digest = await treeDigest(site);
    expect(Object.fromEntries(manifest?.files.map((f) => [f.path, f.sha256]) ?? [])).toEqual(
      digest,
    );
    // The directory it was written in, which a copy of the manifest elsewhere is not.
    expect(manifest && writtenIn(manifest)).toEqual(await identityOf(site));
    const text = await fs.readFile(path.join(site, MANIFEST_NAME), 'utf8');
    expect(text).not.toContain(harness.emulator.keys.write);
    expect(text).not.toContain('X-Amz-Signature');
    expect(text).not.toContain(result.outputs['bundle-url']);
    expect(await fs.readdir(runnerTemp)).toEqual([]);
    expect(await fs.readdir(workspace)).toEqual(['site']);
  });

  it('replaces an earlier export whole, and says so', async () => {
    const site = path.join(workspace, 'site');
    await writeEarlierExport(site, { 'old-page.html': 'gone after the new export' });
    const result = await run({ path: 'site' });
    expect(result.error).toBeUndefined();
    expect(await listTree(site)).not.toContain('old-page.html');
    expect(result.stdout.split('\n')).toContainEqual(
      expect.stringMatching(
        /^Replaced the earlier export in .*site \(job se_0000000000000001, exported 2026-11-01T00:00:00\.000Z\) with the new one\.$/,
      ),
    );
    expect(result.summary).toMatch(
      /\| Replaced \| the earlier export \(job `se_0000000000000001`\) \|/,
    );
    expect(result.warnings).toEqual([]);
    expect(await fs.readdir(workspace)).toEqual(['site']);
  });

  /** Marks what this process left beside the site as left by an ended one: the next run's view. */
  async function endedRun(): Promise<void> {
    for (const name of await fs.readdir(workspace)) {
      const ended = name.replace(`-${process.pid}-`, '-999999999-');
      if (ended !== name) await fs.rename(path.join(workspace, name), path.join(workspace, ended));
    }
  }

  it('succeeds with a warning when the earlier export is read-only, and so does the next run', async () => {
    const site = path.join(workspace, 'site');
    await writeEarlierExport(site, { 'old-page.html': 'read-only' });
    // A read-only tree fails to be removed for its non-root owner; the tests run as root.
    const rm = fs.rm.bind(fs);
    const denied = vi.spyOn(fs, 'rm').mockImplementation(async (file, options) => {
      if (!path.basename(String(file)).startsWith('.site.removed-')) return rm(file, options);
      throw Object.assign(new Error(`EACCES: permission denied, rmdir '${String(file)}'`), {
        code: 'EACCES',
      });
    });
    try {
      const first = await run({ path: 'site' });
      expect(first.error).toBeUndefined();
      expect(await listTree(site)).toContain('index.html');
      const [left] = (await fs.readdir(workspace)).filter((name) => name !== 'site');
      expect(first.warnings).toEqual([
        `The earlier export could not be removed after the new one was put in place, and is left in ${path.join(workspace, left ?? '?')} (EACCES: permission denied, rmdir '${path.join(workspace, left ?? '?')}'): remove it by hand, after making it writable.`,
      ]);
      await endedRun();
      const second = await run({ path: 'site' });
      expect(second.error).toBeUndefined();
      expect(second.warnings).toEqual([
        expect.stringMatching(/^Could not remove .*\.site\.removed-999999999-.*this run goes on/),
        expect.stringMatching(/^The earlier export could not be removed/),
      ]);
    } finally {
      denied.mockRestore();
    }
    await endedRun();
    const third = await run({ path: 'site' });
    expect(third.warnings).toEqual([]);
    expect(
      third.stdout.match(
        /Removed \.site\.removed-\d+(?:-[0-9a-f]+)+, left by an interrupted run\./g,
      ),
    ).toHaveLength(2);
    expect(await fs.readdir(workspace)).toEqual(['site']);
  });

  it("with overwrite, replaces a directory of the user's and says so in the log and the summary", async () => {
    const docs = path.join(workspace, 'docs');
    await userDirectory(docs);
    const result = await run({ path: 'docs', overwrite: 'true' });
    expect(result.error).toBeUndefined();
    expect(await listTree(docs)).not.toContain('NOTES.md');
    expect(result.warnings).toEqual([
      expect.stringMatching(/^`overwrite: true`: `path` \(.*docs\) holds 2 files/),
      expect.stringMatching(
        /^Replaced .*docs, which this action did not write \(it holds 2 files .*\), because `overwrite` is true\.$/,
      ),
    ]);
    expect(result.summary).toMatch(/\| Replaced \| ⚠️ a directory this action did not write/);
  });

  it('keeps the archive as a file with a manifest beside it, and never overwrites one it did not write', async () => {
    const first = await run({ path: 'out', extract: 'false' });
    expect(first.error).toBeUndefined();
    const archive = path.join(workspace, 'out', 'docs.example.com.tar.gz');
    expect(await sha256File(archive)).toBe(first.outputs.sha256);
    expect((await fs.readdir(path.join(workspace, 'out'))).sort()).toEqual([
      'docs.example.com.tar.gz',
      'docs.example.com.tar.gz.static-export.json',
    ]);
    // Dated after the archive it describes, whatever the file times' tick: the next run
    // knows the archive by its size, without reading it.
    const manifestTime = (await fs.stat(`${archive}.static-export.json`)).mtimeMs;
    const archiveTimes = await fs.stat(archive);
    expect(manifestTime).toBeGreaterThan(Math.max(archiveTimes.mtimeMs, archiveTimes.ctimeMs));
    // Its own earlier archive is replaced by the next run…
    const second = await run({ path: 'out', extract: 'false' });
    expect(second.error).toBeUndefined();
    // …but not an archive of the user's under the same name.
    await fs.writeFile(archive, 'my own archive');
    await fs.rm(`${archive}.static-export.json`);
    const third = await run({ path: 'out', extract: 'false' });
    expect((third.error as InputError).problems[0]?.message).toMatch(
      /already holds docs\.example\.com\.tar\.gz, and no export manifest/,
    );
    expect(await fs.readFile(archive, 'utf8')).toBe('my own archive');
    // Nor a file of the user's at the manifest's name, with no archive there yet.
    await fs.rm(archive);
    const manifestFile = `${archive}.static-export.json`;
    await fs.writeFile(manifestFile, '{"my": "own settings"}\n');
    const fourth = await run({ path: 'out', extract: 'false' });
    expect((fourth.error as InputError).problems[0]?.message).toMatch(
      /already holds docs\.example\.com\.tar\.gz\.static-export\.json, which is not the export manifest this action writes beside docs\.example\.com\.tar\.gz: refusing to overwrite it/,
    );
    expect(await fs.readFile(manifestFile, 'utf8')).toBe('{"my": "own settings"}\n');
    await expect(fs.access(archive)).rejects.toThrow();
    // With overwrite, the user asked for it.
    expect((await run({ path: 'out', extract: 'false', overwrite: 'true' })).error).toBeUndefined();
  });

  it('says why a path cannot be made or written into, before any request', async () => {
    await fs.mkdir(path.join(machine, 'outside'));
    await fs.symlink('../../../../../outside/gone', path.join(workspace, 'dl'));
    await fs.writeFile(path.join(workspace, 'README.md'), '# readme\n');
    await fs.mkdir(path.join(workspace, 'real-out'));
    await fs.symlink('real-out', path.join(workspace, 'out'));
    const cases = [
      [{ path: 'dl/site' }, /dl is a symbolic link to \.\.\/.*outside\/gone, which does not exist/],
      [{ path: 'README.md/site' }, /README\.md is a file, not a directory/],
      [
        { path: 'out', extract: 'false' },
        /"out" \(.*\) is a symbolic link \(to real-out\): give the directory itself/,
      ],
    ] as const;
    for (const [inputs, message] of cases) {
      harness.emulator.requests.length = 0;
      const result = await run(inputs);
      expect((result.error as InputError).problems?.[0]?.message, inputs.path).toMatch(message);
      expect(harness.emulator.requests).toEqual([]);
    }
    expect(await fs.readdir(path.join(machine, 'outside'))).toEqual([]);
  });

  it('with extract false, a run killed at any point while placing the archive leaves path to the next run', async () => {
    const out = path.join(workspace, 'out');
    const archive = path.join(out, 'docs.example.com.tar');
    const manifestFile = `${archive}.static-export.json`;
    // Each run gets an archive of its own size: its size is what tells the archives apart.
    let release = 0;
    const nextRelease = async () => {
      release += 1;
      serving = await tarOf(
        [...SITE, { name: 'release.txt', content: 'r\n'.repeat(600 * release) }],
        false,
      );
    };
    await nextRelease();
    expect((await run({ path: 'out', extract: 'false' })).error).toBeUndefined();
    const rename = fs.rename.bind(fs);
    // The run ends after `survived` of its renames into path: what SIGKILL leaves there,
    // since what a killed run leaves beside them is removed by the next one.
    let survived = 0;
    for (; ; survived++) {
      let placed = 0;
      const killed = vi.spyOn(fs, 'rename').mockImplementation(async (from, to) => {
        if (to === archive || to === manifestFile) {
          if (placed === survived) throw new Error('killed');
          placed += 1;
        }
        return rename(from, to);
      });
      let interrupted: Run;
      try {
        await nextRelease();
        interrupted = await run({ path: 'out', extract: 'false' });
      } finally {
        killed.mockRestore();
      }
      await nextRelease();
      const next = await run({ path: 'out', extract: 'false' });
      expect(next.error, `after ${survived} renames`).toBeUndefined();
      expect(await sha256File(archive)).toBe(next.outputs.sha256);
      const read = await readManifest(manifestFile);
      expect(read.kind === 'valid' && read.manifest.archive).toEqual({
        file: 'docs.example.com.tar',
        format: 'tar',
        sha256: next.outputs.sha256,
        sizeBytes: Number(next.outputs['size-bytes']),
      });
      expect(read.kind === 'valid' && read.manifest.replacing).toBeUndefined();
      expect((await fs.readdir(out)).sort()).toEqual([
        'docs.example.com.tar',
        'docs.example.com.tar.static-export.json',
      ]);
      if (interrupted.error === undefined) break;
    }
    // Killed before the manifest, after it, after the archive; then not at all.
    expect(survived).toBe(3);
  });

  it('with extract false, an archive that cannot be put in place leaves path as it was', async () => {
    const out = path.join(workspace, 'out');
    const archive = path.join(out, 'docs.example.com.tar');
    const manifestFile = `${archive}.static-export.json`;
    serving = await tarOf(SITE, false);
    expect((await run({ path: 'out', extract: 'false' })).error).toBeUndefined();
    await fs.chmod(manifestFile, 0o600);
    // And a manifest that is a link to a file of the user's, which `overwrite` allows.
    const linked = path.join(workspace, 'linked');
    await fs.mkdir(linked);
    await fs.writeFile(path.join(workspace, 'notes.json'), Buffer.from([0xff, 0xfe, 0x41]));
    await fs.writeFile(path.join(linked, 'docs.example.com.tar'), 'their archive');
    await fs.symlink('../notes.json', path.join(linked, 'docs.example.com.tar.static-export.json'));
    const snapshot = async (dir: string) => {
      const manifest = path.join(dir, 'docs.example.com.tar.static-export.json');
      const stat = await fs.lstat(manifest);
      return {
        archive: await fs.readFile(path.join(dir, 'docs.example.com.tar')),
        manifest: stat.isSymbolicLink() ? await fs.readlink(manifest) : await fs.readFile(manifest),
        mode: stat.isSymbolicLink() ? 'link' : (stat.mode & 0o777).toString(8),
      };
    };
    const before = { out: await snapshot(out), linked: await snapshot(linked) };
    expect(before.out.mode).toBe('600');
    serving = await tarOf([...SITE, { name: 'release.txt', content: 'two\n' }], false);
    const rename = fs.rename.bind(fs);
    const refused = vi.spyOn(fs, 'rename').mockImplementation(async (from, to) => {
      if (String(to).endsWith('docs.example.com.tar'))
        throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      return rename(from, to);
    });
    let failed: Run[];
    try {
      failed = [
        await run({ path: 'out', extract: 'false' }),
        await run({ path: 'linked', extract: 'false', overwrite: 'true' }),
      ];
    } finally {
      refused.mockRestore();
    }
    for (const { error } of failed) expect(String(error)).toMatch(/EACCES|permission/);
    expect({ out: await snapshot(out), linked: await snapshot(linked) }).toEqual(before);
    expect((await fs.readdir(out)).sort()).toEqual([
      'docs.example.com.tar',
      'docs.example.com.tar.static-export.json',
    ]);
  });

  it('with extract false, removes the temporary files a killed run left inside path', async () => {
    const out = path.join(workspace, 'out');
    await fs.mkdir(out);
    // A pid no process has: the run that wrote these is gone.
    const left = [
      '.docs.example.com.tar.gz.partial-4194303-0a0b0c0d',
      '.docs.example.com.tar.gz.static-export.json.partial-4194303-0a0b0c0d',
    ];
    for (const name of left) await fs.writeFile(path.join(out, name), 'half of something');
    const result = await run({ path: 'out', extract: 'false' });
    expect(result.error).toBeUndefined();
    expect((await fs.readdir(out)).sort()).toEqual([
      'docs.example.com.tar.gz',
      'docs.example.com.tar.gz.static-export.json',
    ]);
    for (const name of left)
      expect(result.stdout).toContain(`Removed ${name}, left by an interrupted run.`);
  });

  it.each(['helm-values-file', 'changes-file'])(
    'refuses a %s that names a directory before any request',
    async (input) => {
      await fs.mkdir(path.join(workspace, 'values'));
      const result = await run({ path: 'site', [input]: 'values' });
      expect((result.error as InputError).problems[0]).toMatchObject({
        input,
        message: expect.stringMatching(/exists and is not a regular file: name a file to write/),
      });
      expect(apiRequests()).toEqual([]);
      expect(await fs.readdir(workspace)).toEqual(['values']);
    },
  );

  it.each([
    ['helm-values-file', 'values.yaml', 'replicaCount: 3\n'],
    ['changes-file', 'changes.json', '{"notes": "mine"}'],
  ])(
    'never writes a %s over a file of the user, unless overwrite says so',
    async (input, name, mine) => {
      // An earlier export in path, so that every run below has a change report to write.
      expect((await run({ path: 'site' })).error).toBeUndefined();
      const file = path.join(workspace, name);
      await fs.writeFile(file, mine);
      const sent = apiRequests().length;
      const refused = await run({ path: 'site', [input]: name });
      expect((refused.error as InputError).problems[0]).toMatchObject({
        input,
        message: `${file} exists and was not written by this action: name a new file, such as ${input === 'changes-file' ? 'reports/changes.json' : 'static-export-values.yaml'}, or set overwrite to true to replace it`,
      });
      expect(apiRequests()).toHaveLength(sent);
      expect(await fs.readFile(file, 'utf8')).toBe(mine);
      // An empty file, or one this action wrote, is written again.
      await fs.writeFile(file, '');
      expect((await run({ path: 'site', [input]: name })).error).toBeUndefined();
      const ours = await fs.readFile(file, 'utf8');
      expect(ours).not.toBe('');
      expect((await run({ path: 'site', [input]: name })).error).toBeUndefined();
      // With overwrite, the user's file too.
      await fs.writeFile(file, mine);
      expect((await run({ path: 'site', [input]: name, overwrite: 'true' })).error).toBeUndefined();
      expect(await fs.readFile(file, 'utf8')).not.toBe(mine);
    },
  );

  it.each(['helm-values-file', 'changes-file'])(
    "never writes a %s into the checkout's .git, by its path or through a link, even with overwrite",
    async (input) => {
      await fs.mkdir(path.join(workspace, '.git'));
      await fs.writeFile(path.join(workspace, '.git', 'config'), '[core]\n');
      await fs.symlink('.git', path.join(workspace, 'meta'));
      for (const given of ['.git/config', 'meta/config', '.git/new.yaml']) {
        const result = await run({ path: 'site', [input]: given, overwrite: 'true' });
        expect((result.error as InputError).problems[0], given).toMatchObject({
          input,
          message: expect.stringMatching(/inside the checkout's \.git directory; choose a file/),
        });
      }
      expect(apiRequests()).toEqual([]);
      expect(await fs.readFile(path.join(workspace, '.git', 'config'), 'utf8')).toBe('[core]\n');
      expect(await fs.readdir(path.join(workspace, '.git'))).toEqual(['config']);
    },
  );

  it('expands ~/ to the home directory instead of creating a directory named ~', async () => {
    const result = await run({ path: '~/exported-site' });
    expect(result.error).toBeUndefined();
    expect(result.outputs.path).toBe(path.join(home, 'exported-site'));
    expect(await fs.readdir(path.join(home, 'exported-site'))).toContain('index.html');
    expect(await fs.readdir(workspace)).toEqual([]);
  });
});

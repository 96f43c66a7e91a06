import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildManifest,
  MANIFEST_NAME,
  readManifest,
  serializeManifest,
  writeManifest,
} from '../../src/deliver/manifest.js';
import { VERSION } from '../../src/version.js';
import { listed, siteContents } from '../support/site-contents.js';

const facts = {
  domain: 'docs.example.com',
  jobId: 'se_3f9a2c1b8e7d4a06',
  exportedAt: new Date('2026-11-23T10:00:00Z'),
  pageCount: 2,
  archive: { format: 'tar.gz' as const, sha256: 'a'.repeat(64), sizeBytes: 1234 },
  contents: siteContents(
    [
      { path: 'guides/intro.html', size: 5, sha256: 'b'.repeat(64), executable: false },
      { path: 'index.html', size: 7, sha256: 'c'.repeat(64), executable: false },
      { path: 'tools/run.sh', size: 3, sha256: 'd'.repeat(64), executable: true },
    ],
    [{ path: 'latest', target: 'guides/intro.html' }],
  ),
};

describe('the export manifest', () => {
  it('describes the export: version, job, archive, totals and every file', () => {
    const manifest = listed(buildManifest(facts));
    expect(manifest).toEqual({
      format: 'static-export-manifest',
      version: 1,
      generator: `static-export-action ${VERSION}`,
      domain: 'docs.example.com',
      jobId: 'se_3f9a2c1b8e7d4a06',
      exportedAt: '2026-11-23T10:00:00.000Z',
      pageCount: 2,
      archive: facts.archive,
      totals: { files: 3, bytes: 15 },
      files: [
        { path: 'guides/intro.html', size: 5, sha256: 'b'.repeat(64) },
        { path: 'index.html', size: 7, sha256: 'c'.repeat(64) },
        { path: 'tools/run.sh', size: 3, sha256: 'd'.repeat(64), executable: true },
      ],
      symlinks: [{ path: 'latest', target: 'guides/intro.html' }],
    });
  });

  it('is written one file per line and read back as it was', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'manifest-'));
    try {
      const file = await writeManifest(dir, buildManifest(facts));
      expect(path.basename(file)).toBe(MANIFEST_NAME);
      const text = await fs.readFile(file, 'utf8');
      expect(text.split('\n')).toContain(
        `    {"path":"index.html","size":7,"sha256":"${'c'.repeat(64)}"},`,
      );
      expect(JSON.parse(text)).toEqual(listed(buildManifest(facts)));
      expect(await readManifest(file)).toEqual({
        kind: 'valid',
        manifest: listed(buildManifest(facts)),
      });
      // Never written over: the staging directory is fresh, a second manifest is a bug.
      await expect(writeManifest(dir, buildManifest(facts))).rejects.toThrow(/EEXIST/);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('says a manifest of a later version was written by a newer action; any other version is not a manifest', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'manifest-'));
    try {
      const file = await writeManifest(dir, buildManifest(facts));
      const manifest = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
      const readWith = async (version: unknown, format: unknown = manifest.format) => {
        await fs.writeFile(file, JSON.stringify({ ...manifest, version, format }));
        return readManifest(file);
      };
      expect(await readWith(2)).toEqual({
        kind: 'invalid',
        reason:
          'it was written by a newer version of the action (manifest version 2; this one reads version 1)',
        newer: 2,
      });
      // Only a whole number above ours, in a manifest of our format, is one from a newer action.
      for (const version of [0, -1, 1.5, '2', 1e300, null, [2], { major: 2 }]) {
        const read = await readWith(version);
        expect(read).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/^version /) });
        expect(read).not.toHaveProperty('newer');
      }
      expect(await readWith(2, 'something-else')).not.toHaveProperty('newer');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('reads back a path with a backslash, as the extraction keeps it, but none that \\ leads out of', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'manifest-'));
    const withFile = (file: string) =>
      buildManifest({
        ...facts,
        contents: siteContents(
          [{ path: file, size: 2, sha256: 'b'.repeat(64), executable: false }],
          [],
        ),
      });
    try {
      for (const file of ['back\\slash.html', 'docs/a\\b.html', 'a\\\\b.html']) {
        const written = await writeManifest(dir, withFile(file));
        const read = await readManifest(written);
        expect(read.kind, file).toBe('valid');
        if (read.kind === 'valid') expect(read.manifest.files[0]?.path).toBe(file);
        await fs.rm(written);
      }
      for (const file of ['\\etc\\passwd', 'docs\\..\\..\\x.html', 'docs/..\\x.html']) {
        const written = await writeManifest(dir, withFile(file));
        const read = await readManifest(written);
        expect(read.kind, file).toBe('invalid');
        await fs.rm(written);
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('writes a long file list piece by piece, as one serialization would', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'manifest-'));
    try {
      const files = Array.from({ length: 1300 }, (_, i) => ({
        path: `p/${i}.html`,
        size: i,
        sha256: 'e'.repeat(64),
        executable: i % 500 === 0,
      }));
      const manifest = buildManifest({
        ...facts,
        contents: siteContents(files, [...facts.contents.symlinks]),
      });
      const text = await fs.readFile(await writeManifest(dir, manifest), 'utf8');
      expect(text).toBe(serializeManifest(manifest));
      expect(JSON.parse(text)).toEqual(listed(manifest));
      expect(text.split('\n').filter((line) => line.startsWith('    {"path":"p/'))).toHaveLength(
        1300,
      );
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("keeps each page's fingerprint, its layout included, and drops a layout of another form", async () => {
    const page = {
      title: 'Intro - Docs',
      markup: '9f1c04d2-50a1',
      layout: '2;4c1;1a,33,7bd9,0,e',
      content: '4'.repeat(32),
      navigation: '0'.repeat(32),
    };
    const withPages = listed(
      buildManifest({
        ...facts,
        pages: { scheme: 1, byPath: new Map([['guides/intro.html', page]]) },
      }),
    );
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'manifest-'));
    try {
      const file = await writeManifest(dir, withPages);
      expect(await readManifest(file)).toEqual({ kind: 'valid', manifest: withPages });
      for (const layout of [
        // Written before comments were told apart: a walk along it could hide an edit.
        '4c1;1a,33,7bd9,0,e',
        '2;4;7bd9,,e',
        '4;7bd9,,e',
        '4;7bd9,0,e,',
        '7bd9,0,e',
        'z;1',
        '4;'.concat('1'.repeat(13)),
        '0;'.concat('1,'.repeat(30_000)),
      ]) {
        const [intro, ...others] = withPages.files;
        const tampered = {
          ...withPages,
          files: [{ ...intro, page: { ...page, layout } }, ...others],
        };
        await fs.writeFile(file, serializeManifest(tampered as never));
        // Only a guide for the next check: the page keeps its fingerprint without it.
        const { layout: _, ...withoutLayout } = page;
        expect(await readManifest(file), layout).toEqual({
          kind: 'valid',
          manifest: { ...tampered, files: [{ ...intro, page: withoutLayout }, ...others] },
        });
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a manifest that is not a regular file, never opening a named pipe', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'manifest-'));
    try {
      // A link to a valid manifest elsewhere is not this directory's manifest.
      const other = await fs.mkdtemp(path.join(dir, 'elsewhere-'));
      const elsewhere = await writeManifest(other, buildManifest(facts));
      const linked = path.join(dir, 'linked');
      await fs.mkdir(linked);
      await fs.symlink(elsewhere, path.join(linked, MANIFEST_NAME));
      // Reading a fifo with no writer would wait for ever.
      const piped = path.join(dir, 'piped');
      await fs.mkdir(piped);
      execFileSync('mkfifo', [path.join(piped, MANIFEST_NAME)]);
      for (const site of [linked, piped]) {
        expect(await readManifest(path.join(site, MANIFEST_NAME))).toEqual({
          kind: 'invalid',
          reason: 'it is not a regular file',
        });
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 5_000);

  it.each([
    ['a path that leaves the tree', { path: '../etc/passwd' }],
    ['an absolute path', { path: '/etc/passwd' }],
    ['a path with a "." step, one file under two names', { path: 'guides/./a.html' }],
    ['a path that starts with "./"', { path: './index.html' }],
    ['a path of "." alone', { path: '.' }],
    ['a path with an empty step', { path: 'guides//a.html' }],
    ['a hash that is not SHA-256', { sha256: 'xyz' }],
  ])('refuses a manifest with %s', async (_, change) => {
    const manifest = listed(buildManifest(facts));
    const tampered = { ...manifest, files: [{ ...manifest.files[0], ...change }] };
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'manifest-'));
    try {
      await fs.writeFile(path.join(dir, MANIFEST_NAME), serializeManifest(tampered as never));
      expect(await readManifest(path.join(dir, MANIFEST_NAME))).toMatchObject({ kind: 'invalid' });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('beside a kept archive, names the archive it replaces, and reads one without it too', async () => {
    const kept = {
      ...facts,
      archive: { ...facts.archive, file: 'docs.example.com.tar.gz' },
      contents: undefined,
    };
    const replacing = { sha256: 'e'.repeat(64), sizeBytes: 999 };
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'manifest-'));
    try {
      const file = path.join(dir, 'docs.example.com.tar.gz.static-export.json');
      await fs.writeFile(file, serializeManifest(buildManifest({ ...kept, replacing })));
      expect(await readManifest(file)).toMatchObject({ kind: 'valid', manifest: { replacing } });
      // One written before `replacing` existed.
      await fs.writeFile(file, serializeManifest(buildManifest(kept)));
      const read = await readManifest(file);
      expect(read.kind).toBe('valid');
      expect(read.kind === 'valid' && 'replacing' in read.manifest).toBe(false);
      const tampered = {
        ...listed(buildManifest(kept)),
        replacing: { sha256: 'xyz', sizeBytes: 1 },
      };
      await fs.writeFile(file, serializeManifest(tampered as never));
      expect(await readManifest(file)).toEqual({
        kind: 'invalid',
        reason: expect.stringMatching(/^replacing\.sha256 /),
      });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('names the release of package.json', async () => {
    const pkg = JSON.parse(
      await fs.readFile(new URL('../../package.json', import.meta.url), 'utf8'),
    );
    expect(VERSION).toBe(pkg.version);
  });
});

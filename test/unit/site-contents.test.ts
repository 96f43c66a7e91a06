import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ExtractResult, TarExtraction } from '../../src/deliver/archive/tar.js';
import { FileRecords } from '../../src/deliver/archive/listing.js';
import { extractZip } from '../../src/deliver/archive/zip.js';
import { tarOf, zipOf } from '../support/archives.js';

/**
 * The manifest's file list comes from the extraction pass itself: every regular file with
 * the size and SHA-256 of the bytes that really landed on disk.
 */

const limits = { maxBytes: 1 << 30, maxEntries: 1000 };
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
let root: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'site-contents-'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** The file list as computed from the tree on disk, in a second pass: the truth. */
async function filesOnDisk(dir: string) {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const files = [];
  for (const entry of entries.filter((e) => e.isFile())) {
    const full = path.join(entry.parentPath, entry.name);
    const data = await fs.readFile(full);
    const stat = await fs.stat(full);
    files.push({
      path: path.relative(dir, full).split(path.sep).join('/'),
      size: data.length,
      sha256: sha256(data),
      executable: (stat.mode & 0o111) !== 0,
    });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

async function directoriesOnDisk(dir: string) {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** What the extraction listed, read out into arrays (directories sorted). */
function listedOf({ contents }: ExtractResult) {
  const files = [...contents.files];
  expect([...contents.filePaths]).toEqual(files.map((file) => file.path));
  expect(contents.fileCount).toBe(files.length);
  expect(contents.fileBytes).toBe(files.reduce((sum, file) => sum + file.size, 0));
  return {
    files,
    symlinks: contents.symlinks,
    directories: contents.directories && [...contents.directories].sort(),
  };
}

async function extractTar(archive: Buffer, gzip: boolean, maxEntries = limits.maxEntries) {
  const extraction = new TarExtraction(root, gzip ? 'tar.gz' : 'tar', { ...limits, maxEntries });
  for (let at = 0; at < archive.length; at += 700)
    await extraction.write(archive.subarray(at, at + 700));
  return extraction.end();
}

describe('the contents recorded while extracting', () => {
  it('match a second pass over the tar.gz tree: sizes, hashes, exec bit, links', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 'x'); // over the in-memory threshold: streamed
    const archive = await tarOf([
      { name: 'index.html', content: '<h1>Home</h1>' },
      { name: 'guides/', type: 'directory' },
      { name: 'guides/intro.html', content: 'first version' },
      { name: 'bin/run.sh', content: '#!/bin/sh\n', mode: 0o755 },
      { name: 'assets/big.bin', content: big },
      { name: 'assets/same.bin', type: 'link', linkname: 'assets/big.bin' },
      { name: 'latest', type: 'symlink', linkname: 'guides/intro.html' },
      // The same name twice: the later entry is what lands on disk, and what is recorded.
      { name: 'guides/intro.html', content: 'second version, longer' },
    ]);
    const result = listedOf(await extractTar(archive, true));
    expect(result.files).toEqual(await filesOnDisk(root));
    expect(result.files.find((f) => f.path === 'guides/intro.html')).toMatchObject({
      size: 22,
      sha256: sha256('second version, longer'),
    });
    expect(result.files.find((f) => f.path === 'bin/run.sh')?.executable).toBe(true);
    expect(result.files.find((f) => f.path === 'assets/same.bin')?.sha256).toBe(sha256(big));
    expect(result.symlinks).toEqual([{ path: 'latest', target: 'guides/intro.html' }]);
    expect(result.directories).toEqual(await directoriesOnDisk(root));
  });

  it('list paths in string order and spell each name as the archive does', async () => {
    // A directory's name sorts as if followed by "/", which comes after "-" and ".":
    // a tree walk that sorted names alone would list a/x.html before a-b.html.
    const names = [
      'a/x.html',
      'a-b.html',
      'a.b/y.html',
      'a0.html',
      'Z.html',
      'a/b/c.html',
      'a/b-c/d.html',
      'café/crème-brûlée-recette.html',
      '日本語/ページの名前がとても長い.html',
      'emoji/😀-a-name-longer-than-thirteen.html',
      `${'deep/'.repeat(40)}a-leaf-name-of-some-length.html`,
    ];
    const archive = await tarOf(
      names.map((name) => ({ name, content: name })),
      false,
    );
    const result = listedOf(await extractTar(archive, false));
    const onDisk = await filesOnDisk(root);
    expect(result.files).toEqual(onDisk);
    expect(result.files.map((f) => f.path)).toEqual([...names].sort());
    for (const file of result.files) expect(file.sha256).toBe(sha256(file.path));
  });

  it('spell long names, kept as digests while extracting, as the archive does', async () => {
    const long = (stem: string) => `${stem}-${'n'.repeat(60)}`;
    const archive = await tarOf(
      [
        { name: `${long('dir')}/${long('page')}.html`, content: 'a' },
        { name: `${long('dir')}/${long('日本語のページ')}.html`, content: 'b' },
        { name: `${long('dir')}/${long('empty')}/`, type: 'directory' },
        {
          name: `${long('copy')}.html`,
          type: 'link',
          linkname: `${long('dir')}/${long('page')}.html`,
        },
        // Made last, after every other entry: its name is not on disk while it waits.
        {
          name: `${long('dir')}/${long('latest')}`,
          type: 'symlink',
          linkname: `${long('page')}.html`,
        },
        // The same long name twice: one file, with the later bytes.
        { name: `${long('dir')}/${long('page')}.html`, content: 'second' },
        // A name ending in a dot beside the same name without it: two files here, one file
        // on Windows, which drops the dot (see test/conformance/casefold.test.ts).
        { name: `${long('dir')}/${long('notes')}.`, content: 'c' },
        { name: `${long('dir')}/${long('notes')}`, content: 'd' },
      ],
      false,
    );
    const result = listedOf(await extractTar(archive, false));
    expect(result.files).toEqual(await filesOnDisk(root));
    expect(result.files.map((f) => f.path)).toEqual([
      `${long('copy')}.html`,
      `${long('dir')}/${long('notes')}`,
      `${long('dir')}/${long('notes')}.`,
      `${long('dir')}/${long('page')}.html`,
      `${long('dir')}/${long('日本語のページ')}.html`,
    ]);
    expect(result.files[0]?.sha256).toBe(sha256('a'));
    expect(result.files[3]?.sha256).toBe(sha256('second'));
    expect(result.symlinks).toEqual([
      { path: `${long('dir')}/${long('latest')}`, target: `${long('page')}.html` },
    ]);
    expect(await fs.readlink(path.join(root, long('dir'), long('latest')))).toBe(
      `${long('page')}.html`,
    );
    expect(result.directories).toEqual(await directoriesOnDisk(root));
  });

  it('name every directory made, the empty and the implied ones', async () => {
    const archive = await tarOf([
      { name: 'empty/', type: 'directory' },
      { name: 'a/b/c/deep.html', content: 'deep' },
      { name: 'a/b/', type: 'directory' },
      { name: 'x/y/', type: 'directory' },
    ]);
    const result = listedOf(await extractTar(archive, true));
    expect(result.directories).toEqual(['a', 'a/b', 'a/b/c', 'empty', 'x', 'x/y']);
    expect(result.directories).toEqual(await directoriesOnDisk(root));
  });

  it('spell every name of a site of thousands, each kept as what it adds to the one before', async () => {
    // Neighbours share most of their spelling (page-1000, page-1001…), a directory's last
    // name and the next directory's first share less, and the names run over several of
    // the listing's pieces of 4,096.
    const names: string[] = [];
    for (let i = 0; i < 9000; i += 1) {
      names.push(`section-${i % 3}/page-${i}.html`);
      if (i % 1000 === 0) names.push(`section-${i % 3}/page-${i}-${'x'.repeat(40)}.html`);
    }
    const archive = await tarOf(
      names.map((name) => ({ name, content: name })),
      true,
    );
    const extracted = await extractTar(archive, true, 20_000);
    const result = listedOf(extracted);
    expect(result.files).toEqual(await filesOnDisk(root));
    expect(result.files.map((f) => f.path)).toEqual([...names].sort());
    expect(result.directories).toEqual(['section-0', 'section-1', 'section-2']);
  });

  it('name no directories once the filesystem showed one under another spelling', async () => {
    // What a case-folding filesystem does with guide/ after Guide/: the name is taken.
    await fs.mkdir(path.join(root, 'guide'));
    const archive = await tarOf([{ name: 'guide/setup.html', content: 'setup' }]);
    const result = listedOf(await extractTar(archive, true));
    expect(result.files.map((f) => f.path)).toEqual(['guide/setup.html']);
    expect(result.directories).toBeUndefined();
  });

  it('match a second pass over the zip tree', async () => {
    const archive = await zipOf([
      { name: 'index.html', content: '<h1>Home</h1>' },
      { name: 'empty/', directory: true },
      { name: 'guides/a.html', content: 'a'.repeat(2 * 1024 * 1024) },
      { name: 'up', symlinkTo: 'guides/a.html' },
    ]);
    const file = path.join(root, '..', `${path.basename(root)}.zip`);
    await fs.writeFile(file, archive);
    try {
      const result = listedOf(await extractZip(file, root, limits));
      expect(result.files).toEqual(await filesOnDisk(root));
      expect(result.files.map((f) => f.path)).toEqual(['guides/a.html', 'index.html']);
      expect(result.symlinks).toEqual([{ path: 'up', target: 'guides/a.html' }]);
      expect(result.directories).toEqual(await directoriesOnDisk(root));
    } finally {
      await fs.rm(file, { force: true });
    }
  });
});

describe('the records kept of each file', () => {
  it('keep sizes of 4 GiB and more exactly, beside the 4-byte ones', () => {
    const records = new FileRecords();
    const digest = Buffer.alloc(32, 7);
    const sizes = [0, 1, 2 ** 32 - 2, 2 ** 32 - 1, 2 ** 32, 5 * 2 ** 30 + 3, 2 ** 40];
    sizes.forEach((size, slot) => records.set(slot, size, digest, false));
    sizes.forEach((size, slot) => {
      expect(records.size(slot)).toBe(size);
      expect(records.get(slot, `f${slot}`)).toEqual({
        path: `f${slot}`,
        size,
        sha256: digest.toString('hex'),
        executable: false,
      });
    });
    // A hard link takes its source's record; a later entry replaces a file's.
    records.copy(5, 20);
    expect(records.size(20)).toBe(5 * 2 ** 30 + 3);
    records.set(5, 12, digest, true);
    expect(records.size(5)).toBe(12);
    expect(records.get(5, 'f5').executable).toBe(true);
    expect(records.size(20)).toBe(5 * 2 ** 30 + 3);
    records.copy(1, 20);
    expect(records.size(20)).toBe(1);
  });
});

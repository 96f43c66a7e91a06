import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readTree } from '../../src/tree-walk.js';

/** Every entry of a small site, with the path a site's manifest and link check use. */

let root: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'tree-walk-'));
  await fs.mkdir(path.join(root, 'guides', 'deep', 'er'), { recursive: true });
  await fs.mkdir(path.join(root, 'empty'));
  await fs.writeFile(path.join(root, 'index.html'), '');
  await fs.writeFile(path.join(root, 'guides', 'a.html'), '');
  await fs.writeFile(path.join(root, 'guides', 'deep', 'er', 'b c.html'), '');
  await fs.symlink('../index.html', path.join(root, 'guides', 'home.html'));
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const EXPECTED = [
  'empty',
  'guides',
  'guides/a.html',
  'guides/deep',
  'guides/deep/er',
  'guides/deep/er/b c.html',
  'guides/home.html',
  'index.html',
];

const paths = async (dir: string) => (await readTree(dir)).map((e) => e.path).sort();

it('gives each entry its path relative to the root, with its type', async () => {
  expect(await paths(root)).toEqual(EXPECTED);
  const byPath = new Map((await readTree(root)).map((e) => [e.path, e.dirent]));
  expect(byPath.get('guides/deep')?.isDirectory()).toBe(true);
  expect(byPath.get('guides/deep/er/b c.html')?.isFile()).toBe(true);
  expect(byPath.get('guides/home.html')?.isSymbolicLink()).toBe(true);
});

it('gives the same paths for a root spelled with a trailing separator or relative to the cwd', async () => {
  expect(await paths(`${root}${path.sep}`)).toEqual(EXPECTED);
  expect(await paths(path.relative(process.cwd(), root))).toEqual(EXPECTED);
});

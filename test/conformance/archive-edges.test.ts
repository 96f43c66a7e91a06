import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { appleDouble } from '../support/archives.js';
import { extractBuffer, treeOf } from '../support/extract.js';

/**
 * Archives real tools make that sit at the edges of what the action reads: formats it does
 * not extract, an empty tar, hard links to symlinks,
 * backslashes in names. Each is made at test time by the tool (.ci/run installs them);
 * in CI a missing tool fails its case, locally the case is skipped with the reason.
 */

const run = promisify(execFile);
const IN_CI = process.env.CI === 'true';
let scratch: string;

beforeAll(async () => {
  scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'archive-edges-'));
});
afterAll(async () => {
  await fs.rm(scratch, { recursive: true, force: true });
});

const available = new Map<string, boolean>();
async function requireTools(context: TestContext, ...tools: string[]): Promise<void> {
  const missing: string[] = [];
  for (const tool of tools) {
    if (!available.has(tool)) {
      const found = await run('sh', ['-c', `command -v ${tool}`]).then(
        () => true,
        () => false,
      );
      available.set(tool, found);
    }
    if (!available.get(tool)) missing.push(tool);
  }
  if (missing.length === 0) return;
  if (IN_CI) throw new Error(`${missing.join(', ')} not installed: .ci/run installs it`);
  context.skip(`${missing.join(', ')} not installed`);
}

/** A fresh directory holding a small site: two pages and a symlink. */
async function site(name: string): Promise<{ base: string; src: string }> {
  const base = path.join(scratch, name);
  const src = path.join(base, 'src');
  await fs.mkdir(path.join(src, 'guide'), { recursive: true });
  await fs.writeFile(path.join(src, 'index.html'), '<p>home</p>');
  await fs.writeFile(path.join(src, 'guide', 'intro.html'), '<p>intro</p>');
  await fs.symlink('intro.html', path.join(src, 'guide', 'index.html'));
  return { base, src };
}

/** Each entry of `dir` with what it is: a file and its text, a directory, a link and its target. */
async function contents(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, full).split(path.sep).join('/');
    if (entry.isSymbolicLink()) out[rel] = `link -> ${await fs.readlink(full)}`;
    else if (entry.isDirectory()) out[rel] = 'dir';
    else out[rel] = `file ${await fs.readFile(full, 'utf8')}`;
  }
  return out;
}

describe('archives in formats the action does not extract are named, not called "not an archive"', () => {
  const cases: { name: string; tools: string[]; file: string; make: string[]; says: RegExp }[] = [
    {
      name: 'tar -cJf (xz)',
      tools: ['tar', 'xz'],
      file: 'site.tar.xz',
      make: ['tar', '-cJf', 'OUT', '.'],
      says: /served an xz-compressed archive, which this action does not extract \(it extracts tar, tar\.gz and zip\)/,
    },
    {
      name: 'tar -cjf (bzip2)',
      tools: ['tar', 'bzip2'],
      file: 'site.tar.bz2',
      make: ['tar', '-cjf', 'OUT', '.'],
      says: /served a bzip2-compressed archive, which this action does not extract/,
    },
    {
      name: 'tar --zstd',
      tools: ['tar', 'zstd'],
      file: 'site.tar.zst',
      make: ['tar', '--zstd', '-cf', 'OUT', '.'],
      says: /served a Zstandard-compressed archive, which this action does not extract/,
    },
    {
      name: '7z a',
      tools: ['7z'],
      file: 'site.7z',
      make: ['7z', 'a', '-bd', '-y', 'OUT', '.'],
      says: /served a 7-Zip archive, which this action does not extract/,
    },
  ];
  for (const [index, { name, tools, file, make, says }] of cases.entries()) {
    it(name, async (context) => {
      await requireTools(context, ...tools);
      const { base, src } = await site(`unsupported-${index}`);
      const archive = path.join(base, file);
      const [command, ...args] = make.map((arg) => (arg === 'OUT' ? archive : arg)) as [
        string,
        ...string[],
      ];
      await run(command, args, { cwd: src });
      const ours = path.join(base, 'ours');
      const outcome = await extractBuffer(await fs.readFile(archive), ours);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.error.message).toMatch(says);
      expect(outcome.error.message).not.toMatch(/not an archive|no known archive format/);
      expect(await treeOf(ours)).toEqual([]);
    });
  }
});

describe('an empty tar', () => {
  it('tar -cf e.tar -T /dev/null extracts nothing, as GNU tar does and as an empty tar.gz does', async (context) => {
    await requireTools(context, 'tar');
    const base = path.join(scratch, 'empty');
    await fs.mkdir(base, { recursive: true });
    await run('tar', ['-cf', path.join(base, 'e.tar'), '-T', '/dev/null']);
    await run('tar', ['-czf', path.join(base, 'e.tar.gz'), '-T', '/dev/null']);
    const reference = path.join(base, 'reference');
    await fs.mkdir(reference);
    await run('tar', ['-xf', path.join(base, 'e.tar'), '-C', reference]);

    const plain = await extractBuffer(
      await fs.readFile(path.join(base, 'e.tar')),
      path.join(base, 'tar'),
    );
    const gzipped = await extractBuffer(
      await fs.readFile(path.join(base, 'e.tar.gz')),
      path.join(base, 'tgz'),
    );
    if (!plain.ok) throw plain.error;
    if (!gzipped.ok) throw gzipped.error;
    expect(plain.site.format).toBe('tar');
    expect(await treeOf(path.join(base, 'tar'))).toEqual(await treeOf(reference));
    const summary = ({ files, entries, bytes, contents }: typeof plain.site) => ({
      files,
      entries,
      bytes,
      contents,
    });
    expect(summary(plain.site)).toEqual(summary(gzipped.site));
    expect(plain.site.files).toBe(0);
  });
});

describe('a hard link to a symlink (cp -al of a tree with symlinks)', () => {
  /** `v2/index.html -> intro.html`, and `latest` a copy of `v2` made of hard links. */
  async function linkedTree(name: string) {
    const base = path.join(scratch, name);
    const src = path.join(base, 'src');
    await fs.mkdir(path.join(src, 'v2'), { recursive: true });
    await fs.writeFile(path.join(src, 'v2', 'intro.html'), '<p>intro</p>');
    await fs.symlink('intro.html', path.join(src, 'v2', 'index.html'));
    await run('cp', ['-al', 'v2', 'latest'], { cwd: src });
    return { base, src };
  }
  const producers: {
    name: string;
    tools: string[];
    make(out: string, src: string): Promise<unknown>;
  }[] = [
    {
      name: 'GNU tar',
      tools: ['tar'],
      make: (out, src) => run('tar', ['-czf', out, 'v2', 'latest'], { cwd: src }),
    },
    {
      name: 'bsdtar',
      tools: ['bsdtar'],
      make: (out, src) => run('bsdtar', ['-czf', out, 'v2', 'latest'], { cwd: src }),
    },
  ];
  for (const [index, producer] of producers.entries()) {
    it(`${producer.name}: extracted as GNU tar extracts it, a symlink with the same target`, async (context) => {
      await requireTools(context, 'tar', 'cp', ...producer.tools);
      const { base, src } = await linkedTree(`hardlinked-symlink-${index}`);
      const archive = path.join(base, 'site.tar.gz');
      await producer.make(archive, src);
      // The archive does hold a hard link whose source is the symlink.
      const { stdout } = await run('tar', ['-tvzf', archive]);
      expect(stdout).toMatch(/^h.* (latest|v2)\/index\.html link to (v2|latest)\/index\.html$/m);
      const reference = path.join(base, 'reference');
      await fs.mkdir(reference);
      await run('tar', ['-xzf', archive, '-C', reference]);

      const ours = path.join(base, 'ours');
      const outcome = await extractBuffer(await fs.readFile(archive), ours);
      if (!outcome.ok) throw outcome.error;
      expect(await contents(ours)).toEqual(await contents(reference));
      expect(await fs.readlink(path.join(ours, 'latest', 'index.html'))).toBe('intro.html');
      expect(outcome.site.contents.symlinks.map((link) => [link.path, link.target]).sort()).toEqual(
        [
          ['latest/index.html', 'intro.html'],
          ['v2/index.html', 'intro.html'],
        ],
      );
    });
  }

  it('GNU tar: refused when the symlink stays inside from its source but leads out from the link', async (context) => {
    await requireTools(context, 'tar', 'ln');
    const base = path.join(scratch, 'hardlinked-symlink-out');
    const src = path.join(base, 'src');
    await fs.mkdir(path.join(src, 'docs', 'v2'), { recursive: true });
    await fs.writeFile(path.join(src, 'docs', 'page.html'), 'page');
    // docs/v2/up -> ../page.html is docs/page.html; the same link at the root climbs out.
    await fs.symlink('../page.html', path.join(src, 'docs', 'v2', 'up'));
    await run('ln', ['-P', 'docs/v2/up', 'up'], { cwd: src });
    const archive = path.join(base, 'site.tar.gz');
    await run('tar', ['-czf', archive, 'docs', 'up'], { cwd: src });
    const { stdout } = await run('tar', ['-tvzf', archive]);
    expect(stdout).toMatch(/^h.* up link to docs\/v2\/up$/m);

    const ours = path.join(base, 'ours');
    const outcome = await extractBuffer(await fs.readFile(archive), ours);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.message).toBe(
      'Refusing to extract the archive: entry "up" is a hard link to the symlink "docs/v2/up", so a symlink here, to "../page.html", outside the export.',
    );
    await expect(fs.lstat(path.join(ours, 'up'))).rejects.toThrow();
  });
});

describe('a backslash in a name', () => {
  /** A tree with `back\\slash.html` and `docs/a\\b.html`: one file each on Linux. */
  async function backslashTree(name: string) {
    const base = path.join(scratch, name);
    const src = path.join(base, 'src');
    await fs.mkdir(path.join(src, 'docs'), { recursive: true });
    await fs.writeFile(path.join(src, 'back\\slash.html'), 'bs');
    await fs.writeFile(path.join(src, 'docs', 'a\\b.html'), 'ab');
    await fs.writeFile(path.join(src, 'index.html'), 'home');
    return { base, src };
  }
  const producers: {
    name: string;
    tools: string[];
    reference: 'tar' | 'unzip';
    file: string;
    make(out: string, src: string): Promise<unknown>;
  }[] = [
    {
      name: 'GNU tar',
      tools: ['tar'],
      reference: 'tar',
      file: 'site.tar.gz',
      make: (out, src) => run('tar', ['-czf', out, '.'], { cwd: src }),
    },
    {
      name: 'bsdtar',
      tools: ['bsdtar', 'tar'],
      reference: 'tar',
      file: 'site.tar.gz',
      make: (out, src) => run('bsdtar', ['-czf', out, '.'], { cwd: src }),
    },
    {
      name: 'Info-ZIP zip on Unix',
      tools: ['zip', 'unzip'],
      reference: 'unzip',
      file: 'site.zip',
      make: (out, src) => run('zip', ['-qr', out, '.'], { cwd: src }),
    },
  ];
  for (const [index, producer] of producers.entries()) {
    it(`${producer.name}: one file, as ${producer.reference} keeps it`, async (context) => {
      await requireTools(context, ...producer.tools);
      const { base, src } = await backslashTree(`backslash-${index}`);
      const archive = path.join(base, producer.file);
      await producer.make(archive, src);
      const reference = path.join(base, 'reference');
      await fs.mkdir(reference);
      if (producer.reference === 'tar') await run('tar', ['-xzf', archive, '-C', reference]);
      else await run('unzip', ['-q', archive, '-d', reference]);

      const ours = path.join(base, 'ours');
      const outcome = await extractBuffer(await fs.readFile(archive), ours);
      if (!outcome.ok) throw outcome.error;
      expect(await contents(ours)).toEqual(await contents(reference));
      expect(await contents(ours)).toMatchObject({
        'back\\slash.html': 'file bs',
        'docs/a\\b.html': 'file ab',
      });
      expect([...outcome.site.contents.files].map((file) => file.path).sort()).toEqual([
        'back\\slash.html',
        'docs/a\\b.html',
        'index.html',
      ]);
    });
  }

  const PY_ZIP = `
import sys, zipfile
host = int(sys.argv[2])
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    for name, data in [('docs\\\\guides\\\\intro.html', 'x'), ('mixed/a\\\\b.html', 'y'), ('index.html', 'home')]:
        info = zipfile.ZipInfo(name)
        info.create_system = host
        info.external_attr = 0x20
        z.writestr(info, data)
`;
  // unzip splits the names of MS-DOS zips at backslashes, bsdtar those of all three hosts;
  // both keep the backslash of a name that holds a slash.
  for (const [host, madeBy, reference] of [
    ['MS-DOS', 0, 'unzip'],
    ['MS-DOS', 0, 'bsdtar'],
    ['NTFS', 11, 'bsdtar'],
    ['VFAT', 14, 'bsdtar'],
  ] as const) {
    it(`a zip made on ${host} (Python zipfile): a separator, as ${reference} reads it, unless the name holds a slash`, async (context) => {
      await requireTools(context, 'python3', reference);
      const base = path.join(scratch, `backslash-zip-${madeBy}-${reference}`);
      await fs.mkdir(base, { recursive: true });
      const archive = path.join(base, 'site.zip');
      await run('python3', ['-c', PY_ZIP, archive, String(madeBy)]);
      const extracted = path.join(base, 'reference');
      await fs.mkdir(extracted);
      if (reference === 'bsdtar') await run('bsdtar', ['-xf', archive, '-C', extracted]);
      else {
        // unzip warns that the archive "appears to use backslashes as path separators".
        await run('unzip', ['-q', archive, '-d', extracted]).catch((err: { code?: number }) => {
          if (err.code !== 1) throw err;
        });
      }
      const ours = path.join(base, 'ours');
      const outcome = await extractBuffer(await fs.readFile(archive), ours);
      if (!outcome.ok) throw outcome.error;
      expect(await contents(ours)).toEqual(await contents(extracted));
      expect(await treeOf(ours)).toEqual([
        'docs/',
        'docs/guides/',
        'docs/guides/intro.html',
        'index.html',
        'mixed/',
        'mixed/a\\b.html',
      ]);
    });
  }
});

describe('macOS metadata: AppleDouble companions of archives made on a Mac', () => {
  /** A page whose name starts with `._` but is HTML: part of the site. */
  const REAL_PAGE = '<!doctype html><title>Dot underscore</title><p>a real page</p>';

  /**
   * The site (`index.html`, `guide/intro.html`, `._real.html`) with each file's companion:
   * beside it as `._name` (tar, `ditto` without `--sequesterRsrc`), or under `__MACOSX/`
   * (Finder's Compress). The real page gets no companion: its name is a companion's.
   */
  async function macTree(name: string, companions: 'beside' | '__MACOSX') {
    const base = path.join(scratch, name);
    const src = path.join(base, 'src');
    const holder = companions === 'beside' ? src : path.join(src, '__MACOSX');
    await fs.mkdir(path.join(src, 'guide'), { recursive: true });
    await fs.mkdir(path.join(holder, 'guide'), { recursive: true });
    await fs.writeFile(path.join(src, 'index.html'), '<p>home</p>');
    await fs.writeFile(path.join(src, 'guide', 'intro.html'), '<p>intro</p>');
    await fs.writeFile(path.join(src, '._real.html'), REAL_PAGE);
    await fs.writeFile(path.join(holder, '._index.html'), appleDouble());
    await fs.writeFile(path.join(holder, 'guide', '._intro.html'), appleDouble());
    return { base, src };
  }
  // As bsdtar on macOS orders them: each companion just before its file.
  const TAR_ORDER = [
    '.',
    './._index.html',
    './index.html',
    './guide',
    './guide/._intro.html',
    './guide/intro.html',
    './._real.html',
  ];
  const producers: {
    name: string;
    tools: string[];
    companions: 'beside' | '__MACOSX';
    file: string;
    make(out: string, src: string): Promise<unknown>;
  }[] = [
    {
      name: 'GNU tar, tar.gz with ._ files before their files',
      tools: ['tar'],
      companions: 'beside',
      file: 'site.tar.gz',
      make: (out, src) => run('tar', ['--no-recursion', '-czf', out, ...TAR_ORDER], { cwd: src }),
    },
    {
      name: 'bsdtar, tar.gz with ._ files before their files',
      tools: ['bsdtar'],
      companions: 'beside',
      file: 'site.tar.gz',
      make: (out, src) => run('bsdtar', ['-n', '-czf', out, ...TAR_ORDER], { cwd: src }),
    },
    {
      name: 'Info-ZIP zip, a __MACOSX/ folder as Finder writes it',
      tools: ['zip', 'unzip'],
      companions: '__MACOSX',
      file: 'site.zip',
      make: (out, src) =>
        run('zip', ['-qr', out, 'index.html', 'guide', '._real.html', '__MACOSX'], { cwd: src }),
    },
    {
      name: 'bsdtar --format=zip, ._ files beside their files',
      tools: ['bsdtar', 'unzip'],
      companions: 'beside',
      file: 'site.zip',
      make: (out, src) =>
        run('bsdtar', ['--format=zip', '-n', '-cf', out, ...TAR_ORDER], { cwd: src }),
    },
  ];
  for (const [index, producer] of producers.entries()) {
    it(`${producer.name}: left out of the site, its counts and its manifest; a real ._ page stays`, async (context) => {
      await requireTools(context, ...producer.tools);
      const { base, src } = await macTree(`apple-double-${index}`, producer.companions);
      const archive = path.join(base, producer.file);
      await producer.make(archive, src);
      // The premise: GNU tar and unzip write the companions as files of the site.
      const reference = path.join(base, 'reference');
      await fs.mkdir(reference);
      if (producer.file === 'site.zip') await run('unzip', ['-q', archive, '-d', reference]);
      else await run('tar', ['-xzf', archive, '-C', reference]);
      const holder = producer.companions === 'beside' ? '' : '__MACOSX/';
      expect(Object.keys(await contents(reference))).toEqual(
        expect.arrayContaining([`${holder}._index.html`, `${holder}guide/._intro.html`]),
      );

      const ours = path.join(base, 'ours');
      const outcome = await extractBuffer(await fs.readFile(archive), ours);
      if (!outcome.ok) throw outcome.error;
      expect(await contents(ours)).toEqual({
        '._real.html': `file ${REAL_PAGE}`,
        guide: 'dir',
        'guide/intro.html': 'file <p>intro</p>',
        'index.html': 'file <p>home</p>',
      });
      const site = outcome.site;
      expect([...site.contents.files].map((file) => file.path).sort()).toEqual([
        '._real.html',
        'guide/intro.html',
        'index.html',
      ]);
      expect(site.files).toBe(3);
      expect(site.bytes).toBe(REAL_PAGE.length + '<p>intro</p>'.length + '<p>home</p>'.length);
      expect(site.macMetadata).toBe(2);
    });
  }
});

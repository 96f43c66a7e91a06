import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as nodeTar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractBuffer } from '../support/extract.js';

/**
 * Archives made at test time by the tools people make them with, each extracted by the
 * action and by the reference tool (GNU tar for tar, Info-ZIP unzip for zip), and the two
 * trees compared: paths, bytes, symlink targets, the exec bit, empty directories. The
 * tools come from Debian packages (.ci/run installs them) and npm. In CI a missing tool
 * fails its rows; locally they are skipped with the reason.
 */

const run = promisify(execFile);
const IN_CI = process.env.CI === 'true';

interface Producer {
  name: string;
  /** Programs that must be on PATH. */
  tools: string[];
  reference: 'tar' | 'zip';
  /** `short`: names a v7 or ustar header can hold; `full` adds a 150-character path. */
  tree: 'short' | 'full';
  /** The source tree holds a sparse file (for the producers that keep holes). */
  sparse?: boolean;
  /** Writes the archive `out` from the tree in the working directory `src`. */
  make(src: string, out: string): Promise<unknown>;
}

const sh = (command: string, args: string[], src: string) =>
  run(command, args, { cwd: src, maxBuffer: 16 * 1024 * 1024 });
const gnuTar =
  (format: string, extra: string[] = []) =>
  (src: string, out: string) =>
    sh('tar', [`--format=${format}`, ...extra, '-czf', out, '.'], src);
const python = (script: string) => (src: string, out: string) =>
  sh('python3', ['-c', script, out], src);

const PY_TAR = (format: string) => `
import os, sys, tarfile
with tarfile.open(sys.argv[1], 'w:gz', format=tarfile.${format}) as t:
    for name in sorted(os.listdir('.')):
        t.add(name)
`;
const PY_ZIP = `
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
    for top, dirs, files in os.walk('.'):
        dirs.sort()
        for d in dirs:
            if os.path.islink(os.path.join(top, d)):
                files.append(d)
            else:
                z.write(os.path.join(top, d))
        for f in sorted(files):
            z.write(os.path.join(top, f))
`;

const PRODUCERS: Producer[] = [
  {
    name: 'GNU tar --format=gnu',
    tools: ['tar'],
    reference: 'tar',
    tree: 'full',
    make: gnuTar('gnu'),
  },
  {
    name: 'GNU tar --format=oldgnu',
    tools: ['tar'],
    reference: 'tar',
    tree: 'full',
    make: gnuTar('oldgnu'),
  },
  {
    name: 'GNU tar --format=pax',
    tools: ['tar'],
    reference: 'tar',
    tree: 'full',
    make: gnuTar('pax'),
  },
  {
    name: 'GNU tar --format=ustar',
    tools: ['tar'],
    reference: 'tar',
    tree: 'short',
    make: gnuTar('ustar'),
  },
  {
    name: 'GNU tar --format=v7',
    tools: ['tar'],
    reference: 'tar',
    tree: 'short',
    make: gnuTar('v7'),
  },
  {
    name: 'GNU tar -S --format=gnu (sparse)',
    tools: ['tar'],
    reference: 'tar',
    tree: 'full',
    sparse: true,
    make: gnuTar('gnu', ['-S']),
  },
  ...['0.0', '0.1', '1.0'].map((version) => ({
    name: `GNU tar -S --format=pax, sparse ${version}`,
    tools: ['tar'],
    reference: 'tar' as const,
    tree: 'full' as const,
    sparse: true,
    make: gnuTar('pax', ['-S', `--sparse-version=${version}`]),
  })),
  {
    name: 'bsdtar (pax, sparse kept)',
    tools: ['bsdtar', 'tar'],
    reference: 'tar',
    tree: 'full',
    sparse: true,
    make: (src, out) => sh('bsdtar', ['-czf', out, '.'], src),
  },
  {
    name: 'bsdtar --format=zip',
    tools: ['bsdtar', 'unzip'],
    reference: 'zip',
    tree: 'full',
    make: (src, out) => sh('bsdtar', ['--format=zip', '-cf', out, '.'], src),
  },
  {
    name: 'Info-ZIP zip -r -y',
    tools: ['zip', 'unzip'],
    reference: 'zip',
    tree: 'full',
    make: (src, out) => sh('zip', ['-q', '-r', '-y', out, '.'], src),
  },
  {
    name: '7z a -ttar',
    tools: ['7z', 'tar'],
    reference: 'tar',
    tree: 'full',
    make: (src, out) =>
      sh('7z', ['a', '-bd', '-ttar', '-snl', '-snh', out.replace(/\.gz$/, ''), '.'], src).then(() =>
        sh('gzip', ['-f', out.replace(/\.gz$/, '')], src),
      ),
  },
  {
    name: '7z a -tzip',
    tools: ['7z', 'unzip'],
    reference: 'zip',
    tree: 'full',
    make: (src, out) => sh('7z', ['a', '-bd', '-tzip', out, '.'], src),
  },
  {
    name: 'Python tarfile GNU',
    tools: ['python3', 'tar'],
    reference: 'tar',
    tree: 'full',
    make: python(PY_TAR('GNU_FORMAT')),
  },
  {
    name: 'Python tarfile PAX',
    tools: ['python3', 'tar'],
    reference: 'tar',
    tree: 'full',
    make: python(PY_TAR('PAX_FORMAT')),
  },
  {
    name: 'Python tarfile USTAR',
    tools: ['python3', 'tar'],
    reference: 'tar',
    tree: 'short',
    make: python(PY_TAR('USTAR_FORMAT')),
  },
  {
    name: 'Python zipfile',
    tools: ['python3', 'unzip'],
    reference: 'zip',
    tree: 'full',
    make: python(PY_ZIP),
  },
  {
    name: 'node-tar (npm tar)',
    tools: ['tar'],
    reference: 'tar',
    tree: 'full',
    make: async (src, out) =>
      nodeTar.create({ gzip: true, file: out, cwd: src }, (await fs.readdir(src)).sort()),
  },
];

let scratch: string;
const available = new Map<string, boolean>();
const table: string[][] = [];

async function hasTool(tool: string): Promise<boolean> {
  if (!available.has(tool)) {
    const found = await run('sh', ['-c', `command -v ${tool}`]).then(
      () => true,
      () => false,
    );
    available.set(tool, found);
  }
  return available.get(tool) as boolean;
}

/** A small site with every kind of entry the comparison covers. */
async function sourceTree(dir: string, tree: 'short' | 'full', sparse: boolean): Promise<void> {
  const write = async (name: string, content: string | Buffer, mode = 0o644) => {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), content, { mode });
    await fs.chmod(path.join(dir, name), mode);
  };
  await write('index.html', '<!doctype html><title>Docs</title>');
  await write('guides/intro.html', '<!doctype html><title>Intro</title>');
  await write('guides/café-naïve.html', 'accents');
  await write('assets/app.js', 'console.log(1)');
  await write('assets/big.bin', Buffer.alloc(3 * 1024 * 1024, 'abcdefgh'));
  await write('bin/run.sh', '#!/bin/sh\necho hi\n', 0o755);
  await fs.mkdir(path.join(dir, 'empty'));
  await fs.symlink('guides/intro.html', path.join(dir, 'latest.html'));
  await fs.symlink('assets', path.join(dir, 'static'));
  await fs.link(path.join(dir, 'index.html'), path.join(dir, 'home.html'));
  if (tree === 'full') {
    await write(`${'deep/'.repeat(20)}${'long-name-'.repeat(6)}.html`, 'far down');
  }
  if (sparse) {
    const handle = await fs.open(path.join(dir, 'data.bin'), 'w');
    for (let i = 0; i < 30; i += 1)
      await handle.write(Buffer.from(`run ${i} `.repeat(50)), 0, undefined, i * 65536);
    await handle.truncate(30 * 65536 + 4321);
    await handle.close();
  }
}

interface Node {
  kind: 'file' | 'dir' | 'link';
  sha256?: string;
  exec?: boolean;
  target?: string;
}

/** The tree as a person would compare it: path -> kind, bytes, exec bit, link target. */
async function snapshot(dir: string): Promise<Record<string, Node>> {
  const result: Record<string, Node> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, full).split(path.sep).join('/');
    if (entry.isSymbolicLink()) result[rel] = { kind: 'link', target: await fs.readlink(full) };
    else if (entry.isDirectory()) result[rel] = { kind: 'dir' };
    else {
      const stat = await fs.stat(full);
      result[rel] = {
        kind: 'file',
        sha256: createHash('sha256')
          .update(await fs.readFile(full))
          .digest('hex'),
        exec: (stat.mode & 0o111) !== 0,
      };
    }
  }
  return result;
}

beforeAll(async () => {
  scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'conformance-'));
});
afterAll(async () => {
  await fs.rm(scratch, { recursive: true, force: true });
  if (table.length === 0) return;
  const header = ['producer', 'entries', 'action vs reference', 'result'];
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  console.log(
    [
      'Archive conformance: the action against GNU tar / unzip',
      line(header),
      line(widths.map((w) => '-'.repeat(w))),
      ...table.map(line),
    ].join('\n'),
  );
});

describe.concurrent(
  'archives made by real tools extract to the same tree as the reference tool',
  () => {
    for (const [index, producer] of PRODUCERS.entries()) {
      it(producer.name, async (context) => {
        const missing = [];
        for (const tool of producer.tools) if (!(await hasTool(tool))) missing.push(tool);
        if (missing.length > 0) {
          table.push([producer.name, '', `missing ${missing.join(', ')}`, IN_CI ? 'FAIL' : 'skip']);
          if (IN_CI) throw new Error(`${missing.join(', ')} not installed: .ci/run installs it`);
          context.skip(`${missing.join(', ')} not installed`);
        }
        const base = path.join(scratch, String(index));
        const src = path.join(base, 'src');
        await fs.mkdir(src, { recursive: true });
        await sourceTree(src, producer.tree, producer.sparse ?? false);
        const archive = path.join(base, producer.reference === 'zip' ? 'site.zip' : 'site.tar.gz');
        await producer.make(src, archive);

        const reference = path.join(base, 'reference');
        await fs.mkdir(reference);
        if (producer.reference === 'tar') await run('tar', ['-xzf', archive, '-C', reference]);
        else await run('unzip', ['-q', archive, '-d', reference]);

        const ours = path.join(base, 'ours');
        const outcome = await extractBuffer(await fs.readFile(archive), ours);
        if (!outcome.ok) {
          table.push([producer.name, '', `refused: ${outcome.error.message}`, 'FAIL']);
          throw outcome.error;
        }
        const [expected, actual] = [await snapshot(reference), await snapshot(ours)];
        const differing = Object.keys({ ...expected, ...actual }).filter(
          (key) => JSON.stringify(expected[key]) !== JSON.stringify(actual[key]),
        );
        table.push([
          producer.name,
          String(Object.keys(expected).length),
          differing.length === 0
            ? 'same tree'
            : `${differing.length} differ: ${differing.slice(0, 3).join(', ')}`,
          differing.length === 0 ? 'pass' : 'FAIL',
        ]);
        expect(actual).toEqual(expected);
        // The recorded contents are the bytes on disk.
        for (const file of outcome.site.contents.files) {
          expect(file.sha256, file.path).toBe(actual[file.path]?.sha256);
        }
      });
    }
  },
);

describe('a zip past the 65,535 entries of the classic format', () => {
  // A docs site with its images passes that count; Info-ZIP then writes a Zip64 end record.
  it('Info-ZIP zip with 70,000 entries: every file extracted, with its bytes', async (context) => {
    if (!(await hasTool('zip'))) {
      if (IN_CI) throw new Error('zip not installed: .ci/run installs it');
      context.skip('zip not installed');
    }
    const base = path.join(scratch, 'zip64');
    const src = path.join(base, 'src');
    for (let d = 0; d < 70; d += 1) {
      const dir = path.join(src, `section-${d}`);
      await fs.mkdir(dir, { recursive: true });
      await Promise.all(
        Array.from({ length: 1000 }, (_, f) =>
          fs.writeFile(path.join(dir, `page-${f}.html`), `<p>${d}/${f}</p>`),
        ),
      );
    }
    const archive = path.join(base, 'site.zip');
    await sh('zip', ['-qr', '-y', archive, '.'], src);
    const bytes = await fs.readFile(archive);
    // The Zip64 end of central directory record's signature.
    expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    const outcome = await extractBuffer(bytes, path.join(base, 'ours'));
    if (!outcome.ok) throw outcome.error;
    expect(outcome.site.files).toBe(70_000);
    for (const [d, f] of [
      [0, 0],
      [33, 500],
      [69, 999],
    ]) {
      const page = path.join(base, 'ours', `section-${d}`, `page-${f}.html`);
      expect(await fs.readFile(page, 'utf8')).toBe(`<p>${d}/${f}</p>`);
    }
  }, 120_000);
});

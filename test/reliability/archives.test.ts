import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TarEntrySpec, tarOf, zipOf } from '../support/archives.js';
import { strayFiles } from '../support/files.js';
import { ACTION_DEFAULTS, type Harness, listTree, startHarness } from '../support/in-process.js';
import { parseConfig } from '../../src/config.js';
import { rawTar, type RawTarEntry } from '../support/raw-tar.js';
import { rawZip, type RawZipEntry } from '../support/raw-zip.js';
import {
  expectOneClearError,
  expectUntouched,
  row,
  runCase,
  workspaceWithSite,
} from './support.js';

/**
 * Hostile archives, generated here as tar, tar.gz and zip. Each must fail with one clear
 * line, write nothing outside the destination (the workspace, RUNNER_TEMP, the directory
 * the archive aims at, the system's tmp) and leave `path` as it was.
 *
 * Every case has a directory of its own outside the workspace, holding a victim file: the
 * archive aims at it by absolute path, by `..`, through links. Afterwards it must hold the
 * victim, unchanged, and nothing else.
 */

const PAGE = '<!doctype html><title>ok</title>';
const VICTIM = 'victim: must stay as it is';
const STRAY_NAMES = ['dotdot.html', 'absolute.html', 'evil.html', 'prefix.html', 'nul.html'];

interface Outside {
  /** Absolute directory outside the workspace (a sibling of it under the system's tmp). */
  dir: string;
  /** The same directory as seen from the destination root: `../../<name>`. */
  rel: string;
  /** Absolute path of the victim file in it. */
  victim: string;
}

async function makeOutside(): Promise<Outside> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-outside-'));
  const victim = path.join(dir, 'victim.txt');
  await fs.writeFile(victim, VICTIM);
  // The destination root is a sibling of `site` inside the workspace: two levels below tmp.
  return { dir, rel: `../../${path.basename(dir)}`, victim };
}

type Format = 'tar' | 'tar.gz' | 'zip';
const SYMLINK = 0o120777;

interface Hostile {
  name: string;
  message: RegExp;
  tar?: (o: Outside) => TarEntrySpec[];
  /** Written header by header, for fields tar libraries will not write. */
  rawTar?: (o: Outside) => RawTarEntry[];
  zip?: (o: Outside) => RawZipEntry[];
  /** Formats a known bug of the action keeps skipped, with the bug in one line. */
  bugs?: Partial<Record<Format, string>>;
}

const HOSTILE: Hostile[] = [
  {
    name: 'a ../ entry',
    message: /contains "\.\."|invalid relative path/,
    tar: (o) => [
      { name: 'index.html', content: PAGE },
      { name: `${o.rel}/dotdot.html`, content: 'x' },
    ],
    zip: (o) => [
      { name: 'index.html', data: PAGE },
      { name: `${o.rel}/dotdot.html`, data: 'x' },
    ],
  },
  {
    name: 'an absolute path',
    message: /absolute path/,
    tar: (o) => [{ name: `${o.dir}/absolute.html`, content: 'x' }],
    zip: (o) => [{ name: `${o.dir}/absolute.html`, data: 'x' }],
  },
  {
    name: 'a symlink to an absolute path outside',
    message: /symlink to the absolute path/,
    tar: (o) => [{ name: 'assets', type: 'symlink', linkname: o.dir }],
    zip: (o) => [{ name: 'assets', data: o.dir, mode: SYMLINK }],
  },
  {
    name: 'a relative symlink climbing out',
    message: /symlink to ".*", outside the export/,
    tar: (o) => [{ name: 'docs/up', type: 'symlink', linkname: `../${o.rel}` }],
    zip: (o) => [{ name: 'docs/up', data: `../${o.rel}`, mode: SYMLINK }],
  },
  {
    name: 'a symlink outside, then a file written through it',
    message: /is a symlink to .*outside the export/,
    tar: (o) => [
      { name: 'assets', type: 'symlink', linkname: o.rel },
      { name: 'assets/evil.html', content: 'x' },
    ],
    zip: (o) => [
      { name: 'assets', data: o.rel, mode: SYMLINK },
      { name: 'assets/evil.html', data: 'x' },
    ],
  },
  {
    name: 'a symlink inside, then a file written through it',
    message: /written through the symlink "assets"/,
    tar: () => [
      { name: 'static/', type: 'directory' },
      { name: 'assets', type: 'symlink', linkname: 'static' },
      { name: 'assets/app.js', content: 'x' },
    ],
    zip: () => [
      { name: 'static/', mode: 0o040755 },
      { name: 'assets', data: 'static', mode: SYMLINK },
      { name: 'assets/app.js', data: 'x' },
    ],
  },
  {
    name: 'a chain of symlinks that leaves only once resolved (b -> a/.., a -> .)',
    message: /symlink "b" leads outside the export/,
    tar: () => [
      { name: 'a', type: 'symlink', linkname: '.' },
      { name: 'b', type: 'symlink', linkname: 'a/..' },
    ],
    zip: () => [
      { name: 'a', data: '.', mode: SYMLINK },
      { name: 'b', data: 'a/..', mode: SYMLINK },
    ],
  },
  {
    name: 'a pax linkpath that overrides a harmless link name',
    message: /symlink to the absolute path/,
    tar: (o) => [{ name: 'assets', type: 'symlink', linkname: 'static', pax: { linkpath: o.dir } }],
  },
  {
    name: 'a hard link to an absolute path outside',
    message: /hard link whose target has an absolute path/,
    tar: (o) => [{ name: 'victim.txt', type: 'link', linkname: o.victim }],
  },
  {
    name: 'a hard link climbing out with ..',
    message: /hard link whose target contains "\.\."/,
    tar: (o) => [{ name: 'victim.txt', type: 'link', linkname: `${o.rel}/victim.txt` }],
  },
  {
    name: 'a hard link outside, then a file written through it',
    message: /hard link/,
    tar: (o) => [
      { name: 'v.txt', type: 'link', linkname: o.victim },
      { name: 'v.txt', content: 'pwned' },
    ],
  },
  {
    name: 'a hard link to a file the archive never held',
    message: /not a file or symlink extracted before it/,
    tar: () => [{ name: 'copy.html', type: 'link', linkname: 'missing.html' }],
  },
  {
    name: 'a character device',
    message: /device file/,
    tar: () => [{ name: 'null', type: 'character-device' }],
    zip: () => [{ name: 'null', mode: 0o020644 }],
  },
  {
    name: 'a block device',
    message: /device file/,
    tar: () => [{ name: 'sda', type: 'block-device' }],
    zip: () => [{ name: 'sda', mode: 0o060644 }],
  },
  {
    name: 'a fifo',
    message: /named pipe/,
    // A zip entry with a named pipe's mode is a file, as unzip writes it (test/unit/extraction).
    tar: () => [{ name: 'pipe', type: 'fifo' }],
  },
  {
    name: 'a duplicate entry replacing a directory with a link outside',
    message: /would replace a directory/,
    tar: (o) => [
      { name: 'assets/', type: 'directory' },
      { name: 'assets/app.js', content: 'x' },
      { name: 'assets', type: 'symlink', linkname: o.dir },
    ],
    zip: (o) => [
      { name: 'assets/', mode: 0o040755 },
      { name: 'assets/app.js', data: 'x' },
      { name: 'assets', data: o.dir, mode: SYMLINK },
    ],
  },
  {
    name: 'a duplicate entry replacing a file with a link',
    message: /would replace a file with a link/,
    tar: () => [
      { name: 'index.html', content: PAGE },
      { name: 'index.html', type: 'symlink', linkname: 'other.html' },
    ],
    zip: () => [
      { name: 'index.html', data: PAGE },
      { name: 'index.html', data: 'other.html', mode: SYMLINK },
    ],
  },
  {
    name: 'a duplicate entry replacing a link with a file',
    message: /would replace a symlink/,
    tar: () => [
      { name: 'index.html', content: PAGE },
      { name: 'page.html', type: 'symlink', linkname: 'index.html' },
      { name: 'page.html', content: 'written through the link' },
    ],
    zip: () => [
      { name: 'index.html', data: PAGE },
      { name: 'page.html', data: 'index.html', mode: SYMLINK },
      { name: 'page.html', data: 'written through the link' },
    ],
  },
  {
    name: 'a name with a NUL byte',
    message: /contains a NUL character|invalid characters/,
    // A pax path record carries its length, so the NUL is part of the name.
    tar: () => [{ name: 'index.html\u0000.evil', content: 'x', pax: { comment: 'x' } }],
    zip: () => [{ name: Buffer.from('index.html\u0000.evil'), data: 'x' }],
  },
  {
    name: 'a NUL byte hiding a ../ after it',
    message: /contains a NUL character|invalid characters|invalid relative path/,
    tar: (o) => [
      { name: `index.html\u0000${o.rel}/nul.html`, content: 'x', pax: { comment: 'x' } },
    ],
    zip: (o) => [{ name: Buffer.from(`index.html\u0000${o.rel}/nul.html`), data: 'x' }],
  },
  {
    name: 'a name with backslashes climbing out',
    message: /contains "\.\."/,
    tar: () => [{ name: '..\\..\\evil.html', content: 'x' }],
    zip: () => [{ name: '..\\..\\evil.html', data: 'x' }],
  },
  {
    name: 'a Windows drive path with backslashes',
    message: /backslash|absolute path|invalid characters/,
    tar: () => [{ name: 'C:\\evil.html', content: 'x' }],
    zip: () => [{ name: 'C:\\evil.html', data: 'x' }],
  },
  {
    name: 'a Windows drive path with slashes',
    message: /absolute path/,
    tar: () => [{ name: 'C:/evil.html', content: 'x' }],
    zip: () => [{ name: 'C:/evil.html', data: 'x' }],
  },
  {
    name: 'a ustar prefix field that climbs out',
    message: /contains "\.\."/,
    rawTar: (o) => [
      { name: 'index.html', data: PAGE },
      { name: 'prefix.html', prefix: o.rel, data: 'x' },
    ],
  },
  {
    name: 'a sparse map whose offset is not a number',
    message: /Invalid tar header/,
    rawTar: () => [
      { name: 'index.html', data: PAGE },
      {
        name: 'sparse.bin',
        type: 'S',
        data: 'data',
        edit: (header) => header.write('zz', 386, 'latin1'),
      },
    ],
  },
  {
    name: 'a size field in a base-256 form no tar reads',
    message: /Invalid tar header/,
    rawTar: () => [
      { name: 'index.html', data: PAGE },
      { name: 'big.bin', data: 'data', edit: (header) => (header[124] = 0xcd) },
    ],
  },
];

const archives = new Map<string, Buffer>();
let harness: Harness;
let domains = 0;
beforeAll(async () => {
  harness = await startHarness({
    jobDurationMs: 200,
    queuedMs: 50,
    archiveFor: (job) => archives.get(job.domain),
  });
});
afterAll(async () => {
  await harness.stop();
});

/** Serves `bytes` as the bundle of a domain of its own, so cases can run concurrently. */
function serve(bytes: Buffer): string {
  const domain = `a${(domains += 1)}.example.com`;
  archives.set(domain, bytes);
  return domain;
}

async function refused(
  bytes: Buffer,
  message: RegExp,
  inputs: Record<string, string> = {},
  outside?: Outside,
) {
  const domain = serve(bytes);
  const { workspace } = await workspaceWithSite();
  const run = await runCase(
    harness,
    { domain, path: 'site', 'poll-interval': '0.5s', ...inputs },
    { workspace },
  );
  expectOneClearError(run, message);
  await expectUntouched(run, workspace);
  if (outside) {
    expect(await fs.readdir(outside.dir)).toEqual(['victim.txt']);
    expect(await fs.readFile(outside.victim, 'utf8')).toBe(VICTIM);
  }
  for (const name of STRAY_NAMES) expect(existsSync(path.join(os.tmpdir(), name))).toBe(false);
  return run;
}

async function build(hostile: Hostile, format: Format, outside: Outside): Promise<Buffer> {
  if (format === 'zip') return rawZip((hostile.zip as (o: Outside) => RawZipEntry[])(outside));
  if (hostile.rawTar) {
    const tar = rawTar(hostile.rawTar(outside));
    return format === 'tar.gz' ? gzipSync(tar) : tar;
  }
  return tarOf((hostile.tar as (o: Outside) => TarEntrySpec[])(outside), format === 'tar.gz');
}

const REFUSED = 'exit 1, one line, nothing outside, path untouched';

describe.concurrent('hostile entries', () => {
  for (const hostile of HOSTILE) {
    const formats: Format[] = [
      ...(hostile.tar || hostile.rawTar ? (['tar', 'tar.gz'] as const) : []),
      ...(hostile.zip ? (['zip'] as const) : []),
    ];
    for (const format of formats) {
      const bug = hostile.bugs?.[format];
      (bug ? it.skip : it)(`${format}: ${hostile.name}`, row(REFUSED, bug), async () => {
        const outside = await makeOutside();
        await refused(await build(hostile, format, outside), hostile.message, {}, outside);
      });
    }
  }

  for (const format of ['tar', 'tar.gz'] as const) {
    it(
      `${format}: a ustar name field with bytes after its NUL`,
      row('read as "index.html" (a ustar name ends at NUL): that file only, nothing outside'),
      async () => {
        const outside = await makeOutside();
        const tar = rawTar([
          { name: Buffer.from(`index.html\u0000${outside.rel}/nul.html`), data: PAGE },
        ]);
        const domain = serve(format === 'tar.gz' ? gzipSync(tar) : tar);
        const { workspace } = await workspaceWithSite();
        const run = await runCase(
          harness,
          { domain, path: 'site', 'poll-interval': '0.5s' },
          { workspace },
        );
        expect(run.code, run.stdout).toBe(0);
        expect(await listTree(path.join(workspace, 'site'))).toEqual(['index.html']);
        expect(await fs.readdir(outside.dir)).toEqual(['victim.txt']);
        expect(await strayFiles(run.tempDir)).toEqual([]);
      },
    );
  }
});

describe.concurrent('decompression bombs', () => {
  // Past the 16MB ceiling of the first case, and little work for the cases that accept it.
  const zeros = Buffer.alloc(24 * 1024 * 1024);
  const bombs: Partial<Record<'tar.gz' | 'zip', Buffer>> = {};
  beforeAll(async () => {
    const entries = [
      { name: 'index.html', content: PAGE },
      { name: 'zeros.bin', content: zeros },
    ];
    bombs['tar.gz'] = await tarOf(entries);
    bombs.zip = await zipOf(entries);
  });

  for (const format of ['tar.gz', 'zip'] as const) {
    it(
      `${format}: 24 MiB of zeros (< 1 MiB compressed) past max-extract-size 16MB`,
      row('exit 1, one line naming max-extract-size, path untouched'),
      async () => {
        const bomb = bombs[format] as Buffer;
        expect(bomb.length).toBeLessThan(1024 * 1024);
        await refused(bomb, /expands to more than 16 MB \(raise `max-extract-size`/, {
          'max-extract-size': '16MB',
        });
      },
    );

    for (const [how, inputs] of [
      ['once max-extract-size is raised to 32MB', { 'max-extract-size': '32MB' }],
      ['under the default ceiling (20GB)', {}],
    ] as const) {
      it(
        `${format}: the same archive is accepted ${how}`,
        row('succeeds, 24 MiB file'),
        async () => {
          const domain = serve(bombs[format] as Buffer);
          const run = await runCase(harness, {
            domain,
            path: 'site',
            'poll-interval': '0.5s',
            ...inputs,
          });
          expect(run.code, run.stdout).toBe(0);
          expect((await fs.stat(path.join(run.workspace, 'site', 'zeros.bin'))).size).toBe(
            zeros.length,
          );
        },
      );
    }
  }

  const many = Array.from({ length: 300 }, (_, i) => ({ name: `p/${i}.html`, content: PAGE }));
  for (const format of ['tar', 'tar.gz', 'zip'] as const) {
    it(
      `${format}: 300 entries past max-extract-files 200`,
      row('exit 1, one line naming max-extract-files, path untouched'),
      async () => {
        const bytes = format === 'zip' ? await zipOf(many) : await tarOf(many, format === 'tar.gz');
        await refused(bytes, /more than 200\b.*raise `max-extract-files`/, {
          'max-extract-files': '200',
        });
      },
    );
  }

  it('tar.gz: the same 300 entries once max-extract-files is raised', row('succeeds'), async () => {
    const domain = serve(await tarOf(many));
    const run = await runCase(harness, {
      domain,
      path: 'site',
      'poll-interval': '0.5s',
      'max-extract-files': '400',
    });
    expect(run.code, run.stdout).toBe(0);
    expect(await listTree(path.join(run.workspace, 'site'))).toHaveLength(300);
  });

  it(
    'without the inputs, the limits are those action.yml documents: 20GB and 500000 entries',
    row('same limits from action.yml (the runner) and from the code (the CLI)'),
    () => {
      expect(ACTION_DEFAULTS['max-extract-size']).toBe('20GB');
      expect(ACTION_DEFAULTS['max-extract-files']).toBe('500000');
      const base = { 'api-key': 'mint_anykey0000000000', domain: 'docs.example.com' };
      const context = { workspace: os.tmpdir() };
      const documented = parseConfig(
        {
          ...base,
          'max-extract-size': ACTION_DEFAULTS['max-extract-size'],
          'max-extract-files': ACTION_DEFAULTS['max-extract-files'],
        },
        context,
      );
      const unset = parseConfig(base, context);
      expect(unset.command === 'export' && unset.limits).toEqual(
        documented.command === 'export' && documented.limits,
      );
      expect(unset.command === 'export' && unset.limits.maxEntries).toBe(500_000);
      expect(unset.command === 'export' && unset.limits.maxBytes).toBeGreaterThanOrEqual(20e9);
    },
  );
});

describe.concurrent('broken and foreign bodies', () => {
  const big = randomBytes(64 * 1024);
  const cases: [string, () => Promise<Buffer>, RegExp][] = [
    [
      'a truncated tar.gz',
      async () => (await tarOf([{ name: 'a.bin', content: big }])).subarray(0, 30_000),
      /truncated or corrupt/,
    ],
    [
      'a truncated tar',
      async () => (await tarOf([{ name: 'a.bin', content: big }], false)).subarray(0, 30_000),
      /truncated or corrupt/,
    ],
    [
      'a truncated zip',
      async () => (await zipOf([{ name: 'a.bin', content: big }])).subarray(0, 30_000),
      /zip archive/,
    ],
    [
      'an HTML error page served as the bundle',
      async () =>
        Buffer.from(
          '<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head></html>',
        ),
      /not an archive: the storage served an HTML page \("503 Service Unavailable"\)/,
    ],
    [
      'an S3 XML error served as the bundle',
      async () => Buffer.from('<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>'),
      /not an archive: .*XML error document \(AccessDenied\)/,
    ],
    [
      'a JSON document served as the bundle',
      async () => Buffer.from('{"error":"nope"}'),
      /not an archive: .*JSON document/,
    ],
    ['an empty body', async () => Buffer.alloc(0), /not an archive: .*empty body/],
    [
      'random bytes',
      async () => Buffer.alloc(4096, 'not an archive '),
      /not an archive: .*match no known archive format/,
    ],
    [
      'a gzip that holds an HTML page, not a tar',
      async () => gzipSync(Buffer.from(`<!doctype html>${'<p>error</p>'.repeat(100)}`)),
      /tar\.gz archive (is truncated or corrupt|could not be read)/,
    ],
  ];
  for (const [name, make, message] of cases) {
    it(name, row('exit 1, one line, path untouched'), async () => {
      await refused(await make(), message);
    });
  }
});

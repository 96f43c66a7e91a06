import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TarEntrySpec, tarOf, zipOf } from '../support/archives.js';
import { type Harness, startHarness } from '../support/action.js';
import { rawZip, type RawZipEntry } from '../support/raw-zip.js';
import { DEBUG, expectOneClearError, expectUntouched, workspaceWithSite } from './support.js';

/**
 * Hostile archives, generated here in tar, tar.gz and zip. Each must fail with one clear
 * line, write nothing outside the destination, and leave `path` as it was.
 */

type Format = 'tar' | 'tar.gz' | 'zip';
/** A place outside every destination; a case that wrote there would be caught. */
const OUTSIDE = path.join(os.tmpdir(), `sea-outside-${randomBytes(4).toString('hex')}`);
const PAGE = '<!doctype html><title>ok</title>';

interface HostileCase {
  name: string;
  message: RegExp;
  tar?: TarEntrySpec[];
  zip?: RawZipEntry[];
  inputs?: Record<string, string>;
}

const CASES: HostileCase[] = [
  {
    name: 'a ../ entry',
    message: /contains "\.\."|invalid relative path/,
    tar: [
      { name: 'index.html', content: PAGE },
      { name: `../../${path.basename(OUTSIDE)}-dotdot.html`, content: 'x' },
    ],
    zip: [
      { name: 'index.html', data: PAGE },
      { name: `../../${path.basename(OUTSIDE)}-dotdot.html`, data: 'x' },
    ],
  },
  {
    name: 'an absolute path',
    message: /absolute path/,
    tar: [{ name: `${OUTSIDE}/absolute.html`, content: 'x' }],
    zip: [{ name: `${OUTSIDE}/absolute.html`, data: 'x' }],
  },
  {
    name: 'a symlink pointing outside',
    message: /symlink to .*(outside the export|absolute path)/,
    tar: [{ name: 'assets', type: 'symlink', linkname: OUTSIDE }],
    zip: [{ name: 'assets', data: OUTSIDE, mode: 0o120777 }],
  },
  {
    name: 'a relative symlink climbing out',
    message: /outside the export/,
    tar: [{ name: 'docs/up', type: 'symlink', linkname: '../../..' }],
    zip: [{ name: 'docs/up', data: '../../..', mode: 0o120777 }],
  },
  {
    name: 'a symlink followed by a file written through it',
    message: /written through the symlink "assets"/,
    tar: [
      { name: 'assets', type: 'symlink', linkname: 'static' },
      { name: 'assets/app.js', content: 'x' },
    ],
    zip: [
      { name: 'assets', data: 'static', mode: 0o120777 },
      { name: 'assets/app.js', data: 'x' },
    ],
  },
  {
    name: 'a hard link to a file outside',
    message: /hard link/,
    tar: [{ name: 'passwd', type: 'link', linkname: '../../../../etc/passwd' }],
  },
  {
    name: 'a hard link to an absolute path',
    message: /hard link whose target has an absolute path/,
    tar: [{ name: 'passwd', type: 'link', linkname: '/etc/passwd' }],
  },
  {
    name: 'a character device',
    message: /device file/,
    tar: [{ name: 'null', type: 'character-device' }],
    zip: [{ name: 'null', mode: 0o020644 }],
  },
  {
    name: 'a block device',
    message: /device file/,
    tar: [{ name: 'sda', type: 'block-device' }],
    zip: [{ name: 'sda', mode: 0o060644 }],
  },
  {
    name: 'a fifo',
    message: /named pipe/,
    tar: [{ name: 'pipe', type: 'fifo' }],
    zip: [{ name: 'pipe', mode: 0o010644 }],
  },
  {
    name: 'a directory replaced by a link in a duplicate entry',
    message: /would replace a directory/,
    tar: [
      { name: 'assets/', type: 'directory' },
      { name: 'assets/app.js', content: 'x' },
      { name: 'assets', type: 'symlink', linkname: 'elsewhere' },
    ],
    zip: [
      { name: 'assets/', mode: 0o040755 },
      { name: 'assets/app.js', data: 'x' },
      { name: 'assets', data: 'elsewhere', mode: 0o120777 },
    ],
  },
  {
    name: 'a name with a NUL byte',
    message: /NUL|invalid characters/,
    tar: [{ name: 'index.html\u0000.evil', content: 'x', pax: { comment: 'nul in path' } }],
    zip: [{ name: Buffer.from('index.html\u0000.evil'), data: 'x' }],
  },
  {
    name: 'a name with backslashes climbing out',
    message: /backslash|invalid characters/,
    tar: [{ name: '..\\..\\evil.html', content: 'x' }],
    zip: [{ name: '..\\..\\evil.html', data: 'x' }],
  },
];

let harness: Harness;
let archive: Buffer = Buffer.alloc(0);
beforeAll(async () => {
  harness = await startHarness({ jobDurationMs: 200, queuedMs: 50, archiveFor: () => archive });
});
afterAll(async () => {
  await harness.stop();
});

async function refused(
  format: Format | 'body',
  bytes: Buffer,
  message: RegExp,
  inputs: Record<string, string> = {},
) {
  archive = bytes;
  const { workspace } = await workspaceWithSite();
  const before = new Set(await fs.readdir(os.tmpdir()));
  const run = await harness.run(
    { domain: 'docs.example.com', path: 'site', 'poll-interval': '0.5s', ...inputs },
    { workspace, env: DEBUG },
  );
  expectOneClearError(run, message);
  await expectUntouched(run, workspace);
  expect(existsSync(OUTSIDE), `${format}: something was written to ${OUTSIDE}`).toBe(false);
  const strays = (await fs.readdir(os.tmpdir())).filter(
    (name) => !before.has(name) && name.includes('sea-outside'),
  );
  expect(strays).toEqual([]);
  expect(existsSync('/etc/passwd.evil')).toBe(false);
}

describe('hostile archives', () => {
  for (const hostile of CASES) {
    const formats: Format[] = [
      ...(hostile.tar ? (['tar', 'tar.gz'] as const) : []),
      ...(hostile.zip ? (['zip'] as const) : []),
    ];
    for (const format of formats) {
      it(`${format}: ${hostile.name}`, async ({ task }) => {
        task.meta.expected = 'exit 1, one line, nothing outside, path untouched';
        const bytes =
          format === 'zip'
            ? rawZip(hostile.zip as RawZipEntry[])
            : await tarOf(hostile.tar as TarEntrySpec[], format === 'tar.gz');
        await refused(format, bytes, hostile.message, hostile.inputs);
      });
    }
  }
});

describe('decompression bombs', () => {
  const zeros = Buffer.alloc(64 * 1024 * 1024);
  let tgzBomb: Buffer;
  let zipBomb: Buffer;
  beforeAll(async () => {
    tgzBomb = await tarOf([
      { name: 'index.html', content: PAGE },
      { name: 'zeros.bin', content: zeros },
    ]);
    zipBomb = await zipOf([
      { name: 'index.html', content: PAGE },
      { name: 'zeros.bin', content: zeros },
    ]);
  });

  for (const format of ['tar.gz', 'zip'] as const) {
    it(`${format}: 64 MiB from ${format === 'zip' ? 'a small zip' : 'a small tar.gz'} is refused past max-extract-size 16MB`, async ({
      task,
    }) => {
      task.meta.expected = 'exit 1, one line, path untouched';
      const bytes = format === 'zip' ? zipBomb : tgzBomb;
      expect(bytes.length).toBeLessThan(1024 * 1024);
      await refused(format, bytes, /expands to more than 16 MB \(raise max-extract-size/, {
        'max-extract-size': '16MB',
      });
    });

    it(`${format}: the same archive is accepted once max-extract-size is raised`, async ({
      task,
    }) => {
      task.meta.expected = 'succeeds';
      archive = format === 'zip' ? zipBomb : tgzBomb;
      const run = await harness.run(
        {
          domain: 'docs.example.com',
          path: 'site',
          'poll-interval': '0.5s',
          'max-extract-size': '80MB',
        },
        { env: DEBUG },
      );
      expect(run.code, run.stdout).toBe(0);
      expect((await fs.stat(path.join(run.workspace, 'site', 'zeros.bin'))).size).toBe(
        zeros.length,
      );
    });

    it(`${format}: more entries than max-extract-files are refused`, async ({ task }) => {
      task.meta.expected = 'exit 1, one line, path untouched';
      const entries = Array.from({ length: 300 }, (_, i) => ({
        name: `p/${i}.html`,
        content: PAGE,
      }));
      const bytes = format === 'zip' ? await zipOf(entries) : await tarOf(entries);
      await refused(format, bytes, /more than 200\b/, { 'max-extract-files': '200' });
    });
  }

  it('the default ceilings are sane: 20 GB and 500000 entries', async ({ task }) => {
    task.meta.expected = 'documented defaults';
    const action = await fs.readFile(path.join(__dirname, '..', '..', 'action.yml'), 'utf8');
    expect(action).toMatch(/max-extract-size:[\s\S]*?default: 20GB/);
    expect(action).toMatch(/max-extract-files:[\s\S]*?default: ['"]500000['"]/);
  });
});

describe('broken and foreign bodies', () => {
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
  ];
  for (const [name, build, message] of cases) {
    it(name, async ({ task }) => {
      task.meta.expected = 'exit 1, one line, path untouched';
      await refused('body', await build(), message);
    });
  }
});

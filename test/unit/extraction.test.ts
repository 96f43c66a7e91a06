import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExtractLimits } from '../../src/config.js';
import { CancelledError, TimeoutError, UnsafeArchiveError } from '../../src/errors.js';
import { appleDouble, tarOf, type TarEntrySpec, zerosArchive, zipOf } from '../support/archives.js';
import { extractBuffer, GENEROUS, treeOf } from '../support/extract.js';
import { rawTar } from '../support/raw-tar.js';
import { rawZip } from '../support/raw-zip.js';

/**
 * Each defect of the extractor, reproduced with an archive built here and extracted in
 * process, as the action extracts while it downloads.
 */

let sandbox: string;
let root: string;
const VICTIM = 'must stay as it is';

beforeEach(async () => {
  sandbox = await fs.mkdtemp(path.join(os.tmpdir(), 'extraction-'));
  root = path.join(sandbox, 'site');
  await fs.writeFile(path.join(sandbox, 'victim.txt'), VICTIM);
});
afterEach(async () => {
  await fs.rm(sandbox, { recursive: true, force: true });
});

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const symlink = (name: string, linkname: string): TarEntrySpec => ({
  name,
  type: 'symlink',
  linkname,
});

async function refusedWith(archive: Buffer, message: RegExp, limits?: ExtractLimits) {
  const outcome = await extractBuffer(archive, root, limits);
  expect(outcome.ok, 'the archive should have been refused').toBe(false);
  if (outcome.ok) return;
  expect(outcome.error).toBeInstanceOf(UnsafeArchiveError);
  expect(outcome.error.message).toMatch(message);
  expect(outcome.error.message.length).toBeLessThan(500);
  // Nothing outside the destination: the sandbox holds the victim and the site only.
  expect((await fs.readdir(sandbox)).sort()).toEqual(['site', 'victim.txt']);
  expect(await fs.readFile(path.join(sandbox, 'victim.txt'), 'utf8')).toBe(VICTIM);
  return outcome.error;
}

async function extracted(archive: Buffer, limits?: ExtractLimits) {
  const outcome = await extractBuffer(archive, root, limits);
  if (!outcome.ok) throw outcome.error;
  return outcome.site;
}

describe('1. symlinks are judged where they really lead, through the links on disk', () => {
  const chain = (last: string) => [
    { name: 'a/', type: 'directory' as const },
    symlink('a/l0', '..'),
    ...Array.from({ length: 12 }, (_, i) => symlink(`a/l${i + 1}`, `l${i}/..`)),
    symlink('a/passwd.html', last),
  ];

  for (const format of ['tar', 'tar.gz'] as const) {
    it(`${format}: a chain of links that each look inside on paper is refused`, async () => {
      const archive = await tarOf(chain('l12/victim.txt'), format === 'tar.gz');
      await refusedWith(archive, /symlink "a\/l1" leads outside the export/);
    });
  }

  it('zip: the same chain is refused', async () => {
    const archive = rawZip([
      { name: 'a/', mode: 0o040755 },
      { name: 'a/l0', data: '..', mode: 0o120777 },
      ...Array.from({ length: 12 }, (_, i) => ({
        name: `a/l${i + 1}`,
        data: `l${i}/..`,
        mode: 0o120777,
      })),
      { name: 'a/passwd.html', data: 'l12/victim.txt', mode: 0o120777 },
    ]);
    await refusedWith(archive, /leads outside the export/);
  });

  it('a link that only leaves once a later link exists (b -> a/.., then a -> .)', async () => {
    await refusedWith(
      await tarOf([symlink('b', 'a/..'), symlink('a', '.')]),
      /symlink "b" leads outside/,
    );
  });

  it('a dangling link whose path climbs out through a link is refused', async () => {
    await refusedWith(
      await tarOf([
        { name: 'a/', type: 'directory' },
        symlink('a/up', '..'),
        symlink('a/x', 'up/../nothing'),
      ]),
      /symlink "a\/x" leads outside/,
    );
  });

  it('a loop of links is refused with a short message', async () => {
    await refusedWith(await tarOf([symlink('x', 'y'), symlink('y', 'x')]), /loop of symlinks/);
  });

  it('links that stay inside, also through other links, are kept as written', async () => {
    const site = await extracted(
      await tarOf([
        { name: 'assets/app.js', content: 'js' },
        symlink('static', 'assets'),
        symlink('docs/app.js', '../static/app.js'),
        symlink('docs/self', '../docs'),
        symlink('docs/dangling', 'later.html'),
      ]),
    );
    expect(await fs.readFile(path.join(root, 'docs', 'app.js'), 'utf8')).toBe('js');
    expect(await fs.readlink(path.join(root, 'docs', 'self'))).toBe('../docs');
    expect(site.contents.symlinks.map((l) => l.path)).toEqual([
      'docs/app.js',
      'docs/dangling',
      'docs/self',
      'static',
    ]);
  });

  it('no entry is ever written through a link, whatever the order', async () => {
    // The link exists on disk only once every file is written: a later file cannot use it.
    await refusedWith(
      await tarOf([
        { name: 'sub/', type: 'directory' },
        symlink('up', 'sub'),
        { name: 'up/victim.txt', content: 'pwned' },
      ]),
      /written through the symlink "up"/,
    );
  });
});

describe('3. a directory entry with a size field', () => {
  it('is extracted as GNU tar does (the size is ignored), without waiting forever', async () => {
    const inner = rawTar([{ name: 'smuggled.html', data: 'smuggled' }]).subarray(0, 1024);
    const archive = Buffer.concat([
      rawTar([{ name: 'dir/', type: '5', data: inner }]).subarray(0, 512),
      inner,
      rawTar([{ name: 'after.html', data: 'after' }]),
    ]);
    await extracted(archive);
    expect(await treeOf(root)).toEqual(['after.html', 'dir/', 'smuggled.html']);
  });
});

describe('4. path checks cost the length of the name', () => {
  it('a 64,000-component name is refused at once with a short message', async () => {
    const name = 'a/'.repeat(64_000) + 'x.html';
    // The name travels in a pax header either way; asking for one skips tar-stream's
    // ustar prefix split, which is quadratic in the name (the same bytes, in 2 ms).
    const archive = await tarOf([{ name, content: 'x', pax: {} }], true);
    const error = await refusedWith(archive, /has a name of 128006 bytes, longer than 4095/);
    expect(error?.message.length).toBeLessThan(300);
  });

  it('a component longer than NAME_MAX is refused', async () => {
    await refusedWith(
      await tarOf([{ name: `${'n'.repeat(300)}.html`, content: 'x' }]),
      /component of 305 bytes, longer than 255/,
    );
  });

  // That the time stays linear in the number of such files is measured against GNU tar by
  // `npm run bench -- --only extract-scaling` (up to 20,000 files 1,300 directories deep).
  it('files 1,000 directories deep are extracted', async () => {
    const deep = 'd/'.repeat(1000);
    const entries = Array.from({ length: 100 }, (_, i) => ({
      name: `${deep}f${i}`,
      content: `${i}`,
    }));
    const site = await extracted(await tarOf(entries));
    expect(site.files).toBe(100);
    expect(await fs.readFile(path.join(root, deep, 'f99'), 'utf8')).toBe('99');
  });
});

describe('5. bombs are refused before they fill the disk', () => {
  /** One deflate stream that every entry of the central directory points at. */
  function overlappingZip(count: number, size: number): Buffer {
    const compressed = deflateRawSync(Buffer.alloc(size));
    const crc = 0; // never checked: the overlap is refused first
    const name = Buffer.from('bomb0.bin');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const centrals: Buffer[] = [];
    for (let i = 0; i < count; i += 1) {
      const entryName = Buffer.from(`bomb${i}.bin`);
      const central = Buffer.alloc(46);
      central.writeUInt32LE(0x02014b50, 0);
      central.writeUInt16LE((3 << 8) | 20, 4);
      central.writeUInt16LE(20, 6);
      central.writeUInt16LE(8, 10);
      central.writeUInt32LE(crc, 16);
      central.writeUInt32LE(compressed.length, 20);
      central.writeUInt32LE(size, 24);
      central.writeUInt16LE(entryName.length, 28);
      central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
      central.writeUInt32LE(0, 42);
      centrals.push(central, entryName);
    }
    const directory = Buffer.concat(centrals);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(count, 8);
    end.writeUInt16LE(count, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(local.length + name.length + compressed.length, 16);
    return Buffer.concat([local, name, compressed, directory, end]);
  }

  it('zip: entries overlapping one stream are refused before a byte is written', async () => {
    await refusedWith(overlappingZip(15, 64 * 1024 * 1024), /entries overlap/);
    expect(await fs.readdir(root)).toEqual([]);
  });

  it('zip: more than max-extract-size in the central directory is refused before writing', async () => {
    const archive = await zipOf([
      { name: 'a.bin', content: Buffer.alloc(600_000) },
      { name: 'b.bin', content: Buffer.alloc(600_000) },
    ]);
    await refusedWith(archive, /expands to more than 1000 KB/, {
      ...GENEROUS,
      maxBytes: 1_024_000,
    });
    expect(await fs.readdir(root)).toEqual([]);
  });

  it('zip: more entries than max-extract-files is refused before writing', async () => {
    const archive = await zipOf(Array.from({ length: 30 }, (_, i) => ({ name: `p${i}.html` })));
    await refusedWith(archive, /more than 20 \(raise `max-extract-files`/, {
      ...GENEROUS,
      maxEntries: 20,
    });
    expect(await fs.readdir(root)).toEqual([]);
  });

  it('zip: past the ratio ceiling is refused before writing', async () => {
    const archive = await zipOf([{ name: 'zeros.bin', content: Buffer.alloc(8 * 1024 * 1024) }]);
    await refusedWith(archive, /more than 100 times its size .*max-extract-ratio/, {
      ...GENEROUS,
      maxRatio: 100,
      ratioFloorBytes: 1024 * 1024,
    });
    expect(await fs.readdir(root)).toEqual([]);
  });

  it('tar.gz: stops at the ceiling, never past it', async () => {
    const archive = await tarOf(
      Array.from({ length: 8 }, (_, i) => ({ name: `z${i}.bin`, content: Buffer.alloc(1 << 20) })),
    );
    await refusedWith(archive, /expands to more than 4\.0 MB/, { ...GENEROUS, maxBytes: 4 << 20 });
    let onDisk = 0;
    for (const name of await fs.readdir(root))
      onDisk += (await fs.stat(path.join(root, name))).size;
    expect(onDisk).toBeLessThanOrEqual(4 << 20);
  });

  it('tar.gz: a stream that expands more than the ratio allows is stopped', async () => {
    const archive = await tarOf([{ name: 'zeros.bin', content: Buffer.alloc(16 << 20) }]);
    expect(archive.length).toBeLessThan(100_000);
    await refusedWith(archive, /more than 100 times its size/, {
      ...GENEROUS,
      maxRatio: 100,
      ratioFloorBytes: 1 << 20,
    });
  });

  it('the same archives pass when the ratio ceiling is off or under its floor', async () => {
    const archive = await tarOf([{ name: 'zeros.bin', content: Buffer.alloc(16 << 20) }]);
    expect((await extracted(archive, { ...GENEROUS, maxRatio: 100 })).bytes).toBe(16 << 20);
  });

  for (const format of ['tar.gz', 'zip'] as const) {
    for (const [why, reason] of [
      ['the deadline', () => new TimeoutError('The step timed out')],
      ['a cancellation', () => new CancelledError('cancelled')],
    ] as const) {
      it(`${format}: ${why} interrupts extraction within a second`, async () => {
        // 256 MB of zeros: long enough to extract that the abort comes in the middle.
        const archive = zerosArchive(format, 'zeros.bin', 256 << 20);
        const controller = new AbortController();
        let aborted = 0;
        setTimeout(() => {
          aborted = Date.now();
          controller.abort(reason());
        }, 50);
        const outcome = await extractBuffer(archive, root, GENEROUS, {
          signal: controller.signal,
          chunk: 1 << 20,
        });
        expect(outcome.ok).toBe(false);
        if (!outcome.ok) expect(outcome.error).toBe(controller.signal.reason);
        expect(aborted).toBeGreaterThan(0);
        expect(Date.now() - aborted).toBeLessThan(1000);
      });
    }
  }

  it('zip: a cancellation interrupts an archive of many small entries within a second', async () => {
    // Small entries are read, inflated and written with synchronous calls: the extraction
    // must still let the event loop deliver the deadline's timer or a signal.
    // Deflated once and written byte by byte: yazl deflates each entry on the thread
    // pool, which took the test's whole 30 s on a busy 2-core machine.
    const page = Buffer.from('page');
    const deflated = { bytes: deflateRawSync(page), size: page.length, crc: crc32(page) };
    const archive = rawZip(
      Array.from({ length: 10_000 }, (_, i) => ({ name: `p/${i % 100}/${i}.html`, deflated })),
    );
    const controller = new AbortController();
    let aborted = 0;
    setTimeout(() => {
      aborted = Date.now();
      controller.abort(new CancelledError('cancelled'));
    }, 50);
    const outcome = await extractBuffer(archive, root, GENEROUS, { signal: controller.signal });
    expect(aborted).toBeGreaterThan(0);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toBe(controller.signal.reason);
    expect(Date.now() - aborted).toBeLessThan(1000);
  });
});

/** Clears the UTF-8 name flag of every header, as `zip -r` on Linux leaves it. */
function withoutUtf8Flag(archive: Buffer): Buffer {
  for (const [signature, flagAt] of [
    ['PK\u0003\u0004', 6],
    ['PK\u0001\u0002', 8],
  ] as const) {
    for (let at = archive.indexOf(signature); at >= 0; at = archive.indexOf(signature, at + 4))
      archive.writeUInt16LE(0, at + flagAt);
  }
  return archive;
}

describe('6. the content is what GNU tar and unzip write', () => {
  it('tar: names that are not UTF-8 (GNU tar, bsdtar from a Latin-1 tree) stay apart', async () => {
    // GNU tar writes these bytes as they are and extracts two files; decoded as UTF-8,
    // both would read "caf\uFFFD.html" and the second would silently replace the first.
    const latin1 = (text: string) => Buffer.from(text, 'latin1');
    const pax = (records: Buffer[]) => {
      const body = Buffer.concat(
        records.map((record) => {
          let length = record.length + 3;
          while (String(length).length + record.length + 2 !== length) length += 1;
          return Buffer.concat([Buffer.from(`${length} `), record, Buffer.from('\n')]);
        }),
      );
      return { name: 'PaxHeader', type: 'x', data: body };
    };
    const archive = rawTar([
      { name: 'index.html', data: 'i' },
      { name: latin1('caf\u00e9.html'), data: 'e-acute' },
      { name: latin1('caf\u00e8.html'), data: 'e-grave' },
      { name: 'über.html', data: 'utf-8' },
      // bsdtar: a pax path of raw bytes, with hdrcharset=BINARY.
      pax([
        Buffer.from('hdrcharset=BINARY'),
        Buffer.concat([Buffer.from('path='), latin1('na\u00efve.html')]),
      ]),
      { name: 'ignored', data: 'pax' },
      { name: latin1('l\u00e9'), type: '2', linkname: 'index.html' },
    ]);
    await extracted(archive);
    expect(await treeOf(root)).toEqual(
      [
        'über.html',
        'caf\u00e8.html',
        'caf\u00e9.html',
        'index.html',
        'l\u00e9',
        'na\u00efve.html',
      ].sort(),
    );
    expect(await fs.readFile(path.join(root, 'caf\u00e9.html'), 'utf8')).toBe('e-acute');
    expect(await fs.readFile(path.join(root, 'caf\u00e8.html'), 'utf8')).toBe('e-grave');
    expect(await fs.readFile(path.join(root, 'über.html'), 'utf8')).toBe('utf-8');
  });

  it('tar: a Latin-1 name inside a UTF-8 directory lands in that directory, as GNU tar puts it', async () => {
    const archive = rawTar([
      { name: 'über/index.html', data: 'index' },
      {
        name: Buffer.concat([Buffer.from('über/'), Buffer.from('caf\u00e9.html', 'latin1')]),
        data: 'e-acute',
      },
    ]);
    await extracted(archive);
    expect(await treeOf(root)).toEqual(['über/', 'über/caf\u00e9.html', 'über/index.html']);
  });

  it('zip: UTF-8 names without the UTF-8 flag (Info-ZIP on Unix) keep their letters', async () => {
    const archive = rawZip([
      { name: 'café.html', data: 'x' },
      { name: 'doc/naïve.html', data: 'y' },
    ]);
    await extracted(withoutUtf8Flag(archive));
    expect(await treeOf(root)).toEqual(['café.html', 'doc/', 'doc/naïve.html']);
  });

  it('zip: a name that is not UTF-8 and has no flag is read as code page 437', async () => {
    const archive = rawZip([
      { name: Buffer.from([0x63, 0x61, 0x66, 0x82, 0x2e, 0x68]), data: 'x' },
    ]);
    await extracted(withoutUtf8Flag(archive));
    expect(await treeOf(root)).toEqual(['café.h']);
  });

  it('zip: a name ending in a slash is a directory whatever its mode; a piped entry is a file', async () => {
    const archive = rawZip([
      // A file's mode on a directory entry, as some writers leave it: unzip makes a directory.
      { name: 'guides/', mode: 0o100644 },
      { name: 'guides/intro.html', data: 'intro' },
      // `… | zip out.zip -` stores the mode of its stdin, a named pipe: unzip writes a file.
      { name: 'notes.txt', data: 'from a pipe', mode: 0o010644 },
    ]);
    await extracted(archive);
    expect(await treeOf(root)).toEqual(['guides/', 'guides/intro.html', 'notes.txt']);
    expect(await fs.readFile(path.join(root, 'notes.txt'), 'utf8')).toBe('from a pipe');
  });

  it('zip: content longer than the central directory says is refused in those words', async () => {
    const text = Buffer.from('<!doctype html><title>longer than declared</title>');
    const archive = rawZip([
      { name: 'a.html', deflated: { bytes: deflateRawSync(text), size: 11, crc: 0 } },
    ]);
    await refusedWith(
      archive,
      /^Refusing to extract the archive: entry "a\.html" holds more bytes than its header declares\.$/,
    );
  });

  it('a hard link followed by a file of the link name keeps the original (as GNU tar)', async () => {
    const site = await extracted(
      await tarOf([
        { name: 'a.html', content: 'original' },
        { name: 'b.html', type: 'link', linkname: 'a.html' },
        { name: 'b.html', content: 'replacement' },
      ]),
    );
    expect(await fs.readFile(path.join(root, 'a.html'), 'utf8')).toBe('original');
    expect(await fs.readFile(path.join(root, 'b.html'), 'utf8')).toBe('replacement');
    expect([...site.contents.files].map((f) => [f.path, f.sha256])).toEqual([
      ['a.html', sha256('original')],
      ['b.html', sha256('replacement')],
    ]);
  });

  it('a volume label creates nothing; a dumpdir is a directory', async () => {
    await extracted(
      rawTar([
        { name: 'Backup volume 1', type: 'V' },
        { name: 'dump/', type: 'D', data: 'Yindex.html\0\0' },
        { name: 'dump/index.html', data: 'x' },
      ]),
    );
    expect(await treeOf(root)).toEqual(['dump/', 'dump/index.html']);
  });

  it('a continuation entry of a multi-volume archive is refused with the reason', async () => {
    await refusedWith(rawTar([{ name: 'part.bin', type: 'M', data: 'x' }]), /multi-volume/);
  });
});

describe('7. legitimate archives are accepted', () => {
  /** A tar header without the ustar magic, as v7 and pre-POSIX tars write it. */
  function v7(entries: { name: string; data?: string; type?: string }[]): Buffer {
    const archive = rawTar(entries);
    for (let block = 0; block < archive.length - 1024;) {
      const size = Number.parseInt(archive.toString('latin1', block + 124, block + 135), 8);
      archive.fill(0, block + 257, block + 265);
      if (archive[block + 156] === 0x30) archive[block + 156] = 0; // '\0': a regular file
      archive.fill(0x20, block + 148, block + 156);
      let sum = 0;
      for (let i = block; i < block + 512; i += 1) sum += archive[i] as number;
      archive.write(`${sum.toString(8).padStart(6, '0')}\0 `, block + 148, 'latin1');
      block += 512 + Math.ceil(size / 512) * 512;
    }
    return archive;
  }

  for (const compressed of [false, true]) {
    it(`a v7 tar${compressed ? '.gz' : ''} (no ustar magic) is extracted`, async () => {
      const archive = v7([
        { name: 'docs/', type: '5' },
        { name: 'docs/index.html', data: 'old' },
        { name: 'old-dir/', data: '' },
      ]);
      await extracted(compressed ? gzipSync(archive) : archive);
      expect(await treeOf(root)).toEqual(['docs/', 'docs/index.html', 'old-dir/']);
    });
  }

  it('size and mode fields are read however tar writers spell their numbers', async () => {
    const text = 'twenty bytes of text';
    const base256 = Buffer.alloc(12);
    base256[0] = 0x80;
    base256[11] = text.length;
    const sizes: [string, Buffer][] = [
      ['zero-padded, NUL-terminated', Buffer.from('00000000024\0', 'latin1')],
      ['left-aligned, NUL-padded', Buffer.from('24'.padEnd(12, '\0'), 'latin1')],
      ['space-padded, space-terminated', Buffer.from('24 '.padStart(12, ' '), 'latin1')],
      ['after NULs', Buffer.from('024'.padStart(12, '\0'), 'latin1')],
      ['base-256', base256],
    ];
    for (const [spelling, field] of sizes) {
      await fs.rm(root, { recursive: true, force: true });
      const archive = rawTar([
        { name: 'a.txt', data: text, edit: (header) => field.copy(header, 124) },
        { name: 'run.sh', data: '#!/bin/sh\n', edit: (header) => header.write('  755 \0\0', 100) },
        { name: 'b.txt', data: 'next' },
      ]);
      await extracted(archive);
      expect(await fs.readFile(path.join(root, 'a.txt'), 'utf8'), spelling).toBe(text);
      expect(await fs.readFile(path.join(root, 'b.txt'), 'utf8'), spelling).toBe('next');
      const mode = (await fs.stat(path.join(root, 'run.sh'))).mode;
      expect(mode & 0o111, spelling).not.toBe(0);
    }
  });

  it('bytes after the end-of-archive blocks are ignored', async () => {
    const archive = Buffer.concat([
      await tarOf([{ name: 'a.html', content: 'a' }], false),
      Buffer.from('junk after the end'),
    ]);
    await extracted(archive);
    expect(await treeOf(root)).toEqual(['a.html']);
  });

  it('cat a.tar b.tar yields a.tar only, as GNU tar does', async () => {
    const a = await tarOf([{ name: 'a.html', content: 'a' }], false);
    const b = await tarOf([{ name: 'b.html', content: 'b' }], false);
    await extracted(gzipSync(Buffer.concat([a, b])));
    expect(await treeOf(root)).toEqual(['a.html']);
  });

  it('cat a.tar b.tar yields a.tar only, however much of b.tar is still arriving', async () => {
    const a = await tarOf([{ name: 'a.html', content: 'a' }], false);
    const b = await tarOf([{ name: 'b.bin', content: randomBytes(6 * 1024 * 1024) }], false);
    await extracted(gzipSync(Buffer.concat([a, b])));
    expect(await treeOf(root)).toEqual(['a.html']);
  });

  for (const [method, name] of [
    [9, 'Deflate64'],
    [12, 'bzip2'],
  ] as const) {
    it(`zip: a ${name} entry is refused before writing, naming the method`, async () => {
      const archive = rawZip([
        { name: 'index.html', data: 'x' },
        { name: 'big.bin', data: 'y' },
      ]);
      const central = archive.lastIndexOf('PK\u0001\u0002');
      archive.writeUInt16LE(method, central + 10);
      await refusedWith(
        archive,
        new RegExp(`"big.bin" is compressed with ${name} \\(method ${method}\\)`),
      );
      expect(await fs.readdir(root)).toEqual([]);
    });
  }

  for (const delta of [-3, 5]) {
    it(`zip: an end-record comment length off by ${delta} is read as unzip reads it`, async () => {
      const archive = Buffer.concat([
        rawZip([{ name: 'index.html', data: 'x' }]),
        Buffer.from('comment'),
      ]);
      archive.writeUInt16LE(7 + delta, archive.lastIndexOf('PK\u0005\u0006') + 20);
      await extracted(archive);
      expect(await treeOf(root)).toEqual(['index.html']);
    });
  }

  for (const format of ['tar', 'zip made on Unix'] as const) {
    it(`${format}: a backslash is a character of the name, as GNU tar and unzip keep it; ..\\ is still refused`, async () => {
      const build = (name: string) =>
        format === 'tar' ? rawTar([{ name, data: 'x' }]) : rawZip([{ name, data: 'x' }]);
      await extracted(build('docs\\guides\\intro.html'));
      expect(await treeOf(root)).toEqual(['docs\\guides\\intro.html']);
      await fs.rm(root, { recursive: true });
      await refusedWith(build('docs\\..\\..\\victim.txt'), /contains "\.\." between backslashes/);
      await refusedWith(build('docs/..\\victim.txt'), /contains "\.\." between backslashes/);
      await refusedWith(build('\\victim.txt'), /has an absolute path/);
      await refusedWith(build('C:\\victim.txt'), /has an absolute path/);
      expect(await fs.readFile(path.join(sandbox, 'victim.txt'), 'utf8')).toBe(VICTIM);
    });
  }

  for (const [host, madeBy] of [
    ['MS-DOS', 0],
    ['NTFS', 11],
    ['VFAT', 14],
  ] as const) {
    it(`zip made on ${host}: backslash separators become directories, as unzip reads them; ..\\ is still refused`, async () => {
      const build = (name: string) => rawZip([{ name, data: 'x', madeBy }]);
      await extracted(build('docs\\guides\\intro.html'));
      expect(await treeOf(root)).toEqual(['docs/', 'docs/guides/', 'docs/guides/intro.html']);
      await fs.rm(root, { recursive: true });
      await extracted(rawZip([{ name: 'empty\\', madeBy }]));
      expect(await treeOf(root)).toEqual(['empty/']);
      await fs.rm(root, { recursive: true });
      // A name with a slash was written with slashes: its backslash is a character.
      await extracted(build('mixed/a\\b.html'));
      expect(await treeOf(root)).toEqual(['mixed/', 'mixed/a\\b.html']);
      await fs.rm(root, { recursive: true });
      await refusedWith(build('docs\\..\\..\\victim.txt'), /contains "\.\."/);
      await refusedWith(build('\\victim.txt'), /has an absolute path/);
      expect(await fs.readFile(path.join(sandbox, 'victim.txt'), 'utf8')).toBe(VICTIM);
    });
  }
});

describe('a tar.gz of many megabytes, as it arrives from the network', () => {
  it('lands byte for byte, whatever the size of the chunks', async () => {
    // Random bytes do not compress: the decompressor reads each megabyte of input anew.
    const files = Array.from({ length: 7 }, (_, i) => ({
      name: `assets/${i}.bin`,
      content: randomBytes(i % 2 ? 1536 * 1024 : 600 * 1024 + i),
    }));
    const archive = await tarOf(files);
    expect(archive.length).toBeGreaterThan(6 * 1024 * 1024);
    for (const chunk of [64 * 1024, 1000 * 1000, 3 * 1024 * 1024 + 1]) {
      await fs.rm(root, { recursive: true, force: true });
      const outcome = await extractBuffer(archive, root, GENEROUS, { chunk });
      if (!outcome.ok) throw outcome.error;
      for (const file of files) {
        expect(
          sha256(await fs.readFile(path.join(root, file.name))),
          `${file.name}, ${chunk}`,
        ).toBe(sha256(file.content));
      }
    }
  });
});

describe('the recorded contents of a large site (hashed on a worker thread)', () => {
  it('match the bytes on disk, for tar.gz and zip, sparse files and hard links included', async () => {
    // Each file its own random block, repeated: distinct bytes that compress in no time.
    const files = Array.from({ length: 24 }, (_, i) => ({
      name: `assets/${i}.bin`,
      content: Buffer.alloc(i % 2 ? 1536 * 1024 : 700 * 1024, randomBytes(16 * 1024)),
    }));
    const pages = Array.from({ length: 500 }, (_, i) => ({
      name: `p/${i}.html`,
      content: `page ${i}`,
    }));
    for (const [format, archive] of [
      [
        'tar.gz',
        await tarOf([
          ...files,
          ...pages,
          { name: 'copy.bin', type: 'link', linkname: 'assets/3.bin' },
          { name: 'assets/3.bin', content: 'rewritten after the link' },
        ]),
      ],
      ['zip', await zipOf([...files, ...pages])],
    ] as const) {
      await fs.rm(root, { recursive: true, force: true });
      const site = await extracted(archive);
      const files = [...site.contents.files];
      const onDisk = await Promise.all(
        files.map(async (f) => sha256(await fs.readFile(path.join(root, f.path)))),
      );
      expect(
        files.map((f) => f.sha256),
        format,
      ).toEqual(onDisk);
      expect(files).toHaveLength(format === 'zip' ? 524 : 525);
      expect(site.bytes).toBeGreaterThan(16 * 1024 * 1024);
    }
  });
});

describe("the manifest's name at the site's root", () => {
  const archives = {
    tar: (names: string[]) =>
      tarOf(
        names.map((name) => ({ name, content: name })),
        false,
      ),
    'tar.gz': (names: string[]) => tarOf(names.map((name) => ({ name, content: name }))),
    zip: (names: string[]) => zipOf(names.map((name) => ({ name, content: name }))),
  };
  for (const [format, archiveOf] of Object.entries(archives)) {
    it(`${format}: an entry there is refused at once, as a file or as a directory`, async () => {
      for (const name of [
        '.static-export.json',
        '.static-export.json/page.html',
        './.static-export.json',
        '.Static-Export.JSON',
      ]) {
        await fs.rm(root, { recursive: true, force: true });
        const archive = await archiveOf(['index.html', name, 'later.html']);
        await refusedWith(archive, /lies at \.static-export\.json in the site's root/);
        // Nothing after it is written: the archive stops there, not at its end.
        expect(await fs.readdir(root).catch(() => [])).not.toContain('later.html');
      }
    });
  }

  it('deeper in the site, the name is an ordinary file', async () => {
    const site = await extracted(await tarOf([{ name: 'api/.static-export.json', content: '{}' }]));
    expect(site.files).toBe(1);
    expect(await fs.readFile(path.join(root, 'api/.static-export.json'), 'utf8')).toBe('{}');
  });
});

describe('a hard link to a symlink', () => {
  it('is made as a symlink with the same target, and checked on disk from where it is', async () => {
    const inside = rawTar([
      { name: 'v2/intro.html', data: 'intro' },
      { name: 'v2/index.html', type: '2', linkname: 'intro.html' },
      { name: 'latest/index.html', type: '1', linkname: 'v2/index.html' },
    ]);
    const outcome = await extractBuffer(inside, root);
    if (!outcome.ok) throw outcome.error;
    expect(await fs.readlink(path.join(root, 'latest', 'index.html'))).toBe('intro.html');
    expect(await treeOf(root)).toEqual([
      'latest/',
      'latest/index.html',
      'v2/',
      'v2/index.html',
      'v2/intro.html',
    ]);

    // Written through, the link is refused as any symlink is.
    await fs.rm(root, { recursive: true, force: true });
    const through = rawTar([
      { name: 'l0', type: '2', linkname: '.' },
      { name: 'x/l1', type: '1', linkname: 'l0' },
      { name: 'x/l1/victim.txt', data: 'x' },
    ]);
    const refused = await extractBuffer(through, root);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/written through the symlink "x\/l1"/);
    await fs.rm(root, { recursive: true, force: true });
    // `a/b/c/l1 -> ../l0/..` is a/b from where it is; at x/l1 it goes through `l0 -> .`
    // and then up out of the root: each harmless on paper, caught on disk.
    const outside = rawTar([
      { name: 'l0', type: '2', linkname: '.' },
      { name: 'a/b/c/l1', type: '2', linkname: '../l0/..' },
      { name: 'x/l1', type: '1', linkname: 'a/b/c/l1' },
    ]);
    const out = await extractBuffer(outside, root);
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.error.message).toBe(
        'Refusing to extract the archive: the symlink "x/l1" leads outside the export once the links it goes through are followed.',
      );
    }
  });
});

describe('macOS metadata (AppleDouble) is left out through the same checks', () => {
  const BIG = 3 * 1024 * 1024;
  const archives = {
    'tar.gz': (entries: { name: string; content: Buffer | string }[]) => tarOf(entries),
    zip: (entries: { name: string; content: Buffer | string }[]) => zipOf(entries),
  };

  for (const [format, archiveOf] of Object.entries(archives)) {
    it(`${format}: a companion past the size of a small file is left out; a ._ file of other bytes stays`, async () => {
      const other = randomBytes(BIG);
      const site = await extracted(
        await archiveOf([
          { name: '._video.mp4', content: appleDouble(BIG) },
          { name: 'video.mp4', content: 'mp4' },
          { name: '._data.bin', content: other },
          { name: '._tiny', content: '\u0000\u0005' },
        ]),
      );
      expect(await treeOf(root)).toEqual(['._data.bin', '._tiny', 'video.mp4']);
      expect(sha256(await fs.readFile(path.join(root, '._data.bin')))).toBe(sha256(other));
      expect(site).toMatchObject({ files: 3, bytes: BIG + 5, macMetadata: 1 });
    });

    it(`${format}: __MACOSX/../x and ../._x are refused as unsafe, not left out`, async () => {
      for (const name of ['__MACOSX/../x.html', '__MACOSX/a/../../x', '../._x.html']) {
        await fs.rm(root, { recursive: true, force: true });
        const entries = [
          { name: 'index.html', data: 'home' },
          { name, data: appleDouble() },
        ];
        const archive =
          format === 'zip'
            ? rawZip(entries)
            : await tarOf(entries.map(({ name, data }) => ({ name, content: data })));
        await refusedWith(archive, /contains "\.\."/);
      }
    });

    it(`${format}: what it left out still counts against max-extract-size`, async () => {
      const archive = await archiveOf([
        { name: 'index.html', content: 'home' },
        { name: '__MACOSX/._index.html', content: appleDouble(20_000) },
      ]);
      await refusedWith(archive, /expands to more than/, { ...GENEROUS, maxBytes: 10_000 });
    });
  }

  it('tar: the magic is read across chunks however the bytes arrive', async () => {
    const archive = await tarOf(
      [
        { name: 'guide/', type: 'directory' },
        { name: 'guide/._intro.html', content: appleDouble(700) },
        { name: 'guide/intro.html', content: '<p>intro</p>' },
        { name: 'guide/._real.html', content: '<p>real</p>' },
      ],
      false,
    );
    const outcome = await extractBuffer(archive, root, GENEROUS, { chunk: 3 });
    if (!outcome.ok) throw outcome.error;
    expect(await treeOf(root)).toEqual(['guide/', 'guide/._real.html', 'guide/intro.html']);
    expect(await fs.readFile(path.join(root, 'guide/._real.html'), 'utf8')).toBe('<p>real</p>');
    expect(outcome.site.macMetadata).toBe(1);
  });

  it('a link in __MACOSX/ is no metadata: it is checked, and refused when it leads out', async () => {
    await refusedWith(
      await tarOf([symlink('__MACOSX/._index.html', '/etc/passwd')]),
      /symlink to the absolute path "\/etc\/passwd"/,
    );
  });
});

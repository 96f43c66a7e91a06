import { describe, expect, it } from 'vitest';
import { type ArchiveEntry, EntryGuard } from '../../src/deliver/archive/entries.js';
import { detectFormat, describeNonArchive, refusalOf } from '../../src/deliver/archive/format.js';
import { UnsafeArchiveError } from '../../src/errors.js';

const limits = { maxBytes: 10_000, maxEntries: 10 };
const file = (name: string, size = 1): ArchiveEntry => ({ name, kind: 'file', size });

function plan(entries: ArchiveEntry[], custom = limits) {
  const guard = new EntryGuard('/dest', custom);
  return entries.map((entry) => guard.plan(entry));
}

describe('EntryGuard', () => {
  it('places ordinary entries under the root, normalized', () => {
    const [dir, page, nested] = plan([
      { name: './guides/', kind: 'directory', size: 0 },
      file('./guides/intro.html'),
      file('assets//img/./logo.png'),
    ]);
    expect(dir).toMatchObject({ kind: 'directory', relative: 'guides', absolute: '/dest/guides' });
    expect(page).toMatchObject({ kind: 'file', relative: 'guides/intro.html', mode: 0o644 });
    expect(nested?.relative).toBe('assets/img/logo.png');
  });

  it('skips the root directory entry itself', () => {
    expect(plan([{ name: './', kind: 'directory', size: 0 }])).toEqual([undefined]);
  });

  it('keeps the executable bit but never setuid/setgid', () => {
    const [script] = plan([{ ...file('run.sh'), mode: 0o4755 }]);
    expect(script?.mode).toBe(0o755);
  });

  it.each([
    [[file('../evil')], /contains "\.\."/],
    [[file('a/../../evil')], /contains "\.\."/],
    [[file('/etc/passwd')], /absolute path/],
    [[file('C:/Windows/evil')], /absolute path/],
    [[file('..\\evil')], /contains "\.\."/],
    [[file('ok\u0000.html')], /NUL/],
    [[{ name: 'dev', kind: 'device', size: 0 }], /device/],
    [[{ name: 'pipe', kind: 'fifo', size: 0 }], /fifo/],
    [[{ name: 'x', kind: 'unknown', size: 0 }], /entry type/],
    [[{ name: 'up', kind: 'symlink', size: 0, linkTarget: '../outside' }], /outside the export/],
    [[{ name: 'a/b/up', kind: 'symlink', size: 0, linkTarget: '../../..' }], /outside the export/],
    [[{ name: 'abs', kind: 'symlink', size: 0, linkTarget: '/etc' }], /absolute path/],
    [
      [{ name: 'link', kind: 'symlink', size: 0, linkTarget: 'sub' }, file('link/file.html')],
      /through the symlink "link"/,
    ],
    [
      [{ name: 'link', kind: 'symlink', size: 0, linkTarget: 'x' }, file('link')],
      /replace a symlink/,
    ],
    [
      [
        { name: 'dir/', kind: 'directory', size: 0 },
        { name: 'dir', kind: 'symlink', size: 0, linkTarget: '.' },
      ],
      /replace a directory/,
    ],
    [[file('page.html'), file('page.html/x')], /is a file/],
    [
      [{ name: 'hard', kind: 'hardlink', size: 0, linkTarget: '../../etc/passwd' }],
      /hard link whose target contains/,
    ],
    [
      [{ name: 'hard', kind: 'hardlink', size: 0, linkTarget: 'missing.html' }],
      /not a file or symlink extracted before/,
    ],
  ] as [ArchiveEntry[], RegExp][])('refuses %j', (entries, message) => {
    expect(() => plan(entries)).toThrow(UnsafeArchiveError);
    expect(() => plan(entries)).toThrow(message);
  });

  it('allows symlinks and hard links that stay inside', () => {
    const planned = plan([
      file('assets/app.js'),
      { name: 'js', kind: 'symlink', size: 0, linkTarget: 'assets' },
      { name: 'guides/app.js', kind: 'symlink', size: 0, linkTarget: '../assets/app.js' },
      { name: 'copy.js', kind: 'hardlink', size: 0, linkTarget: 'assets/app.js' },
    ]);
    expect(planned.map((p) => p?.kind)).toEqual(['file', 'symlink', 'symlink', 'hardlink']);
    expect(planned[3]?.linkSource).toBe('/dest/assets/app.js');
  });

  it('plans a hard link to a symlink as a symlink with the same target, checked from its own place', () => {
    const symlink = (name: string, linkTarget: string): ArchiveEntry => ({
      name,
      kind: 'symlink',
      size: 0,
      linkTarget,
    });
    const hardlink = (name: string, linkTarget: string): ArchiveEntry => ({
      name,
      kind: 'hardlink',
      size: 0,
      linkTarget,
    });
    const planned = plan([
      file('v2/intro.html'),
      symlink('v2/index.html', 'intro.html'),
      hardlink('latest/index.html', 'v2/index.html'),
      // A hard link to that link is one to the symlink too.
      hardlink('old/index.html', './latest/index.html'),
      // GNU tar's link of an entry to itself keeps it.
      hardlink('v2/index.html', 'v2/index.html'),
    ]);
    expect(planned.map((p) => p && [p.kind, p.relative, p.linkTarget, p.linkSource])).toEqual([
      ['file', 'v2/intro.html', undefined, undefined],
      ['symlink', 'v2/index.html', 'intro.html', undefined],
      ['symlink', 'latest/index.html', 'intro.html', undefined],
      ['symlink', 'old/index.html', 'intro.html', undefined],
      undefined,
    ]);
    // Inside from docs/v2 (docs/page.html), outside from the root.
    expect(() =>
      plan([
        file('docs/page.html'),
        symlink('docs/v2/up', '../page.html'),
        hardlink('up', 'docs/v2/up'),
      ]),
    ).toThrow(
      'Refusing to extract the archive: entry "up" is a hard link to the symlink "docs/v2/up", so a symlink here, to "../page.html", outside the export.',
    );
    // A symlink never replaces a file, whichever way it comes.
    expect(() =>
      plan([file('a.html'), symlink('l', 'a.html'), file('b.html'), hardlink('b.html', 'l')]),
    ).toThrow(/entry "b.html" would replace a file with a link or directory/);
    // Nothing is written through it either.
    expect(() => plan([symlink('l', '.'), hardlink('m', 'l'), file('m/x.html')])).toThrow(
      /would be written through the symlink "m"/,
    );
  });

  it('refuses symlinks whose targets would hold more than 16 MB until they are made', () => {
    const guard = new EntryGuard('/dest', { maxBytes: 10_000, maxEntries: 1e6 });
    const target = 'x'.repeat(4000);
    const link = (i: number): ArchiveEntry => ({
      name: `l${String(i).padStart(4, '0')}`,
      kind: 'symlink',
      size: 0,
      linkTarget: target,
    });
    let planned = 0;
    expect(() => {
      for (; planned < 10_000; planned += 1) guard.plan(link(planned));
    }).toThrow(/symlinks' targets and names total more than 16/);
    // 4,000 + 5 code units a link: the one that crosses 16 MiB is refused, not before.
    expect(planned).toBe(Math.floor((16 * 1024 * 1024) / 4005));
  });

  it('refuses archives past the entry and byte ceilings', () => {
    expect(() => plan(Array.from({ length: 11 }, (_, i) => file(`f${i}`)))).toThrow(
      /more than 10 entries/,
    );
    expect(() => plan([file('a', 6000), file('b', 6000)])).toThrow(/expands to more than/);
  });
});

describe('detectFormat', () => {
  it('reads the format from the bytes', () => {
    expect(detectFormat(Buffer.from([0x1f, 0x8b, 8, 0]))).toBe('tar.gz');
    expect(detectFormat(Buffer.from('PK\u0003\u0004rest'))).toBe('zip');
    const tar = Buffer.alloc(512);
    tar.write('ustar', 257, 'latin1');
    expect(detectFormat(tar)).toBe('tar');
    expect(detectFormat(Buffer.from('<html><title>502 Bad Gateway</title>'))).toBeUndefined();
  });

  it('describes what is not an archive', () => {
    expect(
      describeNonArchive(Buffer.from('<!DOCTYPE html><html><head><title>Sign in</title>')),
    ).toBe('an HTML page ("Sign in")');
    expect(
      describeNonArchive(Buffer.from('<?xml version="1.0"?><Error><Code>AccessDenied</Code>')),
    ).toMatch(/AccessDenied/);
    expect(describeNonArchive(Buffer.alloc(0))).toBe('an empty body');
  });

  it('reads an all-zero first block as an empty tar, and fewer zeros as no archive', () => {
    expect(detectFormat(Buffer.alloc(512))).toBe('tar');
    expect(detectFormat(Buffer.alloc(511))).toBeUndefined();
    const junk = Buffer.alloc(512);
    junk[511] = 1;
    expect(detectFormat(junk)).toBeUndefined();
  });

  it('names the archive formats it does not extract by their signatures', () => {
    const head = (hex: string) => Buffer.concat([Buffer.from(hex, 'hex'), Buffer.alloc(500, 7)]);
    for (const [hex, name] of [
      ['fd377a585a0000', 'an xz-compressed archive'],
      ['425a6839314159265359', 'a bzip2-compressed archive'],
      ['425a6839177245385090', 'a bzip2-compressed archive'],
      ['28b52ffd', 'a Zstandard-compressed archive'],
      ['377abcaf271c0004', 'a 7-Zip archive'],
    ] as const) {
      expect(detectFormat(head(hex))).toBeUndefined();
      expect(refusalOf(head(hex))).toBe(
        `The bundle cannot be extracted: the storage served ${name}, which this action does not extract (it extracts tar, tar.gz and zip).`,
      );
    }
    // Text that happens to start like bzip2's magic is still no archive.
    expect(refusalOf(Buffer.from('BZh9 is not a bzip2 stream'))).toMatch(/not an archive/);
  });
});

/**
 * The Helm values file read by libyaml (Debian's python3-yaml), the C implementation of
 * YAML 1.1 that go-yaml, Helm's reader, was ported from: each field must read back as
 * written, with no other field, whatever characters the release version, the bundle link
 * and the job id (in a comment) hold.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderHelmValues } from '../../src/deliver/helm.js';

const CI = process.env.CI === 'true';
/** Debian's Python, which python3-yaml is for; another on the PATH may lack it. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const probe = spawnSync(PYTHON, ['-c', 'import yaml; assert yaml.__with_libyaml__'], {
  encoding: 'utf8',
});
const libyaml = probe.status === 0;
if (!libyaml && !CI) console.log('Skipping the Helm values test: no python3-yaml with libyaml.');

/**
 * Reads each YAML text with libyaml's safe loader, from the UTF-8 bytes a file of it holds:
 * the value, or the error it gives.
 */
function readWithLibyaml(texts: readonly string[]): ({ value: unknown } | { error: string })[] {
  const script = [
    'import base64, json, sys, yaml',
    'out = []',
    'for data in json.load(sys.stdin):',
    '    try: out.append({"value": yaml.load(base64.b64decode(data), Loader=yaml.CSafeLoader)})',
    '    except yaml.YAMLError as e: out.append({"error": str(e).splitlines()[0]})',
    'json.dump(out, sys.stdout)',
  ].join('\n');
  const run = spawnSync(PYTHON, ['-c', script], {
    input: JSON.stringify(texts.map((text) => Buffer.from(text).toString('base64'))),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as ({ value: unknown } | { error: string })[];
}

/** A seeded generator (mulberry32), so a failure names a case that comes back. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Where YAML readers and JSON writers part ways: controls, breaks, non-characters, surrogates. */
const RANGES: [number, number][] = [
  [0x20, 0x7e],
  [0x00, 0x1f],
  [0x7f, 0x9f],
  [0x2028, 0x2029],
  [0xfeff, 0xfeff],
  [0xfffe, 0xffff],
  [0xd800, 0xdfff],
  [0xa0, 0xd7ff],
  [0x10000, 0x10ffff],
];

function randomText(next: () => number): string {
  let text = '';
  for (let i = Math.floor(next() * 12); i > 0; i -= 1) {
    const [low, high] = RANGES[Math.floor(next() * RANGES.length)] as [number, number];
    const code = low + Math.floor(next() * (high - low + 1));
    text += code > 0xffff ? String.fromCodePoint(code) : String.fromCharCode(code);
  }
  return text;
}

/** What a UTF-8 file can hold of a string: a lone surrogate is U+FFFD there. */
const wellFormed = (text: string) =>
  text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

describe.skipIf(!libyaml && !CI)('the Helm values file, read by libyaml (YAML 1.1)', () => {
  it('reads back every field as written, and nothing else, for any characters', () => {
    const next = random(20261128);
    const cases = [
      { version: 'v1\ufffe', bundleUrl: 'https://s.example.com/b', jobId: 'se_\uffff' },
      { version: 'v1\ud800', bundleUrl: 'https://s.example.com/\udc00', jobId: 'se_1' },
      { version: 'v1\u0085x\u2028y', bundleUrl: 'https://s.example.com/b', jobId: 'se\u2029x: 1' },
      { version: 'v1\u007f\u009b\u0000\t"\\', bundleUrl: 'https://s.example.com/b', jobId: 'se_1' },
      ...Array.from({ length: 3000 }, () => ({
        version: randomText(next),
        bundleUrl: `https://s.example.com/${randomText(next)}`,
        jobId: randomText(next),
      })),
    ];
    const texts = cases.map((fields) =>
      renderHelmValues({
        ...fields,
        domain: 'docs.example.com',
        expiresAt: new Date('2026-11-28T12:00:00Z'),
      }),
    );
    const read = readWithLibyaml(texts);
    const wrong = cases.flatMap((fields, i) => {
      const expected = {
        value: {
          staticExport: {
            enabled: true,
            bundleUrl: wellFormed(fields.bundleUrl),
            version: wellFormed(fields.version),
          },
        },
      };
      return JSON.stringify(read[i]) === JSON.stringify(expected)
        ? []
        : [{ case: i, fields, read: read[i] }];
    });
    expect(wrong.slice(0, 3)).toEqual([]);
  });
});

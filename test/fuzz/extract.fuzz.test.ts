import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { deliverBundle } from '../../src/deliver/deliver.js';
import { ActionError } from '../../src/errors.js';
import { appleDouble, tarOf, zipOf } from '../support/archives.js';
import { generator, type Rng } from '../support/random.js';
import { rawTar } from '../support/raw-tar.js';
import { recordingReporter } from '../support/recording-reporter.js';

/**
 * Mutated tar, tar.gz and zip archives, delivered as the action delivers them (download,
 * extract into a staging directory, rename into place). For each: no error that is not
 * one of ours, nothing written outside the destination, no link in the result leading
 * out, no hang past the deadline, nothing left in staging or the temp directory.
 *
 * FUZZ_SECONDS bounds the run (60 s by default; `npm run fuzz` runs 600), FUZZ_SEED fixes
 * the sequence, so a failure is replayed by running the same seed again.
 */

const SECONDS = Number(process.env.FUZZ_SECONDS ?? 60);
const SEED = Number(process.env.FUZZ_SEED ?? 13);
/** Each case's deadline, as the step's `timeout` would impose it. */
const CASE_DEADLINE_MS = 5000;

const INTERESTING = [
  0, 0x2f, 0x2e, 0x5c, 0x30, 0x31, 0x32, 0x35, 0x37, 0x53, 0x4c, 0x78, 0xff, 0x80,
];

/** Byte-level mutations; for tar, sometimes a header field, with its checksum fixed. */
function mutate(seed: Buffer, rng: Rng, tar: boolean): Buffer {
  let data = Buffer.from(seed);
  const rounds = 1 + rng.int(4);
  for (let r = 0; r < rounds; r += 1) {
    const choice = rng.int(tar ? 7 : 6);
    const at = rng.int(Math.max(1, data.length));
    if (choice === 0) data[at] = rng.int(256);
    else if (choice === 1) data[at] = INTERESTING[rng.int(INTERESTING.length)] as number;
    else if (choice === 2) data = data.subarray(0, at);
    else if (choice === 3) {
      const from = rng.int(data.length);
      const length = rng.int(1024);
      data = Buffer.concat([
        data.subarray(0, at),
        data.subarray(from, from + length),
        data.subarray(at),
      ]);
    } else if (choice === 4) {
      if (data.length < 4) continue;
      data.writeUInt32LE(
        rng.next() < 0.5 ? 0xffffffff : rng.int(2 ** 32),
        Math.min(at, data.length - 4),
      );
    } else if (choice === 5) data = Buffer.concat([data, data.subarray(0, rng.int(data.length))]);
    else {
      const block = Math.floor(rng.int(Math.max(1, data.length)) / 512) * 512;
      if (block + 512 > data.length) continue;
      const field = rng.int(512);
      data[block + field] =
        rng.next() < 0.5 ? (INTERESTING[rng.int(INTERESTING.length)] as number) : rng.int(256);
      fixChecksum(data, block);
    }
  }
  return data;
}

function fixChecksum(data: Buffer, block: number): void {
  data.fill(0x20, block + 148, block + 156);
  let sum = 0;
  for (let i = block; i < block + 512; i += 1) sum += data[i] as number;
  data.write(`${sum.toString(8).padStart(6, '0')}\0 `, block + 148, 'latin1');
}

interface Seed {
  name: string;
  format: 'tar' | 'tar.gz' | 'zip';
  bytes: Buffer;
}

async function seeds(): Promise<Seed[]> {
  // macOS metadata: an AppleDouble header (magic, version), which the extraction leaves out.
  const metadata = appleDouble(64);
  const site = [
    { name: 'index.html', content: '<!doctype html><title>Docs</title>' },
    { name: 'guides/', type: 'directory' as const },
    { name: 'guides/._intro.html', content: metadata },
    { name: 'guides/intro.html', content: 'intro'.repeat(200) },
    { name: 'bin/run.sh', content: '#!/bin/sh\n', mode: 0o755 },
    { name: 'latest.html', type: 'symlink' as const, linkname: 'guides/intro.html' },
    { name: 'home.html', type: 'link' as const, linkname: 'index.html' },
    { name: `${'long/'.repeat(30)}page.html`, content: 'deep', pax: { comment: 'pax' } },
  ];
  const tar = await tarOf(site, false);
  const sparse = rawTar([
    { name: 'sparse.bin', type: 'S', data: 'data'.repeat(256) },
    { name: 'dir/', type: '5', data: 'x'.repeat(700) },
    { name: 'label', type: 'V' },
  ]);
  // Give the 'S' header a one-run map at offset 4096 and a real size, checksum fixed.
  sparse.write('00000010000\0', 386, 'latin1');
  sparse.write('00000002000\0', 398, 'latin1');
  sparse.write('00000020000\0', 483, 'latin1');
  fixChecksum(sparse, 0);
  const zip = await zipOf([
    { name: 'index.html', content: '<!doctype html>'.repeat(50) },
    { name: 'empty/', directory: true },
    { name: 'guides/intro.html', content: 'intro' },
    { name: 'up', symlinkTo: 'guides' },
    { name: '__MACOSX/guides/._intro.html', content: metadata },
    { name: '._index.html', content: metadata },
  ]);
  return [
    { name: 'ustar/pax', format: 'tar', bytes: tar },
    { name: 'gnu sparse', format: 'tar', bytes: sparse },
    { name: 'tar.gz', format: 'tar.gz', bytes: tar },
    { name: 'zip', format: 'zip', bytes: zip },
  ];
}

let served: Buffer = Buffer.alloc(0);
let server: http.Server;
let url: string;
let dispatcher: Agent;
let sandbox: string;

beforeAll(async () => {
  server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-length': served.length });
    response.end(served);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bundle`;
  dispatcher = new Agent();
  sandbox = await fs.mkdtemp(path.join(os.tmpdir(), 'fuzz-'));
});
afterAll(async () => {
  await dispatcher.close();
  await new Promise((resolve) => server.close(resolve));
  await fs.rm(sandbox, { recursive: true, force: true });
});

/** Every symlink under `dir` must resolve inside it (or to nothing). */
async function expectLinksInside(dir: string): Promise<void> {
  const real = await fs.realpath(dir);
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isSymbolicLink()) continue;
    const target = await fs
      .realpath(path.join(entry.parentPath, entry.name))
      .catch(() => undefined);
    if (target !== undefined)
      expect(target === real || target.startsWith(real + path.sep)).toBe(true);
  }
}

describe('fuzzed archives', () => {
  it(
    `${SECONDS} s of mutated tar, tar.gz and zip (seed ${SEED}): refused cleanly or extracted inside`,
    { timeout: (SECONDS + 60) * 1000 },
    async () => {
      const rng = generator(SEED);
      const all = await seeds();
      const stop = Date.now() + SECONDS * 1000;
      const counts = { cases: 0, extracted: 0, refused: 0 };
      const messages = new Map<string, number>();
      while (Date.now() < stop) {
        const seed = all[counts.cases % all.length] as Seed;
        const mutated = mutate(seed.bytes, rng, seed.format !== 'zip');
        served = seed.format === 'tar.gz' ? gzipSync(mutated) : mutated;
        const dir = path.join(sandbox, String(counts.cases));
        const target = path.join(dir, 'site');
        const tempDir = path.join(dir, 'tmp');
        await fs.mkdir(tempDir, { recursive: true });
        const started = Date.now();
        const replay = `case ${counts.cases} (seed ${SEED}, from ${seed.name})`;
        try {
          await deliverBundle({
            source: { url },
            refresh: () => Promise.reject(new ActionError('no fresh link in the fuzz test')),
            target,
            extract: true,
            archiveName: 'site',
            limits: {
              maxBytes: 64 << 20,
              maxEntries: 10_000,
              maxRatio: 100,
              ratioFloorBytes: 16 << 20,
            },
            targetRules: {
              platform: process.platform,
              workspace: dir,
              runnerDirs: [tempDir],
              overwrite: false,
            },
            targetGiven: 'site',
            export: { domain: 'docs.example.com', jobId: 'se_fuzz' },
            tempDir,
            dispatcher,
            clock: systemClock,
            random: () => 0.5,
            idleTimeoutMs: 2000,
            reporter: recordingReporter().reporter,
            signal: AbortSignal.timeout(CASE_DEADLINE_MS),
          });
          counts.extracted += 1;
          await expectLinksInside(target);
        } catch (err) {
          if (!(err instanceof ActionError)) {
            throw new Error(`${replay}: an error that is not the action's own: ${String(err)}`, {
              cause: err,
            });
          }
          counts.refused += 1;
          const kind = err.message
            .replace(/".*"/g, '"…"')
            .replace(/\(.*\)/g, '(…)')
            .slice(0, 90);
          messages.set(kind, (messages.get(kind) ?? 0) + 1);
          expect(err.message.length, replay).toBeLessThan(1000);
        }
        expect(Date.now() - started, `${replay} ran past its deadline`).toBeLessThan(
          CASE_DEADLINE_MS + 1000,
        );
        // Nothing beside the destination, nothing left in staging or the temp directory.
        const left = (await fs.readdir(dir)).sort();
        expect(
          left.filter((name) => name !== 'site' && name !== 'tmp'),
          replay,
        ).toEqual([]);
        expect(await fs.readdir(tempDir), replay).toEqual([]);
        await fs.rm(dir, { recursive: true, force: true });
        counts.cases += 1;
      }
      console.log(
        [
          `fuzz: ${counts.cases} cases in ${SECONDS} s (seed ${SEED}): ${counts.extracted} extracted, ${counts.refused} refused`,
          ...[...messages]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 12)
            .map(([m, n]) => `  ${String(n).padStart(6)}  ${m}`),
        ].join('\n'),
      );
      expect(counts.cases).toBeGreaterThan(0);
    },
  );
});

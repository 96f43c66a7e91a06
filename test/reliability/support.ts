import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, type TestContext } from 'vitest';
import type { EmulatorOptions, FaultRule } from '../../emulator/index.js';
import { type TarEntrySpec, tarOf, zipOf } from '../support/archives.js';
import {
  type CaseOptions,
  type CaseRun,
  errorLines,
  type Harness,
  listTree,
  startHarness,
  treeDigest,
} from '../support/in-process.js';
import { writeEarlierExport } from '../support/earlier-export.js';
import { strayFiles } from '../support/files.js';

/** The options of one row of the table: what the case must do, shown by the table reporter. */
export function row(expected: string, bug?: string): { meta: { expected: string; bug?: string } } {
  return { meta: { expected, ...(bug ? { bug } : {}) } };
}

/**
 * An emulator of the case's own, stopped when the case ends: fault rules are global to an
 * emulator and consumed in order, so cases that inject faults each get one and can run
 * concurrently.
 */
export async function caseHarness(
  context: TestContext,
  options: EmulatorOptions = {},
): Promise<Harness> {
  const harness = await startHarness(options);
  // The case's own hook: the global one is ambiguous between concurrent cases.
  context.onTestFinished(() => harness.stop());
  return harness;
}

export function addFaults(harness: Harness, rules: FaultRule[]): void {
  for (const rule of rules) harness.emulator.faults.add(rule);
}

/**
 * Runs one case in-process. Debug lines are always printed (the runner only hides them),
 * and the harness checks that the key is in none of them, in no other output, and never
 * reached the storage.
 */
export function runCase(
  harness: Harness,
  inputs: Record<string, string>,
  options: CaseOptions = {},
): Promise<CaseRun> {
  return harness.run(inputs, options);
}

export type Fault = Omit<FaultRule, 'route'>;

/** The HTTP faults, each applied once. `DATE+1.5` becomes an HTTP date 1.5 s ahead (see withDate). */
export const HTTP_FAULTS: [string, Fault][] = [
  ['500 with a JSON body', { status: 500, body: 'json' }],
  ['500 with an HTML body', { status: 500, body: 'html' }],
  ['502 with a JSON body', { status: 502, body: 'json' }],
  ['502 with an HTML body', { status: 502, body: 'html' }],
  ['503 with a JSON body', { status: 503, body: 'json' }],
  ['503 with an HTML body', { status: 503, body: 'html' }],
  ['504 with a JSON body', { status: 504, body: 'json' }],
  ['504 with an HTML body', { status: 504, body: 'html' }],
  ['a connection reset', { reset: true }],
  ['no answer within request-timeout', { latencyMs: 2500 }],
  ['429 with Retry-After in seconds', { status: 429, body: 'json', retryAfter: '1' }],
  ['429 with Retry-After as an HTTP date', { status: 429, body: 'json', retryAfter: 'DATE+1.5' }],
  ['429 without Retry-After', { status: 429, body: 'json' }],
];

/** The fault with `DATE+1.5` made an HTTP date 1.5 s ahead on the harness's clock. */
export function withDate<T extends Fault>(fault: T, harness: Harness): T {
  return fault.retryAfter === 'DATE+1.5'
    ? { ...fault, retryAfter: new Date(harness.clock.now() + 1500).toUTCString() }
    : fault;
}

/** A workspace whose `site/` already holds an earlier export, to prove it is left alone. */
export async function workspaceWithSite(): Promise<{ workspace: string; site: string }> {
  const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-suite-'));
  const site = path.join(workspace, 'site');
  await writeEarlierExport(site, { 'previous.html': 'previous export' });
  return { workspace, site };
}

/** The run failed with exactly one `::error::` line matching `message`. */
export function expectOneClearError(run: CaseRun, message: RegExp): void {
  expect(run.code, run.stdout).toBe(1);
  const lines = errorLines(run);
  expect(lines, run.stdout).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  // One readable line: no control character (a NUL from an archive name, an escape…).
  expect(lines[0]).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
}

/** Nothing half-written: the earlier site as it was, no stray files, no temporary files. */
export async function expectUntouched(run: CaseRun, workspace: string): Promise<void> {
  expect(await listTree(path.join(workspace, 'site'))).toEqual(['previous.html']);
  expect(await fs.readdir(workspace)).toEqual(['site']);
  expect(await strayFiles(run.tempDir)).toEqual([]);
}

/** Success with exactly the expected files in `site`, nothing beside it, no temporary files. */
export async function expectDelivered(
  run: CaseRun,
  workspace: string,
  digest: Record<string, string>,
): Promise<void> {
  expect(run.code, run.stdout).toBe(0);
  expect(errorLines(run)).toEqual([]);
  expect(await treeDigest(path.join(workspace, 'site'))).toEqual(digest);
  expect(await fs.readdir(workspace)).toEqual(['site']);
  expect(await strayFiles(run.tempDir)).toEqual([]);
}

/** An archive built here, with the SHA-256 of every file it holds: the truth to compare with. */
export interface ReferenceSite {
  archive: Buffer;
  /** relative path -> SHA-256 of the content, as treeDigest reports an extracted tree. */
  digest: Record<string, string>;
  /** SHA-256 of the archive bytes (the `sha256` output). */
  sha256: string;
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** Incompressible but reproducible bytes, so that "half of the archive" is a real place. */
function padding(bytes: number, seed: string): Buffer {
  const out = Buffer.alloc(bytes);
  let block = createHash('sha256').update(seed).digest();
  for (let at = 0; at < bytes; at += block.length) {
    block.copy(out, at);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

/**
 * A small site (a few pages and `padBytes` of incompressible data) as tar, tar.gz or zip.
 * Each revision has other bytes and another size, like a re-generated export.
 */
export async function referenceSite(
  format: 'tar' | 'tar.gz' | 'zip',
  { revision = 0, padBytes = 512 * 1024 }: { revision?: number; padBytes?: number } = {},
): Promise<ReferenceSite> {
  const files: [string, Buffer][] = [
    [
      'index.html',
      Buffer.from(
        `<!doctype html><title>Docs r${revision}</title><a href="guides/intro.html">Intro</a>`,
      ),
    ],
    ['guides/intro.html', Buffer.from(`<!doctype html><title>Intro r${revision}</title>`)],
    ['assets/app.js', Buffer.from(`console.log(${revision});`)],
    ['assets/data.bin', padding(padBytes + revision * 4096, `rev${revision}`)],
  ];
  const archive =
    format === 'zip'
      ? await zipOf(files.map(([name, content]) => ({ name, content })))
      : await tarOf(
          files.map(([name, content]): TarEntrySpec => ({ name, content })),
          format === 'tar.gz',
        );
  return {
    archive,
    digest: Object.fromEntries(files.map(([name, content]) => [name, sha256(content)])),
    sha256: sha256(archive),
  };
}

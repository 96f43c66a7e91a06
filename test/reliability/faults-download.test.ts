import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultRule } from '../../emulator/index.js';
import { type Harness, listTree, startHarness, treeDigest } from '../support/action.js';
import { DEBUG, expectOneClearError, expectUntouched, workspaceWithSite } from './support.js';

/**
 * Faults while the bundle downloads from the object store. The archive is padded to
 * 512 KiB so that "half" is a real place in the transfer.
 */

const SIZE = 512 * 1024;
let harness: Harness;
let reference: Record<string, string>;
let archiveBytes = 0;
const INPUTS = {
  domain: 'docs.example.com',
  path: 'site',
  'poll-interval': '0.5s',
  'request-timeout': '1s',
};

beforeAll(async () => {
  harness = await startHarness({
    jobDurationMs: 300,
    queuedMs: 50,
    pageCount: 5,
    archiveSizeBytes: SIZE,
  });
  const clean = await harness.run(INPUTS, { env: DEBUG });
  expect(clean.code, clean.stdout).toBe(0);
  reference = await treeDigest(path.join(clean.workspace, 'site'));
  archiveBytes = Number(clean.outputs['size-bytes']);
});
afterAll(async () => {
  await harness.stop();
});

async function recovers(rules: FaultRule[], logLine?: RegExp) {
  harness.emulator.faults.clear();
  for (const rule of rules) harness.emulator.faults.add(rule);
  const { workspace } = await workspaceWithSite();
  const run = await harness.run(INPUTS, { workspace, env: DEBUG });
  expect(run.code, run.stdout).toBe(0);
  expect(await treeDigest(path.join(workspace, 'site'))).toEqual(reference);
  expect(harness.emulator.faults.pending).toEqual([]);
  if (logLine) expect(run.stdout).toMatch(logLine);
  return run;
}

describe('download: HTTP faults from the storage', () => {
  const cases: [string, Omit<FaultRule, 'route'>][] = [
    ['500 with an XML body', { status: 500 }],
    ['500 with an HTML body', { status: 500, body: 'html' }],
    ['502 with a JSON body', { status: 502, body: 'json' }],
    ['502 with an HTML body', { status: 502, body: 'html' }],
    ['503 with an XML body', { status: 503 }],
    ['503 with an HTML body', { status: 503, body: 'html' }],
    ['504 with a JSON body', { status: 504, body: 'json' }],
    ['504 with an HTML body', { status: 504, body: 'html' }],
    ['a connection reset before any byte', { reset: true }],
    ['no answer within request-timeout', { latencyMs: 2500 }],
    ['429 with Retry-After in seconds', { status: 429, retryAfter: '1' }],
    ['429 with Retry-After as an HTTP date', { status: 429, retryAfter: 'DATE' }],
    ['429 without Retry-After', { status: 429 }],
  ];
  for (const [name, fault] of cases) {
    it(name, async ({ task }) => {
      task.meta.expected = 'recovers, same files';
      const rule =
        fault.retryAfter === 'DATE'
          ? { ...fault, retryAfter: new Date(Date.now() + 1500).toUTCString() }
          : fault;
      await recovers([{ route: 'store.get', ...rule }]);
    });
  }
});

describe('download: broken transfers', () => {
  it('a stall mid-body: the idle timeout fires and the download resumes', async ({ task }) => {
    task.meta.expected = 'recovers via Range, same files';
    await recovers(
      [{ route: 'store.get', stallAfterBytes: SIZE / 2 }],
      /connection broke .*resuming/i,
    );
  });

  for (const [where, bytes] of [
    ['1 byte', () => 1],
    ['half', () => Math.floor(archiveBytes / 2)],
    ['the last byte', () => archiveBytes - 1],
  ] as const) {
    it(`a connection cut after ${where}`, async ({ task }) => {
      task.meta.expected = 'recovers via Range, same files';
      await recovers([{ route: 'store.get', cutAfterBytes: bytes() }], /resuming/);
    });
  }

  // The emulator sends the real body under a Content-Length that lies; the API announced
  // the real size, so the lie is caught before a byte is trusted.
  for (const mismatch of ['shorter', 'longer'] as const) {
    it(`a body ${mismatch} than its Content-Length`, async ({ task }) => {
      task.meta.expected = 'fails, one clear line';
      harness.emulator.faults.clear();
      harness.emulator.faults.add({ route: 'store.get', lengthMismatch: mismatch });
      const { workspace } = await workspaceWithSite();
      const run = await harness.run(INPUTS, { workspace, env: DEBUG });
      expectOneClearError(run, /storage serves .* but the API announced \d+ bytes/);
      await expectUntouched(run, workspace);
    });
  }

  it('the archive changes between a cut and the resume (ETag differs): starts over, never splices', async ({
    task,
  }) => {
    task.meta.expected = 'recovers from byte 0 with a fresh link';
    harness.emulator.faults.clear();
    harness.emulator.faults.add({
      route: 'store.get',
      cutAfterBytes: Math.floor(archiveBytes / 2),
    });
    harness.emulator.faults.add({ route: 'store.get', changeArchive: true });
    const { workspace } = await workspaceWithSite();
    const run = await harness.run(INPUTS, { workspace, env: DEBUG });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(
      /changed on the storage since the download began: starting the download over/,
    );
    expect(run.stdout).toMatch(/requesting a fresh bundle link/);
    // Same pages, other bytes: the new version, extracted whole.
    expect(await listTree(path.join(workspace, 'site'))).toEqual(Object.keys(reference));
    expect(await treeDigest(path.join(workspace, 'site'))).not.toEqual(reference);
  });
});

describe('download: expiring links', () => {
  it('the link expires between the bundle call and the download', async ({ task }) => {
    task.meta.expected = 'recovers with a fresh link';
    await recovers(
      [{ route: 'store.get', expireLink: true }],
      /expired.*requesting a fresh bundle link/,
    );
  });

  it('the bundle endpoint hands out a link that has already expired', async ({ task }) => {
    task.meta.expected = 'recovers with a fresh link';
    await recovers(
      [{ route: 'export.bundle', expireLink: true }],
      /requesting a fresh bundle link/,
    );
  });

  it('every link is expired: gives up after a bounded number of fresh links', async ({ task }) => {
    task.meta.expected = 'fails, one clear line';
    harness.emulator.faults.clear();
    harness.emulator.faults.add({ route: 'store.get', expireLink: true, times: Infinity });
    const { workspace } = await workspaceWithSite();
    const run = await harness.run(INPUTS, { workspace, env: DEBUG });
    harness.emulator.faults.clear();
    expectOneClearError(run, /link expired before the download finished, 3 fresh link\(s\) later/);
    await expectUntouched(run, workspace);
  });
});

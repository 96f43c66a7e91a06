import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { FaultRule } from '../../emulator/index.js';
import {
  addFaults,
  caseHarness,
  expectDelivered,
  expectOneClearError,
  expectUntouched,
  type Fault,
  type ReferenceSite,
  referenceSite,
  row,
  runCase,
  withDate,
  workspaceWithSite,
} from './support.js';

/**
 * Faults while the bundle streams from the object store. The archive holds 512 KiB of
 * incompressible data, so that "half" is a real place in the transfer, and each revision
 * of it (an archive regenerated on the storage) has other bytes and another size, so a
 * splice of two versions could not go unnoticed.
 */

const INPUTS = {
  domain: 'docs.example.com',
  path: 'site',
  'poll-interval': '0.5s',
  'request-timeout': '1s',
};

type Format = 'tar.gz' | 'zip';
const sites: Record<Format, ReferenceSite[]> = { 'tar.gz': [], zip: [] };
beforeAll(async () => {
  for (const format of ['tar.gz', 'zip'] as const) {
    sites[format] = [
      await referenceSite(format, { revision: 0 }),
      await referenceSite(format, { revision: 1 }),
    ];
  }
});

async function storeCase(
  context: TestContext,
  rules: FaultRule[],
  format: Format = 'tar.gz',
  inputs: Record<string, string> = {},
) {
  const harness = await caseHarness(context, {
    jobDurationMs: 300,
    queuedMs: 50,
    archiveFor: (job) => sites[format][Math.min(job.revision, 1)]?.archive,
  });
  addFaults(
    harness,
    rules.map((rule) => withDate(rule, harness)),
  );
  const { workspace } = await workspaceWithSite();
  const run = await runCase(harness, { ...INPUTS, ...inputs }, { workspace });
  return { harness, run, workspace, site: sites[format][0] as ReferenceSite };
}

/** The storage answered the download after the fault with 206: it resumed, not restarted. */
function expectResumed({ harness }: Awaited<ReturnType<typeof storeCase>>) {
  const gets = harness.emulator.requests.filter((r) => r.route === 'store.get');
  expect(gets.map((r) => r.status)).toEqual([200, 206]);
}

/** The fault was used, and the run ended with exactly the files of the archive. */
async function expectRecovered(
  { harness, run, workspace, site }: Awaited<ReturnType<typeof storeCase>>,
  logLine?: RegExp,
) {
  expect(harness.emulator.faults.pending).toEqual([]);
  await expectDelivered(run, workspace, site.digest);
  expect(run.outputs.sha256).toBe(site.sha256);
  if (logLine) expect(run.stdout).toMatch(logLine);
}

const STORE_FAULTS: [string, Fault][] = [
  ['500 with a JSON body', { status: 500, body: 'json' }],
  ['500 with an HTML body', { status: 500, body: 'html' }],
  ['500 with the S3 XML body', { status: 500 }],
  ['502 with a JSON body', { status: 502, body: 'json' }],
  ['502 with an HTML body', { status: 502, body: 'html' }],
  ['503 with a JSON body', { status: 503, body: 'json' }],
  ['503 with an HTML body', { status: 503, body: 'html' }],
  ['503 with the S3 XML body (SlowDown)', { status: 503 }],
  ['504 with a JSON body', { status: 504, body: 'json' }],
  ['504 with an HTML body', { status: 504, body: 'html' }],
  ['a connection reset before any byte', { reset: true }],
  ['no answer within request-timeout', { latencyMs: 2500 }],
  // S3 throttles with 503 SlowDown (the emulator's store answers a 429 rule so), other
  // stores and proxies in front of them with 429.
  ['503 SlowDown with Retry-After in seconds', { status: 503, retryAfter: '1' }],
  ['429 with Retry-After in seconds', { status: 429, body: 'json', retryAfter: '1' }],
  ['429 with Retry-After as an HTTP date', { status: 429, body: 'json', retryAfter: 'DATE+1.5' }],
  ['429 without Retry-After', { status: 429, body: 'json' }],
];

describe.concurrent('download: HTTP faults from the storage', () => {
  for (const [name, fault] of STORE_FAULTS) {
    it(name, row('retried, same files'), async (context) => {
      await expectRecovered(
        await storeCase(context, [{ route: 'store.get', ...fault }]),
        // A rate limit that names no wait is still given a second: it is not lifted at once.
        fault.status === 429 && fault.retryAfter === undefined
          ? /HTTP 429.*: rate limited, retrying in [1-9]\d*\.\ds\./
          : fault.status === 429 || (fault.status === 503 && fault.body === undefined)
            ? /: rate limited, retrying in/
            : /retrying in/,
      );
    });
  }
});

describe.concurrent('download: broken transfers', () => {
  for (const format of ['tar.gz', 'zip'] as const) {
    it(
      `${format}: a stall mid-body (the idle timeout fires)`,
      row('resumed with Range, same files'),
      async (context) => {
        const stalled = await storeCase(
          context,
          [{ route: 'store.get', stallAfterBytes: 256 * 1024 }],
          format,
        );
        await expectRecovered(stalled, /connection broke .*resuming/i);
        expectResumed(stalled);
      },
    );

    for (const [where, at] of [
      ['1 byte', () => 1],
      ['half', (size: number) => Math.floor(size / 2)],
      ['the last byte', (size: number) => size - 1],
    ] as const) {
      it(
        `${format}: a connection cut after ${where}`,
        row('resumed with Range, same files'),
        async (context) => {
          const size = (sites[format][0] as ReferenceSite).archive.length;
          const cut = await storeCase(
            context,
            [{ route: 'store.get', cutAfterBytes: at(size) }],
            format,
          );
          await expectRecovered(cut, /resuming/);
          expectResumed(cut);
        },
      );
    }

    it(
      `${format}: the archive changes between a cut and the resume (ETag differs)`,
      row('restarted from byte 0: exactly the new version, never a splice'),
      async (context) => {
        const size = (sites[format][0] as ReferenceSite).archive.length;
        const { run, workspace, harness } = await storeCase(
          context,
          [
            { route: 'store.get', cutAfterBytes: Math.floor(size / 2) },
            { route: 'store.get', changeArchive: true },
          ],
          format,
        );
        const changed = sites[format][1] as ReferenceSite;
        expect(harness.emulator.faults.pending).toEqual([]);
        await expectDelivered(run, workspace, changed.digest);
        expect(run.outputs.sha256).toBe(changed.sha256);
        expect(run.outputs['size-bytes']).toBe(String(changed.archive.length));
        expect(run.stdout).toMatch(/changed on the storage.*starting the download over/);
        expect(run.stdout).toMatch(/requesting a fresh bundle link/);
      },
    );
  }

  it(
    'the archive changes between the bundle call and the first byte (another size)',
    row('fresh link, exactly the new version'),
    async (context) => {
      const { run, workspace } = await storeCase(context, [
        { route: 'store.get', changeArchive: true },
      ]);
      const changed = sites['tar.gz'][1] as ReferenceSite;
      await expectDelivered(run, workspace, changed.digest);
      expect(run.outputs.sha256).toBe(changed.sha256);
    },
  );

  for (const mismatch of ['shorter', 'longer'] as const) {
    it(
      `a body ${mismatch} than its Content-Length, once`,
      row('retried with a fresh link, same files'),
      async (context) => {
        await expectRecovered(
          await storeCase(context, [{ route: 'store.get', lengthMismatch: mismatch }]),
        );
      },
    );

    it(
      `a body ${mismatch} than its Content-Length, on every try`,
      row('exit 1, one clear line, path untouched'),
      async (context) => {
        const { run, workspace } = await storeCase(context, [
          { route: 'store.get', lengthMismatch: mismatch, times: Infinity },
        ]);
        expectOneClearError(run, /the API announced \d+ bytes/);
        await expectUntouched(run, workspace);
      },
    );
  }

  it(
    'the storage sends the headers, then stalls, on every try',
    row('exit 1, one clear line, path untouched'),
    async (context) => {
      // Outages are tried for minutes, within the run's timeout; each try waits out the idle
      // timeout in real time: a short timeout and a short idle timeout keep the case short.
      const { run, workspace } = await storeCase(
        context,
        [{ route: 'store.get', stallAfterBytes: 0, times: Infinity }],
        'tar.gz',
        { 'request-timeout': '0.4s', timeout: '6s' },
      );
      expectOneClearError(run, /bundle download failed \d+ times in a row|6\.0s timeout passed/);
      await expectUntouched(run, workspace);
    },
  );

  it(
    'the storage answers 500 on every try',
    row('exit 1, one clear line, path untouched'),
    async (context) => {
      const { run, workspace } = await storeCase(
        context,
        [{ route: 'store.get', status: 500, times: Infinity }],
        'tar.gz',
        { timeout: '6s' },
      );
      expectOneClearError(run, /bundle download failed \d+ times in a row.*HTTP 500/);
      await expectUntouched(run, workspace);
    },
  );
});

describe.concurrent('download: expiring links', () => {
  it(
    'the link expires between the bundle call and the download',
    row('fresh link, same files'),
    async (context) => {
      await expectRecovered(
        await storeCase(context, [{ route: 'store.get', expireLink: true }]),
        /expired.*requesting a fresh bundle link/,
      );
    },
  );

  it(
    'the link expires mid-download (after a cut at half)',
    row('fresh link, resumed, same files'),
    async (context) => {
      const size = (sites['tar.gz'][0] as ReferenceSite).archive.length;
      await expectRecovered(
        await storeCase(context, [
          { route: 'store.get', cutAfterBytes: Math.floor(size / 2) },
          { route: 'store.get', expireLink: true },
        ]),
        /requesting a fresh bundle link/,
      );
    },
  );

  it(
    'the bundle endpoint hands out a link that has already expired',
    row('fresh link, same files'),
    async (context) => {
      await expectRecovered(
        await storeCase(context, [{ route: 'export.bundle', expireLink: true }]),
        /requesting a fresh bundle link/,
      );
    },
  );

  it(
    'every link is expired',
    row('exit 1 after 3 fresh links, one clear line, path untouched'),
    async (context) => {
      const { run, workspace } = await storeCase(context, [
        { route: 'store.get', expireLink: true, times: Infinity },
      ]);
      expectOneClearError(run, /storage refused 4 bundle links in a row as expired/);
      await expectUntouched(run, workspace);
    },
  );
});

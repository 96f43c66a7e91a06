import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { FaultRule } from '../../emulator/index.js';
import {
  addFaults,
  caseHarness,
  expectDelivered,
  expectOneClearError,
  expectUntouched,
  type Fault,
  HTTP_FAULTS,
  type ReferenceSite,
  referenceSite,
  row,
  runCase,
  withDate,
  workspaceWithSite,
} from './support.js';

/**
 * Faults at the API phases of an export: the start, the first poll, a later poll (the job
 * still running) and the bundle call. Recoverable faults end in exactly the files of the
 * archive; the others fail with one clear line and leave `path` as it was. Each case has
 * its own emulator, so the cases run concurrently.
 */

const INPUTS = {
  domain: 'docs.example.com',
  path: 'site',
  'poll-interval': '0.5s',
  'request-timeout': '1s',
};

interface Phase {
  name: string;
  route: FaultRule['route'];
  /** Rules that let the requests before the faulted one through untouched. */
  before: FaultRule[];
  /** Whether the phase's retry policy tries the fault again (see src/api/retry.ts). */
  retries: (fault: Fault) => boolean;
  /** The one line of an unrecoverable fault. */
  failure: RegExp;
}

/** A rule that changes nothing: it only lets one request go by before the real fault. */
const PASS = (route: FaultRule['route']): FaultRule => ({ route, latencyMs: 0 });

const PHASES: Phase[] = [
  {
    name: 'start',
    route: 'export.start',
    before: [],
    // A 500 may mean the job was created: the start is not repeated then.
    retries: (fault) => fault.status !== 500,
    failure: /Could not start the static export of docs\.example\.com/,
  },
  {
    name: 'first poll',
    route: 'export.get',
    before: [],
    retries: () => true,
    failure: /Could not read export job se_/,
  },
  {
    name: 'later poll',
    route: 'export.get',
    before: [PASS('export.get')],
    retries: () => true,
    failure: /Could not read export job se_/,
  },
  {
    name: 'bundle',
    route: 'export.bundle',
    before: [],
    retries: () => true,
    failure: /Could not generate the bundle link of export job se_/,
  },
];

let site: ReferenceSite;
beforeAll(async () => {
  site = await referenceSite('tar.gz', { padBytes: 16 * 1024 });
});

/** Jobs run 1.5 s, so a second poll 0.5 s apart still sees the job running. */
const exportHarness = (context: TestContext) =>
  caseHarness(context, { jobDurationMs: 1500, queuedMs: 100, archiveFor: () => site.archive });

describe.concurrent('export API faults', () => {
  for (const phase of PHASES) {
    for (const [name, fault] of HTTP_FAULTS) {
      const recovers = phase.retries(fault);
      it(
        `${phase.name}: ${name}`,
        row(recovers ? 'retried, same files' : 'exit 1, one clear line, path untouched'),
        async (context) => {
          const harness = await exportHarness(context);
          addFaults(harness, [
            ...phase.before,
            { route: phase.route, ...withDate(fault, harness) },
          ]);
          const { workspace } = await workspaceWithSite();
          const run = await runCase(harness, INPUTS, { workspace });
          expect(harness.emulator.faults.pending).toEqual([]);
          const hits = harness.emulator.requests.filter((r) => r.route === phase.route);
          expect(hits[phase.before.length]?.faulted).toBe(true);
          if (recovers) {
            await expectDelivered(run, workspace, site.digest);
            expect(run.outputs.sha256).toBe(site.sha256);
            expect(hits.length).toBeGreaterThan(phase.before.length + 1);
            expect(run.stdout).toMatch(/trying again in/);
          } else {
            expectOneClearError(run, new RegExp(`${phase.failure.source}.*HTTP 500`));
            await expectUntouched(run, workspace);
            expect(hits).toHaveLength(1);
          }
          if (phase.route === 'export.start') {
            // A fault answers instead of the server: one job when retried, none otherwise.
            expect(harness.emulator.exportJobs.list()).toHaveLength(recovers ? 1 : 0);
          }
        },
      );
    }

    it(
      `${phase.name}: 503 on every try until the timeout`,
      row('exit 1, one clear line, path untouched'),
      async (context) => {
        const harness = await exportHarness(context);
        addFaults(harness, [
          ...phase.before,
          { route: phase.route, status: 503, body: 'html', times: Infinity },
        ]);
        const { workspace } = await workspaceWithSite();
        const run = await runCase(harness, { ...INPUTS, timeout: '4s' }, { workspace });
        expectOneClearError(run, /HTTP 503|timed out|timeout/i);
        expect(run.elapsedMs).toBeLessThanOrEqual(4000);
        await expectUntouched(run, workspace);
      },
    );
  }

  it(
    'start: a gateway timeout (504 page) after the service started the job',
    row('retried, same files; the log says an unused export may run'),
    async (context) => {
      const harness = await exportHarness(context);
      addFaults(harness, [
        { route: 'export.start', status: 504, body: 'html', handledFirst: true },
      ]);
      const { workspace } = await workspaceWithSite();
      const run = await runCase(harness, INPUTS, { workspace });
      await expectDelivered(run, workspace, site.digest);
      // A second export of the same site: this run follows the one it was answered about.
      const jobs = harness.emulator.exportJobs.list();
      expect(jobs).toHaveLength(2);
      expect(run.outputs['job-id']).toBe(jobs[1]?.jobId);
      expect(run.stdout).toMatch(
        /^Could not start the static export of docs\.example\.com \(HTTP 504 \(an HTML page titled "504 Gateway Timeout"\)\): trying again in \d+ms \(attempt 2\)\. The failed try may have started an export all the same: that one then runs to its end on the server, unused\.$/m,
      );
    },
  );

  it(
    'start: a gateway timeout after the service started the job, where a second export is refused (409)',
    row(
      'exit 1, one line: the earlier attempt probably started the job it names; job-id follows it',
    ),
    async (context) => {
      const harness = await caseHarness(context, {
        variant: 'inline-bundle',
        jobDurationMs: 1500,
        archiveFor: () => site.archive,
      });
      addFaults(harness, [
        { route: 'export.start', status: 504, body: 'html', handledFirst: true },
      ]);
      const { workspace } = await workspaceWithSite();
      const run = await runCase(
        harness,
        { ...INPUTS, 'project-id': 'demo-project' },
        { workspace },
      );
      const [job] = harness.emulator.exportJobs.list();
      expectOneClearError(
        run,
        new RegExp(
          `HTTP 409: An export job is already running for this organization: ${job?.jobId}\\) after 2 attempts\\. The export it names was probably started by this run's earlier attempt \\(HTTP 504\\).* run again with \`job-id\` set to its id`,
        ),
      );
      expect(harness.emulator.exportJobs.list()).toHaveLength(1);
      await expectUntouched(run, workspace);
    },
  );

  it('start: 401, the key is refused', row('exit 1, one line naming api-key'), async (context) => {
    const harness = await exportHarness(context);
    addFaults(harness, [{ route: 'export.start', status: 401, body: 'json' }]);
    const { workspace } = await workspaceWithSite();
    const run = await runCase(harness, INPUTS, { workspace });
    expectOneClearError(run, /HTTP 401.*api-key/);
    await expectUntouched(run, workspace);
    expect(harness.emulator.requests.filter((r) => r.route === 'export.start')).toHaveLength(1);
  });

  it(
    'poll: three faults in a row (503, reset, 504)',
    row('retried, same files'),
    async (context) => {
      const harness = await exportHarness(context);
      addFaults(harness, [
        { route: 'export.get', status: 503, body: 'html' },
        { route: 'export.get', reset: true },
        { route: 'export.get', status: 504, body: 'json' },
      ]);
      const { workspace } = await workspaceWithSite();
      const run = await runCase(harness, INPUTS, { workspace });
      await expectDelivered(run, workspace, site.digest);
      expect(harness.emulator.faults.pending).toEqual([]);
    },
  );
});

import { EventEmitter } from 'node:events';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import type { EmulatorOptions, FaultRule } from '../../emulator/index.js';
import { cancelWhen, errorLines } from '../support/in-process.js';
import { rawZip } from '../support/raw-zip.js';
import {
  addFaults,
  caseHarness,
  expectUntouched,
  row,
  runCase,
  workspaceWithSite,
} from './support.js';
import { listTree } from '../support/files.js';

/**
 * SIGINT and SIGTERM (what a CI system sends to cancel a job) in each phase of a run. The
 * signal is sent once the log shows the phase under way, a little later: on the virtual
 * clock for a phase that sleeps (so it lands inside the wait), in real time for one that
 * waits on the network. The run must end at once with one "Cancelled" line, its
 * temporary files gone and `path` as it was.
 * test/smoke/ sends real signals to the built dist/index.js.
 */

interface Phase {
  name: string;
  emulator: EmulatorOptions | (() => Promise<EmulatorOptions>);
  faults?: FaultRule[];
  /** stdout that shows the phase has begun. */
  marker: RegExp;
  /** Extra wait after the marker, so the phase is well under way. */
  settleMs: number;
  /** The phase waits on the network, where the virtual clock stands still. */
  realTime?: boolean;
  inputs?: Record<string, string>;
  /** CPU-bound: its cases run one at a time, so that they time the action, not each other. */
  heavy?: boolean;
  bug?: string;
}

const QUICK: EmulatorOptions = { jobDurationMs: 200, queuedMs: 50, agentDurationMs: 60_000 };
const AGENT = { command: 'agent', 'project-id': 'demo-project', prompt: 'Fix the typos' };

let manyFilesZip: Buffer | undefined;

const PHASES: Phase[] = [
  {
    name: 'while starting',
    emulator: QUICK,
    faults: [{ route: 'export.start', latencyMs: 10_000 }],
    marker: /::group::Starting/,
    settleMs: 300,
    realTime: true,
  },
  {
    name: 'while waiting out a 429 Retry-After: 30',
    emulator: QUICK,
    faults: [{ route: 'export.start', status: 429, body: 'json', retryAfter: '30' }],
    marker: /trying again in 30/,
    settleMs: 200,
  },
  {
    name: 'while polling',
    emulator: { jobDurationMs: 120_000, queuedMs: 100 },
    marker: /\] (queued|running)/,
    settleMs: 300,
  },
  {
    name: 'while getting the bundle link',
    emulator: QUICK,
    faults: [{ route: 'export.bundle', latencyMs: 10_000 }],
    marker: /::group::Getting the bundle link/,
    settleMs: 300,
    realTime: true,
  },
  {
    name: 'while downloading (tar.gz, extracting as it arrives)',
    emulator: { ...QUICK, archiveSizeBytes: 4 * 1024 * 1024 },
    faults: [{ route: 'store.get', stallAfterBytes: 1024 * 1024 }],
    marker: /::group::Downloading/,
    settleMs: 500,
    realTime: true,
  },
  {
    name: 'while extracting a zip of 20000 files',
    emulator: async () => {
      // Built once for the three signals: 20000 entries take a while to pack.
      manyFilesZip ??= rawZip(
        Array.from({ length: 20_000 }, (_, i) => ({ name: `p/${i}.html`, data: `<p>${i}</p>` })),
      );
      const zip = manyFilesZip;
      return { ...QUICK, archiveFor: () => zip };
    },
    marker: /Downloaded .*sha256/,
    settleMs: 0,
    realTime: true,
    heavy: true,
  },
  {
    name: 'while creating an agent job',
    emulator: QUICK,
    faults: [{ route: 'agent.create', latencyMs: 10_000 }],
    marker: /::group::Creating an agent job/,
    settleMs: 300,
    realTime: true,
    inputs: AGENT,
  },
  {
    name: 'while an agent job runs',
    emulator: QUICK,
    marker: /\] active/,
    settleMs: 300,
    inputs: AGENT,
  },
];

describe.concurrent('cancellation', () => {
  for (const phase of PHASES) {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      (phase.bug ? it.skip : phase.heavy ? it.sequential : it)(
        `${signal} ${phase.name}`,
        row('exit 1 at once, one "Cancelled" line, temp removed, path untouched', phase.bug),
        async (context) => {
          const options =
            typeof phase.emulator === 'function' ? await phase.emulator() : phase.emulator;
          const harness = await caseHarness(context, options);
          addFaults(harness, phase.faults ?? []);
          const { workspace } = await workspaceWithSite();
          const cancel = cancelWhen(harness, phase.marker, signal, {
            afterMs: phase.settleMs,
            realTime: phase.realTime ?? false,
          });
          const startedAt = harness.clock.now();
          const run = await runCase(
            harness,
            phase.inputs ?? { domain: 'docs.example.com', path: 'site', 'poll-interval': '0.5s' },
            { workspace, ...cancel.options },
          );
          const endedAfterMs = performance.now() - (cancel.sentAtReal() ?? 0);
          expect(cancel.sentAt(), run.stdout).toBeDefined();
          // Nothing was waited for after the signal: no virtual time passed, and far less
          // real time than the 10 s latency or 30 s idle timeout a network phase would wait.
          expect(startedAt + run.elapsedMs).toBe(cancel.sentAt());
          expect(endedAfterMs).toBeLessThan(5000);
          expect(run.code).toBe(1);
          expect(errorLines(run)).toEqual([
            expect.stringMatching(new RegExp(`^::error::Cancelled \\(${signal}\\)\\.`)),
          ]);
          if (phase.inputs) {
            expect(await fs.readdir(run.tempDir)).toEqual([]);
            expect(await fs.readdir(workspace)).toEqual(['site']);
          } else await expectUntouched(run, workspace);
        },
      );
    }
  }
});

/**
 * Signals that come when nothing the run does next would notice them: the readiness check
 * is over, and what is left before the swap (fingerprints, manifest, the last look at
 * path) waits on no request or timer. Each is sent as a line of the log is written, so it
 * lands at that exact point.
 */
describe.concurrent('cancellation around the swap', () => {
  const inputs = { domain: 'docs.example.com', path: 'site', 'poll-interval': '0.5s' };
  /** A run that gets `signal` as the log line `marker` matches is written; it must come. */
  const runSignalledOn = async (context: TestContext, marker: RegExp, signal: NodeJS.Signals) => {
    const harness = await caseHarness(context, QUICK);
    const { workspace, site } = await workspaceWithSite();
    const signals = new EventEmitter();
    let sent = false;
    const onLine = (line: string) => {
      if (sent || !marker.test(line)) return;
      sent = true;
      signals.emit(signal);
    };
    const run = await runCase(harness, inputs, { workspace, signals, onLine });
    expect(sent, run.stdout).toBe(true);
    return { run, workspace, site };
  };

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(
      `${signal} once the readiness check is done, before the site is put in place`,
      row('exit 1, one "Cancelled" line, temp removed, path untouched'),
      async (context) => {
        const { run, workspace } = await runSignalledOn(context, /cloud check: read /, signal);
        expect(run.code).toBe(1);
        expect(errorLines(run)).toEqual([
          expect.stringMatching(new RegExp(`^::error::Cancelled \\(${signal}\\)\\. `)),
        ]);
        await expectUntouched(run, workspace);
      },
    );
  }

  it(
    'SIGINT after the download, while the site is checked: says the download was done, not stopped',
    row('exit 1, "Cancelled … bundle was downloaded; … not put in place", path untouched'),
    async (context) => {
      const { run, workspace } = await runSignalledOn(context, /^Extracted /, 'SIGINT');
      const jobId = run.outputs['job-id'] as string;
      expect(run.code).toBe(1);
      expect(errorLines(run)).toEqual([
        `::error::Cancelled (SIGINT). Export job ${jobId} had completed and its bundle was downloaded; the export was stopped before it was put in place, temporary files were removed and \`path\` was left as it was. Rerun with \`job-id: ${jobId}\` to download it without exporting again.`,
      ]);
      await expectUntouched(run, workspace);
    },
  );

  it(
    'SIGINT once the site is in place, with helm-values-file: the values for it are written, and the error line says so',
    row('exit 1, "Cancelled … already in place … Helm values … in deploy/values.yaml"'),
    async (context) => {
      const harness = await caseHarness(context, QUICK);
      const { workspace, site } = await workspaceWithSite();
      const signals = new EventEmitter();
      let sent = false;
      const run = await runCase(
        harness,
        { ...inputs, 'helm-values-file': 'deploy/values.yaml' },
        {
          workspace,
          signals,
          onLine: (line) => {
            if (sent || !/^Replaced the earlier export in /.test(line)) return;
            sent = true;
            signals.emit('SIGINT');
          },
        },
      );
      expect(sent, run.stdout).toBe(true);
      const jobId = run.outputs['job-id'] as string;
      const values = path.join(workspace, 'deploy', 'values.yaml');
      const cancelled = `Cancelled (SIGINT). The export was already in place in ${site}, and its Helm values in ${values}; temporary files were removed.`;
      expect(run.code).toBe(1);
      expect(errorLines(run)).toEqual([`::error::${cancelled}`]);
      // The summary and the outputs say what the error line says.
      expect(run.summary).toContain(cancelled);
      expect(run.summary).toMatch(/\| Helm values \| `deploy\/values\.yaml` \|/);
      expect(run.outputs['helm-values-file']).toBe(values);
      // The values describe the export that is in path.
      expect(await fs.readFile(values, 'utf8')).toMatch(
        new RegExp(`^# Static export ${jobId} of docs\\.example\\.com`),
      );
      expect(await listTree(site)).toContain('index.html');
    },
  );

  it(
    'SIGINT once the site is in place: it stays, and the run ends as cancelled, saying so',
    row('exit 1, "Cancelled … already in place", the new export whole'),
    async (context) => {
      const marker = /^Replaced the earlier export in /;
      const { run, workspace, site } = await runSignalledOn(context, marker, 'SIGINT');
      expect(run.code).toBe(1);
      expect(errorLines(run)).toEqual([
        `::error::Cancelled (SIGINT). The export was already in place in ${site}; temporary files were removed.`,
      ]);
      const tree = await listTree(site);
      expect(tree).not.toContain('previous.html');
      expect(tree).toContain('index.html');
      expect(await fs.readdir(workspace)).toEqual([path.basename(site)]);
    },
  );
});

describe('cancellation during the artifact upload', () => {
  for (const values of [undefined, 'values.yaml']) {
    it(
      `SIGINT while the export is uploaded as an artifact${values ? ', with helm-values-file' : ''}: the run ends at once, saying the export is in place${values ? ' and its Helm values, written before the upload' : ''}`,
      row(
        `exit 1 at once, "Cancelled … already in place${values ? ' … Helm values …' : ''}", the new export whole`,
      ),
      async (context) => {
        const harness = await caseHarness(context, QUICK);
        const { workspace, site } = await workspaceWithSite();
        const cancel = cancelWhen(harness, /::group::Uploading the artifact/, 'SIGINT', {
          realTime: true,
        });
        // An upload of a large site takes minutes, and @actions/artifact takes no signal.
        const upload = new Promise<never>(() => {});
        const inputs = { domain: 'docs.example.com', path: 'site', 'artifact-name': 'docs' };
        const run = await Promise.race([
          runCase(harness, values ? { ...inputs, 'helm-values-file': values } : inputs, {
            workspace,
            ...cancel.options,
            uploadArtifact: () => upload,
          }),
          new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5000)),
        ]);
        expect(cancel.sentAt()).toBeDefined();
        expect(run, 'the run was still waiting for the upload 5 s after the signal').toBeDefined();
        if (run === undefined) return;
        expect(run.code).toBe(1);
        const file = values ? path.join(workspace, values) : undefined;
        expect(errorLines(run)).toEqual([
          `::error::Cancelled (SIGINT). The export was already in place in ${site}${file ? `, and its Helm values in ${file}` : ''}; temporary files were removed.`,
        ]);
        expect(await listTree(site)).toContain('index.html');
        expect((await fs.readdir(workspace)).sort()).toEqual(values ? ['site', values] : ['site']);
        // The values describe the export that is in path.
        if (file) {
          expect(await fs.readFile(file, 'utf8')).toMatch(
            new RegExp(`^# Static export ${run.outputs['job-id']} of docs\\.example\\.com`),
          );
        }
      },
    );
  }
});

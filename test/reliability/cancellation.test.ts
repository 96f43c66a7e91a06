import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultRule } from '../../emulator/index.js';
import { errorLines, type Harness, startHarness } from '../support/action.js';
import { DEBUG, expectUntouched, workspaceWithSite } from './support.js';

/** SIGINT and SIGTERM in each phase: out within 2 s, temporary files gone, path untouched. */

let quick: Harness;
let slow: Harness;
beforeAll(async () => {
  quick = await startHarness({
    jobDurationMs: 200,
    queuedMs: 50,
    archiveSizeBytes: 4 * 1024 * 1024,
    agentDurationMs: 60_000,
  });
  slow = await startHarness({ jobDurationMs: 120_000, queuedMs: 100 });
});
afterAll(async () => {
  await quick.stop();
  await slow.stop();
});

interface Phase {
  name: string;
  harness: () => Harness;
  faults: FaultRule[];
  /** stdout that shows the phase has begun. */
  marker: RegExp;
  /** Extra wait after the marker, so the phase is well under way. */
  settleMs: number;
  inputs?: Record<string, string>;
}

const PHASES: Phase[] = [
  {
    name: 'while starting',
    harness: () => quick,
    faults: [{ route: 'export.start', latencyMs: 10_000 }],
    marker: /::group::Starting/,
    settleMs: 300,
  },
  {
    name: 'while polling',
    harness: () => slow,
    faults: [],
    marker: /\] (queued|running)/,
    settleMs: 300,
  },
  {
    name: 'while getting the bundle link',
    harness: () => quick,
    faults: [{ route: 'export.bundle', latencyMs: 10_000 }],
    marker: /::group::Getting the bundle link/,
    settleMs: 300,
  },
  {
    name: 'while downloading',
    harness: () => quick,
    faults: [{ route: 'store.get', stallAfterBytes: 1024 * 1024 }],
    marker: /::group::Downloading/,
    settleMs: 500,
  },
  {
    name: 'while an agent job runs',
    harness: () => quick,
    faults: [],
    marker: /\] active/,
    settleMs: 300,
    inputs: { command: 'agent', 'project-id': 'demo-project', prompt: 'Fix the typos' },
  },
];

describe('cancellation', () => {
  for (const phase of PHASES) {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      it(`${signal} ${phase.name}`, async ({ task }) => {
        task.meta.expected = 'exit 1 within 2 s, temp removed, path untouched';
        const harness = phase.harness();
        harness.emulator.faults.clear();
        for (const fault of phase.faults) harness.emulator.faults.add(fault);
        const { workspace } = await workspaceWithSite();
        let sentAt = 0;
        const run = await harness.run(
          phase.inputs ?? { domain: 'docs.example.com', path: 'site', 'poll-interval': '0.5s' },
          {
            workspace,
            env: DEBUG,
            killAfterMs: 30_000,
            onSpawn: (pid, stdout) => {
              const timer = setInterval(() => {
                if (!phase.marker.test(stdout())) return;
                clearInterval(timer);
                setTimeout(() => {
                  sentAt = Date.now();
                  process.kill(pid, signal);
                }, phase.settleMs);
              }, 20);
            },
          },
        );
        harness.emulator.faults.clear();
        expect(sentAt, run.stdout).toBeGreaterThan(0);
        expect(Date.now() - sentAt).toBeLessThan(2000);
        expect(run.signal).toBeNull();
        expect(run.code).toBe(1);
        expect(errorLines(run)).toEqual([
          expect.stringMatching(new RegExp(`^::error::Cancelled \\(${signal}\\)\\.`)),
        ]);
        if (phase.inputs) expect(await fs.readdir(run.tempDir)).toEqual([]);
        else await expectUntouched(run, workspace);
      });
    }
  }
});

import { describe, expect, it, type TestContext } from 'vitest';
import type { FaultRule } from '../../emulator/index.js';
import fs from 'node:fs/promises';
import {
  addFaults,
  caseHarness,
  expectOneClearError,
  type Fault,
  HTTP_FAULTS,
  row,
  runCase,
  withDate,
} from './support.js';

/**
 * Faults at the phases of an agent job: the create call and the polls. A create is only
 * repeated when the server provably did not act (429, 503, a refused connection): after a
 * 500, 502, 504, a reset or a timeout the job may exist, and a second one would open a
 * second pull request, so the run fails and says so. Polls are always retried.
 */

const AGENT = {
  command: 'agent',
  'project-id': 'demo-project',
  prompt: 'Fix the typos',
  'poll-interval': '0.5s',
  'request-timeout': '1s',
};

const createRetried = (fault: Fault) => fault.status === 429 || fault.status === 503;

const agentHarness = (context: TestContext) =>
  caseHarness(context, { agentDurationMs: 1500, log: false });

const creates = (rules: { route: string }[]) =>
  rules.filter((r) => r.route === 'agent.create').length;

describe.concurrent('agent API faults', () => {
  for (const [name, fault] of HTTP_FAULTS) {
    const recovers = createRetried(fault);
    it(
      `create: ${name}`,
      row(
        recovers
          ? 'retried, one job, completed'
          : 'exit 1, one line "may have been created", not retried',
      ),
      async (context) => {
        const harness = await agentHarness(context);
        addFaults(harness, [{ route: 'agent.create', ...withDate(fault, harness) }]);
        const run = await runCase(harness, AGENT);
        expect(harness.emulator.faults.pending).toEqual([]);
        if (recovers) {
          expect(run.code, run.stdout).toBe(0);
          expect(run.outputs['agent-status']).toBe('completed');
          expect(creates(harness.emulator.requests)).toBe(2);
        } else {
          expectOneClearError(
            run,
            /Could not create an agent job in project demo-project.*may have been created anyway/,
          );
          expect(creates(harness.emulator.requests)).toBe(1);
          expect(run.outputs['agent-job-id']).toBeUndefined();
        }
        expect(harness.emulator.agentJobs.list().length).toBeLessThanOrEqual(1);
      },
    );
  }

  for (const [where, before] of [
    ['first poll', []],
    ['later poll', [{ route: 'agent.get', latencyMs: 0 }]],
  ] as [string, FaultRule[]][]) {
    for (const [name, fault] of HTTP_FAULTS) {
      it(`${where}: ${name}`, row('retried, one job, completed'), async (context) => {
        const harness = await agentHarness(context);
        addFaults(harness, [...before, { route: 'agent.get', ...withDate(fault, harness) }]);
        const run = await runCase(harness, AGENT);
        expect(harness.emulator.faults.pending).toEqual([]);
        expect(run.code, run.stdout).toBe(0);
        expect(run.outputs['agent-status']).toBe('completed');
        expect(run.outputs['pr-link']).toMatch(/^https:\/\//);
        expect(creates(harness.emulator.requests)).toBe(1);
        expect(await fs.readdir(run.tempDir)).toEqual([]);
      });
    }
  }
});

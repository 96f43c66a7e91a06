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
 * repeated when the server provably did not act (a 429, the API's own 503, a refused
 * connection): after a 500, 502, 504, a proxy's 503 page, a reset or a timeout the job
 * may exist, and a second one would open a second pull request, so the run fails and says
 * so. Polls are always retried.
 */

const AGENT = {
  command: 'agent',
  'project-id': 'demo-project',
  prompt: 'Fix the typos',
  'poll-interval': '0.5s',
  'request-timeout': '1s',
};

/** A 503 is the API's refusal only in its own words ({ error }) or with a Retry-After. */
const createRetried = (fault: Fault) =>
  fault.status === 429 ||
  (fault.status === 503 && (fault.body === 'json' || fault.retryAfter !== undefined));

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

  for (const [name, fault, retried] of [
    [
      'a proxy page (HTTP 503) after the service created the job',
      { status: 503, body: 'html' },
      false,
    ],
    [
      'a proxy page (HTTP 502) after the service created the job',
      { status: 502, body: 'html' },
      false,
    ],
    [
      'a gateway timeout (HTTP 504) after the service created the job',
      { status: 504, body: 'html' },
      false,
    ],
    // What asks to come back later did not act, whoever sends it; a server that does is wrong.
    [
      'HTTP 503 with Retry-After from a proxy',
      { status: 503, body: 'html', retryAfter: '1' },
      true,
    ],
  ] as [string, Fault, boolean][]) {
    it(
      `create: ${name}`,
      row(
        retried
          ? 'retried, one job, completed'
          : 'exit 1, "may have been created", one job on the server',
      ),
      async (context) => {
        const harness = await agentHarness(context);
        addFaults(harness, [{ route: 'agent.create', ...fault, handledFirst: !retried }]);
        const run = await runCase(harness, AGENT);
        if (retried) {
          expect(run.code, run.stdout).toBe(0);
          expect(creates(harness.emulator.requests)).toBe(2);
        } else {
          expectOneClearError(
            run,
            new RegExp(
              `Could not create an agent job in project demo-project \\(HTTP ${fault.status}: an HTML page titled "${fault.status} .*may have been created anyway`,
            ),
          );
          expect(creates(harness.emulator.requests)).toBe(1);
        }
        // Never a second job, so never a second pull request.
        expect(harness.emulator.agentJobs.list()).toHaveLength(1);
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

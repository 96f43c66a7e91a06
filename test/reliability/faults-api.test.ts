import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultRule } from '../../emulator/index.js';
import { type Harness, startHarness, treeDigest } from '../support/action.js';
import { DEBUG, expectOneClearError, expectUntouched, workspaceWithSite } from './support.js';
import path from 'node:path';

/**
 * Faults at the API phases of an export (start, each poll, bundle) and of an agent job.
 * Recoverable faults end in the same site as a clean run; the rest fail with one line.
 */

const HTTP_FAULTS: [string, Omit<FaultRule, 'route'>][] = [
  ['500 with a JSON body', { status: 500, body: 'json' }],
  ['500 with an HTML body', { status: 500, body: 'html' }],
  ['502 with a JSON body', { status: 502, body: 'json' }],
  ['502 with an HTML body', { status: 502, body: 'html' }],
  ['503 with a JSON body', { status: 503, body: 'json' }],
  ['503 with an HTML body', { status: 503, body: 'html' }],
  ['504 with a JSON body', { status: 504, body: 'json' }],
  ['504 with an HTML body', { status: 504, body: 'html' }],
  ['a connection reset', { reset: true }],
  ['a stalled answer (request-timeout)', { latencyMs: 2500 }],
  ['429 with Retry-After in seconds', { status: 429, body: 'json', retryAfter: '1' }],
  ['429 with Retry-After as an HTTP date', { status: 429, body: 'json', retryAfter: 'DATE+1' }],
  ['429 without Retry-After', { status: 429, body: 'json' }],
];

/** A 500 on start may mean the job exists: it is the one fault not retried there. */
function recoverable(route: string, fault: Omit<FaultRule, 'route'>): boolean {
  return !(route === 'export.start' && fault.status === 500);
}

let harness: Harness;
let reference: Record<string, string>;
const INPUTS = {
  domain: 'docs.example.com',
  path: 'site',
  'poll-interval': '0.5s',
  'request-timeout': '1s',
};

beforeAll(async () => {
  harness = await startHarness({
    jobDurationMs: 800,
    queuedMs: 100,
    pageCount: 5,
    agentDurationMs: 600,
  });
  const clean = await harness.run(INPUTS, { env: DEBUG });
  expect(clean.code, clean.stdout).toBe(0);
  reference = await treeDigest(path.join(clean.workspace, 'site'));
});
afterAll(async () => {
  await harness.stop();
});

function withDate(fault: Omit<FaultRule, 'route'>): Omit<FaultRule, 'route'> {
  return fault.retryAfter === 'DATE+1'
    ? { ...fault, retryAfter: new Date(Date.now() + 1500).toUTCString() }
    : fault;
}

describe('export: faults at start, poll and bundle', () => {
  for (const [route, phase] of [
    ['export.start', 'start'],
    ['export.get', 'poll'],
    ['export.bundle', 'bundle'],
  ] as const) {
    for (const [name, fault] of HTTP_FAULTS) {
      const recovers = recoverable(route, fault);
      it(`${phase}: ${name}`, async ({ task }) => {
        task.meta.expected = recovers ? 'recovers, same files' : 'fails, one clear line';
        harness.emulator.faults.clear();
        harness.emulator.faults.add({ route, ...withDate(fault) });
        const { workspace } = await workspaceWithSite();
        const run = await harness.run(INPUTS, { workspace, env: DEBUG });
        if (recovers) {
          expect(run.code, run.stdout).toBe(0);
          expect(await treeDigest(path.join(workspace, 'site'))).toEqual(reference);
        } else {
          expectOneClearError(run, /Could not start the static export .*HTTP 500/);
          await expectUntouched(run, workspace);
        }
        expect(harness.emulator.faults.pending).toEqual([]);
      });
    }
  }

  it('poll: an error body that echoes the Authorization header is scrubbed', async ({ task }) => {
    task.meta.expected = 'recovers, key scrubbed';
    harness.emulator.faults.clear();
    harness.emulator.faults.add({
      route: 'export.get',
      status: 503,
      body: 'json',
      echoAuthorization: true,
    });
    const run = await harness.run(INPUTS, { env: DEBUG });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Bearer \*\*\*/);
  });

  it('start: a 400 that echoes the Authorization header fails without the key', async ({
    task,
  }) => {
    task.meta.expected = 'fails, one clear line, key scrubbed';
    harness.emulator.faults.clear();
    harness.emulator.faults.add({
      route: 'export.start',
      status: 400,
      body: 'json',
      echoAuthorization: true,
    });
    const { workspace } = await workspaceWithSite();
    const run = await harness.run(INPUTS, { workspace, env: DEBUG });
    expectOneClearError(run, /HTTP 400: .*Bearer \*\*\*/);
    await expectUntouched(run, workspace);
  });
});

describe('agent: faults at create and poll', () => {
  const AGENT = {
    command: 'agent',
    'project-id': 'demo-project',
    prompt: 'Fix the typos',
    'poll-interval': '0.5s',
  };
  const cases: [string, FaultRule, boolean][] = [
    [
      'create: 502 (not retried: a second job would open a second pull request)',
      { route: 'agent.create', status: 502, body: 'html' },
      false,
    ],
    ['create: 504 (not retried)', { route: 'agent.create', status: 504, body: 'json' }, false],
    ['create: a connection reset (not retried)', { route: 'agent.create', reset: true }, false],
    [
      'create: 503 (refused before acting: retried)',
      { route: 'agent.create', status: 503, body: 'json' },
      true,
    ],
    [
      'create: 429 with Retry-After',
      { route: 'agent.create', status: 429, body: 'json', retryAfter: '1' },
      true,
    ],
    ['create: 429 without Retry-After', { route: 'agent.create', status: 429, body: 'json' }, true],
    ['poll: 502 with an HTML body', { route: 'agent.get', status: 502, body: 'html' }, true],
    ['poll: a connection reset', { route: 'agent.get', reset: true }, true],
  ];
  for (const [name, fault, recovers] of cases) {
    it(name, async ({ task }) => {
      task.meta.expected = recovers ? 'recovers' : 'fails, one clear line, one create';
      harness.emulator.faults.clear();
      harness.emulator.faults.add(fault);
      const creates = () =>
        harness.emulator.requests.filter((r) => r.route === 'agent.create').length;
      const before = creates();
      const run = await harness.run(AGENT, { env: DEBUG });
      if (recovers) {
        expect(run.code, run.stdout).toBe(0);
        expect(run.outputs['agent-status']).toBe('completed');
      } else {
        expectOneClearError(run, /Could not create an agent job .*may have been created anyway/);
        expect(creates() - before).toBe(1);
      }
    });
  }
});

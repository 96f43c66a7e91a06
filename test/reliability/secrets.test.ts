import fs from 'node:fs/promises';
import { describe, expect, it, type TestContext } from 'vitest';
import type { FaultRule } from '../../emulator/index.js';
import { type CaseRun, errorLines, visibleText } from '../support/in-process.js';
import {
  addFaults,
  caseHarness,
  expectOneClearError,
  expectUntouched,
  row,
  runCase,
  workspaceWithSite,
} from './support.js';

/**
 * The key in every place a leak could come from. Every case of the suite already checks
 * that the key is in no output (the log with its debug lines, the outputs, the summary)
 * and that the storage never received an Authorization header; these cases aim at the
 * paths where it could slip through: error bodies that echo the request's Authorization
 * header back, on every route and in every body type, on the success and failure paths,
 * and the key pasted where it does not belong.
 */

const EXPORT = {
  domain: 'docs.example.com',
  path: 'site',
  'poll-interval': '0.5s',
  'request-timeout': '1s',
};
const AGENT = {
  command: 'agent',
  'project-id': 'demo-project',
  prompt: 'Fix the typos',
  'poll-interval': '0.5s',
};

/** No run of ten characters of the key's secret part appears (a cut key is a leak too). */
function expectNoKeyFragment(run: CaseRun, key: string): void {
  const text = visibleText(run)
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
  const secret = key.slice(key.indexOf('_') + 1);
  for (let at = 0; at + 10 <= secret.length; at += 1) {
    expect(text).not.toContain(secret.slice(at, at + 10));
  }
}

interface EchoCase {
  name: string;
  rule: FaultRule;
  command: 'export' | 'agent';
  recovers: boolean;
  /** The error line of an unrecoverable case. */
  message?: RegExp;
  inputs?: Record<string, string>;
}

const ECHOES: EchoCase[] = [
  {
    name: 'start: 400, JSON body echoing the Authorization header',
    rule: { route: 'export.start', status: 400, body: 'json', echoAuthorization: true },
    command: 'export',
    recovers: false,
    message: /HTTP 400.*Bearer \*\*\*/,
  },
  {
    name: 'start: 401, body echoing the Authorization header',
    rule: { route: 'export.start', echoAuthorization: true },
    command: 'export',
    recovers: false,
    message: /HTTP 401.*api-key/,
  },
  {
    name: 'start: 403, HTML body echoing the Authorization header',
    rule: { route: 'export.start', status: 403, body: 'html', echoAuthorization: true },
    command: 'export',
    recovers: false,
    message: /HTTP 403/,
  },
  {
    name: 'poll: 503, JSON body echoing the Authorization header',
    rule: { route: 'export.get', status: 503, body: 'json', echoAuthorization: true },
    command: 'export',
    recovers: true,
  },
  {
    name: 'poll: 502, HTML body echoing the Authorization header',
    rule: { route: 'export.get', status: 502, body: 'html', echoAuthorization: true },
    command: 'export',
    recovers: true,
  },
  {
    name: 'poll: 503 echoing the header on every try, until the timeout',
    rule: {
      route: 'export.get',
      status: 503,
      body: 'json',
      echoAuthorization: true,
      times: Infinity,
    },
    command: 'export',
    recovers: false,
    message: /./,
    inputs: { timeout: '4s' },
  },
  {
    name: 'bundle: 500, plain-text body echoing the Authorization header',
    rule: {
      route: 'export.bundle',
      status: 500,
      body: 'upstream error',
      echoAuthorization: true,
    },
    command: 'export',
    recovers: true,
  },
  {
    name: 'storage: 403 echoing the Authorization header it received',
    rule: { route: 'store.get', status: 403, echoAuthorization: true },
    command: 'export',
    recovers: false,
    message: /storage refused the bundle link \(HTTP 403/,
  },
  {
    name: 'agent create: 400 echoing the Authorization header',
    rule: { route: 'agent.create', status: 400, body: 'json', echoAuthorization: true },
    command: 'agent',
    recovers: false,
    message: /HTTP 400.*Bearer \*\*\*/,
  },
  {
    name: 'agent poll: 500, HTML body echoing the Authorization header',
    rule: { route: 'agent.get', status: 500, body: 'html', echoAuthorization: true },
    command: 'agent',
    recovers: true,
  },
];

const echoHarness = (context: TestContext) =>
  caseHarness(context, { jobDurationMs: 600, queuedMs: 100, agentDurationMs: 600 });

describe.concurrent('secrets', () => {
  for (const command of ['export', 'agent'] as const) {
    it(
      `a successful ${command} in debug mode`,
      row('no key anywhere, debug lines present, storage never sees it'),
      async (context) => {
        const harness = await echoHarness(context);
        const run = await runCase(harness, command === 'export' ? EXPORT : AGENT);
        expect(run.code, run.stdout).toBe(0);
        expect(run.stdout.match(/^::debug::/gm)?.length).toBeGreaterThan(3);
        expectNoKeyFragment(run, harness.emulator.keys.write);
        // The key was sent where it belongs: every API request carried it.
        const api = harness.emulator.requests.filter((r) => r.server === 'api');
        expect(api.every((r) => r.hasAuthorization)).toBe(true);
      },
    );
  }

  for (const echo of ECHOES) {
    it(
      echo.name,
      row(
        echo.recovers
          ? 'recovers; the echoed key is scrubbed'
          : 'exit 1, one clear line without the key',
      ),
      async (context) => {
        const harness = await echoHarness(context);
        addFaults(harness, [echo.rule]);
        const { workspace } = await workspaceWithSite();
        const run = await runCase(
          harness,
          { ...(echo.command === 'export' ? EXPORT : AGENT), ...echo.inputs },
          { workspace },
        );
        expectNoKeyFragment(run, harness.emulator.keys.write);
        if (echo.recovers) {
          expect(run.code, run.stdout).toBe(0);
          expect(run.stdout).toMatch(/trying again/);
          // A JSON or text echo is shown, scrubbed (an HTML page is shown by its title).
          if (echo.rule.body !== 'html') expect(run.stdout).toMatch(/Bearer \*\*\*/);
        } else {
          expectOneClearError(run, echo.message as RegExp);
          if (echo.command === 'export') await expectUntouched(run, workspace);
        }
        expect(run.summary).not.toContain(harness.emulator.keys.write);
      },
    );
  }

  it(
    'the key pasted into another input that is refused',
    row('exit 1 naming project-id, the key not shown'),
    async (context) => {
      const harness = await echoHarness(context);
      const key = harness.emulator.keys.write;
      const run = await runCase(harness, { ...AGENT, 'project-id': `${key}/docs` });
      expect(run.code).toBe(1);
      expect(errorLines(run)).toEqual([
        expect.stringMatching(/^::error::Invalid input project-id/),
      ]);
      expectNoKeyFragment(run, key);
    },
  );

  it(
    'the key pasted into job-id (a valid id), answered with a 404 naming it',
    row('exit 1, one line, the key not shown'),
    async (context) => {
      const harness = await echoHarness(context);
      const key = harness.emulator.keys.write;
      const { workspace } = await workspaceWithSite();
      const run = await runCase(harness, { ...EXPORT, 'job-id': key }, { workspace });
      expectOneClearError(run, /HTTP 404/);
      expectNoKeyFragment(run, key);
      await expectUntouched(run, workspace);
    },
  );

  it(
    'the key inside a prompt whose first line the log cuts at 80 characters',
    row('completes; no fragment of the key in the log or summary'),
    async (context) => {
      const harness = await echoHarness(context);
      const key = harness.emulator.keys.write;
      // 60 characters, then the key: the 80-character headline holds 14 of its secret ones.
      const prompt = `Rotate ${'a'.repeat(52)} ${key} everywhere`;
      const run = await runCase(harness, { ...AGENT, prompt });
      expect(run.code, run.stdout).toBe(0);
      expectNoKeyFragment(run, key);
    },
  );

  it(
    'the key inside a short prompt',
    row('completes; the key scrubbed from log and summary'),
    async (context) => {
      const harness = await echoHarness(context);
      const key = harness.emulator.keys.write;
      const run = await runCase(harness, { ...AGENT, prompt: `Rotate ${key} in the docs` });
      expect(run.code, run.stdout).toBe(0);
      expect(run.stdout).toMatch(/Prompt: Rotate \*\*\* in the docs/);
      expectNoKeyFragment(run, key);
    },
  );

  it(
    'mask-bundle-url: the presigned link stays out of the log and the summary',
    row('succeeds; no signature in stdout or the summary'),
    async (context) => {
      const harness = await echoHarness(context);
      const run = await runCase(harness, { ...EXPORT, 'mask-bundle-url': 'true' });
      expect(run.code, run.stdout).toBe(0);
      const signature = new URL(run.outputs['bundle-url'] as string).searchParams.get(
        'X-Amz-Signature',
      ) as string;
      expect(signature).toMatch(/^[0-9a-f]{64}$/);
      const logged = run.stdout
        .split('\n')
        .filter((line) => !line.startsWith('::add-mask::'))
        .join('\n');
      expect(logged).not.toContain(signature);
      expect(run.summary).not.toContain(signature);
      expect(await fs.readdir(run.tempDir)).toEqual([]);
    },
  );
});

import { Agent, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../support/virtual-clock.js';
import { runAction } from './support/action.js';
import { type Prism, startPrism } from './support/prism.js';

/**
 * The API's edges against Prism serving the project's own OpenAPI description of the
 * published routes (test/peers/openapi/admin-api.yaml). Prism refuses requests the
 * description does not allow, and answers with its examples; a test picks another answer
 * with a `Prefer` header, added on the way by the dispatcher it gives the run.
 */

let prism: Prism;
beforeAll(async () => {
  prism = await startPrism();
});
afterAll(() => prism?.stop());

/** A clock whose waits pass at once: Prism answers at once too, so runs take milliseconds. */
function instantClock(): VirtualClock & { elapsed(): number } {
  const start = Date.UTC(2026, 0, 15, 12, 0, 0);
  let now = start;
  const clock = new VirtualClock({ now: () => now, advance: (ms) => (now += ms) });
  return Object.assign(clock, { elapsed: () => now - start });
}

/** A dispatcher that records `METHOD path` and adds the `Prefer` header `choose` names. */
function towardsPrism(choose: (method: string, path: string, count: number) => string | undefined) {
  const seen: string[] = [];
  const dispatcher: Dispatcher = new Agent().compose((dispatch) => (options, handler) => {
    const line = `${options.method} ${options.path}`;
    seen.push(line);
    const prefer = choose(options.method, options.path, seen.filter((s) => s === line).length);
    const headers = { ...(options.headers as Record<string, string>) };
    if (prefer) headers.prefer = prefer;
    return dispatch({ ...options, headers }, handler);
  });
  return { dispatcher, seen };
}

const EXPORT = { domain: 'docs.example.com', download: 'false' };

describe('export against the published routes (Prism)', () => {
  it('project-id on export uses the published routes, says so, and every request is valid', async () => {
    const { dispatcher, seen } = towardsPrism(() => undefined);
    const run = await runAction(
      {
        ...EXPORT,
        'base-url': prism.baseUrl,
        'project-id': 'demo-project',
        'docs-version': 'v2',
        'export-paths': 'guides/intro, api/reference',
      },
      { dispatcher, clock: instantClock() },
    );
    expect(run.code, run.error).toBe(0);
    expect(seen).toEqual([
      'POST /v1/static-export/jobs',
      'GET /v1/static-export/jobs/se_0a1b2c3d4e5f6071',
      'POST /v1/static-export/jobs/se_0a1b2c3d4e5f6071/bundle',
    ]);
    expect(run.outputs).toMatchObject({
      'job-id': 'se_0a1b2c3d4e5f6071',
      status: 'completed',
      'page-count': '12',
      'size-bytes': '18432000',
      'expires-at': '2099-01-01T00:00:00.000Z',
    });
    expect(run.lines).toContain(
      'info: `project-id` is set, but the published export routes (/v1/static-export/jobs) answered: they are used, and `project-id` is not needed for export.',
    );
  });

  it('a 409 from the bundle call after the job completed is tried for two minutes, not the whole timeout', async () => {
    const clock = instantClock();
    const { dispatcher, seen } = towardsPrism((method, path) =>
      path.endsWith('/bundle') ? 'code=409' : undefined,
    );
    const run = await runAction(
      { ...EXPORT, 'base-url': prism.baseUrl, timeout: '30m' },
      { dispatcher, clock },
    );
    expect(run.code).toBe(1);
    expect(run.error).toMatch(
      /^Export job se_0a1b2c3d4e5f6071 reported completed, but its bundle call answered HTTP 409 \(Export job has not finished yet\) \d+ times over (1m 5\ds|2m 00s): the service does not agree with itself\. .*job-id: se_0a1b2c3d4e5f6071/,
    );
    expect(clock.elapsed()).toBeLessThan(3 * 60_000);
    expect(seen.filter((s) => s.endsWith('/bundle')).length).toBeGreaterThan(10);
  });

  it('the bundle is asked for the job the run was given, whatever job a status answer names', async () => {
    const { dispatcher, seen } = towardsPrism(() => undefined);
    const run = await runAction(
      { ...EXPORT, 'base-url': prism.baseUrl, 'job-id': 'se_fedcba9876543210' },
      { dispatcher, clock: instantClock() },
    );
    expect(run.code, run.error).toBe(0);
    expect(seen).toEqual([
      'GET /v1/static-export/jobs/se_fedcba9876543210',
      'POST /v1/static-export/jobs/se_fedcba9876543210/bundle',
    ]);
    expect(run.outputs['job-id']).toBe('se_fedcba9876543210');
    expect(run.lines).toContain(
      'warning: The status answer for export job se_fedcba9876543210 names job se_0a1b2c3d4e5f6071: following se_fedcba9876543210, the job this run asked for.',
    );
    expect(run.lines.some((l) => l.startsWith('warning: The bundle answer names'))).toBe(true);
  });

  it('with download: false, a link that has already expired is exchanged for a fresh one', async () => {
    const { dispatcher, seen } = towardsPrism((method, path, count) =>
      path.endsWith('/bundle') && count === 1 ? 'example=expired' : undefined,
    );
    const run = await runAction(
      { ...EXPORT, 'base-url': prism.baseUrl },
      { dispatcher, clock: instantClock() },
    );
    expect(run.code, run.error).toBe(0);
    expect(seen.filter((s) => s.endsWith('/bundle'))).toHaveLength(2);
    expect(run.outputs['expires-at']).toBe('2099-01-01T00:00:00.000Z');
  });

  it('with download: false, links that are expired on arrival fail the step clearly', async () => {
    const { dispatcher } = towardsPrism((method, path) =>
      path.endsWith('/bundle') ? 'example=expired' : undefined,
    );
    const run = await runAction(
      { ...EXPORT, 'base-url': prism.baseUrl },
      { dispatcher, clock: instantClock() },
    );
    expect(run.code).toBe(1);
    expect(run.error).toMatch(
      /^The API hands out bundle links that have already expired \(expiresAt 2020-01-01/,
    );
    expect(run.outputs['bundle-url']).toBeUndefined();
  });

  it.each([
    [
      'names-a-field',
      /\(HTTP 400: domain must be a hostname, without a scheme or a path\)\. Check domain\.$/,
    ],
    // Words that name no input leave the user nothing to act on: what the vendor documents
    // a start's 400 to mean (the domain, the paths) is named instead, as a list to check.
    [
      'names-nothing',
      /\(HTTP 400: Bad request\)\. The service does not say which input it refuses: check `domain` \(the bare hostname the docs are served at, such as docs\.example\.com\), `docs-version` \(when set, a version the site publishes\) and `export-paths` \(when set, page paths such as guides\/intro\)\.$/,
    ],
  ])(
    'a 400 whose message %s gets advice about the inputs it names, else all of them',
    async (example, message) => {
      const { dispatcher } = towardsPrism((method) =>
        method === 'POST' ? `code=400, example=${example}` : undefined,
      );
      const run = await runAction(
        { ...EXPORT, 'base-url': prism.baseUrl },
        { dispatcher, clock: instantClock() },
      );
      expect(run.code).toBe(1);
      expect(run.error).toMatch(message);
    },
  );

  it('a job id beyond letters and digits (any string, as the description allows) is used, encoded', async () => {
    const { dispatcher, seen } = towardsPrism((method, path) =>
      path === '/v1/static-export/jobs' ? 'example=unusual-id' : undefined,
    );
    const run = await runAction(
      { ...EXPORT, 'base-url': prism.baseUrl },
      { dispatcher, clock: instantClock() },
    );
    expect(run.code, run.error).toBe(0);
    expect(run.outputs['job-id']).toBe('export:2026-01-15 #1');
    expect(seen[1]).toBe('GET /v1/static-export/jobs/export%3A2026-01-15%20%231');
  });
});

describe('agent jobs against the published routes (Prism)', () => {
  const AGENT = { command: 'agent', 'project-id': 'demo-project', prompt: 'Fix the typos' };

  it.each([
    ['already failed', 'example=failed', 1],
    ['active', undefined, 0],
  ] as const)('wait: false with a create answer that is %s: exit %i', async (_, prefer, code) => {
    const { dispatcher, seen } = towardsPrism(() => prefer);
    const run = await runAction(
      { ...AGENT, wait: 'false', 'base-url': prism.baseUrl },
      { dispatcher, clock: instantClock() },
    );
    expect(run.code, run.error).toBe(code);
    expect(seen).toEqual(['POST /v2/agent/demo-project/job']);
    if (code === 1) {
      expect(run.error).toMatch(/^Agent job aj_5e6f7a8b9c0d1e2f3a4b5c6d failed right away/);
      expect(run.outputs['agent-status']).toBe('failed');
    }
  });

  const FOLLOW_UP = { ...AGENT, 'agent-job-id': 'aj_5e6f7a8b9c0d1e2f3a4b5c6d', wait: 'false' };

  it('a follow-up is a valid message to the job, and its answer sets the outputs', async () => {
    const { dispatcher, seen } = towardsPrism(() => undefined);
    const run = await runAction(
      { ...FOLLOW_UP, 'base-url': prism.baseUrl },
      { dispatcher, clock: instantClock() },
    );
    expect(run.code, run.error).toBe(0);
    expect(seen).toContain('POST /v2/agent/demo-project/job/aj_5e6f7a8b9c0d1e2f3a4b5c6d/message');
    expect(seen).not.toContain('POST /v2/agent/demo-project/job');
    expect(run.outputs).toMatchObject({
      'agent-job-id': 'aj_5e6f7a8b9c0d1e2f3a4b5c6d',
      'agent-status': 'active',
      'pr-link': 'https://github.com/example/docs/pull/7',
    });
  });

  it('a follow-up to a job the project does not have says which inputs to check', async () => {
    const { dispatcher } = towardsPrism((method, path) =>
      path.endsWith('/message') ? 'code=404' : undefined,
    );
    const run = await runAction(
      { ...FOLLOW_UP, 'base-url': prism.baseUrl },
      { dispatcher, clock: instantClock() },
    );
    expect(run.code).toBe(1);
    expect(run.error).toMatch(/HTTP 404: Job not found.*Check `agent-job-id` and `project-id`/);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../emulator/index.js';
import type { Emulator, EmulatorOptions, FaultRule, Route } from '../../emulator/index.js';
import { AdminApi } from '../../src/api/client.js';
import type { AdminApiOptions, RetryEvent } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { type Clock, systemClock } from '../../src/clock.js';
import { CancelledError } from '../../src/errors.js';
import { retryAfterMs } from '../../src/http.js';
import { backoffDelay } from '../../src/retry.js';
import { parseServiceUrl } from '../../src/net.js';
import { failingLookups } from '../support/failing-lookup.js';

/** A whole second, so HTTP dates (second resolution) convert to exact delays. */
const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

/** A clock whose sleeps pass instantly and are recorded; `onSleep` can move other clocks too. */
function fakeClock(onSleep?: (ms: number) => void) {
  let t = T0;
  const sleeps: number[] = [];
  const clock: Clock = {
    now: () => t,
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      t += ms;
      onSleep?.(ms);
    },
  };
  return { clock, sleeps };
}

let emulator: Emulator;
let cacheDir: string;
let dispatcher: Agent;
/** An export job that has completed, and an agent job that exists, for read calls. */
let completedJobId: string;
let agentJobId: string;

/** A client of the shared emulator with a fake clock, random 0.5, and captured output. */
function client(overrides: Partial<AdminApiOptions> = {}, target: Emulator = emulator) {
  const fake = fakeClock();
  const retries: RetryEvent[] = [];
  const lines: string[] = [];
  const api = new AdminApi({
    baseUrl: new URL(target.baseUrl),
    apiKey: target.keys.write,
    dispatcher,
    clock: fake.clock,
    random: () => 0.5,
    requestTimeoutMs: 5000,
    onRetry: (event) => retries.push(event),
    debug: (line) => lines.push(line),
    ...overrides,
  });
  return { api, sleeps: fake.sleeps, retries, lines };
}

/** The ApiError a call rejects with. */
async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const outcome = await promise.then(
    () => 'resolved',
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(ApiError);
  return outcome as ApiError;
}

/** Requests the emulator received for one route since the test started. */
const sent = (route: Route, target: Emulator = emulator): number =>
  target.requests.filter((r) => route === '*' || r.route === route).length;

async function startOwnEmulator(options: EmulatorOptions): Promise<Emulator> {
  return startEmulator({ log: false, timeScale: 0, cacheDir, ...options });
}

beforeAll(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'api-client-test-'));
  dispatcher = new Agent();
  emulator = await startOwnEmulator({ agentRateLimit: 10_000 });
  const { api } = client();
  completedJobId = (await api.startExport({ domain: 'docs.example.com' })).jobId;
  emulator.clock.advance(60_000);
  agentJobId = (await api.createAgentJob('demo-project', 'Fix the typos')).id;
});

afterAll(async () => {
  await emulator.stop();
  await dispatcher.close();
  await rm(cacheDir, { recursive: true, force: true });
});

beforeEach(() => {
  emulator.faults.clear();
  emulator.requests.length = 0;
});

/** A loopback reverse proxy serving the API under a path prefix, recording what it saw. */
async function startPrefixProxy(prefix: string, upstream: string) {
  const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = req.url ?? '/';
      seen.push({ method: req.method ?? '', url, headers: req.headers, body });
      if (!url.startsWith(`${prefix}/`)) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: `no route ${url}` }));
        return;
      }
      const forward = httpRequest(
        `${upstream}${url.slice(prefix.length)}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('base URL', () => {
  it.each([
    ['https://api.mintlify.com', true],
    ['https://docs-admin.example.com/admin', true],
    ['http://127.0.0.1:4010', true],
    ['http://127.8.9.10', true],
    ['http://localhost:8080', true],
    ['http://[::1]:4010', true],
    ['http://api.mintlify.com', false],
    ['http://10.0.0.5', false],
    ['http://127.0.0.1.example.com', false],
    ['ftp://api.mintlify.com', false],
    ['https://user:secret@api.mintlify.com', false],
    ['api.mintlify.com', false],
  ])('the base URL %s is accepted: %s', (text, accepted) => {
    expect(parseServiceUrl(text) instanceof URL).toBe(accepted);
  });

  it('a client given a plain-http base URL outside loopback never connects, so the key stays home', async () => {
    const connects: string[] = [];
    const recording = new Agent({
      connect: (options, callback) => {
        connects.push(options.hostname);
        callback(new Error('blocked by the test'), null);
      },
    });
    let error: unknown;
    try {
      const { api } = client({
        baseUrl: new URL('http://api.example.com'),
        dispatcher: recording,
      });
      await api.getExportJob('se_1');
    } catch (err) {
      error = err;
    }
    await recording.close();
    expect(connects).toEqual([]);
    expect(String(error)).toMatch(/https/);
  });

  it.each([
    ['ENOTFOUND', 'dns', /does not resolve from this runner/],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'tls', /NODE_EXTRA_CA_CERTS/],
    ['CERT_HAS_EXPIRED', 'tls', /runner's clock/],
  ])(
    'a connection failing with %s is a %s error, reported after one attempt',
    async (code, kind, advice) => {
      let connects = 0;
      const failing = new Agent({
        connect: (_options, callback) => {
          connects += 1;
          callback(Object.assign(new Error(`connect failed: ${code}`), { code }), null);
        },
      });
      const { api, sleeps } = client({
        baseUrl: new URL('https://api.example.com'),
        dispatcher: failing,
      });
      const error = await failure(api.getExportJob('se_1'));
      await failing.close();
      expect(connects).toBe(1);
      expect(sleeps).toEqual([]);
      expect(error.kind).toBe(kind);
      expect(error.message).toMatch(advice);
      expect(error.message).toContain(`(${code})`);
    },
  );

  it('a name lookup that fails for now (EAI_AGAIN) is tried again, then named as DNS', async () => {
    const lookups: string[] = [];
    // The lookup fails as getaddrinfo does when the resolver does not answer: nothing
    // leaves the machine.
    const failing = new Agent({
      connect: {
        lookup: ((hostname: string, _options: unknown, callback: (err: Error) => void) => {
          lookups.push(hostname);
          callback(
            Object.assign(new Error(`getaddrinfo EAI_AGAIN ${hostname}`), {
              code: 'EAI_AGAIN',
              syscall: 'getaddrinfo',
              hostname,
            }),
          );
        }) as never,
      },
    });
    const { api, sleeps } = client({
      baseUrl: new URL('https://api.example.invalid'),
      dispatcher: failing,
    });
    const error = await failure(api.getExportJob('se_1'));
    await failing.close();
    expect(lookups.length).toBeGreaterThan(2);
    expect(lookups.every((host) => host === 'api.example.invalid')).toBe(true);
    expect(sleeps.length).toBe(lookups.length - 1);
    expect(error.kind).toBe('dns');
    expect(error.message).toMatch(
      /^Could not read export job se_1: the host name api\.example\.invalid did not resolve: the runner's DNS failed for now \(EAI_AGAIN\)\. Check the runner's DNS resolver/,
    );
  });

  it.each(['/admin', '/admin/', '/admin//'])(
    'a base URL with the path prefix %s is kept in front of every endpoint',
    async (suffix) => {
      const proxy = await startPrefixProxy('/admin', emulator.baseUrl);
      try {
        const { api } = client({ baseUrl: new URL(`${proxy.origin}${suffix}`) });
        const started = await api.startExport({ domain: 'docs.example.com' });
        await api.getExportJob(completedJobId);
        await api.createBundle(completedJobId);
        const agent = await api.createAgentJob('demo-project', 'Fix the typos');
        await api.getAgentJob('demo-project', agent.id);
        expect(proxy.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
          'POST /admin/v1/static-export/jobs',
          `GET /admin/v1/static-export/jobs/${completedJobId}`,
          `POST /admin/v1/static-export/jobs/${completedJobId}/bundle`,
          'POST /admin/v2/agent/demo-project/job',
          `GET /admin/v2/agent/demo-project/job/${agent.id}`,
        ]);
        expect(started.status).toBe('queued');
      } finally {
        await proxy.close();
      }
    },
  );
});

describe('requests and answers', () => {
  it('every request carries the key as a bearer token, and POST bodies go out as JSON', async () => {
    const proxy = await startPrefixProxy('/api', emulator.baseUrl);
    try {
      const { api } = client({ baseUrl: new URL(`${proxy.origin}/api`) });
      await api.startExport({ domain: 'docs.example.com', version: 'v2', paths: ['/guides'] });
      await api.getExportJob(completedJobId);
      const [post, get] = proxy.seen;
      for (const request of [post, get]) {
        expect(request?.headers.authorization).toBe(`Bearer ${emulator.keys.write}`);
        expect(request?.headers.accept).toBe('application/json');
        expect(request?.headers['user-agent']).toBe('static-export-action');
      }
      expect(post?.headers['content-type']).toBe('application/json');
      expect(JSON.parse(post?.body ?? '')).toEqual({
        domain: 'docs.example.com',
        version: 'v2',
        paths: ['/guides'],
      });
      expect(get?.headers['content-type']).toBeUndefined();
      expect(get?.body).toBe('');
    } finally {
      await proxy.close();
    }
  });

  it('starting an export returns the queued job with its id, and the server got domain, version and paths', async () => {
    const { api } = client();
    const job = await api.startExport({ domain: 'docs.example.com', version: 'v3', paths: ['/a'] });
    expect(job).toMatchObject({ status: 'queued', pageCount: 0 });
    expect(job.createdAt).toBeInstanceOf(Date);
    expect(emulator.exportJobs.get(job.jobId)).toMatchObject({ version: 'v3', paths: ['/a'] });
  });

  it('a completed export job reads as completed and its bundle link comes with size and expiry', async () => {
    const { api } = client();
    expect(await api.getExportJob(completedJobId)).toMatchObject({
      status: 'completed',
      progress: 100,
    });
    const link = await api.createBundle(completedJobId);
    expect(new URL(link.bundleUrl).origin).toBe(emulator.storeUrl);
    expect(link.jobId).toBe(completedJobId);
    expect(link.sizeBytes).toBeGreaterThan(0);
    expect(link.expiresAt?.getTime()).toBeGreaterThan(emulator.clock.now());
  });

  it('with a project, the project-scoped export routes are used when the published ones do not exist, and its completed job carries the link', async () => {
    const inline = await startOwnEmulator({ variant: 'inline-bundle' });
    try {
      const { api } = client({}, inline);
      const job = await api.startExport({ domain: 'docs.example.com', projectId: 'demo-project' });
      inline.clock.advance(60_000);
      const done = await api.getExportJob(job.jobId, 'demo-project');
      expect(done.status).toBe('completed');
      expect(done.bundleUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      expect(done.expiresAt).toBeInstanceOf(Date);
      expect(api.exportRoutes).toBe('project');
      expect(inline.requests.map((r) => `${r.path} ${r.status}`)).toEqual([
        '/v1/static-export/jobs 404',
        '/v1/static-export/demo-project/jobs 202',
        `/v1/static-export/demo-project/jobs/${job.jobId} 200`,
      ]);
    } finally {
      await inline.stop();
    }
  });

  it('a new agent job whose create answer lacks status reads as active, then completes with a PR link', async () => {
    const { api } = client();
    const created = await api.createAgentJob('demo-project', 'Document the CLI flags');
    expect(created.status).toBe('active');
    expect(created.source.repository).toBe('https://github.com/example/docs');
    emulator.clock.advance(60_000);
    const done = await api.getAgentJob('demo-project', created.id);
    expect(done.status).toBe('completed');
    expect(done.prLink).toMatch(/^https:\/\/github\.com\/example\/docs\/pull\/\d+$/);
  });

  it('a job answer with an unknown status, numbers as strings, extra fields and no optional fields is accepted', async () => {
    emulator.faults.add({
      route: 'export.get',
      status: 200,
      body: JSON.stringify({
        jobId: 'se_3f9a2c1b8e7d4a06',
        status: 'Waiting_For_Capacity',
        progress: '42.5',
        pageCount: '7',
        region: 'eu-west-1',
        nested: { anything: [1, 2] },
      }),
    });
    const job = await client().api.getExportJob('se_3f9a2c1b8e7d4a06');
    expect(job).toEqual({
      jobId: 'se_3f9a2c1b8e7d4a06',
      status: 'waiting_for_capacity',
      progress: 42.5,
      pageCount: 7,
    });
  });

  it('an id given by the caller that would change the path is refused before any request', async () => {
    for (const id of ['../jobs/x', 'a/b', '..', '%2e%2e', 'a\\b', 'x\ny']) {
      const error = await failure(client().api.getExportJob(id));
      expect(error.message).toMatch(/would change the request path/);
    }
    expect(emulator.requests).toEqual([]);
  });

  it('any other id the vendor allows is sent encoded, as one path segment', async () => {
    const error = await failure(client().api.getExportJob('se 1?x=1#y%z'));
    expect(error.status).toBe(404);
    expect(emulator.requests.map((r) => r.path)).toEqual([
      '/v1/static-export/jobs/se%201%3Fx%3D1%23y%25z',
    ]);
  });

  it('an id from the API with characters beyond letters and digits is accepted and used encoded', async () => {
    emulator.faults.add({
      route: 'export.get',
      status: 200,
      body: JSON.stringify({ jobId: 'job:2026/x'.replace('/', '-') + ' é?', status: 'running' }),
    });
    const job = await client().api.getExportJob(completedJobId);
    expect(job.jobId).toBe('job:2026-x é?');
  });

  it('an already expired bundle link is handed back with its past expiry, for the caller to regenerate', async () => {
    emulator.faults.add({ route: 'export.bundle', expireLink: true });
    const link = await client().api.createBundle(completedJobId);
    expect(link.expiresAt?.getTime()).toBeLessThan(emulator.clock.now());
    expect(link.bundleUrl).toContain('X-Amz-Signature=');
  });

  it('each answer is written to debug as one line with method, path, status, time and size', async () => {
    const { api, lines } = client();
    await api.getExportJob(completedJobId);
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(`^GET /v1/static-export/jobs/${completedJobId} → 200 \\(0 ms, \\d+ bytes\\)$`),
      ),
    ]);
  });
});

describe('refused and broken answers', () => {
  it.each([
    {
      status: 401,
      call: () => client({ apiKey: 'mint_notarealkey' }).api.getExportJob(completedJobId),
      words: 'Invalid or expired API key',
      kind: 'unauthorized',
    },
    {
      status: 403,
      call: () => client({ apiKey: emulator.keys.read }).api.createBundle(completedJobId),
      words: 'This API key lacks the "write" scope',
      kind: 'forbidden',
    },
    {
      status: 404,
      call: () => client().api.getAgentJob('demo-project', 'no-such-job'),
      words: 'Job not found',
      kind: 'not-found',
    },
    {
      status: 409,
      call: async () => {
        const { api } = client();
        return api.createBundle((await api.startExport({ domain: 'docs.example.com' })).jobId);
      },
      words: 'Export job has not finished yet',
      kind: 'conflict',
    },
    {
      status: 429,
      call: () => client({ deadline: T0 }).api.createAgentJob('demo-project', 'Fix it'),
      fault: { route: 'agent.create', status: 429 } satisfies FaultRule,
      words: 'Too Many Requests (emulated fault)',
      kind: 'rate-limited',
    },
  ])(
    'HTTP $status surfaces the server\'s {error} text "$words" as a $kind error',
    async ({ status, call, words, kind, fault }) => {
      if (fault) emulator.faults.add(fault);
      const error = await failure(call());
      expect(error.status).toBe(status);
      expect(error.kind).toBe(kind);
      expect(error.detail).toContain(words);
      expect(error.message).toContain(`HTTP ${status}: ${words}`);
    },
  );

  /** Faults answer a generic {error}, so any advice must come from the client. */
  const advice = (status: number, advice: RegExp) => ({ status, advice });

  it.each([
    advice(401, /set `api-key` to a current admin API key/),
    advice(403, /write scope|allow-list|Enterprise/),
    advice(429, /try again later/),
  ])('HTTP $status tells the user what to do ($advice)', async ({ status, advice }) => {
    emulator.faults.add({ route: 'agent.get', status, times: Infinity });
    const error = await failure(
      client({ deadline: T0 }).api.getAgentJob('demo-project', agentJobId),
    );
    expect(error.message).toMatch(advice);
  });

  it.each([
    advice(404, /check|make sure|verify/i),
    advice(409, /wait|finish|already running|in progress/i),
  ])('HTTP $status tells the user what to do ($advice)', async ({ status, advice }) => {
    emulator.faults.add({ route: 'agent.get', status, times: Infinity });
    const error = await failure(
      client({ deadline: T0 }).api.getAgentJob('demo-project', agentJobId),
    );
    expect(error.message).toMatch(advice);
  });

  it("a 403 on an agent call leaves static export's plan out of the advice; one on an export keeps it", async () => {
    emulator.faults.add({ route: 'agent.create', status: 403, times: Infinity });
    const agentError = await failure(client().api.createAgentJob('demo-project', 'Fix it'));
    expect(agentError.message).toMatch(/write scope .* allow-list\.$/);
    expect(agentError.message).not.toContain('static export');
    emulator.faults.add({ route: 'export.start', status: 403, times: Infinity });
    const exportError = await failure(client().api.startExport({ domain: 'docs.example.com' }));
    expect(exportError.message).toContain('static export is not enabled for the organization');
  });

  describe('a 404 about a job this client has just created', () => {
    it('is a replica that has not seen it yet: asked again, with the backoff, until it is found', async () => {
      const { api, retries, sleeps } = client({ deadline: T0 + 600_000 });
      const { jobId } = await api.startExport({ domain: 'docs.example.com' });
      emulator.faults.add({ route: 'export.get', status: 404, times: 2 });
      expect((await api.getExportJob(jobId)).jobId).toBe(jobId);
      expect(sent('export.get')).toBe(3);
      expect(retries.map((r) => r.reason)).toEqual([
        'HTTP 404 (Not Found (emulated fault)), just after this run created the job',
        'HTTP 404 (Not Found (emulated fault)), just after this run created the job',
      ]);
      expect(sleeps).toEqual([250, 500]);
    });

    it('for agent jobs too', async () => {
      const { api, retries } = client({ deadline: T0 + 600_000 });
      const { id } = await api.createAgentJob('demo-project', 'Fix the typos');
      emulator.faults.add({ route: 'agent.get', status: 404 });
      expect((await api.getAgentJob('demo-project', id)).id).toBe(id);
      expect(retries).toHaveLength(1);
    });

    it('stands after a few seconds, saying the service does not know the job it named', async () => {
      const { api, sleeps } = client({ deadline: T0 + 600_000 });
      const { jobId } = await api.startExport({ domain: 'docs.example.com' });
      emulator.faults.add({ route: 'export.get', status: 404, times: Infinity });
      const error = await failure(api.getExportJob(jobId));
      expect(error.status).toBe(404);
      expect(error.kind).toBe('not-found');
      expect(error.message).toMatch(
        new RegExp(
          `^Could not read export job ${jobId} \\(HTTP 404: Not Found \\(emulated fault\\)\\): the service does not know export job ${jobId}, though it gave this run that id when the job was created \\d+\\.\\ds before\\. Gave up after \\d+ attempts over \\d+\\.\\ds\\.$`,
        ),
      );
      const waited = sleeps.reduce((sum, ms) => sum + ms, 0);
      expect(waited).toBeGreaterThan(5000);
      expect(waited).toBeLessThanOrEqual(10_000);
    });

    it('is final once a call has found the job, and for a job the client did not create', async () => {
      const { api } = client({ deadline: T0 + 600_000 });
      const { jobId } = await api.startExport({ domain: 'docs.example.com' });
      await api.getExportJob(jobId);
      emulator.faults.add({ route: 'export.get', status: 404, times: 2 });
      expect((await failure(api.getExportJob(jobId))).status).toBe(404);
      expect((await failure(api.getExportJob(completedJobId))).status).toBe(404);
      expect(sent('export.get')).toBe(3);
    });
  });

  it('a 404 for an unknown project points at project-id, not at a job that was never named', async () => {
    const error = await failure(client().api.createAgentJob('no-such-project', 'Fix it'));
    expect(error.kind).toBe('not-found');
    expect(error.message).toBe(
      'Could not create an agent job in project no-such-project (HTTP 404: Project no-such-project not found). Check `base-url` (it must point at the admin API of your organization) and `project-id` (a project of that organization).',
    );
  });

  it("a proxy's HTML error page is summarized by its title, not dumped into the message", async () => {
    emulator.faults.add({ route: 'agent.create', status: 502, body: 'html' });
    const error = await failure(client().api.createAgentJob('demo-project', 'Fix it'));
    expect(error.message).toBe(
      'Could not create an agent job in project demo-project (HTTP 502: an HTML page titled "502 Bad Gateway"). The service or a proxy in front of it is failing; try again later.',
    );
    expect(error.kind).toBe('server');
  });

  it.each([
    { what: 'a captive portal’s page', body: '<html><body>Sign in to the network</body></html>' },
    { what: 'JSON cut off', body: '{"jobId":"se_0","status":"runn' },
    { what: 'an empty body', body: '' },
  ])('a read answered with $what after the API has answered is read again', async ({ body }) => {
    const { api, sleeps } = client();
    await api.getExportJob(completedJobId);
    emulator.faults.add({ route: 'export.get', status: 200, body, times: 2 });
    const job = await api.getExportJob(completedJobId);
    expect(job.status).toBe('completed');
    expect(sleeps).toHaveLength(2);
    expect(sent('export.get')).toBe(4);
  });

  it('a read that keeps getting pages other than JSON gives up after the outage, without blaming base-url', async () => {
    const { api } = client();
    await api.getExportJob(completedJobId);
    emulator.faults.add({ route: 'export.get', status: 200, body: 'html', times: Infinity });
    const error = await failure(api.getExportJob(completedJobId));
    expect(error.message).toMatch(
      /not JSON .*The same `base-url` answered before: something between the runner and the API \(a proxy, a gateway\) answered instead\. Gave up after \d+ attempts over/,
    );
    expect(error.message).not.toContain('Check `base-url`');
  });

  it.each([
    { what: 'an HTML page', body: 'html' },
    { what: 'plain text', body: 'OK' },
    { what: 'an empty body', body: '' },
  ])('a success answer holding $what instead of JSON points at base-url', async ({ body }) => {
    emulator.faults.add({ route: 'export.get', status: 200, body });
    const error = await failure(client().api.getExportJob(completedJobId));
    expect(error.kind).toBe('invalid-response');
    expect(error.message).toMatch(/not JSON .*Check `base-url`/);
    expect(error.message).not.toContain('<');
    expect(sent('export.get')).toBe(1);
  });

  it('an error page over the size limit is still reported by its status and title, and a 403 is not tried again', async () => {
    const page = `<html><head><title>Access denied</title></head><body>${'x'.repeat(2 * 1024 * 1024)}</body></html>`;
    emulator.faults.add({ route: 'agent.get', status: 403, body: page, times: Infinity });
    const error = await failure(
      client({ deadline: T0 + 60_000 }).api.getAgentJob('demo-project', agentJobId),
    );
    expect(error.status).toBe(403);
    expect(error.kind).toBe('forbidden');
    expect(error.message).toContain('(HTTP 403: an HTML page titled "Access denied")');
    expect(sent('agent.get')).toBe(1);
  });

  it('a success answer over the size limit is refused at once as unusable, not retried as a broken connection', async () => {
    const body = JSON.stringify({ id: agentJobId, status: 'active', log: 'x'.repeat(2 << 20) });
    emulator.faults.add({ route: 'agent.get', status: 200, body, times: Infinity });
    const { api, retries } = client({ deadline: T0 + 60_000 });
    const error = await failure(api.getAgentJob('demo-project', agentJobId));
    expect(error.kind).toBe('invalid-response');
    expect(error.status).toBe(200);
    expect(error.message).toMatch(
      /^Could not read agent job \S+: the API answered HTTP 200 with a body larger than 1 MiB.*Check `base-url`/,
    );
    expect(retries).toEqual([]);
    expect(sent('agent.get')).toBe(1);
  });

  it("control characters in the server's error text (escapes, NUL) do not reach the message", async () => {
    emulator.faults.add({
      route: 'agent.create',
      status: 400,
      body: JSON.stringify({ error: 'bad \u001b[32mAll good\u001b[0m \u0007\u0000prompt' }),
    });
    const error = await failure(client().api.createAgentJob('demo-project', 'Fix it'));
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(error.message).toContain('HTTP 400: bad [32mAll good [0m prompt');
  });

  it('an answer that starts with a byte order mark is read as the JSON it is', async () => {
    emulator.faults.add({
      route: 'agent.create',
      status: 201,
      body: `\uFEFF${JSON.stringify({ id: 'bom-job', status: 'active' })}`,
    });
    const job = await client().api.createAgentJob('demo-project', 'Fix it');
    expect(job.id).toBe('bom-job');
  });

  it('an answer missing the job id is refused with a message naming the field', async () => {
    emulator.faults.add({ route: 'export.start', status: 202, body: '{"status":"queued"}' });
    const error = await failure(client().api.startExport({ domain: 'docs.example.com' }));
    expect(error.kind).toBe('invalid-response');
    expect(error.message).toMatch(/^Could not start the static export .*not usable \(jobId /);
  });

  it.each([
    { route: 'export.start', field: 'jobId', body: { jobId: 'se_1/../../admin' } },
    { route: 'export.start', field: 'jobId', body: { jobId: '..' } },
    { route: 'export.get', field: 'jobId', body: { jobId: 'se_1\\..', status: 'running' } },
    { route: 'export.get', field: 'jobId', body: { jobId: 'se_1\u0000', status: 'running' } },
    { route: 'agent.create', field: 'id', body: { id: 'abc/def' } },
    { route: 'agent.get', field: 'id', body: { id: '%2e%2e', status: 'active' } },
    { route: 'export.bundle', field: 'bundleUrl', body: { bundleUrl: 'file:///etc/passwd' } },
  ] satisfies { route: Route; field: string; body: object }[])(
    'an unsafe $field from $route ($body) is refused',
    async ({ route, field, body }) => {
      emulator.faults.add({ route, status: 200, body: JSON.stringify(body) });
      const error = await failure(callOf[route as CallName](client().api));
      expect(error.kind).toBe('invalid-response');
      expect(error.message).toMatch(
        new RegExp(
          `not usable \\(${field} (is not a safe identifier|is not an http\\(s\\) URL)\\)`,
        ),
      );
    },
  );
});

type CallName = 'export.start' | 'export.get' | 'export.bundle' | 'agent.create' | 'agent.get';
const callOf: Record<CallName, (api: AdminApi) => Promise<unknown>> = {
  'export.start': (api) => api.startExport({ domain: 'docs.example.com' }),
  'export.get': (api) => api.getExportJob(completedJobId),
  'export.bundle': (api) => api.createBundle(completedJobId),
  'agent.create': (api) => api.createAgentJob('demo-project', 'Fix the typos'),
  'agent.get': (api) => api.getAgentJob('demo-project', agentJobId),
};

describe('redirects', () => {
  /** A loopback server answering every request with a 302 to `location`, counting them. */
  async function redirecting(location: string) {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests += 1;
      res.writeHead(302, { location, 'content-type': 'text/html' });
      res.end('<html><title>Found</title></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      baseUrl: new URL(`http://127.0.0.1:${port}`),
      requests: () => requests,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it.each([
    {
      location: 'https://login.example.com/sso?token=abc',
      target: 'a redirect to https://login.example.com/sso?…',
    },
    { location: 'http://[bad', target: 'a redirect to an address that is not a URL' },
  ])(
    'a redirect to $location is refused without following it, naming $target',
    async ({ location, target }) => {
      const server = await redirecting(location);
      try {
        const error = await failure(
          client({ baseUrl: server.baseUrl }).api.getAgentJob('demo-project', 'job-1'),
        );
        expect(error.kind).toBe('redirect');
        expect(error.message).toBe(
          `Could not read agent job job-1: the API answered HTTP 302, ${target}. The key is never sent to another address: set \`base-url\` to the address the API really answers on.`,
        );
        expect(server.requests()).toBe(1);
      } finally {
        await server.close();
      }
    },
  );
});

describe('an answer that does not fit the schema', () => {
  it.each([
    ['agent.create', '{}', 'id is missing or not valid'],
    ['agent.get', '{"id":"job-1","status":5}', 'status: expected string, received number'],
    ['agent.get', '{"id":"../x"}', 'id is not a safe identifier'],
  ] as const)('%s answering %s says "%s"', async (route, body, words) => {
    emulator.faults.add({ route, status: route === 'agent.create' ? 201 : 200, body });
    const { api } = client();
    const call =
      route === 'agent.create'
        ? api.createAgentJob('demo-project', 'Fix it')
        : api.getAgentJob('demo-project', 'job-1');
    const error = await failure(call);
    expect(error.message).toContain(`the API's answer is not usable (${words}).`);
  });
});

describe('a body that does not decompress', () => {
  it('is named as such, not as a failed connection', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end('this is not gzip at all');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const error = await failure(
        client({ baseUrl: new URL(`http://127.0.0.1:${port}`) }).api.getAgentJob(
          'demo-project',
          'job-1',
        ),
      );
      expect(error.message).toMatch(
        /the answer's compressed body does not decompress \(Z_DATA_ERROR: /,
      );
      expect(error.message).not.toContain('connection failed');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('retries', () => {
  const FAULTS = {
    '408': { status: 408 },
    '429': { status: 429 },
    '500': { status: 500 },
    '502 with an HTML page': { status: 502, body: 'html' },
    '503': { status: 503 },
    '504 with plain text': { status: 504, body: 'upstream timed out' },
    'a reset connection': { reset: true },
  } satisfies Record<string, Omit<FaultRule, 'route'>>;
  type FaultName = keyof typeof FAULTS;
  const ALL = Object.keys(FAULTS) as FaultName[];
  const RETRIED: Record<CallName, FaultName[]> = {
    'export.get': ALL,
    'export.bundle': ALL,
    'agent.get': ALL,
    // Gateway errors and resets happen before the API acts; a 500 may mean the job exists.
    'export.start': [
      '429',
      '502 with an HTML page',
      '503',
      '504 with plain text',
      'a reset connection',
    ],
    // A second agent job would open a second pull request: only sure refusals are retried.
    'agent.create': ['429', '503'],
  };
  const rows = (Object.keys(callOf) as CallName[]).flatMap((call) =>
    ALL.map((fault) => ({
      call,
      fault,
      retried: RETRIED[call].includes(fault),
      outcome: RETRIED[call].includes(fault) ? 'tried again once' : 'reported without a retry',
    })),
  );

  it.each(rows)('$call answered with $fault is $outcome', async ({ call, fault, retried }) => {
    const exportsBefore = emulator.exportJobs.list().length;
    const agentsBefore = emulator.agentJobs.list().length;
    emulator.faults.add({ route: call, ...FAULTS[fault] });
    const { api, sleeps, retries } = client();
    const outcome = await callOf[call](api).then(
      () => 'ok',
      (err: unknown) => err,
    );
    if (retried) {
      // A rate limit waits a second more than the backoff: it is not lifted in a moment.
      const waitMs = fault === '429' ? 1250 : 250;
      expect(outcome).toBe('ok');
      expect(sent(call)).toBe(2);
      expect(sleeps).toEqual([waitMs]);
      expect(retries).toEqual([expect.objectContaining({ attempt: 2, delayMs: waitMs })]);
    } else {
      expect(outcome).toBeInstanceOf(ApiError);
      expect(sent(call)).toBe(1);
      expect(sleeps).toEqual([]);
    }
    const created = call === 'export.start' || call === 'agent.create' ? (retried ? 1 : 0) : 0;
    const list = call.startsWith('export') ? emulator.exportJobs : emulator.agentJobs;
    const before = call.startsWith('export') ? exportsBefore : agentsBefore;
    expect(list.list().length - before).toBe(created);
  });

  it('reads are tried again for five minutes of outage with growing jittered waits, then the message says so', async () => {
    emulator.faults.add({ route: 'export.get', status: 503, times: Infinity });
    const { api, sleeps, retries } = client();
    const error = await failure(api.getExportJob(completedJobId));
    expect(sleeps.slice(0, 8)).toEqual([250, 500, 1000, 2000, 4000, 7500, 7500, 7500]);
    const slept = sleeps.reduce((a, b) => a + b, 0);
    expect(slept).toBeLessThanOrEqual(5 * 60_000);
    expect(slept).toBeGreaterThan(5 * 60_000 - 8000);
    expect(sent('export.get')).toBe(sleeps.length + 1);
    expect(retries.map((r) => r.attempt)).toEqual(sleeps.map((_, i) => i + 2));
    expect(retries[0]).toEqual({
      operation: `read export job ${completedJobId}`,
      attempt: 2,
      delayMs: 250,
      reason: 'HTTP 503 (Service Unavailable (emulated fault))',
    });
    expect(error.message).toMatch(
      new RegExp(`Gave up after ${sleeps.length + 1} attempts over (4m 5\\ds|5m 00s)\\.$`),
    );
    expect(error.status).toBe(503);
  });

  it('an eight-second outage costs a handful of tries and the call succeeds', async () => {
    emulator.faults.add({ route: 'export.get', status: 502, body: 'html', times: 5 });
    const { api, sleeps } = client();
    const job = await api.getExportJob(completedJobId);
    expect(job.status).toBe('completed');
    expect(sleeps).toEqual([250, 500, 1000, 2000, 4000]);
  });

  it('the jitter spans from 50 ms up to the capped exponential ceiling', async () => {
    emulator.faults.add({ route: 'agent.get', status: 503, times: 3 });
    const draws = [0, 0.999, 0.25];
    const { api, sleeps } = client({
      random: () => draws.shift() ?? 0,
      budget: { outageMs: 60_000, baseDelayMs: 100, maxDelayMs: 300 },
    });
    await api.getAgentJob('demo-project', agentJobId);
    expect(sleeps).toEqual([50, 199, 75]);
  });

  it('a 429 without Retry-After waits at least a second, with the jitter above it', async () => {
    emulator.faults.add({ route: 'agent.get', status: 429, times: 3 });
    const draws = [0, 0.999, 0.25];
    const { api, sleeps } = client({
      random: () => draws.shift() ?? 0,
      budget: { outageMs: 60_000, baseDelayMs: 100, maxDelayMs: 300 },
    });
    await api.getAgentJob('demo-project', agentJobId);
    expect(sleeps).toEqual([1050, 1199, 1075]);
  });

  it('backoff never grows past maxDelayMs, however many attempts came before', () => {
    const backoff = { baseDelayMs: 1000, maxDelayMs: 30_000 };
    expect(backoffDelay(40, backoff, () => 0.999_999)).toBe(29_999);
    expect(backoffDelay(1, backoff, () => 0.999_999)).toBe(999);
  });

  it.each([
    { header: '2', waitMs: 2000 },
    { header: '1.5', waitMs: 1500 },
    // A wait of nothing is backed off as without one (250 ms: the first jittered backoff).
    { header: '0', waitMs: 250 },
    { header: 'an HTTP date 7 s after its Date header', waitMs: 7000 },
    { header: 'an HTTP date 7 s before its Date header', waitMs: 250 },
    { header: 'soon', waitMs: 250 },
  ])('Retry-After: $header makes the client wait $waitMs ms', async ({ header, waitMs }) => {
    // The emulator's clock stands still (timeScale 0): its Date header is exact. The client's
    // clock reads another day: a date is read against the server's Date, not the runner's.
    const at = (offset: number) => new Date(emulator.clock.now() + offset).toUTCString();
    const value = header.includes('after')
      ? at(7000)
      : header.includes('before')
        ? at(-7000)
        : header;
    emulator.faults.add({ route: 'export.start', status: 503, retryAfter: value });
    const { api, sleeps } = client();
    await api.startExport({ domain: 'docs.example.com' });
    expect(sleeps).toEqual([waitMs]);
    expect(sent('export.start')).toBe(2);
  });

  it.each([
    { header: '0', value: () => '0' },
    {
      header: 'a date already past',
      value: () => new Date(emulator.clock.now() - 7000).toUTCString(),
    },
  ])(
    'a server that keeps answering 429 with Retry-After: $header is backed off as without one, not hammered',
    async ({ value }) => {
      emulator.faults.add({
        route: 'agent.create',
        status: 429,
        body: 'json',
        retryAfter: value(),
        times: 5,
      });
      const { api, sleeps } = client({ deadline: T0 + 60_000 });
      await api.createAgentJob('demo-project', 'Fix it');
      expect(sleeps).toEqual([1250, 1500, 2000, 3000, 5000]);
      expect(sent('agent.create')).toBe(6);
    },
  );

  it('Retry-After as a date is read against the Date header, or the injected clock without one', () => {
    const clock = fakeClock().clock;
    const at = 'Thu, 15 Jan 2026 12:01:00 GMT';
    expect(retryAfterMs({ 'retry-after': at }, clock)).toBe(60_000);
    expect(retryAfterMs({ 'retry-after': at, date: 'Thu, 15 Jan 2026 12:00:50 GMT' }, clock)).toBe(
      10_000,
    );
    expect(retryAfterMs({}, clock)).toBeUndefined();
  });

  it('a retry whose wait would pass the deadline is not attempted, and the message says why', async () => {
    emulator.faults.add({ route: 'export.get', status: 503, retryAfter: '5' });
    const { api, sleeps, retries } = client({ deadline: T0 + 4000 });
    const error = await failure(api.getExportJob(completedJobId));
    expect(sent('export.get')).toBe(1);
    expect(sleeps).toEqual([]);
    expect(retries).toEqual([]);
    expect(error.message).toMatch(
      /The run's timeout leaves no time to try again \(the server asked to wait 5s\); gave up after 1 attempt\.$/,
    );
    expect(error.retryAfterMs).toBe(5000);
  });

  it('a Retry-After of centuries is said as over a day, not as a 20-digit number', async () => {
    emulator.faults.add({ route: 'export.get', status: 503, retryAfter: '99999999999999999' });
    const { api } = client({ deadline: T0 + 4000 });
    const error = await failure(api.getExportJob(completedJobId));
    expect(error.message).toMatch(
      /The run's timeout leaves no time to try again \(the server asked to wait over a day\); gave up after 1 attempt\.$/,
    );
  });

  it('a Retry-After past the outage budget is waited for when the deadline leaves room for it', async () => {
    emulator.faults.add({ route: 'export.get', status: 503, retryAfter: '600' });
    const { api, sleeps } = client({ deadline: T0 + 3_600_000 });
    const job = await api.getExportJob(completedJobId);
    expect(job.status).toBe('completed');
    expect(sleeps).toEqual([600_000]);
    expect(sent('export.get')).toBe(2);
  });

  it('after such a wait, the outage budget still runs: a server that stays down is given up on', async () => {
    emulator.faults.add({ route: 'export.get', status: 503, retryAfter: '600' });
    emulator.faults.add({ route: 'export.get', status: 503, times: Infinity });
    const { api, sleeps } = client({ deadline: T0 + 3_600_000 });
    const error = await failure(api.getExportJob(completedJobId));
    expect(sleeps[0]).toBe(600_000);
    const slept = sleeps.reduce((a, b) => a + b, 0);
    // The server's own wait, then at most the five minutes of outage of any other failure.
    expect(slept).toBeLessThanOrEqual(600_000 + 5 * 60_000 + 250);
    expect(slept).toBeGreaterThan(600_000 + 5 * 60_000 - 8000);
    expect(error.message).toMatch(/Gave up after \d+ attempts over 1[45]m \d\ds\.$/);
  });

  it('without a deadline, a Retry-After past the outage budget ends the call, with the wait named', async () => {
    emulator.faults.add({ route: 'export.get', status: 503, retryAfter: '600' });
    const { api, sleeps } = client();
    const error = await failure(api.getExportJob(completedJobId));
    expect(sleeps).toEqual([]);
    expect(error.message).toMatch(/\(the server asked to wait 600s more\)\.$/);
  });

  it('a deadline set on a running client applies to its next calls', async () => {
    emulator.faults.add({ route: 'export.get', status: 503, times: 2 });
    const { api, sleeps } = client();
    api.deadline = T0 + 100;
    const error = await failure(api.getExportJob(completedJobId));
    expect(error.message).toMatch(/leaves no time to try again; gave up after 1 attempt\.$/);
    api.deadline = undefined;
    await api.getExportJob(completedJobId);
    expect(sleeps).toEqual([250]);
  });

  it('429 answers are retried past the outage budget, until the deadline', async () => {
    emulator.faults.add({ route: 'agent.create', status: 429, times: Infinity });
    const agentsBefore = emulator.agentJobs.list().length;
    const { api, sleeps } = client({ deadline: T0 + 60_000 });
    const error = await failure(api.createAgentJob('demo-project', 'Fix it'));
    // Each wait is a second more than the backoff: 1250 + … + 5000 + 5 × 8500 = 55.25 s;
    // the next is shortened to end 250 ms before the deadline, which leaves no room after.
    expect(sleeps).toEqual([1250, 1500, 2000, 3000, 5000, ...Array(5).fill(8500), 4500]);
    expect(sent('agent.create')).toBe(12);
    expect(error.kind).toBe('rate-limited');
    expect(error.message).toMatch(/leaves no time to try again; gave up after 12 attempts\.$/);
    expect(emulator.agentJobs.list().length).toBe(agentsBefore);
  });

  describe('the hourly agent limit with its Retry-After', () => {
    let limited: Emulator;
    beforeEach(async () => {
      limited = await startOwnEmulator({ agentRateLimit: 1, agentRetryAfter: true });
      await client({}, limited).api.createAgentJob('demo-project', 'First job');
    });
    afterEach(() => limited.stop());

    it('is waited out when the deadline allows, and then exactly one more job is created', async () => {
      const fake = fakeClock((ms) => limited.clock.advance(ms));
      const { api, retries } = client({ clock: fake.clock, deadline: T0 + 2 * 3_600_000 }, limited);
      const job = await api.createAgentJob('demo-project', 'Second job');
      expect(fake.sleeps).toEqual([3_600_000]);
      expect(retries[0]?.reason).toMatch(/^HTTP 429 \(Rate limit exceeded: 1 agent jobs/);
      expect(limited.agentJobs.list().map((j) => j.id)).toContain(job.id);
      expect(limited.agentJobs.list()).toHaveLength(2);
    });

    it('ends the call at once with the server’s wait when the deadline comes first', async () => {
      const { api, sleeps } = client({ deadline: T0 + 1_800_000 }, limited);
      const error = await failure(api.createAgentJob('demo-project', 'Second job'));
      expect(sleeps).toEqual([]);
      expect(error.message).toMatch(
        /Rate limit exceeded.*\(the server asked to wait 3600s\); gave up after 1 attempt\.$/,
      );
      expect(limited.agentJobs.list()).toHaveLength(1);
    });
  });

  it('an agent create whose connection is refused is tried again, since the server never saw it', async () => {
    const port = await closedPort();
    const { api, sleeps } = client({ baseUrl: new URL(`http://127.0.0.1:${port}`) });
    const error = await failure(api.createAgentJob('demo-project', 'Fix it'));
    expect(sleeps.slice(0, 4)).toEqual([250, 500, 1000, 2000]);
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(
      /^Could not create an agent job in project demo-project: the connection was refused \(ECONNREFUSED.*\)\. Check `base-url` .* Gave up after \d+ attempts over (4m 5\ds|5m 00s)\.$/,
    );
  });

  it.each([
    {
      what: 'an agent create',
      send: (api: AdminApi) => api.createAgentJob('demo-project', 'Fix it'),
    },
    {
      what: 'a follow-up',
      send: (api: AdminApi) => api.sendAgentMessage('demo-project', agentJobId, 'Also this'),
    },
  ])(
    '$what whose name lookup fails for now (EAI_AGAIN) is tried again, since nothing left the runner',
    async ({ send }) => {
      // getaddrinfo's answer when the resolver does not answer, twice, then loopback.
      const { dispatcher: resolving, lookups } = failingLookups(['EAI_AGAIN', 'EAI_AGAIN']);
      const { port } = new URL(emulator.baseUrl);
      const { api, sleeps, retries } = client({
        baseUrl: new URL(`http://localhost:${port}`),
        dispatcher: resolving,
      });
      try {
        await send(api);
      } finally {
        await resolving.close();
      }
      expect(lookups).toEqual(['localhost', 'localhost', 'localhost']);
      expect(sleeps).toHaveLength(2);
      expect(retries[0]?.reason).toMatch(/did not resolve.*EAI_AGAIN/);
      // Nothing suggests a job may have been made by the tries that never left.
      expect(retries.every((event) => event.note === undefined)).toBe(true);
      expect(sent('agent.create') + sent('agent.message')).toBe(1);
    },
  );

  it.each([
    { call: 'export.get', retried: true },
    { call: 'agent.create', retried: false },
  ] satisfies { call: CallName; retried: boolean }[])(
    '$call with no answer within requestTimeoutMs fails as a timeout (retried: $retried)',
    async ({ call, retried }) => {
      // undici's headers timer ticks about every 0.5 s, so this takes about 1 s of real time.
      emulator.faults.add({ route: call, latencyMs: 5000 });
      const { api, retries } = client({ requestTimeoutMs: 100 });
      const started = performance.now();
      const outcome = await callOf[call](api).then(
        () => 'ok',
        (err: unknown) => err,
      );
      expect(performance.now() - started).toBeLessThan(4000);
      if (retried) {
        expect(outcome).toBe('ok');
        expect(sent(call)).toBe(2);
        expect(retries[0]?.reason).toMatch(/timeout/i);
      } else {
        expect(outcome).toBeInstanceOf(ApiError);
        expect((outcome as ApiError).kind).toBe('timeout');
        expect((outcome as ApiError).message).toMatch(/did not answer in time/);
        expect(sent(call)).toBe(1);
      }
    },
  );
});

/**
 * A gateway in front of `upstream` that passes the first `method` call on (an export start
 * makes its job), then spoils its success as `how` says: a 504, or its first bytes and a cut.
 */
async function startSpoilingGateway(upstream: string, how: '504' | 'cut', method = 'POST') {
  let spoiled = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', upstream);
      const forward = httpRequest(url, { method: req.method, headers: req.headers }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => body.push(chunk));
        answer.on('end', () => {
          const whole = Buffer.concat(body);
          const success = (answer.statusCode ?? 0) >= 200 && (answer.statusCode ?? 0) < 300;
          if (!spoiled && req.method === method && success) {
            spoiled = true;
            if (how === '504') {
              res.writeHead(504, { 'content-type': 'text/html' });
              res.end('<html><title>504 Gateway Time-out</title></html>');
            } else {
              res.writeHead(answer.statusCode ?? 200, {
                'content-type': 'application/json',
                'content-length': whole.length,
              });
              res.write(whole.subarray(0, 12), () => res.socket?.destroy());
            }
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(whole);
        });
      });
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: new URL(`http://127.0.0.1:${port}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('a start the server acted on', () => {
  it('a 202 whose body is cut off is not sent again: the job exists, and the message says so', async () => {
    const own = await startOwnEmulator({});
    const gateway = await startSpoilingGateway(own.baseUrl, 'cut');
    try {
      const { api, sleeps } = client({ baseUrl: gateway.baseUrl }, own);
      const error = await failure(api.startExport({ domain: 'docs.example.com' }));
      expect(own.exportJobs.list()).toHaveLength(1);
      expect(sleeps).toEqual([]);
      expect(error.status).toBe(202);
      expect(error.message).toMatch(
        /^Could not start the static export of docs\.example\.com: the API answered HTTP 202, but its answer was cut off \(.+\)\. The export job was started all the same, .* running again starts another export\.$/,
      );
    } finally {
      await gateway.close();
      await own.stop();
    }
  });

  it('a read whose 200 is cut off is read again', async () => {
    const gateway = await startSpoilingGateway(emulator.baseUrl, 'cut', 'GET');
    try {
      const { api, sleeps } = client({ baseUrl: gateway.baseUrl });
      const job = await api.getExportJob(completedJobId);
      expect(job.status).toBe('completed');
      expect(sleeps).toHaveLength(1);
      expect(sent('export.get')).toBe(2);
    } finally {
      await gateway.close();
    }
  });

  it('a retry refused as a second export after a 504 says the run’s first attempt probably started it, and how to use it', async () => {
    const scoped = await startOwnEmulator({ variant: 'inline-bundle' });
    const gateway = await startSpoilingGateway(scoped.baseUrl, '504');
    try {
      const { api } = client({ baseUrl: gateway.baseUrl }, scoped);
      const error = await failure(
        api.startExport({ domain: 'docs.example.com', projectId: 'demo-project' }),
      );
      expect(error.status).toBe(409);
      const [job] = scoped.exportJobs.list();
      expect(scoped.exportJobs.list()).toHaveLength(1);
      expect(error.message).toBe(
        `Could not start the static export of docs.example.com (HTTP 409: An export job is already running for this organization: ${job?.jobId}) after 2 attempts. The export it names was probably started by this run's earlier attempt (HTTP 504), though its answer was lost. It runs on the server to its end: to use it rather than wait for it and start another, run again with \`job-id\` set to its id (in the service's words above, or on the dashboard).`,
      );
    } finally {
      await gateway.close();
      await scoped.stop();
    }
  });
});

describe('cancelling', () => {
  it('an already aborted signal stops the call before any request is sent', async () => {
    const controller = new AbortController();
    const reason = new CancelledError('run cancelled');
    controller.abort(reason);
    await expect(
      client().api.getExportJob(completedJobId, undefined, controller.signal),
    ).rejects.toBe(reason);
    expect(sent('*')).toBe(0);
  });

  it('cancelling while the server is slow ends the call at once with the cancel reason', async () => {
    emulator.faults.add({ route: 'agent.create', latencyMs: 3000 });
    const controller = new AbortController();
    const reason = new CancelledError('SIGTERM');
    setTimeout(() => controller.abort(reason), 30);
    const started = performance.now();
    await expect(
      client().api.createAgentJob('demo-project', 'Fix it', controller.signal),
    ).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('cancelling during a backoff wait ends the call without another request', async () => {
    emulator.faults.add({ route: 'export.bundle', status: 503, times: Infinity });
    const controller = new AbortController();
    const { api } = client({
      clock: systemClock,
      budget: { outageMs: 600_000, baseDelayMs: 60_000, maxDelayMs: 60_000 },
      onRetry: () => setTimeout(() => controller.abort(), 20),
    });
    const started = performance.now();
    const error = await api.createBundle(completedJobId, undefined, controller.signal).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toMatch(/AbortError|CancelledError/);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(sent('export.bundle')).toBe(1);
  });
});

describe('the API key', () => {
  /** Every place a key could hide: the error, its fields, and all callback output. */
  function exposed(error: unknown, output: { retries: RetryEvent[]; lines: string[] }): string[] {
    const err = error as Error;
    return [
      err.message,
      String(err),
      err.stack ?? '',
      JSON.stringify(err),
      ...Object.values(err).map((value) => String(value)),
      JSON.stringify(output.retries),
      ...output.lines,
    ];
  }

  it.each([
    { what: 'a JSON {error}', fault: { echoAuthorization: true } },
    { what: 'a proxy HTML page', fault: { status: 503, body: 'html', echoAuthorization: true } },
    { what: 'plain text', fault: { status: 500, body: 'denied', echoAuthorization: true } },
    {
      what: 'a 200 that is not JSON',
      fault: { status: 200, body: 'not json', echoAuthorization: true },
    },
  ] satisfies { what: string; fault: Omit<FaultRule, 'route'> }[])(
    'a server echoing the Authorization header in $what never puts the key in the error, retries or debug lines',
    async ({ fault }) => {
      emulator.faults.add({ route: 'export.get', times: Infinity, ...fault });
      const { api, retries, lines } = client();
      const error = await failure(api.getExportJob(completedJobId));
      expect(sent('export.get')).toBeGreaterThan(0);
      for (const text of exposed(error, { retries, lines })) {
        expect(text).not.toContain(emulator.keys.write);
        expect(text).not.toContain(emulator.keys.write.slice(5));
      }
    },
  );

  it('the echoed header shows up masked, so the user still sees what the server said', async () => {
    emulator.faults.add({ route: 'agent.get', echoAuthorization: true });
    const error = await failure(client().api.getAgentJob('demo-project', agentJobId));
    expect(error.status).toBe(401);
    expect(error.detail).toBe('Unauthorized: rejected request with Authorization: Bearer ***');
  });

  it('a key pasted as the project id is masked in messages and retry events too', async () => {
    const key = emulator.keys.write;
    const port = await closedPort();
    const output = client({ baseUrl: new URL(`http://127.0.0.1:${port}`) });
    const error = await failure(output.api.createAgentJob(key, 'Fix it'));
    for (const text of exposed(error, output)) expect(text).not.toContain(key);
  });
});

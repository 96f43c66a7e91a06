import net, { type AddressInfo } from 'node:net';
import tls from 'node:tls';
import { afterEach, beforeAll, describe, expect, it, type TestContext, vi } from 'vitest';
import { type ForwardProxy, startForwardProxy } from '../support/forward-proxy.js';
import { type CaseRun, errorLines } from '../support/in-process.js';
import {
  caseHarness,
  expectDelivered,
  expectOneClearError,
  expectUntouched,
  type ReferenceSite,
  referenceSite,
  row,
  runCase,
  workspaceWithSite,
} from './support.js';

/**
 * A forward proxy started by the test, on loopback. With HTTP_PROXY set, every request of
 * the action, to the API and to the storage, must go through it: the proxy counts the
 * HTTP requests it carried (inside CONNECT tunnels too) and the count must equal what the
 * emulator received. NO_PROXY must be honoured, host by host. The emulator speaks plain
 * http on loopback, so HTTP_PROXY is the variable that applies; HTTPS_PROXY is set too, to
 * show it does not capture http traffic.
 *
 * The action reads the variables from its process's environment, so each case sets them
 * there, and the cases run one after the other.
 */

/** Sets proxy variables for the run that follows, as the runner's environment would. */
function proxyEnv(env: Record<string, string>): void {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
}
afterEach(() => {
  vi.unstubAllEnvs();
});

const EXPORT = { domain: 'docs.example.com', path: 'site', 'poll-interval': '0.5s' };
const AGENT = {
  command: 'agent',
  'project-id': 'demo-project',
  prompt: 'Fix the typos',
  'poll-interval': '0.5s',
};

let site: ReferenceSite;
beforeAll(async () => {
  site = await referenceSite('tar.gz', { padBytes: 64 * 1024 });
});

async function proxyCase(context: TestContext) {
  const harness = await caseHarness(context, {
    jobDurationMs: 500,
    queuedMs: 100,
    agentDurationMs: 500,
    archiveFor: () => site.archive,
  });
  const proxy = await startForwardProxy();
  context.onTestFinished(() => proxy.stop());
  const { workspace } = await workspaceWithSite();
  return { harness, proxy, workspace };
}

const hostOf = (url: string) => new URL(url).host;
const via = (proxy: ForwardProxy, host: string) =>
  proxy.requests.filter((line) => line.split(' ')[1] === host);

describe('proxy', () => {
  for (const [name, env] of [
    ['HTTP_PROXY and HTTPS_PROXY', (url: string) => ({ HTTP_PROXY: url, HTTPS_PROXY: url })],
    ['http_proxy (lower case)', (url: string) => ({ http_proxy: url })],
  ] as const) {
    it(
      `export with ${name}: every request through the proxy`,
      row('succeeds, same files; proxied requests = requests received'),
      async (context) => {
        const { harness, proxy, workspace } = await proxyCase(context);
        proxyEnv(env(proxy.url));
        const run = await runCase(harness, EXPORT, { workspace });
        await expectDelivered(run, workspace, site.digest);
        const { requests } = harness.emulator;
        const api = requests.filter((r) => r.server === 'api').length;
        const store = requests.filter((r) => r.server === 'store').length;
        expect(api).toBeGreaterThanOrEqual(3);
        expect(store).toBeGreaterThanOrEqual(1);
        expect(via(proxy, hostOf(harness.emulator.baseUrl))).toHaveLength(api);
        expect(via(proxy, hostOf(harness.emulator.storeUrl))).toHaveLength(store);
        expect(proxy.requests).toHaveLength(api + store);
      },
    );
  }

  it(
    'agent with HTTP_PROXY: every request through the proxy',
    row('succeeds; proxied requests = requests received'),
    async (context) => {
      const { harness, proxy } = await proxyCase(context);
      proxyEnv({ HTTP_PROXY: proxy.url });
      const run = await runCase(harness, AGENT);
      expect(run.code, run.stdout).toBe(0);
      expect(harness.emulator.requests.length).toBeGreaterThanOrEqual(2);
      expect(proxy.requests).toHaveLength(harness.emulator.requests.length);
    },
  );

  for (const [name, noProxy] of [
    ['NO_PROXY=127.0.0.1', () => '127.0.0.1'],
    ['NO_PROXY=*', () => '*'],
    ['no_proxy=localhost,127.0.0.1 (lower case, a list)', () => 'localhost,127.0.0.1'],
  ] as const) {
    it(
      `${name}: nothing through the proxy`,
      row('succeeds, same files; proxy unused'),
      async (context) => {
        const { harness, proxy, workspace } = await proxyCase(context);
        const key = name.startsWith('no_proxy') ? 'no_proxy' : 'NO_PROXY';
        proxyEnv({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, [key]: noProxy() });
        const run = await runCase(harness, EXPORT, { workspace });
        await expectDelivered(run, workspace, site.digest);
        expect(proxy.seen).toEqual([]);
      },
    );
  }

  it(
    'NO_PROXY naming the API host:port only: the storage through the proxy, the API direct',
    row('succeeds, same files; only storage requests proxied'),
    async (context) => {
      const { harness, proxy, workspace } = await proxyCase(context);
      proxyEnv({ HTTP_PROXY: proxy.url, NO_PROXY: hostOf(harness.emulator.baseUrl) });
      const run = await runCase(harness, EXPORT, { workspace });
      await expectDelivered(run, workspace, site.digest);
      const store = harness.emulator.requests.filter((r) => r.server === 'store').length;
      expect(store).toBeGreaterThanOrEqual(1);
      expect(via(proxy, hostOf(harness.emulator.baseUrl))).toEqual([]);
      expect(via(proxy, hostOf(harness.emulator.storeUrl))).toHaveLength(store);
      expect(proxy.requests).toHaveLength(store);
    },
  );

  it(
    'a proxy that refuses connections',
    row('exit 1, one clear line naming the proxy, path untouched'),
    async (context) => {
      const { harness, workspace } = await proxyCase(context);
      const closed = net.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      proxyEnv({ HTTP_PROXY: `http://127.0.0.1:${port}` });
      const run = await runCase(harness, { ...EXPORT, timeout: '5s' }, { workspace });
      expectOneClearError(run, /Could not start the static export .*ECONNREFUSED.*proxy/);
      await expectUntouched(run, workspace);
      expect(harness.emulator.requests).toEqual([]);
    },
  );

  for (const [name, value] of [
    ['a port that is not a number', 'http://proxyuser:proxypassw0rd@proxy.corp:port'],
    ['a password with a stray %', 'http://proxyuser:proxy%zzpassw0rd@127.0.0.1:3128'],
  ] as const) {
    it(
      `HTTP_PROXY with ${name}`,
      row(
        'exit 1, one clear line naming HTTP_PROXY, no request sent directly, no credentials shown',
      ),
      async (context) => {
        const { harness, workspace } = await proxyCase(context);
        proxyEnv({ HTTP_PROXY: value });
        const run = await runCase(harness, { ...EXPORT, timeout: '5s' }, { workspace });
        expectOneClearError(run, /HTTP_PROXY .*not a proxy URL.*http:\/\/proxy\.example\.com:3128/);
        expect(run.stdout).not.toContain('proxypassw0rd');
        expect(run.stdout).not.toMatch(/retry|trying again/i);
        await expectUntouched(run, workspace);
        expect(harness.emulator.requests).toEqual([]);
      },
    );
  }

  it(
    'HTTPS_PROXY with a password holding @ and / not percent-encoded',
    row('exit 1, one clear line naming HTTPS_PROXY, no piece of the password shown'),
    async (context) => {
      const { harness, workspace } = await proxyCase(context);
      // Read as a URL, the host is the piece of the password between its @ and its /.
      proxyEnv({ HTTPS_PROXY: 'http://proxyuser:Xy7@127.0.0.9/proxypassw0rd@127.0.0.1:3128' });
      const run = await runCase(
        harness,
        { ...EXPORT, 'base-url': 'https://api.example.test', timeout: '5s' },
        { workspace },
      );
      expectOneClearError(
        run,
        /HTTPS_PROXY .*not a proxy URL.*holds \/, @ or : not percent-encoded/,
      );
      for (const piece of ['127.0.0.9', 'proxypassw0rd', 'Xy7', 'proxyuser']) {
        expect(run.stdout).not.toContain(piece);
      }
      await expectUntouched(run, workspace);
    },
  );

  /**
   * A listener on loopback named as the https proxy, counting connections; the run through
   * it raced against a real timer, since the failure this guards against never ended.
   */
  async function throughListener(
    context: TestContext,
    server: net.Server,
  ): Promise<{ run: CaseRun | undefined; connections: number; workspace: string }> {
    const { harness, workspace } = await proxyCase(context);
    let connections = 0;
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    context.onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    proxyEnv({ HTTPS_PROXY: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    const run = await Promise.race([
      runCase(
        harness,
        { ...EXPORT, 'base-url': 'https://api.example.test', timeout: '30s' },
        { workspace },
      ),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000).unref()),
    ]);
    return { run, connections, workspace };
  }

  const CLOSED = /closed the connection without answering CONNECT .*scheme and port/;
  for (const [name, server, says] of [
    [
      'a proxy that closes the connection on CONNECT',
      () =>
        net.createServer((socket) => {
          socket.on('error', () => undefined);
          socket.once('data', () => socket.destroy());
        }),
      CLOSED,
    ],
    [
      // An https proxy's port written as http://: the handshake never starts, so no
      // certificate is needed to show it.
      'a TLS port written as http://',
      () => tls.createServer().on('tlsClientError', () => undefined),
      CLOSED,
    ],
    [
      // What microsocks answers a CONNECT with: SOCKS5, no acceptable method.
      'a SOCKS5 proxy written as http://',
      () =>
        net.createServer((socket) => {
          socket.on('error', () => undefined);
          socket.once('data', () => socket.end(Buffer.from([5, 0xff])));
        }),
      /did not answer CONNECT as an HTTP proxy does \(Response does not match the HTTP\/1\.1 protocol.*\)\. Is it a SOCKS proxy, or TLS on this port\? .*scheme and port/,
    ],
  ] as const) {
    it(
      `${name}`,
      row(
        'exit 1 at once, one clear line naming the proxy and its scheme and port; one connection',
      ),
      async (context) => {
        const { run, connections, workspace } = await throughListener(context, server());
        // undici reconnected at once, some 1,500 times a second, and the run never ended.
        expect(run, `no end after 10 s, ${connections} connections`).toBeDefined();
        expect(connections).toBeLessThanOrEqual(3);
        expectOneClearError(
          run as CaseRun,
          /Could not start the static export of docs\.example\.com: the proxy http:\/\/127\.0\.0\.1:\d+ /,
        );
        expect(errorLines(run as CaseRun)[0]).toMatch(says);
        expect(run?.stdout).not.toMatch(/retry|trying again/i);
        await expectUntouched(run as CaseRun, workspace);
      },
    );
  }
});

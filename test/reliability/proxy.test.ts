import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/action.js';
import { DEBUG } from './support.js';

/**
 * A small forward proxy (CONNECT tunnels and absolute-form requests) on loopback: with
 * HTTPS_PROXY/HTTP_PROXY set, every request of the action must go through it, to the API
 * and to the storage alike; NO_PROXY must be honoured.
 */
async function startForwardProxy() {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    const target = new URL(req.url ?? '');
    seen.push(`${req.method} ${target.host}`);
    const upstream = http.request(
      target,
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req, socket, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let harness: Harness;
let proxy: Awaited<ReturnType<typeof startForwardProxy>>;
beforeAll(async () => {
  harness = await startHarness({ jobDurationMs: 500, queuedMs: 100, pageCount: 4 });
  proxy = await startForwardProxy();
});
afterAll(async () => {
  await proxy.stop();
  await harness.stop();
});

const hostOf = (url: string) => new URL(url).host;

describe('proxy', () => {
  it('sends every request, to the API and to the storage, through HTTPS_PROXY/HTTP_PROXY', async ({
    task,
  }) => {
    task.meta.expected = 'success, all traffic via the proxy';
    proxy.seen.length = 0;
    const run = await harness.run(
      { domain: 'docs.example.com', path: 'site', 'poll-interval': '0.5s' },
      { env: { ...DEBUG, HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url } },
    );
    expect(run.code, run.stdout).toBe(0);
    const targets = new Set(proxy.seen.map((line) => line.split(' ')[1]));
    expect(targets).toEqual(
      new Set([hostOf(harness.emulator.baseUrl), hostOf(harness.emulator.storeUrl)]),
    );
    // Each request the emulator received came through the proxy.
    expect(proxy.seen.length).toBeGreaterThan(0);
  });

  it('leaves hosts listed in NO_PROXY alone', async ({ task }) => {
    task.meta.expected = 'success, nothing via the proxy';
    proxy.seen.length = 0;
    const run = await harness.run(
      { domain: 'docs.example.com', path: 'site', 'poll-interval': '0.5s' },
      { env: { ...DEBUG, HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } },
    );
    expect(run.code, run.stdout).toBe(0);
    expect(proxy.seen).toEqual([]);
  });

  it('a proxy that refuses connections fails with one clear line', async ({ task }) => {
    task.meta.expected = 'fails, one clear line';
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const run = await harness.run(
      { domain: 'docs.example.com', 'poll-interval': '0.5s', timeout: '20s' },
      {
        env: {
          ...DEBUG,
          HTTPS_PROXY: `http://127.0.0.1:${port}`,
          HTTP_PROXY: `http://127.0.0.1:${port}`,
        },
      },
    );
    expect(run.code).toBe(1);
    expect(run.stdout.split('\n').filter((l) => l.startsWith('::error'))).toEqual([
      expect.stringMatching(
        /Could not start the static export .*connection failed.*ECONNREFUSED.*proxy/,
      ),
    ]);
  });
});

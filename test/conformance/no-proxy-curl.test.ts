/**
 * NO_PROXY as curl (Debian's) reads it: for each NO_PROXY value and address, curl is run
 * with a recording proxy and a recording direct listener on loopback, and the way the
 * action would go (proxyFor) must be the way curl went, but for the forms the README says
 * the action reads more widely.
 */
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyFor } from '../../src/proxy.js';

const CI = process.env.CI === 'true';
const installed = spawnSync('curl', ['--version']).status === 0;
if (!installed && !CI) console.log('Skipping the NO_PROXY comparison: no curl.');

interface Listener {
  server: net.Server;
  port: number;
  connections: number;
}

/** A listener that counts connections and closes each at once. */
async function listener(host: string, port = 0): Promise<Listener> {
  const state: Listener = { server: net.createServer(), port: 0, connections: 0 };
  state.server.on('connection', (socket) => {
    state.connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    state.server.once('error', reject);
    state.server.listen(port, host, resolve);
  });
  state.port = (state.server.address() as net.AddressInfo).port;
  return state;
}

const NAMES = ['docs.example.com', 'example.com', 'sub.docs.example.com', 'notexample.com'];

describe.skipIf(!installed && !CI)('NO_PROXY, against curl', () => {
  let direct: Listener;
  let direct6: Listener;
  let proxy: Listener;
  beforeAll(async () => {
    direct = await listener('127.0.0.1');
    direct6 = await listener('::1', direct.port);
    proxy = await listener('127.0.0.1');
  });
  afterAll(() => {
    for (const each of [direct, direct6, proxy]) each?.server.close();
  });

  /** Where curl sends a request for `url` under `noProxy`: the proxy, or the host itself. */
  async function curlGoes(url: string, noProxy: string): Promise<'proxy' | 'direct'> {
    const before = { proxy: proxy.connections, direct: direct.connections + direct6.connections };
    // Every name is this machine, so that going direct reaches the listener.
    const resolve = [...NAMES, 'localhost'].flatMap((name) => [
      '--resolve',
      `${name}:${direct.port}:127.0.0.1`,
    ]);
    await new Promise<void>((done) => {
      spawn('curl', ['-s', '-o', '/dev/null', '--max-time', '5', ...resolve, url], {
        env: { PATH: process.env.PATH, ...environment(noProxy) },
        stdio: 'ignore',
      }).on('exit', () => done());
    });
    if (proxy.connections > before.proxy) return 'proxy';
    if (direct.connections + direct6.connections > before.direct) return 'direct';
    throw new Error(`curl reached neither listener for ${url}`);
  }

  const environment = (noProxy: string) => ({
    http_proxy: `http://127.0.0.1:${proxy.port}`,
    https_proxy: `http://127.0.0.1:${proxy.port}`,
    NO_PROXY: noProxy,
  });

  const actionGoes = (url: string, noProxy: string) =>
    proxyFor(new URL(url), environment(noProxy)) ? 'proxy' : 'direct';

  const cases = () => {
    const port = direct.port;
    const urls = [
      ...[...NAMES, 'localhost', 'DOCS.Example.com', '127.0.0.1', '[::1]'].map(
        (host) => `http://${host}:${port}/x`,
      ),
      `https://docs.example.com:${port}/x`,
    ];
    const values = [
      ...['example.com', '.example.com', '*', 'EXAMPLE.COM', ' example.com , other.org '],
      ...['sub.docs.example.com', '.com', 'com', 'localhost', '127.0.0.1', '127.0.0.0/8'],
      ...['10.0.0.0/8', '::1', '', 'docs.*.com', 'notexample.com', '0.1', '.0.0.1'],
      // Read more widely than curl 7.88 reads them, as the README says.
      ...['*.example.com', `docs.example.com:${port}`, 'docs.example.com:1', '[::1]', '::1/128'],
    ];
    return values.flatMap((noProxy) => urls.map((url) => ({ noProxy, url })));
  };

  /** Where the action bypasses the proxy and curl 7.88 does not (README, Networks and proxies). */
  const wider = (noProxy: string, url: string) =>
    (noProxy === '*.example.com' && /\/\/([\w.]+\.)?example\.com:/i.test(url)) ||
    (noProxy.startsWith('docs.example.com:') &&
      noProxy.endsWith(`:${direct.port}`) &&
      /\/\/([\w.]*\.)?docs\.example\.com:/i.test(url)) ||
    ((noProxy === '[::1]' || noProxy === '::1/128') && url.includes('[::1]'));

  it('goes where curl goes, but where the README says the action reads NO_PROXY more widely', async () => {
    const differ: string[] = [];
    let curlProxiesWhereWider = 0;
    for (const { noProxy, url } of cases()) {
      const [curl, action] = [await curlGoes(url, noProxy), actionGoes(url, noProxy)];
      const shown = `NO_PROXY=${JSON.stringify(noProxy)} ${url}: curl ${curl}, the action ${action}`;
      if (!wider(noProxy, url)) {
        if (curl !== action) differ.push(shown);
      } else if (action !== 'direct') differ.push(`${shown} (a wider form)`);
      else if (curl === 'proxy') curlProxiesWhereWider += 1;
    }
    expect(differ).toEqual([]);
    // The wider forms do differ from this curl (Debian 12's 7.88): the test sees them.
    expect(curlProxiesWhereWider).toBeGreaterThan(0);
  });
});

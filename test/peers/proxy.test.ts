import fs from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProxyRoutes } from '../../src/proxy.js';
import { type ReferenceSite, referenceSite } from '../reliability/support.js';
import { treeDigest } from '../support/action.js';
import { runAction } from './support/action.js';
import { startExport } from './support/export.js';
import { NGINX, startNginx } from './support/nginx.js';
import { freePort, scratch, stopAfterEach } from './support/processes.js';
import { DANTE, MICROSOCKS, startDante, startMicrosocks } from './support/socks.js';
import { SQUID, startSquid } from './support/squid.js';
import { startTinyproxy, TINYPROXY } from './support/tinyproxy.js';
import { createPrivateCa } from './support/tls.js';

/**
 * Forward proxies as runners meet them: Debian's squid with its default CONNECT rules
 * (only port 443 and the listed ones), with and without Basic authentication; Debian's
 * tinyproxy, which answers in HTTP/1.0 and marks its own answers only by its Server
 * header; NO_PROXY
 * in the forms curl accepts (a bare IPv6 address, CIDR ranges), on IPv6 loopback too.
 */

const INPUTS = { domain: 'docs.example.com', path: 'site' };

let site: ReferenceSite;
beforeAll(async () => {
  site = await referenceSite('tar.gz', { padBytes: 64 * 1024 });
});

const peers = stopAfterEach();
const { later, add: cleanup } = peers;

// No run through a proxy puts a warning on stderr, into its log: undici announces its
// SOCKS5 support as experimental once per process, at the first connection through one,
// and names an https:// proxy that is an IP address as its TLS server name (Node's
// DEP0123), as its SOCKS5 path does an https target.
const warnings: string[] = [];
const onWarning = (warning: Error) => {
  // The AWS SDK that presigns the test storage's links warns of Node 20's end of support.
  if (!warning.message.includes('AWS SDK')) warnings.push(`${warning.name}: ${warning.message}`);
};
beforeAll(() => {
  process.on('warning', onWarning);
});
afterAll(() => {
  process.off('warning', onWarning);
});
afterEach(async () => {
  // Emitted on the next tick: the last run's too.
  await new Promise((resolve) => setImmediate(resolve));
  expect(warnings.splice(0)).toEqual([]);
});

const apiAndStore = (host = '127.0.0.1') => startExport(site.archive, peers, { host });

/** The dispatcher the action builds from these proxy variables. */
function through(env: Record<string, string>): ProxyRoutes {
  const dispatcher = new ProxyRoutes(env);
  cleanup(() => dispatcher.close());
  return dispatcher;
}

/** The API behind nginx with TLS, from a private CA, on a port of its own. */
async function tlsApi() {
  const ca = await createPrivateCa(await scratch('ca'));
  const { api, store } = await apiAndStore();
  const nginx = later(
    await startNginx(
      1,
      ([p]) => `server {
        listen 127.0.0.1:${p} ssl;
        ssl_certificate ${ca.certFile};
        ssl_certificate_key ${ca.keyFile};
        location / { proxy_pass ${api.baseUrl}; }
      }`,
    ),
  );
  return {
    tlsPort: nginx.ports[0] as number,
    ca: await fs.readFile(ca.caFile, 'utf8'),
    caFiles: ca,
    api,
    store,
  };
}

/** Both proxy variables set to `proxy`, trusting `ca` through its tunnels. */
function trusting(proxy: string, ca: string): ProxyRoutes {
  const dispatcher = new ProxyRoutes(
    { HTTPS_PROXY: proxy, HTTP_PROXY: proxy },
    { connect: { ca } },
  );
  cleanup(() => dispatcher.close().catch(() => undefined));
  return dispatcher;
}

describe.skipIf(!SQUID.available)('squid', () => {
  it('plain-http targets go through as absolute-form requests (no CONNECT), as curl sends them', async () => {
    const squid = later(await startSquid());
    const { api, store } = await apiAndStore();
    const run = await runAction(
      { ...INPUTS, 'base-url': api.baseUrl },
      { dispatcher: through({ HTTP_PROXY: squid.url }) },
    );
    expect(run.code, run.error).toBe(0);
    expect(await treeDigest(path.join(run.workspace, 'site'))).toEqual(site.digest);
    const log = await squid.accessLog();
    expect(log).toContain(`POST ${api.baseUrl}/v1/static-export/jobs 202`);
    expect(
      log.some((line) => line.startsWith(`GET ${store.endpoint}/`) && line.endsWith(' 200')),
    ).toBe(true);
    expect(log.filter((line) => line.startsWith('CONNECT'))).toEqual([]);
  });

  it('a proxy asking for credentials fails the run at once, saying how to give them', async () => {
    const squid = later(await startSquid({ auth: { user: 'ci', password: 'pa:ss w0rd' } }));
    const { api } = await apiAndStore();
    const bare = squid.url.replace(/\/\/.*@/, '//');
    const run = await runAction(
      { ...INPUTS, 'base-url': api.baseUrl },
      { dispatcher: through({ HTTP_PROXY: bare }) },
    );
    expect(run.code).toBe(1);
    expect(run.error).toMatch(
      /^Could not start the static export of docs\.example\.com: the proxy http:\/\/127\.0\.0\.1:\d+ requires authentication \(HTTP 407\)\. Put the proxy credentials in the proxy URL of the variable that names it \(HTTPS_PROXY, HTTP_PROXY or ALL_PROXY\)/,
    );
    expect(await squid.accessLog()).toHaveLength(1);
    expect(api.requests).toEqual([]);
  });

  it('wrong credentials are named as such, and the password is never printed', async () => {
    const squid = later(await startSquid({ auth: { user: 'ci', password: 'right' } }));
    const { api } = await apiAndStore();
    const wrong = squid.url.replace('right', 's3cr3t-wrong');
    const run = await runAction(
      { ...INPUTS, 'base-url': api.baseUrl },
      { dispatcher: through({ HTTP_PROXY: wrong }) },
    );
    expect(run.code).toBe(1);
    expect(run.error).toMatch(/refused the user name and password in the proxy URL/);
    expect(JSON.stringify(run)).not.toContain('s3cr3t-wrong');
  });

  it('with the credentials in the proxy URL (special characters encoded), the export arrives', async () => {
    const squid = later(await startSquid({ auth: { user: 'ci', password: 'pa:ss w0rd' } }));
    const { api } = await apiAndStore();
    const run = await runAction(
      { ...INPUTS, 'base-url': api.baseUrl },
      { dispatcher: through({ http_proxy: squid.url }) },
    );
    expect(run.code, run.error).toBe(0);
    expect(await treeDigest(path.join(run.workspace, 'site'))).toEqual(site.digest);
    expect(JSON.stringify(run)).not.toContain('w0rd');
  });

  it('a CONNECT the proxy refuses (a port outside its rules): the proxy and its 403, at once', async () => {
    const squid = later(await startSquid());
    const port = await freePort();
    const run = await runAction(
      { ...INPUTS, 'base-url': `https://127.0.0.1:${port}` },
      { dispatcher: through({ HTTPS_PROXY: squid.url }) },
    );
    expect(run.code).toBe(1);
    expect(run.error).toMatch(
      new RegExp(
        `the proxy http://127\\.0\\.0\\.1:${squid.port} refused to connect to 127\\.0\\.0\\.1:${port} \\(HTTP 403\\)\\. The proxy's access rules`,
      ),
    );
    expect((await squid.accessLog()).filter((line) => line.startsWith('CONNECT'))).toHaveLength(1);
  });

  it.skipIf(!NGINX.available)(
    'an https API through a CONNECT tunnel the proxy allows, with its private CA trusted',
    async () => {
      const { tlsPort, ca } = await tlsApi();
      const squid = later(await startSquid({ tlsPorts: [tlsPort] }));
      const dispatcher = trusting(squid.url, ca);
      const run = await runAction(
        { ...INPUTS, 'base-url': `https://127.0.0.1:${tlsPort}` },
        { dispatcher },
      );
      expect(run.code, run.error).toBe(0);
      expect(await treeDigest(path.join(run.workspace, 'site'))).toEqual(site.digest);
      // squid logs a tunnel once it closes.
      await dispatcher.close();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const log = await squid.accessLog();
      expect(
        log.filter((line) => line.startsWith(`CONNECT 127.0.0.1:${tlsPort}`)).length,
      ).toBeGreaterThanOrEqual(1);
    },
  );

  it.skipIf(!NGINX.available)(
    'an https:// proxy: its TLS with the CA given, then the tunnel; an untrusted one is named',
    async () => {
      const { tlsPort, ca, caFiles, api, store } = await tlsApi();
      const squid = later(
        await startSquid({
          tlsPorts: [tlsPort],
          tls: { certFile: caFiles.certFile, keyFile: caFiles.keyFile },
        }),
      );
      expect(squid.url).toMatch(/^https:/);
      const trusted = await runAction(
        { ...INPUTS, 'base-url': `https://127.0.0.1:${tlsPort}` },
        { dispatcher: trusting(squid.url, ca) },
      );
      expect(trusted.code, trusted.error).toBe(0);
      expect(await treeDigest(path.join(trusted.workspace, 'site'))).toEqual(site.digest);

      // Its certificate untrusted, for an https API (before the tunnel) and a plain-http
      // one (sent to it in absolute form, over TLS): the proxy is named, not the API.
      for (const baseUrl of [`https://127.0.0.1:${tlsPort}`, api.baseUrl]) {
        const untrusted = await runAction(
          { ...INPUTS, 'base-url': baseUrl },
          { dispatcher: through({ HTTPS_PROXY: squid.url, HTTP_PROXY: squid.url }) },
        );
        expect(untrusted.code).toBe(1);
        expect(untrusted.error).toContain(
          `the TLS certificate of the proxy https://127.0.0.1:${squid.port} is not signed by a CA this runner trusts`,
        );
      }
      // A plain-http target goes to it in absolute form, never through a CONNECT its
      // default rules refuse (as curl sends it).
      expect(
        (await squid.accessLog()).filter((line) => line.startsWith(`GET ${store.endpoint}/`)),
      ).toHaveLength(1);
    },
  );
});

describe.skipIf(!TINYPROXY.available)('tinyproxy', () => {
  const auth = { user: 'ci', password: 'pa-ss_w0rd.x' };

  it('plain-http targets go through it, its HTTP/1.0 answers included, and the export arrives', async () => {
    const tinyproxy = later(await startTinyproxy({ auth }));
    const { api, store } = await apiAndStore();
    const run = await runAction(
      { ...INPUTS, 'base-url': api.baseUrl },
      { dispatcher: through({ HTTP_PROXY: tinyproxy.url }) },
    );
    expect(run.code, run.error).toBe(0);
    expect(await treeDigest(path.join(run.workspace, 'site'))).toEqual(site.digest);
    const requests = await tinyproxy.requests();
    expect(requests).toContain(`POST ${api.baseUrl}/v1/static-export/jobs`);
    expect(requests.some((line) => line.startsWith(`GET ${store.endpoint}/`))).toBe(true);
    expect(requests.filter((line) => line.startsWith('CONNECT'))).toEqual([]);
    expect(JSON.stringify(run)).not.toContain(auth.password);
  });

  it('without credentials: its 407, and how to give them', async () => {
    const tinyproxy = later(await startTinyproxy({ auth }));
    const { api } = await apiAndStore();
    const bare = tinyproxy.url.replace(/\/\/.*@/, '//');
    const run = await runAction(
      { ...INPUTS, 'base-url': api.baseUrl },
      { dispatcher: through({ HTTP_PROXY: bare }) },
    );
    expect(run.code).toBe(1);
    expect(run.error).toMatch(
      /the proxy http:\/\/127\.0\.0\.1:\d+ requires authentication \(HTTP 407\)\. Put the proxy credentials in the proxy URL/,
    );
    expect(api.requests).toEqual([]);
  });

  // tinyproxy answers wrong credentials with 401, the status an API gives a wrong key.
  it.each([
    ['a plain-http API', 'http'],
    ['an https API (CONNECT)', 'https'],
  ])(
    'wrong credentials, %s: its 401 is named as the proxy refusing them, not the API key',
    async (_name, scheme) => {
      const tinyproxy = later(await startTinyproxy({ auth }));
      const { api } = await apiAndStore();
      const baseUrl = scheme === 'http' ? api.baseUrl : `https://127.0.0.1:${await freePort()}`;
      const wrong = tinyproxy.url.replace(auth.password, 's3cr3t-wrong');
      const run = await runAction(
        { ...INPUTS, 'base-url': baseUrl },
        { dispatcher: through({ HTTP_PROXY: wrong, HTTPS_PROXY: wrong }) },
      );
      expect(run.code).toBe(1);
      expect(run.error).toMatch(
        new RegExp(
          `the proxy http://127\\.0\\.0\\.1:${tinyproxy.port} requires authentication \\(HTTP 401\\)\\. The proxy refused the user name and password in the proxy URL`,
        ),
      );
      expect(run.error).not.toMatch(/api-key/);
      expect(JSON.stringify(run)).not.toContain('s3cr3t-wrong');
      expect(api.requests).toEqual([]);
    },
  );

  it('a host it cannot reach: its own 500 is named as the proxy failing to connect', async () => {
    const tinyproxy = later(await startTinyproxy());
    const port = await freePort();
    const run = await runAction(
      { ...INPUTS, 'base-url': `http://127.0.0.1:${port}` },
      { dispatcher: through({ HTTP_PROXY: tinyproxy.url }) },
    );
    expect(run.code).toBe(1);
    expect(run.error).toContain(
      `the proxy http://127.0.0.1:${tinyproxy.port} could not connect to 127.0.0.1:${port} (HTTP 500)`,
    );
  });

  it.skipIf(!NGINX.available)(
    'an https API through a CONNECT tunnel it allows, with credentials and a private CA',
    async () => {
      const { tlsPort, ca } = await tlsApi();
      const tinyproxy = later(await startTinyproxy({ auth, tlsPorts: [tlsPort] }));
      const run = await runAction(
        { ...INPUTS, 'base-url': `https://127.0.0.1:${tlsPort}` },
        { dispatcher: trusting(tinyproxy.url, ca) },
      );
      expect(run.code, run.error).toBe(0);
      expect(await treeDigest(path.join(run.workspace, 'site'))).toEqual(site.digest);
      expect(await tinyproxy.requests()).toContain(`CONNECT 127.0.0.1:${tlsPort}`);
    },
  );
});

describe('SOCKS5', () => {
  const auth = { user: 'ci', password: 'pa:ss w0rd' };
  it.skipIf(!MICROSOCKS.available)(
    'through microsocks with credentials (special characters encoded), the export arrives',
    async () => {
      const socks = later(await startMicrosocks({ auth }));
      const { api } = await apiAndStore();
      const run = await runAction(
        { ...INPUTS, 'base-url': api.baseUrl },
        { dispatcher: through({ ALL_PROXY: socks.url }) },
      );
      expect(run.code, run.error).toBe(0);
      expect(await treeDigest(path.join(run.workspace, 'site'))).toEqual(site.digest);
      expect(api.requests.length).toBeGreaterThan(0);
      expect(JSON.stringify(run)).not.toContain('w0rd');
    },
  );

  it.skipIf(!MICROSOCKS.available)(
    'wrong or missing credentials fail the run at once, named as the proxy refusing them',
    async () => {
      const socks = later(await startMicrosocks({ auth }));
      const { api } = await apiAndStore();
      const wrong = socks.url.replace(encodeURIComponent(auth.password), 's3cr3t-wrong');
      const bare = socks.url.replace(/\/\/.*@/, '//');
      const refusals = [];
      for (const proxy of [wrong, bare]) {
        const run = await runAction(
          { ...INPUTS, 'base-url': api.baseUrl },
          { dispatcher: through({ ALL_PROXY: proxy }) },
        );
        expect(run.code).toBe(1);
        expect(run.lines.join('\n')).not.toMatch(/trying again/);
        expect(JSON.stringify(run)).not.toContain('s3cr3t-wrong');
        refusals.push(run.error);
      }
      const name = `the proxy socks5://127.0.0.1:${socks.port} requires authentication`;
      expect(refusals[0]).toContain(name);
      expect(refusals[0]).toContain(
        'The proxy refused the user name and password in the proxy URL',
      );
      expect(refusals[1]).toContain(name);
      expect(refusals[1]).toContain('Put the proxy credentials in the proxy URL');
      expect(api.requests).toEqual([]);
    },
  );

  it.skipIf(!MICROSOCKS.available)(
    'microsocks written as http://: named as a proxy that does not answer as an HTTP one, at once',
    async () => {
      const socks = later(await startMicrosocks());
      const run = await runAction(
        { ...INPUTS, 'base-url': 'https://api.example.test', timeout: '10s' },
        { dispatcher: through({ HTTPS_PROXY: `http://127.0.0.1:${socks.port}` }) },
      );
      expect(run.code).toBe(1);
      expect(run.error).toContain(
        `the proxy http://127.0.0.1:${socks.port} did not answer CONNECT as an HTTP proxy does`,
      );
      expect(run.error).toContain('Is it a SOCKS proxy, or TLS on this port?');
      expect(run.lines.join('\n')).not.toMatch(/trying again/);
    },
  );

  it.skipIf(!DANTE.available)(
    "a target Dante's rules refuse: the proxy and its rules are named, at once",
    async () => {
      const { api } = await apiAndStore();
      const apiPort = Number(new URL(api.baseUrl).port);
      const dante = later(await startDante({ blocked: [apiPort] }));
      const run = await runAction(
        { ...INPUTS, 'base-url': api.baseUrl },
        { dispatcher: through({ ALL_PROXY: dante.url }) },
      );
      expect(run.code).toBe(1);
      expect(run.error).toContain(
        `the proxy socks5://127.0.0.1:${dante.port} refused to connect to 127.0.0.1:${apiPort}`,
      );
      expect(run.error).toContain("The proxy's access rules do not allow");
      expect(run.lines.join('\n')).not.toMatch(/trying again/);
    },
  );

  it.skipIf(!DANTE.available)(
    'a target Dante cannot reach is named as such, and tried again within the timeout',
    async () => {
      const dante = later(await startDante());
      const port = await freePort();
      const run = await runAction(
        { ...INPUTS, 'base-url': `http://127.0.0.1:${port}`, timeout: '4s' },
        { dispatcher: through({ ALL_PROXY: dante.url }) },
      );
      expect(run.code).toBe(1);
      expect(run.error).toContain(
        `the proxy socks5://127.0.0.1:${dante.port} could not connect to 127.0.0.1:${port}`,
      );
      expect(run.lines.join('\n')).toMatch(/trying again/);
    },
  );

  it.skipIf(!DANTE.available || !NGINX.available)(
    'an https API through Dante, with its private CA trusted inside the tunnel',
    async () => {
      const { tlsPort, ca } = await tlsApi();
      const dante = later(await startDante());
      const run = await runAction(
        { ...INPUTS, 'base-url': `https://127.0.0.1:${tlsPort}` },
        { dispatcher: trusting(dante.url, ca) },
      );
      expect(run.code, run.error).toBe(0);
      expect(await treeDigest(path.join(run.workspace, 'site'))).toEqual(site.digest);
    },
  );

  it('only those notices are left out: any other warning still reaches the log', async () => {
    const dispatcher = through({ ALL_PROXY: `socks5://127.0.0.1:${await freePort()}` });
    // The route, and what leaves the notices out, is made at the first request through it.
    await expect(request('https://127.0.0.1:1/', { dispatcher })).rejects.toThrow();
    process.emitWarning('SOCKS5 proxy support is experimental and subject to change', {
      type: 'ExperimentalWarning',
    });
    process.emitWarning('Another feature is experimental', 'ExperimentalWarning');
    process.emitWarning('A deprecated call', 'DeprecationWarning', 'DEP0005');
    // A wrong argument is refused as Node refuses it.
    expect(() => process.emitWarning(undefined as unknown as string)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.splice(0)).toEqual([
      'ExperimentalWarning: Another feature is experimental',
      'DeprecationWarning: A deprecated call',
    ]);
  });
});

describe('NO_PROXY as curl reads it', () => {
  /** A proxy address where nothing listens: any request sent to it fails the run. */
  const deadProxy = async () => `http://127.0.0.1:${await freePort()}`;

  it.each([
    ['::1', '::1'],
    ['[::1]', '::1'],
    ['::1/128', '::1'],
    ['127.0.0.0/8', '127.0.0.1'],
    ['10.0.0.0/8, 127.0.0.1/32', '127.0.0.1'],
  ])('NO_PROXY=%s reaches the API and the store on %s directly', async (noProxy, host) => {
    const { api } = await apiAndStore(host);
    const run = await runAction(
      { ...INPUTS, 'base-url': api.baseUrl },
      { dispatcher: through({ HTTP_PROXY: await deadProxy(), NO_PROXY: noProxy }) },
    );
    expect(run.code, run.error).toBe(0);
    expect(await treeDigest(path.join(run.workspace, 'site'))).toEqual(site.digest);
  });

  it('without a matching NO_PROXY, the dead proxy is named and not tried again', async () => {
    const { api } = await apiAndStore('::1');
    const proxy = await deadProxy();
    const run = await runAction(
      { ...INPUTS, 'base-url': api.baseUrl },
      { dispatcher: through({ HTTP_PROXY: proxy, NO_PROXY: '127.0.0.1' }) },
    );
    expect(run.code).toBe(1);
    expect(run.error).toContain(`the proxy ${proxy} refused the connection (ECONNREFUSED)`);
    expect(run.lines.join('\n')).not.toMatch(/trying again/);
    expect(api.requests).toEqual([]);
  });
});

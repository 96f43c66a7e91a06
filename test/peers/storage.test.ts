import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceSite, referenceSite } from '../reliability/support.js';
import { treeDigest } from '../support/action.js';
import { ProxyRoutes } from '../../src/proxy.js';
import { runAction } from './support/action.js';
import { startExportApi } from './support/api.js';
import { ARCHIVE_KEY, type ExportOptions, startExport } from './support/export.js';
import { NGINX, startNginx } from './support/nginx.js';
import { freePort, run as exec, scratch, stopAfterEach } from './support/processes.js';
import { type ObjectStore, startObjectStore } from './support/s3.js';
import { createPrivateCa } from './support/tls.js';

/**
 * The download against an S3-compatible server that checks SigV4 signatures and expiry
 * (s3rver, links from the AWS SDK presigner), behind Debian's nginx where a case needs a
 * gateway: real 502 pages while the store is down, redirects, a compressing middlebox.
 */

const KEY = ARCHIVE_KEY;
const INPUTS = { domain: 'docs.example.com', path: 'site', 'poll-interval': '0.5s' };

let site: ReferenceSite;
let small: ReferenceSite;
beforeAll(async () => {
  site = await referenceSite('tar.gz', { padBytes: 512 * 1024 });
  small = await referenceSite('tar.gz', { revision: 2, padBytes: 16 * 1024 });
});

const peers = stopAfterEach();
const { later, add: cleanup } = peers;
const storeAndApi = (
  archive: Buffer,
  linkEndpoint?: (store: ObjectStore) => string,
  answer?: ExportOptions['answer'],
) =>
  startExport(archive, peers, {
    ...(linkEndpoint ? { linkEndpoint } : {}),
    ...(answer ? { answer } : {}),
  });

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe.skipIf(!NGINX.available)('storage outages behind nginx', () => {
  it('an 8-second outage (real nginx 502 pages) is survived, and the files are right', async () => {
    let nginxUrl = '';
    const { store, api } = await storeAndApi(site.archive, () => nginxUrl);
    const nginx = later(
      await startNginx(1, ([port], _dir) => {
        nginxUrl = `http://127.0.0.1:${port}`;
        return `server {
          listen 127.0.0.1:${port};
          location / {
            proxy_pass ${store.endpoint};
            proxy_set_header Host $http_host;
            proxy_connect_timeout 2s;
          }
        }`;
      }),
    );
    await store.pause();
    const back = setTimeout(() => void store.resume(), 8000);
    cleanup(async () => clearTimeout(back));
    const started = Date.now();
    const run = await runAction({ ...INPUTS, 'base-url': api.baseUrl });
    expect(run.code, run.error).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(8000);
    expect(await treeDigest(path.join(run.workspace, 'site'))).toEqual(site.digest);
    expect(run.outputs.sha256).toBe(site.sha256);
    const log = await nginx.accessLog();
    expect(log.filter((line) => line.endsWith(' 502')).length).toBeGreaterThanOrEqual(2);
    expect(log.at(-1)).toMatch(/ 200$/);
    expect(run.lines.join('\n')).toMatch(
      /HTTP 502 \(an HTML page titled "502 Bad Gateway"\).*retrying in/,
    );
  }, 60_000);
});

describe.skipIf(!NGINX.available)('a gateway in front of the API', () => {
  it('real nginx 504 pages while the backend hangs are tried again, even for the start', async () => {
    const { api } = await startExport(site.archive, peers, { hangFirst: 2 });
    const nginx = later(
      await startNginx(
        1,
        ([port]) => `server {
          listen 127.0.0.1:${port};
          location / { proxy_pass ${api.baseUrl}; proxy_read_timeout 1s; }
        }`,
      ),
    );
    const run = await runAction({ ...INPUTS, 'base-url': `http://127.0.0.1:${nginx.ports[0]}` });
    expect(run.code, run.error).toBe(0);
    expect(await treeDigest(path.join(run.workspace, 'site'))).toEqual(site.digest);
    expect((await nginx.accessLog()).slice(0, 3)).toEqual([
      'POST /v1/static-export/jobs 504',
      'POST /v1/static-export/jobs 504',
      'POST /v1/static-export/jobs 202',
    ]);
    expect(run.lines.join('\n')).toMatch(/HTTP 504 \(an HTML page titled "504 Gateway Time-out"\)/);
  });
});

describe.skipIf(!NGINX.available)('redirects from a download front end', () => {
  /** nginx on its first port answers /bundle with `locations`; `servers` may use the others. */
  async function frontEnd(
    locations: (link: string, ports: number[]) => string,
    servers?: { ports: number; config: (ports: number[]) => string },
  ) {
    const store = later(await startObjectStore());
    await store.put(KEY, site.archive);
    const link = await store.presign(KEY, 600);
    const nginx = later(
      await startNginx(
        1 + (servers?.ports ?? 0),
        (ports) =>
          `server { listen 127.0.0.1:${ports[0]}; ${locations(link, ports)} } ${servers?.config(ports) ?? ''}`,
      ),
    );
    const front = `http://127.0.0.1:${nginx.ports[0]}`;
    const api = later(
      await startExportApi(async () => ({
        bundleUrl: `${front}/bundle`,
        sizeBytes: site.archive.length,
        expiresAt: new Date(Date.now() + 600_000).toISOString(),
      })),
    );
    return { api, nginx };
  }

  it.each([302, 307])('a %i to the presigned S3 link is followed', async (status) => {
    const { api, nginx } = await frontEnd(
      (link) => `location = /bundle { return ${status} "${link}"; }`,
    );
    const run = await runAction({ ...INPUTS, 'base-url': api.baseUrl });
    expect(run.code, run.error).toBe(0);
    expect(await treeDigest(path.join(run.workspace, 'site'))).toEqual(site.digest);
    expect(await nginx.accessLog()).toEqual([`GET /bundle ${status}`]);
  });

  it('a storage with an untrusted certificate behind the redirect is the one named', async () => {
    const ca = await createPrivateCa(await scratch('ca'));
    const { api, nginx } = await frontEnd(
      (_link, [, tls]) => `location = /bundle { return 302 https://127.0.0.1:${tls}/bundle; }`,
      {
        ports: 1,
        config: ([, tls]) => `server {
          listen 127.0.0.1:${tls} ssl;
          ssl_certificate ${ca.certFile};
          ssl_certificate_key ${ca.keyFile};
          return 200;
        }`,
      },
    );
    const tlsPort = nginx.ports[1] as number;
    const run = await runAction({ ...INPUTS, 'base-url': api.baseUrl });
    expect(run.code).toBe(1);
    const front = nginx.ports[0] as number;
    expect(run.error).toBe(
      `Could not download the bundle from https://127.0.0.1:${tlsPort}/bundle (redirected from http://127.0.0.1:${front}/bundle): the TLS certificate of 127.0.0.1:${tlsPort} is not signed by a CA this runner trusts (UNABLE_TO_VERIFY_LEAF_SIGNATURE). If 127.0.0.1:${tlsPort} (or a proxy that inspects TLS) uses a private or corporate CA, give the runner that CA's certificate: set NODE_EXTRA_CA_CERTS to the path of a PEM file holding it. Do not turn off certificate checks.`,
    );
  });

  it('a proxy for the storage alone (NO_PROXY names the front end) is named, and not tried again', async () => {
    const proxy = `http://127.0.0.1:${await freePort()}`;
    const { api, nginx } = await frontEnd((link) => `location = /bundle { return 302 "${link}"; }`);
    const apiPort = new URL(api.baseUrl).port;
    const routes = new ProxyRoutes({
      HTTP_PROXY: proxy,
      NO_PROXY: `127.0.0.1:${apiPort},127.0.0.1:${nginx.ports[0]}`,
    });
    cleanup(() => routes.close());
    const run = await runAction({ ...INPUTS, 'base-url': api.baseUrl }, { dispatcher: routes });
    expect(run.code).toBe(1);
    expect(run.error).toMatch(
      /^Could not download the bundle from http:\/\/127\.0\.0\.1:\d+\/[^ ]+site\.tar\.gz\?… \(redirected from http:\/\/127\.0\.0\.1:\d+\/bundle\): the proxy http:\/\/127\.0\.0\.1:\d+ refused the connection \(ECONNREFUSED\)/,
    );
    expect(run.error).toContain(`the proxy ${proxy} refused`);
    expect(run.lines.join('\n')).not.toMatch(/trying again/);
    expect(await nginx.accessLog()).toEqual(['GET /bundle 302']);
  });

  it('a chain of redirects longer than five is refused with a clear message', async () => {
    const { api } = await frontEnd(
      () =>
        'location ~ ^/bundle(\\d*)$ { return 302 /bundle$1x; } location ~ x$ { return 302 /bundlex$uri; }',
    );
    const run = await runAction({ ...INPUTS, 'base-url': api.baseUrl });
    expect(run.code).toBe(1);
    expect(run.error).toMatch(/redirected more than 5 times/);
  });
});

describe.skipIf(!NGINX.available)('a middlebox that compresses uninvited', () => {
  /** nginx in front of nginx: the inner one gzips because the outer one says the client accepts it. */
  async function compressingPath() {
    let front = '';
    const { store, api } = await storeAndApi(site.archive, () => front);
    const nginx = later(
      await startNginx(2, ([outer, inner]) => {
        front = `http://127.0.0.1:${outer}`;
        return `
        server {
          listen 127.0.0.1:${outer};
          location / {
            proxy_pass http://127.0.0.1:${inner};
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header Accept-Encoding gzip;
          }
        }
        server {
          listen 127.0.0.1:${inner};
          gzip on;
          gzip_types *;
          gzip_proxied any;
          gzip_min_length 0;
          location / {
            proxy_pass ${store.endpoint};
            proxy_set_header Host $http_host;
          }
        }`;
      }),
    );
    return { api, nginx };
  }

  it('extract: false keeps the archive itself (decoded, sha256 and size right), never the gzip of it', async () => {
    const { api } = await compressingPath();
    const run = await runAction({ ...INPUTS, 'base-url': api.baseUrl, extract: 'false' });
    expect(run.code, run.error).toBe(0);
    const kept = await fs.readFile(run.outputs['archive-path'] as string);
    expect(sha256(kept)).toBe(site.sha256);
    expect(run.outputs.sha256).toBe(site.sha256);
    expect(run.outputs['size-bytes']).toBe(String(site.archive.length));
    expect(run.lines.join('\n')).toMatch(/arrived compressed \(Content-Encoding gzip\)/);
  });

  it('extract: true yields exactly the files of the archive', async () => {
    const { api } = await compressingPath();
    const run = await runAction({ ...INPUTS, 'base-url': api.baseUrl });
    expect(run.code, run.error).toBe(0);
    expect(await treeDigest(path.join(run.workspace, 'site'))).toEqual(site.digest);
  });

  it('an object stored with Content-Encoding gzip is kept as stored: its length is the announced size', async () => {
    const { store, api } = await storeAndApi(site.archive);
    await store.put(KEY, site.archive, 'gzip');
    const run = await runAction({ ...INPUTS, 'base-url': api.baseUrl, extract: 'false' });
    expect(run.code, run.error).toBe(0);
    expect(run.outputs.sha256).toBe(site.sha256);
  });
});

describe('the archive changes size between a cut and the resume', () => {
  it('S3 answers 416 to the resume: a fresh link, a fresh start, exactly the new version', async () => {
    let relay = '';
    let current = site;
    const { store, api } = await storeAndApi(site.archive, undefined, async (s) => ({
      bundleUrl: await s.presign(KEY, 600, { endpoint: relay }),
      sizeBytes: current.archive.length,
      expiresAt: new Date(Date.now() + 600_000).toISOString(),
    }));
    // A TCP relay that cuts the first transfer half-way; meanwhile the export is regenerated.
    const storePort = Number(new URL(store.endpoint).port);
    let connections = 0;
    const server = net.createServer((client) => {
      connections += 1;
      const upstream = net.connect(storePort, '127.0.0.1');
      client.pipe(upstream);
      if (connections > 1) {
        upstream.pipe(client);
        return;
      }
      let sent = 0;
      upstream.on('data', (chunk: Buffer) => {
        sent += chunk.length;
        client.write(chunk);
        if (sent > site.archive.length / 2) {
          upstream.destroy();
          client.destroy();
          current = small;
          void store.put(KEY, small.archive);
        }
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    cleanup(() => new Promise((resolve) => server.close(resolve)));
    relay = `http://127.0.0.1:${port}`;
    const run = await runAction({ ...INPUTS, 'base-url': api.baseUrl });
    expect(run.code, run.error).toBe(0);
    const log = run.lines.join('\n');
    expect(log).toMatch(/HTTP 416.*starting the download over/);
    expect(log).toMatch(/requesting a fresh bundle link/);
    expect(await treeDigest(path.join(run.workspace, 'site'))).toEqual(small.digest);
    expect(run.outputs.sha256).toBe(small.sha256);
    expect(api.requests.filter((r) => r.endsWith('/bundle'))).toHaveLength(2);
  });
});

describe('the runner’s own disk', () => {
  /** A tmpfs of `size` mounted on a fresh directory (root only), unmounted afterwards. */
  async function mounted(options: string): Promise<string | undefined> {
    const dir = await scratch('disk');
    try {
      await exec('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]);
    } catch (err) {
      if (process.env.CI === 'true') throw err;
      console.warn(`skipping: cannot mount a tmpfs here (${(err as Error).message})`);
      return undefined;
    }
    cleanup(() => exec('umount', [dir]));
    return dir;
  }

  // extract: false, so the archive itself is written to the runner's temp dir.
  it.each([
    [
      'size=64k',
      /Could not write the download to .*: the disk is full \(ENOSPC\), with \d+ KB written so far, \d+ KB needed and 0 B free on that file system\. Free space/,
    ],
    ['ro,size=1m', /Could not create the download file .*: the file system is read-only \(EROFS\)/],
  ])('a tmpfs mounted %s: the path and the cause, in one attempt', async (options, message) => {
    const disk = await mounted(options);
    if (disk === undefined) return;
    const { api } = await storeAndApi(site.archive);
    const run = await runAction(
      { ...INPUTS, 'base-url': api.baseUrl, extract: 'false' },
      { tempDir: disk },
    );
    expect(run.code).toBe(1);
    expect(run.error).toMatch(message);
    expect(run.error).toContain(disk);
    expect(run.lines.join('\n')).not.toMatch(/retrying|resuming|connection broke/);
    expect(api.requests.filter((r) => r.endsWith('/bundle'))).toHaveLength(1);
  });

  it('a workspace that fills up while the site is extracted: the cause, in one attempt', async () => {
    const disk = await mounted('size=128k');
    if (disk === undefined) return;
    const { api } = await storeAndApi(site.archive);
    const run = await runAction({ ...INPUTS, 'base-url': api.baseUrl }, { workspace: disk });
    expect(run.code).toBe(1);
    // The extractor words this one (src/deliver/archive): the cause, and no retry.
    expect(run.error).toMatch(/Could not write the extracted .*the disk is full \(ENOSPC/);
    expect(run.lines.join('\n')).not.toMatch(/retrying|resuming|connection broke/);
    expect(await fs.readdir(disk)).toEqual([]);
  });
});

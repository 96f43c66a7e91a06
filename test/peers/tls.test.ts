import fs from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { ProxyRoutes } from '../../src/proxy.js';
import { runAction, spawnAction } from './support/action.js';
import { startExportApi } from './support/api.js';
import { NGINX, startNginx } from './support/nginx.js';
import { scratch, startCountingRelay, stopAfterEach } from './support/processes.js';
import { createPrivateCa, type PrivateCa } from './support/tls.js';

/**
 * TLS with a private CA, served by Debian's nginx with a CA and certificates made with
 * openssl for this run: a runner that does not know the CA fails at once, saying how to
 * give it the CA; given the CA (NODE_EXTRA_CA_CERTS), the same run works.
 */

const EXPORT = { domain: 'docs.example.com', download: 'false' };
const LINK = {
  sizeBytes: 1024,
  expiresAt: () => new Date(Date.now() + 600_000).toISOString(),
};

let ca: PrivateCa;
beforeAll(async () => {
  ca = await createPrivateCa(await scratch('ca'));
});

const { later, add: cleanup } = stopAfterEach();

/** The export API behind nginx over TLS (`certificate` served), and a connection counter in front. */
async function apiOverTls(certificate: string, bundleUrl = 'http://127.0.0.1:9/never') {
  const api = later(
    await startExportApi(async () => ({
      bundleUrl,
      sizeBytes: LINK.sizeBytes,
      expiresAt: LINK.expiresAt(),
    })),
  );
  const nginx = later(
    await startNginx(
      1,
      ([port]) => `server {
        listen 127.0.0.1:${port} ssl;
        ssl_certificate ${certificate};
        ssl_certificate_key ${ca.keyFile};
        location = /bundle { return 302 http://127.0.0.1:9/plain; }
        location / { proxy_pass ${api.baseUrl}; }
      }`,
    ),
  );
  const relay = later(await startCountingRelay(nginx.ports[0] as number));
  return { api, nginx, relay, url: `https://127.0.0.1:${relay.port}` };
}

describe.skipIf(!NGINX.available)('TLS with a private CA (nginx)', () => {
  it.each([
    ['the server certificate alone', () => ca.certFile, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'],
    ['the full chain', () => ca.chainFile, 'SELF_SIGNED_CERT_IN_CHAIN'],
  ])(
    'an API serving %s fails in one attempt, naming NODE_EXTRA_CA_CERTS',
    async (_, cert, code) => {
      const { api, relay, url } = await apiOverTls(cert());
      const run = await runAction({ ...EXPORT, 'base-url': url });
      expect(run.code).toBe(1);
      expect(run.error).toContain(`(${code})`);
      expect(run.error).toMatch(/set NODE_EXTRA_CA_CERTS to the path of a PEM file/);
      expect(relay.connections()).toBe(1);
      expect(api.requests).toEqual([]);
    },
  );

  it('a bundle link on a host with a private CA fails in one attempt, naming NODE_EXTRA_CA_CERTS', async () => {
    const { relay, url } = await apiOverTls(ca.certFile);
    const api = later(
      await startExportApi(async () => ({
        bundleUrl: `${url}/exports/site.tar.gz?X-Amz-Signature=00`,
        sizeBytes: LINK.sizeBytes,
        expiresAt: LINK.expiresAt(),
      })),
    );
    const run = await runAction({
      ...EXPORT,
      download: 'true',
      path: 'site',
      'base-url': api.baseUrl,
    });
    expect(run.code).toBe(1);
    expect(run.error).toMatch(
      /^Could not download the bundle from https:\/\/127\.0\.0\.1:\d+\/exports\/site\.tar\.gz\?…: the TLS certificate of 127\.0\.0\.1:\d+ is not signed by a CA this runner trusts \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)\. .*NODE_EXTRA_CA_CERTS/,
    );
    expect(relay.connections()).toBe(1);
  });

  it('given the CA with NODE_EXTRA_CA_CERTS, the same run succeeds (a process of its own)', async () => {
    const { api, url } = await apiOverTls(ca.certFile);
    const run = await spawnAction(
      { ...EXPORT, 'base-url': url },
      { NODE_EXTRA_CA_CERTS: ca.caFile },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs['job-id']).toBe('se_peer0000000001');
    expect(api.requests).toEqual([
      'POST /v1/static-export/jobs',
      'POST /v1/static-export/jobs/se_peer0000000001/bundle',
    ]);
  });

  it('a bundle link that redirects from https to http is refused', async () => {
    const { url } = await apiOverTls(ca.certFile);
    const api = later(
      await startExportApi(async () => ({
        bundleUrl: `${url}/bundle`,
        sizeBytes: LINK.sizeBytes,
        expiresAt: LINK.expiresAt(),
      })),
    );
    // The runner trusts the CA here, as NODE_EXTRA_CA_CERTS would make it.
    const dispatcher = new ProxyRoutes(
      {},
      { connect: { ca: await fs.readFile(ca.caFile, 'utf8') } },
    );
    cleanup(() => dispatcher.close());
    const run = await runAction(
      { ...EXPORT, download: 'true', path: 'site', 'base-url': api.baseUrl },
      { dispatcher },
    );
    expect(run.code).toBe(1);
    expect(run.error).toBe(
      'The bundle link redirected from https to http://127.0.0.1:9/plain: refusing to leave https.',
    );
  });
});

import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Agent, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { downloadBundle, type DownloadOptions } from '../../src/deliver/download.js';
import { failingLookups } from '../support/failing-lookup.js';

/** The download against a storage on loopback that misbehaves the same way every time. */

const ARCHIVE = Buffer.from(
  Array.from({ length: 20_000 }, (_, i) => `line ${i} ${(i * 7919) % 10007}\n`).join(''),
);
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function storage(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void,
  query = 'sig=1',
) {
  let requests = 0;
  const server = http.createServer((req, res) => handler(req, res, ++requests));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dispatcher = new Agent();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'download-faults-'));
  cleanups.push(
    () => fs.rm(dir, { recursive: true, force: true }),
    () => dispatcher.close(),
    () => new Promise((resolve) => server.close(resolve)),
    async () => server.closeAllConnections(),
  );
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bundle.tar.gz?${query}`;
  return {
    url,
    requests: () => requests,
    /** The download of the archive from this storage, the API announcing its size. */
    download: (options: Partial<DownloadOptions> = {}) =>
      downloadBundle({
        source: { url, sizeBytes: ARCHIVE.length },
        refresh: async () => ({ url, sizeBytes: ARCHIVE.length }),
        file: path.join(dir, 'bundle'),
        dispatcher,
        clock: systemClock,
        random: () => 0,
        idleTimeoutMs: 2000,
        ...options,
      }),
  };
}

/** Fails instead of hanging: a download that never settles is the bug under test. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('the download against a storage that misbehaves', () => {
  it('a transfer compressed on the way and cut in the middle is retried, not waited on forever', async () => {
    const gzipped = zlib.gzipSync(ARCHIVE);
    const store = await storage((_req, res, n) => {
      res.writeHead(200, { 'content-length': gzipped.length, 'content-encoding': 'gzip' });
      if (n > 1) return res.end(gzipped);
      res.write(gzipped.subarray(0, gzipped.length >> 1));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const result = await within(5000, store.download());
    expect(result.sha256).toBe(createHash('sha256').update(ARCHIVE).digest('hex'));
    expect(store.requests()).toBe(2);
  });

  it('a compressed transfer that stalls ends at the idle timeout and is retried', async () => {
    const gzipped = zlib.gzipSync(ARCHIVE);
    const store = await storage((_req, res, n) => {
      res.writeHead(200, { 'content-length': gzipped.length, 'content-encoding': 'gzip' });
      if (n > 1) res.end(gzipped);
      else res.write(gzipped.subarray(0, 1000));
    });
    const result = await within(5000, store.download({ idleTimeoutMs: 500 }));
    expect(result.size).toBe(ARCHIVE.length);
  });
});

describe('a transfer deflated on the way', () => {
  // Content-Encoding: deflate names zlib's format, but some servers send raw deflate.
  it.each([
    ['raw deflate', zlib.deflateRawSync(ARCHIVE)],
    ['zlib', zlib.deflateSync(ARCHIVE)],
  ])('is inflated as %s, its first byte arriving alone', async (_kind, deflated) => {
    const store = await storage((_req, res) => {
      res.writeHead(200, { 'content-length': deflated.length, 'content-encoding': 'deflate' });
      res.write(deflated.subarray(0, 1));
      setTimeout(() => res.end(deflated.subarray(1)), 20);
    });
    const result = await within(5000, store.download());
    expect(result.sha256).toBe(createHash('sha256').update(ARCHIVE).digest('hex'));
    expect(store.requests()).toBe(1);
  });

  it('as raw deflate and cut in the middle, is retried, not waited on forever', async () => {
    const deflated = zlib.deflateRawSync(ARCHIVE);
    const store = await storage((_req, res, n) => {
      res.writeHead(200, { 'content-length': deflated.length, 'content-encoding': 'deflate' });
      if (n > 1) return res.end(deflated);
      res.write(deflated.subarray(0, deflated.length >> 1));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const result = await within(5000, store.download());
    expect(result.size).toBe(ARCHIVE.length);
    expect(store.requests()).toBe(2);
  });
});

describe('bytes fetched again are not progress', () => {
  it('a storage that ignores Range and cuts at the same byte every time ends at the outage budget', async () => {
    const store = await storage((_req, res) => {
      res.writeHead(200, { 'content-length': ARCHIVE.length, etag: '"same"' });
      res.write(ARCHIVE.subarray(0, 5000));
      setTimeout(() => res.socket?.destroy(), 5);
    });
    const download = store.download({
      random: () => 0.5,
      budget: { outageMs: 1000, baseDelayMs: 20, maxDelayMs: 200 },
    });
    await expect(within(8000, download)).rejects.toThrow(
      /The bundle download failed \d+ times in a row over .*, at 4\.9 KB of/,
    );
    expect(store.requests()).toBeLessThan(20);
  });
});

describe('a storage that names no version', () => {
  it('without an ETag or Range, a cut transfer is taken again from its start, not called a change', async () => {
    const events: string[] = [];
    const store = await storage((_req, res, n) => {
      // Chunked, no ETag, no Content-Length: nothing says which version this is.
      res.writeHead(200, {});
      if (n > 1) return res.end(ARCHIVE);
      res.write(ARCHIVE.subarray(0, 5000));
      setTimeout(() => res.socket?.destroy(), 5);
    });
    let refreshes = 0;
    const result = await within(
      5000,
      store.download({
        source: { url: store.url },
        refresh: async () => {
          refreshes += 1;
          return { url: store.url };
        },
        onEvent: (event) => events.push(event),
      }),
    );
    expect(result.sha256).toBe(createHash('sha256').update(ARCHIVE).digest('hex'));
    expect(refreshes).toBe(0);
    expect(events.join('\n')).not.toMatch(/changed/);
    expect(events.join('\n')).toMatch(
      /The storage gave the bundle no ETag, .*: starting the download over/,
    );
  });
});

describe('links that expire, redirects and waits', () => {
  const EXPIRED =
    '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';
  const etag = `"${createHash('md5').update(ARCHIVE).digest('hex')}"`;

  /** ARCHIVE from the byte a Range asks for, the connection cut after `cut` bytes. */
  function serve(req: http.IncomingMessage, res: http.ServerResponse, cut: number) {
    const start = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0);
    if (start > 0) {
      res.writeHead(206, {
        etag,
        'content-length': ARCHIVE.length - start,
        'content-range': `bytes ${start}-${ARCHIVE.length - 1}/${ARCHIVE.length}`,
      });
    } else res.writeHead(200, { etag, 'content-length': ARCHIVE.length });
    const body = ARCHIVE.subarray(start);
    if (cut >= body.length) return res.end(body);
    res.write(body.subarray(0, cut));
    setTimeout(() => res.socket?.destroy(), 10);
  }

  it('exchanges as many expired links as a long download needs, while each serves its part', async () => {
    // Each link serves 40 KB, the connection breaks, and the link has expired by the resume:
    // a slow download of a large archive on links that live minutes.
    let newest = 1;
    const store = await storage((req, res) => {
      const sig = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('sig'));
      if (sig < newest)
        return res.writeHead(403, { 'content-type': 'application/xml' }).end(EXPIRED);
      newest = sig + 1;
      serve(req, res, 40_000);
    });
    let next = 1;
    const base = store.url.replace(/\?.*/, '');
    const result = await within(
      10_000,
      store.download({
        refresh: async () => ({ url: `${base}?sig=${++next}`, sizeBytes: ARCHIVE.length }),
      }),
    );
    expect(result.sha256).toBe(createHash('sha256').update(ARCHIVE).digest('hex'));
    expect(next).toBeGreaterThan(4);
    // Each counts in what the run reports.
    expect(result.refreshes).toBe(next - 1);
    // Links that serve nothing are still given up on, as a clock the storage disagrees with.
    const refusing = await storage((_req, res) =>
      res.writeHead(403, { 'content-type': 'application/xml' }).end(EXPIRED),
    );
    await expect(refusing.download()).rejects.toThrow(
      /refused 4 bundle links in a row as expired, none of which served a byte more/,
    );
  });

  it('takes the new version a fresh link serves whole, without exchanging it again', async () => {
    // The link expires mid-download; the fresh one names a new version, which the storage
    // sends whole (200) for the If-Range of the old one, as S3 does.
    const v2 = Buffer.concat([ARCHIVE, Buffer.from('v2\n')]);
    const etag2 = `"${createHash('md5').update(v2).digest('hex')}"`;
    const store = await storage((req, res) => {
      const sig = new URL(req.url ?? '/', 'http://x').searchParams.get('sig');
      if (sig === '1') {
        if (req.headers.range === undefined) return serve(req, res, 40_000);
        return res.writeHead(403, { 'content-type': 'application/xml' }).end(EXPIRED);
      }
      res.writeHead(200, { etag: etag2, 'content-length': v2.length }).end(v2);
    });
    const base = store.url.replace(/\?.*/, '');
    const events: string[] = [];
    const result = await within(
      5000,
      store.download({
        refresh: async () => ({ url: `${base}?sig=2`, sizeBytes: v2.length }),
        onEvent: (event) => events.push(event),
      }),
    );
    expect(result.sha256).toBe(createHash('sha256').update(v2).digest('hex'));
    expect(result.refreshes).toBe(1);
    expect(store.requests()).toBe(3);
    expect(events.at(-1)).toMatch(/^The fresh link serves another version of the bundle: starting/);
  });

  it('fails at once, naming it, on a redirect to an address that is not a URL', async () => {
    const events: string[] = [];
    const store = await storage((_req, res) =>
      res.writeHead(302, { location: 'http://[::1' }).end(),
    );
    await expect(
      within(5000, store.download({ onEvent: (event) => events.push(event) })),
    ).rejects.toThrow(/redirected \(HTTP 302 from .*\) to an address that is not a URL/);
    // Not a connection that failed: no retry.
    expect(events).toEqual([]);
    expect(store.requests()).toBe(1);
  });

  it('says what wait the storage asked for when it is longer than the outage budget', async () => {
    const store = await storage((_req, res) =>
      res
        .writeHead(503, { 'retry-after': '400' })
        .end('<Error><Code>ServiceUnavailable</Code></Error>'),
    );
    await expect(within(5000, store.download())).rejects.toThrow(
      /^The bundle download failed once over .*\(the storage asked to wait 400s more\), at 0 B \(The storage answered HTTP 503/,
    );
  });
});

/** An Azure SAS, whose signature ends in an escaped `=`, and an S3 presigned query. */
const SAS_SIG = 'Zk9vQmFyQmF6cXV4UXV1eFNlY3JldFNpZ25hdHVyZQ%3D';
const SAS = `sv=2022-11-02&se=2026-12-01T00%3A00%3A00Z&sr=b&sp=r&sig=${SAS_SIG}`;
const S3_SIG = 'a3f1c0ffee5eed0ddba11c0defacedbeadfeedfacecafebabe5ca1ab1e7e1e7e';
const S3 = `X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20260101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=${S3_SIG}`;

/** The message of the download's failure. */
async function failure(download: Promise<unknown>): Promise<string> {
  const err = await within(5000, download).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return (err as Error).message;
}

/** Neither the signature, in any form, nor 24 characters of it in a row. */
function expectNoSignature(text: string, signature: string): void {
  const decoded = decodeURIComponent(signature);
  for (const form of [signature, decoded, signature.toLowerCase()]) {
    for (let start = 0; start + 24 <= form.length; start += 1) {
      expect(text).not.toContain(form.slice(start, start + 24));
    }
  }
}

describe('a storage whose error echoes the signed link', () => {
  it('a text 404 that quotes the request target names the path, not the query', async () => {
    const store = await storage((req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`Not Found: ${req.url}`);
    }, SAS);
    const message = await failure(store.download());
    expectNoSignature(message, SAS_SIG);
    expect(message).toBe(
      'The storage refused the bundle link (HTTP 404: Not Found: /bundle.tar.gz?…).',
    );
  });

  it('a JSON 400 that quotes it', async () => {
    const store = await storage((req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `Invalid request ${req.url}` }));
    }, S3);
    const message = await failure(store.download());
    expectNoSignature(message, S3_SIG);
    expect(message).toBe(
      'The storage refused the bundle link (HTTP 400: Invalid request /bundle.tar.gz?…).',
    );
  });

  it('an S3 XML error whose message is cut, by the summary, in the middle of X-Amz-Signature', async () => {
    const store = await storage((req, res) => {
      // XML escapes the query's `&`; the words before it put the summary's 300-character
      // cut 30 characters into the signature.
      const target = (req.url ?? '').replace(/&/g, '&amp;');
      const words = 'AccessDenied: Access Denied for ';
      const pad = 'x'.repeat(270 - words.length - target.indexOf(S3_SIG));
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied for ${pad}${target}</Message><RequestId>4442587FB7D0A2F9</RequestId></Error>`,
      );
    }, S3);
    const message = await failure(store.download());
    expectNoSignature(message, S3_SIG);
    expect(message).not.toContain(S3_SIG.slice(0, 8));
    expect(message).toMatch(/AccessDenied: Access Denied for x+\/bundle\.tar\.gz\?…/);
  });

  it('an XML error that quotes a copy of the signature the storage cut itself', async () => {
    const store = await storage((req, res) => {
      const target = (req.url ?? '').replace(/&/g, '&amp;');
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end(
        `<Error><Code>AccessDenied</Code><Message>Access Denied for ${target.slice(0, target.indexOf(S3_SIG) + 30)} (truncated)</Message></Error>`,
      );
    }, S3);
    const message = await failure(store.download());
    expectNoSignature(message, S3_SIG);
    expect(message).not.toContain(S3_SIG.slice(0, 12));
    expect(message).toContain('X-Amz-Signature=… (truncated)');
  });

  it.each([
    ['decoded', (query: string) => decodeURIComponent(query)],
    [
      'escaped again in lower case',
      (query: string) => query.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    ],
  ])('a 404 that quotes the query %s', async (_how, echo) => {
    const store = await storage((req, res) => {
      const [pathname, query] = (req.url ?? '').split('?');
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`The resource ${pathname}?${echo(query ?? '')} does not exist.`);
    }, SAS);
    const message = await failure(store.download());
    expectNoSignature(message, SAS_SIG);
    expect(message).toContain('/bundle.tar.gz?… does not exist');
  });

  it('a network error that quotes the URL, after a redirect, names neither signed query', async () => {
    const store = await storage((_req, res) => {
      res.writeHead(302, { location: `/elsewhere.tar.gz?${S3}` });
      res.end();
    }, SAS);
    /** Fails every request to the redirect's address with a message that quotes it whole. */
    class Quoting extends Agent {
      override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) {
        if (!String(options.path).startsWith('/elsewhere')) return super.dispatch(options, handler);
        throw Object.assign(
          new Error(`socket hang up: GET ${String(options.origin)}${options.path}`),
          {
            code: 'UND_ERR_SOCKET',
          },
        );
      }
    }
    const dispatcher = new Quoting();
    cleanups.push(() => dispatcher.close());
    const message = await failure(
      store.download({ dispatcher, budget: { outageMs: 100, baseDelayMs: 10, maxDelayMs: 20 } }),
    );
    expectNoSignature(message, SAS_SIG);
    expectNoSignature(message, S3_SIG);
    expect(message).toContain('/elsewhere.tar.gz?…');
  });
});

describe('a resume needs a strong ETag', () => {
  // The same length, other bytes: only a validator tells the two versions apart.
  const V2 = Buffer.from(ARCHIVE.toString('latin1').replaceAll('line', 'LINE'), 'latin1');
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  for (const [name, etag, says] of [
    ['no ETag', undefined, /gave the bundle no ETag, so nothing tells that a resumed transfer/],
    ['a weak ETag', 'W/"docs"', /only a weak ETag \(W\/…\), which does not vouch for the same/],
  ] as const) {
    it(`with ${name}, a cut transfer starts over instead of joining two versions`, async () => {
      const ranges: string[] = [];
      const events: string[] = [];
      // Version 1 is cut after 5000 bytes; version 2 is served next, and every Range is
      // honoured whatever If-Range says, as a storage that compares ETags weakly does.
      const store = await storage((req, res, n) => {
        const body = n === 1 ? ARCHIVE : V2;
        const headers = etag === undefined ? {} : { etag };
        const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
        if (range) {
          ranges.push(req.headers.range as string);
          const start = Number(range[1]);
          res.writeHead(206, {
            ...headers,
            'content-length': body.length - start,
            'content-range': `bytes ${start}-${body.length - 1}/${body.length}`,
          });
          return res.end(body.subarray(start));
        }
        res.writeHead(200, { ...headers, 'content-length': body.length });
        if (n > 1) return res.end(body);
        res.write(body.subarray(0, 5000));
        setTimeout(() => res.socket?.destroy(), 5);
      });
      const result = await within(5000, store.download({ onEvent: (e) => events.push(e) }));
      expect(result.sha256).toBe(sha256(V2));
      expect(ranges).toEqual([]);
      expect(result.restarts).toBe(1);
      expect(events.join('\n')).toMatch(says);
      expect(events.join('\n')).toMatch(/starting the download over from the first byte/);
      expect(events.join('\n')).not.toMatch(/resuming/);
    });
  }
});

describe("the storage's host name does not resolve", () => {
  /**
   * A dispatcher whose name lookups fail with `codes`, one per lookup, then find the
   * storage on loopback: no query leaves the machine.
   */
  function resolving(codes: string[]) {
    const { dispatcher, lookups } = failingLookups(codes);
    cleanups.push(() => dispatcher.close());
    return { dispatcher, lookups };
  }
  const serving = () =>
    storage((_req, res) => {
      res.writeHead(200, { 'content-length': ARCHIVE.length, etag: '"v"' }).end(ARCHIVE);
    });
  const named = (url: string) => url.replace('127.0.0.1', 'storage.example.invalid');

  it('a temporary failure (EAI_AGAIN) is tried again, each line naming the host', async () => {
    const store = await serving();
    const { dispatcher, lookups } = resolving(['EAI_AGAIN', 'EAI_AGAIN']);
    const events: string[] = [];
    const url = named(store.url);
    const result = await within(
      5000,
      store.download({
        source: { url, sizeBytes: ARCHIVE.length },
        dispatcher,
        budget: { outageMs: 5000, baseDelayMs: 10, maxDelayMs: 20 },
        onEvent: (event) => events.push(event),
      }),
    );
    expect(result.size).toBe(ARCHIVE.length);
    expect(lookups).toEqual(Array(3).fill('storage.example.invalid'));
    expect(events).toHaveLength(2);
    for (const event of events) {
      expect(event).toMatch(
        /^The storage could not be found \(the host name storage\.example\.invalid did not resolve: the runner's DNS failed for now \(EAI_AGAIN\)\) after 0 B: retrying in /,
      );
    }
  });

  it('a name that does not exist (ENOTFOUND) fails at once, naming the host', async () => {
    const store = await serving();
    const { dispatcher, lookups } = resolving(['ENOTFOUND']);
    const url = named(store.url);
    await expect(
      within(5000, store.download({ source: { url, sizeBytes: ARCHIVE.length }, dispatcher })),
    ).rejects.toThrow(
      /^Could not download the bundle from http:\/\/storage\.example\.invalid:\d+\/bundle\.tar\.gz\?…: the host name storage\.example\.invalid does not resolve from this runner \(ENOTFOUND\)\. Check the host name/,
    );
    expect(lookups).toHaveLength(1);
    expect(store.requests()).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, completedBundle, download, startExport, startTestEmulator } from './helpers.js';
import type { BundleJson, TestEmulator } from './helpers.js';

let emulator: TestEmulator;
let bundle: BundleJson;
let full: Buffer;
let etag: string;

beforeAll(async () => {
  emulator = await startTestEmulator({ linkLifetimeSec: 900 });
  bundle = await completedBundle(emulator);
  const response = await download(bundle.bundleUrl);
  full = response.body;
  etag = response.headers.get('etag') ?? '';
});
afterAll(() => emulator.stop());

const s3Code = (xml: string): string | undefined => /<Code>([^<]+)<\/Code>/.exec(xml)?.[1];

const withParam = (url: string, name: string, value: string): string => {
  const parsed = new URL(url);
  parsed.searchParams.set(name, value);
  return parsed.toString();
};

describe('presigned object store', () => {
  it('serves the archive with S3 headers', async () => {
    const response = await download(bundle.bundleUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    expect(Number(response.headers.get('content-length'))).toBe(bundle.sizeBytes);
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(response.body.length).toBe(bundle.sizeBytes);
    expect(response.body.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(response.body.equals(full)).toBe(true);
  });

  it('uses a real SigV4 query signature with the emulator date', () => {
    const url = new URL(bundle.bundleUrl);
    expect(url.origin).toBe(emulator.storeUrl);
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(
      /^AKIA\w+\/\d{8}\/us-east-1\/s3\/aws4_request$/,
    );
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    const amzDate = url.searchParams.get('X-Amz-Date') ?? '';
    expect(amzDate).toMatch(/^\d{8}T\d{6}Z$/);
    const iso = amzDate.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z');
    expect(Date.parse(bundle.expiresAt) - Date.parse(iso)).toBe(900_000);
  });

  it('refuses HEAD on a link presigned for GET, as S3 does: the method is signed', async () => {
    const response = await download(bundle.bundleUrl, {}, 'HEAD');
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toBe('application/xml');
    expect(response.headers.get('etag')).toBeNull();
    expect(response.body.length).toBe(0);
    expect(emulator.requests.at(-1)).toMatchObject({ method: 'HEAD', status: 403 });
    // The same link still serves a GET: only the method differs from what was signed.
    expect((await download(bundle.bundleUrl)).status).toBe(200);
  });

  it.each([
    ['bytes=100-', 100, -1],
    ['bytes=10-19', 10, 19],
    ['bytes=-50', -50, -1],
  ])('answers %s with 206 and Content-Range', async (range, first, last) => {
    const response = await download(bundle.bundleUrl, { range });
    const start = first < 0 ? full.length + first : first;
    const end = last < 0 ? full.length + last : last;
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/${full.length}`);
    expect(response.body.equals(full.subarray(start, end + 1))).toBe(true);
  });

  it('answers an unsatisfiable range with 416', async () => {
    const response = await download(bundle.bundleUrl, { range: `bytes=${full.length}-` });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe(`bytes */${full.length}`);
    expect(s3Code(response.body.toString())).toBe('InvalidRange');
  });

  it('honours If-Range only when the ETag matches', async () => {
    const matching = await download(bundle.bundleUrl, { range: 'bytes=5-', 'if-range': etag });
    expect(matching.status).toBe(206);
    const stale = await download(bundle.bundleUrl, { range: 'bytes=5-', 'if-range': '"0000"' });
    expect(stale.status).toBe(200);
    expect(stale.body.equals(full)).toBe(true);
  });

  it('supports If-None-Match and If-Match', async () => {
    expect((await download(bundle.bundleUrl, { 'if-none-match': etag })).status).toBe(304);
    const failed = await download(bundle.bundleUrl, { 'if-match': '"other"' });
    expect(failed.status).toBe(412);
    expect(s3Code(failed.body.toString())).toBe('PreconditionFailed');
  });

  it('compares ETags as RFC 9110 says: If-None-Match weakly and with *, the others strongly', async () => {
    const status = async (headers: Record<string, string>) =>
      (await download(bundle.bundleUrl, headers)).status;
    for (const ifNoneMatch of ['*', `W/${etag}`, `"other", W/${etag}`]) {
      const response = await download(bundle.bundleUrl, { 'if-none-match': ifNoneMatch });
      expect([ifNoneMatch, response.status, response.body.length]).toEqual([ifNoneMatch, 304, 0]);
      expect(response.headers.get('etag')).toBe(etag);
    }
    expect(await status({ 'if-none-match': 'W/"other"' })).toBe(200);
    expect(await status({ 'if-match': '*' })).toBe(200);
    expect(await status({ 'if-match': `"other", ${etag}` })).toBe(200);
    expect(await status({ 'if-match': `W/${etag}` })).toBe(412);
    // If-Range needs a strong ETag: a weak one sends the whole archive, not the range.
    expect(await status({ range: 'bytes=5-', 'if-range': `W/${etag}` })).toBe(200);
  });

  it.each([
    ['the signature', 'X-Amz-Signature', '0'.repeat(64)],
    ['the expiry', 'X-Amz-Expires', '604800'],
    ['the date', 'X-Amz-Date', '20200101T000000Z'],
  ])('answers 403 SignatureDoesNotMatch when %s is tampered with', async (_what, name, value) => {
    const tampered = withParam(bundle.bundleUrl, name, value);
    const response = await download(tampered);
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toBe('application/xml');
    const xml = response.body.toString();
    expect(xml).toMatch(/^<\?xml/);
    expect(s3Code(xml)).toBe('SignatureDoesNotMatch');
  });

  it('answers 403 for a tampered path or an extra query parameter', async () => {
    const otherPath = bundle.bundleUrl.replace('docs.example.com.tar.gz', 'other.tar.gz');
    expect(s3Code((await download(otherPath)).body.toString())).toBe('SignatureDoesNotMatch');
    const extra = withParam(bundle.bundleUrl, 'cache', 'bust');
    expect(s3Code((await download(extra)).body.toString())).toBe('SignatureDoesNotMatch');
  });

  it('answers 403 AccessDenied without any signature', async () => {
    const bare = bundle.bundleUrl.split('?')[0] as string;
    const response = await download(bare);
    expect(response.status).toBe(403);
    expect(s3Code(response.body.toString())).toBe('AccessDenied');
  });

  it('answers 400 InvalidArgument when an Authorization header is sent too', async () => {
    const response = await download(bundle.bundleUrl, {
      authorization: `Bearer ${emulator.keys.write}`,
    });
    expect(response.status).toBe(400);
    const xml = response.body.toString();
    expect(s3Code(xml)).toBe('InvalidArgument');
    expect(xml).toContain('Only one auth mechanism allowed');
    expect(xml).not.toContain(emulator.keys.write);
  });

  it('answers 405 for writes', async () => {
    const response = await fetch(bundle.bundleUrl, { method: 'PUT', body: 'x' });
    expect(response.status).toBe(405);
    expect(s3Code(await response.text())).toBe('MethodNotAllowed');
  });

  it('expires links on the emulator clock with 403 "Request has expired"', async () => {
    const own = await startTestEmulator({ linkLifetimeSec: 60 });
    try {
      const link = await completedBundle(own);
      expect((await download(link.bundleUrl)).status).toBe(200);
      own.clock.advance(61_000);
      const response = await download(link.bundleUrl);
      expect(response.status).toBe(403);
      const xml = response.body.toString();
      expect(s3Code(xml)).toBe('AccessDenied');
      expect(xml).toContain('<Message>Request has expired</Message>');
      // The job and its files stay reusable: a new bundle call gives a working link.
      const again = await call(own, 'POST', `/v1/static-export/jobs/${link.jobId}/bundle`);
      expect((await download((again.json as BundleJson).bundleUrl)).status).toBe(200);
    } finally {
      await own.stop();
    }
  });

  it('runs link lifetimes faster with timeScale', async () => {
    const fast = await startTestEmulator({ linkLifetimeSec: 2, timeScale: 50, jobDurationMs: 100 });
    try {
      const job = await startExport(fast);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const link = (await call(fast, 'POST', `/v1/static-export/jobs/${job.jobId}/bundle`))
        .json as BundleJson;
      expect((await download(link.bundleUrl)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect((await download(link.bundleUrl)).status).toBe(403);
    } finally {
      await fast.stop();
    }
  });

  it('refuses a link lifetime no presigned link can carry, which would make every link fail', async () => {
    // SigV4 takes whole seconds from 1 to 604800 (7 days) in X-Amz-Expires.
    for (const linkLifetimeSec of [90.5, 604_801]) {
      await expect(startTestEmulator({ linkLifetimeSec })).rejects.toThrow(/linkLifetimeSec/);
    }
    const longest = await startTestEmulator({ linkLifetimeSec: 604_800 });
    try {
      const link = await completedBundle(longest);
      expect((await download(link.bundleUrl)).status).toBe(200);
    } finally {
      await longest.stop();
    }
  });

  it('refuses a link moved to the object of another job', async () => {
    const other = await completedBundle(emulator, 'other.example.com');
    const moved = other.bundleUrl.replace(other.jobId, bundle.jobId);
    const response = await download(moved);
    expect(response.status).toBe(403);
    expect(s3Code(response.body.toString())).toBe('SignatureDoesNotMatch');
  });
});

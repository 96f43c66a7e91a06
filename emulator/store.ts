import { randomBytes } from 'node:crypto';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { iso } from './clock.js';
import type { Exchange, ServerContext } from './exchange.js';
import {
  apiFaultAnswer,
  createExchangeServer,
  echoedAuthorization,
  faultStatus,
  safeDecode,
  sendText,
  writeHead,
} from './exchange.js';
import type { ExportJobRecord, ExportJobs } from './export-jobs.js';
import type { JobArchives } from './job-archives.js';
import type { QuerySigner } from './sigv4.js';
import type { ArchiveObject, FaultRule } from './types.js';

export const BUCKET = 'static-exports';

/** Object key of a job's archive: exports/<jobId>/<domain>.<ext>. */
export const objectPath = (job: ExportJobRecord): string =>
  `/${BUCKET}/exports/${job.jobId}/${job.domain}.${job.format}`;

export interface StoreDeps {
  jobs: ExportJobs;
  archives: JobArchives;
  signer: QuerySigner;
}

/** The presigned object store: a second server, like a separate S3 host. */
export function createStoreServer(ctx: ServerContext, deps: StoreDeps) {
  return createExchangeServer(ctx, {
    server: 'store',
    routeOf: (method) => (method === 'GET' || method === 'HEAD' ? 'store.get' : 'unknown'),
    answerFault: answerStoreFault,
    handle: (ex) => serveStoreRequest(ctx, deps, ex),
  });
}

async function serveStoreRequest(ctx: ServerContext, deps: StoreDeps, ex: Exchange): Promise<void> {
  const { req, url, fault } = ex;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendS3Error(
      ex,
      405,
      'MethodNotAllowed',
      'The specified method is not allowed against this resource.',
      {
        Method: req.method ?? '',
        ResourceType: 'OBJECT',
      },
    );
    return;
  }
  const queryAuth =
    url.searchParams.has('X-Amz-Algorithm') || url.searchParams.has('X-Amz-Signature');
  if (queryAuth && req.headers.authorization !== undefined) {
    // S3 echoes the header as ArgumentValue; the emulator never puts a key in a body unasked.
    sendS3Error(
      ex,
      400,
      'InvalidArgument',
      'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
      { ArgumentName: 'Authorization' },
    );
    return;
  }
  if (!queryAuth) {
    sendS3Error(ex, 403, 'AccessDenied', 'Access Denied');
    return;
  }
  const link = deps.signer.verify(req.method ?? 'GET', url.pathname, url.searchParams, req.headers);
  if (!link.ok) {
    sendS3Error(ex, link.status, link.code, link.message, link.details);
    return;
  }
  const now = ctx.clock.now();
  if (now > link.expiresAt || fault?.expireLink === true) {
    sendS3Error(ex, 403, 'AccessDenied', 'Request has expired', {
      'X-Amz-Expires': String(link.expiresSec),
      Expires: iso(link.expiresAt),
      ServerTime: iso(now),
    });
    return;
  }
  const job = jobOfPath(deps.jobs, url.pathname, now);
  if (job === undefined) {
    const bucketKnown = url.pathname.startsWith(`/${BUCKET}/`);
    if (bucketKnown)
      sendS3Error(ex, 404, 'NoSuchKey', 'The specified key does not exist.', { Key: url.pathname });
    else sendS3Error(ex, 404, 'NoSuchBucket', 'The specified bucket does not exist');
    return;
  }
  if (fault?.changeArchive === true) job.revision += 1;
  serveObject(ex, await deps.archives.get(job));
}

/** The completed job whose archive lives at `path`, if any. */
function jobOfPath(jobs: ExportJobs, path: string, now: number): ExportJobRecord | undefined {
  const jobId = /^\/[^/]+\/exports\/([^/]+)\/[^/]+$/.exec(path)?.[1];
  const job = jobId === undefined ? undefined : jobs.get(safeDecode(jobId));
  if (job === undefined || objectPath(job) !== safeDecode(path)) return undefined;
  return jobs.state(job, now).status === 'completed' ? job : undefined;
}

type ByteRange =
  { kind: 'all' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

/** One `bytes=` range, as S3 honours it; anything else (several ranges, bad syntax) means all. */
export function parseRange(header: string | undefined, size: number): ByteRange {
  const m = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (m === null) return { kind: 'all' };
  const [, first = '', last = ''] = m;
  if (first === '' && last === '') return { kind: 'all' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (last !== '' && end < start) return { kind: 'all' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end: Math.min(end, size - 1) };
}

/**
 * If-Range holds when it names the current ETag, compared strongly (a weak one never holds,
 * RFC 9110 13.1.5), or the exact Last-Modified date.
 */
function ifRangeHolds(header: string | undefined, object: ArchiveObject): boolean {
  if (header === undefined) return true;
  const value = header.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === object.etag;
  return value === object.lastModified.toUTCString();
}

/** The entity tags of an If-Match or If-None-Match list, `*` included as it is. */
const listedTags = (header: string): string[] =>
  header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');

/** If-Match compares strongly: `*`, or the stored (strong) ETag itself (RFC 9110 13.1.1). */
const ifMatchHolds = (header: string, object: ArchiveObject): boolean =>
  listedTags(header).some((tag) => tag === '*' || tag === object.etag);

/** If-None-Match compares weakly: `W/"x"` names "x" too, and `*` any stored object (13.1.2). */
const ifNoneMatchFails = (header: string, object: ArchiveObject): boolean =>
  listedTags(header).some(
    (tag) => tag === '*' || tag.replace(/^W\//, '') === object.etag.replace(/^W\//, ''),
  );

function serveObject(ex: Exchange, object: ArchiveObject): void {
  const { req } = ex;
  const headers: OutgoingHttpHeaders = {
    'content-type': object.contentType,
    etag: object.etag,
    'last-modified': object.lastModified.toUTCString(),
    'accept-ranges': 'bytes',
  };
  const ifMatch = req.headers['if-match'];
  if (ifMatch !== undefined && !ifMatchHolds(ifMatch, object)) {
    sendS3Error(
      ex,
      412,
      'PreconditionFailed',
      'At least one of the pre-conditions you specified did not hold',
      {
        Condition: 'If-Match',
      },
    );
    return;
  }
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined && ifNoneMatchFails(ifNoneMatch, object)) {
    writeHead(ex, 304, { etag: object.etag, 'last-modified': headers['last-modified'] });
    ex.res.end();
    return;
  }
  const ifRange = req.headers['if-range'];
  const honoured = ifRangeHolds(Array.isArray(ifRange) ? ifRange[0] : ifRange, object);
  const range = honoured ? parseRange(req.headers.range, object.size) : ({ kind: 'all' } as const);
  if (range.kind === 'unsatisfiable') {
    sendS3Error(
      ex,
      416,
      'InvalidRange',
      'The requested range is not satisfiable',
      {
        RangeRequested: req.headers.range ?? '',
        ActualObjectSize: String(object.size),
      },
      { 'content-range': `bytes */${object.size}` },
    );
    return;
  }
  const [start, end] = range.kind === 'part' ? [range.start, range.end] : [0, object.size - 1];
  if (range.kind === 'part') headers['content-range'] = `bytes ${start}-${end}/${object.size}`;
  const status = range.kind === 'part' ? 206 : 200;
  const length = end - start + 1;
  if (length <= 0) {
    writeHead(ex, status, { ...headers, 'content-length': Math.max(0, length) });
    ex.res.end();
    return;
  }
  sendBody(ex, status, headers, object.open(start, end), length);
}

/** Streams the body, bending it as the request's fault asks (cut, stall, wrong length). */
function sendBody(
  ex: Exchange,
  status: number,
  headers: OutgoingHttpHeaders,
  body: Readable,
  length: number,
): void {
  const { fault } = ex;
  let announced = length;
  if (fault?.lengthMismatch !== undefined) {
    const delta = Math.max(1, Math.min(1024, Math.floor(length / 10)));
    announced = fault.lengthMismatch === 'longer' ? Math.max(0, length - delta) : length + delta;
    headers.connection = 'close';
  }
  writeHead(ex, status, { ...headers, 'content-length': announced });
  const stop = stopPoint(fault);
  pump(ex.res, body, stop?.bytes, fault?.flipByteAt).then(
    (stopped) => {
      if (!stopped) ex.res.end();
      else if (stop?.then === 'cut') ex.res.socket?.end();
      // 'stall': leave the socket open and silent until the client or stop() closes it.
    },
    () => ex.res.destroy(),
  );
}

function stopPoint(fault: Readonly<FaultRule> | undefined) {
  if (fault?.cutAfterBytes !== undefined)
    return { bytes: fault.cutAfterBytes, then: 'cut' as const };
  if (fault?.stallAfterBytes !== undefined)
    return { bytes: fault.stallAfterBytes, then: 'stall' as const };
  return undefined;
}

/**
 * Copies body to res with backpressure; true when it stopped at `limit` bytes. The byte at
 * `flipAt` is changed on the way, as a faulty link or disk would.
 */
async function pump(
  res: ServerResponse,
  body: Readable,
  limit?: number,
  flipAt?: number,
): Promise<boolean> {
  let sent = 0;
  if (limit === 0) {
    res.flushHeaders();
    body.destroy();
    return true;
  }
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (res.destroyed) return false;
      let piece = limit === undefined ? chunk : chunk.subarray(0, limit - sent);
      if (flipAt !== undefined && flipAt >= sent && flipAt < sent + piece.length) {
        piece = Buffer.from(piece);
        piece[flipAt - sent] = (piece[flipAt - sent] as number) ^ 0x01;
      }
      sent += piece.length;
      if (!res.write(piece)) await drained(res);
      if (limit !== undefined && sent >= limit) return true;
    }
  } finally {
    body.destroy();
  }
  return false;
}

const drained = (res: ServerResponse): Promise<void> =>
  new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });

function answerStoreFault(ex: Exchange, rule: Readonly<FaultRule>): void {
  if (rule.body !== undefined) {
    apiFaultAnswer(ex, rule);
    return;
  }
  // S3 never answers 429: a rate limit asked of the store comes as S3 throttles it.
  const status = faultStatus(rule) === 429 ? 503 : faultStatus(rule);
  const [code, message] = S3_FAULTS[status] ?? [
    'InternalError',
    'We encountered an internal error. Please try again.',
  ];
  const details: Record<string, string> =
    rule.echoAuthorization === true ? { Detail: echoedAuthorization(ex) } : {};
  const headers: OutgoingHttpHeaders =
    rule.retryAfter === undefined ? {} : { 'retry-after': rule.retryAfter };
  sendS3Error(ex, status, code, message, details, headers);
}

const S3_FAULTS: Record<number, [string, string]> = {
  401: ['AccessDenied', 'Access Denied'],
  403: ['AccessDenied', 'Access Denied'],
  404: ['NoSuchKey', 'The specified key does not exist.'],
  500: ['InternalError', 'We encountered an internal error. Please try again.'],
  503: ['SlowDown', 'Please reduce your request rate.'],
};

/** An S3-style XML error document. */
function sendS3Error(
  ex: Exchange,
  status: number,
  code: string,
  message: string,
  details: Record<string, string> = {},
  headers: OutgoingHttpHeaders = {},
): void {
  const requestId = randomBytes(8).toString('hex').toUpperCase();
  const fields = Object.entries({ Code: code, Message: message, ...details, RequestId: requestId })
    .map(([name, value]) => `<${name}>${escapeXml(value)}</${name}>`)
    .join('');
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error>${fields}<HostId>${randomBytes(24).toString('base64')}</HostId></Error>`;
  sendText(ex, status, 'application/xml', body, { 'x-amz-request-id': requestId, ...headers });
}

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

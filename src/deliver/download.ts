import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import { pipeline, type Readable } from 'node:stream';
import { type Dispatcher, request } from 'undici';
import { summarizeBody } from '../api/errors.js';
import type { Clock, Random } from '../clock.js';
import { formatBytes, formatDuration } from '../duration.js';
import {
  abortReason,
  ActionError,
  asLocalFileError,
  DownloadError,
  throwIfAborted,
} from '../errors.js';
import { withDiskSpace } from './full-disk.js';
import { writeAll } from './write-all.js';
import {
  answeredByProxy,
  classifyNetworkError,
  contentEncoding,
  decoderFor,
  header,
  hostOf,
  proxyOf,
  proxyRefusal,
  readDecodedText,
  retryAfterMs,
  ServerTime,
} from '../http.js';
import { parseServiceUrl, withoutQuery } from '../net.js';
import { LinkScrubber } from '../redact.js';
import { askedWait, type GiveUp, RATE_LIMITED, type RetryBudget, RetrySchedule } from '../retry.js';
import { collectYoungGeneration } from '../young-generation.js';

/** A presigned link to the archive; it carries its own authorization. */
export interface BundleSource {
  url: string;
  expiresAt?: Date;
  /** What the API says the archive weighs. */
  sizeBytes?: number;
}

/** Receives the archive's bytes in order while they arrive (e.g. an extractor). */
export interface ByteSink {
  write(chunk: Buffer): Promise<void>;
  /** The archive changed on the server: forget every byte written so far. */
  restart(): Promise<void>;
  /**
   * Whether the bytes must also reach the file. A sink that consumes the stream whole
   * (a tar extractor) makes the copy on disk redundant: a resumed download continues
   * the same stream.
   */
  needsFile?(): boolean;
  /**
   * Whether the archive carries no checksum of its own (a plain tar: gzip and zip check
   * their content), so that the storage's ETag must vouch for its bytes. Asked after each
   * chunk; once false, the ETag is not checked.
   */
  needsChecksum?(): boolean;
}

export interface DownloadOptions {
  source: BundleSource;
  /** A fresh link for the same archive, when the current one has expired. */
  refresh: (reason: string) => Promise<BundleSource>;
  /** Where the archive is written (created or truncated). */
  file: string;
  dispatcher: Dispatcher;
  clock: Clock;
  random: Random;
  signal?: AbortSignal;
  /** Longest silence tolerated from the storage, for headers and between chunks. */
  idleTimeoutMs: number;
  /** How long a run of failures without a byte of progress is tried again. */
  budget?: RetryBudget;
  /** Clock time after which no retry is attempted (the run's overall deadline). */
  deadline?: number;
  /** Fresh links requested before giving up on expiring or changing ones. */
  maxRefreshes?: number;
  sink?: ByteSink;
  /**
   * Check the bytes against an S3 ETag that is a plain MD5 (costs a second hash). Not
   * needed when the bytes are extracted: gzip and zip carry their own checksums.
   */
  verifyEtag?: boolean;
  onProgress?: (received: number, total: number | undefined) => void;
  /** Told each address the storage redirects to, before any line names it. */
  onRedirect?: (to: string) => void;
  /** A line worth showing: a resume, a restart, a fresh link. */
  onEvent?: (message: string) => void;
  debug?: (line: string) => void;
}

export interface DownloadResult {
  /** The archive on disk, whole unless the sink consumed the stream (needsFile false). */
  file: string;
  size: number;
  sha256: string;
  /** True when the ETag was a plain MD5 and matched the bytes. */
  etagVerified: boolean;
  /** The link that served the last byte (it may be a refreshed one). */
  source: BundleSource;
  resumes: number;
  restarts: number;
  refreshes: number;
}

const MAX_ERROR_BODY = 64 * 1024;

/** S3 throttles with 503 and the XML error code SlowDown: a rate limit, not an outage. */
const isS3SlowDown = (body: string): boolean => /<Code>\s*SlowDown\s*<\/Code>/.test(body);

/**
 * The young generation is collected each time this much has been downloaded, so dead
 * chunks never hold much more. A collection takes about half a millisecond; measured, a
 * 256 MB tar.gz got 84 collections in all instead of 70 (57 ms instead of 63 ms of them),
 * and the peak of the whole step on a 1 GiB tar.gz of large files went from 155 MB to
 * 129 MB, of a 256 MB zip from 156 MB to 129 MB. Every 1 MB cut those peaks by a few MB
 * more, for 60 ms more of collections.
 */
const COLLECT_EVERY_BYTES = 4 * 1024 * 1024;
const KEPT_CHANGING =
  'The bundle kept changing on the storage while it downloaded, also with fresh links: run again once the export is stable.';
const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A response of the storage, after any redirects, with the URL that gave it. */
interface Opened {
  response: Dispatcher.ResponseData;
  url: URL;
}

/** A request of a redirect chain that got no answer, with the address it went to. */
class HopFailed extends Error {
  constructor(
    readonly url: URL,
    override readonly cause: unknown,
  ) {
    super(`GET ${withoutQuery(url)} failed`, { cause });
  }
}

/**
 * Streams the archive to `file` (never whole in memory), hashing it on the way and
 * feeding `sink`. A cut connection resumes with Range + If-Range on a strong ETag (with
 * a weak one or none, from byte zero); if the archive changed meanwhile, everything
 * starts over from byte zero with a fresh link, so two versions are never spliced. Every
 * link is tried (the storage judges its expiry by its own clock); one it calls expired is
 * exchanged for a fresh one. The received size is always checked against the size the
 * API announced.
 */
export async function downloadBundle(options: DownloadOptions): Promise<DownloadResult> {
  const { clock, signal, sink } = options;
  const maxRefreshes = options.maxRefreshes ?? 3;
  const verify = options.verifyEtag ?? true;
  const storeTime = new ServerTime(clock);
  const schedule = new RetrySchedule({
    clock,
    random: options.random,
    ...(options.budget ? { budget: options.budget } : {}),
    deadline: () => options.deadline,
    ...(signal ? { signal } : {}),
    // Said before the wait, so a person sees why the log pauses.
    onRetry: (event) =>
      options.onEvent?.(
        `${event.reason} after ${position()}: ${event.rateLimit ? 'rate limited, ' : ''}${received > 0 && !decoding && isStrong(etag) ? 'resuming' : 'retrying'} in ${(event.delayMs / 1000).toFixed(1)}s.`,
      ),
  });
  let fd: number;
  try {
    fd = fs.openSync(options.file, 'w', 0o600);
  } catch (err) {
    throw asLocalFileError(err, options.file, 'create the download file') ?? err;
  }
  let source = options.source;
  /**
   * The signed query of every link asked for (fresh ones, redirects' too): whatever the
   * storage says (an error page that echoes the request target, a network error that
   * quotes the URL) reaches a message without it, masked or not.
   */
  const links = new LinkScrubber();
  links.add(source.url);
  const classify = (err: unknown, request: Parameters<typeof classifyNetworkError>[1]) => {
    const failure = classifyNetworkError(err, request);
    return {
      ...failure,
      summary: links.scrub(failure.summary),
      ...(failure.advice !== undefined ? { advice: links.scrub(failure.advice) } : {}),
    };
  };
  let received = 0;
  let total: number | undefined;
  let etag: string | undefined;
  /** The link whose answer gave `etag`. */
  let etagSource = options.source;
  /** The bytes arrive encoded by a middlebox and are decoded here: offsets are not the storage's. */
  let decoding = false;
  let sha256: Hash = createHash('sha256');
  let md5: Hash | undefined = verify ? createHash('md5') : undefined;
  let resumes = 0;
  let restarts = 0;
  let refreshes = 0;
  /**
   * Fresh links refused as expired since bytes last arrived: a long download on links
   * that live minutes exchanges many, each of which served its part.
   */
  let expiredInARow = 0;
  /** Fresh links for another version, or another size than announced: over the download. */
  let changedRefreshes = 0;
  /**
   * The furthest byte reached of this link's archive: bytes fetched again after a start
   * over are no progress, or a storage that cuts at the same byte each time is asked forever.
   */
  let reached = 0;

  const position = () =>
    `${formatBytes(received)}${total !== undefined ? ` of ${formatBytes(total)}` : ''}`;
  const startOver = async (why: string) => {
    options.onEvent?.(`${why}: starting the download over from the first byte.`);
    restarts += 1;
    fs.ftruncateSync(fd, 0);
    received = 0;
    total = undefined;
    etag = undefined;
    decoding = false;
    sha256 = createHash('sha256');
    md5 = verify ? createHash('md5') : undefined;
    await sink?.restart();
  };
  /**
   * A fresh link: for an expired one (`expired`, counted in a row), or for another version
   * or size (counted over the download). Every one counts in the result.
   */
  const refresh = async (why: string, giveUp: string, expired = false) => {
    if ((expired ? expiredInARow : changedRefreshes) >= maxRefreshes) {
      throw new DownloadError(giveUp);
    }
    if (expired) expiredInARow += 1;
    else changedRefreshes += 1;
    refreshes += 1;
    options.onEvent?.(`${why}: requesting a fresh bundle link (the job is reused).`);
    source = await options.refresh(why);
    links.add(source.url);
    // A fresh link may name another version: its bytes are new.
    reached = received;
  };
  const describeStop = (stop: GiveUp) => {
    // A wait asked for past the outage budget or the run's timeout ends the tries at once.
    const asked =
      stop.retryAfterMs !== undefined
        ? ` (the storage asked to wait ${askedWait(stop.retryAfterMs)} more)`
        : '';
    return stop.why === 'deadline'
      ? `, and the run's timeout leaves no time to try again${asked}`
      : ` over ${formatDuration(stop.elapsedMs)}${asked}`;
  };
  const retryLater = async (what: string, waitMs?: number, rateLimited = false) => {
    const stop = await schedule.failed({
      reason: what,
      ...(waitMs !== undefined ? { retryAfterMs: waitMs } : {}),
      ...(rateLimited ? RATE_LIMITED : {}),
    });
    if (stop) {
      throw new DownloadError(
        `The bundle download failed ${stop.attempts === 1 ? 'once' : `${stop.attempts} times in a row`}${describeStop(stop)}, at ${position()} (${what}).`,
      );
    }
  };
  const linkRefused = async (detail: string, headers: Dispatcher.ResponseData['headers']) => {
    const expiredByStore =
      source.expiresAt !== undefined && !storeTime.mayBeBefore(source.expiresAt);
    // S3 tells expiry only in words (AccessDenied, "Request has expired"), or by its Date.
    if (!(/expired/i.test(detail) || expiredByStore)) return false;
    const skew = storeTime.describeSkew('the storage');
    const words = detail || `HTTP 403 at ${header(headers, 'date') ?? 'an unknown time'}`;
    await refresh(
      `The storage says the link has expired (${words})`,
      `The storage refused ${expiredInARow + 1} bundle links in a row as expired, none of which served a byte more (its answer: ${words})${skew ? `; ${skew}` : ''}. A link is valid until its expiresAt by the storage's clock: check that the service that signs the links and the storage agree on the time.`,
      true,
    );
    return true;
  };

  try {
    for (;;) {
      throwIfAborted(signal);
      // A decoded transfer has no byte offsets of the storage's to resume from.
      if (received > 0 && decoding) await startOver('The transfer was compressed on the way');
      // If-Range needs a strong ETag (RFC 9110, 13.1.5): with a weak one or none, a 206 may
      // continue another version of the object, and the two would be joined into one file.
      if (received > 0 && !isStrong(etag)) {
        await startOver(
          etag === undefined
            ? 'The storage gave the bundle no ETag, so nothing tells that a resumed transfer continues the same version'
            : 'The storage gave the bundle only a weak ETag (W/…), which does not vouch for the same bytes, so a resumed transfer could join two versions',
        );
      }
      const resuming = received > 0;
      if (resuming) resumes += 1;
      let opened: Opened;
      try {
        opened = await openFollowingRedirects(
          source.url,
          resuming ? { range: `bytes=${received}-`, 'if-range': etag as string } : {},
          options,
          links,
        );
      } catch (err) {
        if (signal?.aborted) throw abortReason(signal);
        if (err instanceof ActionError) throw err;
        // The storage, or the address it redirected to: the host and proxy of that request.
        const hop = err instanceof HopFailed ? err : undefined;
        const target = hop?.url ?? new URL(source.url);
        const proxy = proxyOf(options.dispatcher, target);
        const failure = classify(hop ? hop.cause : err, {
          host: hostOf(target),
          ...(proxy ? { proxy, plainHttp: target.protocol === 'http:' } : {}),
        });
        const from = hop ? ` (redirected from ${withoutQuery(new URL(source.url))})` : '';
        if (!failure.transient) {
          throw new DownloadError(
            `Could not download the bundle from ${withoutQuery(target)}${from}: ${failure.summary}.${failure.advice ? ` ${failure.advice}` : ''}`,
          );
        }
        await retryLater(
          `${failure.kind === 'dns' ? 'The storage could not be found' : 'The storage did not answer'} (${failure.summary})`,
        );
        continue;
      }
      const { response, url } = opened;
      const { statusCode, headers } = response;
      storeTime.observe(headers);
      options.debug?.(
        `GET ${withoutQuery(url)}${resuming ? ` (from byte ${received})` : ''} → ${statusCode}`,
      );

      if (statusCode !== 200 && statusCode !== 206) {
        const { text: body } = await readDecodedText(response.body, headers, MAX_ERROR_BODY).catch(
          () => ({ text: '' }),
        );
        // Before the summary cuts a value in two, and in full after: a JSON string
        // unescaped, a copy cut short, the cut itself.
        const detail = links.scrub(
          summarizeBody(links.scrubWhole(body), header(headers, 'content-type')),
        );
        const proxy = proxyOf(options.dispatcher, url);
        if (
          proxy !== undefined &&
          (statusCode === 407 || (statusCode >= 400 && answeredByProxy(headers)))
        ) {
          const refusal = proxyRefusal(statusCode, proxy, hostOf(url));
          if (!refusal.transient) {
            throw new DownloadError(
              `Could not download the bundle: ${refusal.summary}. ${refusal.advice ?? ''}`.trim(),
            );
          }
        }
        if (statusCode === 403 && (await linkRefused(detail, headers))) continue;
        if (statusCode === 416 && total !== undefined && received === total) break;
        if (statusCode === 416) {
          await startOver('The storage refused to resume (HTTP 416): the archive changed size');
          await refresh('The bundle changed on the storage', KEPT_CHANGING);
          continue;
        }
        if (statusCode === 408 || statusCode === 429 || statusCode >= 500) {
          await retryLater(
            `The storage answered HTTP ${statusCode}${detail ? ` (${detail})` : ''}`,
            retryAfterMs(headers, clock),
            statusCode === 429 || (statusCode === 503 && isS3SlowDown(body)),
          );
          continue;
        }
        throw new DownloadError(
          `The storage refused the bundle link (HTTP ${statusCode}${detail ? `: ${detail}` : ''}).${
            statusCode === 403
              ? ` The link may have been altered, or the storage does not accept it from this network${proxy ? ` or through the proxy ${proxy.host}` : ''}.`
              : ''
          }`,
        );
      }

      const served = header(headers, 'etag');
      const length = contentLength(headers);
      const encoding = contentEncoding(headers);
      // An object stored compressed is served with its encoding and its stored length: those
      // bytes are the archive. Anything else encoded was compressed on the way.
      const storedEncoded =
        encoding !== undefined && length !== undefined && length === source.sizeBytes;
      const decoder = encoding !== undefined && !storedEncoded ? decoderFor(encoding) : undefined;
      if (encoding !== undefined && !storedEncoded && decoder === undefined) {
        discard(response.body);
        throw new DownloadError(
          `The storage sent the bundle with Content-Encoding ${encoding}, which this action cannot undo, although the request asked for none (Accept-Encoding: identity): a proxy or CDN between the runner and the storage is re-encoding it. Exempt the storage host from that.`,
        );
      }
      if (statusCode === 206) {
        const range = parseContentRange(header(headers, 'content-range'));
        if (
          !resuming ||
          decoder !== undefined ||
          !range ||
          range.start !== received ||
          (etag !== undefined && served !== etag) ||
          (total !== undefined && range.total !== total)
        ) {
          discard(response.body);
          await startOver('The storage resumed from an unexpected place or a different version');
          // The API announces the size of the version it links to: ask again.
          await refresh('The bundle changed on the storage', KEPT_CHANGING);
          continue;
        }
      } else {
        if (received > 0) {
          // Range ignored: the same ETag and length is the same version, whole again from its
          // first byte. A chunked answer names no length: the API's stands for it, as it
          // did the first time.
          const sameVersion = served === etag && (length ?? source.sizeBytes) === total;
          // A link asked for since these bytes began (an expired one exchanged) names the
          // version it serves, and the API announced its size: an answer of that size is
          // that version whole, taken from its first byte rather than exchanged again.
          const announced =
            source !== etagSource && length !== undefined && length === source.sizeBytes;
          if (!sameVersion && !announced) {
            discard(response.body);
            await startOver('The bundle changed on the storage since the download began');
            await refresh('The bundle changed on the storage', KEPT_CHANGING);
            continue;
          }
          await startOver(
            sameVersion
              ? 'The storage does not resume transfers'
              : 'The fresh link serves another version of the bundle',
          );
        }
        decoding = decoder !== undefined;
        if (decoding) {
          options.onEvent?.(
            `The storage's answer arrived compressed (Content-Encoding ${encoding}) although none was asked for: decoding it, and checking the size against the API's.`,
          );
        }
        total = decoding ? source.sizeBytes : (length ?? source.sizeBytes);
        etag = served;
        etagSource = source;
        // An object encrypted with a key has an ETag that is no MD5 of its bytes.
        if (encryptedWithKey(headers)) md5 = undefined;
        if (
          !decoding &&
          length !== undefined &&
          source.sizeBytes !== undefined &&
          length !== source.sizeBytes
        ) {
          discard(response.body);
          await refresh(
            `The storage serves ${length} bytes, but the API announced ${source.sizeBytes}`,
            `The storage serves ${formatBytes(length)} (${length} bytes) but the API announced ${source.sizeBytes} bytes, also with ${refreshes} fresh link${refreshes === 1 ? '' : 's'}: refusing an archive that is not the one the export produced.`,
          );
          total = undefined;
          etag = undefined;
          continue;
        }
      }

      // pipeline, not pipe: a body cut off or timed out must fail the decoder too, where pipe
      // would leave the loop below waiting for bytes that never come.
      const stream: Readable = decoder
        ? pipeline(response.body, decoder, () => undefined)
        : response.body;
      let progressed = false;
      try {
        for await (const data of stream) {
          const chunk = data as Buffer;
          if (total !== undefined && received + chunk.length > total) {
            throw new DownloadError(
              `The storage sent more than the ${total} bytes ${decoding || length === undefined ? 'the API announced' : 'it announced'}: refusing the archive.`,
            );
          }
          sha256.update(chunk);
          md5?.update(chunk);
          // Synchronous: a chunk into the page cache is quicker than a thread-pool round trip.
          if (sink?.needsFile?.() !== false) {
            try {
              writeAll(fd, chunk, received);
            } catch (err) {
              const failure = asLocalFileError(err, options.file, 'write the download to') ?? err;
              throw await withDiskSpace(failure, {
                written: received,
                ...(total !== undefined ? { needed: total } : {}),
              });
            }
          }
          try {
            await sink?.write(chunk);
          } catch (err) {
            throw asLocalFileError(err, options.file, 'write the extracted files to') ?? err;
          }
          if (md5 !== undefined && sink?.needsChecksum?.() === false) md5 = undefined;
          // The chunks just copied are garbage: free them every few megabytes, not 50.
          if (
            Math.floor(received / COLLECT_EVERY_BYTES) !==
            Math.floor((received + chunk.length) / COLLECT_EVERY_BYTES)
          ) {
            collectYoungGeneration();
          }
          received += chunk.length;
          if (!progressed && received > reached) {
            progressed = true;
            schedule.succeeded();
            expiredInARow = 0;
          }
          reached = Math.max(reached, received);
          options.onProgress?.(received, total);
        }
      } catch (err) {
        if (err instanceof ActionError) throw err;
        if (signal?.aborted) throw abortReason(signal);
        if (decoder) discard(response.body);
        const failure = classify(err, { host: hostOf(url) });
        await retryLater(`The connection broke (${failure.summary})`);
        continue;
      }
      if (total === undefined) {
        total = received;
        break;
      }
      if (received === total) break;
      await retryLater(
        `The storage ended the transfer early${length === undefined ? ' (a chunked answer without a length)' : ''}`,
      );
    }
  } finally {
    fs.closeSync(fd);
  }

  const etagVerified = md5 !== undefined && verifyEtag(etag, md5.digest('hex'), received);
  return {
    file: options.file,
    size: received,
    sha256: sha256.digest('hex'),
    etagVerified,
    source,
    resumes,
    restarts,
    refreshes,
  };
}

/**
 * GET `link`, following up to five redirects (S3 region redirects, download front ends),
 * never from https to http and never to a URL the action would not fetch. The request
 * carries no Authorization header, on any hop.
 */
async function openFollowingRedirects(
  link: string,
  headers: Record<string, string>,
  options: DownloadOptions,
  links: LinkScrubber,
): Promise<Opened> {
  let url = new URL(link);
  for (let hop = 0; ; hop += 1) {
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: 'GET',
        dispatcher: options.dispatcher,
        headers: { 'accept-encoding': 'identity', ...headers },
        headersTimeout: options.idleTimeoutMs,
        bodyTimeout: options.idleTimeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (err) {
      throw hop === 0 ? err : new HopFailed(url, err);
    }
    const location = header(response.headers, 'location');
    if (!REDIRECTS.has(response.statusCode) || location === undefined) return { response, url };
    discard(response.body);
    const next = URL.canParse(location, url.href) ? new URL(location, url) : undefined;
    if (next === undefined) {
      throw new DownloadError(
        `The bundle link redirected (HTTP ${response.statusCode} from ${withoutQuery(url)}) to an address that is not a URL: the storage or a front end before it is misconfigured.`,
      );
    }
    links.add(next.href);
    options.onRedirect?.(next.href);
    options.debug?.(`GET ${withoutQuery(url)} → ${response.statusCode}, to ${withoutQuery(next)}`);
    if (hop + 1 > MAX_REDIRECTS) {
      throw new DownloadError(
        `The bundle link redirected more than ${MAX_REDIRECTS} times (last to ${withoutQuery(next)}): refusing to follow further.`,
      );
    }
    if (url.protocol === 'https:' && next.protocol !== 'https:') {
      throw new DownloadError(
        `The bundle link redirected from https to ${withoutQuery(next)}: refusing to leave https.`,
      );
    }
    const checked = parseServiceUrl(next.href);
    if (!(checked instanceof URL)) {
      throw new DownloadError(
        `The bundle link redirected to ${withoutQuery(next)}, which this action will not fetch: it ${checked.reason}.`,
      );
    }
    url = checked;
  }
}

/** Drops a body not worth reading; the stream's own abort error is of no interest then. */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

/**
 * An object encrypted with a KMS key (SSE-KMS, DSSE-KMS) or a customer key (SSE-C): S3
 * then gives an ETag that looks like an MD5 but is not the bytes' (SSE-S3's still is).
 */
function encryptedWithKey(headers: Dispatcher.ResponseData['headers']): boolean {
  const algorithm = header(headers, 'x-amz-server-side-encryption')?.toLowerCase() ?? '';
  return (
    algorithm.startsWith('aws:kms') ||
    header(headers, 'x-amz-server-side-encryption-customer-algorithm') !== undefined
  );
}

/** A strong ETag (`"…"`, not `W/"…"`): the only validator a ranged request may name. */
function isStrong(etag: string | undefined): etag is string {
  return etag !== undefined && etag !== '' && !/^w\//i.test(etag);
}

/** An S3 ETag of a single-part upload is the MD5 of the bytes: check it when it is one. */
function verifyEtag(etag: string | undefined, md5: string, size: number): boolean {
  const plain = etag?.replace(/^W\//, '').replace(/"/g, '');
  if (plain === undefined || !/^[0-9a-f]{32}$/i.test(plain)) return false;
  if (plain.toLowerCase() !== md5) {
    throw new DownloadError(
      `The downloaded archive (${size} bytes) does not match the storage's checksum (ETag ${plain}, got MD5 ${md5}): the transfer was corrupted.`,
    );
  }
  return true;
}

function parseContentRange(
  value: string | undefined,
): { start: number; total: number | undefined } | undefined {
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(value?.trim() ?? '');
  if (!match) return undefined;
  return { start: Number(match[1]), total: match[3] === '*' ? undefined : Number(match[3]) };
}

function contentLength(headers: Dispatcher.ResponseData['headers']): number | undefined {
  const value = header(headers, 'content-length');
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

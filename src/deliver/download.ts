import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import { type Dispatcher, request } from 'undici';
import { summarizeBody } from '../api/errors.js';
import { backoffDelay, parseRetryAfter } from '../api/retry.js';
import type { Clock, Random } from '../clock.js';
import { formatBytes } from '../duration.js';
import { abortReason, ActionError, DownloadError, throwIfAborted } from '../errors.js';
import { describeNetworkError, header, readText } from '../http.js';
import { withoutQuery } from '../net.js';

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
  /** Failed tries in a row, without a byte of progress, before giving up. */
  maxAttempts?: number;
  /** Fresh links requested before giving up on expiring ones. */
  maxRefreshes?: number;
  sink?: ByteSink;
  /**
   * Check the bytes against an S3 ETag that is a plain MD5 (costs a second hash). Not
   * needed when the bytes are extracted: gzip and zip carry their own checksums.
   */
  verifyEtag?: boolean;
  onProgress?: (received: number, total: number | undefined) => void;
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
const RESUME_BACKOFF = { baseDelayMs: 250, maxDelayMs: 5000 };

/**
 * Streams the archive to `file` (never whole in memory), hashing it on the way and
 * feeding `sink`. A cut connection resumes with Range + If-Range on the ETag; if the
 * archive changed meanwhile, everything starts over from byte zero so two versions
 * are never spliced. An expired link is exchanged for a fresh one.
 */
export async function downloadBundle(options: DownloadOptions): Promise<DownloadResult> {
  const { clock, signal, sink } = options;
  const maxAttempts = options.maxAttempts ?? 5;
  const maxRefreshes = options.maxRefreshes ?? 3;
  const fd = fs.openSync(options.file, 'w', 0o600);
  const verify = options.verifyEtag ?? true;
  let source = options.source;
  let received = 0;
  let total: number | undefined;
  let etag: string | undefined;
  let sha256: Hash = createHash('sha256');
  let md5: Hash | undefined = verify ? createHash('md5') : undefined;
  let failures = 0;
  let resumes = 0;
  let restarts = 0;
  let refreshes = 0;

  const startOver = async (why: string) => {
    options.onEvent?.(`${why}: starting the download over from the first byte.`);
    restarts += 1;
    fs.ftruncateSync(fd, 0);
    received = 0;
    total = undefined;
    etag = undefined;
    sha256 = createHash('sha256');
    md5 = verify ? createHash('md5') : undefined;
    await sink?.restart();
  };
  const refresh = async (why: string) => {
    if (refreshes >= maxRefreshes) {
      throw new DownloadError(
        `The bundle link expired before the download finished, ${refreshes} fresh link(s) later (${why}). Check that the runner's clock is right and that the storage is reachable fast enough.`,
      );
    }
    refreshes += 1;
    options.onEvent?.(`${why}: requesting a fresh bundle link (the job is reused).`);
    source = await options.refresh(why);
  };
  const failed = async (what: string, retryAfterMs?: number) => {
    failures += 1;
    if (failures >= maxAttempts) {
      throw new DownloadError(
        `The bundle download failed ${failures} times in a row at ${formatBytes(received)}${total !== undefined ? ` of ${formatBytes(total)}` : ''} (${what}).`,
      );
    }
    const delay = retryAfterMs ?? backoffDelay(failures, RESUME_BACKOFF, options.random);
    options.onEvent?.(
      `${what} after ${formatBytes(received)}${total !== undefined ? ` of ${formatBytes(total)}` : ''}: ${received > 0 ? 'resuming' : 'retrying'} in ${(delay / 1000).toFixed(1)}s.`,
    );
    await clock.sleep(delay, signal);
  };

  try {
    for (;;) {
      throwIfAborted(signal);
      if (source.expiresAt !== undefined && source.expiresAt.getTime() <= clock.now()) {
        await refresh(`The bundle link expired at ${source.expiresAt.toISOString()}`);
        continue;
      }
      const resuming = received > 0;
      if (resuming) resumes += 1;
      let response: Dispatcher.ResponseData;
      try {
        response = await request(source.url, {
          method: 'GET',
          dispatcher: options.dispatcher,
          // No Authorization header: the link is presigned, and the admin key must never
          // travel to the storage host.
          headers: resuming
            ? { range: `bytes=${received}-`, ...(etag !== undefined ? { 'if-range': etag } : {}) }
            : {},
          headersTimeout: options.idleTimeoutMs,
          bodyTimeout: options.idleTimeoutMs,
          ...(signal ? { signal } : {}),
        });
      } catch (err) {
        if (signal?.aborted) throw abortReason(signal);
        await failed(`The storage did not answer (${describeNetworkError(err)})`);
        continue;
      }
      const { statusCode, headers } = response;
      options.debug?.(
        `GET ${withoutQuery(source.url)}${resuming ? ` (from byte ${received})` : ''} → ${statusCode}`,
      );

      if (statusCode !== 200 && statusCode !== 206) {
        const { text: body } = await readText(response.body, MAX_ERROR_BODY).catch(() => ({
          text: '',
        }));
        const detail = summarizeBody(body, header(headers, 'content-type'));
        if (statusCode === 403 && /expired/i.test(detail)) {
          await refresh(`The storage says the link has expired (${detail})`);
        } else if (statusCode === 416 && total !== undefined && received === total) {
          break;
        } else if (statusCode === 416) {
          await startOver(`The storage refused to resume (HTTP 416)`);
        } else if (statusCode === 408 || statusCode === 429 || statusCode >= 500) {
          await failed(
            `The storage answered HTTP ${statusCode}${detail ? ` (${detail})` : ''}`,
            parseRetryAfter(header(headers, 'retry-after'), clock),
          );
        } else {
          throw new DownloadError(
            `The storage refused the bundle link (HTTP ${statusCode}${detail ? `: ${detail}` : ''}).${statusCode === 403 ? ' The link may have been altered, or the storage does not accept it from this network.' : ''}`,
          );
        }
        continue;
      }

      const served = header(headers, 'etag');
      if (statusCode === 206) {
        const range = parseContentRange(header(headers, 'content-range'));
        if (
          !range ||
          range.start !== received ||
          (etag !== undefined && served !== etag) ||
          (total !== undefined && range.total !== total)
        ) {
          response.body.destroy();
          await startOver('The storage resumed from an unexpected place or a different version');
          // The API announces the size of the version it links to: ask again.
          await refresh('The bundle changed on the storage');
          continue;
        }
      } else {
        if (received > 0) {
          response.body.destroy();
          await startOver('The bundle changed on the storage since the download began');
          await refresh('The bundle changed on the storage');
          continue;
        }
        total = contentLength(headers);
        etag = served;
        if (total !== undefined && source.sizeBytes !== undefined && total !== source.sizeBytes) {
          response.body.destroy();
          throw new DownloadError(
            `The storage serves ${formatBytes(total)} (${total} bytes) but the API announced ${source.sizeBytes} bytes: refusing an archive that is not the one the export produced.`,
          );
        }
      }

      try {
        for await (const data of response.body) {
          const chunk = data as Buffer;
          if (total !== undefined && received + chunk.length > total) {
            throw new DownloadError(
              `The storage sent more than the ${total} bytes it announced: refusing the archive.`,
            );
          }
          sha256.update(chunk);
          md5?.update(chunk);
          // Synchronous: a chunk into the page cache is quicker than a thread-pool round trip.
          if (sink?.needsFile?.() !== false) fs.writeSync(fd, chunk, 0, chunk.length, received);
          await sink?.write(chunk);
          received += chunk.length;
          failures = 0;
          options.onProgress?.(received, total);
        }
      } catch (err) {
        if (err instanceof ActionError) throw err;
        if (signal?.aborted) throw abortReason(signal);
        await failed(`The connection broke (${describeNetworkError(err)})`);
        continue;
      }
      if (total === undefined) {
        total = received;
        break;
      }
      if (received === total) break;
      await failed('The storage closed the connection early');
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

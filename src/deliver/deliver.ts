import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Dispatcher } from 'undici';
import type { Clock, Random } from '../clock.js';
import type { ExtractLimits } from '../config.js';
import { formatBytes } from '../duration.js';
import type { Reporter } from '../report.js';
import { EXTENSION } from './archive/format.js';
import { type BundleSource, type DownloadResult, downloadBundle } from './download.js';
import { ExtractingSink, type ExtractedSite, sniffFile } from './extract.js';
import { createStagingDirectory, moveFileInto, replaceDirectory } from './place.js';

export interface DeliverOptions {
  source: BundleSource;
  refresh: (reason: string) => Promise<BundleSource>;
  /** Directory that receives the site, or the archive file when not extracting. */
  target: string;
  extract: boolean;
  /** Base name of the archive file when it is kept (`docs.example.com`). */
  archiveName: string;
  limits: ExtractLimits;
  tempDir: string;
  dispatcher: Dispatcher;
  clock: Clock;
  random: Random;
  idleTimeoutMs: number;
  reporter: Reporter;
  signal?: AbortSignal;
  /** Runs on the extracted site before it is put in place; throwing keeps `target` untouched. */
  inspect?: (stagingDir: string) => Promise<void>;
}

export interface Delivered {
  download: DownloadResult;
  /** Absolute directory holding the export. */
  directory: string;
  /** Set when the archive is kept instead of extracted. */
  archivePath?: string;
  site?: ExtractedSite;
  format: string;
  replaced: boolean;
}

/**
 * Downloads the bundle into a temporary file (extracting as it arrives), verifies it,
 * and only then renames the result into `target`. On any failure or cancellation the
 * temporary file and the staging directory are removed and `target` is left as it was.
 */
export async function deliverBundle(options: DeliverOptions): Promise<Delivered> {
  const { reporter } = options;
  await fs.mkdir(options.tempDir, { recursive: true });
  const file = path.join(
    options.tempDir,
    `static-export-${randomBytes(6).toString('hex')}.download`,
  );
  const staging = options.extract ? await createStagingDirectory(options.target) : undefined;
  const sink = staging ? new ExtractingSink(staging, options.limits, options.signal) : undefined;
  const progress = downloadProgress(reporter, options.clock);
  try {
    const download = await downloadBundle({
      source: options.source,
      refresh: options.refresh,
      file,
      dispatcher: options.dispatcher,
      clock: options.clock,
      random: options.random,
      idleTimeoutMs: options.idleTimeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(sink ? { sink, verifyEtag: false } : {}),
      onProgress: progress,
      onEvent: (message) => reporter.info(message),
      debug: (line) => reporter.debug(line),
    });
    reporter.info(
      `Downloaded ${formatBytes(download.size)}, sha256 ${download.sha256}${download.etagVerified ? ' (matches the storage ETag)' : ''}.`,
    );
    if (sink && staging) {
      const site = await sink.finish(file);
      reporter.info(
        `Extracted ${site.files} files (${formatBytes(site.bytes)}) from the ${site.format} archive; every entry passed the safety checks.`,
      );
      await options.inspect?.(staging);
      const { replaced } = await replaceDirectory(staging, options.target);
      return { download, directory: options.target, site, format: site.format, replaced };
    }
    const format = await sniffFile(file);
    const archivePath = await moveFileInto(
      file,
      options.target,
      `${options.archiveName}${EXTENSION[format]}`,
    );
    return { download, directory: options.target, archivePath, format, replaced: false };
  } finally {
    await sink?.abort();
    await fs.rm(file, { force: true });
    if (staging) await fs.rm(staging, { recursive: true, force: true });
  }
}

/** One line per quarter of the download, and at most every 15 s in between. */
function downloadProgress(reporter: Reporter, clock: Clock) {
  let nextQuarter = 1;
  let lastLine = clock.now();
  const started = clock.now();
  return (received: number, total: number | undefined) => {
    reporter.progress?.({
      phase: 'download',
      bytes: received,
      ...(total !== undefined ? { totalBytes: total } : {}),
    });
    const now = clock.now();
    const quarter = total ? Math.floor((received / total) * 4) : 0;
    if (quarter < nextQuarter && now - lastLine < 15_000) return;
    if (quarter >= nextQuarter) nextQuarter = quarter + 1;
    lastLine = now;
    const seconds = Math.max(0.001, (now - started) / 1000);
    const percent = total ? ` (${Math.floor((received / total) * 100)}%)` : '';
    reporter.info(
      `  ${formatBytes(received)}${total ? ` of ${formatBytes(total)}` : ''}${percent} at ${formatBytes(received / seconds)}/s`,
    );
  };
}

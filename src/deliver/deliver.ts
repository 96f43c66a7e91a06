import fs from 'node:fs/promises';
import path from 'node:path';
import type { Dispatcher } from 'undici';
import type { Clock, Random } from '../clock.js';
import type { ExtractLimits } from '../config.js';
import { formatBytes } from '../duration.js';
import { ActionError, PathInUseError, throwIfAborted } from '../errors.js';
import type { Reporter } from '../report.js';
import { EXTENSION } from './archive/format.js';
import type { SiteContents } from './archive/listing.js';
import type { WrittenFileListener } from './archive/writer.js';
import { type BundleSource, type DownloadResult, downloadBundle } from './download.js';
import { holdYoungGeneration } from '../young-generation.js';
import { ExtractingSink, type ExtractedSite, sniffFile } from './extract.js';
import {
  buildManifest,
  MANIFEST_NAME,
  type ExportManifest,
  type ManifestFacts,
  serializeManifest,
  writeManifest,
} from './manifest.js';
import {
  createStagingDirectory,
  moveFileInto,
  removeTemporary,
  replaceDirectory,
  siblingPath,
  temporaryFileName,
  trackTemporary,
  writeFileAtomic,
} from './place.js';
import {
  archiveManifestName,
  inspectArchiveTarget,
  inspectTarget,
  TargetRefusal,
  type TargetRules,
  type TargetState,
} from './target.js';
import { identityOf } from './protected.js';
import { provenBefore, touchedSince } from './unchanged.js';

export interface DeliverOptions {
  source: BundleSource;
  refresh: (reason: string) => Promise<BundleSource>;
  /** Told each address the storage redirects to, before any line names it. */
  onRedirect?: (to: string) => void;
  /** The archive is downloaded and verified: what is known of it, before it is extracted or placed. */
  onDownloaded?: (download: DownloadResult) => void;
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
  /** Clock time after which no retry is attempted (the run's overall deadline). */
  deadline?: number;
  idleTimeoutMs: number;
  reporter: Reporter;
  signal?: AbortSignal;
  /**
   * Runs on the extracted site before it is put in place, given what the extraction
   * wrote there; throwing keeps `target` untouched.
   */
  inspect?: (stagingDir: string, contents: SiteContents) => Promise<void>;
  /** What `target` may replace: checked again just before it is replaced. */
  targetRules: TargetRules;
  /**
   * Throws when this run no longer holds the lock on `target` (another run took it over):
   * called just before `target` is replaced.
   */
  confirmLock?: () => Promise<void>;
  /** `target` as the user wrote it, for messages. */
  targetGiven: string;
  /** The export the bundle comes from, for the manifest. */
  export: Pick<ManifestFacts, 'domain' | 'jobId' | 'pageCount'>;
  /** Page fingerprints of the extracted site, recorded in its manifest; begun as files are written. */
  describePages?: (stagingDir: string) => PageDescription;
  /**
   * Runs on the new manifest before the site is put in place, while the manifest is written
   * into the staging directory; throwing keeps `target` untouched.
   */
  review?: (manifest: ExportManifest) => Promise<void>;
}

/** The pages of the site being extracted, described for the manifest as they are written. */
export interface PageDescription {
  written: WrittenFileListener;
  /** Once the site is complete: what its manifest records of its pages (stopped by `signal`). */
  finish(contents: SiteContents, signal?: AbortSignal): Promise<ManifestFacts['pages']>;
  /** Stops the work in progress; the extraction failed or was cancelled. */
  stop(): Promise<void>;
}

export interface Delivered {
  download: DownloadResult;
  /** Absolute directory holding the export. */
  directory: string;
  /** Set when the archive is kept instead of extracted. */
  archivePath?: string;
  site?: ExtractedSite;
  format: string;
  /** What was at `target` before (absent when nothing was replaced). */
  replaced?: TargetState;
  /** The manifest written with the export. */
  manifestPath: string;
}

/**
 * Downloads the bundle into a temporary file (extracting as it arrives), verifies it,
 * and only then renames the result into `target`. On any failure or cancellation the
 * temporary file and the staging directory are removed and `target` is left as it was.
 */
export async function deliverBundle(options: DeliverOptions): Promise<Delivered> {
  const { reporter } = options;
  await fs.mkdir(options.tempDir, { recursive: true });
  const file = temporaryFileName(options.tempDir, '.download');
  trackTemporary(file);
  const staging = options.extract ? await createStagingDirectory(options.target) : undefined;
  const pages = staging ? options.describePages?.(staging) : undefined;
  const sink = staging
    ? new ExtractingSink(staging, options.limits, options.signal, pages?.written)
    : undefined;
  const progress = downloadProgress(reporter, options.clock);
  const releaseYoungGeneration = holdYoungGeneration();
  try {
    const download = await downloadBundle({
      source: options.source,
      refresh: options.refresh,
      ...(options.onRedirect ? { onRedirect: options.onRedirect } : {}),
      file,
      dispatcher: options.dispatcher,
      clock: options.clock,
      random: options.random,
      ...(options.deadline !== undefined ? { deadline: options.deadline } : {}),
      idleTimeoutMs: options.idleTimeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(sink ? { sink } : {}),
      onProgress: progress,
      onEvent: (message) => reporter.info(message),
      debug: (line) => reporter.debug(line),
    });
    reporter.info(
      `Downloaded ${formatBytes(download.size)}, sha256 ${download.sha256}${download.etagVerified ? ' (matches the storage ETag)' : ''}.`,
    );
    options.onDownloaded?.(download);
    const facts = (format: ExtractedSite['format']) => ({
      ...options.export,
      exportedAt: new Date(options.clock.now()),
      archive: { format, sha256: download.sha256, sizeBytes: download.size },
    });
    if (sink && staging) {
      const site = await sink.finish(file);
      reporter.info(
        `Extracted ${site.files} files (${formatBytes(site.bytes)}) from the ${site.format} archive; every entry passed the safety checks.`,
      );
      if (site.macMetadata > 0) {
        reporter.info(
          `Left out ${site.macMetadata} macOS metadata ${site.macMetadata === 1 ? 'file' : 'files'} (__MACOSX/, ._*): the archive was made on a Mac, and they are not part of the site.`,
        );
      }
      await options.inspect?.(staging, site.contents);
      // A signal that came while a step went on unaware (the check, the listing) stops here.
      throwIfAborted(options.signal);
      const described = await pages?.finish(site.contents, options.signal);
      const directory = await identityOf(staging);
      const manifest = buildManifest({
        ...facts(site.format),
        contents: site.contents,
        ...(described ? { pages: described } : {}),
        // Renamed into path as it is: the same directory to the file system.
        ...(directory ? { directory } : {}),
      });
      // The review's file is written while the manifest is. Either failing stops the step,
      // once both are done: nothing may still be writing into the staging directory when
      // it is removed.
      const settled = await Promise.allSettled([
        options.review?.(manifest),
        writeManifest(staging, manifest),
      ]);
      for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
      const previous = await recheckTarget(options, () =>
        inspectTarget(options.target, options.targetRules, options.targetGiven),
      );
      // The last moment a cancellation or the timeout can leave path as it was.
      throwIfAborted(options.signal);
      const { replaced, leftBehind } = await replaceDirectory(staging, options.target);
      if (leftBehind) reporter.warning(leftBehind);
      return {
        download,
        directory: options.target,
        site,
        format: site.format,
        ...(replaced ? { replaced: previous } : {}),
        manifestPath: path.join(options.target, MANIFEST_NAME),
      };
    }
    releaseYoungGeneration();
    const format = await sniffFile(file);
    const name = `${options.archiveName}${EXTENSION[format]}`;
    const ours = await recheckTarget(options, () =>
      inspectArchiveTarget(
        options.target,
        [name],
        options.targetRules,
        options.targetGiven,
        options.signal,
      ),
    );
    throwIfAborted(options.signal);
    const known = facts(format);
    const kept = { ...known, archive: { ...known.archive, file: name } };
    const earlier = ours.get(name);
    const replacing = earlier?.sha256 === download.sha256 ? undefined : earlier;
    const manifestPath = path.join(options.target, archiveManifestName(name));
    const before = await keepAside(manifestPath);
    let archivePath: string;
    try {
      // The manifest goes first and names the archive it replaces: a run killed before the
      // rename leaves that archive beside it, which the next run still knows as its own.
      await writeFileAtomic(
        manifestPath,
        serializeManifest(buildManifest({ ...kept, ...(replacing ? { replacing } : {}) })),
      );
      archivePath = await moveFileInto(file, options.target, name);
    } catch (err) {
      // Not put in place: the manifest goes back to what it was (the file itself).
      if (before.kind === 'kept') await fs.rename(before.aside, manifestPath).catch(() => {});
      else if (before.kind === 'none') await fs.rm(manifestPath, { force: true }).catch(() => {});
      throw err;
    } finally {
      if (before.kind === 'kept') await removeTemporary(before.aside);
    }
    // In place: the manifest describes it alone (the earlier bytes are no longer ours), and
    // is dated after it, so that the next run knows it by its size without reading it.
    if (replacing) await writeFileAtomic(manifestPath, serializeManifest(buildManifest(kept)));
    await dateAfter(manifestPath, archivePath);
    return { download, directory: options.target, archivePath, format, manifestPath };
  } finally {
    releaseYoungGeneration();
    await sink?.abort();
    await pages?.stop();
    await removeTemporary(file);
    if (staging) await removeTemporary(staging);
  }
}

/**
 * A second name for `file` (a hard link: the same bytes, mode and owner; on Linux a symbolic link
 * stays one), to put it back by. `none` when there is no such file; `unknown` when the file
 * system makes no links, and the file cannot be put back.
 */
async function keepAside(
  file: string,
): Promise<{ kind: 'kept'; aside: string } | { kind: 'none' } | { kind: 'unknown' }> {
  const aside = siblingPath(file, 'previous');
  trackTemporary(aside);
  try {
    await fs.link(file, aside);
    return { kind: 'kept', aside };
  } catch (err) {
    await removeTemporary(aside);
    return (err as NodeJS.ErrnoException).code === 'ENOENT'
      ? { kind: 'none' }
      : { kind: 'unknown' };
  }
}

/**
 * Dates the manifest `file` after `earlier`, the file it describes, when a later run would
 * take that file for written since (unchanged.ts): written before the rename, or within
 * the same tick of the file times (4 ms on a Linux tmpfs). One millisecond past both its
 * times is never ahead of the clock by the time a later run reads it.
 */
async function dateAfter(file: string, earlier: string): Promise<void> {
  const [written, before] = await Promise.all([fs.stat(file), fs.stat(earlier)]);
  if (!touchedSince(before, provenBefore(written))) return;
  const after = new Date(Math.max(before.mtimeMs, before.ctimeMs) + 1);
  await fs.utimes(file, after, after);
}

/**
 * The target is checked again at the last moment: a long export leaves time for changes,
 * and for another run to take the lock on it over.
 */
async function recheckTarget<T>(
  { confirmLock }: Pick<DeliverOptions, 'confirmLock'>,
  inspect: () => Promise<T>,
): Promise<T> {
  try {
    await confirmLock?.();
    return await inspect();
  } catch (err) {
    const notPlaced = 'The export was not put in place, and `path` was left as it is:';
    if (err instanceof PathInUseError) throw new PathInUseError(`${notPlaced} ${err.message}`);
    if (!(err instanceof TargetRefusal)) throw err;
    throw new ActionError(`${notPlaced} ${err.message}`);
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
      { progress: true },
    );
  };
}

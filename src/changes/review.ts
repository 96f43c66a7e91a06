import fs from 'node:fs/promises';
import path from 'node:path';
import type { Dispatcher } from 'undici';
import type { Clock } from '../clock.js';
import type { ExportConfig } from '../config.js';
import type { WrittenFile } from '../deliver/archive/listing.js';
import type { PageDescription } from '../deliver/deliver.js';
import type { ExportManifest, ManifestFile } from '../deliver/manifest.js';
import { writeFileAtomic } from '../deliver/place.js';
import { earlierExportIn, type TargetState } from '../deliver/target.js';
import { formatDuration } from '../duration.js';
import { ActionError } from '../errors.js';
import { addressPath, type ExportRecord, type Reporter } from '../report.js';
import { type BaselineResult, loadBaseline, sitePathOf } from './baseline.js';
import {
  CHANGES_FORMAT,
  type ChangeReport,
  compareExports,
  exceedsRemovalLimit,
  type ExportFiles,
  exportFiles,
  type PageChange,
  type PageMove,
  sortedFiles,
} from './compare.js';
import { FINGERPRINT_SCHEME } from './fingerprint.js';
import { type PageFingerprinter, startPageFingerprinter } from './fingerprinter.js';
import { findRedirects } from './redirects.js';
import type { EarlierPage, PageFingerprints } from './page-fingerprints.js';
import { isPage } from './site-files.js';

/** The export removes more pages than `max-removed-pages` allows; `path` was left as it was. */
export class RemovalLimitError extends ActionError {
  override name = 'RemovalLimitError';
}

export interface ChangeReviewDeps {
  reporter: Reporter;
  record: ExportRecord;
  clock: Clock;
  dispatcher: Dispatcher;
  /** The change report's JSON file goes here unless changes-file names one. */
  tempDir: string;
  signal?: AbortSignal;
}

/**
 * The change report of one export run: the earlier export is looked up as soon as the run
 * starts (a manifest served by the live site is fetched while the export job runs), the
 * pages are fingerprinted for the new manifest once the site is extracted, and the report
 * is made, written and checked against `max-removed-pages` before the site is put in place.
 */
export class ChangeReview {
  readonly #baseline: Promise<BaselineResult>;
  /** The earlier export's files, sorted once it is known, before the new export is extracted. */
  readonly #earlier: Promise<ExportFiles | undefined>;
  /** The new export's files, sorted as its pages are fingerprinted; kept until the report. */
  #current: ExportFiles | undefined;
  /**
   * An earlier run's report at the fixed `changes-file`, removed as the run starts (true
   * when there was one): a run that fails, or makes no report, leaves none there for a
   * later step to read as its own.
   */
  readonly #staleRemoved: Promise<boolean>;
  /** The folder the live site is served under on its domain, where the report links pages. */
  readonly #sitePath: string;
  /** The extracted site, until it is put in place: the report reads redirect stubs there. */
  #stagingDir: string | undefined;

  constructor(
    private readonly config: ExportConfig,
    private readonly target: TargetState | undefined,
    private readonly deps: ChangeReviewDeps,
  ) {
    this.#baseline = loadBaseline(config.compareWith, {
      ...(target ? { target } : {}),
      targetPath: config.path,
      dispatcher: deps.dispatcher,
      requestTimeoutMs: config.requestTimeoutMs,
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
    this.#earlier = this.#baseline.then((baseline) =>
      baseline.kind === 'found' ? exportFiles(baseline.baseline.manifest.files) : undefined,
    );
    this.#staleRemoved = this.#removeStaleReport();
    this.#sitePath = sitePathOf(config.compareWith, config.domain);
    // Awaited later; a rejection (a cancellation, a file that cannot be removed) must not
    // go unhandled meanwhile.
    this.#baseline.catch(() => undefined);
    this.#earlier.catch(() => undefined);
    this.#staleRemoved.catch(() => undefined);
  }

  /** A report is made (not with `compare-with: none`, where only the guard runs). */
  get reports(): boolean {
    return this.config.compareWith.kind !== 'none';
  }

  /**
   * Page fingerprints for the manifest, made as the pages are written (in a worker thread
   * when there is one) once the earlier export is known: pages whose bytes or markup are
   * unchanged keep the earlier fingerprints.
   */
  readonly describePages = (stagingDir: string): PageDescription => {
    const { reporter, clock } = this.deps;
    this.#stagingDir = stagingDir;
    let fingerprinter: PageFingerprinter | undefined;
    let stopped = false;
    // Pages written before the earlier export is known wait here (a URL is still loading).
    let waiting: WrittenFile[] = [];
    const ready = Promise.all([this.#baseline, this.#earlier]).then(([baseline, earlier]) => {
      if (stopped) return undefined;
      fingerprinter = startPageFingerprinter(stagingDir, earlierPages(baseline, earlier), {
        debug: (line) => reporter.debug(line),
      });
      for (const file of waiting) fingerprinter.written(file);
      waiting = [];
      return fingerprinter;
    });
    ready.catch(() => undefined);
    return {
      written: (file, bytes) => {
        if (fingerprinter) fingerprinter.written(file, bytes);
        // The bytes are only valid during the call: a waiting page is read back later.
        else if (isPage(file.path)) waiting.push(file);
      },
      finish: async (contents, signal) => {
        const started = clock.now();
        const running = await ready;
        if (running === undefined) throw new Error('the page fingerprints were stopped');
        const pages = await running.finish(contents.files, signal);
        this.#current = currentFiles(pages);
        reporter.debug(
          `Fingerprinted ${pages.byPath.size} pages ${whereScanned(running)}, ${formatDuration(clock.now() - started)} after the extraction (${pages.carriedOver} carried over: unchanged bytes or markup).`,
        );
        if (pages.unreadable.length > 0) {
          reporter.warning(
            `${pages.unreadable.length} extracted pages could not be read to fingerprint them (${pages.unreadable.slice(0, 3).join('; ')}${pages.unreadable.length > 3 ? '; …' : ''}): the change report compares them by their bytes.`,
          );
        }
        // Only the fingerprints go into the manifest: the lists of files die with the report.
        return { scheme: pages.scheme, byPath: pages.byPath };
      },
      stop: async () => {
        stopped = true;
        await fingerprinter?.stop();
      },
    };
  };

  /** Before the site is put in place: the report, its outputs and file, and the guard. */
  readonly review = async (manifest: ExportManifest): Promise<void> => {
    const { reporter, record } = this.deps;
    const baseline = await this.#baseline;
    // Removed before this run's report is written there.
    const staleRemoved = await this.#staleRemoved;
    if (baseline.kind !== 'found') {
      record.changes = { kind: 'none', reason: baseline.reason };
      if (baseline.kind === 'unusable') reporter.warning(`No change report: ${baseline.reason}.`);
      else reporter.info(`No change report: ${baseline.reason}.`);
      if (staleRemoved) {
        reporter.info(
          `Removed ${this.config.changesFile}, the change report of an earlier run: this run has none.`,
        );
      }
      this.#guardAgainstPath(manifest);
      return;
    }
    // Both sides are sorted already: the earlier one before the extraction, the new one with its pages.
    const previous = await this.#earlier;
    const current = this.#current;
    this.#current = undefined;
    const compare = (redirects?: ReadonlyMap<string, string>) =>
      compareExports(baseline.baseline.manifest, manifest, baseline.baseline.source, {
        files: { ...(previous ? { previous } : {}), ...(current ? { current } : {}) },
        sitePath: this.#sitePath,
        ...(redirects ? { redirects } : {}),
      });
    let report = compare();
    const redirects = await this.#redirectsIn(report, current);
    // Rare: a page listed that redirects. Compared again, it is labelled, or its move found.
    if (redirects.size > 0) report = compare(redirects);
    if (baseline.baseline.manifest.domain !== manifest.domain) {
      reporter.warning(
        `The earlier export is of ${baseline.baseline.manifest.domain}, this one of ${manifest.domain}: the change report compares them anyway.`,
      );
    }
    const file =
      this.config.changesFile ??
      path.join(this.deps.tempDir, `static-export-changes-${manifest.jobId}.json`);
    await writeFileAtomic(file, `${JSON.stringify(report, null, 2)}\n`);
    const earlierScheme = baseline.baseline.manifest.pageFingerprints?.scheme;
    record.changes = {
      kind: 'report',
      report,
      file,
      ...(report.comparedBy === 'bytes' ? { byBytesBecause: whyByBytes(earlierScheme).said } : {}),
    };
    this.#publish(report, file, earlierScheme);

    const limit = this.config.maxRemovedPages;
    const excess = limit === undefined ? undefined : exceedsRemovalLimit(report, limit);
    if (excess !== undefined) {
      // The file is in RUNNER_TEMP, gone with the job: the message names the first too.
      throw removalRefused(
        `${excess}; removed: ${namedRemoved(report.pages.removed, this.config.domain)}. The removed pages are listed in ${file}`,
      );
    }
  };

  /**
   * Without a report, `max-removed-pages` still counts against the earlier export that
   * `path` holds, which is what the swap would replace: an empty export must not wipe
   * the docs because the live site's manifest could not be read.
   */
  #guardAgainstPath(manifest: ExportManifest): void {
    const limit = this.config.maxRemovedPages;
    if (limit === undefined) return;
    const { reporter } = this.deps;
    const earlier = earlierExportIn(this.target);
    if (earlier === undefined) {
      reporter.warning(
        '`max-removed-pages` was not checked: there is no earlier export to count removed pages against, neither from `compare-with` nor in `path`.',
      );
      return;
    }
    const source = `the earlier export in \`path\` (${this.config.path})`;
    const report = compareExports(earlier, manifest, source, { sitePath: this.#sitePath });
    const excess = exceedsRemovalLimit(report, limit);
    if (excess !== undefined) {
      // No report file lists them: the first are named here, in the log and the summary.
      throw removalRefused(
        `${excess}, counted against ${source}; removed: ${namedRemoved(report.pages.removed, this.config.domain)}`,
      );
    }
    reporter.info(
      `\`max-removed-pages\` was checked against ${source}: ${report.pages.removed.length} of its ${report.pages.before} pages removed.`,
    );
  }

  /** The pages the report lists as added or changed that are redirect stubs, and where to. */
  async #redirectsIn(
    report: ChangeReport,
    current: ExportFiles | undefined,
  ): Promise<Map<string, string>> {
    const root = this.#stagingDir;
    if (root === undefined || current === undefined) return new Map();
    const started = this.deps.clock.now();
    const redirects = await findRedirects(root, report, current.pages, {
      domain: this.config.domain,
      sitePath: this.#sitePath,
    });
    this.deps.reporter.debug(
      `Looked for redirect stubs among the added and changed pages in ${formatDuration(this.deps.clock.now() - started)}: ${redirects.size} found.`,
    );
    return redirects;
  }

  /** Removes the report at the fixed `changes-file` when it is one of ours; true when it was. */
  async #removeStaleReport(): Promise<boolean> {
    const file = this.config.changesFile;
    return file === undefined ? false : removeStaleReport(file, this.deps.reporter);
  }

  #publish(report: ChangeReport, file: string, earlierScheme: number | undefined): void {
    const { reporter } = this.deps;
    const { pages, assets } = report;
    reporter.setOutput('pages-added', String(pages.added.length));
    reporter.setOutput('pages-removed', String(pages.removed.length));
    reporter.setOutput('pages-moved', String(pages.moved.length));
    reporter.setOutput('pages-changed', String(pages.changed.length));
    reporter.setOutput('pages-navigation-changed', String(pages.navigationChanged.length));
    reporter.setOutput(
      'assets-changed',
      String(assets.changed.length + assets.added.length + assets.removed.length),
    );
    reporter.setOutput('changes-file', file);
    // An address no longer served is a path, as in the summary: a link there answers 404.
    const gone = (url: string) => addressPath(url, this.config.domain);
    reporter.info(`Compared with ${report.source}, export job ${report.previous.jobId}.`);
    reporter.info(
      `Pages: ${pages.before} → ${pages.after}: ${pages.added.length} added, ${pages.removed.length} removed, ${pages.moved.length} moved, ${pages.changed.length} changed, navigation changed on ${pages.navigationChanged.length}, ${pages.unchanged} unchanged.`,
    );
    const lists: [string, (PageChange | PageMove)[], boolean][] = [
      ['changed', pages.changed, true],
      ['added', pages.added, true],
      ['removed', pages.removed, false],
      ['moved', pages.moved, true],
    ];
    for (const [label, list, served] of lists) {
      for (const page of list.slice(0, 10)) {
        const from = 'previous' in page ? `${gone(page.previous.url)} → ` : '';
        const stub =
          'previous' in page && page.previous.redirected
            ? ` (the old address redirects to it${page.changed ? '; its content changed too' : ''})`
            : page.redirectsTo
              ? ` (redirects to ${page.redirectsTo.url})`
              : '';
        reporter.info(`  ${label}: ${from}${served ? page.url : gone(page.url)}${stub}`);
      }
      if (list.length > 10) reporter.info(`  … ${list.length - 10} more ${label}`);
    }
    reporter.info(
      `Assets: ${assets.changed.length} changed, ${assets.added.length} added, ${assets.removed.length} removed. Full report: ${file}`,
    );
    if (report.comparedBy === 'bytes') {
      const { said, more } = whyByBytes(earlierScheme);
      reporter.notice(
        `The earlier export ${said}${more}: pages were compared by their bytes, so every rebuilt page counts as changed. The next report compares what a reader sees.`,
      );
    } else if (pages.comparedByBytes > 0) {
      reporter.notice(
        `${pages.comparedByBytes} of the pages in both exports had no fingerprint in one of them: they were compared by their bytes, so a rebuild counts as a change there. The other pages were compared by what a reader sees.`,
      );
    }
  }
}

/**
 * Why pages were compared by their bytes, said of the earlier manifest (the summary's
 * words), and `more` the log adds.
 */
function whyByBytes(earlierScheme: number | undefined): { said: string; more: string } {
  return earlierScheme === undefined || earlierScheme === FINGERPRINT_SCHEME
    ? { said: 'has no page fingerprints', more: ' (it predates them, or they were turned off)' }
    : {
        said: `has page fingerprints of another kind (scheme ${earlierScheme}; this version makes ${FINGERPRINT_SCHEME})`,
        more: ', made by another version of this action',
      };
}

/** Removed pages a refusal names: the log and the summary outlive the report file. */
const NAMED_REMOVED = 5;

/**
 * The first removed pages by path (`/guides/old`: nothing is served at their address any
 * more, as the summary shows them), and how many more: `/a, /b and 3 more`.
 */
function namedRemoved(removed: readonly PageChange[], domain: string): string {
  const named = removed.slice(0, NAMED_REMOVED).map((page) => addressPath(page.url, domain));
  const more = removed.length > NAMED_REMOVED ? ` and ${removed.length - NAMED_REMOVED} more` : '';
  return `${named.join(', ')}${more}`;
}

/** Where the pages were scanned, for the debug log. */
function whereScanned(fingerprinter: PageFingerprinter): string {
  if (fingerprinter.where === 'inline') return 'in the main thread';
  const beside = fingerprinter.scannedBeside;
  return `in a worker thread while extracting${beside > 0 ? ` (${beside} of them in the main thread beside it, after the extraction)` : ''}`;
}

/** The guard's refusal: `why` says what the export removes, and where that is listed. */
function removalRefused(why: string): RemovalLimitError {
  return new RemovalLimitError(
    `The export was not put in place, and \`path\` was left as it is: ${why}. If the removal is intended, raise \`max-removed-pages\` or leave it empty for this run.`,
  );
}

/** The earlier export's pages, when their fingerprints were made the way this version makes them. */
function earlierPages(
  baseline: BaselineResult,
  earlier: ExportFiles | undefined,
): ReadonlyMap<string, EarlierPage> | undefined {
  if (baseline.kind !== 'found' || earlier === undefined) return undefined;
  const { manifest } = baseline.baseline;
  if (manifest.pageFingerprints?.scheme !== FINGERPRINT_SCHEME) return undefined;
  return earlier.pages;
}

/** The new export's files as the report compares them, from its pages' fingerprinting. */
function currentFiles(fingerprints: PageFingerprints): ExportFiles {
  const pages = new Map<string, ManifestFile>();
  for (const file of fingerprints.pageFiles) {
    const page = fingerprints.byPath.get(file.path);
    pages.set(file.path, {
      path: file.path,
      size: file.size,
      sha256: file.sha256,
      ...(page ? { page } : {}),
    });
  }
  return sortedFiles(pages, fingerprints.otherFiles);
}

/**
 * Removes the change report an earlier run left at `file` (a file of the report's format
 * only: anything else there is the user's), so that a later step never reads it as this
 * run's. Whether there was one.
 */
export async function removeStaleReport(file: string, reporter: Reporter): Promise<boolean> {
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return false;
  let format: unknown;
  try {
    format = (JSON.parse(text) as { format?: unknown }).format;
  } catch {
    return false;
  }
  if (format !== CHANGES_FORMAT) return false;
  await fs.rm(file, { force: true });
  reporter.debug(`Removed ${file}, the change report of an earlier run.`);
  return true;
}

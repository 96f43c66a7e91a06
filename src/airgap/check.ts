import fs from 'node:fs/promises';
import path from 'node:path';
import type { ExportConfig } from '../config.js';
import { formatDuration } from '../duration.js';
import { ActionError } from '../errors.js';
import type { Annotation, ExportRecord, Reporter } from '../report.js';
import { type BrowserPass, findBrowser, loadPagesInBrowser, samplePages } from './browser.js';
import {
  findingsFromBrowser,
  findingsFromScan,
  groupByHost,
  type HostFinding,
  type Readiness,
  type Severity,
} from './findings.js';
import type { SiteContents } from '../deliver/archive/listing.js';
import { SARIF_LIMITS, writeReportFiles } from './report-files.js';
import { MAX_FRAME_DEPTH } from './html.js';
import { scanSite } from './scan.js';
import { nginxConfig, servingVerdict } from './serving.js';
import { SiteTree } from './site-tree.js';

/** GitHub shows 10 annotations of each level per step: more are dropped from view. */
export const ANNOTATIONS_PER_LEVEL = 10;
/** Pages the browser loads: the home page and a sample of the others. */
const BROWSER_PAGES = 8;

export interface CheckContext {
  /** Where the report files go (RUNNER_TEMP in a workflow). */
  tempDir: string;
  /**
   * The step's id in a workflow (GITHUB_ACTION). RUNNER_TEMP lives as long as the job, so
   * a report of the same domain found there is an earlier step's: this one's takes the id.
   */
  stepId?: string;
  /**
   * What the extraction wrote into the staging directory; without it the directory is
   * listed. A site of 20,000 files listed from disk holds some 10 MB more at the end of
   * the step, where its peak memory is.
   */
  contents?: SiteContents;
  signal?: AbortSignal;
  now?: () => number;
}

/**
 * The report files' path without extension: `static-export-<domain>-readiness`, and in a
 * workflow, where that name is taken by an earlier step of the job, that name with the
 * step's id (`…-readiness-staging`). Without a step (the CLI), the next run replaces it.
 */
async function reportBase(context: CheckContext, domain: string): Promise<string> {
  const plain = path.join(context.tempDir, `static-export-${domain}-readiness`);
  if (context.stepId === undefined) return plain;
  const step = context.stepId.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[_.-]+/, '') || 'step';
  const taken = async (base: string) =>
    (await Promise.all([`${base}.json`, `${base}.sarif`].map(exists))).some(Boolean);
  if (!(await taken(plain))) return plain;
  for (let n = 1; ; n += 1) {
    const base = `${plain}-${step}${n === 1 ? '' : `-${n}`}`;
    if (!(await taken(base))) return base;
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(
    () => true,
    () => false,
  );
}

/**
 * The readiness check of the extracted site, on the staging directory (so a failure
 * leaves `path` untouched). Every deployment type: internal links that lead nowhere.
 * `client-hosted` and `air-gapped`: what the pages load from outside the site (a
 * failure for air-gapped), what they link to outside, and what a browser loading a
 * sample of pages really requests. Writes the full report as JSON and SARIF.
 */
export async function checkReadiness(
  stagingDir: string,
  config: ExportConfig,
  reporter: Reporter,
  record: ExportRecord,
  context: CheckContext,
): Promise<void> {
  const now = context.now ?? Date.now;
  const started = now();
  const external = config.deploymentType !== 'cloud';
  const links = config.brokenLinks !== 'off';
  if (!external && !links) return;
  const listed = context.contents;
  const tree = listed?.directories
    ? SiteTree.of(stagingDir, listed.filePaths, ['', ...listed.directories])
    : await SiteTree.read(stagingDir);
  const scan = await scanSite(tree, {
    allowedHosts: config.allowedHosts,
    external,
    links,
    ...(context.signal ? { signal: context.signal } : {}),
    debug: (message) => reporter.debug(message),
  });

  const unread = scan.unreadFrames;
  if (unread.first !== undefined) {
    reporter.warning(
      `Documents in <iframe srcdoc> nested more than ${MAX_FRAME_DEPTH} deep were not read, in ${count(unread.count, 'place')} (the first inside the <iframe> at ${unread.first.file}, line ${unread.first.line}): what they load and link to is not checked.`,
      annotationAt(config, unread.first.file, unread.first.line, undefined, 'Frames not read'),
    );
  }
  const pass = external ? await browserPass(tree, config, reporter, context.signal) : undefined;
  const findings = findingsFromScan(scan, config.deploymentType);
  if (pass && 'outside' in pass) {
    const fileOf = (page: string) => tree.resolve(page)?.file ?? page.replace(/^\//, '');
    findings.push(...findingsFromBrowser(pass, config.deploymentType, config.allowedHosts, fileOf));
  }
  const readiness: Readiness = {
    deploymentType: config.deploymentType,
    scanned: scan.scanned,
    pages: scan.pages,
    durationMs: now() - started,
    hosts: groupByHost(findings),
    findings,
    findingsDropped: scan.externalDropped,
    metadata: scan.metadata,
    unconfirmedHosts: scan.unconfirmed.size,
    links: {
      checked: scan.links.checked,
      brokenCount: scan.links.brokenCount,
      broken: scan.links.broken,
      severity: config.brokenLinks === 'fail' ? 'error' : 'warning',
    },
    missingFiles: pass && 'outside' in pass ? pass.missing : [],
    serving: {
      extensionless: scan.rules.html,
      directoryTrap: scan.rules.directoryTrap,
      directoryIndex: scan.rules.index,
      needsRewrites: scan.rules.html.count > 0,
      has404Page: tree.files.has('404.html'),
    },
    ...(pass
      ? {
          browser:
            'outside' in pass
              ? { ran: true as const, pages: pass.pages, failed: pass.failed }
              : pass,
        }
      : {}),
  };
  let sarifWritten: Awaited<ReturnType<typeof writeReportFiles>> | undefined;
  // A cloud run with nothing to report leaves nothing behind in the runner's temp directory.
  if (external || readiness.links.brokenCount > 0) {
    const base = await reportBase(context, config.domain);
    readiness.reportFile = `${base}.json`;
    readiness.sarifFile = `${base}.sarif`;
    sarifWritten = await writeReportFiles(readiness, {
      json: readiness.reportFile,
      sarif: readiness.sarifFile,
      sitePath: path.relative(process.cwd(), config.path) || '.',
    });
    reporter.setOutput('findings-file', readiness.reportFile);
    reporter.setOutput('sarif-file', readiness.sarifFile);
  }
  record.readiness = readiness;

  const headline = describe(readiness);
  reporter.info(headline);
  record.checks = [...(record.checks ?? []), headline];
  annotate(readiness, config, reporter);
  const verdict = servingVerdict(readiness.serving);
  if (verdict) {
    reporter.info(
      `Serving: ${verdict} This nginx configuration serves the export as its links expect:\n${nginxConfig(readiness.serving)}`,
    );
  } else if (links) {
    reporter.info(
      'Serving: every internal link names its file or a directory; any static host serves the tree as it is.',
    );
  }
  if (readiness.reportFile)
    reporter.info(`Full report: ${readiness.reportFile} (SARIF: ${readiness.sarifFile}).`);
  if (sarifWritten && sarifWritten.sarifResultsLeftOut > 0)
    reporter.info(
      `SARIF: ${sarifWritten.sarifResults} results, one per URL, the most severe first; ${sarifWritten.sarifResultsLeftOut} more (${sarifWritten.sarifFindingsLeftOut} findings) are left out, as GitHub code scanning keeps no more than ${SARIF_LIMITS.results}. The JSON report lists them all.`,
    );

  const loads = readiness.hosts.filter((h) => h.severity === 'error');
  const problems: string[] = [];
  if (loads.length > 0) {
    problems.push(
      `its pages load from ${loads.length} host(s) outside the site: ${namedHosts(loads, (h) => `${h.host} (${h.count})`)}`,
    );
  }
  if (config.brokenLinks === 'fail' && readiness.links.brokenCount > 0) {
    problems.push(`${readiness.links.brokenCount} internal link(s) lead to no file of the export`);
  }
  if (problems.length > 0) {
    const fixes = [
      loads.length > 0
        ? 'Remove these from the docs (search, AI assistant, analytics and CDNs are unreachable there), or accept hosts you serve inside the network with `allowed-hosts`'
        : undefined,
      config.brokenLinks === 'fail' && readiness.links.brokenCount > 0
        ? 'fix the links, or set `broken-links: warn`'
        : undefined,
    ].filter(Boolean);
    const what =
      config.deploymentType === 'air-gapped' && loads.length > 0
        ? 'an air-gapped deployment'
        : 'deployment';
    throw new ActionError(
      `The site is not ready for ${what}: ${problems.join('; ')}. ${fixes.join('; ')}. The full list is in the job summary and ${readiness.reportFile}; \`path\` was left as it was.`,
    );
  }
}

async function browserPass(
  tree: SiteTree,
  config: ExportConfig,
  reporter: Reporter,
  signal: AbortSignal | undefined,
): Promise<BrowserPass | { ran: false; why: string }> {
  if (config.browserCheck === 'false') return { ran: false, why: '`browser-check` is false' };
  const executablePath = findBrowser();
  const pages = samplePages(tree.pages(), BROWSER_PAGES);
  const why = !executablePath
    ? 'no Chromium found (install chromium-headless-shell, or set STATIC_EXPORT_BROWSER)'
    : pages.length === 0
      ? 'the site has no HTML page'
      : undefined;
  if (why !== undefined || !executablePath) {
    if (config.browserCheck === 'true') throw new ActionError(`browser-check is true, but ${why}.`);
    reporter.info(`Headless browser pass skipped: ${why}.`);
    return { ran: false, why: why ?? '' };
  }
  const pass = await loadPagesInBrowser(tree, {
    executablePath,
    pages,
    ...(signal ? { signal } : {}),
  });
  const hosts = new Set(pass.outside.map((r) => new URL(r.url).host));
  reporter.info(
    `Headless browser pass (${path.basename(executablePath)}): loaded ${pass.pages.length} page(s) served with the export's URL rules; ${pass.outside.length} request(s) to ${hosts.size} host(s) outside the site were blocked; ${pass.missing.length} request(s) for missing files.`,
  );
  for (const failed of pass.failed)
    reporter.warning(`The browser could not load ${failed.page}: ${failed.error}`);
  return pass;
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Hosts a line of the log names (the check's, the failure's): the rest are in the report. */
const HEADLINE_HOSTS = 10;

function namedHosts(
  hosts: HostFinding[],
  name: (host: HostFinding) => string = (h) => h.host,
  limit = HEADLINE_HOSTS,
): string {
  const named = hosts.slice(0, limit).map(name);
  const more = hosts.length - named.length;
  return `${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** The one line that says what the check found, true about where the rest is. */
export function describe(readiness: Readiness): string {
  const loads = readiness.hosts.filter((h) => h.role === 'load');
  const links = readiness.hosts.filter((h) => h.role === 'link');
  const parts: string[] = [];
  if (readiness.deploymentType !== 'cloud') {
    parts.push(
      loads.length === 0
        ? 'nothing is loaded from outside the site'
        : `loads from ${count(loads.length, 'host')} outside the site (${namedHosts(loads)})`,
    );
    if (links.length > 0) parts.push(`links to ${count(links.length, 'outside host')}`);
  }
  parts.push(
    `${count(readiness.links.checked, 'internal link')} checked, ${readiness.links.brokenCount} broken`,
  );
  return `${readiness.deploymentType} check: read ${count(readiness.scanned, 'file')} (${count(readiness.pages, 'page')}) in ${formatDuration(readiness.durationMs)}; ${parts.join('; ')}.`;
}

function annotationAt(
  config: ExportConfig,
  file: string,
  line?: number,
  column?: number,
  title?: string,
): Annotation {
  return {
    ...(title ? { title } : {}),
    file: path.join(config.path, ...file.split('/')),
    ...(line !== undefined ? { startLine: line } : {}),
    ...(column !== undefined ? { startColumn: column } : {}),
  };
}

function hostMessage(host: HostFinding, deploymentType: string): string {
  const where = host.locations.map((l) => `${l.file}${l.line !== undefined ? `:${l.line}` : ''}`);
  const more = host.count - host.locations.length - host.requestedBy.length;
  const seenAt = [
    ...where,
    ...(host.requestedBy.length > 0
      ? [`requested while loading ${host.requestedBy.slice(0, 3).join(', ')}`]
      : []),
  ].join(', ');
  const tail = more > 0 ? `, and ${more} more` : '';
  if (host.role === 'load') {
    return `Loads from ${host.host}, outside the site: ${count(host.count, 'reference')} (${host.vias.slice(0, 3).join('; ')}) at ${seenAt}${tail}.`;
  }
  const consequence =
    deploymentType === 'air-gapped'
      ? ' Readers who click these reach a dead end inside the network.'
      : '';
  return `Links to ${host.host}: ${count(host.count, 'link')} at ${seenAt}${tail}.${consequence}`;
}

/**
 * One annotation per host (loads first), at most ANNOTATIONS_PER_LEVEL per level (one fewer
 * for errors, which leave room for the step's failure); the last names the rest.
 */
function annotate(readiness: Readiness, config: ExportConfig, reporter: Reporter): void {
  const emit = (severity: Severity, message: string, annotation?: Annotation) => {
    if (severity === 'error') reporter.error(message, annotation);
    else if (severity === 'warning') reporter.warning(message, annotation);
    else reporter.notice(message, annotation);
  };
  const where = readiness.reportFile ? ` and in ${readiness.reportFile}` : '';
  for (const severity of ['error', 'warning', 'notice'] as const) {
    const hosts = readiness.hosts.filter((h) => h.severity === severity);
    const brokenHere = readiness.links.severity === severity ? readiness.links.broken : [];
    // An error here always fails the step, whose own error line must stay among those shown.
    const budget = severity === 'error' ? ANNOTATIONS_PER_LEVEL - 1 : ANNOTATIONS_PER_LEVEL;
    const hostSlots = hosts.length > budget ? budget - 1 : hosts.length;
    for (const host of hosts.slice(0, hostSlots)) {
      const first = host.locations[0];
      const file = first?.file ?? host.requestedBy[0];
      emit(
        severity,
        hostMessage(host, readiness.deploymentType),
        file !== undefined
          ? annotationAt(
              config,
              file,
              first?.line,
              first?.column,
              host.role === 'load' ? 'Loads from outside the site' : 'Links outside the site',
            )
          : undefined,
      );
    }
    if (hosts.length > hostSlots) {
      const rest = hosts.slice(hostSlots);
      emit(
        severity,
        `${count(rest.length, 'more host')} outside the site: ${namedHosts(rest, (h) => `${h.host} (${h.count} ${h.role === 'load' ? 'loads' : 'links'})`, 50)}. Each is listed in the job summary${where}.`,
        { title: 'More hosts outside the site' },
      );
    }
    const brokenSlots = Math.max(0, budget - Math.min(hosts.length, budget));
    const shown = brokenHere.slice(
      0,
      brokenHere.length > brokenSlots ? Math.max(0, brokenSlots - 1) : brokenSlots,
    );
    for (const broken of shown) {
      emit(
        severity,
        `Broken link ${broken.url}: no file of the export serves ${broken.target}.`,
        annotationAt(config, broken.file, broken.line, broken.column, 'Broken internal link'),
      );
    }
    const left =
      readiness.links.severity === severity ? readiness.links.brokenCount - shown.length : 0;
    if (left > 0) {
      emit(
        severity,
        `${count(left, shown.length > 0 ? 'more broken internal link' : 'broken internal link')}, listed in the job summary${where}.`,
        { title: 'Broken internal links' },
      );
    }
  }
  if (readiness.missingFiles.length > 0) {
    const first = readiness.missingFiles.slice(0, 5);
    reporter.warning(
      `While loading pages the browser requested ${count(readiness.missingFiles.length, 'path')} that no file of the export serves: ${first.map((m) => `${m.path} (from ${m.page})`).join(', ')}${readiness.missingFiles.length > first.length ? ', …' : ''}.`,
      { title: 'Missing files' },
    );
  }
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExportConfig } from '../config.js';
import { ActionError } from '../errors.js';
import type { ExportRecord, Reporter } from '../report.js';
import { findBrowser, loadOffline } from './browser.js';
import { type ExternalReference, externalHost, isAllowedHost } from './references.js';
import { scanSite } from './scan.js';

/** Annotations beyond this many are summarized: CI logs cap them anyway. */
const MAX_ANNOTATIONS = 50;

/**
 * The readiness check of the deployment table: an air-gapped deployment cannot reach
 * anything outside the site (no search, AI assistant or analytics from the vendor's
 * cloud), so every such reference fails the step; client-hosted ones are warned about.
 * Runs on the staging directory, so a failure leaves `path` untouched.
 */
export async function checkSiteIsSelfContained(
  stagingDir: string,
  config: ExportConfig,
  reporter: Reporter,
  record: ExportRecord,
): Promise<void> {
  const { scanned, references } = await scanSite(stagingDir, config.allowedHosts);
  const hosts = countHosts(references);
  const allowed = config.allowedHosts.length ? ` (allowed: ${config.allowedHosts.join(', ')})` : '';
  const verdict =
    references.length === 0
      ? `no reference leaves the site${allowed}`
      : `${references.length} reference(s) to ${hosts.length} host(s) outside the site: ${hosts
          .slice(0, 5)
          .map(([host, count]) => `${host} ×${count}`)
          .join(', ')}${hosts.length > 5 ? ', …' : ''}`;
  const line = `${config.deploymentType} check: scanned ${scanned} HTML, CSS and JavaScript files; ${verdict}.`;
  reporter.info(line);
  record.checks = [...(record.checks ?? []), line];
  record.externalReferences = references;

  const annotate = config.deploymentType === 'air-gapped' ? reporter.error : reporter.warning;
  for (const reference of references.slice(0, MAX_ANNOTATIONS)) {
    annotate.call(
      reporter,
      `${reference.url} (${reference.kind}) reaches ${reference.host}, outside the site`,
      {
        title: 'Reference outside the site',
        file: path.join(config.path, ...reference.file.split('/')),
        startLine: reference.line,
        startColumn: reference.column,
      },
    );
  }
  if (references.length > MAX_ANNOTATIONS) {
    reporter.info(`… and ${references.length - MAX_ANNOTATIONS} more, listed in the job summary.`);
  }

  const blocked = await loadInBrowser(stagingDir, config, reporter, record);
  if (config.deploymentType === 'air-gapped' && (references.length > 0 || blocked > 0)) {
    const what =
      references.length > 0
        ? verdict
        : `${blocked} request(s) outside the site when index.html loads`;
    throw new ActionError(
      `The site is not ready for an air-gapped deployment: ${what}. Remove these references from the docs (search, AI assistant and analytics are unavailable there), or accept hosts you serve inside the network with allowed-hosts. path was left as it was.`,
    );
  }
}

/**
 * The optional headless check: index.html loaded over file:// with the network refused.
 * Returns how many requests left the site.
 */
async function loadInBrowser(
  stagingDir: string,
  config: ExportConfig,
  reporter: Reporter,
  record: ExportRecord,
): Promise<number> {
  if (config.browserCheck === 'false') return 0;
  const index = path.join(stagingDir, 'index.html');
  const browser = findBrowser();
  if (!browser || !existsSync(index)) {
    const why = !browser
      ? 'no Chromium found (install chromium-headless-shell, or set STATIC_EXPORT_BROWSER)'
      : 'the site has no index.html';
    if (config.browserCheck === 'true') throw new ActionError(`browser-check is true, but ${why}.`);
    reporter.info(`Headless browser check skipped: ${why}.`);
    return 0;
  }
  const findings = await loadOffline(browser, index);
  const shown = (url: string) =>
    url.startsWith('file:')
      ? path.join(config.path, path.relative(stagingDir, fileURLToPath(url)))
      : url;
  const blocked = findings.filter(
    (f) => f.kind === 'blocked' && !isAllowedHost(externalHost(f.url) ?? '', config.allowedHosts),
  );
  const missing = findings.filter((f) => f.kind === 'missing');
  const line = `Headless browser check (${path.basename(browser)}, network refused): index.html made ${blocked.length} request(s) outside the site and ${missing.length} to missing files.`;
  reporter.info(line);
  record.checks = [...(record.checks ?? []), line];
  const annotate = config.deploymentType === 'air-gapped' ? reporter.error : reporter.warning;
  for (const finding of blocked.slice(0, MAX_ANNOTATIONS)) {
    annotate.call(reporter, `Loading index.html requested ${finding.url}, outside the site`, {
      title: 'Request outside the site',
      file: path.join(config.path, 'index.html'),
    });
  }
  for (const finding of missing.slice(0, MAX_ANNOTATIONS)) {
    reporter.warning(
      `Loading index.html requested ${shown(finding.url)}, which the export does not contain`,
      {
        title: 'Missing file',
        file: path.join(config.path, 'index.html'),
      },
    );
  }
  return blocked.length;
}

function countHosts(references: readonly ExternalReference[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const reference of references)
    counts.set(reference.host, (counts.get(reference.host) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

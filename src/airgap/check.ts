import path from 'node:path';
import type { ExportConfig } from '../config.js';
import { ActionError } from '../errors.js';
import type { ExportRecord, Reporter } from '../report.js';
import type { ExternalReference } from './references.js';
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
  if (references.length === 0) return;

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
  if (config.deploymentType === 'air-gapped') {
    throw new ActionError(
      `The site is not ready for an air-gapped deployment: ${verdict}. Remove these references from the docs (search, AI assistant and analytics are unavailable there), or accept hosts you serve inside the network with allowed-hosts. path was left as it was.`,
    );
  }
}

function countHosts(references: readonly ExternalReference[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const reference of references)
    counts.set(reference.host, (counts.get(reference.host) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

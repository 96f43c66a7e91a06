import type { Location, Log, ReportingDescriptor, Result } from 'sarif';
import { writeFileAtomic } from '../deliver/place.js';
import { VERSION } from '../version.js';
import type { Readiness, Severity } from './findings.js';

/** A rule's help, shown with each alert in code scanning: plain, and as Markdown. */
function help(markdown: string): { text: string; markdown: string } {
  return { text: markdown.replace(/`/g, ''), markdown };
}

const RULES: ReportingDescriptor[] = [
  {
    id: 'outside-load',
    name: 'LoadOutsideTheSite',
    shortDescription: { text: 'The page loads something from outside the site' },
    fullDescription: {
      text: 'A script, stylesheet, image, frame, font, preconnect or request target on a host outside the site. An air-gapped deployment cannot reach it.',
    },
    help: help(
      'Serve the file from the site itself (self-host the script, stylesheet, font or image, and reference it by a path of the site), or remove the reference. If the network the site is deployed in reaches the host, list it in `allowed-hosts`.',
    ),
  },
  {
    id: 'outside-link',
    name: 'LinkOutsideTheSite',
    shortDescription: { text: 'A link leads outside the site' },
    fullDescription: {
      text: 'An <a href> or form target on a host outside the site: readers who follow it in an air-gapped network reach a dead end.',
    },
    help: help(
      'Point the link at a page of the site, or remove it. If the network the site is deployed in reaches the host, list it in `allowed-hosts`. A link outside the site never fails the step.',
    ),
  },
  {
    id: 'broken-link',
    name: 'BrokenInternalLink',
    shortDescription: { text: 'An internal link resolves to no file of the export' },
    fullDescription: {
      text: 'The link resolves, under the export URL rules (file, file.html, directory/index.html), to no file.',
    },
    help: help(
      'Fix the link, or add the page it names. `broken-links: fail` fails the step on a broken link; `broken-links: off` turns the check off.',
    ),
  },
];

const LEVEL: Record<Severity, Result.level> = {
  error: 'error',
  warning: 'warning',
  notice: 'note',
};

/**
 * A relative path as the URI reference SARIF 2.1.0 asks for: each segment
 * percent-encoded, so a space no longer fails upload-sarif's schema check and a `#` or
 * `%` in a file name is not read as a fragment or an escape.
 */
export function relativeUri(relativePath: string): string {
  return relativePath.split('/').map(encodeURIComponent).join('/');
}

/**
 * The full report as JSON (every finding, grouped hosts, broken links, serving facts)
 * and as SARIF 2.1.0 for code scanning: one result per URL, within GitHub's limits
 * (`SARIF_LIMITS`), the run's properties counting what is left out. `sitePath` prefixes
 * file locations so that they point into the workspace (`site/index.html`).
 */
export async function writeReportFiles(
  readiness: Readiness,
  files: { json: string; sarif: string; sitePath: string },
): Promise<{ sarifResults: number; sarifResultsLeftOut: number; sarifFindingsLeftOut: number }> {
  const json = {
    version: 1,
    deploymentType: readiness.deploymentType,
    scanned: readiness.scanned,
    pages: readiness.pages,
    hosts: readiness.hosts,
    findings: readiness.findings,
    findingsNotListed: readiness.findingsDropped,
    metadataReferences: readiness.metadata,
    brokenLinks: {
      checked: readiness.links.checked,
      count: readiness.links.brokenCount,
      list: readiness.links.broken,
    },
    missingFiles: readiness.missingFiles,
    serving: readiness.serving,
    browser: readiness.browser,
  };
  await writeFileAtomic(files.json, `${JSON.stringify(json, null, 2)}\n`, 0o644);

  const location = (file: string, line?: number, column?: number): Location => ({
    physicalLocation: {
      artifactLocation: { uri: relativeUri(`${files.sitePath}/${file}`.replace(/^\.\//, '')) },
      ...(line !== undefined
        ? { region: { startLine: line, ...(column !== undefined ? { startColumn: column } : {}) } }
        : {}),
    },
  });
  const listed = sarifResults([
    ...readiness.findings.map((f) => ({
      key: `${f.role}\0${f.severity}\0${f.url}`,
      ruleId: f.role === 'load' ? 'outside-load' : 'outside-link',
      severity: f.severity,
      text: `${f.url} (${f.via}) reaches ${f.host}, outside the site.`,
      location: () => location(f.file, f.line, f.column),
    })),
    ...readiness.links.broken.map((b) => ({
      key: `broken\0${b.url}\0${b.target}`,
      ruleId: 'broken-link',
      severity: readiness.links.severity,
      text: `${b.url} resolves to ${b.target}, which no file of the export serves.`,
      location: () => location(b.file, b.line, b.column),
    })),
  ]);
  const sarif: Log = {
    version: '2.1.0',
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    runs: [
      {
        tool: {
          driver: {
            name: 'static-export deployment readiness',
            semanticVersion: VERSION,
            rules: RULES,
          },
        },
        results: listed.results,
        properties: {
          findings: readiness.findings.length + readiness.links.broken.length,
          findingsNotListed:
            listed.findingsLeftOut +
            readiness.findingsDropped +
            (readiness.links.brokenCount - readiness.links.broken.length),
          resultsNotListed: listed.resultsLeftOut,
          locationsNotListed: listed.locationsLeftOut,
        },
      },
    ],
  };
  await writeFileAtomic(files.sarif, `${JSON.stringify(sarif)}\n`, 0o644);
  return {
    sarifResults: listed.results.length,
    sarifResultsLeftOut: listed.resultsLeftOut,
    sarifFindingsLeftOut: listed.findingsLeftOut,
  };
}

/**
 * GitHub code scanning rejects a run of more than 25,000 results or a result of more than
 * 1,000 locations, keeps 5,000 results (the most severe) and shows 100 locations of each.
 * The locations of all results together are bounded too, to keep the file within the
 * 10 MB an upload may have.
 */
export const SARIF_LIMITS = { results: 5_000, locationsPerResult: 100, locations: 50_000 };

interface SarifEntry {
  /** Entries with the same key are one result: one URL, role and severity. */
  key: string;
  ruleId: string;
  severity: Severity;
  text: string;
  location: () => Location;
}

const SEVERITY_ORDER: Severity[] = ['error', 'warning', 'notice'];

/**
 * One result per URL (and rule and level) with the places it is found as its locations,
 * errors first, then warnings, then notices, up to GitHub's limits; with how many results,
 * findings and locations were left out.
 */
function sarifResults(entries: readonly SarifEntry[]) {
  const groups = new Map<string, SarifEntry[]>();
  for (const entry of entries) {
    const group = groups.get(entry.key);
    if (group) group.push(entry);
    else groups.set(entry.key, [entry]);
  }
  const ordered = SEVERITY_ORDER.flatMap((severity) =>
    [...groups.values()].filter((group) => group[0]?.severity === severity),
  );
  const kept = ordered.slice(0, SARIF_LIMITS.results);
  // Every result has its first location; more go to the first results while the budget lasts.
  let spare = SARIF_LIMITS.locations - kept.length;
  let locationsLeftOut = 0;
  const results = kept.map((group): Result => {
    const first = group[0] as SarifEntry;
    const more = Math.max(0, Math.min(group.length, SARIF_LIMITS.locationsPerResult) - 1);
    const extra = Math.min(more, Math.max(0, spare));
    spare -= extra;
    const shown = 1 + extra;
    locationsLeftOut += group.length - shown;
    const places =
      group.length === 1
        ? ''
        : ` Found in ${group.length} places${shown < group.length ? `, the first ${shown} listed` : ''}.`;
    return {
      ruleId: first.ruleId,
      level: LEVEL[first.severity],
      message: { text: `${first.text}${places}` },
      locations: group.slice(0, shown).map((entry) => entry.location()),
    };
  });
  const left = ordered.slice(SARIF_LIMITS.results);
  return {
    results,
    resultsLeftOut: left.length,
    findingsLeftOut: left.reduce((n, group) => n + group.length, 0),
    locationsLeftOut,
  };
}

import type { Log, ReportingDescriptor, Result } from 'sarif';
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
 * and as SARIF 2.1.0 for code scanning. `sitePath` prefixes file locations so that they
 * point into the workspace (`site/index.html`).
 */
export async function writeReportFiles(
  readiness: Readiness,
  files: { json: string; sarif: string; sitePath: string },
): Promise<void> {
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

  const location = (file: string, line?: number, column?: number) => ({
    physicalLocation: {
      artifactLocation: { uri: relativeUri(`${files.sitePath}/${file}`.replace(/^\.\//, '')) },
      ...(line !== undefined
        ? { region: { startLine: line, ...(column !== undefined ? { startColumn: column } : {}) } }
        : {}),
    },
  });
  const results: Result[] = [
    ...readiness.findings.map((f): Result => ({
      ruleId: f.role === 'load' ? 'outside-load' : 'outside-link',
      level: LEVEL[f.severity],
      message: { text: `${f.url} (${f.via}) reaches ${f.host}, outside the site.` },
      locations: [location(f.file, f.line, f.column)],
    })),
    ...readiness.links.broken.map((b): Result => ({
      ruleId: 'broken-link',
      level: LEVEL[readiness.links.severity],
      message: { text: `${b.url} resolves to ${b.target}, which no file of the export serves.` },
      locations: [location(b.file, b.line, b.column)],
    })),
  ];
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
        results,
      },
    ],
  };
  await writeFileAtomic(files.sarif, `${JSON.stringify(sarif)}\n`, 0o644);
}

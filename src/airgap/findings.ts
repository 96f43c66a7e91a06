import type { DeploymentType } from '../config.js';
import type { BrowserPass, MissingFile } from './browser.js';
import { type ExternalReference, externalHost, isAllowedHost } from './references.js';
import type { BrokenLink, RuleUse, ScanResult } from './scan.js';

/**
 * Hosts named in scripts with no evidence of a request, kept at most: only their number
 * is reported, and a page may name millions.
 */
export const MAX_UNCONFIRMED_HOSTS = 10_000;

export type Severity = 'error' | 'warning' | 'notice';

/** Where a host was found: a file and line of the site, or a page the browser loaded. */
export interface Location {
  file: string;
  line?: number;
  column?: number;
  url: string;
}

/** Everything found about one host outside the site, for one role. */
export interface HostFinding {
  host: string;
  role: 'load' | 'link';
  severity: Severity;
  count: number;
  /** The constructs that hold it (`<script src>`, `next/script (afterInteractive)`). */
  vias: string[];
  /** The first few places it was found. */
  locations: Location[];
  /** Pages whose loading in the browser requested it. */
  requestedBy: string[];
}

/** A reference outside the site, one per line of the full report. */
export interface Finding extends Location {
  host: string;
  role: 'load' | 'link';
  severity: Severity;
  via: string;
  /** `scan` (read in a file) or `browser` (requested while a page loaded). */
  source: 'scan' | 'browser';
}

export interface Readiness {
  deploymentType: DeploymentType;
  scanned: number;
  pages: number;
  durationMs: number;
  /** Hosts outside the site, loads first, then by count. */
  hosts: HostFinding[];
  /** Every finding (up to the kept limit), for the JSON and SARIF files. */
  findings: Finding[];
  findingsDropped: number;
  metadata: number;
  /** Hosts named only in script strings with no evidence of a request (up to MAX_UNCONFIRMED_HOSTS). */
  unconfirmedHosts: number;
  links: { checked: number; brokenCount: number; broken: BrokenLink[]; severity: Severity };
  missingFiles: MissingFile[];
  serving: Serving;
  browser?:
    { ran: true; pages: string[]; failed: BrowserPass['failed'] } | { ran: false; why: string };
  reportFile?: string;
  sarifFile?: string;
}

export interface Serving {
  /** Internal links that need `.html` appended: a plain static host answers 404. */
  extensionless: RuleUse;
  /** …of which a directory of the same name exists: `$uri/` before `$uri.html` answers 403. */
  directoryTrap: RuleUse;
  /** Internal links to a directory's index.html. */
  directoryIndex: RuleUse;
  needsRewrites: boolean;
  has404Page: boolean;
}

/** How much each kind of finding weighs in a deployment type. */
export function severityOf(deploymentType: DeploymentType, role: 'load' | 'link'): Severity {
  if (deploymentType === 'air-gapped') return role === 'load' ? 'error' : 'warning';
  return role === 'load' ? 'warning' : 'notice';
}

const LOCATIONS_KEPT = 3;

/** Groups what the scan and the browser found by host: loads first, then by count. */
export function groupByHost(findings: readonly Finding[]): HostFinding[] {
  const groups = new Map<string, HostFinding>();
  // Each group's vias as a set too: a page may name any number of custom tags and
  // `on*` attributes, and a search of the list for each would be quadratic.
  const viasSeen = new Map<HostFinding, Set<string>>();
  for (const finding of findings) {
    const key = `${finding.role}\u0000${finding.host}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        host: finding.host,
        role: finding.role,
        severity: finding.severity,
        count: 0,
        vias: [],
        locations: [],
        requestedBy: [],
      };
      groups.set(key, group);
    }
    group.count += 1;
    let vias = viasSeen.get(group);
    if (vias === undefined) viasSeen.set(group, (vias = new Set()));
    if (!vias.has(finding.via)) {
      vias.add(finding.via);
      group.vias.push(finding.via);
    }
    if (finding.source === 'browser') {
      if (!group.requestedBy.includes(finding.file)) group.requestedBy.push(finding.file);
    } else if (group.locations.length < LOCATIONS_KEPT) {
      const { file, line, column, url } = finding;
      group.locations.push({
        file,
        ...(line !== undefined ? { line } : {}),
        ...(column !== undefined ? { column } : {}),
        url,
      });
    }
  }
  const rank = (g: HostFinding) => (g.role === 'load' ? 0 : 1);
  return [...groups.values()].sort(
    (a, b) => rank(a) - rank(b) || b.count - a.count || a.host.localeCompare(b.host),
  );
}

export function findingsFromScan(scan: ScanResult, deploymentType: DeploymentType): Finding[] {
  return scan.external
    .filter((r): r is ExternalReference & { role: 'load' | 'link' } => r.role !== 'metadata')
    .map((r) => ({
      file: r.file,
      line: r.line,
      column: r.column,
      url: r.url,
      host: r.host,
      role: r.role,
      severity: severityOf(deploymentType, r.role),
      via: r.via,
      source: 'scan',
    }));
}

/** Requests the browser made outside the site, as load findings located at their page. */
export function findingsFromBrowser(
  pass: BrowserPass,
  deploymentType: DeploymentType,
  allowedHosts: readonly string[],
  fileOf: (page: string) => string,
): Finding[] {
  const findings: Finding[] = [];
  for (const request of pass.outside) {
    const host = externalHost(request.url);
    if (host === undefined || isAllowedHost(host, allowedHosts)) continue;
    findings.push({
      file: fileOf(request.page),
      url: request.url,
      host,
      role: 'load',
      severity: severityOf(deploymentType, 'load'),
      via: `browser: ${request.resourceType}`,
      source: 'browser',
    });
  }
  return findings;
}

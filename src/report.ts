import type { Readiness } from './airgap/findings.js';
import { formatBytes, formatDuration } from './duration.js';

/** The outputs of action-interface.md: names are fixed. */
export const OUTPUT_NAMES = [
  'job-id',
  'status',
  'page-count',
  'bundle-url',
  'expires-at',
  'size-bytes',
  'sha256',
  'archive-path',
  'path',
  'artifact-id',
  'helm-values-file',
  'agent-job-id',
  'agent-status',
  'pr-link',
  'findings-file',
  'sarif-file',
] as const;

export type OutputName = (typeof OUTPUT_NAMES)[number];

export interface Annotation {
  title?: string;
  file?: string;
  startLine?: number;
  startColumn?: number;
}

/** Live progress for a terminal; line-oriented logs ignore it. */
export interface ProgressState {
  phase: 'export' | 'download' | 'agent';
  status?: string;
  percent?: number;
  pages?: number;
  etaMs?: number;
  bytes?: number;
  totalBytes?: number;
}

/**
 * Where the core writes what a person reads and what later steps consume. The GitHub
 * adapter maps it onto @actions/core, the CLI onto the terminal; the core knows neither.
 */
export interface Reporter {
  info(message: string): void;
  notice(message: string, annotation?: Annotation): void;
  warning(message: string, annotation?: Annotation): void;
  /** An error annotation that does not by itself end the run. */
  error(message: string, annotation?: Annotation): void;
  debug(message: string): void;
  group<T>(title: string, fn: () => Promise<T>): Promise<T>;
  setOutput(name: OutputName, value: string): void;
  /** Hides a value in every later log line. */
  mask(value: string): void;
  progress?(state: ProgressState): void;
}

/** What happened during an export run, filled in as it goes, for the summary. */
export interface ExportRecord {
  command: 'export';
  domain: string;
  startedAt: number;
  finishedAt?: number;
  jobId?: string;
  status?: string;
  pageCount?: number;
  error?: string;
  bundleUrl?: string;
  bundleUrlMasked?: boolean;
  expiresAt?: Date;
  sizeBytes?: number;
  sha256?: string;
  etagVerified?: boolean;
  format?: string;
  files?: number;
  extractedBytes?: number;
  sitePath?: string;
  archivePath?: string;
  artifactId?: string;
  helmValuesFile?: string;
  /** The export manifest written beside or inside the export. */
  manifestPath?: string;
  /** Job id of the earlier export that `path` held and the new one replaced. */
  replacedExport?: string;
  /** What `path` held when it was replaced with `overwrite` (not an export of this action). */
  replacedForeign?: string;
  checks?: string[];
  /** What the readiness check found: hosts outside the site, broken links, serving. */
  readiness?: Readiness;
  /** Why the last failed call was tried again (explains a timeout). */
  lastRetry?: string;
}

/** What happened during an agent run, for the summary. */
export interface AgentRecord {
  command: 'agent';
  projectId: string;
  prompt: string;
  startedAt: number;
  finishedAt?: number;
  jobId?: string;
  status?: string;
  prLink?: string;
  error?: string;
  repository?: string;
  ref?: string;
  model?: string;
  createdAt?: Date;
  archivedAt?: Date;
  waited: boolean;
  /** Why the last failed call was tried again (explains a timeout). */
  lastRetry?: string;
}

export type RunRecord = ExportRecord | AgentRecord;

/** What was going on when the run's timeout passed, and what the user can do. */
export function describeTimeout(record: RunRecord, timeoutMs: number): string {
  const limit = `the ${formatDuration(timeoutMs)} timeout passed${record.lastRetry ? ` (last refusal: ${record.lastRetry})` : ''}`;
  if (record.command === 'agent') {
    return record.jobId
      ? `Agent job ${record.jobId} was still ${record.status ?? 'active'} when ${limit}. It keeps running on the server and may still open a pull request.`
      : `No agent job could be created before ${limit}.`;
  }
  if (record.jobId === undefined)
    return `The export of ${record.domain} could not be started before ${limit}.`;
  if (record.status !== 'completed') {
    return `Export job ${record.jobId} was still ${record.status ?? 'queued'} when ${limit}. It keeps running on the server: raise timeout, or run again later.`;
  }
  return `The bundle of export job ${record.jobId} could not be ${record.bundleUrl ? 'downloaded' : 'obtained'} before ${limit}; path was left as it was. Raise timeout for large exports.`;
}

/** What a cancelled run leaves behind, for the cancellation message. */
export function describeCancellation(record: RunRecord): string {
  if (record.command === 'agent') {
    return record.jobId
      ? `Agent job ${record.jobId} keeps running on the server: the API has no way to cancel it.`
      : 'No agent job was created.';
  }
  if (record.sitePath ?? record.archivePath) {
    return `The export was already in place in ${record.sitePath ?? record.archivePath}; temporary files were removed.`;
  }
  return record.jobId
    ? `Export job ${record.jobId} may keep running on the server; temporary files were removed and path was left as it was.`
    : 'Nothing was started; path was left as it was.';
}

/** The first line of a prompt, shortened: enough to recognize it in a log. */
export function promptHeadline(prompt: string, max = 80): string {
  const first = prompt.trim().split(/\r?\n/, 1)[0] ?? '';
  const lines = prompt.trim().split(/\r?\n/).length;
  const shortened = first.length > max ? `${first.slice(0, max - 1)}…` : first;
  return lines > 1 ? `${shortened} (+${lines - 1} more line${lines > 2 ? 's' : ''})` : shortened;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

function table(rows: [string, string | undefined][]): string {
  const kept = rows.filter((row): row is [string, string] => row[1] !== undefined && row[1] !== '');
  return ['| | |', '|---|---|', ...kept.map(([k, v]) => `| ${k} | ${cell(v)} |`)].join('\n');
}

/** The job summary of an export run, whether it succeeded or not. */
export function renderExportSummary(record: ExportRecord, failure?: string): string {
  const ok = failure === undefined;
  const heading = ok
    ? `### ✅ Static export of ${record.domain}`
    : `### ❌ Static export of ${record.domain} failed`;
  const duration =
    record.finishedAt !== undefined
      ? formatDuration(record.finishedAt - record.startedAt)
      : undefined;
  const where = record.sitePath ?? record.archivePath;
  const rows: [string, string | undefined][] = [
    ['Domain', record.domain],
    ['Job', record.jobId ? code(record.jobId) : undefined],
    ['Status', record.status],
    ['Pages', record.pageCount !== undefined ? String(record.pageCount) : undefined],
    ['Duration', duration],
    [
      'Archive',
      record.sizeBytes !== undefined
        ? `${formatBytes(record.sizeBytes)}${record.format ? ` ${record.format}` : ''}${record.files !== undefined ? `, ${record.files} files` : ''}`
        : undefined,
    ],
    [
      'SHA-256',
      record.sha256
        ? `${code(record.sha256)}${record.etagVerified ? ' (matches the storage ETag)' : ''}`
        : undefined,
    ],
    ['Link expires', record.expiresAt?.toISOString()],
    [
      'Bundle link',
      record.bundleUrl && !record.bundleUrlMasked
        ? `[download](${record.bundleUrl})`
        : record.bundleUrl
          ? '(masked)'
          : undefined,
    ],
    [record.sitePath ? 'Site' : 'Archive file', where ? code(where) : undefined],
    [
      'Replaced',
      record.replacedForeign
        ? `⚠️ a directory this action did not write (it ${record.replacedForeign}), because overwrite is true`
        : record.replacedExport
          ? `the earlier export (job ${code(record.replacedExport)})`
          : undefined,
    ],
    ['Artifact', record.artifactId ? `id ${record.artifactId}` : undefined],
    ['Helm values', record.helmValuesFile ? code(record.helmValuesFile) : undefined],
  ];
  const parts = [heading, '', table(rows)];
  if (record.checks?.length) parts.push('', ...record.checks.map((c) => `- ${c}`));
  if (record.readiness) parts.push('', renderReadiness(record.readiness));
  if (!ok) parts.push('', `**Error:** ${cell(failure)}`);
  return `${parts.join('\n')}\n`;
}

/** Rows of the hosts table the summary holds; the rest are named in one line. */
const SUMMARY_HOST_ROWS = 300;
const SUMMARY_BROKEN_ROWS = 50;

/** The readiness part of the summary: every host outside the site, broken links, serving. */
export function renderReadiness(readiness: Readiness): string {
  const parts: string[] = [];
  const { hosts } = readiness;
  if (hosts.length > 0) {
    const level = { error: '❌ error', warning: '⚠️ warning', notice: 'ℹ️ notice' };
    parts.push(
      `#### Hosts outside the site (${hosts.length})`,
      '',
      '| Host | What | Level | Count | Found in |',
      '|---|---|---|---|---|',
      ...hosts.slice(0, SUMMARY_HOST_ROWS).map((h) => {
        const where = [
          ...h.locations.map((l) => code(`${l.file}${l.line !== undefined ? `:${l.line}` : ''}`)),
          ...(h.requestedBy.length > 0
            ? [`browser: ${h.requestedBy.slice(0, 3).map(code).join(', ')}`]
            : []),
        ].join(', ');
        const what = `${h.role === 'load' ? 'loads' : 'links'} (${h.vias.slice(0, 3).join('; ')})`;
        return `| ${code(h.host)} | ${cell(what)} | ${level[h.severity]} | ${h.count} | ${cell(where)} |`;
      }),
    );
    if (hosts.length > SUMMARY_HOST_ROWS) {
      parts.push(
        '',
        `Also: ${hosts
          .slice(SUMMARY_HOST_ROWS)
          .map((h) => `${code(h.host)} (${h.count})`)
          .join(', ')}.`,
      );
    }
  }
  const extras = [
    readiness.metadata > 0
      ? `${readiness.metadata} metadata reference(s) (canonical, og:*, JSON-LD) name hosts outside the site; browsers do not load them`
      : undefined,
    readiness.unconfirmedHosts > 0
      ? `URL strings in scripts name ${readiness.unconfirmedHosts} more host(s) with no sign that they are requested (error-documentation links, parser bases); not counted`
      : undefined,
  ].filter((line): line is string => line !== undefined);
  if (extras.length > 0) parts.push('', ...extras.map((line) => `- ${line}`));

  const { links } = readiness;
  parts.push('', `#### Internal links: ${links.brokenCount} broken of ${links.checked}`);
  if (links.broken.length > 0) {
    parts.push(
      '',
      '| File | Line | Link | Resolves to |',
      '|---|---|---|---|',
      ...links.broken
        .slice(0, SUMMARY_BROKEN_ROWS)
        .map((b) => `| ${code(b.file)} | ${b.line} | ${code(b.url)} | ${code(b.target)} |`),
    );
    if (links.brokenCount > SUMMARY_BROKEN_ROWS) {
      parts.push('', `… and ${links.brokenCount - SUMMARY_BROKEN_ROWS} more, in the full report.`);
    }
  }
  if (readiness.missingFiles.length > 0) {
    parts.push(
      '',
      `The browser requested ${readiness.missingFiles.length} path(s) no file serves: ${readiness.missingFiles
        .slice(0, 10)
        .map((m) => `${code(m.path)} (from ${code(m.page)})`)
        .join(', ')}.`,
    );
  }
  const { serving } = readiness;
  if (serving.needsRewrites) {
    parts.push(
      '',
      `#### Serving`,
      '',
      `${serving.extensionless.count} internal link(s) leave out \`.html\`${serving.extensionless.example ? ` (e.g. ${code(serving.extensionless.example.url)} → ${code(serving.extensionless.example.served)})` : ''}: a plain static host answers 404 for them.${serving.directoryTrap.count > 0 ? ` ${serving.directoryTrap.count} also have a directory of the same name, so \`try_files $uri $uri/ $uri.html\` answers 403.` : ''} With nginx:`,
      '',
      '```nginx',
      'location / {',
      '    try_files $uri $uri.html $uri/ =404;',
      '}',
      '```',
    );
  }
  if (readiness.reportFile) {
    parts.push(
      '',
      `Full report: ${code(readiness.reportFile)}; SARIF: ${code(readiness.sarifFile ?? '')}.`,
    );
  }
  return parts.join('\n');
}

/** The job summary of an agent run. */
export function renderAgentSummary(record: AgentRecord, failure?: string): string {
  const ok = failure === undefined;
  const heading = ok
    ? `### ✅ Agent job in ${record.projectId}`
    : `### ❌ Agent job in ${record.projectId} failed`;
  const duration =
    record.finishedAt !== undefined
      ? formatDuration(record.finishedAt - record.startedAt)
      : undefined;
  const rows: [string, string | undefined][] = [
    ['Prompt', promptHeadline(record.prompt)],
    ['Job', record.jobId ? code(record.jobId) : undefined],
    ['Status', record.status],
    [
      'Pull request',
      record.prLink ??
        (record.status === 'completed' ? 'none (the agent changed no files)' : undefined),
    ],
    [
      'Repository',
      record.repository ? `${record.repository}${record.ref ? ` @ ${record.ref}` : ''}` : undefined,
    ],
    ['Model', record.model],
    ['Created', record.createdAt?.toISOString()],
    ['Archived', record.archivedAt?.toISOString()],
    ['Duration', duration],
  ];
  const parts = [heading, '', table(rows)];
  if (!ok) parts.push('', `**Error:** ${cell(failure)}`);
  return `${parts.join('\n')}\n`;
}

/** The job summary of any run. */
export function renderSummary(record: RunRecord, failure?: string): string {
  return record.command === 'export'
    ? renderExportSummary(record, failure)
    : renderAgentSummary(record, failure);
}

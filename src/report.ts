import path from 'node:path';
import { MAX_UNCONFIRMED_HOSTS, type Readiness } from './airgap/findings.js';
import { AGENT_FINAL_STATUSES } from './api/schemas.js';
import type { ChangeReport, PageChange, PageMove } from './changes/compare.js';
import { DEFAULTS } from './config.js';
import { formatBytes, formatDuration, parseDuration } from './duration.js';
import { safeDecode } from './net.js';

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
  'agent-branch',
  'agent-repository',
  'agent-model',
  'findings-file',
  'sarif-file',
  'page-url',
  'pages-added',
  'pages-removed',
  'pages-moved',
  'pages-changed',
  'pages-navigation-changed',
  'assets-changed',
  'changes-file',
] as const;

export type OutputName = (typeof OUTPUT_NAMES)[number];

/** The outputs an agent run sets; every other one is an export's. */
export const AGENT_OUTPUT_NAMES: readonly OutputName[] = [
  'agent-job-id',
  'agent-status',
  'pr-link',
  'agent-branch',
  'agent-repository',
  'agent-model',
];

/** The outputs `command` can set. */
export function outputsOf(command: 'export' | 'agent'): OutputName[] {
  return OUTPUT_NAMES.filter((name) => AGENT_OUTPUT_NAMES.includes(name) === (command === 'agent'));
}

/** How each output is typed in the CLI's --json (the runner passes every output as a string). */
export const OUTPUT_TYPES: Partial<Record<OutputName, 'number' | 'boolean'>> = {
  'page-count': 'number',
  'size-bytes': 'number',
  'artifact-id': 'number',
  'pages-added': 'number',
  'pages-removed': 'number',
  'pages-moved': 'number',
  'pages-changed': 'number',
  'pages-navigation-changed': 'number',
  'assets-changed': 'number',
};

/** An output as JSON: numbers as numbers, booleans as booleans, the rest as strings. */
export function typedOutput(name: OutputName, value: string): string | number | boolean {
  const type = OUTPUT_TYPES[name];
  if (type === 'number' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** What the core says about a log line besides its text. */
export interface LineDetail {
  /** A progress history line: a live progress display may show it as a bar instead. */
  progress?: boolean;
}

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
  info(message: string, detail?: LineDetail): void;
  notice(message: string, annotation?: Annotation): void;
  warning(message: string, annotation?: Annotation): void;
  /** An error annotation that does not by itself end the run. */
  error(message: string, annotation?: Annotation): void;
  debug(message: string): void;
  group<T>(title: string, fn: () => Promise<T>): Promise<T>;
  setOutput(name: OutputName, value: string): void;
  /**
   * Hides a value in every later log line. A `secret` (the key) is hidden everywhere; a
   * value masked for the `log` only (the bundle link) stays whole in the outputs, as the
   * runner's outputs file keeps it.
   */
  mask(value: string, scope?: 'secret' | 'log'): void;
  progress?(state: ProgressState): void;
}

/**
 * What .NET's Char.IsWhiteSpace counts as blank: the runner trims it from a line before it
 * looks for `::`, and it holds more than JavaScript's `\s` (U+0085, NEL, for one).
 */
const RUNNER_BLANKS =
  '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

/** A line the runner reads as a command: `::name` after blanks, or the legacy `##[name` anywhere. */
export const COMMAND_LIKE = new RegExp(`(?:^|[\\r\\n])[${RUNNER_BLANKS}]*::|##\\[`);

/**
 * Log text that may quote the archive or a server, with its control characters (but `\n`
 * and tabs) and U+2028/U+2029 written as `\xNN`/`\uNNNN`: no escape sequence
 * reaches the log, and no character that some reader takes as a line break or a blank.
 */
export function visibleControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    const n = c.charCodeAt(0);
    return n <= 0xff
      ? `\\x${n.toString(16).padStart(2, '0')}`
      : `\\u${n.toString(16).padStart(4, '0')}`;
  });
}

/**
 * Text for a log the runner may read where stop-commands cannot fence it (the CLI's
 * stderr in a `run:` step): a line that would start a command gets its first `:` written
 * as `\x3a`, and the legacy `##[` as `#\x23[`.
 */
export function withoutCommands(text: string): string {
  return text
    .replace(new RegExp(`(^|[\\r\\n])([${RUNNER_BLANKS}]*)::`, 'g'), '$1$2\\x3a:')
    .replace(/##\[/g, '#\\x23[');
}

/** The adapter that ran: messages name inputs the way the user sets them there. */
export type InvokedAs = 'action' | 'cli';

/**
 * `job-id: se_…`, as a workflow's `with:` sets it; the command line's reporter spells it
 * `--job-id se_…` (asCommandLine), as it does every input named in backticks.
 */
export function setting(input: string, value: string): string {
  return `\`${input}: ${value}\``;
}

/**
 * How a later run comes back to an export job that goes on without this one: a run
 * without `job-id` would start another export, even of a job that has completed.
 */
export function pickUpExport(jobId: string, what = 'pick it up'): string {
  return `rerun with ${setting('job-id', jobId)} to ${what} without exporting again`;
}

/** The way back to an export job after a call about it failed: the job is not lost with it. */
export function exportJobLivesOn(jobId: string, status: string | undefined): string {
  return status === 'completed'
    ? `Export job ${jobId} has completed: ${pickUpExport(jobId, 'get its bundle')}.`
    : `Export job ${jobId} may still be running on the server: ${pickUpExport(jobId)}.`;
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
  /** Where the exported site is served: https://<domain>/, once the export completed. */
  pageUrl?: string;
  /** The user asked for the bundle link in the job summary (show-bundle-url). */
  showBundleUrl?: boolean;
  /** How the run was started: the path check names its opt-in as the command line takes it. */
  invokedAs?: InvokedAs;
  /** The change report against the earlier export, or why there is none. */
  changes?: ChangeSummary;
  /** The bundle was extracted and its site was being checked (readiness, links). */
  checking?: boolean;
  /** While the run waits for another that writes the same `path`: that run, described. */
  pathHeldBy?: string;
}

export type ChangeSummary =
  | {
      kind: 'report';
      report: ChangeReport;
      file: string;
      /** Why pages were compared by their bytes, when they were (`has no page fingerprints`). */
      byBytesBecause?: string;
    }
  | { kind: 'none'; reason: string };

/** What happened during an agent run, for the summary. */
export interface AgentRecord {
  command: 'agent';
  projectId: string;
  /** create: a new job; follow-up: a message to an existing job; attach: following one. */
  mode?: 'create' | 'follow-up' | 'attach';
  /** The instruction of a new job, or the follow-up message. */
  prompt?: string;
  startedAt: number;
  finishedAt?: number;
  jobId?: string;
  status?: string;
  prLink?: string;
  /** The API sent a pull request link that is no http(s) address: there may be one. */
  prLinkUnusable?: boolean;
  error?: string;
  repository?: string;
  ref?: string;
  model?: string;
  createdAt?: Date;
  archivedAt?: Date;
  waited: boolean;
  /** Why the last failed call was tried again (explains a timeout). */
  lastRetry?: string;
  /** The create or follow-up request was cut off before its answer: it may have been acted on. */
  unanswered?: boolean;
  /** The follow-up was answered as delivered. */
  followUpSent?: boolean;
}

/** How the job row names what this run did with the job. */
function jobRole(record: AgentRecord): string {
  if (record.mode === 'attach') return ' (followed)';
  if (record.mode !== 'follow-up') return '';
  if (record.followUpSent) return ' (sent a follow-up)';
  return record.unanswered ? ' (follow-up sent, not answered)' : ' (follow-up not sent)';
}

/** Before creating an agent job again after an outcome that is not known. */
export const CHECK_BEFORE_CREATING =
  "check the project's agent jobs before running again, since a second job would open a second pull request.";
/** Before sending a follow-up again after an outcome that is not known. */
export const CHECK_BEFORE_RESENDING =
  'check the job before sending it again, since the agent would act on it twice.';

export type RunRecord = ExportRecord | AgentRecord;

/** A create or follow-up that `cutOff` (a timeout, a cancel) before its answer: what may have happened. */
function unansweredCall(record: AgentRecord, cutOff: string): string {
  return record.mode === 'follow-up'
    ? `The follow-up to agent job ${record.jobId} ${cutOff}, so it may have been delivered: ${CHECK_BEFORE_RESENDING}`
    : `The request to create an agent job ${cutOff}, so a job may have been created: ${CHECK_BEFORE_CREATING}`;
}

/** A duration as an input takes it: `1h`, `45m`, `90s`. */
function inputDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return `${Math.ceil(ms / 1000)}s`;
}

/** What was going on when the run's timeout passed, and what the user can do. */
export function describeTimeout(record: RunRecord, timeoutMs: number): string {
  const limit = `the ${formatDuration(timeoutMs)} timeout passed${record.lastRetry ? ` (last refusal: ${record.lastRetry})` : ''}`;
  // Twice the limit, and never less than the default: a job of minutes outlasts 2 s too.
  const longer = setting(
    'timeout',
    inputDuration(Math.max(timeoutMs * 2, parseDuration(DEFAULTS.timeout) ?? 0)),
  );
  if (record.command === 'agent') {
    if (record.status !== undefined) {
      const pullRequest = record.prLink
        ? `may still update its pull request (${record.prLink})`
        : 'may still open a pull request';
      const follow = `follow it with ${setting('agent-job-id', record.jobId ?? '')}`;
      // Settled, it can only be the job's earlier run, read before the follow-up was taken up.
      if ((AGENT_FINAL_STATUSES as readonly string[]).includes(record.status)) {
        return `Agent job ${record.jobId} still read ${record.status} from before the follow-up when ${limit}. The follow-up may still be taken up on the server, and the job ${pullRequest}: ${follow}.`;
      }
      if (record.status !== 'active') {
        return `Agent job ${record.jobId} reported "${record.status}", a status the API does not document, when ${limit}. It may keep running on the server and ${pullRequest}: ${follow}.`;
      }
      return `Agent job ${record.jobId} was still active when ${limit}. It keeps running on the server and ${pullRequest}: ${follow}.`;
    }
    if (record.unanswered)
      return unansweredCall(record, `was sent but not answered before ${limit}`);
    if (record.mode === 'follow-up') {
      return `The follow-up could not be sent to agent job ${record.jobId} before ${limit}. Run again later, or raise the limit (${longer}).`;
    }
    if (record.mode === 'attach') {
      return `Agent job ${record.jobId} could not be read before ${limit}. Run again later, or raise the limit (${longer}).`;
    }
    return `No agent job could be created before ${limit}. Run again later, or raise the limit (${longer}).`;
  }
  if (record.pathHeldBy !== undefined)
    return `\`path\` was still held by ${record.pathHeldBy} when ${limit}, so nothing was started. Runs into one \`path\` must not overlap: run again once that run has ended, or give each run its own \`path\`.`;
  if (record.jobId === undefined)
    return `The export of ${record.domain} could not be started before ${limit}. Run again, or raise the limit (${longer}).`;
  if (record.status !== 'completed') {
    return `Export job ${record.jobId} was still ${record.status ?? 'queued'} when ${limit}. It keeps running on the server: ${pickUpExport(record.jobId)}, or raise the limit (${longer}).`;
  }
  if (record.checking) {
    return `The bundle of export job ${record.jobId} was downloaded and extracted, but checking its site (links, hosts outside it) did not end before ${limit}; \`path\` was left as it was. A site that takes this long to read may hold pages built to be slow to read: look at the largest pages of the export. To check it with more time, raise the limit (${longer}); ${pickUpExport(record.jobId, 'download it')}.`;
  }
  return `The bundle of export job ${record.jobId} could not be ${record.bundleUrl ? 'downloaded' : 'obtained'} before ${limit}; \`path\` was left as it was. The export itself completed: ${pickUpExport(record.jobId, 'get a fresh link and download it')}, and raise the limit for large bundles (${longer}).`;
}

/** What a cancelled run leaves behind, for the cancellation message. */
export function describeCancellation(record: RunRecord): string {
  if (record.command === 'agent') {
    if (record.status !== undefined) {
      return `Agent job ${record.jobId} keeps running on the server: the API has no way to cancel it.`;
    }
    if (record.unanswered) return unansweredCall(record, 'had been sent but not answered');
    return record.mode === 'create' || record.mode === undefined
      ? 'No agent job was created.'
      : `Agent job ${record.jobId} was left as it was.`;
  }
  if (record.sitePath ?? record.archivePath) {
    // The values are written as soon as the export is in place: they describe what path holds.
    const values = record.helmValuesFile ? `, and its Helm values in ${record.helmValuesFile}` : '';
    return `The export was already in place in ${record.sitePath ?? record.archivePath}${values}; temporary files were removed.`;
  }
  if (record.jobId === undefined) return 'Nothing was started; `path` was left as it was.';
  const resume = setting('job-id', record.jobId);
  // Downloaded and verified: what was stopped is the extraction, the checks or the placement.
  if (record.status === 'completed' && record.sha256 !== undefined) {
    return `Export job ${record.jobId} had completed and its bundle was downloaded; the export was stopped before it was put in place, temporary files were removed and \`path\` was left as it was. Rerun with ${resume} to download it without exporting again.`;
  }
  if (record.status === 'completed') {
    return `Export job ${record.jobId} had completed; the ${record.bundleUrl ? 'download' : 'request for its link'} was stopped, temporary files were removed and \`path\` was left as it was. Rerun with ${resume} to download it without exporting again.`;
  }
  return `Export job ${record.jobId} keeps running on the server; temporary files were removed and \`path\` was left as it was. Rerun with ${resume} to pick it up without exporting again.`;
}

/**
 * The first line of a prompt, shortened at a word boundary: enough to recognize it in a
 * log, and never a word cut in two (a cut secret would escape redaction).
 */
export function promptHeadline(prompt: string, max = 80): string {
  const lines = prompt.trim().split(/\r?\n/);
  const first = lines[0] ?? '';
  let shortened = first;
  if (first.length > max) {
    const words: string[] = [];
    for (const word of first.split(/\s+/)) {
      if ([...words, word].join(' ').length > max - 1) break;
      words.push(word);
    }
    shortened = `${words.join(' ')}…`;
  }
  const more = lines.length - 1;
  return more > 0 ? `${shortened} (+${more} more line${more > 1 ? 's' : ''})` : shortened;
}

/** When a link stops working, relative to `now`: `in 59 min (12:34 UTC)`. */
export function describeExpiry(expiresAt: Date, now: number): string {
  const iso = expiresAt.toISOString();
  const sameDay = iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10);
  const clock = `${sameDay ? '' : `${iso.slice(0, 10)} `}${iso.slice(11, 16)} UTC`;
  const minutes = Math.round((expiresAt.getTime() - now) / 60_000);
  if (expiresAt.getTime() <= now) return `expired (${clock})`;
  if (minutes < 1) return `in under a minute (${clock})`;
  if (minutes < 120) return `in ${minutes} min (${clock})`;
  if (minutes < 48 * 60) return `in ${Math.round(minutes / 60)} h (${clock})`;
  return `in ${Math.round(minutes / 1440)} days (${clock})`;
}

/** What the summary may know about the place it is read from. */
export interface SummaryContext {
  /** Paths inside it are shown relative to it. */
  workspace?: string;
}

/**
 * A paragraph on one line: a line break would start a list, a heading or a table. Pipes
 * stay as they are: escaped, one inside a code span would show its backslash.
 */
function oneLine(text: string): string {
  return text.replace(/\r\n?|\n/g, ' ');
}

function cell(text: string): string {
  // A pipe plainText() already escaped stays escaped once. A lone CR ends a line too.
  return text.replace(/(?<!\\)\|/g, '\\|').replace(/\r\n?|\n/g, ' ');
}

/**
 * Text written by others (a page title from the archive or an earlier manifest), shown as
 * it reads: Markdown and HTML in it are escaped, never rendered as a link or an image, and
 * its direction controls are written out (`\u202E`), as an address keeps them encoded.
 */
function plainText(text: string): string {
  return visibleDirections(
    noMath(noAutolink(text.replace(/[\\`*_{}[\]()<>#!&~|:@]/g, '\\$&'))).replace(/\s+/g, ' '),
  );
}

/**
 * GitHub renders the text between two dollars as math (`$x$`, `$$y$$`); its guide to math
 * shows a dollar outside math in a `<span>` of its own, which pairs with no other. So is
 * each one here. Only on text whose `<` are escaped already.
 */
function noMath(escaped: string): string {
  return escaped.replace(/\$/g, '<span>$$</span>');
}

/**
 * Bidirectional embeddings, overrides and isolates written as `\u202E`: one left open
 * turns the rest of its line around (a link's address after a title), and a title has no
 * need of them. The marks (U+200E, U+200F) that right-to-left text uses stay.
 */
function visibleDirections(text: string): string {
  return text.replace(
    /[\u202A-\u202E\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * GitHub links a bare `https://…` or `www.…` in text: with `:` and `@` escaped already,
 * an escaped dot after `www` keeps the last kind text too.
 */
function noAutolink(escaped: string): string {
  return escaped.replace(/(www)\./gi, '$1\\.');
}

/**
 * A message of ours that may quote a server (an error): its code spans are kept, and
 * outside them nothing can open a link, an image or an HTML tag.
 */
function inertProse(text: string): string {
  // Only a span between two lone backticks is code: Markdown pairs backtick runs by
  // length, so in ```[a](b)` the link is no code at all.
  return text
    .split(/((?<!`)`[^`\n]+`(?!`))/)
    .map((part, at) =>
      at % 2 === 1 ? part : noMath(noAutolink(part.replace(/[\\[\]<>&!`:@*_~]/g, '\\$&'))),
    )
    .join('');
}

/**
 * A link's address in Markdown: a parenthesis would end it early, a space end it and
 * leave the rest as text (`<img …>`), a backslash escape what follows. What is not allowed
 * in a URL is percent-encoded (UTF-8), as the URL parser would; the rest is kept as sent.
 */
function linkTarget(url: string): string {
  return url.replace(/[^A-Za-z0-9\-._~:/?#[\]@!$&'*+,;=%]/gu, (c) =>
    [...Buffer.from(c, 'utf8')]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
      .join(''),
  );
}

/** A code span on one line: a line break in a file name would end it, a blank line its block. */
function code(text: string): string {
  return `\`${text.replace(/`/g, "'").replace(/\r\n?|\n/g, ' ')}\``;
}

/** Characters of a file name or address a table cell shows; the report files hold them whole. */
const CELL_MAX_CHARS = 300;

/** A file name, an address or a title from the archive (or any text, to `max`), cut to what the summary shows. */
function capped(text: string, max = CELL_MAX_CHARS): string {
  return text.length > max ? `${text.slice(0, max).replace(/[\uD800-\uDBFF]$/, '')}…` : text;
}

/** A code span of what the archive holds, outside a table: cut as a cell's. */
function shortCode(text: string): string {
  return code(capped(text));
}

/** A code span in a table cell: GFM splits cells at every unescaped pipe, code spans too. */
function codeCell(text: string): string {
  return shortCode(text).replace(/\|/g, '\\|');
}

/**
 * GitHub drops a step summary past 1024 KiB whole ("upload aborted"): a longer one is cut
 * at the last line that fits, with a line that says so, so that the run keeps its summary.
 */
export const SUMMARY_MAX_BYTES = 1000 * 1024;

export function fitSummary(markdown: string, maxBytes = SUMMARY_MAX_BYTES): string {
  if (Buffer.byteLength(markdown) <= maxBytes) return markdown;
  return cutAtLine(
    markdown,
    maxBytes,
    '\n\n**The summary stops here:** GitHub shows at most 1 MiB of it. The report files named in the step outputs hold everything.\n',
  );
}

/** The lines of `markdown` that fit in `maxBytes` with `note` after them; a code fence left open is closed. */
function cutAtLine(markdown: string, maxBytes: number, note: string): string {
  const close = '\n```';
  const room = Buffer.from(markdown).subarray(
    0,
    Math.max(0, maxBytes - Buffer.byteLength(note) - close.length),
  );
  const text = room.toString('utf8');
  const kept = text.slice(0, Math.max(0, text.lastIndexOf('\n')));
  const open = (kept.match(/^```/gm) ?? []).length % 2 === 1;
  return `${kept}${open ? close : ''}${note}`;
}

/**
 * The readiness section within what the rest of the summary leaves of GitHub's limit: one
 * long name in it never pushes the change report or the error out of the summary.
 */
function fitReadiness(section: string, rest: string[]): string {
  // Room for the blank lines between sections, and for escapes the redaction may write.
  const room = SUMMARY_MAX_BYTES - Buffer.byteLength(rest.join('\n\n')) - 4096;
  if (Buffer.byteLength(section) <= room) return section;
  return cutAtLine(
    section,
    Math.max(0, room),
    '\n\n**The readiness findings stop here**, to leave room for the rest of the summary within the 1 MiB GitHub shows: the full report holds them all.',
  );
}

/**
 * A link's text (an address or a pull request's name): what would end it, or make
 * emphasis, strikethrough, code or HTML of it, is escaped.
 */
function linkText(text: string): string {
  return noMath(text.replace(/[\\`*_~<>[\]!&]/g, '\\$&'));
}

/** A two-column table of facts: the first fact is its header row (no empty header). */
function factsTable(rows: [string, string | undefined][]): string {
  const kept = rows.filter((row): row is [string, string] => row[1] !== undefined && row[1] !== '');
  if (kept.length === 0) return '';
  const [first, ...rest] = kept.map(([k, v]) => `| ${k} | ${cell(v)} |`);
  return [first, '|---|---|', ...rest].join('\n');
}

/** `site` for a path inside the workspace, the absolute path otherwise. */
function shownPath(file: string, context: SummaryContext): string {
  const { workspace } = context;
  if (workspace === undefined) return file;
  const relative = path.relative(workspace, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative)
    ? relative
    : file;
}

function duration(record: RunRecord): string | undefined {
  return record.finishedAt !== undefined
    ? formatDuration(record.finishedAt - record.startedAt)
    : undefined;
}

function bundleLinkCell(record: ExportRecord): string | undefined {
  if (!record.bundleUrl) return undefined;
  if (record.bundleUrlMasked) return '(masked)';
  if (record.showBundleUrl) return `[download](${linkTarget(record.bundleUrl)})`;
  return `in the ${code('bundle-url')} output; not shown here since it grants access until it expires (${code('show-bundle-url: true')} shows it)`;
}

function exportFacts(record: ExportRecord, context: SummaryContext): string {
  const where = record.sitePath ?? record.archivePath;
  const now = record.finishedAt ?? record.startedAt;
  return factsTable([
    ['Job', record.jobId ? code(record.jobId) : undefined],
    ['Status', record.status !== undefined ? plainText(record.status) : undefined],
    ['Pages', record.pageCount !== undefined ? String(record.pageCount) : undefined],
    ['Site URL', record.pageUrl],
    ['Duration', duration(record)],
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
    ['Link expires', record.expiresAt ? describeExpiry(record.expiresAt, now) : undefined],
    ['Bundle link', bundleLinkCell(record)],
    [
      record.sitePath ? 'Site' : 'Archive file',
      where ? code(shownPath(where, context)) : undefined,
    ],
    [
      'Replaced',
      record.replacedForeign
        ? // It names files of the earlier export: shown as written, never rendered.
          `⚠️ a directory this action did not write (it ${plainText(record.replacedForeign)}), because overwrite is true`
        : record.replacedExport
          ? `the earlier export (job ${code(record.replacedExport)})`
          : undefined,
    ],
    ['Artifact', record.artifactId ? `id ${record.artifactId}` : undefined],
    [
      'Helm values',
      record.helmValuesFile ? code(shownPath(record.helmValuesFile, context)) : undefined,
    ],
  ]);
}

/**
 * Each check's line names hosts from the site, which may hold `*`, `_` and `~` (or read
 * as a `www.` link): inert here, as everywhere else the summary quotes the site.
 */
function checksSection(record: ExportRecord): string {
  return (record.checks ?? []).map((c) => `- ${inertProse(c)}`).join('\n');
}

/** Rows of the hosts table the summary holds; the next ones are named in one line. */
const SUMMARY_HOST_ROWS = 300;
/** Hosts named after the table: GitHub drops a summary past 1 MiB, whole. */
const SUMMARY_MORE_HOSTS = 200;
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
        // Code spans: a file name is shown as written, and `<script src>` is no tag.
        const where = [
          ...h.locations.map((l) =>
            codeCell(`${l.file}${l.line !== undefined ? `:${l.line}` : ''}`),
          ),
          ...(h.requestedBy.length > 0
            ? [`browser: ${h.requestedBy.slice(0, 3).map(codeCell).join(', ')}`]
            : []),
        ].join(', ');
        const what = `${h.role === 'load' ? 'loads' : 'links'} (${h.vias.slice(0, 3).map(codeCell).join('; ')})`;
        return `| ${codeCell(h.host)} | ${what} | ${level[h.severity]} | ${h.count} | ${where} |`;
      }),
    );
    if (hosts.length > SUMMARY_HOST_ROWS) {
      parts.push(
        '',
        `Also: ${hosts
          .slice(SUMMARY_HOST_ROWS, SUMMARY_HOST_ROWS + SUMMARY_MORE_HOSTS)
          .map((h) => `${shortCode(h.host)} (${h.count})`)
          .join(', ')}${
          hosts.length > SUMMARY_HOST_ROWS + SUMMARY_MORE_HOSTS
            ? `, and ${hosts.length - SUMMARY_HOST_ROWS - SUMMARY_MORE_HOSTS} more, in the full report`
            : ''
        }.`,
      );
    }
  }
  const extras = [
    readiness.metadata > 0
      ? `${readiness.metadata} metadata reference(s) (canonical, og:*, JSON-LD) name hosts outside the site; browsers do not load them`
      : undefined,
    readiness.unconfirmedHosts > 0
      ? `URL strings in scripts name ${readiness.unconfirmedHosts >= MAX_UNCONFIRMED_HOSTS ? 'at least ' : ''}${readiness.unconfirmedHosts} more host(s) with no sign that they are requested (error-documentation links, parser bases); not counted`
      : undefined,
  ].filter((line): line is string => line !== undefined);
  if (extras.length > 0) parts.push('', ...extras.map((line) => `- ${line}`));

  const { links } = readiness;
  // None broken (or none checked): the check's own line in the summary says so.
  if (links.brokenCount > 0) {
    parts.push('', `#### Internal links: ${links.brokenCount} broken of ${links.checked}`);
  }
  if (links.broken.length > 0) {
    parts.push(
      '',
      '| File | Line | Link | Resolves to |',
      '|---|---|---|---|',
      ...links.broken
        .slice(0, SUMMARY_BROKEN_ROWS)
        .map(
          (b) => `| ${codeCell(b.file)} | ${b.line} | ${codeCell(b.url)} | ${codeCell(b.target)} |`,
        ),
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
        .map((m) => `${shortCode(m.path)} (from ${shortCode(m.page)})`)
        .join(', ')}.`,
    );
  }
  const { serving } = readiness;
  if (serving.needsRewrites) {
    parts.push(
      '',
      `#### Serving`,
      '',
      `${serving.extensionless.count} internal link(s) leave out \`.html\`${serving.extensionless.example ? ` (e.g. ${shortCode(serving.extensionless.example.url)} → ${shortCode(serving.extensionless.example.served)})` : ''}: a plain static host answers 404 for them.${serving.directoryTrap.count > 0 ? ` ${serving.directoryTrap.count} also have a directory of the same name, so \`try_files $uri $uri/ $uri.html\` answers 403.` : ''} With nginx:`,
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

/**
 * An encoded address as a reader spells it (`/guides/café`, `/ガイド`), for a link's text:
 * a run of escapes that holds a character not shown (a line break, a direction override,
 * a space other than U+0020) stays encoded.
 */
function readablePath(encoded: string): string {
  return encoded.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    // A run that is no UTF-8 comes back as it is: escapes, shown as such.
    const text = safeDecode(run);
    return /[\p{C}\p{Z}]/u.test(text.replace(/ /g, '')) ? run : text;
  });
}

/**
 * A page's address as a reader types it on `domain`'s site: its path, decoded where shown.
 * How the summary and the log name an address no longer served (a removed page, a moved
 * page's old one).
 */
export function addressPath(url: string, domain: string): string {
  return readablePath(
    url.startsWith(`https://${domain}/`) ? url.slice(`https://${domain}`.length) : url,
  );
}

/** Entries of each list shown in the summary; the JSON file has them all. */
const LISTED_CHANGES = 25;

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function signedBytes(delta: number): string {
  return `${delta < 0 ? '−' : '+'}${formatBytes(Math.abs(delta))}`;
}

/** The pages of a report by content that were compared by their bytes all the same. */
function byBytes(pages: number): string {
  if (pages === 0) return '';
  const them = pages === 1 ? 'its' : 'their';
  return `; ⚠️ ${plural(pages, 'page')} by ${them} bytes, for want of a fingerprint in one export, so ${them} rebuild counts as a change`;
}

/** No page added, removed, moved or changed, no navigation changed, no asset changed. */
function changesNothing({ pages, assets }: ChangeReport): boolean {
  return [
    pages.added,
    pages.removed,
    pages.moved,
    pages.changed,
    pages.navigationChanged,
    assets.added,
    assets.removed,
    assets.changed,
  ].every((list) => list.length === 0);
}

/**
 * The change report section of the export summary: counts, then the pages by kind.
 * `placed` is false when the run failed before the export was put in place: the report
 * then says what it would have changed, and its added pages are not served anywhere.
 */
export function renderChangeSection(changes: ChangeSummary, domain: string, placed = true): string {
  if (changes.kind === 'none') {
    return `#### Changes\n\nNo change report: ${oneLine(inertProse(changes.reason))}.`;
  }
  const { report, file } = changes;
  const { pages, assets, size } = report;
  const since = `${report.previous.exportedAt.replace(/\.\d+Z$/, 'Z').replace('T', ' ')} (job ${code(report.previous.jobId)})`;
  const heading = placed
    ? `#### Changes since the export of ${since}`
    : `#### Changes this export would have made since the export of ${since}`;
  const navigation =
    pages.navigationChanged.length > 0
      ? `; navigation changed on ${plural(pages.navigationChanged.length, 'page')}`
      : '';
  const stubs = pages.moved.filter((page) => page.previous.redirected).length;
  const edited = pages.moved.filter((page) => page.changed).length;
  // A stub left at an old address is a page of the new export that no other count holds,
  // and a page moved and edited at once is not among the changed ones.
  const movedNotes = [
    ...(stubs > 0 ? [`${stubs} leaving a redirect at the old address`] : []),
    ...(edited > 0 ? [`${edited} changed too`] : []),
  ];
  const moved =
    pages.moved.length > 0
      ? `, ${pages.moved.length} moved${movedNotes.length > 0 ? ` (${movedNotes.join(', ')})` : ''}`
      : '';
  const pageCounts = `${pages.before} → ${pages.after}: ${pages.added.length} added, ${pages.removed.length} removed${moved}, ${pages.changed.length} changed${navigation}`;
  const rows: [string, string | undefined][] = [
    ['Pages', pageCounts],
    [
      'Assets',
      `${assets.changed.length} changed, ${assets.added.length} added, ${assets.removed.length} removed, ${assets.unchanged} unchanged`,
    ],
    [
      'Size',
      `${formatBytes(size.before)} → ${formatBytes(size.after)} (${signedBytes(size.after - size.before)})`,
    ],
    ['Compared with', inertProse(report.source)],
    [
      'Compared by',
      report.comparedBy === 'content'
        ? `what a reader sees (build ids and hashed asset names left out)${byBytes(pages.comparedByBytes)}`
        : `⚠️ file bytes: the earlier manifest ${changes.byBytesBecause ?? 'has no page fingerprints'}, so build noise counts as a change`,
    ],
    ['Full report', code(file)],
  ];
  const parts = [heading, '', factsTable(rows)];
  if (!placed) {
    parts.splice(
      1,
      0,
      '',
      '⚠️ This export was not put in place (the error below says why): the report describes what it would have changed, not what is live.',
    );
  }
  if (changesNothing(report)) {
    parts.push(
      '',
      'Nothing a reader sees changes: every page and asset is as it was in the earlier export.',
    );
  }
  const link = (url: string) =>
    `[${linkText(capped(addressPath(url, domain)))}](${linkTarget(url)})`;
  // An address the new export no longer serves a page at: a path, not a link (a 404, a redirect).
  const asPath = (url: string) => shortCode(addressPath(url, domain));
  // A move a reader may not see as one: on a host that ignores case, the old address still works.
  const caseOnly = (move: PageMove) =>
    move.url !== move.previous.url &&
    addressPath(move.url, domain).toLowerCase() ===
      addressPath(move.previous.url, domain).toLowerCase()
      ? ': only the letter case changed, and a case-sensitive host no longer serves the old address'
      : '';
  const list = (title: string, entries: (PageChange | PageMove)[], served = true) => {
    if (entries.length === 0) return;
    const shown = entries.slice(0, LISTED_CHANGES).map((page) => {
      const label = page.title ? `${plainText(capped(page.title))} — ` : '';
      const from =
        'previous' in page
          ? page.previous.redirected
            ? ` (was ${asPath(page.previous.url)}, which now redirects here${page.changed ? '; its content changed too' : ''})`
            : ` (was ${asPath(page.previous.url)}${caseOnly(page)})`
          : '';
      const to = page.redirectsTo ? ` → redirects to ${link(page.redirectsTo.url)}` : '';
      return `- ${label}${served ? link(page.url) : asPath(page.url)}${from}${to}`;
    });
    const more =
      entries.length > LISTED_CHANGES ? [`- … and ${entries.length - LISTED_CHANGES} more`] : [];
    parts.push('', `**${title}** (${entries.length})`, '', ...shown, ...more);
  };
  list('Changed pages', pages.changed);
  list('Added pages', pages.added, placed);
  list('Removed pages', pages.removed, false);
  list('Moved pages', pages.moved, placed);
  list('Pages whose navigation changed', pages.navigationChanged);
  return parts.join('\n');
}

/**
 * Characters of the error the summary shows: a server may put a whole build log in a job's
 * `error`, and a summary cut to fit GitHub's limit would lose the reason altogether.
 */
const FAILURE_MAX_CHARS = 8000;

function failureSection(failure: string | undefined): string {
  if (failure === undefined) return '';
  const shown =
    failure.length > FAILURE_MAX_CHARS
      ? `${capped(failure, FAILURE_MAX_CHARS)} (cut here: the error line of the log holds all of it)`
      : failure;
  return `**Error:** ${oneLine(inertProse(shown))}`;
}

/** Sections in order, the empty ones left out. */
function joinSections(sections: string[]): string {
  return `${sections.filter((section) => section !== '').join('\n\n')}\n`;
}

/** The job summary of an export run, whether it succeeded or not. */
export function renderExportSummary(
  record: ExportRecord,
  failure?: string,
  context: SummaryContext = {},
): string {
  const heading =
    failure === undefined
      ? `### ✅ Static export of ${record.domain}`
      : `### ❌ Static export of ${record.domain} failed`;
  const facts = exportFacts(record, context);
  const checks = checksSection(record);
  // A report is made only for a site extracted into path: sitePath is set once it is there.
  const placed = failure === undefined || record.sitePath !== undefined;
  const changes = record.changes ? renderChangeSection(record.changes, record.domain, placed) : '';
  const error = failureSection(failure);
  const readiness = record.readiness
    ? fitReadiness(renderReadiness(record.readiness), [heading, facts, checks, changes, error])
    : '';
  return joinSections([heading, facts, checks, readiness, changes, error]);
}

/**
 * `owner/repo#12` for a pull request on github.com; on another host, that host too
 * (`owner/repo#12 on git.example.com`), so a link elsewhere never reads as GitHub's.
 */
function pullRequestName(link: string): string {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return 'pull request';
  }
  const match = /^\/([^/]+\/[^/]+)\/pull\/(\d+)/.exec(url.pathname);
  if (!match) return url.hostname === 'github.com' ? 'pull request' : `pull request on ${url.host}`;
  const name = `${match[1]}#${match[2]}`;
  return url.hostname === 'github.com' && url.username === '' ? name : `${name} on ${url.host}`;
}

function agentHeading(record: AgentRecord, failure: string | undefined): string {
  const job = `Agent job in ${plainText(record.projectId)}`;
  if (failure !== undefined) {
    // Stopped (a timeout, a cancellation) while the job still runs: it did not fail.
    const settled: readonly string[] = AGENT_FINAL_STATUSES;
    if (record.status !== undefined && !settled.includes(record.status))
      return `### ❌ ${job} not followed to its end: still ${plainText(record.status)}`;
    // After a follow-up, a settled status other than failed is the earlier run's.
    if (record.mode === 'follow-up' && record.status !== undefined && record.status !== 'failed')
      return `### ❌ ${job} not followed to its end: the follow-up was not seen taken up (the job still read ${plainText(record.status)})`;
    return `### ❌ ${job} failed`;
  }
  if (record.prLink) {
    return `### ✅ ${job} opened [${linkText(pullRequestName(record.prLink))}](${linkTarget(record.prLink)})`;
  }
  if (record.status === 'completed' && !record.prLinkUnusable) {
    return `### ✅ ${job}: no changes, no pull request`;
  }
  return `### ✅ ${job}`;
}

function agentFacts(record: AgentRecord): string {
  return factsTable([
    [
      'Pull request',
      record.prLink
        ? `[${linkText(record.prLink)}](${linkTarget(record.prLink)})`
        : record.prLinkUnusable
          ? 'its link is not an http(s) address (see the log)'
          : record.status === 'completed'
            ? 'none (the agent changed no files)'
            : record.status === 'archived'
              ? 'none (archived, perhaps before the agent finished: see the log)'
              : undefined,
    ],
    // The prompt may be a reviewer's comment: shown as it reads, never rendered.
    [
      record.mode === 'follow-up' ? 'Follow-up' : 'Prompt',
      record.prompt !== undefined ? plainText(promptHeadline(record.prompt)) : undefined,
    ],
    ['Job', record.jobId ? `${code(record.jobId)}${jobRole(record)}` : undefined],
    // What the server sent is shown as text.
    ['Status', record.status !== undefined ? plainText(capped(record.status)) : undefined],
    [
      'Repository',
      record.repository
        ? plainText(`${capped(record.repository)}${record.ref ? ` @ ${capped(record.ref)}` : ''}`)
        : undefined,
    ],
    ['Model', record.model !== undefined ? plainText(capped(record.model)) : undefined],
    ['Created', record.createdAt?.toISOString()],
    ['Archived', record.archivedAt?.toISOString()],
    ['Duration', duration(record)],
  ]);
}

/** The job summary of an agent run. */
export function renderAgentSummary(record: AgentRecord, failure?: string): string {
  return joinSections([agentHeading(record, failure), agentFacts(record), failureSection(failure)]);
}

/** The job summary of any run. */
export function renderSummary(
  record: RunRecord,
  failure?: string,
  context: SummaryContext = {},
): string {
  return record.command === 'export'
    ? renderExportSummary(record, failure, context)
    : renderAgentSummary(record, failure);
}

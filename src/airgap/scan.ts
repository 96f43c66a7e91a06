import { closeSync, createReadStream, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { asLocalFileError, errorMessage, throwIfAborted } from '../errors.js';
import { shippedWorkerFile } from '../worker-file.js';
import { urlsInCss } from './css.js';
import { MAX_UNCONFIRMED_HOSTS } from './findings.js';
import { referencesInFlight } from './flight.js';
import { type HtmlReference, HtmlScanner } from './html.js';
import { type ScriptUrl, urlsInScript } from './js.js';
import { referencesInWebManifest } from './json-formats.js';
import {
  baseNamesHost,
  type ExternalReference,
  externalHost,
  type FoundReference,
  isAllowedHost,
  LineIndex,
  SCHEME,
  SITE_ORIGIN,
  underBase,
} from './references.js';
import {
  decodedUrlPath,
  pageAddress,
  pageUrl,
  type Resolved,
  type SiteTree,
  type UrlRule,
} from './site-tree.js';

export interface BrokenLink {
  file: string;
  line: number;
  column: number;
  url: string;
  /** The URL path it resolved to, which no file of the export serves. */
  target: string;
}

/** One example of a URL rule at work, for the serving advice. */
export interface RuleUse {
  count: number;
  example?: { file: string; line: number; url: string; served: string };
}

export interface ScanResult {
  /** Files read (pages, styles, scripts, flight payloads, manifests). */
  scanned: number;
  pages: number;
  /** Loads and links outside the site (hosts in allowed-hosts left out). */
  external: ExternalReference[];
  /** More external references than kept (the count goes on). */
  externalDropped: number;
  /** Metadata references outside the site (canonical, og:*, JSON-LD): counted only. */
  metadata: number;
  /** URL strings in scripts without evidence of a request, per host (`MAX_UNCONFIRMED_HOSTS` at most). */
  unconfirmed: Map<string, { count: number; first: { file: string; line: number; url: string } }>;
  /** `<iframe srcdoc>` documents nested too deep to be read (MAX_FRAME_DEPTH), and where the first is. */
  unreadFrames: UnreadFrames;
  links: { checked: number; broken: BrokenLink[]; brokenCount: number };
  /** Internal links served only thanks to a URL rule a plain static host lacks. */
  rules: Record<RuleName, RuleUse>;
}

export interface UnreadFrames {
  count: number;
  first?: { file: string; line: number };
}

export interface ScanOptions {
  allowedHosts: readonly string[];
  /** Collect references outside the site (not for `cloud`). */
  external: boolean;
  /** Resolve internal links against the tree. */
  links: boolean;
  signal?: AbortSignal;
  /** Reading a large site on worker threads; by default as many as SCAN_THREADS allows. */
  threads?: ScanThreads;
  /** Told what the scan did that a person debugging it would want to know. */
  debug?: (message: string) => void;
}

export interface ScanThreads {
  /** Worker threads beside the calling one; 0 reads every file on the calling thread. */
  count: number;
  /** Sites with fewer bytes to read are read on the calling thread alone (a worker's start costs more). */
  fromSiteBytes: number;
  /** The worker's script; by default the one shipped beside this module. */
  entry?: WorkerEntry;
}

/** A worker script. */
export interface WorkerEntry {
  file: string;
}

/** Kept in memory at most; the counts go on. */
const MAX_KEPT = 100_000;
/**
 * Characters of broken links (page, link and target) kept at most: links to a missing
 * page of a deep directory hold kilobytes each, and the report files repeat them, so a
 * count alone let a 2 KB archive grow them past what a string can hold.
 */
const MAX_KEPT_BROKEN_CHARS = 16 * 1024 * 1024;
/** Characters kept so far, per file's part and per result. */
const keptBrokenChars = new WeakMap<object, number>();

/** Whether a broken link of `size` characters still fits in `holder`'s share, counted if so. */
function keepsBroken(holder: { broken: readonly unknown[] }, owner: object, size: number): boolean {
  const kept = keptBrokenChars.get(owner) ?? 0;
  if (holder.broken.length >= MAX_KEPT || kept + size > MAX_KEPT_BROKEN_CHARS) return false;
  keptBrokenChars.set(owner, kept + size);
  return true;
}

function brokenSize(link: { file: string; url: string; target: string }): number {
  return link.file.length + link.url.length + link.target.length;
}
const MAX_HOSTS_PER_FILE = 10_000;
/**
 * Text handed to the HTML parser at once. Below V8's large-object size (128 KB), so a
 * page's text dies young instead of piling up until a full collection (measured on a
 * 3,000-page site: peak RSS 317 MB with whole 150 KB pages as strings).
 */
const READ_CHUNK = 64 * 1024;
/** Files up to this size are read whole; larger pages stream through the parser. */
const SMALL_FILE = 2 * 1024 * 1024;
const YIELD_EVERY_FILES = 16;
/**
 * Parsing is CPU-bound: a site of 4 MB or more is parsed on this thread and one worker
 * thread, from one queue, from its first file (a hosted runner has two cores; each further worker
 * costs its own heap, and the step must stay within 250 MB). A small site starts none.
 */
const SCAN_THREADS: Omit<ScanThreads, 'entry'> = {
  count: Math.min(1, availableParallelism() - 1),
  fromSiteBytes: 4 * 1024 * 1024,
};
/**
 * A page's text dies young: a small young generation keeps each worker's heap near its
 * live size (measured on the 3,000-page site: peak RSS of the process 212 MB with V8's
 * default, 168 MB with 8 MB, at the same CPU time).
 */
const WORKER_YOUNG_GENERATION_MB = 8;
/** Files handed to a worker before its first answer, so it never waits for the next. */
const QUEUED_PER_WORKER = 2;
/** Files read ahead of the first one not merged yet (bounds what waits to be merged). */
const MAX_AHEAD = 256;

type Kind = 'html' | 'css' | 'js' | 'manifest' | 'flight';
type RuleName = UrlRule | 'directoryTrap';

const KIND_BY_EXTENSION: ReadonlyMap<string, Kind> = new Map([
  ['.html', 'html'],
  ['.htm', 'html'],
  ['.xhtml', 'html'],
  ['.svg', 'html'],
  ['.css', 'css'],
  ['.js', 'js'],
  ['.mjs', 'js'],
  ['.cjs', 'js'],
  ['.webmanifest', 'manifest'],
  // Next.js writes the RSC payload of each page as .txt; other text files (robots.txt)
  // are read the same way, and hold nothing it looks for.
  ['.txt', 'flight'],
]);

/** An `.xhtml` page or an `.svg` image, which the export serves as XML. */
function isXmlDocument(file: string): boolean {
  return /\.(?:xhtml|svg)$/i.test(file);
}

/**
 * What a file of the site is read as, by its extension (as `path.extname` finds it, in
 * any case) or the name `manifest.json`. Asked of every file of the site: found with one
 * search from the end of the path and one lookup.
 */
export function kindOf(file: string): Kind | undefined {
  const slash = file.lastIndexOf('/');
  const dot = file.lastIndexOf('.');
  // A name that only starts with a dot (`.txt`) has no extension.
  if (dot > slash + 1) {
    const kind = KIND_BY_EXTENSION.get(file.slice(dot).toLowerCase());
    if (kind !== undefined) return kind;
  }
  return file.endsWith('manifest.json') && slash === file.length - 14 ? 'manifest' : undefined;
}

/** A file to read, by its place in the sorted list (results are merged in that order). */
export interface ScanRequest {
  index: number;
  file: string;
  kind: Kind;
}

/** What a worker answers: the file's part of the scan, or why it could not read it. */
export type ScanReply =
  | { index: number; scan: FileScan }
  | { index: number; failure: { code?: string; path?: string; message: string; stack?: string } };

/** What a worker starts from: the tree and the options (functions and signals stay home). */
export interface WorkerSetup {
  root: string;
  files: string[];
  directories: string[];
  options: Pick<ScanOptions, 'allowedHosts' | 'external' | 'links'>;
}

/**
 * Reads every page, stylesheet, script, flight payload and manifest of an extracted site
 * once, streaming pages through the HTML parser, and collects what leaves the site and
 * which internal links lead nowhere. A large site is parsed on worker threads; each
 * file's part is merged in file order, so the result is the same on any number of them.
 * Memory stays flat in the size of the site.
 */
export async function scanSite(tree: SiteTree, options: ScanOptions): Promise<ScanResult> {
  const result: ScanResult = {
    scanned: 0,
    pages: 0,
    external: [],
    externalDropped: 0,
    metadata: 0,
    unconfirmed: new Map(),
    unreadFrames: { count: 0 },
    links: { checked: 0, broken: [], brokenCount: 0 },
    rules: emptyRules(),
  };
  // Sorted once filtered: most of a large site's files are images and fonts, never read.
  const files: { file: string; kind: Kind }[] = [];
  for (const file of tree.files) {
    const kind = kindOf(file);
    if (kind !== undefined) files.push({ file, kind });
  }
  files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const threads = { ...SCAN_THREADS, ...options.threads };
  const entry = threads.count > 0 ? (threads.entry ?? shippedWorker()) : undefined;
  const here = new FileScanner(tree, options);
  if (entry && atLeastBytes(tree.root, files, threads.fromSiteBytes)) {
    const requests = files.map(({ file, kind }, index) => ({ index, file, kind }));
    await scanOnWorkers(tree, options, entry, threads.count, requests, here, result);
    return result;
  }
  for (const [index, { file, kind }] of files.entries()) {
    // Reads are synchronous: let signals, timers and the deadline in between files.
    if (index % YIELD_EVERY_FILES === 0) await yieldToEventLoop();
    throwIfAborted(options.signal);
    mergeFileScan(result, await here.scan(file, kind));
  }
  return result;
}

/** Whether `files` hold at least `bytes` bytes (stops counting there: a large site costs a few stats). */
function atLeastBytes(root: string, files: readonly { file: string }[], bytes: number): boolean {
  let total = 0;
  for (const { file } of files) {
    if (total >= bytes) return true;
    try {
      total += statSync(path.join(root, ...file.split('/'))).size;
    } catch {
      // Unreadable: reading it says why, on whichever thread.
    }
  }
  return total >= bytes;
}

function emptyRules(): Record<RuleName, RuleUse> {
  return {
    file: { count: 0 },
    html: { count: 0 },
    index: { count: 0 },
    directoryTrap: { count: 0 },
  };
}

/**
 * Reads `requests` on this thread and `count` worker threads, from one queue, and merges
 * each file's part in order. A worker that fails (it could not start, or it died) is not
 * fatal: this thread reads the files it held. A file that cannot be read fails the scan
 * as it does on this thread alone.
 */
async function scanOnWorkers(
  tree: SiteTree,
  options: ScanOptions,
  entry: WorkerEntry,
  count: number,
  requests: readonly ScanRequest[],
  here: FileScanner,
  result: ScanResult,
): Promise<void> {
  const setup: WorkerSetup = {
    root: tree.root,
    files: [...tree.files],
    directories: [...tree.directories],
    options: {
      allowedHosts: options.allowedHosts,
      external: options.external,
      links: options.links,
    },
  };
  // Parts by position in `requests`; merged in that order as soon as the next one is in.
  const parts = new Map<number, FileScan>();
  let sent = 0;
  let merged = 0;
  let readHere = 0;
  let workerFailure: unknown;
  let unreadable: Error | undefined;
  let wake: (() => void) | undefined;
  const changed = () => {
    wake?.();
    wake = undefined;
  };
  const workers: Worker[] = [];
  const idle = new Set<Worker>();
  const mergeReady = () => {
    for (let part = parts.get(merged); part; part = parts.get(merged)) {
      parts.delete(merged);
      mergeFileScan(result, part);
      merged += 1;
    }
  };
  const feed = (worker: Worker): boolean => {
    if (workerFailure !== undefined || sent >= requests.length || sent - merged >= MAX_AHEAD)
      return false;
    worker.postMessage({ ...(requests[sent] as ScanRequest), index: sent });
    sent += 1;
    return true;
  };
  const feedIdle = () => {
    for (const worker of idle) if (feed(worker)) idle.delete(worker);
  };
  options.signal?.addEventListener('abort', changed);
  try {
    for (let n = 0; n < Math.min(count, requests.length); n += 1) {
      const worker = new Worker(entry.file, {
        workerData: setup,
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
      });
      workers.push(worker);
      worker.on('message', (reply: ScanReply) => {
        if ('failure' in reply) unreadable ??= scanFailure(reply.failure);
        else {
          // Not merged already (read here after another worker failed).
          if (reply.index >= merged) parts.set(reply.index, reply.scan);
          mergeReady();
          if (!feed(worker)) idle.add(worker);
          // A worker waits when the merge is held up: wake the idle ones.
          feedIdle();
        }
        changed();
      });
      const failed = (cause: unknown) => {
        if (merged < requests.length) workerFailure ??= cause;
        changed();
      };
      worker.on('error', failed);
      worker.on('exit', (code) => failed(new Error(`the worker thread exited with code ${code}`)));
      for (let queued = 0; queued < QUEUED_PER_WORKER; queued += 1) feed(worker);
    }
    // This thread reads files too, from the same queue, between the workers' answers.
    while (merged < requests.length) {
      throwIfAborted(options.signal);
      if (unreadable) throw unreadable;
      if (sent < requests.length && sent - merged < MAX_AHEAD) {
        const at = sent;
        sent += 1;
        const { file, kind } = requests[at] as ScanRequest;
        const part = await here.scan(file, kind);
        readHere += 1;
        parts.set(at, part);
        mergeReady();
        feedIdle();
        // Let the workers' answers in (and with them, more work for them).
        await yieldToEventLoop();
      } else if (workerFailure !== undefined) {
        // Files the failed worker held: read here, in order.
        const { file, kind } = requests[merged] as ScanRequest;
        if (!parts.has(merged)) parts.set(merged, await here.scan(file, kind));
        mergeReady();
      } else await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    options.signal?.removeEventListener('abort', changed);
    for (const worker of workers) void worker.terminate();
  }
  options.debug?.(
    workerFailure === undefined
      ? `Readiness scan: ${requests.length} file(s) read on ${workers.length + 1} threads (${readHere} on the main one).`
      : `Readiness scan: a worker thread failed (${errorMessage(workerFailure)}); the main thread read the files it held.`,
  );
}

/** The error a worker's failure stands for: the same one the calling thread would throw. */
function scanFailure(failure: Extract<ScanReply, { failure: unknown }>['failure']): Error {
  const local =
    failure.code !== undefined
      ? asLocalFileError(failure, failure.path ?? '', READ_DOING)
      : undefined;
  if (local) return local;
  const error = new Error(failure.message);
  if (failure.stack !== undefined) error.stack = failure.stack;
  return error;
}

/** The worker script shipped beside this module: bundled in dist/, or compiled beside it. */
function shippedWorker(): WorkerEntry | undefined {
  const file = shippedWorkerFile(import.meta.url, 'scan-worker.js');
  return file === undefined ? undefined : { file };
}

/** Adds one file's part to the result, as reading it in place would have. */
export function mergeFileScan(result: ScanResult, part: FileScan): void {
  result.scanned += part.scanned;
  result.pages += part.pages;
  for (const reference of part.external) {
    if (result.external.length < MAX_KEPT) result.external.push(reference);
    else result.externalDropped += 1;
  }
  result.externalDropped += part.externalDropped;
  result.metadata += part.metadata;
  for (const [host, seen] of part.unconfirmed) {
    const entry = result.unconfirmed.get(host);
    if (entry) entry.count += seen.count;
    else if (result.unconfirmed.size < MAX_UNCONFIRMED_HOSTS) result.unconfirmed.set(host, seen);
  }
  result.unreadFrames.count += part.unreadFrames.count;
  result.unreadFrames.first ??= part.unreadFrames.first;
  result.links.checked += part.checked;
  result.links.brokenCount += part.brokenCount;
  for (const link of part.broken)
    if (keepsBroken(result.links, result, brokenSize(link))) result.links.broken.push(link);
  for (const rule of Object.keys(part.rules) as RuleName[]) {
    const use = result.rules[rule];
    const partUse = part.rules[rule];
    use.count += partUse.count;
    if (use.example === undefined && partUse.example !== undefined) use.example = partUse.example;
  }
}

/** What one file adds to the scan. */
export interface FileScan {
  /** Bytes read. */
  bytes: number;
  scanned: number;
  pages: number;
  external: ExternalReference[];
  externalDropped: number;
  metadata: number;
  unconfirmed: ScanResult['unconfirmed'];
  unreadFrames: UnreadFrames;
  checked: number;
  broken: BrokenLink[];
  brokenCount: number;
  rules: Record<RuleName, RuleUse>;
}

const READ_DOING = 'read the extracted file';

/** Reads files of one site one at a time, on whichever thread it lives. */
export class FileScanner {
  /** Where a link leads, by page directory and link text (the same from every page of a directory). */
  readonly #linkCache = new LinkCache();

  constructor(
    readonly tree: SiteTree,
    /** `signal`: stops a page streamed in pieces between two (a worker thread is stopped whole). */
    readonly options: Pick<ScanOptions, 'allowedHosts' | 'external' | 'links' | 'signal'>,
  ) {}

  async scan(file: string, kind: Kind): Promise<FileScan> {
    const absolute = path.join(this.tree.root, ...file.split('/'));
    try {
      return await this.#scan(file, absolute, kind);
    } catch (err) {
      throw asLocalFileError(err, absolute, READ_DOING) ?? err;
    }
  }

  /** `pageBase`: the page's `<base href>`, when an earlier reading found it too late. */
  async #scan(file: string, absolute: string, kind: Kind, pageBase?: string): Promise<FileScan> {
    const { tree, options } = this;
    const content = readSmall(absolute);
    const part: FileScan = {
      bytes: content?.length ?? 0,
      scanned: 0,
      pages: 0,
      external: [],
      externalDropped: 0,
      metadata: 0,
      unconfirmed: new Map(),
      unreadFrames: { count: 0 },
      checked: 0,
      broken: [],
      brokenCount: 0,
      rules: emptyRules(),
    };
    const lines = new LineIndex();
    const seen = new Map<string, Set<string>>();
    // A page repeats its outbound links (a "source" link per paragraph): parse each URL once.
    const hosts = new Map<string, string | null>();
    const outsideHost = (url: string): string | undefined => {
      // One lookup, not has + get: each hashes a fresh string (null: inside or allowed).
      const known = hosts.get(url);
      if (known !== undefined) return known ?? undefined;
      const host = externalHost(url);
      const outside =
        host === undefined || isAllowedHost(host, options.allowedHosts) ? undefined : host;
      if (hosts.size < MAX_HOSTS_PER_FILE) hosts.set(url, outside ?? null);
      return outside;
    };
    const external = (found: FoundReference) => {
      if (!options.external || isSitePath(found.url)) return;
      const host = outsideHost(found.url);
      if (host === undefined) return;
      if (found.role === 'metadata') {
        part.metadata += 1;
        return;
      }
      // One finding per URL and role in a file (flight data repeats the HTML's links),
      // looked up by the URL itself: a key made of both would be a new string to hash
      // each time, all of a long URL's characters.
      const roles = seen.get(found.url);
      if (roles?.has(found.role)) return;
      // Past the kept list, each is counted, not remembered: a page of millions of distinct
      // URLs would hold them all (a repeat of one not kept is counted again).
      if (part.external.length >= MAX_KEPT) {
        part.externalDropped += 1;
        return;
      }
      if (roles === undefined) seen.set(found.url, new Set([found.role]));
      else roles.add(found.role);
      part.external.push({
        file,
        ...lines.at(found.offset),
        url: detached(found.url),
        host: detached(host),
        role: found.role,
        via: found.via,
      });
    };
    const unconfirmed = (script: ScriptUrl) => {
      if (!options.external) return;
      const host = outsideHost(script.url);
      if (host === undefined) return;
      const entry = part.unconfirmed.get(host);
      if (entry) entry.count += 1;
      else if (part.unconfirmed.size < MAX_UNCONFIRMED_HOSTS)
        part.unconfirmed.set(host, {
          count: 1,
          first: { file, line: lines.at(script.offset).line, url: detached(script.url) },
        });
    };

    if (kind === 'html') {
      part.scanned += 1;
      const isPage = !/\.svg$/i.test(file);
      if (isPage) part.pages += 1;
      // Links to check, in the page's order; `unbased`: fetched before the <base href>,
      // against the page's own address.
      const pending: PendingLink[] = [];
      let basedPending = 0;
      // Browsers resolve a link when it is followed, and an image or a video when they load
      // it, against the page's first <base href>, wherever it stands. One found after
      // references it changes were read has the page read again, knowing it from the
      // start. What the parser fetches as it meets it (a script, a stylesheet) is fetched
      // from the page's own address first.
      let readBeforeBase = false;
      let linksCheckedBeforeBase = false;
      const baseCameLate = () =>
        pageBase === undefined &&
        scanner.base !== undefined &&
        (linksCheckedBeforeBase ||
          (readBeforeBase && options.external && baseNamesHost(scanner.base)));
      const scanner = new HtmlScanner(
        {
          reference: (found) => {
            const unbased = found.parsed === true && !scanner.baseReached;
            if (scanner.base === undefined) readBeforeBase = true;
            // Fetched from the page's own address first, but a script may move it under the
            // base (`onload="this.rel='stylesheet'"`, an element put back): the host check
            // reads it there. The link check reads it where the parser fetched it.
            external(underBase(found, scanner.base));
            if (isPage && options.links && found.attribute && found.role !== 'metadata') {
              pending.push({ reference: found, unbased });
              if (!unbased) basedPending += 1;
            }
          },
          unconfirmed,
          unreadFrame: (offset) => {
            part.unreadFrames.count += 1;
            part.unreadFrames.first ??= { file, line: lines.at(offset).line };
          },
        },
        // Served as application/xhtml+xml and image/svg+xml: browsers parse them as XML.
        { xml: isXmlDocument(file) },
      );
      scanner.base = pageBase;
      const chunks = content !== undefined ? textPieces(content) : streamedText(absolute, part);
      for await (const chunk of chunks) {
        // A page of hundreds of MB takes seconds: the step's timeout must not wait for it.
        throwIfAborted(options.signal);
        lines.append(chunk);
        scanner.write(chunk);
        if (baseCameLate()) return this.#scan(file, absolute, kind, scanner.base);
        // Links are resolved as the page streams, so only a chunk's worth is held.
        if (scanner.base === undefined && basedPending > 0) linksCheckedBeforeBase = true;
        checkLinks(tree, file, scanner.base, pending, lines, part, this.#linkCache);
        pending.length = 0;
        basedPending = 0;
      }
      scanner.end();
      if (baseCameLate()) return this.#scan(file, absolute, kind, scanner.base);
      checkLinks(tree, file, scanner.base, pending, lines, part, this.#linkCache);
      return part;
    }

    const bytes = content ?? (await readFile(absolute));
    if (content === undefined) part.bytes = bytes.length;
    const source = wholeText(bytes);
    lines.append(source);
    if (kind === 'flight') {
      if (!/^[0-9a-f]*:/i.test(source)) return part;
      part.scanned += 1;
      for (const found of referencesInFlight(source)) external(found);
    } else if (kind === 'css') {
      part.scanned += 1;
      for (const css of urlsInCss(source))
        external({ url: css.url, offset: css.offset, role: 'load', via: css.via });
    } else if (kind === 'js') {
      part.scanned += 1;
      for (const script of urlsInScript(source)) {
        if (script.evidence)
          external({
            url: script.url,
            offset: script.offset,
            role: 'load',
            via: `script: ${script.evidence}`,
          });
        else unconfirmed(script);
      }
    } else {
      const references = referencesInWebManifest(source);
      if (references.length === 0) return part;
      part.scanned += 1;
      for (const found of references) external(found);
    }
    return part;
  }
}

/**
 * The bytes of a file up to SMALL_FILE bytes; undefined for a larger one (streamed instead).
 * Synchronous: a page just extracted is in the page cache, and four thread-pool round trips
 * per file (open, stat, read, close) cost more than the copy.
 */
function readSmall(file: string): Buffer | undefined {
  const fd = openSync(file, 'r');
  try {
    return fstatSync(fd).size <= SMALL_FILE ? readFileSync(fd) : undefined;
  } finally {
    closeSync(fd);
  }
}

interface TextDecoding {
  write(bytes: Buffer): string;
  end(): string;
}

/**
 * A decoder for the text that starts with `head`: UTF-16 when a byte order mark says so
 * (browsers read a page or a stylesheet so whatever its charset), UTF-8 otherwise. A
 * character split between two pieces stays whole.
 */
function textDecoding(head: Buffer): TextDecoding {
  const utf16 =
    head[0] === 0xff && head[1] === 0xfe
      ? 'utf-16le'
      : head[0] === 0xfe && head[1] === 0xff
        ? 'utf-16be'
        : undefined;
  if (utf16 === undefined) {
    const decoder = new StringDecoder('utf8');
    return { write: (bytes) => decoder.write(bytes), end: () => decoder.end() };
  }
  const decoder = new TextDecoder(utf16);
  return { write: (bytes) => decoder.decode(bytes, { stream: true }), end: () => decoder.decode() };
}

function wholeText(bytes: Buffer): string {
  const decoder = textDecoding(bytes);
  return decoder.write(bytes) + decoder.end();
}

/** The text of `bytes` in pieces of READ_CHUNK bytes. */
function* textPieces(bytes: Buffer): Generator<string> {
  const decoder = textDecoding(bytes);
  for (let at = 0; at < bytes.length; at += READ_CHUNK)
    yield decoder.write(bytes.subarray(at, at + READ_CHUNK));
  const rest = decoder.end();
  if (rest !== '') yield rest;
}

/** The text of a large file, streamed in pieces; its bytes counted into `counted`. */
async function* streamedText(file: string, counted: { bytes: number }): AsyncGenerator<string> {
  let decoder: TextDecoding | undefined;
  for await (const chunk of createReadStream(file, { highWaterMark: READ_CHUNK })) {
    const bytes = chunk as Buffer;
    counted.bytes += bytes.length;
    decoder ??= textDecoding(bytes);
    yield decoder.write(bytes);
  }
  const rest = decoder?.end() ?? '';
  if (rest !== '') yield rest;
}

const SLASH = 0x2f;

const BACKSLASH = 0x5c;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * `/path`: a root-absolute link inside the site, the most common kind (no scheme, no host).
 * Not `/\host` nor `/<line break>/host`, which browsers read as `//host`.
 */
function isSitePath(url: string): boolean {
  if (url.charCodeAt(0) !== SLASH) return false;
  const second = url.charCodeAt(1);
  return (
    second !== SLASH &&
    second !== BACKSLASH &&
    second !== TAB &&
    second !== LINE_FEED &&
    second !== CARRIAGE_RETURN
  );
}

/**
 * A root-absolute path with nothing to normalize or decode: its own URL path. (Browsers
 * drop tabs and line breaks from a URL, so a path with one goes through the URL parser.)
 */
const PLAIN_ABSOLUTE = /^\/(?!\/)[^?#%\\\t\n\r]*$/;

/** Where a link leads inside the site, resolved once per page directory and link text. */
type LinkTarget = { path: string; resolved: Resolved | undefined } | null;
const CACHE_LIMIT = 200_000;

/**
 * Link targets by scope (a page directory, a base's address, or '' for a path from the
 * site's root) and link text, CACHE_LIMIT in all. Looked up by the two apart: a key made
 * of both would be a new string to hash at every link, all of a long base's characters.
 * The scope last asked for is kept: V8 hashes a string of over 16K characters by its
 * length alone, so a long base's address is told from another key by comparing them,
 * each of its characters unless it is the same string.
 */
class LinkCache {
  readonly #byScope = new Map<string, Map<string, LinkTarget>>();
  #size = 0;
  #lastScope: string | undefined;
  #last: Map<string, LinkTarget> | undefined;

  get(scope: string, value: string): LinkTarget | undefined {
    return this.#targets(scope)?.get(value);
  }

  set(scope: string, value: string, target: LinkTarget): void {
    if (this.#size >= CACHE_LIMIT) return;
    let targets = this.#targets(scope);
    if (targets === undefined) {
      targets = new Map();
      this.#byScope.set(detached(scope), targets);
      this.#last = targets;
    }
    targets.set(detached(value), target);
    this.#size += 1;
  }

  #targets(scope: string): Map<string, LinkTarget> | undefined {
    if (scope !== this.#lastScope) this.#last = this.#byScope.get(scope);
    // Kept as this very string: the next comparison with it reads no character.
    this.#lastScope = scope;
    return this.#last;
  }
}

function resolveLink(tree: SiteTree, pageBase: URL, value: string): LinkTarget {
  let urlPath: string;
  // A path alone is the site's own, unless a <base href> of another origin says otherwise.
  if (PLAIN_ABSOLUTE.test(value) && !value.includes('/.') && pageBase.origin === SITE_ORIGIN)
    urlPath = value;
  else {
    let target: URL;
    try {
      target = new URL(value, pageBase);
    } catch {
      return null;
    }
    if (target.origin !== SITE_ORIGIN) return null;
    const decoded = decodedUrlPath(target.pathname);
    if (decoded === undefined) return { path: target.pathname, resolved: undefined };
    urlPath = decoded;
  }
  return { path: detached(urlPath), resolved: tree.resolve(urlPath) };
}

/** A link to check, and whether it keeps the page's own address under a later base. */
interface PendingLink {
  reference: HtmlReference;
  unbased: boolean;
}

/** What links of a page resolve against: its base (or its own address), and the cache's scope. */
interface LinkBase {
  pageBase: URL;
  /** pageBase's address, read once. */
  href: string;
  scope: string;
  /** Under a `<base href>`: root-absolute links are keyed by the base too. */
  based: boolean;
}

function linkBase(own: URL, base: string | undefined): LinkBase {
  let pageBase = own;
  if (base !== undefined) {
    // A base that is no URL, or a data: or javascript: one, leaves the page's own, as the
    // HTML standard says (Chromium follows no relative link under one that is no URL).
    const parsed = URL.canParse(base, own.href) ? new URL(base, own) : undefined;
    if (parsed && parsed.protocol !== 'data:' && parsed.protocol !== 'javascript:')
      pageBase = parsed;
  }
  // Links resolve the same from every page of a directory (and root-absolute ones from every page).
  const href = pageBase.href;
  const scope =
    base === undefined ? pageBase.pathname.slice(0, pageBase.pathname.lastIndexOf('/') + 1) : href;
  return { pageBase, href, scope, based: base !== undefined };
}

function checkLinks(
  tree: SiteTree,
  file: string,
  base: string | undefined,
  found: readonly PendingLink[],
  lines: LineIndex,
  part: FileScan,
  cache: LinkCache,
): void {
  if (found.length === 0) return;
  let own: URL;
  try {
    own = new URL(pageAddress(SITE_ORIGIN, pageUrl(file)));
  } catch {
    return;
  }
  const basedOn = linkBase(own, base);
  let unbased: LinkBase | undefined;
  for (const pending of found) {
    const { reference } = pending;
    const { pageBase, href, scope, based } = pending.unbased
      ? (unbased ??= linkBase(own, undefined))
      : basedOn;
    const value = reference.url;
    if (
      !isSitePath(value) &&
      (value.startsWith('#') || value.startsWith('//') || SCHEME.test(value))
    )
      continue;
    // A link of only a query is the page itself: its own scope.
    const linkScope = !based && value.startsWith('/') ? '' : value.startsWith('?') ? href : scope;
    let target = cache.get(linkScope, value);
    if (target === undefined) {
      target = resolveLink(tree, pageBase, value);
      cache.set(linkScope, value, target);
    }
    if (target === null) continue;
    part.checked += 1;
    const { resolved } = target;
    if (!resolved) {
      part.brokenCount += 1;
      if (keepsBroken(part, part, file.length + value.length + target.path.length))
        part.broken.push({
          file,
          ...lines.at(reference.offset),
          url: detached(value),
          target: keptPath(target),
        });
      continue;
    }
    countRule(part.rules[resolved.rule], file, reference, lines, resolved);
    if (resolved.shadowedByDirectory)
      countRule(part.rules.directoryTrap, file, reference, lines, resolved);
  }
}

function countRule(
  use: RuleUse,
  file: string,
  reference: HtmlReference,
  lines: LineIndex,
  resolved: Resolved,
): void {
  use.count += 1;
  use.example ??= {
    file,
    line: lines.at(reference.offset).line,
    url: detached(reference.url),
    served: resolved.file,
  };
}

/**
 * A copy of a string that shares no memory with the page it was cut from. V8 keeps a
 * substring as a view of its parent, so one kept URL would keep a whole page alive.
 */
/**
 * A broken link's target, copied once per target: thousands of links to one missing page
 * of a deep directory would otherwise each hold a copy of its long path.
 */
const keptPaths = new WeakMap<object, string>();
function keptPath(target: { path: string }): string {
  let kept = keptPaths.get(target);
  if (kept === undefined) keptPaths.set(target, (kept = detached(target.path)));
  return kept;
}

function detached(text: string): string {
  return (' ' + text).slice(1);
}

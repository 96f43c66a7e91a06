import { closeSync, createReadStream, fstatSync, openSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { throwIfAborted } from '../errors.js';
import { urlsInCss } from './css.js';
import { referencesInFlight } from './flight.js';
import { type HtmlReference, HtmlScanner } from './html.js';
import { type ScriptUrl, urlsInScript } from './js.js';
import { referencesInWebManifest } from './json-formats.js';
import {
  type ExternalReference,
  externalHost,
  type FoundReference,
  isAllowedHost,
  LineIndex,
} from './references.js';
import { pageUrl, type Resolved, type SiteTree, type UrlRule } from './site-tree.js';

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
  /** URL strings in scripts without evidence of a request, per host. */
  unconfirmed: Map<string, { count: number; first: { file: string; line: number; url: string } }>;
  links: { checked: number; broken: BrokenLink[]; brokenCount: number };
  /** Internal links served only thanks to a URL rule a plain static host lacks. */
  rules: Record<UrlRule | 'directoryTrap', RuleUse>;
}

export interface ScanOptions {
  allowedHosts: readonly string[];
  /** Collect references outside the site (not for `cloud`). */
  external: boolean;
  /** Resolve internal links against the tree. */
  links: boolean;
  signal?: AbortSignal;
}

/** Kept in memory at most; the counts go on. */
const MAX_KEPT = 100_000;
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

type Kind = 'html' | 'css' | 'js' | 'manifest' | 'flight';

function kindOf(file: string): Kind | undefined {
  const extension = path.extname(file).toLowerCase();
  if (['.html', '.htm', '.xhtml', '.svg'].includes(extension)) return 'html';
  if (extension === '.css') return 'css';
  if (['.js', '.mjs', '.cjs'].includes(extension)) return 'js';
  if (extension === '.webmanifest' || path.basename(file) === 'manifest.json') return 'manifest';
  // Next.js writes the RSC payload of each page as .txt (robots.txt is not one).
  if (extension === '.txt') return 'flight';
  return undefined;
}

/**
 * Reads every page, stylesheet, script, flight payload and manifest of an extracted site
 * once, streaming pages through the HTML parser, and collects what leaves the site and
 * which internal links lead nowhere. Memory stays flat in the size of the site.
 */
export async function scanSite(tree: SiteTree, options: ScanOptions): Promise<ScanResult> {
  const result: ScanResult = {
    scanned: 0,
    pages: 0,
    external: [],
    externalDropped: 0,
    metadata: 0,
    unconfirmed: new Map(),
    links: { checked: 0, broken: [], brokenCount: 0 },
    rules: {
      file: { count: 0 },
      html: { count: 0 },
      index: { count: 0 },
      directoryTrap: { count: 0 },
    },
  };
  const linkCache = new Map<string, LinkTarget>();
  const files = [...tree.files].sort().flatMap((file) => {
    const kind = kindOf(file);
    return kind ? [{ file, kind }] : [];
  });
  for (const [index, { file, kind }] of files.entries()) {
    // Reads are synchronous: let signals, timers and the deadline in between files.
    if (index % YIELD_EVERY_FILES === 0) await yieldToEventLoop();
    throwIfAborted(options.signal);
    const content = readSmall(path.join(tree.root, ...file.split('/')));
    await scanFile(tree, file, kind, content, options, result, linkCache);
  }
  return result;
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

async function scanFile(
  tree: SiteTree,
  file: string,
  kind: Kind,
  content: Buffer | undefined,
  options: ScanOptions,
  result: ScanResult,
  linkCache: Map<string, LinkTarget>,
): Promise<void> {
  const absolute = path.join(tree.root, ...file.split('/'));
  const lines = new LineIndex();
  const seen = new Set<string>();
  // A page repeats its outbound links (a "source" link per paragraph): parse each URL once.
  const hosts = new Map<string, string | undefined>();
  const outsideHost = (url: string): string | undefined => {
    if (hosts.has(url)) return hosts.get(url);
    const host = externalHost(url);
    const outside =
      host === undefined || isAllowedHost(host, options.allowedHosts) ? undefined : host;
    if (hosts.size < MAX_HOSTS_PER_FILE) hosts.set(url, outside);
    return outside;
  };
  const external = (found: FoundReference) => {
    if (!options.external || isSitePath(found.url)) return;
    const host = outsideHost(found.url);
    if (host === undefined) return;
    if (found.role === 'metadata') {
      result.metadata += 1;
      return;
    }
    // One finding per URL and role in a file (flight data repeats the HTML's links).
    const key = `${found.role}\u0000${found.url}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (result.external.length >= MAX_KEPT) {
      result.externalDropped += 1;
      return;
    }
    result.external.push({
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
    const entry = result.unconfirmed.get(host);
    if (entry) entry.count += 1;
    else
      result.unconfirmed.set(host, {
        count: 1,
        first: { file, line: lines.at(script.offset).line, url: detached(script.url) },
      });
  };

  if (kind === 'html') {
    result.scanned += 1;
    const isPage = !file.toLowerCase().endsWith('.svg');
    if (isPage) result.pages += 1;
    const pending: HtmlReference[] = [];
    const scanner = new HtmlScanner({
      reference: (found) => {
        external(found);
        if (isPage && options.links && found.attribute && found.role !== 'metadata')
          pending.push(found);
      },
      unconfirmed,
    });
    const chunks =
      content !== undefined
        ? textPieces(content)
        : (createReadStream(absolute, {
            encoding: 'utf8',
            highWaterMark: READ_CHUNK,
          }) as AsyncIterable<string>);
    for await (const chunk of chunks) {
      lines.append(chunk);
      scanner.write(chunk);
      // Links are resolved as the page streams, so only a chunk's worth is held.
      checkLinks(tree, file, scanner.base, pending, lines, result, linkCache);
      pending.length = 0;
    }
    scanner.end();
    checkLinks(tree, file, scanner.base, pending, lines, result, linkCache);
    return;
  }

  const source = content?.toString('utf8') ?? (await readFile(absolute, 'utf8'));
  lines.append(source);
  if (kind === 'flight') {
    if (!/^[0-9a-f]*:/i.test(source)) return;
    result.scanned += 1;
    for (const found of referencesInFlight(source)) external(found);
  } else if (kind === 'css') {
    result.scanned += 1;
    for (const css of urlsInCss(source))
      external({ url: css.url, offset: css.offset, role: 'load', via: css.via });
  } else if (kind === 'js') {
    result.scanned += 1;
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
    if (references.length === 0) return;
    result.scanned += 1;
    for (const found of references) external(found);
  }
}

/** UTF-8 text of `bytes` in pieces of READ_CHUNK bytes (a character split between two stays whole). */
function* textPieces(bytes: Buffer): Generator<string> {
  const decoder = new StringDecoder('utf8');
  for (let at = 0; at < bytes.length; at += READ_CHUNK)
    yield decoder.write(bytes.subarray(at, at + READ_CHUNK));
  const rest = decoder.end();
  if (rest !== '') yield rest;
}

const SLASH = 0x2f;

/** `/path`: a root-absolute link inside the site, the most common kind (no scheme, no host). */
function isSitePath(url: string): boolean {
  return url.charCodeAt(0) === SLASH && url.charCodeAt(1) !== SLASH;
}

const SITE_ORIGIN = 'http://site.invalid';
/** A root-absolute path with nothing to normalize or decode: its own URL path. */
const PLAIN_ABSOLUTE = /^\/(?!\/)[^?#%\\]*$/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Where a link leads inside the site, resolved once per page directory and link text. */
type LinkTarget = { path: string; resolved: Resolved | undefined } | null;
const CACHE_LIMIT = 200_000;

function resolveLink(tree: SiteTree, pageBase: URL, value: string): LinkTarget {
  let urlPath: string;
  if (PLAIN_ABSOLUTE.test(value) && !value.includes('/.')) urlPath = value;
  else {
    let target: URL;
    try {
      target = new URL(value, pageBase);
    } catch {
      return null;
    }
    if (target.origin !== SITE_ORIGIN) return null;
    try {
      urlPath = decodeURIComponent(target.pathname);
    } catch {
      urlPath = target.pathname;
    }
  }
  return { path: detached(urlPath), resolved: tree.resolve(urlPath) };
}

function checkLinks(
  tree: SiteTree,
  file: string,
  base: string | undefined,
  found: readonly HtmlReference[],
  lines: LineIndex,
  result: ScanResult,
  cache: Map<string, LinkTarget>,
): void {
  if (found.length === 0) return;
  let pageBase: URL;
  try {
    pageBase = new URL(base ?? '', new URL(pageUrl(file), SITE_ORIGIN));
  } catch {
    return;
  }
  // Links resolve the same from every page of a directory (and root-absolute ones from every page).
  const scope =
    base === undefined
      ? pageBase.pathname.slice(0, pageBase.pathname.lastIndexOf('/') + 1)
      : pageBase.href;
  for (const reference of found) {
    const value = reference.url;
    if (
      !isSitePath(value) &&
      (value.startsWith('#') || value.startsWith('//') || SCHEME.test(value))
    )
      continue;
    const key = base === undefined && value.startsWith('/') ? value : `${scope}\u0000${value}`;
    let target = cache.get(key);
    if (target === undefined) {
      target = resolveLink(tree, pageBase, value);
      if (cache.size < CACHE_LIMIT) cache.set(detached(key), target);
    }
    if (target === null) continue;
    result.links.checked += 1;
    const { resolved } = target;
    if (!resolved) {
      result.links.brokenCount += 1;
      if (result.links.broken.length < MAX_KEPT)
        result.links.broken.push({
          file,
          ...lines.at(reference.offset),
          url: detached(value),
          target: detached(target.path),
        });
      continue;
    }
    countRule(result.rules[resolved.rule], file, reference, lines, resolved);
    if (resolved.shadowedByDirectory)
      countRule(result.rules.directoryTrap, file, reference, lines, resolved);
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
function detached(text: string): string {
  return (' ' + text).slice(1);
}

import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
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
import { pageUrl, type SiteTree, type UrlRule } from './site-tree.js';

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
const READ_CHUNK = 256 * 1024;

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
  for (const file of [...tree.files].sort()) {
    const kind = kindOf(file);
    if (!kind) continue;
    throwIfAborted(options.signal);
    await scanFile(tree, file, kind, options, result);
  }
  return result;
}

async function scanFile(
  tree: SiteTree,
  file: string,
  kind: Kind,
  options: ScanOptions,
  result: ScanResult,
): Promise<void> {
  const absolute = path.join(tree.root, ...file.split('/'));
  const lines = new LineIndex();
  const seen = new Set<string>();
  const external = (found: FoundReference) => {
    if (!options.external) return;
    const host = externalHost(found.url);
    if (host === undefined || isAllowedHost(host, options.allowedHosts)) return;
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
      url: found.url,
      host,
      role: found.role,
      via: found.via,
    });
  };
  const unconfirmed = (script: ScriptUrl) => {
    if (!options.external) return;
    const host = externalHost(script.url);
    if (host === undefined || isAllowedHost(host, options.allowedHosts)) return;
    const entry = result.unconfirmed.get(host);
    if (entry) entry.count += 1;
    else
      result.unconfirmed.set(host, {
        count: 1,
        first: { file, line: lines.at(script.offset).line, url: script.url },
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
    const stream = createReadStream(absolute, { encoding: 'utf8', highWaterMark: READ_CHUNK });
    for await (const chunk of stream as AsyncIterable<string>) {
      lines.append(chunk);
      scanner.write(chunk);
      // Links are resolved as the page streams, so only a chunk's worth is held.
      checkLinks(tree, file, scanner.base, pending, lines, result);
      pending.length = 0;
    }
    scanner.end();
    checkLinks(tree, file, scanner.base, pending, lines, result);
    return;
  }

  const source = await readFile(absolute, 'utf8');
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

const SITE_ORIGIN = 'http://site.invalid';

function checkLinks(
  tree: SiteTree,
  file: string,
  base: string | undefined,
  found: readonly HtmlReference[],
  lines: LineIndex,
  result: ScanResult,
): void {
  if (found.length === 0) return;
  let pageBase: URL;
  try {
    pageBase = new URL(base ?? '', new URL(pageUrl(file), SITE_ORIGIN));
  } catch {
    return;
  }
  for (const reference of found) {
    const value = reference.url;
    if (value.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(value) || value.startsWith('//'))
      continue;
    let target: URL;
    try {
      target = new URL(value, pageBase);
    } catch {
      continue;
    }
    if (target.origin !== SITE_ORIGIN) continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(target.pathname);
    } catch {
      decoded = target.pathname;
    }
    result.links.checked += 1;
    const resolved = tree.resolve(decoded);
    const at = () => lines.at(reference.offset);
    if (!resolved) {
      result.links.brokenCount += 1;
      if (result.links.broken.length < MAX_KEPT)
        result.links.broken.push({ file, ...at(), url: value, target: decoded });
      continue;
    }
    const use = (rule: UrlRule | 'directoryTrap') => {
      const entry = result.rules[rule];
      entry.count += 1;
      entry.example ??= { file, line: at().line, url: value, served: resolved.file };
    };
    use(resolved.rule);
    if (resolved.shadowedByDirectory) use('directoryTrap');
  }
}

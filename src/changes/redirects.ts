import fs from 'node:fs/promises';
import path from 'node:path';
import { Parser } from 'htmlparser2';
import { refreshUrl } from '../airgap/html.js';
import { decodedUrlPath, SiteTree } from '../airgap/site-tree.js';
import type { ManifestFile } from '../deliver/manifest.js';
import type { ChangeReport } from './compare.js';
import { isPage, pageUrl } from './site-files.js';

/**
 * Redirect stubs: the pages a generator leaves at a moved page's old address, whose
 * `<meta http-equiv="refresh">` sends the reader on to the new one (Hugo's aliases, Jekyll's
 * redirect_from, Docusaurus's client redirects, Next.js's `redirect()` in a static export).
 * The fingerprints only hash where a page redirects, so the report reads the few pages it
 * lists as added or changed again, smallest first, as a stub is.
 */

/** Bytes of pages read again at most: stubs are a few hundred bytes, a site's pages far more. */
const STUB_BYTES_READ = 16 * 1024 * 1024;

/**
 * The longest delay of a refresh that sends a reader on at once: Next.js writes 0 for a
 * permanent redirect and 1 for a temporary one; a longer one leaves a page to be read.
 */
const REDIRECT_MAX_SECONDS = 1;

/** Where the site is served: pages' addresses, and what a redirect must lead to. */
export interface SiteAddress {
  domain: string;
  /** The folder the site is served under (`/docs`), '' for the domain's root. */
  sitePath: string;
}

/**
 * The pages of the new export that the report lists as added or changed, that redirect a
 * reader at once to another page of it: the stub's path → the page's path. Reads them
 * from `root` (the extracted site) smallest first, within a budget of bytes.
 */
export async function findRedirects(
  root: string,
  report: ChangeReport,
  files: ReadonlyMap<string, ManifestFile>,
  site: SiteAddress,
): Promise<Map<string, string>> {
  const redirects = new Map<string, string>();
  const listed = [...report.pages.added, ...report.pages.changed]
    .map((page) => files.get(page.path))
    .filter((file): file is ManifestFile => file !== undefined)
    .sort((a, b) => a.size - b.size);
  // The site's tree only for a page that names a refresh: most reports list none.
  let tree: SiteTree | undefined;
  let budget = STUB_BYTES_READ;
  for (const file of listed) {
    budget -= file.size;
    if (budget < 0) break;
    const bytes = await fs
      .readFile(path.join(root, ...file.path.split('/')))
      .catch(() => undefined);
    if (bytes === undefined || !namesRefresh(bytes)) continue;
    tree ??= SiteTree.of('', files.keys(), []);
    const target = redirectOf(bytes, file.path, tree, site);
    if (target !== undefined) redirects.set(file.path, target);
  }
  return redirects;
}

/** The page of the site that the page `file` (its bytes) sends a reader to at once, if any. */
export function redirectOf(
  bytes: Buffer,
  file: string,
  tree: SiteTree,
  site: SiteAddress,
): string | undefined {
  if (!namesRefresh(bytes)) return undefined;
  const refresh = readRefresh(bytes.toString('utf8'));
  if (refresh === undefined) return undefined;
  const own = pageUrl(site.domain, file, site.sitePath);
  let target: URL;
  try {
    target = new URL(refresh.url, refresh.base === undefined ? own : new URL(refresh.base, own));
  } catch {
    return undefined;
  }
  if (
    (target.protocol !== 'https:' && target.protocol !== 'http:') ||
    target.hostname !== site.domain
  ) {
    return undefined;
  }
  const inSite = `${site.sitePath}/`;
  if (!target.pathname.startsWith(inSite)) return undefined;
  const urlPath = decodedUrlPath(target.pathname.slice(site.sitePath.length));
  const found = urlPath === undefined ? undefined : tree.resolve(urlPath)?.file;
  return found !== undefined && found !== file && isPage(found) ? found : undefined;
}

/** Whether the page's bytes name a refresh at all: most pages do not, and are not parsed. */
function namesRefresh(bytes: Buffer): boolean {
  const text = bytes.toString('latin1');
  return /http-equiv/i.test(text) && /refresh/i.test(text);
}

/**
 * The URL of the first `<meta http-equiv="refresh">` of a page, the one a browser acts on,
 * when it sends the reader on within `REDIRECT_MAX_SECONDS`; and the page's `<base href>`,
 * which a relative URL is read against. What a `<template>`, a `<noscript>` (text to a
 * browser that runs scripts) or an SVG or MathML element holds is no tag of the page.
 */
export function readRefresh(html: string): { url: string; base?: string } | undefined {
  let found: { url: string } | undefined;
  let refreshed = false;
  let base: string | undefined;
  let inert = 0;
  const INERT = new Set(['template', 'noscript', 'svg', 'math']);
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (INERT.has(name)) inert += 1;
        if (inert > 0) return;
        if (refreshed) return;
        // The refresh's URL is read against the base known when its tag is met.
        if (name === 'base' && base === undefined && attributes.href !== undefined) {
          base = attributes.href.trim();
        }
        if (name !== 'meta' || attributes['http-equiv']?.toLowerCase() !== 'refresh') return;
        const content = attributes.content ?? '';
        // As the HTML standard reads it: a time, then the end, a separator or a blank; a
        // browser ignores any other (`content="url=/x"`), and acts on the first it takes.
        const delay = /^[\t\n\f\r ]*(\d*)(\.[\d.]*)?(?:[;,\t\n\f\r ]|$)/.exec(content);
        if (delay === null || (delay[1] === '' && delay[2] === undefined)) return;
        refreshed = true;
        const url = refreshUrl(content);
        if (url !== undefined && Number(delay[1] || '0') <= REDIRECT_MAX_SECONDS) found = { url };
      },
      onclosetag(name) {
        if (INERT.has(name) && inert > 0) inert -= 1;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return found === undefined ? undefined : { ...found, ...(base !== undefined ? { base } : {}) };
}

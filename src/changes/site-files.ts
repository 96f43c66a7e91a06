import { pageUrl as servedAt } from '../airgap/site-tree.js';
import { normalizeAssetPath } from './fingerprint.js';

/**
 * What each file of an export is to a reader: a page (an HTML file, reached at a URL), the
 * data a page loads to render itself on client-side navigation (compared through the
 * page, never as an asset), or an asset.
 */

export type FileRole = 'page' | 'page-data' | 'asset';

/** An HTML file is a page. */
export function isPage(file: string): boolean {
  return /\.html?$/i.test(file);
}

/**
 * Page data: Next.js RSC payloads (`guides/intro.txt` beside `guides/intro.html`, and the
 * segment files `__next.*.txt`), VitePress page chunks (`assets/guides_intro.md.<hash>.js`)
 * and its `hashmap.json`. They change with every build and say nothing a page does not.
 */
export function roleOf(file: string, pages: { has(page: string): boolean }): FileRole {
  if (isPage(file)) return 'page';
  const name = file.slice(file.lastIndexOf('/') + 1);
  if (name.endsWith('.txt')) {
    if (name.startsWith('__next.')) return 'page-data';
    // Next.js writes `.html` alone: a text file beside an `.htm` page is the site's own.
    if (pages.has(`${file.slice(0, -4)}.html`)) return 'page-data';
  }
  if (file === 'hashmap.json') return 'page-data';
  if (/(?:^|\/)assets\/[^/]+\.md\.[A-Za-z0-9_-]+(?:\.lean)?\.js$/.test(file)) return 'page-data';
  return 'asset';
}

/**
 * The path a reader types: `guides/intro.html` → `/guides/intro`, `index.html` → `/`; the
 * one the readiness check serves the page at, so `x.htm` stays `/x.htm`.
 */
export function pageRoute(file: string): string {
  return servedAt(file);
}

/**
 * The page's address on the live site (`#` and `?` in a name are part of its path), on a
 * site served under `sitePath` (`/docs`, encoded as a URL holds it) when it is not the root.
 */
export function pageUrl(domain: string, file: string, sitePath = ''): string {
  return `${siteUrl(domain, sitePath).slice(0, -1)}${encodeURI(pageRoute(file)).replace(/#/g, '%23').replace(/\?/g, '%3F')}`;
}

/** The address of the site's home: `https://docs.example.com/`, `https://example.com/docs/`. */
export function siteUrl(domain: string, sitePath = ''): string {
  return `https://${domain}${sitePath}/`;
}

/**
 * Pagefind's search index (Starlight's search, `pagefind/` or `_pagefind/`): a language and
 * 7 or more hex digits of the file's hash, after `_` (`fragment/en_8349913.pf_fragment`).
 */
const PAGEFIND_HASH = /^((?:.*\/)?_?pagefind\/(?:[^/]+\/)*[^/]*_)[0-9a-f]{7,}(\.pf_[a-z]+)$/;

/** Assets are matched across builds by this key: build ids and content hashes left out. */
export function assetKey(file: string): string {
  // Only the report's key: what a page links to is normalized as before (its fingerprint).
  return normalizeAssetPath(file.replace(PAGEFIND_HASH, '$1*$2'));
}

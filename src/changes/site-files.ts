import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import type { PageRecord } from '../deliver/manifest.js';
import { FINGERPRINT_SCHEME, fingerprintPage, normalizeAssetPath } from './fingerprint.js';

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
export function roleOf(file: string, pages: ReadonlySet<string>): FileRole {
  if (isPage(file)) return 'page';
  const name = file.slice(file.lastIndexOf('/') + 1);
  if (name.endsWith('.txt')) {
    if (name.startsWith('__next.')) return 'page-data';
    if (pages.has(`${file.slice(0, -4)}.html`)) return 'page-data';
  }
  if (file === 'hashmap.json') return 'page-data';
  if (/(?:^|\/)assets\/[^/]+\.md\.[A-Za-z0-9_-]+(?:\.lean)?\.js$/.test(file)) return 'page-data';
  return 'asset';
}

/** The path a reader types: `guides/intro.html` → `/guides/intro`, `index.html` → `/`. */
export function pageRoute(file: string): string {
  const withoutExtension = file.replace(/\.html?$/i, '');
  if (withoutExtension === 'index') return '/';
  if (withoutExtension.endsWith('/index')) return `/${withoutExtension.slice(0, -'index'.length)}`;
  return `/${withoutExtension}`;
}

/** The page's address on the live site. */
export function pageUrl(domain: string, file: string): string {
  return `https://${domain}${encodeURI(pageRoute(file))}`;
}

/** Assets are matched across builds by this key: build ids and content hashes left out. */
export function assetKey(file: string): string {
  return normalizeAssetPath(file);
}

export interface PageFingerprints {
  scheme: number;
  byPath: Map<string, PageRecord>;
  /** Pages whose markup matched the earlier export's, so their hashes were carried over. */
  carriedOver: number;
}

/**
 * Fingerprints every page of an extracted site, reading each page once (the files were
 * just written, so they come from the page cache). A page whose markup is unchanged
 * since `earlier` keeps the earlier fingerprint without a second look.
 */
export function fingerprintPages(
  root: string,
  files: readonly { path: string; size: number }[],
  earlier?: ReadonlyMap<string, PageRecord>,
): PageFingerprints {
  const byPath = new Map<string, PageRecord>();
  let carriedOver = 0;
  // One buffer for every page: their sizes are known from the extraction.
  let buffer = Buffer.allocUnsafe(256 * 1024);
  for (const file of files) {
    if (!isPage(file.path)) continue;
    if (file.size > buffer.length) buffer = Buffer.allocUnsafe(file.size);
    const bytes = readInto(path.join(root, ...file.path.split('/')), buffer, file.size);
    const previous = earlier?.get(file.path);
    const fingerprint = fingerprintPage(bytes, previous);
    if (fingerprint === previous) carriedOver += 1;
    byPath.set(file.path, fingerprint);
  }
  return { scheme: FINGERPRINT_SCHEME, byPath, carriedOver };
}

/** The file's first `size` bytes, read into `buffer` with three system calls. */
function readInto(file: string, buffer: Buffer, size: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { urlsInCss } from './css.js';
import { referencesInHtml } from './html.js';
import { urlStringsInJs } from './js.js';
import {
  type ExternalReference,
  externalHost,
  isAllowedHost,
  LineIndex,
  type ReferenceKind,
} from './references.js';

export interface ScanResult {
  /** Files read (HTML, CSS, JavaScript). */
  scanned: number;
  references: ExternalReference[];
}

type Finder = (source: string) => { url: string; offset: number; kind: ReferenceKind }[];

const FINDERS: Record<string, Finder> = {
  '.html': referencesInHtml,
  '.htm': referencesInHtml,
  '.xhtml': referencesInHtml,
  '.svg': referencesInHtml,
  '.css': urlsInCss,
  '.js': (source) =>
    urlStringsInJs(source).map((s) => ({
      url: s.value,
      offset: s.offset,
      kind: 'js string' as const,
    })),
  '.mjs': (source) =>
    urlStringsInJs(source).map((s) => ({
      url: s.value,
      offset: s.offset,
      kind: 'js string' as const,
    })),
};

/**
 * Scans an extracted site for references that leave it: what an air-gapped deployment
 * could not load. Hosts in `allowedHosts` are accepted.
 */
export async function scanSite(root: string, allowedHosts: readonly string[]): Promise<ScanResult> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const references: ExternalReference[] = [];
  let scanned = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const find = FINDERS[path.extname(entry.name).toLowerCase()];
    if (!find) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    const source = await readFile(absolute, 'utf8');
    scanned += 1;
    const lines = new LineIndex(source);
    const file = path.relative(root, absolute).split(path.sep).join('/');
    for (const found of find(source)) {
      const host = externalHost(found.url);
      if (host === undefined || isAllowedHost(host, allowedHosts)) continue;
      references.push({ file, ...lines.at(found.offset), url: found.url, host, kind: found.kind });
    }
  }
  references.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
  return { scanned, references };
}

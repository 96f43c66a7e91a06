import type { ExportManifest, ManifestFile } from '../deliver/manifest.js';
import { NO_NAVIGATION } from './fingerprint.js';
import { assetKey, isPage, pageRoute, pageUrl, roleOf, siteUrl } from './site-files.js';

/**
 * The change report: what a reader will notice between the export that is live (or was
 * in `path`) and the new one. Computed from the two manifests alone, so the earlier
 * export may be a manifest served by the live site.
 */

export const CHANGES_FORMAT = 'static-export-changes';
/**
 * 2: a page moved to another address is listed in `pages.moved`, and no longer in
 * `pages.removed` and `pages.added`.
 * 3: a page whose old address became a redirect to its new one is moved too (its
 * `previous.redirected`), no longer an added page beside a changed one; a page that
 * redirects names where (`redirectsTo`); `site` names where the pages are served.
 * 4: such a page is moved too when its content changed with the move (`changed`), no
 * longer an added page beside a changed one.
 */
export const CHANGES_VERSION = 4;

export interface PageChange {
  /** File in the export (`guides/intro.html`). */
  path: string;
  /** Address on the site (`https://docs.example.com/guides/intro`), under `ChangeReport.site`. */
  url: string;
  title?: string;
  /**
   * The page of the export this one now sends its reader to at once (a redirect stub a
   * generator leaves: `<meta http-equiv="refresh" content="0; url=…">`).
   */
  redirectsTo?: { path: string; url: string };
}

/** A page at a new address with the content it had at its old one. */
export interface PageMove extends PageChange {
  /**
   * Where it was in the earlier export: that address is no longer served, or is a redirect
   * to the new one when `redirected` (a stub the generator left there).
   */
  previous: { path: string; url: string; redirected?: true };
  /**
   * Its content is not what it had at its old address: moved and edited at once. Known
   * only where the old address redirects to it (`previous.redirected`).
   */
  changed?: true;
}

export interface AssetChange {
  path: string;
  /** For a changed asset: its name in the earlier export (the content hash differs). */
  previous?: string;
}

export interface ExportRef {
  domain: string;
  jobId: string;
  exportedAt: string;
}

export interface ChangeReport {
  format: typeof CHANGES_FORMAT;
  version: typeof CHANGES_VERSION;
  /** Where the earlier export's manifest came from, in words. */
  source: string;
  /**
   * The address of the site's home that the pages' `url`s are under: `https://<domain>/`,
   * or the folder `compare-with` names on the domain (`https://example.com/docs/`).
   */
  site: string;
  previous: ExportRef;
  current: ExportRef;
  /**
   * `content`: pages compared by what a reader sees (both manifests have fingerprints of
   * the same scheme); `bytes`: every page by its SHA-256, so build noise counts as a
   * change. Pages of either export without a fingerprint are compared by their bytes
   * whatever this says: `pages.comparedByBytes` counts them.
   */
  comparedBy: 'content' | 'bytes';
  /** Each list of pages in the order of their addresses, numbers by their value (`/p2`, `/p10`). */
  pages: {
    before: number;
    after: number;
    added: PageChange[];
    removed: PageChange[];
    /**
     * Pages at a new address with the content a removed page had, one to one: compared
     * by content only, neither added nor removed. Or whose old address now redirects to
     * them, with the content they had there or not (`changed`).
     */
    moved: PageMove[];
    /** The page's own content changed (its text, links, images or title). */
    changed: PageChange[];
    /** Only the navigation around the page changed (a renamed or added page in the sidebar). */
    navigationChanged: PageChange[];
    unchanged: number;
    /** Pages in both exports compared by their bytes, for want of a fingerprint. */
    comparedByBytes: number;
  };
  assets: {
    added: AssetChange[];
    removed: AssetChange[];
    changed: AssetChange[];
    unchanged: number;
  };
  size: { before: number; after: number };
}

type FileEntry = ManifestFile;

/** The files of one export as the report compares them: its pages by path, and its assets. */
export interface ExportFiles {
  pages: ReadonlyMap<string, FileEntry>;
  assets: readonly FileEntry[];
}

/**
 * Sorts an export's files, once: the earlier export's as soon as it is known (its pages
 * are looked up while the new export is extracted), the new one's as its pages are.
 */
export function exportFiles(files: Iterable<FileEntry>): ExportFiles {
  const pages = new Map<string, FileEntry>();
  // One pass: a manifest being made lists its files anew on each one.
  const others: FileEntry[] = [];
  for (const file of files) {
    if (isPage(file.path)) pages.set(file.path, file);
    else others.push(file);
  }
  return sortedFiles(pages, others);
}

/** An export's files from its pages and the rest, which are assets unless page data. */
export function sortedFiles(
  pages: ReadonlyMap<string, FileEntry>,
  others: readonly FileEntry[],
): ExportFiles {
  return { pages, assets: others.filter((file) => roleOf(file.path, pages) === 'asset') };
}

function refOf(manifest: ExportManifest): ExportRef {
  return { domain: manifest.domain, jobId: manifest.jobId, exportedAt: manifest.exportedAt };
}

function byPath<T extends { path: string }>(a: T, b: T): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * The order a reader expects of addresses: numbers by their value (`/p2` before `/p10`),
 * accents and case after the letters (`/café` just after `/cafe`, `/Zeta` after `/alpha`).
 * One locale, named: the runner's (Swedish, say, puts `ä` after `z`) would change the report.
 */
const readerOrder = new Intl.Collator('en', { numeric: true });

/**
 * Sorts pages in the order of their addresses as a reader spells them, before any
 * encoding: `/` first, `/guides/` before `/guides/setup`, `/p2` before `/p10`. Addresses
 * the collation holds equal (`/p01`, `/p1`) keep an order by their code points.
 */
function sortByRoute(list: PageChange[]): void {
  const routes = new Map(list.map((page) => [page, pageRoute(page.path)]));
  list.sort((a, b) => {
    const x = routes.get(a) as string;
    const y = routes.get(b) as string;
    return readerOrder.compare(x, y) || (x < y ? -1 : x > y ? 1 : byPath(a, b));
  });
}

export interface CompareOptions {
  /** The manifests' files as `exportFiles` sorts them, when that is done already. */
  files?: { previous?: ExportFiles; current?: ExportFiles };
  /** The folder the site is served under on its domain (`/docs`), '' for its root. */
  sitePath?: string;
  /** Pages of the new export that redirect a reader at once to another of its pages, by path. */
  redirects?: ReadonlyMap<string, string>;
}

/** Compares two export manifests; `source` says where `previous` came from. */
export function compareExports(
  previous: ExportManifest,
  current: ExportManifest,
  source: string,
  options: CompareOptions = {},
): ChangeReport {
  const domain = current.domain;
  const { files = {}, sitePath = '', redirects } = options;
  const earlier = files.previous ?? exportFiles(previous.files);
  const now = files.current ?? exportFiles(current.files);
  const pagesBefore = earlier.pages;
  const pagesAfter = now.pages;

  const sameScheme =
    previous.pageFingerprints !== undefined &&
    previous.pageFingerprints.scheme === current.pageFingerprints?.scheme;
  const url = (file: string) => pageUrl(domain, file, sitePath);
  const change = (file: FileEntry): PageChange => ({
    path: file.path,
    url: url(file.path),
    ...(file.page?.title ? { title: file.page.title } : {}),
  });

  const pages: ChangeReport['pages'] = {
    before: pagesBefore.size,
    after: pagesAfter.size,
    added: [],
    removed: [],
    moved: [],
    changed: [],
    navigationChanged: [],
    unchanged: 0,
    comparedByBytes: 0,
  };
  let compared = 0;
  // Earlier pages found under their folder's index (`x.html` → `x/index.html`).
  const nowIndexes = new Set<string>();
  for (const [file, after] of pagesAfter) {
    let before = pagesBefore.get(file);
    const flat = before === undefined ? asFlatPage(file) : undefined;
    if (flat !== undefined && !pagesAfter.has(flat)) {
      before = pagesBefore.get(flat);
      if (before !== undefined) nowIndexes.add(flat);
    }
    if (before === undefined) {
      pages.added.push(change(after));
      continue;
    }
    compared += 1;
    if (sameScheme && before.page && after.page) {
      if (before.page.content !== after.page.content) pages.changed.push(change(after));
      else if (before.page.navigation !== after.page.navigation)
        pages.navigationChanged.push(change(after));
      else pages.unchanged += 1;
      continue;
    }
    pages.comparedByBytes += 1;
    if (before.sha256 === after.sha256) pages.unchanged += 1;
    else pages.changed.push(change(after));
  }
  // Every earlier page was found among the new ones unless some were removed.
  if (compared < pagesBefore.size) {
    for (const [file, before] of pagesBefore) {
      if (!pagesAfter.has(file) && !nowIndexes.has(file)) pages.removed.push(change(before));
    }
  }
  if (redirects !== undefined) {
    followRedirects(pages, redirects, url, sameScheme ? pagesBefore : undefined, pagesAfter);
  }
  if (sameScheme) findMoves(pages, pagesBefore, pagesAfter);
  for (const list of [
    pages.added,
    pages.removed,
    pages.moved,
    pages.changed,
    pages.navigationChanged,
  ]) {
    sortByRoute(list);
  }

  return {
    format: CHANGES_FORMAT,
    version: CHANGES_VERSION,
    source,
    site: siteUrl(domain, sitePath),
    previous: refOf(previous),
    current: refOf(current),
    comparedBy:
      !sameScheme || (compared > 0 && pages.comparedByBytes === compared) ? 'bytes' : 'content',
    pages,
    assets: compareAssets(earlier.assets, now.assets),
    size: { before: previous.totals.bytes, after: current.totals.bytes },
  };
}

/**
 * The page `x.html` for a folder's index `x/index.html`: its address `/x` still serves the
 * index (static hosts lead it to `/x/`), so it is the same page, neither moved nor removed.
 * Not the other way: `/x/` serves no `x.html`.
 */
function asFlatPage(file: string): string | undefined {
  return file.endsWith('/index.html') ? `${file.slice(0, -'/index.html'.length)}.html` : undefined;
}

/**
 * Names where each added or changed page that is a redirect now sends its reader. A
 * changed page that redirects to an added page is that page's old address, where the
 * generator left a stub: the added page moved, and the stub is no change of its own. With
 * other content than it had, it moved and changed at once (a page renamed and edited),
 * when no other stub leads there (two pages merged into a new one: which one moved would
 * be a guess). Content is compared only with fingerprints of one scheme (`before`).
 */
function followRedirects(
  pages: ChangeReport['pages'],
  redirects: ReadonlyMap<string, string>,
  url: (file: string) => string,
  before: ReadonlyMap<string, FileEntry> | undefined,
  after: ReadonlyMap<string, FileEntry>,
): void {
  const added = new Map(pages.added.map((page) => [page.path, page]));
  const changed = new Set(pages.changed);
  const moved = new Set<PageChange>();
  // Added pages that stubs with other content lead to, and those stubs.
  const edited = new Map<PageChange, PageChange[]>();
  for (const page of [...pages.changed, ...pages.added]) {
    const target = redirects.get(page.path);
    if (target === undefined || target === page.path || !after.has(target)) continue;
    page.redirectsTo = { path: target, url: url(target) };
    const to = added.get(target);
    const content = before?.get(page.path)?.page?.content;
    if (to === undefined || moved.has(to) || !changed.has(page) || content === undefined) {
      continue;
    }
    if (content !== after.get(target)?.page?.content) {
      // A page of the site's (with its navigation) become a bare stub (with none): a stub
      // before (`/latest` sent on to a newer page), or one drawn inside the site's frame,
      // whose navigation changes with any page added, moved nothing.
      const navigation = before?.get(page.path)?.page?.navigation;
      if (
        navigation !== NO_NAVIGATION &&
        after.get(page.path)?.page?.navigation === NO_NAVIGATION
      ) {
        edited.set(to, [...(edited.get(to) ?? []), page]);
      }
      continue;
    }
    pages.moved.push({ ...to, previous: { path: page.path, url: page.url, redirected: true } });
    moved.add(to).add(page);
  }
  for (const [to, [page, ...others]] of edited) {
    if (page === undefined || others.length > 0 || moved.has(to)) continue;
    pages.moved.push({
      ...to,
      previous: { path: page.path, url: page.url, redirected: true },
      changed: true,
    });
    moved.add(to).add(page);
  }
  if (moved.size === 0) return;
  pages.added = pages.added.filter((page) => !moved.has(page));
  pages.changed = pages.changed.filter((page) => !moved.has(page));
}

/**
 * Takes out of the added and removed pages those that moved: an added page whose content
 * is a removed page's, when no other added or removed page has that content (two pages of
 * the same text, such as stubs, are left as they are rather than paired by guess).
 */
function findMoves(
  pages: ChangeReport['pages'],
  before: ReadonlyMap<string, FileEntry>,
  after: ReadonlyMap<string, FileEntry>,
): void {
  if (pages.added.length === 0 || pages.removed.length === 0) return;
  const removed = onlyOneWithContent(pages.removed, before);
  const moved = new Set<PageChange>();
  for (const [content, page] of onlyOneWithContent(pages.added, after)) {
    const from = removed.get(content);
    if (from === undefined) continue;
    pages.moved.push({ ...page, previous: { path: from.path, url: from.url } });
    moved.add(page).add(from);
  }
  pages.added = pages.added.filter((page) => !moved.has(page));
  pages.removed = pages.removed.filter((page) => !moved.has(page));
}

/** The pages of `list` by their content fingerprint, for the fingerprints only one of them has. */
function onlyOneWithContent(
  list: readonly PageChange[],
  files: ReadonlyMap<string, FileEntry>,
): Map<string, PageChange> {
  const byContent = new Map<string, PageChange | undefined>();
  for (const page of list) {
    const content = files.get(page.path)?.page?.content;
    if (content !== undefined) byContent.set(content, byContent.has(content) ? undefined : page);
  }
  const unique = new Map<string, PageChange>();
  for (const [content, page] of byContent) if (page !== undefined) unique.set(content, page);
  return unique;
}

/**
 * Assets are matched by their name without build ids and content hashes, then by
 * content: within a name, equal bytes are unchanged, and what is left pairs up as changed
 * (`style.3f9a.css` → `style.a1b2.css`), the rest added or removed.
 */
function compareAssets(
  before: readonly FileEntry[],
  after: readonly FileEntry[],
): ChangeReport['assets'] {
  const groups = new Map<string, { before: FileEntry[]; after: FileEntry[] }>();
  const group = (key: string) => {
    let found = groups.get(key);
    if (!found) {
      found = { before: [], after: [] };
      groups.set(key, found);
    }
    return found;
  };
  for (const file of before) group(assetKey(file.path)).before.push(file);
  for (const file of after) group(assetKey(file.path)).after.push(file);

  const result: ChangeReport['assets'] = { added: [], removed: [], changed: [], unchanged: 0 };
  for (const { before: old, after: now } of groups.values()) {
    const oldByHash = new Map<string, FileEntry[]>();
    for (const file of old)
      oldByHash.set(file.sha256, [...(oldByHash.get(file.sha256) ?? []), file]);
    const unmatched: FileEntry[] = [];
    for (const file of now) {
      const same = oldByHash.get(file.sha256);
      if (same && same.length > 0) {
        same.shift();
        result.unchanged += 1;
      } else unmatched.push(file);
    }
    const leftover = [...oldByHash.values()].flat().sort(byPath);
    unmatched.sort(byPath);
    // Same name without the hash first, so that each changed file pairs with its own.
    for (const file of [...unmatched]) {
      const twin = leftover.findIndex((o) => o.path === file.path);
      if (twin === -1) continue;
      result.changed.push({ path: file.path, previous: file.path });
      leftover.splice(twin, 1);
      unmatched.splice(unmatched.indexOf(file), 1);
    }
    const paired = new Set<FileEntry>();
    for (const [file, previous] of pairBySize(unmatched, leftover)) {
      result.changed.push({ path: file.path, previous: previous.path });
      paired.add(file).add(previous);
    }
    for (const file of unmatched) if (!paired.has(file)) result.added.push({ path: file.path });
    for (const file of leftover) if (!paired.has(file)) result.removed.push({ path: file.path });
  }
  result.added.sort(byPath);
  result.removed.sort(byPath);
  result.changed.sort(byPath);
  return result;
}

/** Beyond this many steps, a group is paired in order of size without looking further. */
const MAX_PAIRING_STEPS = 4_000_000;

/**
 * Pairs the files left in a group (new ones with earlier ones whose bytes differ) so that
 * their sizes differ the least in all: an edit keeps a file's size close, and the many
 * chunks a generator names by their hash alone (`chunks/079h_c3rnr5lh.js`), all in one
 * group, rarely share one. Each of the shorter list pairs with one of the longer; in the
 * best pairing neither list's size order crosses, so dynamic programming finds it in
 * (shorter) x (difference + 1) steps.
 */
function pairBySize(now: FileEntry[], before: FileEntry[]): Array<[FileEntry, FileEntry]> {
  const bySize = (a: FileEntry, b: FileEntry) => a.size - b.size || byPath(a, b);
  const nowFewer = now.length <= before.length;
  const fewer = (nowFewer ? now : before).slice().sort(bySize);
  const more = (nowFewer ? before : now).slice().sort(bySize);
  const n = fewer.length;
  // fewer[i - 1] pairs with more[i - 1 + k], k from 0 to `spare`: the files of `more`
  // skipped so far.
  const spare = more.length - n;
  const width = spare + 1;
  const matched = fewer.map((_, i) => i);
  if (n > 0 && spare > 0 && n * width <= MAX_PAIRING_STEPS) {
    // cost[k]: the least total difference pairing fewer[0..i) with k files of more skipped.
    const skipped = new Uint8Array((n + 1) * width);
    let cost = new Float64Array(width);
    for (let i = 1; i <= n; i += 1) {
      const next = new Float64Array(width);
      const size = (fewer[i - 1] as FileEntry).size;
      for (let k = 0; k <= spare; k += 1) {
        const take = (cost[k] as number) + Math.abs(size - (more[i - 1 + k] as FileEntry).size);
        // Or more[i - 1 + k] is skipped: fewer[i - 1] pairs further back, k - 1 skipped.
        const skip = k > 0 ? (next[k - 1] as number) : Infinity;
        if (take <= skip) next[k] = take;
        else {
          next[k] = skip;
          skipped[i * width + k] = 1;
        }
      }
      cost = next;
    }
    for (let i = n, k = spare; i > 0;) {
      if (skipped[i * width + k] === 1) k -= 1;
      else {
        matched[i - 1] = i - 1 + k;
        i -= 1;
      }
    }
  }
  return matched.map((j, i) => {
    const a = fewer[i] as FileEntry;
    const b = more[j] as FileEntry;
    return nowFewer ? [a, b] : [b, a];
  });
}

/** The guard against an export that would remove too much: a count or a percentage. */
export type RemovalLimit = { pages: number } | { percent: number };

/** Why the export removes more pages than `limit` allows, or undefined when it does not. */
export function exceedsRemovalLimit(report: ChangeReport, limit: RemovalLimit): string | undefined {
  const removed = report.pages.removed.length;
  const before = report.pages.before;
  const limitShare = 'percent' in limit ? limit.percent : undefined;
  const shown = `${removed} of the ${before} pages (${formatPercent(removed, before, limitShare)})`;
  if ('pages' in limit) {
    return removed > limit.pages
      ? `it removes ${shown}, more than \`max-removed-pages\` allows (${limit.pages})`
      : undefined;
  }
  // Compared without dividing: 7 of 100 pages is exactly 7%, where 7 / 100 * 100 is not.
  const over = removed * 100 - limit.percent * before > 1e-9 * before;
  return over
    ? `it removes ${shown}, more than \`max-removed-pages\` allows (${limit.percent}%)`
    : undefined;
}

/**
 * `removed` of `before` as a share a person reads: whole when it is (7 of 100 is 7%, though
 * 7 / 100 * 100 is not quite), else to one decimal, or more where one would round it onto
 * a value it is not: the limit it exceeds (21 of 419 is 5.01%, not 5.0%), 0% or 100%.
 */
function formatPercent(removed: number, before: number, limit?: number): string {
  if (before === 0 || (removed * 100) % before === 0) {
    return `${before === 0 ? 0 : (removed * 100) / before}%`;
  }
  const share = (removed / before) * 100;
  let digits = 1;
  while (digits < 6 && [limit, 0, 100].includes(Number(share.toFixed(digits)))) digits += 1;
  return `${share.toFixed(digits)}%`;
}

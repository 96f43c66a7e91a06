import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compareExports, exceedsRemovalLimit, exportFiles } from '../../src/changes/compare.js';
import { FINGERPRINT_SCHEME, NO_NAVIGATION } from '../../src/changes/fingerprint.js';
import { pageRoute, pageUrl, roleOf } from '../../src/changes/site-files.js';
import { buildManifest, type Manifest, type PageRecord } from '../../src/deliver/manifest.js';
import { generator } from '../support/random.js';
import { listed, siteContents } from '../support/site-contents.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const hex = (text: string) => sha(text).slice(0, 32);

/** A page whose fingerprint is made of the given words. */
const page = (content: string, navigation = 'nav', title = content): PageRecord => ({
  title,
  markup: `${hex(`${content}|${navigation}`).slice(0, 8)}-1a2b`,
  content: hex(content),
  navigation: hex(navigation),
});

/** A bare redirect stub: a page with no navigation around it. */
const stub = (content: string): PageRecord => ({ ...page(content), navigation: NO_NAVIGATION });

function manifest(
  files: Record<string, string | PageRecord>,
  options: { fingerprints?: boolean; jobId?: string } = {},
): Manifest {
  const entries = Object.entries(files);
  const pages = new Map(entries.filter((e): e is [string, PageRecord] => typeof e[1] !== 'string'));
  return listed(
    buildManifest({
      domain: 'docs.example.com',
      jobId: options.jobId ?? 'se_1',
      exportedAt: new Date('2026-11-01T00:00:00Z'),
      archive: { format: 'tar.gz', sha256: '0'.repeat(64), sizeBytes: 1 },
      contents: siteContents(
        entries.map(([path, value]) => {
          // A fingerprinted page is rebuilt: its bytes differ every time, as in real exports.
          const text = typeof value === 'string' ? value : `${value.markup} ${Math.random()}`;
          return { path, size: text.length, sha256: sha(text), executable: false };
        }),
      ),
      ...(options.fingerprints === false
        ? {}
        : { pages: { scheme: FINGERPRINT_SCHEME, byPath: pages } }),
    }),
  );
}

describe('compareExports', () => {
  it('sorts pages into added, removed, changed, navigation changed and unchanged', () => {
    const before = manifest({
      'index.html': page('home'),
      'guides/a.html': page('a'),
      'guides/b.html': page('b'),
      'guides/old.html': page('old'),
    });
    const after = manifest(
      {
        'index.html': page('home', 'nav 2'),
        'guides/a.html': page('a edited', 'nav 2'),
        'guides/b.html': page('b'),
        'guides/new/index.html': page('new', 'nav 2'),
      },
      { jobId: 'se_2' },
    );
    const report = compareExports(before, after, 'the test');
    expect(report.comparedBy).toBe('content');
    expect(report.pages.added).toEqual([
      { path: 'guides/new/index.html', url: 'https://docs.example.com/guides/new/', title: 'new' },
    ]);
    expect(report.pages.removed.map((p) => p.url)).toEqual(['https://docs.example.com/guides/old']);
    expect(report.pages.changed.map((p) => p.path)).toEqual(['guides/a.html']);
    expect(report.pages.navigationChanged.map((p) => p.url)).toEqual(['https://docs.example.com/']);
    expect(report.pages).toMatchObject({ before: 4, after: 4, unchanged: 1 });
    expect(report.previous.jobId).toBe('se_1');
    expect(report.current.jobId).toBe('se_2');
  });

  it('links pages under the path the site is served at, and names that address', () => {
    const before = manifest({ 'index.html': page('home'), 'guides/old.html': page('old') });
    const after = manifest({
      'index.html': page('home', 'nav 2'),
      'guides/new/index.html': page('new'),
      'start/old.html': page('old'),
    });
    const report = compareExports(before, after, 'the test', { sitePath: '/docs' });
    expect(report.site).toBe('https://docs.example.com/docs/');
    expect(report.pages.navigationChanged.map((p) => p.url)).toEqual([
      'https://docs.example.com/docs/',
    ]);
    expect(report.pages.added.map((p) => p.url)).toEqual([
      'https://docs.example.com/docs/guides/new/',
    ]);
    expect(report.pages.moved.map((p) => [p.url, p.previous.url])).toEqual([
      ['https://docs.example.com/docs/start/old', 'https://docs.example.com/docs/guides/old'],
    ]);
    expect(compareExports(before, after, 'the test').site).toBe('https://docs.example.com/');
  });

  it('lists pages in the order of their addresses, the home page first', () => {
    const before = manifest({ 'zebra.html': page('z') });
    const after = manifest(
      {
        'reference/api.html': page('api'),
        'index.html': page('home'),
        'guides/setup.html': page('setup'),
        'guides/index.html': page('guides'),
        'guides/café.html': page('café'),
        'guides/cafe.html': page('cafe'),
        'guides/d.html': page('d'),
        'zebra.html': page('z'),
      },
      { jobId: 'se_2' },
    );
    const report = compareExports(before, after, 'the test');
    // As a reader spells them: encoded, café (caf%C3%A9) would come before cafe.
    expect(report.pages.added.map((p) => p.path)).toEqual([
      'index.html',
      'guides/index.html',
      'guides/cafe.html',
      'guides/café.html',
      'guides/d.html',
      'guides/setup.html',
      'reference/api.html',
    ]);
  });

  it('lists numbered pages by their numbers, the same way on every machine', () => {
    const files = ['p10', 'p2', 'p1', 'Zeta', 'alpha', 'v1.10', 'v1.9', 'p01', 'ä'];
    const before = manifest({ 'index.html': page('home') });
    const after = manifest(
      Object.fromEntries(files.map((name) => [`guides/${name}.html`, page(name)])),
      { jobId: 'se_2' },
    );
    const report = compareExports(before, after, 'the test');
    // p2 before p10, as a reader counts; a letter's case second (Zeta after alpha), and ä
    // beside a, not after z (as a Swedish runner's locale would have it).
    const order = ['ä', 'alpha', 'p01', 'p1', 'p2', 'p10', 'v1.9', 'v1.10', 'Zeta'];
    expect(report.pages.added.map((p) => pageRoute(p.path))).toEqual(
      order.map((name) => `/guides/${name}`),
    );
  });

  it('matches assets by name without build ids and hashes, then by content', () => {
    const before = manifest({
      '_next/static/OLDBUILDID0000000000a/_buildManifest.js': 'manifest',
      '_next/static/chunks/main-app-a1b2c3d4e5f6a7b8.js': 'main v1',
      '_next/static/media/logo.3f9a2c1b.png': 'logo',
      'assets/style.QLzf_0bl.css': 'style v1',
      'images/old.png': 'old image',
    });
    const after = manifest({
      '_next/static/NEWBUILDID0000000000b/_buildManifest.js': 'manifest',
      '_next/static/chunks/main-app-ffffeeee00001111.js': 'main v2',
      '_next/static/media/logo.3f9a2c1b.png': 'logo',
      'assets/style.Zz9_aaXb.css': 'style v2',
      'images/new.png': 'new image',
    });
    const { assets } = compareExports(before, after, 'the test');
    expect(assets.unchanged).toBe(2);
    expect(assets.changed).toEqual([
      {
        path: '_next/static/chunks/main-app-ffffeeee00001111.js',
        previous: '_next/static/chunks/main-app-a1b2c3d4e5f6a7b8.js',
      },
      { path: 'assets/style.Zz9_aaXb.css', previous: 'assets/style.QLzf_0bl.css' },
    ]);
    expect(assets.added).toEqual([{ path: 'images/new.png' }]);
    expect(assets.removed).toEqual([{ path: 'images/old.png' }]);
  });

  it("matches Pagefind's search index files (Starlight's search) across the hashes in their names", () => {
    // Pagefind names a file by its language and 7 or more hex digits of its hash: an edit
    // to one page renames its fragment, and the index chunk that holds its words.
    const before = manifest({
      'index.html': page('home'),
      'pagefind/pagefind.js': 'loader',
      'pagefind/pagefind.en_816aa03a18.pf_meta': 'meta v1',
      'pagefind/fragment/en_8349913.pf_fragment': 'fragment of the edited page, v1',
      'pagefind/fragment/en_915478f.pf_fragment': 'fragment of another page',
      'pagefind/index/en_77c6709.pf_index': 'words v1',
    });
    const after = manifest({
      'index.html': page('home'),
      'pagefind/pagefind.js': 'loader',
      'pagefind/pagefind.en_99422db1b8.pf_meta': 'meta v2',
      'pagefind/fragment/en_f8de6d5.pf_fragment': 'fragment of the edited page, v2',
      'pagefind/fragment/en_915478f.pf_fragment': 'fragment of another page',
      'pagefind/index/en_35df411.pf_index': 'words v2',
    });
    const { assets } = compareExports(before, after, 'the test');
    expect(assets).toEqual({
      added: [],
      removed: [],
      changed: [
        {
          path: 'pagefind/fragment/en_f8de6d5.pf_fragment',
          previous: 'pagefind/fragment/en_8349913.pf_fragment',
        },
        {
          path: 'pagefind/index/en_35df411.pf_index',
          previous: 'pagefind/index/en_77c6709.pf_index',
        },
        {
          path: 'pagefind/pagefind.en_99422db1b8.pf_meta',
          previous: 'pagefind/pagefind.en_816aa03a18.pf_meta',
        },
      ],
      unchanged: 2,
    });
  });

  it('pairs chunks named by their hash alone with earlier chunks of the nearest sizes', () => {
    const chunk = (hash: string) => `_next/static/chunks/${hash}.js`;
    const bytes = (size: number, version: string) => version.padEnd(size, '.');
    const before = manifest({
      [chunk('0a1b2c3d4e5f6a7b')]: bytes(5_000, 'framework v1'),
      [chunk('1b2c3d4e5f6a7b8c')]: bytes(20_000, 'docs search v1'),
      [chunk('2c3d4e5f6a7b8c9d')]: bytes(100, 'polyfill v1'),
      [chunk('3d4e5f6a7b8c9d0e')]: bytes(700, 'unchanged'),
    });
    const after = manifest({
      [chunk('9f8e7d6c5b4a3f2e')]: bytes(120, 'polyfill v2'),
      [chunk('8e7d6c5b4a3f2e1d')]: bytes(19_900, 'docs search v2'),
      [chunk('3d4e5f6a7b8c9d0e')]: bytes(700, 'unchanged'),
    });
    const { assets } = compareExports(before, after, 'the test');
    expect(assets.unchanged).toBe(1);
    expect(assets.changed).toEqual([
      { path: chunk('8e7d6c5b4a3f2e1d'), previous: chunk('1b2c3d4e5f6a7b8c') },
      { path: chunk('9f8e7d6c5b4a3f2e'), previous: chunk('2c3d4e5f6a7b8c9d') },
    ]);
    expect(assets.removed).toEqual([{ path: chunk('0a1b2c3d4e5f6a7b') }]);
    expect(assets.added).toEqual([]);

    // More new chunks than earlier ones: the one nearest in size to none is added.
    const grown = compareExports(
      before,
      manifest({
        [chunk('aa11bb22cc33dd44')]: bytes(5_200, 'framework v2'),
        [chunk('bb22cc33dd44ee55')]: bytes(60_000, 'a new chunk'),
        [chunk('cc33dd44ee55ff66')]: bytes(90, 'polyfill v2'),
        [chunk('dd44ee55ff66aa77')]: bytes(21_000, 'docs search v2'),
        [chunk('3d4e5f6a7b8c9d0e')]: bytes(700, 'unchanged'),
      }),
      'the test',
    ).assets;
    expect(grown.changed).toEqual([
      { path: chunk('aa11bb22cc33dd44'), previous: chunk('0a1b2c3d4e5f6a7b') },
      { path: chunk('cc33dd44ee55ff66'), previous: chunk('2c3d4e5f6a7b8c9d') },
      { path: chunk('dd44ee55ff66aa77'), previous: chunk('1b2c3d4e5f6a7b8c') },
    ]);
    expect(grown.added).toEqual([{ path: chunk('bb22cc33dd44ee55') }]);
    expect(grown.removed).toEqual([]);
  });

  it('pairs a group so that the sizes differ the least in all, as a search of every pairing finds', () => {
    const random = generator(7);
    /** The least total size difference of any pairing, found by trying them all. */
    const best = (fewer: number[], more: number[], used = new Set<number>()): number => {
      if (fewer.length === 0) return 0;
      const [size, ...rest] = fewer as [number, ...number[]];
      let least = Infinity;
      more.forEach((other, j) => {
        if (used.has(j)) return;
        const chosen = new Set(used).add(j);
        least = Math.min(least, Math.abs(size - other) + best(rest, more, chosen));
      });
      return least;
    };
    for (let round = 0; round < 200; round += 1) {
      const sizes = (count: number) =>
        Array.from({ length: count }, () => 10 + random.int(400)).map((size, i) => ({ size, i }));
      const earlier = sizes(1 + random.int(5));
      const later = sizes(1 + random.int(5));
      const files = (list: typeof earlier, version: string) =>
        Object.fromEntries(
          list.map(({ size, i }) => [
            `_next/static/chunks/${version}${i}c3d4e5f6a7b8c.js`,
            `${version}${i}`.padEnd(size, '.'),
          ]),
        );
      const before = manifest(files(earlier, '0a'));
      const after = manifest(files(later, '9f'));
      const sizeOf = new Map(
        [...before.files, ...after.files].map((file) => [file.path, file.size]),
      );
      const { changed, added, removed } = compareExports(before, after, 'the test').assets;
      const total = changed.reduce(
        (sum, c) => sum + Math.abs((sizeOf.get(c.path) ?? 0) - (sizeOf.get(c.previous ?? '') ?? 0)),
        0,
      );
      const [fewer, more] = earlier.length <= later.length ? [earlier, later] : [later, earlier];
      expect(changed).toHaveLength(fewer.length);
      expect(new Set(changed.map((c) => c.previous)).size).toBe(fewer.length);
      expect(added.length + removed.length).toBe(more.length - fewer.length);
      expect(total).toBe(
        best(
          fewer.map((f) => f.size),
          more.map((f) => f.size),
        ),
      );
    }
  });

  it('leaves page data out of both pages and assets', () => {
    const files = {
      'guides/a.html': page('a'),
      'guides/a.txt': 'rsc 1',
      'guides/a/__next._full.txt': 'rsc 1',
      '__next._tree.txt': 'rsc 1',
      'assets/guides_a.md.tPUGt1n4.lean.js': 'chunk 1',
      'hashmap.json': '{"a":1}',
      'robots.txt': 'User-agent: *',
    };
    const changed = Object.fromEntries(
      Object.entries(files).map(([k, v]) => [
        k,
        typeof v === 'string' && k !== 'robots.txt' ? `${v} rebuilt` : v,
      ]),
    );
    const report = compareExports(manifest(files), manifest(changed), 'the test');
    expect(report.assets).toEqual({ added: [], removed: [], changed: [], unchanged: 1 });
    expect(report.pages.unchanged).toBe(1);
  });

  it('reports a page at a new address with the content of a removed one as moved, neither added nor removed', () => {
    const before = manifest({
      'index.html': page('home'),
      'guides/setup.html': page('setup'),
      'guides/gone.html': page('gone'),
    });
    const after = manifest(
      {
        'index.html': page('home', 'nav 2'),
        'start/setup.html': page('setup', 'nav 2'),
        'guides/new.html': page('new', 'nav 2'),
      },
      { jobId: 'se_2' },
    );
    const report = compareExports(before, after, 'the test');
    expect(report.pages.moved).toEqual([
      {
        path: 'start/setup.html',
        url: 'https://docs.example.com/start/setup',
        title: 'setup',
        previous: { path: 'guides/setup.html', url: 'https://docs.example.com/guides/setup' },
      },
    ]);
    expect(report.pages.added.map((p) => p.path)).toEqual(['guides/new.html']);
    expect(report.pages.removed.map((p) => p.path)).toEqual(['guides/gone.html']);
    // The guard counts what is gone, not what moved.
    expect(exceedsRemovalLimit(report, { pages: 1 })).toBeUndefined();
    expect(exceedsRemovalLimit(report, { pages: 0 })).toMatch(/^it removes 1 of the 3 pages/);
  });

  it('reports a page whose old address became a redirect to it as moved, the stub as no change of its own', () => {
    const before = manifest({
      'index.html': page('home'),
      'guides/setup.html': page('setup'),
      'guides/intro.html': page('intro'),
    });
    const after = manifest({
      'index.html': page('home', 'nav 2'),
      'guides/setup.html': page('redirect to /start/setup', 'none'),
      'start/setup.html': page('setup', 'nav 2'),
      'guides/intro.html': page('intro', 'nav 2'),
    });
    const redirects = new Map([['guides/setup.html', 'start/setup.html']]);
    const report = compareExports(before, after, 'the test', { redirects });
    expect(report.pages).toMatchObject({
      before: 3,
      after: 4,
      added: [],
      removed: [],
      changed: [],
      moved: [
        {
          path: 'start/setup.html',
          url: 'https://docs.example.com/start/setup',
          previous: {
            path: 'guides/setup.html',
            url: 'https://docs.example.com/guides/setup',
            redirected: true,
          },
        },
      ],
    });
    // Without the redirect read, the stub is a changed page and its target an added one.
    expect(compareExports(before, after, 'the test').pages).toMatchObject({
      added: [{ path: 'start/setup.html' }],
      changed: [{ path: 'guides/setup.html' }],
      moved: [],
    });
  });

  it('names where a page now redirects when its content did not move there', () => {
    const before = manifest({
      'guides/setup.html': page('setup'),
      'guides/install.html': page('install'),
    });
    const after = manifest({
      // Merged into another page, and a new page that only redirects.
      'guides/setup.html': page('redirect to /guides/install', 'none'),
      'guides/install.html': page('install, and setup'),
      'guides/alias.html': page('redirect to /guides/install', 'none'),
      'start/setup.html': page('setup, rewritten'),
    });
    const redirects = new Map([
      ['guides/setup.html', 'guides/install.html'],
      ['guides/alias.html', 'guides/install.html'],
    ]);
    const report = compareExports(before, after, 'the test', { redirects });
    const to = { path: 'guides/install.html', url: 'https://docs.example.com/guides/install' };
    expect(report.pages.moved).toEqual([]);
    expect(report.pages.changed).toEqual([
      { path: 'guides/install.html', url: to.url, title: 'install, and setup' },
      expect.objectContaining({ path: 'guides/setup.html', redirectsTo: to }),
    ]);
    expect(report.pages.added).toEqual([
      expect.objectContaining({ path: 'guides/alias.html', redirectsTo: to }),
      expect.not.objectContaining({ redirectsTo: expect.anything() }),
    ]);
    // Compared by bytes, a redirect is named, but no move is found: content is unknown.
    const bytes = compareExports(
      manifest({ 'guides/setup.html': 'setup' }, { fingerprints: false }),
      manifest({ 'guides/setup.html': 'stub', 'start/setup.html': 'setup' }),
      'the test',
      { redirects: new Map([['guides/setup.html', 'start/setup.html']]) },
    );
    expect(bytes.pages).toMatchObject({
      moved: [],
      added: [{ path: 'start/setup.html' }],
      changed: [{ path: 'guides/setup.html', redirectsTo: { path: 'start/setup.html' } }],
    });
  });

  it('reports a page renamed and edited at once, its old address a redirect to it, as moved and changed', () => {
    const before = manifest({
      'guides/setup.html': page('Setup: install, configure'),
      'guides/a.html': page('a'),
      'guides/b.html': page('b'),
      'releases/latest.html': stub('redirect to /releases/v1'),
      'releases/v1.html': page('v1'),
      'docs/current.html': page('redirect to /docs/v1', 'sidebar with v1'),
      'docs/v1.html': page('docs v1'),
    });
    const after = manifest({
      'guides/setup.html': stub('redirect to /start/install'),
      // A stub before too, now sent on to a new page: that page moved from nowhere.
      'releases/latest.html': stub('redirect to /releases/v2'),
      'releases/v1.html': page('v1'),
      'releases/v2.html': page('v2'),
      'start/install.html': page('Install: install, configure, and verify'),
      // Two pages merged into a new one: which of them moved is a guess, so neither did.
      'guides/a.html': stub('redirect to /guides/ab'),
      'guides/b.html': stub('redirect to /guides/ab'),
      'guides/ab.html': page('a and b'),
      // A stub drawn inside the site's frame, whose sidebar changed with the page added.
      'docs/current.html': page('redirect to /docs/v2', 'sidebar with v1 and v2'),
      'docs/v1.html': page('docs v1'),
      'docs/v2.html': page('docs v2'),
    });
    const redirects = new Map([
      ['guides/setup.html', 'start/install.html'],
      ['guides/a.html', 'guides/ab.html'],
      ['guides/b.html', 'guides/ab.html'],
      ['releases/latest.html', 'releases/v2.html'],
      ['docs/current.html', 'docs/v2.html'],
    ]);
    const report = compareExports(before, after, 'the test', { redirects });
    expect(report.pages.moved).toEqual([
      {
        path: 'start/install.html',
        url: 'https://docs.example.com/start/install',
        title: 'Install: install, configure, and verify',
        previous: {
          path: 'guides/setup.html',
          url: 'https://docs.example.com/guides/setup',
          redirected: true,
        },
        changed: true,
      },
    ]);
    expect(report.pages.added.map((p) => p.path)).toEqual([
      'docs/v2.html',
      'guides/ab.html',
      'releases/v2.html',
    ]);
    expect(report.pages.changed.map((p) => p.path)).toEqual([
      'docs/current.html',
      'guides/a.html',
      'guides/b.html',
      'releases/latest.html',
    ]);
    expect(report.pages.removed).toEqual([]);
  });

  it("compares a page that became its folder's index with itself: its address still serves it", () => {
    // Next.js with trailingSlash writes guides/setup/index.html; /guides/setup leads to
    // /guides/setup/ on a static host, and every link changed with the switch.
    const before = manifest({
      'index.html': page('home'),
      'guides/setup.html': page('setup, linking /guides/intro'),
      'guides/intro.html': page('intro'),
      'guides/gone.html': page('gone'),
    });
    const after = manifest({
      'index.html': page('home'),
      'guides/setup/index.html': page('setup, linking /guides/intro/'),
      'guides/intro/index.html': page('intro'),
    });
    const report = compareExports(before, after, 'the test');
    expect(report.pages).toMatchObject({
      before: 4,
      after: 3,
      added: [],
      removed: [{ path: 'guides/gone.html' }],
      moved: [],
      changed: [{ path: 'guides/setup/index.html', url: 'https://docs.example.com/guides/setup/' }],
      unchanged: 2,
    });
    expect(exceedsRemovalLimit(report, { pages: 1 })).toBeUndefined();
    // Compared by bytes too; the other way round, /guides/setup/ is served no more.
    const bytes = compareExports(
      manifest({ 'a.html': 'a' }, { fingerprints: false }),
      manifest({ 'a/index.html': 'a' }, { fingerprints: false }),
      'the test',
    );
    expect(bytes.pages).toMatchObject({ added: [], removed: [], unchanged: 1 });
    const back = compareExports(after, before, 'the test');
    expect(back.pages.moved.map((p) => p.previous.path)).toEqual(['guides/intro/index.html']);
  });

  it('pairs no moved page by guess: the same content twice, an edit, or pages without fingerprints', () => {
    const before = manifest({
      'old/stub-1.html': page('stub'),
      'old/stub-2.html': page('stub'),
      'old/edited.html': page('edited'),
    });
    const after = manifest({
      'new/stub-1.html': page('stub'),
      'new/stub-2.html': page('stub'),
      'new/edited.html': page('edited, and more'),
    });
    const report = compareExports(before, after, 'the test');
    expect(report.pages.moved).toEqual([]);
    expect(report.pages.added).toHaveLength(3);
    expect(report.pages.removed).toHaveLength(3);
    // Compared by bytes (no fingerprints in the earlier export), nothing is a move either.
    const bytes = compareExports(
      manifest({ 'a.html': 'same bytes' }, { fingerprints: false }),
      manifest({ 'b.html': 'same bytes' }, { fingerprints: false }),
      'the test',
    );
    expect(bytes.pages).toMatchObject({ moved: [], added: [{ path: 'b.html' }] });
  });

  it('pairs no moved page between pages that lack a fingerprint in exports that have them', () => {
    // Both manifests carry fingerprints of the same scheme, but these two pages have none:
    // their content is unknown, not equal.
    const before = manifest({ 'index.html': page('home'), 'old/a.html': 'bytes of a' });
    const after = manifest({ 'index.html': page('home'), 'new/b.html': 'bytes of b' });
    const report = compareExports(before, after, 'the test');
    expect(report.pages).toMatchObject({
      moved: [],
      added: [{ path: 'new/b.html' }],
      removed: [{ path: 'old/a.html' }],
    });
    expect(exceedsRemovalLimit(report, { pages: 0 })).toMatch(/^it removes 1 of the 2 pages/);
    // One side without a fingerprint is no match for the other's either.
    const half = compareExports(
      manifest({ 'old/a.html': page('a') }),
      manifest({ 'new/a.html': 'bytes of a' }),
      'the test',
    );
    expect(half.pages).toMatchObject({ moved: [], added: [{ path: 'new/a.html' }] });
  });

  it('compares pages by bytes when the earlier manifest has no fingerprints', () => {
    const before = manifest(
      { 'a.html': 'same bytes', 'b.html': 'old bytes' },
      { fingerprints: false },
    );
    const after = manifest({ 'a.html': 'same bytes', 'b.html': 'new bytes' });
    const report = compareExports(before, after, 'the test');
    expect(report.comparedBy).toBe('bytes');
    expect(report.pages.changed.map((p) => p.path)).toEqual(['b.html']);
    expect(report.pages.unchanged).toBe(1);
  });

  it('gives the same report from files sorted ahead of time (the earlier ones before the extraction)', () => {
    const before = manifest({
      'index.html': page('home'),
      'index.txt': 'rsc 1',
      'guides/a.html': page('a'),
      'guides/gone.html': page('gone'),
      '_next/static/chunks/main-app-a1b2c3d4e5f6a7b8.js': 'main v1',
      'images/old.png': 'old image',
    });
    const after = manifest(
      {
        'index.html': page('home', 'nav 2'),
        'index.txt': 'rsc 2',
        'guides/a.html': page('a edited'),
        'guides/new.html': page('new'),
        '_next/static/chunks/main-app-ffffeeee00001111.js': 'main v2',
        'images/new.png': 'new image',
      },
      { jobId: 'se_2' },
    );
    const sorted = exportFiles(after.files);
    expect([...sorted.pages.keys()].sort()).toEqual([
      'guides/a.html',
      'guides/new.html',
      'index.html',
    ]);
    expect(sorted.assets.map((f) => f.path).sort()).toEqual([
      '_next/static/chunks/main-app-ffffeeee00001111.js',
      'images/new.png',
    ]);
    const report = compareExports(before, after, 'the test', {
      files: { previous: exportFiles(before.files), current: sorted },
    });
    expect(report).toEqual(compareExports(before, after, 'the test'));
    expect(report.pages.removed.map((p) => p.path)).toEqual(['guides/gone.html']);
    expect(report.pages.added.map((p) => p.path)).toEqual(['guides/new.html']);
    expect(report.assets.added).toEqual([{ path: 'images/new.png' }]);
  });

  it('counts the size of both exports', () => {
    const report = compareExports(
      manifest({ 'a.html': 'x'.repeat(10) }, { fingerprints: false }),
      manifest({ 'a.html': 'x'.repeat(25) }, { fingerprints: false }),
      'the test',
    );
    expect(report.size).toEqual({ before: 10, after: 25 });
  });
});

describe('max-removed-pages', () => {
  const removing = (removed: number, total: number) =>
    compareExports(
      manifest(
        Object.fromEntries(Array.from({ length: total }, (_, i) => [`p${i}.html`, page(`p${i}`)])),
      ),
      manifest(
        Object.fromEntries(
          Array.from({ length: total - removed }, (_, i) => [`p${i}.html`, page(`p${i}`)]),
        ),
      ),
      'the test',
    );

  it('allows up to the count, and refuses one more', () => {
    expect(exceedsRemovalLimit(removing(3, 40), { pages: 3 })).toBeUndefined();
    expect(exceedsRemovalLimit(removing(4, 40), { pages: 3 })).toBe(
      'it removes 4 of the 40 pages (10%), more than `max-removed-pages` allows (3)',
    );
  });

  it('allows up to the share, and refuses more', () => {
    expect(exceedsRemovalLimit(removing(2, 40), { percent: 5 })).toBeUndefined();
    expect(exceedsRemovalLimit(removing(3, 40), { percent: 5 })).toBe(
      'it removes 3 of the 40 pages (7.5%), more than `max-removed-pages` allows (5%)',
    );
    expect(exceedsRemovalLimit(removing(40, 40), { percent: 50 })).toMatch(
      /40 of the 40 pages \(100%\)/,
    );
  });

  it('allows a share exactly at the limit, where dividing first would overshoot it', () => {
    // 7 / 100 * 100 is 7.000000000000001 in floating point.
    for (const percent of [7, 14, 28])
      expect(exceedsRemovalLimit(removing(percent, 100), { percent })).toBeUndefined();
    expect(exceedsRemovalLimit(removing(7, 1000), { percent: 0.7 })).toBeUndefined();
    expect(exceedsRemovalLimit(removing(8, 100), { percent: 7 })).toBeDefined();
  });

  it('never shows a share rounded onto the limit it exceeds', () => {
    const report = removing(104, 1000);
    expect(exceedsRemovalLimit(report, { percent: 10 })).toBe(
      'it removes 104 of the 1000 pages (10.4%), more than `max-removed-pages` allows (10%)',
    );
    // 5.0119…%, and 99.95…% of a site that keeps a page.
    expect(exceedsRemovalLimit(removing(21, 419), { percent: 5 })).toBe(
      'it removes 21 of the 419 pages (5.01%), more than `max-removed-pages` allows (5%)',
    );
    expect(exceedsRemovalLimit(removing(2000, 2001), { pages: 10 })).toMatch(
      /2000 of the 2001 pages \(99\.95%\)/,
    );
    expect(exceedsRemovalLimit(removing(7, 100), { pages: 3 })).toMatch(
      /7 of the 100 pages \(7%\)/,
    );
  });
});

describe('what each file is', () => {
  it.each([
    ['index.html', '/'],
    ['guides/index.html', '/guides/'],
    ['guides/intro.html', '/guides/intro'],
    ['404.html', '/404'],
  ])('%s is reached at %s', (file, route) => {
    expect(pageRoute(file)).toBe(route);
  });

  it.each([
    ['guides/intro.htm', 'https://docs.example.com/guides/intro.htm'],
    ['guides/index.htm', 'https://docs.example.com/guides/index.htm'],
    ['README.HTML', 'https://docs.example.com/README.HTML'],
  ])('%s is linked as %s: a server adds `.html` alone to a clean address', (file, url) => {
    // `try_files $uri $uri.html $uri/` (and the readiness check's site tree): `/guides/intro`
    // finds no `guides/intro.htm`.
    expect(pageUrl('docs.example.com', file)).toBe(url);
  });

  it.each([
    ['guides/c#-sdk.html', 'https://docs.example.com/guides/c%23-sdk'],
    ['guides/faq?.html', 'https://docs.example.com/guides/faq%3F'],
    ['guides/café au lait.html', 'https://docs.example.com/guides/caf%C3%A9%20au%20lait'],
  ])('%s is linked as %s: every character a part of the path', (file, url) => {
    expect(pageUrl('docs.example.com', file)).toBe(url);
  });

  it('tells pages, page data and assets apart', () => {
    const pages = new Set(['guides/a.html']);
    expect(roleOf('guides/a.html', pages)).toBe('page');
    expect(roleOf('guides/a.txt', pages)).toBe('page-data');
    expect(roleOf('guides/b.txt', pages)).toBe('asset');
    // Next.js never writes `.htm`: a text file beside such a page is one a reader downloads.
    expect(roleOf('legacy/notes.txt', new Set(['legacy/notes.htm']))).toBe('asset');
    expect(roleOf('assets/index.md.BU7H7E5E.js', pages)).toBe('page-data');
    expect(roleOf('assets/app.yVEbudZ7.js', pages)).toBe('asset');
  });
});

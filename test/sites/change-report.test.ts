/**
 * The change report on sites built by real generators (Next.js static export, VitePress,
 * Astro Starlight, whose pages are directories' index.html):
 * two builds of the same content differ in nearly every byte, yet report no changed page;
 * a one-page edit reports exactly that page; a deleted page is reported as removed, a moved
 * one as moved. Each build is served by the emulator as an export bundle and goes through
 * the whole action.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeReport } from '../../src/changes/compare.js';
import { markupDigest, sameMarkup } from '../../src/changes/fingerprint.js';
import { tarOf } from '../support/archives.js';
import { type Harness, startHarness } from '../support/in-process.js';
import { cachedSite, missingFixtureReason, type SiteSpec } from './build.js';
import {
  CHANGE_GENERATORS,
  changeSites,
  DELETED_ROUTE,
  EDITED_ROUTE,
  MOVED,
  RELINKED_ROUTE,
} from './change-sites.js';

const CI = process.env.CI === 'true';

/** A built site as the tar.gz bundle an export job would serve. */
async function bundleOf(site: string): Promise<Buffer> {
  const entries = await fs.readdir(site, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile());
  return tarOf(
    await Promise.all(
      files.map(async (entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return { name: path.relative(site, file), content: await fs.readFile(file) };
      }),
    ),
  );
}

/** Every byte-level difference between two builds: the noise the report must see through. */
async function pagesWithOtherBytes(a: string, b: string): Promise<number> {
  const entries = await fs.readdir(a, { recursive: true, withFileTypes: true });
  let differ = 0;
  for (const entry of entries.filter((e) => e.isFile() && e.name.endsWith('.html'))) {
    const file = path.relative(a, path.join(entry.parentPath, entry.name));
    const other = await fs.readFile(path.join(b, file)).catch(() => undefined);
    if (other && !other.equals(await fs.readFile(path.join(a, file)))) differ += 1;
  }
  return differ;
}

for (const generator of CHANGE_GENERATORS) {
  const sites = changeSites(generator);
  const missing = Object.values(sites)
    .filter((spec: SiteSpec) => !cachedSite(spec))
    .map(missingFixtureReason);
  if (missing.length > 0 && !CI) {
    console.log(
      `Skipping the ${generator} change report tests: ${missing.join('; ')} (run: npx tsx test/sites/change-sites.ts).`,
    );
  }

  // In CI a missing fixture is a failure, not a skip.
  describe.skipIf(missing.length > 0 && !CI)(`change report on ${generator} builds`, () => {
    let harness: Harness;
    let serving: Buffer;
    let root: string;

    beforeAll(async () => {
      harness = await startHarness({ jobDurationMs: 1000, queuedMs: 0, archiveFor: () => serving });
      root = await fs.mkdtemp(path.join(os.tmpdir(), `change-report-${generator}-`));
    });
    afterAll(async () => {
      await harness?.stop();
      if (root) await fs.rm(root, { recursive: true, force: true });
    });

    it('has its fixtures', () => {
      expect(missing).toEqual([]);
    });

    /** Exports `first`, then `second` into the same path; the report of the second. */
    async function compare(first: SiteSpec, second: SiteSpec): Promise<ChangeReport> {
      const workspace = await fs.mkdtemp(path.join(root, 'workspace-'));
      const tempDir = await fs.mkdtemp(path.join(root, 'temp-'));
      const inputs = { domain: 'docs.example.com', path: 'site', 'poll-interval': '0.5s' };
      for (const spec of [first, second]) {
        serving = await bundleOf(cachedSite(spec) as string);
        const run = await harness.run(inputs, { workspace, tempDir });
        expect(run.code, run.stdout).toBe(0);
        if (spec === second) {
          const file = run.outputs['changes-file'];
          expect(file, run.stdout).toBeDefined();
          return JSON.parse(await fs.readFile(file as string, 'utf8')) as ChangeReport;
        }
      }
      throw new Error('unreachable');
    }

    // Astro writes each page as a directory's index, served at the directory's address.
    const directories = generator === 'starlight';
    const page = (route: string) =>
      route === '' ? 'index.html' : directories ? `${route}/index.html` : `${route}.html`;
    const url = (route: string) => `https://docs.example.com/${route}${directories ? '/' : ''}`;

    it('reports no changed page between two builds of the same content', async () => {
      // Next.js gives every build a new id, in every page; VitePress and Astro build the
      // same bytes.
      const differing = await pagesWithOtherBytes(
        cachedSite(sites.base) as string,
        cachedSite(sites.rebuilt) as string,
      );
      if (generator === 'next') expect(differing).toBeGreaterThan(1);
      const report = await compare(sites.base, sites.rebuilt);
      expect(report.comparedBy).toBe('content');
      expect(report.pages.changed).toEqual([]);
      expect(report.pages.navigationChanged).toEqual([]);
      expect(report.pages.added).toEqual([]);
      expect(report.pages.removed).toEqual([]);
      expect(report.pages.unchanged).toBe(report.pages.after);
    });

    it('reports exactly the edited page', async () => {
      // The premise: the edit rewrote other pages too (build id, VitePress hash map); Astro
      // rewrites the edited page only.
      const differing = await pagesWithOtherBytes(
        cachedSite(sites.base) as string,
        cachedSite(sites.edited) as string,
      );
      if (generator === 'starlight') expect(differing).toBe(1);
      else expect(differing).toBeGreaterThan(1);
      const report = await compare(sites.base, sites.edited);
      expect(report.pages.changed.map((p) => p.path)).toEqual([page(EDITED_ROUTE)]);
      expect(report.pages.changed[0]?.url).toBe(url(EDITED_ROUTE));
      expect(report.pages.navigationChanged).toEqual([]);
      expect(report.pages.added).toEqual([]);
      expect(report.pages.removed).toEqual([]);
    });

    it("checks each rebuilt page along the earlier page's layout, as the full check would", async () => {
      const base = cachedSite(sites.base) as string;
      const files = (await fs.readdir(base, { recursive: true })).filter((f) =>
        f.endsWith('.html'),
      );
      expect(files.length).toBeGreaterThan(3);
      for (const [variant, edited] of [
        [sites.rebuilt, undefined],
        [sites.edited, page(EDITED_ROUTE)],
      ] as const) {
        const dir = cachedSite(variant) as string;
        const carried: string[] = [];
        for (const file of files) {
          const earlier = markupDigest(await fs.readFile(path.join(base, file)));
          expect(earlier.layout, file).toBeDefined();
          const now = await fs.readFile(path.join(dir, file));
          const along = sameMarkup(now, {
            markup: earlier.digest,
            layout: earlier.layout as string,
          });
          // The layout is a shortcut only: it decides as the full check does.
          expect(along, file).toBe(markupDigest(now).digest === earlier.digest);
          if (along) carried.push(file);
        }
        expect(carried).toEqual(files.filter((file) => file !== edited));
      }
    });

    it('reports a deleted page as removed, the page that linked to it as changed, and the sidebars as navigation', async () => {
      const report = await compare(sites.base, sites.deleted);
      expect(report.pages.removed.map((p) => p.path)).toEqual([page(DELETED_ROUTE)]);
      expect(report.pages.changed.map((p) => p.path)).toEqual([page(RELINKED_ROUTE)]);
      expect(report.pages.added).toEqual([]);
      // Every page with the sidebar lost an entry there; none of their own content changed.
      expect(report.pages.navigationChanged.map((p) => p.path)).toEqual(
        expect.arrayContaining([page(''), page('guides/getting-started'), page(EDITED_ROUTE)]),
      );
    });

    it('reports a page moved to another section as moved, the page linking to it as changed', async () => {
      const report = await compare(sites.base, sites.moved);
      expect(report.pages.moved.map((p) => [p.previous.path, p.path])).toEqual([
        [page(MOVED.from), page(MOVED.to)],
      ]);
      expect(report.pages.moved[0]?.previous.url).toBe(url(MOVED.from));
      expect(report.pages.added).toEqual([]);
      expect(report.pages.removed).toEqual([]);
      // Its one link now leads to the new address.
      expect(report.pages.changed.map((p) => p.path)).toEqual([page(RELINKED_ROUTE)]);
    });
  });
}

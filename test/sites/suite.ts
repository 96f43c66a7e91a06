/**
 * The readiness check on sites built by real generators (test/sites/build.ts, run by
 * .ci/run before the tests). The ground truth of each leaky build is what Chromium
 * contacts when it loads every page from the real nginx with the configuration the
 * check prints; the check must name every one of those hosts, and pass the clean builds.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Generator } from './content.js';
import { checkReadiness } from '../../src/airgap/check.js';
import { findBrowser } from '../../src/airgap/browser.js';
import { nginxConfig } from '../../src/airgap/serving.js';
import { SiteTree } from '../../src/airgap/site-tree.js';
import { parseConfig, type ExportConfig } from '../../src/config.js';
import { type ExportRecord, renderExportSummary } from '../../src/report.js';
import { cachedSite, missingFixtureReason, STANDARD_SITES } from './build.js';
import { LEAKY_LOADS, OUTBOUND_LINKS } from './content.js';
import { hostsContacted, launchChromium, linksServed } from './ground-truth.js';
import { NGINX, type RunningNginx, startNginx } from './nginx.js';
import { recordingReporter } from '../support/recording-reporter.js';

const CI = process.env.CI === 'true';
const chromium = findBrowser();

/** The suite for one generator's clean and leaky builds (one test file each, run in parallel). */
export function readinessSuite(generator: Generator): void {
  const sites = STANDARD_SITES.filter((spec) => spec.generator === generator);
  const missing = [
    ...sites.filter((spec) => !cachedSite(spec)).map(missingFixtureReason),
    ...(chromium ? [] : ['no Chromium (apt-get install chromium-headless-shell)']),
    ...(NGINX ? [] : ['no nginx (apt-get install nginx)']),
  ];
  if (missing.length > 0 && !CI)
    console.log(`Skipping the ${generator} site tests: ${missing.join('; ')}.`);

  // In CI a missing fixture or tool is a failure, not a skip.
  describe.skipIf(missing.length > 0 && !CI)(`deployment readiness on ${generator} output`, () => {
    it('has its fixtures and tools', () => {
      expect(missing).toEqual([]);
    });

    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium(chromium as string);
    });
    afterAll(async () => {
      await browser?.close();
    });

    describe.each(sites)('$generator ($variant)', (spec) => {
      const site = cachedSite(spec) as string;
      let nginx: RunningNginx;
      let tree: SiteTree;
      let truth: Map<string, string[]>;
      let pageUrls: string[];
      beforeAll(async () => {
        tree = await SiteTree.read(site);
        nginx = await startNginx((listen) =>
          nginxConfig({ has404Page: tree.files.has('404.html') }, { root: site, listen }),
        );
        pageUrls = tree
          .pages()
          .filter((p) => !/(^|\/)(404|_not-found)(\.html|\/index\.html)$/.test(p.file))
          .map((p) => p.url);
        truth = await hostsContacted(browser, nginx.origin, pageUrls);
      }, 120_000);
      afterAll(async () => {
        await nginx?.stop();
      });

      async function check(inputs: Record<string, string>) {
        const recorded = recordingReporter();
        const record: ExportRecord = {
          command: 'export',
          domain: 'docs.example.com',
          startedAt: 0,
        };
        const config = parseConfig(
          { 'api-key': 'mint_test', domain: 'docs.example.com', path: 'site', ...inputs },
          { workspace: '/work-space' },
        ) as ExportConfig;
        let error: Error | undefined;
        try {
          await checkReadiness(site, config, recorded.reporter, record, {
            tempDir: await fs.mkdtemp(path.join(os.tmpdir(), 'sea-sites-')),
          });
        } catch (caught) {
          error = caught as Error;
        }
        return { ...recorded, record, error, summary: renderExportSummary(record, error?.message) };
      }

      it('nginx with the printed configuration serves every internal link', async () => {
        const targets = new Set<string>();
        for (const page of tree.pages()) {
          const html = await fs.readFile(path.join(site, page.file), 'utf8');
          for (const match of html.matchAll(/<a [^>]*href="(\/[^"#?]*)/g))
            targets.add(match[1] as string);
        }
        expect(targets.size).toBeGreaterThan(3);
        for (const target of targets) {
          const response = await fetch(`${nginx.origin}${target}`, { redirect: 'manual' });
          expect([200, 301], `${target} -> ${response.status}`).toContain(response.status);
        }
      });

      it('reports broken exactly the addresses the pages name, as Chromium resolves them, that nginx does not serve', async () => {
        const links = await linksServed(browser, nginx.origin, pageUrls);
        expect(links.size).toBeGreaterThan(3);
        const notServed = [...links].filter(([, link]) => !link.served).map(([target]) => target);
        const result = await check({ 'deployment-type': 'cloud' });
        const reported = (result.record.readiness?.links.broken ?? []).map((b) => b.target);
        expect(new Set(reported)).toEqual(new Set(notServed));
      });

      if (spec.variant === 'clean') {
        it('a browser loading every page contacts nothing outside the site', () => {
          expect([...truth.keys()]).toEqual([]);
        });

        it('passes air-gapped with zero errors; outbound links are one warning per host', async () => {
          const result = await check({ 'deployment-type': 'air-gapped' });
          expect(result.error?.message).toBeUndefined();
          expect(result.of('error')).toEqual([]);
          const linkWarnings = result.of('warning').filter((w) => w.message.startsWith('Links to'));
          const hosts = linkWarnings.map((w) => /^Links to (\S+):/.exec(w.message)?.[1]).sort();
          expect(hosts).toEqual(OUTBOUND_LINKS.map((u) => new URL(u).host).sort());
          // No false "missing file" and no broken internal link.
          expect(result.of('warning').filter((w) => !w.message.startsWith('Links to'))).toEqual([]);
          expect(result.record.readiness?.browser).toMatchObject({ ran: true });
          expect(result.record.readiness?.links.brokenCount).toBe(0);
        });
      } else {
        it('a browser loading every page contacts the hosts the leaky build adds', () => {
          expect([...truth.keys()]).toEqual(expect.arrayContaining(LEAKY_LOADS[spec.generator]));
        });

        it('fails air-gapped naming every host the browser contacts, in the error and in the summary', async () => {
          const result = await check({ 'deployment-type': 'air-gapped' });
          expect(result.error).toBeDefined();
          for (const host of truth.keys()) {
            expect(result.error?.message, host).toContain(` ${host} (`);
            expect(result.summary, host).toContain(`| \`${host}\` | loads`);
          }
          // Outbound hyperlinks stay warnings, never errors.
          for (const link of OUTBOUND_LINKS)
            expect(result.error?.message).not.toContain(new URL(link).host);
          expect(
            result.of('warning').filter((w) => w.message.startsWith('While loading pages')),
          ).toEqual([]);
        });

        it('finds the leaky hosts without the browser too (static scan alone)', async () => {
          const result = await check({ 'deployment-type': 'air-gapped', 'browser-check': 'false' });
          const named = new Set(
            result.record.readiness?.hosts.filter((h) => h.role === 'load').map((h) => h.host),
          );
          const expected = LEAKY_LOADS[spec.generator].filter(
            (host) => host !== 'us-assets.i.posthog.com',
          );
          expect([...named]).toEqual(expect.arrayContaining(expected));
        });
      }
    });

    if (generator !== 'next') return;
    it('the other try_files order answers 403 for a Next.js page beside its RSC directory', async () => {
      const spec = STANDARD_SITES.find((s) => s.generator === 'next' && s.variant === 'clean');
      const site = cachedSite(spec as (typeof STANDARD_SITES)[number]) as string;
      const wrong = await startNginx(
        (listen) =>
          `server { listen ${listen}; root ${site}; index index.html; location / { try_files $uri $uri/ $uri.html =404; } }`,
      );
      const right = await startNginx((listen) =>
        nginxConfig({ has404Page: true }, { root: site, listen }),
      );
      try {
        expect((await fetch(`${wrong.origin}/guides/getting-started`)).status).toBe(403);
        const ok = await fetch(`${right.origin}/guides/getting-started`);
        expect(ok.status).toBe(200);
        expect(await ok.text()).toContain('Getting started');
      } finally {
        await wrong.stop();
        await right.stop();
      }
    });
  });
}

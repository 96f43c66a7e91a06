import puppeteer, { type Browser } from 'puppeteer-core';
import { launchBrowser } from '../../src/airgap/browser.js';

/**
 * What a browser really contacts outside a site: every page loaded from `origin` (a
 * real nginx, not the action's own server), scripts left to run, every request that
 * leaves loopback recorded and refused. Independent of the check under test.
 */
export async function hostsContacted(
  browser: Browser,
  origin: string,
  pages: readonly string[],
  settleMs = 700,
): Promise<Map<string, string[]>> {
  const contacted = new Map<string, string[]>();
  const context = await browser.createBrowserContext();
  try {
    await Promise.all(
      pages.map(async (pagePath) => {
        const page = await context.newPage();
        await page.setRequestInterception(true);
        page.on('request', (request) => {
          const url = new URL(request.url());
          if (url.origin === origin || url.protocol === 'data:' || url.protocol === 'blob:') {
            void request.continue().catch(() => undefined);
            return;
          }
          contacted.set(url.host, [...(contacted.get(url.host) ?? []), pagePath]);
          void request.abort('blockedbyclient').catch(() => undefined);
        });
        await page.goto(`${origin}${pagePath}`, { waitUntil: 'load', timeout: 20_000 });
        await new Promise((resolve) => setTimeout(resolve, settleMs));
        await page.close();
      }),
    );
  } finally {
    await context.close();
  }
  return contacted;
}

export function launchChromium(executablePath: string): Promise<Browser> {
  return launchBrowser(puppeteer, executablePath, 20_000);
}

/**
 * Every URL attribute of the given pages as Chromium resolves it (links and what the
 * pages load, relative ones and those under a `<base href>` too), loaded from `origin`,
 * with the pages holding each: the addresses inside the site (as a path and query) and
 * whether nginx serves them.
 */
export async function linksServed(
  browser: Browser,
  origin: string,
  pages: readonly string[],
): Promise<Map<string, { served: boolean; pages: string[] }>> {
  const links = new Map<string, { served: boolean; pages: string[] }>();
  const context = await browser.createBrowserContext();
  try {
    for (const pagePath of pages) {
      const page = await context.newPage();
      // Only the page itself: its scripts and images play no part here.
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        if (request.isNavigationRequest()) void request.continue().catch(() => undefined);
        else void request.abort('blockedbyclient').catch(() => undefined);
      });
      await page.goto(`${origin}${pagePath}`, { waitUntil: 'domcontentloaded', timeout: 20_000 });
      // What every element's URL attribute resolves to: links, and what the page loads.
      const hrefs = (await page.evaluate(
        `[...document.querySelectorAll('[href], [src]')].flatMap((e) =>
          [e.getAttribute('href') !== null ? e.href : undefined, e.getAttribute('src') !== null ? e.src : undefined]
            .filter((u) => typeof u === 'string' && u !== ''))`,
      )) as string[];
      await page.close();
      for (const href of hrefs) {
        const url = new URL(href);
        if (url.origin !== origin) continue;
        const target = `${url.pathname}${url.search}`;
        const entry = links.get(target) ?? { served: false, pages: [] };
        if (!entry.pages.includes(pagePath)) entry.pages.push(pagePath);
        links.set(target, entry);
      }
    }
  } finally {
    await context.close();
  }
  for (const [target, entry] of links)
    entry.served = (await fetch(`${origin}${target}`)).status === 200;
  return links;
}

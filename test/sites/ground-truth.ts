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

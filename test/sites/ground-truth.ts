import { type Browser, chromium } from 'playwright-core';
import { LAUNCH_ARGS } from '../../src/airgap/browser.js';

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
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    await context.route('**/*', async (route, request) => {
      const url = new URL(request.url());
      if (url.origin === origin || url.protocol === 'data:' || url.protocol === 'blob:') {
        await route.continue().catch(() => undefined);
        return;
      }
      const pages = contacted.get(url.host) ?? [];
      pages.push(request.frame().url());
      contacted.set(url.host, pages);
      await route.abort('blockedbyclient').catch(() => undefined);
    });
    await Promise.all(
      pages.map(async (pagePath) => {
        const page = await context.newPage();
        await page.goto(`${origin}${pagePath}`, { waitUntil: 'load', timeout: 20_000 });
        await page.waitForTimeout(settleMs);
        await page.close();
      }),
    );
  } finally {
    await context.close();
  }
  return contacted;
}

export async function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: LAUNCH_ARGS,
  });
}

import { existsSync } from 'node:fs';
import type { Browser, Page, Request, Route } from 'playwright-core';
import { abortReason } from '../errors.js';
import { serveSite } from './serve.js';
import type { SiteTree } from './site-tree.js';

/** Browsers looked for, in order, when no path is given (the binaries, not their shell wrappers). */
const CANDIDATES = [
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium-headless-shell',
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
  '/usr/bin/google-chrome',
];

export function findBrowser(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env.STATIC_EXPORT_BROWSER;
  if (configured) return existsSync(configured) ? configured : undefined;
  return CANDIDATES.find((candidate) => existsSync(candidate));
}

/** A request a page made to somewhere other than the site's own loopback server. */
export interface OutsideRequest {
  url: string;
  /** Path of the page that made it (`/guides/intro`). */
  page: string;
  /** What the browser was fetching: script, stylesheet, image, font, fetch, websocket, … */
  resourceType: string;
}

/** A request for a path of the site that no file serves. */
export interface MissingFile {
  path: string;
  page: string;
}

export interface BrowserPass {
  pages: string[];
  outside: OutsideRequest[];
  missing: MissingFile[];
  /** Pages that did not finish loading in time, with why. */
  failed: { page: string; error: string }[];
}

export interface BrowserPassOptions {
  executablePath: string;
  /** URL paths to load, the home page first. */
  pages: string[];
  signal?: AbortSignal;
  /** Longest a page may take to load (ms). */
  pageTimeoutMs?: number;
  /** Quiet time after `load` that counts as settled (ms). */
  settleMs?: number;
}

/** Pages loaded at once (each in its own tab). */
const TABS = 3;

/** The flags Chromium is launched with: headless, quiet, and unable to resolve anything but loopback. */
export const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  // Nothing resolves but loopback: a request that slipped past interception still fails.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

/**
 * Serves the site on loopback with the export's URL rules and loads the given pages in
 * headless Chromium (driven by Playwright), letting their scripts run. Every request
 * that leaves loopback is recorded with the page that made it and aborted; requests for
 * paths of the site that nothing serves are recorded as missing. Honours `signal`.
 */
export async function loadPagesInBrowser(
  tree: SiteTree,
  options: BrowserPassOptions,
): Promise<BrowserPass> {
  const pageTimeoutMs = options.pageTimeoutMs ?? 15_000;
  const settleMs = options.settleMs ?? 300;
  const signal = options.signal;
  const result: BrowserPass = { pages: [], outside: [], missing: [], failed: [] };
  const server = await serveSite(tree);
  let browser: Browser | undefined;
  const onAbort = () => void browser?.close().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    // Loaded on demand: Playwright is large, and most runs never get here.
    const { chromium } = await import('playwright-core');
    if (signal?.aborted) throw abortReason(signal);
    browser = await chromium.launch({
      executablePath: options.executablePath,
      headless: true,
      args: LAUNCH_ARGS,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: pageTimeoutMs,
    });
    if (signal?.aborted) throw abortReason(signal);
    const context = await browser.newContext({ serviceWorkers: 'block' });
    /** Which site path each open tab is loading. */
    const loading = new Map<Page, string>();
    const pageOf = (request: Request): string => {
      try {
        return loading.get(request.frame().page()) ?? '';
      } catch {
        return ''; // a request without a frame (a worker's)
      }
    };
    const seen = new Set<string>();
    const record = (url: string, page: string, resourceType: string) => {
      const key = `${page}\u0000${url}`;
      if (seen.has(key)) return;
      seen.add(key);
      result.outside.push({ url, page, resourceType });
    };
    await context.route('**/*', async (route: Route, request: Request) => {
      const url = request.url();
      if (url.startsWith(`${server.origin}/`) || /^(data|blob|about):/i.test(url)) {
        await route.continue().catch(() => undefined);
        return;
      }
      record(url, pageOf(request), request.resourceType());
      await route.abort('blockedbyclient').catch(() => undefined);
    });
    await context.routeWebSocket(/.*/, (socket) => {
      record(socket.url(), '', 'websocket');
      void socket.close({ code: 1008, reason: 'outside the site' }).catch(() => undefined);
    });
    const queue = [...options.pages];
    result.pages.push(...queue);
    const worker = async () => {
      const page = await context.newPage();
      let inFlight = 0;
      let lastActivity: number;
      page.on('request', () => {
        inFlight += 1;
        lastActivity = Date.now();
      });
      const settled = () => {
        inFlight = Math.max(0, inFlight - 1);
        lastActivity = Date.now();
      };
      page.on('requestfinished', settled);
      page.on('requestfailed', settled);
      page.on('response', (response) => {
        const url = new URL(response.url());
        if (
          response.status() === 404 &&
          url.origin === server.origin &&
          url.pathname !== '/favicon.ico'
        )
          result.missing.push({
            path: decodeURIComponent(url.pathname),
            page: loading.get(page) ?? '',
          });
      });
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        if (signal?.aborted) throw abortReason(signal);
        loading.set(page, path);
        inFlight = 0;
        lastActivity = Date.now();
        try {
          await page.goto(`${server.origin}${path}`, { waitUntil: 'load', timeout: pageTimeoutMs });
          // Let scripts run: wait until the network has been quiet for settleMs.
          const until = Date.now() + pageTimeoutMs;
          while (Date.now() < until && (inFlight > 0 || Date.now() - lastActivity < settleMs)) {
            if (signal?.aborted) throw abortReason(signal);
            await page.waitForTimeout(50);
          }
        } catch (error) {
          if (signal?.aborted) throw abortReason(signal);
          result.failed.push({
            page: path,
            error: error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error),
          });
        }
      }
      await page.close();
    };
    await Promise.all(Array.from({ length: Math.min(TABS, queue.length) }, worker));
    return result;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await browser?.close().catch(() => undefined);
    await server.close();
  }
}

/**
 * The home page and up to `count - 1` others: first one per top-level section, then
 * evenly spread over the rest, so a sample sees each part of the site's layout.
 */
export function samplePages(
  pages: readonly { file: string; url: string }[],
  count: number,
): string[] {
  const candidates = pages.filter(
    (p) => !/(^|\/)(404|_not-found|500)(\.html|\/index\.html)$/.test(p.file),
  );
  const home = candidates.find((p) => p.url === '/');
  const chosen: string[] = home ? ['/'] : [];
  const rest = candidates.filter((p) => p.url !== '/');
  const sections = new Set<string>();
  for (const page of rest) {
    if (chosen.length >= count) break;
    const section = page.url.split('/')[1] ?? '';
    if (sections.has(section)) continue;
    sections.add(section);
    chosen.push(page.url);
  }
  const remaining = rest.filter((p) => !chosen.includes(p.url));
  const wanted = count - chosen.length;
  for (let i = 0; i < wanted && remaining.length > 0; i += 1) {
    const pick = remaining[Math.floor((i * remaining.length) / wanted)];
    if (pick && !chosen.includes(pick.url)) chosen.push(pick.url);
  }
  return chosen;
}

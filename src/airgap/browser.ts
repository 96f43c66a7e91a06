import { existsSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import type { Browser, PuppeteerNode } from 'puppeteer-core';
import { abortReason } from '../errors.js';
import { serveSite } from './serve.js';
import { decodedUrlPath, pageAddress, type SiteTree } from './site-tree.js';

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
 * headless Chromium (driven by puppeteer-core), letting their scripts run. Every request
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
    // Loaded on demand: most runs never get here.
    const { default: puppeteer } = await import('puppeteer-core');
    if (signal?.aborted) throw abortReason(signal);
    browser = await launchBrowser(puppeteer, options.executablePath, pageTimeoutMs);
    if (signal?.aborted) throw abortReason(signal);
    const context = await browser.createBrowserContext();
    const seen = new Set<string>();
    const record = (url: string, page: string, resourceType: string) => {
      const key = `${page}\u0000${url}`;
      if (seen.has(key)) return;
      seen.add(key);
      result.outside.push({ url, page, resourceType });
    };
    const queue = [...options.pages];
    result.pages.push(...queue);
    const worker = async () => {
      const page = await context.newPage();
      let current = '';
      let inFlight = 0;
      let lastActivity: number;
      await page.setBypassServiceWorker(true);
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        inFlight += 1;
        lastActivity = Date.now();
        const url = request.url();
        if (url.startsWith(`${server.origin}/`) || /^(data|blob|about):/i.test(url)) {
          void request.continue().catch(() => undefined);
          return;
        }
        record(url, current, request.resourceType());
        void request.abort('blockedbyclient').catch(() => undefined);
      });
      const settled = () => {
        inFlight = Math.max(0, inFlight - 1);
        lastActivity = Date.now();
      };
      page.on('requestfinished', settled);
      page.on('requestfailed', settled);
      page.on('response', (response) => {
        const url = new URL(response.url());
        const status = response.status();
        if (
          (status === 404 || status === 400) &&
          url.origin === server.origin &&
          url.pathname !== '/favicon.ico'
        )
          // A path that is no percent-encoding (`100%`) is shown as written.
          result.missing.push({
            path: decodedUrlPath(url.pathname) ?? url.pathname,
            page: current,
          });
      });
      // WebSockets bypass request interception: record them (the resolver rules refuse them).
      const session = await page.createCDPSession();
      await session.send('Network.enable');
      session.on('Network.webSocketCreated', (event) => record(event.url, current, 'websocket'));
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        if (signal?.aborted) throw abortReason(signal);
        current = path;
        inFlight = 0;
        lastActivity = Date.now();
        try {
          await page.goto(pageAddress(server.origin, path), {
            waitUntil: 'load',
            timeout: pageTimeoutMs,
          });
          // Let scripts run: wait until the network has been quiet for settleMs.
          const until = Date.now() + pageTimeoutMs;
          while (Date.now() < until && (inFlight > 0 || Date.now() - lastActivity < settleMs)) {
            if (signal?.aborted) throw abortReason(signal);
            await delay(50);
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
  } catch (error) {
    throw signal?.aborted ? abortReason(signal) : error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await browser?.close().catch(() => undefined);
    await server.close();
  }
}

/**
 * Launches Chromium with LAUNCH_ARGS: the old headless shell when that is the binary
 * (chromium-headless-shell), the new headless mode of a full Chromium otherwise.
 */
export async function launchBrowser(
  puppeteer: Pick<PuppeteerNode, 'launch'>,
  executablePath: string,
  timeoutMs = 15_000,
): Promise<Browser> {
  return puppeteer.launch({
    executablePath,
    headless: /headless[-_]shell/.test(executablePath) ? 'shell' : true,
    args: LAUNCH_ARGS,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    timeout: timeoutMs,
  });
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

/**
 * The link check held to what a reader gets: each page of a small site is loaded in
 * Chromium from the real nginx with the configuration the check prints, every link's
 * `href` is resolved by Chromium and asked of nginx. The links the check reports broken
 * must be exactly those nginx does not serve (any answer but 200, after redirects). The
 * browser pass's own server must answer the same requests as that nginx does.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBrowser } from '../../src/airgap/browser.js';
import { type ScanResult, scanSite } from '../../src/airgap/scan.js';
import { type SiteServer, serveSite } from '../../src/airgap/serve.js';
import { nginxConfig } from '../../src/airgap/serving.js';
import { pageUrl, SiteTree } from '../../src/airgap/site-tree.js';
import { launchChromium } from './ground-truth.js';
import { NGINX, type RunningNginx, startNginx } from './nginx.js';
import { writeTree } from '../support/files.js';

const CI = process.env.CI === 'true';
const chromium = findBrowser();
const missing = [...(chromium ? [] : ['no Chromium']), ...(NGINX ? [] : ['no nginx'])];
if (missing.length > 0 && !CI) console.log(`Skipping the link oracle: ${missing.join(', ')}.`);

/** The files links lead to, with names a URL has to spell with care. */
const TARGETS = [
  'index.html',
  'guides/setup/index.html',
  'guides/next.html',
  // Next.js writes a directory of RSC payloads beside each page.
  'guides/next/payload.txt',
  'guides/a b.html',
  'guides/ünï.html',
  'guides/100%.html',
  'guides/x+y.html',
  'guides/Caps.html',
  'guides/old.htm',
  'guides/q?.html',
  'guides/hash#.html',
  'guides/semi;colon.html',
  'guides/dots.v2/index.html',
  'guides/empty/x.txt',
  'guides/back\\slash.html',
  'assets/a.png',
  'assets/b c.css',
];

/** Link targets, as written in `guides/from.html` (served at /guides/from). */
const PATHS = [
  ...['setup', 'setup/', './setup', '../guides/setup', '/guides/setup/index', '/guides/setup/./'],
  ...['next', 'next/', 'next.html', 'next/payload.txt', '/guides/next.html/', '/guides/NEXT'],
  // nginx merges runs of slashes, and resolves dot segments, encoded or not.
  ...['/guides//next', '///guides///next', '/guides/../guides/next', '/../guides/next'],
  ...['/guides/%2e%2e/guides/next', '/guides/.%2e/guides/next', '/guides/setup/../next'],
  // A `..` that only decoding makes (`%2F`) is applied by nginx too.
  ...['x/..%2Fnext', '/guides/setup/..%2f..%2f', '/guides/..%2F..%2Fnext'],
  // Percent-encoding: decoded once, `%2F` as a slash; a lone `%` is a bad request.
  ...['/guides/%6Eext', '/guides%2Fnext', '/guides/next%2Fx', '100%', '100%25', '/guides/next%00'],
  ...['a b', 'a%20b', 'a+b', 'x+y', 'x%2By', 'ünï', '%C3%BCn%C3%AF', '/guides/a b/'],
  ...['q?', 'q%3F', 'hash%23', 'semi;colon', 'back\\slash', 'back%5Cslash', 'caps', 'Caps'],
  ...['old', 'old.htm', 'dots.v2', 'dots.v2/', 'empty', 'empty/', '/assets', '/assets/'],
  ...['/assets/a.png', '/assets/b c.css', '/assets/b%20c.css', '/index', '/index.htm', '/'],
  // Browsers drop tabs and trim spaces; a query or fragment is no part of the path.
  ...[' /guides/next ', '/guides/ne\txt', '/guides/next?x=1', '/guides/next#top', '?q', ''],
  ...['//guides/next', 'HTTP://guides.example.com/x', 'mailto:a@example.com'],
];

const anchors = (hrefs: readonly string[]) =>
  hrefs.map((href) => `<a href="${href.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">x</a>`);

/** Pages, each named by what it tries, with the links in its body. */
const PAGES: Record<string, { file: string; body: string }> = {
  'URL paths as nginx reads them': { file: 'guides/from.html', body: anchors(PATHS).join('\n') },
  'a folder page': {
    file: 'guides/setup/index.html',
    body: anchors(['../next', 'nope', 'rel', '.', './', '..']).join(''),
  },
  'entities, attribute spellings, <area> and SVG links': {
    file: 'guides/entities.html',
    body: [
      '<a href="ne&#x78;t">a</a><a href="/guides&#47;next">b</a><a href="nex&amp;t">c</a>',
      `<a HREF="next">d</a><a href=next>e</a><a href='nope'>f</a><map><area href="nope-area"></map>`,
      '<svg><a href="nope-svg"><text>x</text></a><a xlink:href="next"><text>y</text></a></svg>',
    ].join(''),
  },
  '<base href> to a folder': {
    file: 'guides/base-folder.html',
    body: '<base href="/guides/setup/"><a href="next">a</a><a href="../next">b</a><a href="index">c</a>',
  },
  'a relative <base href>': {
    file: 'guides/base-relative.html',
    body: '<base href="setup/"><a href="../next">a</a><a href="x">b</a>',
  },
  'only the first <base href> counts': {
    file: 'guides/base-first.html',
    body: '<base target="_blank"><base href="/guides/setup/"><base href="/"><a href="guides/next">a</a><a href="../next">b</a>',
  },
  '<base href> of a query or a fragment': {
    file: 'guides/base-query.html',
    body: '<base href="?q=1"><a href="next">a</a><a href="">b</a><a href="#x">c</a>',
  },
  '<base href> in a <template>, a <noscript> or an SVG is not the page’s': {
    file: 'guides/base-inert.html',
    body: [
      '<template><base href="/"></template><noscript><base href="/"></noscript>',
      '<svg><base href="/"></base></svg><a href="next">a</a><a href="guides/next">b</a>',
    ].join(''),
  },
  'a <base href> browsers cannot use': {
    file: 'guides/base-unusable.html',
    body: '<base href="data:text/html,x"><base href="/"><a href="next">a</a><a href="guides/next">b</a>',
  },
  '<base href> after markup that ends a template, a noscript or an SVG': {
    file: 'guides/base-after-malformed.html',
    body: [
      '<template><svg></template><noscript><template></noscript><svg><p>',
      '<base href="/guides/setup/"><a href="../next">a</a><a href="index">b</a>',
    ].join(''),
  },
  // The page is read in pieces of 64 KB; browsers resolve a link when it is followed.
  'a <base href> past the first 64 KB, for the links before it': {
    file: 'guides/base-late.html',
    body: [
      anchors(['next', '../next', 'setup']).join(''),
      `<p>${'text '.repeat(16_000)}</p>`,
      '<base href="/guides/setup/">',
      anchors(['index', '../next/']).join(''),
    ].join(''),
  },
  // Not here: a <base href> that is no URL. The HTML standard resolves the page's links
  // from the page then, as the check does (a unit test); Chromium follows none of them.
  'a <base href> after a <noscript>': {
    file: 'guides/base-after-noscript.html',
    body: '<noscript><p>x</noscript><base href="/"><a href="next">a</a><a href="guides/next">b</a>',
  },
};

const document = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>T</title></head><body>${body}</body></html>`;

describe.skipIf(missing.length > 0 && !CI)('the link check agrees with Chromium and nginx', () => {
  let root: string;
  let nginx: RunningNginx;
  let browser: Browser;
  let scan: ScanResult;
  let server: SiteServer;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-link-oracle-'));
    const files: [string, string][] = [
      ...TARGETS.map((file): [string, string] => [file, document('<p>target</p>')]),
      ...Object.values(PAGES).map(({ file, body }): [string, string] => [file, document(body)]),
    ];
    await writeTree(root, files);
    const tree = await SiteTree.read(root);
    scan = await scanSite(tree, { allowedHosts: [], external: false, links: true });
    nginx = await startNginx((listen) => nginxConfig({ has404Page: false }, { root, listen }));
    server = await serveSite(tree);
    browser = await launchChromium(chromium as string);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await nginx?.stop();
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  /** Each link of the page as written, and whether nginx serves it (undefined: another site). */
  async function served(file: string): Promise<Map<string, boolean | undefined>> {
    const tab = await browser.newPage();
    let links: [string, string][];
    try {
      await tab.goto(`${nginx.origin}${pageUrl(file)}`);
      links = (await tab.evaluate(`[...document.querySelectorAll('a, area')].map((a) => [
        (a.getAttribute('href') ?? a.getAttribute('xlink:href')).trim(),
        typeof a.href === 'string' ? a.href : new URL(a.href.baseVal, document.baseURI).href,
      ])`)) as [string, string][];
    } finally {
      await tab.close();
    }
    const verdicts = new Map<string, boolean | undefined>();
    for (const [written, href] of links) {
      if (new URL(href).origin !== nginx.origin) verdicts.set(written, undefined);
      else verdicts.set(written, (await fetch(href)).status === 200);
    }
    return verdicts;
  }

  it.each(Object.entries(PAGES))('%s', async (_name, { file }) => {
    const verdicts = await served(file);
    expect(verdicts.size).toBeGreaterThan(1);
    const notServed = [...verdicts].filter(([, ok]) => ok === false).map(([written]) => written);
    const reported = scan.links.broken.filter((link) => link.file === file).map((l) => l.url);
    expect(new Set(reported)).toEqual(new Set(notServed));
  });

  it('meets links of every kind: served, not served, and of another site', async () => {
    const verdicts = [...(await served(PAGES['URL paths as nginx reads them']!.file)).values()];
    expect(verdicts.filter((ok) => ok === true).length).toBeGreaterThan(20);
    expect(verdicts.filter((ok) => ok === false).length).toBeGreaterThan(10);
    expect(verdicts).toContain(undefined);
  });

  /** The answer to a request for `target` exactly as written: status, redirect, body. */
  const answer = (origin: string, target: string) =>
    new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(origin);
      http
        .get({ host: hostname, port, path: target }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const { statusCode, headers } = response;
            if (statusCode === 301) resolve(`301 to ${headers.location?.replace(origin, '')}`);
            // Ours answers 404 where nginx answers 403 (a directory without an index), so
            // that the browser pass reports what a page asks for there as missing.
            else if (statusCode === 403 || statusCode === 404) resolve('not found');
            else resolve(`${statusCode} ${statusCode === 200 ? Buffer.concat(chunks) : ''}`);
          });
        })
        .on('error', reject);
    });

  it.each([
    ...['/', '/index', '/index.html', '/guides/setup', '/guides/setup/', '/guides/setup/index'],
    ...['/guides/setup?tab=1', '/guides/next', '/guides/next/', '/guides/next.html'],
    ...['/guides/next/payload.txt', '/guides//next', '/guides/%6Eext', '/guides%2Fnext'],
    ...['/guides/100%', '/guides/100%25', '/guides/a%20b', '/guides/%C3%BCn%C3%AF', '/guides/%C3'],
    ...['/guides/x+y', '/guides/Caps', '/guides/caps', '/guides/old', '/guides/old.htm'],
    ...['/guides/q%3F', '/guides/hash%23', '/guides/semi;colon', '/guides/dots.v2'],
    ...['/guides/dots.v2/', '/guides/empty/', '/guides/back%5Cslash', '/assets/b%20c.css'],
    ...['/assets/', '/nope', '/guides/../guides/next', '/guides/%2e%2e/guides/next'],
    ...['/guides/setup%2F', '/guides/x/..%2Fnext', '/guides/setup/..%2F..%2F'],
  ])("the browser pass's server answers %s as nginx does", async (target) => {
    expect(await answer(server.origin, target)).toBe(await answer(nginx.origin, target));
  });
});

/**
 * The air-gap check held to Chromium for references that stand before a `<base href>` of
 * another host: each page holds one kind of reference, then the base (a host of its own),
 * early in the page or past the first 64 KB that the check reads in one piece. Chromium
 * loads every page from the real nginx, and every request that leaves it is recorded and
 * refused. What the parser fetches as it meets it comes from the page's own address, but a
 * script may move it under the base (a preload turned stylesheet, an alternate stylesheet
 * enabled, an element put back); what is loaded later goes to the base's host. The check
 * must report every host Chromium contacted, and reports the base's host for all of them.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBrowser } from '../../src/airgap/browser.js';
import { type ScanResult, scanSite } from '../../src/airgap/scan.js';
import { nginxConfig } from '../../src/airgap/serving.js';
import { pageUrl, SiteTree } from '../../src/airgap/site-tree.js';
import { writeTree } from '../support/files.js';
import { hostsContacted, launchChromium } from './ground-truth.js';
import { NGINX, type RunningNginx, startNginx } from './nginx.js';

const CI = process.env.CI === 'true';
const chromium = findBrowser();
const missing = [...(chromium ? [] : ['no Chromium']), ...(NGINX ? [] : ['no nginx'])];
if (missing.length > 0 && !CI) console.log(`Skipping the base oracle: ${missing.join(', ')}.`);

/**
 * Each kind of reference, and whether Chromium may fetch it under a base that comes after
 * it. Those it may are fetched there or not by timing (an image is fetched at once, and
 * again under the base when the base comes before it has loaded).
 */
const KINDS: Record<string, { markup: string; underBase: 'never' | 'may' }> = {
  script: { markup: '<script src="a.js"></script>', underBase: 'never' },
  'module script': { markup: '<script type="module" src="m.js"></script>', underBase: 'never' },
  stylesheet: { markup: '<link rel="stylesheet" href="s.css">', underBase: 'never' },
  preload: { markup: '<link rel="preload" as="image" href="pre.png">', underBase: 'never' },
  modulepreload: { markup: '<link rel="modulepreload" href="mp.js">', underBase: 'never' },
  prefetch: { markup: '<link rel="prefetch" href="pf.js">', underBase: 'never' },
  // A frame's document takes the page's address when the frame is made.
  'script in a srcdoc frame': {
    markup: '<iframe srcdoc="<script src=&quot;sd.js&quot;></script>"></iframe>',
    underBase: 'never',
  },
  'image in a srcdoc frame': {
    markup: '<iframe srcdoc="<img src=&quot;sdi.png&quot;>"></iframe>',
    underBase: 'never',
  },
  'script before a srcdoc frame’s own base': {
    markup:
      '<iframe srcdoc="<script src=&quot;g.js&quot;></script><base href=&quot;https://frame.cdn.example/&quot;>"></iframe>',
    underBase: 'never',
  },
  'image in a srcdoc frame in a srcdoc frame': {
    markup: `<iframe srcdoc="<iframe srcdoc='<img src=&quot;n.png&quot;>'></iframe>"></iframe>`,
    underBase: 'never',
  },
  'image under a srcdoc frame’s own path base': {
    markup: '<iframe srcdoc="<base href=&quot;/x/&quot;><img src=&quot;r.png&quot;>"></iframe>',
    underBase: 'never',
  },
  'disabled stylesheet': {
    markup:
      '<link rel="stylesheet" href="ds.css" disabled id="ds">' +
      "<script>addEventListener('load', () => { document.getElementById('ds').disabled = false })</script>",
    underBase: 'may',
  },
  'template after an SVG a <div> closes': {
    markup:
      '<div><svg></div><template id="t"><script src="st.js"></script></template>' +
      "<script>addEventListener('load', () => document.body.append(document.getElementById('t').content.cloneNode(true)))</script><p>x</p>",
    underBase: 'may',
  },
  'preload turned stylesheet': {
    markup: `<link rel="preload" as="style" href="pl.css" onload="this.rel='stylesheet'">`,
    underBase: 'may',
  },
  'alternate stylesheet': {
    markup:
      '<link rel="alternate stylesheet" title="a" href="alt.css" id="alt">' +
      "<script>addEventListener('load', () => { document.getElementById('alt').disabled = false })</script>",
    underBase: 'may',
  },
  'SVG script': { markup: '<svg><script href="svg.js"></script></svg>', underBase: 'never' },
  // Inert until a script puts it in the page, by when the base is read.
  'script in a template': {
    markup:
      '<template id="t"><script src="t.js"></script><link rel="stylesheet" href="t.css"></template>' +
      "<script>addEventListener('load', () => document.body.append(document.getElementById('t').content.cloneNode(true)))</script>",
    underBase: 'may',
  },
  'script after a self-closed SVG template in a template': {
    markup:
      '<template id="t"><svg><template/></svg><script src="t3.js"></script></template>' +
      "<script>addEventListener('load', () => document.body.append(document.getElementById('t').content.cloneNode(true)))</script>",
    underBase: 'may',
  },
  // An SVG's <template> inside closes no HTML one.
  'script after an SVG template in a template': {
    markup:
      '<template id="t"><svg><template></template></svg><script src="t2.js"></script></template>' +
      "<script>addEventListener('load', () => document.body.append(document.getElementById('t').content.cloneNode(true)))</script>",
    underBase: 'may',
  },
  frame: { markup: '<iframe src="f.html"></iframe>', underBase: 'never' },
  'lazy frame': { markup: '<iframe loading="lazy" src="lf.html"></iframe>', underBase: 'never' },
  '<style>': {
    markup: '<style>div.x { background: url(st.png) }</style><div class="x">x</div>',
    underBase: 'never',
  },
  'style attribute': { markup: '<div style="background: url(p.png)">x</div>', underBase: 'never' },
  image: { markup: '<img src="i.png">', underBase: 'may' },
  'lazy image': { markup: '<img loading="lazy" src="li.png">', underBase: 'may' },
  poster: { markup: '<video poster="v.png"></video>', underBase: 'may' },
  embed: { markup: '<embed src="e.png">', underBase: 'may' },
};

const text = `<p>${'text '.repeat(16_000)}</p>`;

/** A page per kind and place: `early/script.html`, `late/script.html`, each with a base host of its own. */
const PAGES = Object.entries(KINDS).flatMap(([kind, { markup }], i) =>
  (['early', 'late'] as const).map((place) => {
    const host = `${place}-${i}.cdn.example`;
    const body = `${markup}${place === 'late' ? text : ''}<base href="https://${host}/">`;
    return { kind, place, host, file: `${place}/${i}.html`, body };
  }),
);

describe.skipIf(missing.length > 0 && !CI)(
  'references before a <base href>, held to Chromium',
  () => {
    let root: string;
    let nginx: RunningNginx;
    let browser: Browser;
    let scan: ScanResult;
    let contacted: Map<string, string[]>;
    beforeAll(async () => {
      root = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-base-oracle-'));
      await writeTree(
        root,
        PAGES.map(({ file, body }): [string, string] => [
          file,
          `<!doctype html><html><head><title>T</title></head><body>${body}</body></html>`,
        ]),
      );
      scan = await scanSite(await SiteTree.read(root), {
        allowedHosts: [],
        external: true,
        links: false,
      });
      nginx = await startNginx((listen) => nginxConfig({ has404Page: false }, { root, listen }));
      browser = await launchChromium(chromium as string);
      contacted = await hostsContacted(
        browser,
        nginx.origin,
        PAGES.map(({ file }) => pageUrl(file)),
        1500,
      );
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await nginx?.stop();
      if (root) await fs.rm(root, { recursive: true, force: true });
    });

    it.each(PAGES)('$kind, $place', ({ kind, host, file }) => {
      const reported = scan.external.some((e) => e.file === file && e.host === host);
      const byChromium = contacted.has(host);
      if (byChromium) expect(reported, 'Chromium contacted the base host').toBe(true);
      // What it reports more than Chromium contacts here, a script could make it contact.
      expect(reported).toBe(true);
      if (KINDS[kind]!.underBase === 'never') expect(byChromium).toBe(false);
    });

    it('sees Chromium fetch under a later base: the pages do test what they mean to', () => {
      const later = PAGES.filter(({ kind }) => KINDS[kind]!.underBase === 'may');
      expect(later.filter(({ host }) => contacted.has(host)).length).toBeGreaterThanOrEqual(3);
    });
  },
);

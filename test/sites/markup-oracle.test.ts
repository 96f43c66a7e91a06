/**
 * Markup whose reading browsers and simple parsers disagree on, read by the readiness
 * check's static scan and loaded in Chromium: the hosts the scan takes for loads must be
 * the hosts Chromium asks for, or more where another browser or setting would load them,
 * never fewer. Each snippet is set as a page's content, with every request that leaves it
 * recorded and refused (no traffic leaves the machine); a style sheet the page links is
 * answered by the test.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBrowser } from '../../src/airgap/browser.js';
import { urlsInCss } from '../../src/airgap/css.js';
import { referencesInHtml } from '../../src/airgap/html.js';
import { externalHost } from '../../src/airgap/references.js';
import { scanSite } from '../../src/airgap/scan.js';
import { SiteTree } from '../../src/airgap/site-tree.js';
import { fingerprintPage } from '../../src/changes/fingerprint.js';
import { writeTree } from '../support/files.js';
import { launchChromium } from './ground-truth.js';

const CI = process.env.CI === 'true';
const chromium = findBrowser();
if (!chromium && !CI) console.log('Skipping the markup oracle: no Chromium.');

const img = (host: string) => `<img src="https://${host}.example.com/x.png">`;
/** A box that shows its style's images. */
const box = (style: string) => `<div style="width:9px;height:9px;${style}"></div>`;

/** Snippets, each named by what it tries, that the scan must read as Chromium loads them. */
const SNIPPETS: Record<string, string> = {
  'CDATA in HTML, a > inside': `<p><![CDATA[ a > ${img('cdata-html')} ]]></p>`,
  'CDATA in HTML holding the tag': `<p><![CDATA[ ${img('cdata-hidden')} ]]></p>`,
  'CDATA after an SVG': `<svg></svg><![CDATA[ a > ${img('cdata-after-svg')} ]]>`,
  'CDATA in an SVG': `<svg><![CDATA[ a > <image href="https://cdata-svg.example.com/x.png"/> ]]></svg>`,
  'CDATA in MathML': `<math><![CDATA[ a > ${img('cdata-math')} ]]></math>`,
  'CDATA in foreignObject': `<svg><foreignObject><![CDATA[ a > ${img('cdata-fo')} ]]></foreignObject></svg>`,
  'CDATA in an SVG in foreignObject': `<svg><foreignObject><svg><![CDATA[ a > </svg></foreignObject></svg><script> ]]> ${img('cdata-svg-in-fo')}`,
  'CDATA in a div in foreignObject': `<svg><foreignObject><div><![CDATA[ a > ${img('cdata-fo-div')} ]]></div></foreignObject></svg>`,
  'a comment with > inside': `<!-- a > ${img('comment')} -->`,
  'comments ended by --!>, and empty ones': `<!-- a --!> ${img('bang')}<!--> ${img('empty')}<!---> ${img('empty-dash')}`,
  'a processing instruction': `<? a > ${img('pi')} ?>`,
  'an HTML element ends SVG content': `<svg><p><script>var s = "${img('in-script').replace(/"/g, "'")}"</script><textarea>${img('in-textarea')}</textarea></p></svg>`,
  'a bogus declaration': `<!x a > ${img('bogus')}`,
  'raw text elements': ['textarea', 'title', 'xmp', 'noembed', 'noframes', 'iframe']
    .map((tag) => `<${tag}>${img(tag)}</${tag}>`)
    .join(''),
  '<plaintext>': `<plaintext>${img('plaintext')}`,
  'frames navigated to javascript: URLs, and an object that is not': [
    `<iframe src="javascript:'<img src=https://javascript-shown.example.com/a.png>'"></iframe>`,
    `<iframe src="javascript:fetch('https://javascript-run.example.com/a')"></iframe>`,
    `<iframe src="javascript:'<p>' + '<img src=https://javascript-joined.example.com/a.png>'"></iframe>`,
    '<iframe src=" java&#9;script:%27%3Cscript%20src%3Dhttps://javascript-encoded.example.com/a.js%3E%3C/script%3E%27"></iframe>',
    `<object type="text/html" data="javascript:'<img src=https://javascript-object.example.com/a.png>'"></object>`,
  ].join(''),
  'a <style> in the body': `<p><style>p{background:url(https://body-style.example.com/a.png)}</style>text</p>`,
  'URLs as browsers clean them': [
    '<IMG SRC="https://upper.example.com/a.png">',
    '<img src="  https://spaces.example.com/a.png  ">',
    '<img src="ht\ttps://tab.example.com/a.png">',
    '<img src="https&#x3a;//entity.example.com/a.png">',
    '<img src="https:\\\\backslashes.example.com/a.png">',
    '<img src=https://unquoted.example.com/a.png>',
    '<img src="https://first.example.com/a.png" src="https://second.example.com/a.png">',
    // Not dropped, as a no-break space is not a space to the URL parser: a relative URL.
    '<img src="\u00a0https://nbsp.example.com/a.png">',
    '<img src="&nbsp;https://nbsp-entity.example.com/a.png">',
    '<script src="\u3000https://ideographic.example.com/a.js"></script>',
    '<img src="\ufeffhttps://bom.example.com/a.png">',
    box("background:url('\u00a0https://nbsp-css.example.com/a.png')"),
    '<img src="\f https://form-feed.example.com/a.png">',
  ].join(''),
  'CSS as browsers read it': [
    box('background:u\\72l(https://escaped-url.example.com/a.png)'),
    box('background:URL(https://upper-url.example.com/a.png)'),
    box('background:url(https://paren.example.com/a\\).png)'),
    box('background:url(https&#58;//entity.example.com/a.png)'),
    box('cursor:url(https://cursor.example.com/a.png),auto'),
    box('border:5px solid;border-image:url(https://border.example.com/a.png) 30'),
    box('mask-image:url(https://mask.example.com/a.png)'),
    '<ul style="list-style-image:url(https://list.example.com/a.png)"><li>x</li></ul>',
    '<style>@import "https://import-string.example.com/a.css";',
    '@IMPORT url(https://import-upper.example.com/a.css);',
    '@font-face{font-family:F;src:url(https://font.example.com/a.woff2)} p{font-family:F}',
    ':root{--bg:url(https://custom-property.example.com/a.png)} i{display:block;height:9px;background:var(--bg)}',
    'b::before{content:url(https://content.example.com/a.png)}</style><p>text</p><i></i><b></b>',
  ].join(''),
  'CSS escapes in a style attribute': [
    box("background-image:\\69mage-set('https://attribute-image-set.example.com/a.png' 1x)"),
    box(
      "background:u\\72l(x');background-image:url(https://attribute-after-bad-url.example.com/a.png)",
    ),
  ].join(''),
  'scripts that request what they name': `<script>${[
    'fetch("https://fetch.example.com/a")',
    'fetch(`https://template.example.com/a`, { method: "POST" })',
    'fetch(new Request("https://request.example.com/a"))',
    'var x = new XMLHttpRequest(); x.open("GET", "https://xhr.example.com/a"); x.send()',
    'navigator.sendBeacon("https://beacon.example.com/a", "x")',
    'new EventSource("https://events.example.com/a")',
    'new Image().src = "https://image.example.com/a.png"',
    'var s = document.createElement("script"); s.src = "https://script.example.com/a.js"; document.head.appendChild(s)',
    'var i = document.createElement("img"); i.setAttribute("src", "https://attribute.example.com/a.png"); document.body.appendChild(i)',
    'document.body.style.backgroundImage = "url(https://style.example.com/a.png)"',
    'new FontFace("F", "url(https://font-face.example.com/a.woff2)").load()',
    'import("https://dynamic-import.example.com/a.js")',
    // CSS and markup only shown as text load nothing.
    'var sample = "<pre>body { background: url(https://sample.example.com/a.png) }</pre>"',
  ].join(
    ';\n',
  )}</script><script type="module">import x from "https://import.example.com/a.js"</script>`,
};

/**
 * Style sheets, each named by what it tries, that the scan must read as Chromium loads
 * them: in a `<style>`, and as a file the page links (answered by the test, never fetched).
 */
const STYLE_SHEETS: Record<string, string> = {
  // Browsers decode an identifier's escapes before they look at it, at-rule names too.
  'at-rule names written with escapes': [
    '@\\69mport "https://import-escaped.example.com/a.css" print;',
    '@\\69 mport "https://import-escaped-space.example.com/a.css";',
    '@\\49\\4d\\50\\4f\\52\\54 "https://import-all-escaped.example.com/a.css" layer(a);',
  ].join(''),
  'function names written with escapes': [
    'div{background-image:\\69mage-set("https://image-set-escaped.example.com/a.png" 1x)}',
    'p{background-image:-webkit-\\69mage-set("https://webkit-image-set-escaped.example.com/a.png" 1x)}',
  ].join(''),
  // A bad url() ends at its `)`: a quote in it opens no string that runs on.
  'a bad url() with an escaped name, and what follows it': [
    'div{background:u\\72l(x")} p{background:url(https://after-quote.example.com/a.png)}',
    'i{background:u\\72l(a b)} i{background-image:url(https://after-space.example.com/a.png)}',
    "b{background:u\\72l(x'/*)} b{background-image:url(https://after-comment.example.com/a.png)}",
  ].join(''),
  // A backslash before a line break continues a string on the next line.
  'a string continued on the next line':
    'div{background:url("https://continued.exa\\\nmple.com/a.png")}',
};
/**
 * XML documents, each named by what it tries, served with their own type as the export
 * serves them: the hosts the scan reads in the file must be those Chromium contacts.
 */
const XML_DOCUMENTS: Record<string, { file: string; contentType: string; body: string }> = {
  'an XHTML page': {
    file: 'page.xhtml',
    contentType: 'application/xhtml+xml',
    body: [
      '<?xml version="1.0"?><?xml-stylesheet type="text/css" href="https://xhtml-pi.example.com/a.css"?>',
      '<!DOCTYPE html [<!ENTITY cdn "https://xhtml-entity.example.com"><!ENTITY logo "&cdn;/logo.png">]>',
      '<html xmlns="http://www.w3.org/1999/xhtml"><head><script src="a.js"/><title/></head>',
      '<body><img src="https://after-script.example.com/a.png"/><img src="&logo;"/>',
      '<textarea/><img src="https://after-textarea.example.com/a.png"/>',
      '<style>p { background: url(&quot;https://xhtml-style.example.com/a.png&quot;) }</style>',
      '<script>//<![CDATA[\nif (1 && 2) fetch("https://xhtml-cdata.example.com/a")\n//]]></script>',
      '<![CDATA[ <img src="https://xhtml-text.example.com/a.png"/> ]]>',
      '<script><!-- fetch("https://xhtml-comment.example.com/") --></script><p>text</p></body></html>',
    ].join('\n'),
  },
  'an SVG image opened as a document': {
    file: 'image.svg',
    contentType: 'image/svg+xml',
    body: [
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY cdn "https://svg-entity.example.com">]>',
      '<?xml-stylesheet type="text/css" href="https://svg-pi.example.com/a.css"?>',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="90" height="90">',
      '<image href="&cdn;/a.png" width="9" height="9"/><image xlink:href="https://svg-xlink.example.com/a.png" width="9" height="9"/>',
      '<script>/*<![CDATA[*/ fetch("https://svg-script.example.com/a") /*]]>*/</script></svg>',
    ].join('\n'),
  },
};

/** What the style sheets style. */
const STYLED = '<div>text</div><p>text</p><i>text</i><b>text</b>';
/** Where the page finds the style sheet it links. */
const STYLE_SHEET_URL = 'http://style-sheet.invalid/a.css';
/** Where a page is served from, when it is (answered by the test). */
const PAGE_URL = 'http://page.invalid/';

/**
 * Snippets the scan reads more loads in than Chromium makes here, on purpose: another
 * browser, screen or setting makes them. It must still read every load Chromium makes.
 */
const MORE_THAN_CHROMIUM: Record<string, string> = {
  // A screen of another density picks the other candidate; a browser without WebP, the <img>.
  'every srcset candidate': `<img srcset="https://one-x.example.com/a.png 1x, https://two-x.example.com/b.png 2x">`,
  'every <picture> source': `<picture><source srcset="https://webp.example.com/a.webp" type="image/webp"><img src="https://png.example.com/a.png"></picture>`,
  // Shown with scripting off; cloned in by a script.
  '<noscript> and <template>': `<noscript>${img('noscript')}</noscript><template>${img('template')}</template>`,
  // Loaded once a script or a media query shows it.
  'a hidden background': `<div style="display:none;background:url(https://hidden-bg.example.com/a.png)"></div>`,
  // Run by browsers without modules.
  'a nomodule script': `<script nomodule src="https://nomodule.example.com/a.js"></script>`,
  // Fetched by a browser with a window (tab icons), and at play or when chosen.
  // Used by another page, printed, or read by a browser that takes an @import late.
  'fonts no text uses, print styles, a late @import': [
    '<style>@font-face{font-family:G;src:url(https://unused-font.example.com/a.woff2)}',
    '@media print{div{background:url(https://print.example.com/a.png)}}',
    'p{color:red} @import url(https://late-import.example.com/a.css);</style>',
    '<div style="width:9px;height:9px"></div>',
  ].join(''),
  'icons, tracks and lazy media': [
    '<link rel=icon href="https://icon.example.com/a.png">',
    '<video><track src="https://track.example.com/a.vtt"></video>',
    '<video preload=none src="https://video-none.example.com/a.mp4"></video>',
  ].join(''),
};

describe.skipIf(!chromium && !CI)('the static scan reads tricky markup as Chromium does', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium(chromium as string);
  });
  afterAll(async () => {
    await browser?.close();
  });

  /**
   * The hosts Chromium asks for while it loads `html`, set as a blank page's content; or
   * `served` from PAGE_URL, whose own host (the site's) is left out, and given time to
   * lay out (lazy images load then). The page may link `styleSheet` at STYLE_SHEET_URL.
   */
  async function contacted(
    html: string,
    {
      styleSheet,
      served: servedAs,
    }: { styleSheet?: string; served?: boolean | { contentType: string } } = {},
  ): Promise<string[]> {
    const page = await browser.newPage();
    const hosts = new Set<string>();
    const served = servedAs !== undefined && servedAs !== false;
    // A document of another type is served as it is written.
    const document =
      typeof servedAs === 'object' ? html : `<!doctype html><html><body>${html}</body></html>`;
    const answers = new Map<string, { contentType: string; body: string }>();
    if (styleSheet !== undefined)
      answers.set(STYLE_SHEET_URL, { contentType: 'text/css', body: styleSheet });
    if (served)
      answers.set(PAGE_URL, {
        contentType: typeof servedAs === 'object' ? servedAs.contentType : 'text/html',
        body: document,
      });
    try {
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        const answer = answers.get(request.url());
        if (answer !== undefined) {
          void request.respond(answer).catch(() => undefined);
          return;
        }
        const url = new URL(request.url());
        if (url.protocol === 'https:' || url.protocol === 'http:') {
          if (!served || url.origin !== new URL(PAGE_URL).origin) hosts.add(url.host);
          void request.abort('blockedbyclient').catch(() => undefined);
        } else void request.continue().catch(() => undefined);
      });
      if (served) {
        await page.goto(PAGE_URL, { waitUntil: 'load' });
        await new Promise((resolve) => setTimeout(resolve, 300));
      } else await page.setContent(document, { waitUntil: 'load' });
    } finally {
      await page.close();
    }
    return [...hosts].sort();
  }

  /** The hosts the scan takes for loads in `html` (a relative URL, the page's own, names none). */
  const scanned = (html: string) =>
    [
      ...new Set(
        referencesInHtml(html)
          .filter((r) => r.role === 'load')
          .flatMap((r) => externalHost(r.url) ?? []),
      ),
    ].sort();

  it.each(Object.entries(SNIPPETS))('%s', async (_name, html) => {
    expect(scanned(html)).toEqual(await contacted(html));
  });

  it.each(Object.entries(STYLE_SHEETS))('%s, in a <style>', async (_name, css) => {
    const html = `<style>${css}</style>${STYLED}`;
    expect(scanned(html)).toEqual(await contacted(html));
  });

  it.each(Object.entries(STYLE_SHEETS))('%s, in a linked file', async (_name, css) => {
    const hosts = [...new Set(urlsInCss(css).map((found) => new URL(found.url).host))].sort();
    const html = `<link rel="stylesheet" href="${STYLE_SHEET_URL}">${STYLED}`;
    expect(hosts).toEqual(await contacted(html, { styleSheet: css }));
  });

  it('a <base href> past the first 64 KB, for the loads before it', async () => {
    // An image loads as it is read, from the page's own host; a lazy one once it is laid
    // out, under the base the page has by then.
    const html = [
      '<img src="eager.png"><img loading="lazy" src="lazy.png" width="9" height="9">',
      `<p>${'text '.repeat(16_000)}</p>`,
      '<base href="https://late-base.example.com/">',
    ].join('');
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-markup-oracle-'));
    try {
      await writeTree(root, [['index.html', `<!doctype html><html><body>${html}</body></html>`]]);
      const scan = await scanSite(await SiteTree.read(root), {
        allowedHosts: [],
        external: true,
        links: false,
      });
      const hosts = [...new Set(scan.external.filter((e) => e.role === 'load').map((e) => e.host))];
      expect(hosts.sort()).toEqual(await contacted(html, { served: true }));
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });

  it.each(Object.entries(XML_DOCUMENTS))('%s, read as XML', async (_name, xml) => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-markup-oracle-'));
    try {
      await writeTree(root, [[xml.file, xml.body]]);
      const scan = await scanSite(await SiteTree.read(root), {
        allowedHosts: [],
        external: true,
        links: false,
      });
      const hosts = [...new Set(scan.external.filter((e) => e.role === 'load').map((e) => e.host))];
      expect(hosts.sort()).toEqual(
        await contacted(xml.body, { served: { contentType: xml.contentType } }),
      );
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });

  it.each(Object.entries(MORE_THAN_CHROMIUM))('%s: more, never fewer', async (_name, html) => {
    const chromiumLoads = await contacted(html);
    const scan = scanned(html);
    expect(scan).toEqual(expect.arrayContaining(chromiumLoads));
    expect(scan.length).toBeGreaterThan(chromiumLoads.length);
  });

  it('sees the loads it is shown', async () => {
    // The oracle itself: a plain image is asked for.
    expect(await contacted(img('plain'))).toEqual(['plain.example.com']);
  });
});

/**
 * The change report's page fingerprint against Chromium's rendering: a page template
 * filled with two words, set as a page's content. Where Chromium shows the word (in the
 * body's `innerText`), changing it must change the page's content fingerprint; where it
 * does not, the fingerprint must stay the same, but for what a reader can still bring into
 * view (a collapsed `<details>`, a `hidden` tab panel, a frame, an image's alt text).
 */
const SHOWN: Record<string, (word: string) => string> = {
  'CDATA in HTML, a > inside': (w) => `<p>Hello<![CDATA[ a > ${w} ]]></p>`,
  'CDATA in an SVG <text>': (w) => `<p>Hello</p><svg><text><![CDATA[ ${w} ]]></text></svg>`,
  'markup in an SVG <text>, as CDATA': (w) =>
    `<p>Hello</p><svg><text><![CDATA[<p><script>${w}</script></p>]]></text></svg><script></script>`,
  'a comment ended by --!>': (w) => `<p>Hello<!-- a --!> ${w}</p>`,
  'an empty comment, <!-->': (w) => `<p>Hello<!--> ${w}</p>`,
  'an empty comment, <!--->': (w) => `<p>Hello<!---> ${w}</p>`,
  'a bogus declaration': (w) => `<p>Hello<!x a > ${w}</p>`,
  'a processing instruction': (w) => `<p>Hello<? a > ${w} ?></p>`,
  '<xmp> and <plaintext>': (w) => `<xmp>${w}</xmp><plaintext>${w}`,
  'a <script> closed in capitals': (w) =>
    `<p>Hello</p><SCRIPT>var a="</script>";</SCRIPT><p>${w}</p>`,
  'a <script> tag in a comment': (w) => `<!-- <script> --><p>${w}</p><script></script>`,
  'a <style> in the body, and in an SVG': (w) =>
    `<style>p{}</style><p>${w}</p><svg><style></style><text>${w}</text></svg>`,
  'form controls': (w) => `<select><option>${w}</option></select><button>${w}</button>`,
};
const NOT_SHOWN: Record<string, (word: string) => string> = {
  'CDATA in HTML holding the text': (w) => `<p>Hello<![CDATA[ ${w} ]]></p>`,
  'a comment with > inside': (w) => `<p>Hello<!-- a > ${w} --></p>`,
  '<template> and <noscript>': (w) =>
    `<p>Hello</p><template>${w}</template><noscript>${w}</noscript>`,
  'a <script> in an SVG': (w) => `<p>Hello</p><svg><script>${w}</script></svg>`,
};
const REVEALED: Record<string, (word: string) => string> = {
  'a collapsed <details>': (w) => `<details><summary>More</summary>${w}</details>`,
  'a hidden tab panel': (w) => `<div role="tabpanel" hidden>${w}</div>`,
  'a frame': (w) => `<iframe srcdoc="<p>${w}</p>"></iframe>`,
  'alt text': (w) => `<img src="a.png" alt="${w}">`,
  '<textarea>': (w) => `<textarea>${w}</textarea>`,
  "a button's label": (w) =>
    `<input type="submit" value="${w}"><input type="button" value="${w}"><input type="reset" value="${w}">`,
  'a filled-in field': (w) => `<input value="${w}">`,
  "an image button's alt text": (w) => `<input type="image" src="go.png" alt="${w}">`,
  'what an abbreviation stands for, shown on hover': (w) => `<abbr title="${w}">API</abbr>`,
  "a field's hint, shown while it is empty": (w) =>
    `<input type="search" placeholder="${w}"><textarea placeholder="${w}"></textarea>`,
  'an item of a task list ticked': (w) =>
    `<ul><li><input type="checkbox" disabled${w === 'alpha' ? '' : ' checked'}> Ship it</li></ul>`,
};

/**
 * Pairs of spellings of one page that Chromium shows alike (the same text, and the same
 * attributes a reader sees or follows), as generators write the same page from version to
 * version: React escapes `'` as `&#x27;`, Vue as `&#39;`; highlighters split a line into
 * other tokens. Their fingerprints must be the same.
 */
const SAME_LOOK: Record<string, [string, string]> = {
  '&amp;, decimal and hex': ['<p>Q&amp;A, R&#38;D, S&#x26;P</p>', '<p>Q&A, R&D, S&P</p>'],
  'an apostrophe as React and Vue escape it': [
    '<p>don&#x27;t</p><p>won&#39;t</p>',
    "<p>don't</p><p>won't</p>",
  ],
  '&quot;, &lt; and &gt;': ['<p>&quot;a&quot; &lt;b&gt;</p>', '<p>"a" &#60;b></p>'],
  '&nbsp; runs and the character': ['<p>a&nbsp;&nbsp;b&#160;c</p>', '<p>a\u00a0\u00a0b\u00a0c</p>'],
  'named references without a semicolon': ['<p>&copy 2024 &amp Co</p>', '<p>\u00a9 2024 & Co</p>'],
  'references beyond Latin-1': [
    '<p>a&mdash;b &#x1F600; &#150;</p>',
    '<p>a\u2014b \u{1F600} \u2013</p>',
  ],
  'references to whitespace': ['<p>a&#32;&#10;&#9;b</p>', '<p>a b</p>'],
  'references in a code sample saved with CR LF': [
    '<pre>if (a &lt; b &amp;&amp; c)\r\n  x&nbsp;y</pre>',
    '<pre>if (a &#60; b && c)\n  x\u00a0y</pre>',
  ],
  'references in SVG text': [
    '<svg><text>Q&amp;A</text><path d="M0"/></svg>',
    '<svg><text>Q&A</text><path d="M0"></path></svg>',
  ],
  'alt text quoted three ways': [
    `<img src="a.png" alt="Q&amp;A &copy;"><img src='b.png' alt='don&#x27;t'><img src=c.png alt=R&#38;D>`,
    `<img src="a.png" alt="Q&A \u00a9"><img src="b.png" alt="don't"><img src="c.png" alt="R&D">`,
  ],
  'attributes in capitals': [
    '<IMG SRC="a.png" ALT="Q&amp;A"><A HREF="/s?a=1&amp;b=2">s</A>',
    '<img src="a.png" alt="Q&A"><a href="/s?a=1&b=2">s</a>',
  ],
  'link targets': [
    '<a href="/search?q=a&amp;page=2">s</a><a href="/guides&#x2F;intro">i</a><a href="/s?a=1&copy=2">c</a>',
    '<a href="/search?q=a&page=2">s</a><a href="/guides/intro">i</a><a href="/s?a=1&amp;copy=2">c</a>',
  ],
  'the meta description': [
    '<meta name="description" content="Don&#x27;t panic"><p>x</p>',
    `<meta name="description" content="Don't panic"><p>x</p>`,
  ],
  "a button's label": [
    '<input type="submit" value="Q&amp;A">',
    '<input type="submit" value="Q&A">',
  ],
  'an image button': [
    '<input type="image" src="go.png" alt="Q&amp;A">',
    '<INPUT TYPE="image" SRC="go.png" ALT="Q&A">',
  ],
  "a field's hint": [
    '<input placeholder="Search docs&hellip;"><textarea placeholder="Q&amp;A"></textarea>',
    '<input placeholder="Search docs\u2026"><textarea placeholder="Q&A"></textarea>',
  ],
  'what an abbreviation stands for': [
    '<abbr title="Questions &amp; answers">Q&amp;A</abbr>',
    '<ABBR TITLE="Questions &#38; answers">Q&A</ABBR>',
  ],
  "a highlighter's tokens": [
    '<pre><code><span class="k">const</span><span> x</span> = <span>f</span>(<b>1</b>)\ny()</code></pre>',
    '<pre><code>const x = f(1)\ny()</code></pre>',
  ],
  'line breaks in a code sample as <br>': [
    '<pre><code><span class="token-line"><span>npm i</span><br></span><span class="token-line"><span>npm run</span><br/></span></code></pre>',
    '<pre><code>npm i\nnpm run\n</code></pre>',
  ],
  "React's comments between text": ['<p>v<!-- -->2<!-- -->.<!-- -->1</p>', '<p>v2.1</p>'],
};

describe.skipIf(!chromium && !CI)(
  "the change report's fingerprint sees what Chromium shows",
  () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium(chromium as string);
    });
    afterAll(async () => {
      await browser?.close();
    });

    const page = (body: string) =>
      `<!doctype html><html><head><title>T</title></head><body>${body}</body></html>`;

    /** Whether Chromium shows the two bodies' text differently. */
    async function shownDiffers(make: (word: string) => string): Promise<boolean> {
      const texts: string[] = [];
      for (const word of ['alpha', 'omega']) {
        const tab = await browser.newPage();
        try {
          await tab.setContent(page(make(word)));
          texts.push(String(await tab.evaluate('document.body.innerText')));
        } finally {
          await tab.close();
        }
      }
      return texts[0] !== texts[1];
    }

    /**
     * Whether the two pages' content fingerprints differ, read afresh and as the report
     * reads an export after another, carrying a page over when its markup is unchanged.
     */
    const fingerprintDiffers = (make: (word: string) => string) => {
      const earlier = fingerprintPage(Buffer.from(page(make('alpha'))));
      const now = Buffer.from(page(make('omega')));
      const fresh = fingerprintPage(now).content !== earlier.content;
      expect(fingerprintPage(now, earlier).content !== earlier.content, 'carried over').toBe(fresh);
      return fresh;
    };

    it.each(Object.entries(SHOWN))('shown: %s', async (_name, make) => {
      expect(await shownDiffers(make)).toBe(true);
      expect(fingerprintDiffers(make)).toBe(true);
    });

    it.each(Object.entries(NOT_SHOWN))('not shown: %s', async (_name, make) => {
      expect(await shownDiffers(make)).toBe(false);
      expect(fingerprintDiffers(make)).toBe(false);
    });

    it.each(Object.entries(REVEALED))('brought into view: %s', async (_name, make) => {
      expect(await shownDiffers(make)).toBe(false);
      expect(fingerprintDiffers(make)).toBe(true);
    });

    /**
     * What a reader sees of `body` in Chromium: the text, the meta description, and every
     * URL attribute resolved, alt text, input value, field hint and what an abbreviation
     * stands for. Under a `<base>` of another host, so that URLs resolve: every request it
     * would make is refused.
     */
    async function seen(body: string): Promise<string> {
      const tab = await browser.newPage();
      try {
        await tab.setRequestInterception(true);
        tab.on('request', (request) => {
          void request.abort('blockedbyclient').catch(() => undefined);
        });
        await tab.setContent(page(`<base href="https://docs.example.com/guide/">${body}`));
        return String(
          await tab.evaluate(`JSON.stringify([
            document.body.innerText,
            document.querySelector('meta[name=description]')?.content,
            ...[...document.querySelectorAll('[href], [src]')].map((e) => [e.href, e.src]),
            ...[...document.querySelectorAll('[alt]')].map((e) => e.alt),
            ...[...document.querySelectorAll('input')].map((e) => e.value),
            ...[...document.querySelectorAll('[placeholder]')].map((e) => e.placeholder),
            ...[...document.querySelectorAll('abbr[title]')].map((e) => e.title),
          ])`),
        );
      } finally {
        await tab.close();
      }
    }

    it.each(Object.entries(SAME_LOOK))('seen alike: %s', async (_name, [one, other]) => {
      expect(await seen(one)).toBe(await seen(other));
      const [a, b] = [one, other].map((body) => fingerprintPage(Buffer.from(page(body))));
      expect(b?.content).toBe(a?.content);
      expect(b?.navigation).toBe(a?.navigation);
    });
  },
);

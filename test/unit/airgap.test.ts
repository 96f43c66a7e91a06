import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { samplePages } from '../../src/airgap/browser.js';
import { urlsInCss } from '../../src/airgap/css.js';
import { type Finding, groupByHost } from '../../src/airgap/findings.js';
import { referencesInFlight } from '../../src/airgap/flight.js';
import {
  type HtmlReference,
  HtmlScanner,
  MAX_FRAME_DEPTH,
  refreshUrl,
  referencesInHtml,
  srcsetUrls,
} from '../../src/airgap/html.js';
import { urlsInScript } from '../../src/airgap/js.js';
import { referencesInWebManifest, urlsInImportMap } from '../../src/airgap/json-formats.js';
import { externalHost, isAllowedHost, isRealHost, LineIndex } from '../../src/airgap/references.js';
import { MAX_UNCONFIRMED_HOSTS } from '../../src/airgap/findings.js';
import { scanSite } from '../../src/airgap/scan.js';
import { nginxConfig } from '../../src/airgap/serving.js';
import { pageAddress, pageUrl, SiteTree } from '../../src/airgap/site-tree.js';
import { imageInFrames } from '../support/nested-frames.js';
import { writeTree } from '../support/files.js';

describe('externalHost', () => {
  it.each([
    ['https://cdn.example.com/a.js', 'cdn.example.com'],
    ['http://analytics.example.com:8080/p', 'analytics.example.com:8080'],
    ['//fonts.example.net/css', 'fonts.example.net'],
    ['wss://live.example.com/socket', 'live.example.com'],
    ['HTTPS://UPPER.EXAMPLE.COM', 'upper.example.com'],
    ['\\\\cdn.example.com/a.js', 'cdn.example.com'],
    ['/\\cdn.example.com/a.js', 'cdn.example.com'],
    ['/\n/cdn.example.com/a.js', 'cdn.example.com'],
    ['htt\nps://cdn.example.com/a.js', 'cdn.example.com'],
  ])('%j leaves the site (%s)', (url, host) => {
    expect(externalHost(url)).toBe(host);
  });

  it.each([
    'guides/intro.html',
    '../assets/app.css',
    '/assets/logo.png',
    '#section',
    '?q=1',
    'data:image/png;base64,AAAA',
    'mailto:docs@example.com',
    'javascript:void(0)',
    // Past a no-break space, an ideographic one or a byte order mark, which the URL parser
    // keeps (it drops only controls and spaces): a path of the site's.
    '\u00a0https://cdn.example.com/a.js',
    '\u3000//cdn.example.com/a.js',
    '\ufeffhttps://cdn.example.com/a.js',
    '//',
    'https://',
    '',
  ])('%j names no host outside', (url) => {
    expect(externalHost(url)).toBeUndefined();
  });

  it('tells real hosts from the dummy bases of parsers and tests', () => {
    expect(isRealHost('cdn.segment.com')).toBe(true);
    expect(isRealHost('10.0.0.5:8080')).toBe(true);
    expect(isRealHost('p')).toBe(false);
    expect(isRealHost('a')).toBe(false);
    expect(isRealHost('xn--e1aybc')).toBe(false);
    expect(isRealHost('x.1')).toBe(false);
    // An internationalized top-level domain, and the root's dot a browser resolves alike.
    expect(isRealHost('xn--e1afmkfd.xn--p1ai')).toBe(true);
    expect(isRealHost('evil.com.')).toBe(true);
    expect(isRealHost('evil.com..')).toBe(false);
    expect(isRealHost('.')).toBe(false);
  });

  it('matches allowed hosts exactly or by *. suffix', () => {
    expect(isAllowedHost('cdn.example.com', ['cdn.example.com'])).toBe(true);
    expect(isAllowedHost('a.b.example.com', ['*.example.com'])).toBe(true);
    expect(isAllowedHost('example.com', ['*.example.com'])).toBe(false);
    expect(isAllowedHost('evil-example.com', ['*.example.com'])).toBe(false);
    expect(isAllowedHost('cdn.example.com:8443', ['cdn.example.com'])).toBe(true);
    expect(isAllowedHost('[fd00::5]:8443', ['[fd00::5]'])).toBe(true);
    expect(isAllowedHost('[fd00::6]', ['[fd00::5]'])).toBe(false);
  });

  it('maps offsets to lines across streamed pieces', () => {
    const lines = new LineIndex();
    lines.append('ab\nc');
    lines.append('d\nef');
    expect(lines.at(0)).toEqual({ line: 1, column: 1 });
    expect(lines.at(4)).toEqual({ line: 2, column: 2 });
    expect(lines.at(6)).toEqual({ line: 3, column: 1 });
  });

  it('keeps a line start in 4 bytes, outside the JavaScript heap', () => {
    // An array of numbers held 24 bytes a line at its peak: 100 MB of line breaks (from an
    // archive of a few hundred KB) took 2.4 GB.
    const breaks = 8 * 1024 * 1024;
    const before = process.memoryUsage();
    const lines = new LineIndex();
    const piece = '\n'.repeat(64 * 1024);
    for (let i = 0; i < breaks / piece.length; i += 1) lines.append(piece);
    const after = process.memoryUsage();
    // The breaks and the start of line 1 fill 129 blocks of 256 KB: 4 * breaks + 256 KB
    // exactly. The first block's smaller copies (252 KB in all) are garbage the collector
    // may not have freed yet: up to 1 MB more is allowed, where 8 bytes a line is 32 MB more.
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThanOrEqual(4 * breaks + 1024 * 1024);
    expect(after.heapUsed - before.heapUsed).toBeLessThan(4 * 1024 * 1024);
    for (const offset of [0, 1500, 70_000, breaks])
      expect(lines.at(offset)).toEqual({ line: offset + 1, column: 1 });
  });

  it('maps offsets to lines across blocks, those of a few long lines as those of many short ones', () => {
    const text = ['a', '', 'bcd', 'e'.repeat(40), '', '', 'f', 'g'.repeat(25), 'h'].join('\n');
    const expected = (offset: number) => {
      const before = text.slice(0, offset).split('\n');
      return { line: before.length, column: (before.at(-1) as string).length + 1 };
    };
    const small = new LineIndex(undefined, { blockLines: 2, blockSpan: 16 });
    for (let i = 0; i < text.length; i += 7) small.append(text.slice(i, i + 7));
    const whole = new LineIndex(text);
    for (let offset = 0; offset < text.length; offset += 1) {
      expect(small.at(offset)).toEqual(expected(offset));
      expect(whole.at(offset)).toEqual(expected(offset));
    }
  });
});

describe('what the browser does with each reference in HTML', () => {
  const html = [
    '<!doctype html>',
    '<html><head>',
    '<link rel="stylesheet" href="https://cdn.example.com/style.css">',
    '<link rel="preconnect" href="https://fonts.example.com">',
    '<link rel="dns-prefetch" href="//stats.example.com">',
    '<link rel="canonical" href="https://docs.example.com/page">',
    '<meta property="og:image" content="https://docs.example.com/og.png">',
    '<script type="application/ld+json">{"@context": "https://schema.org", "logo": "https://docs.example.com/l.png"}</script>',
    '<script type="importmap">{"imports": {"confetti": "https://esm.example.com/confetti"}}</script>',
    '<script src="//scripts.example.com/app.js"></script>',
    '<script>fetch("https://api.example.com/q?x=" + q); const e = "https://react.example.dev/errors/";</script>',
    '</head><body>',
    '<img srcset="small.png 1x, https://img.example.com/large.png 2x" src="local.png">',
    '<div style="background-image: url(https://img.example.com/inline.png)"></div>',
    '<svg xmlns="http://www.w3.org/2000/svg"><use href="https://icons.example.com/s.svg#i"/></svg>',
    '<a href="https://github.com/example">GitHub</a> <form action="https://forms.example.com/post"></form>',
    '<iframe src="https://video.example.com/embed/1"></iframe>',
    '<!-- <img src="https://commented.example.com/x.png"> -->',
    '</body></html>',
  ].join('\n');
  const lineOf = (offset: number) => html.slice(0, offset).split('\n').length;

  it('classifies loads, links and metadata, each with its construct and line', () => {
    const found = referencesInHtml(html).filter((r) => externalHost(r.url));
    expect(found.map((r) => [r.role, r.via, r.url, lineOf(r.offset)])).toEqual([
      ['load', '<link rel=stylesheet>', 'https://cdn.example.com/style.css', 3],
      ['load', '<link rel=preconnect>', 'https://fonts.example.com', 4],
      ['load', '<link rel=dns-prefetch>', '//stats.example.com', 5],
      ['metadata', '<link rel=canonical>', 'https://docs.example.com/page', 6],
      ['load', '<script type=importmap>', 'https://esm.example.com/confetti', 9],
      ['load', '<script src>', '//scripts.example.com/app.js', 10],
      ['load', 'inline script: fetch()', 'https://api.example.com/q?x=', 11],
      ['load', '<img srcset>', 'https://img.example.com/large.png', 13],
      ['load', 'inline style', 'https://img.example.com/inline.png', 14],
      ['load', '<use href>', 'https://icons.example.com/s.svg#i', 15],
      ['link', '<a href>', 'https://github.com/example', 16],
      ['link', '<form action>', 'https://forms.example.com/post', 16],
      ['load', '<iframe src>', 'https://video.example.com/embed/1', 17],
    ]);
  });

  it('reads event-handler attributes as the scripts they are', () => {
    const page = [
      `<img src="x.png" onerror="this.src='https://fallback.example.com/x.png'">`,
      `<body ONLOAD="fetch('https://beacon.example.com/hit')">`,
      `<a href="#" onclick="show('https://docs.example.com/help')">Help</a>`,
      `<div data-onload="https://not-a-handler.example.com/">`,
    ].join('\n');
    const found = referencesInHtml(page).filter((r) => externalHost(r.url));
    expect(found.map((r) => [r.role, r.via, r.url])).toEqual([
      ['load', 'onerror: .src =', 'https://fallback.example.com/x.png'],
      ['load', 'onload: fetch()', 'https://beacon.example.com/hit'],
    ]);
  });

  it('gives the same result however the page is cut into chunks', async () => {
    const { HtmlScanner } = await import('../../src/airgap/html.js');
    const found: string[] = [];
    const scanner = new HtmlScanner({
      reference: (r) => found.push(`${r.role} ${r.url} ${r.offset}`),
    });
    for (let i = 0; i < html.length; i += 7) scanner.write(html.slice(i, i + 7));
    scanner.end();
    expect(found).toEqual(referencesInHtml(html).map((r) => `${r.role} ${r.url} ${r.offset}`));
  });

  it('reads what tags say, however the elements nest or are left open', () => {
    const page = [
      '<svg><feImage href="https://filters.example.com/f.png"/><image href="https://img.example.com/s.png"/></svg>',
      '<IMAGE SRC="https://img.example.com/legacy.png">',
      '<svg><style>.a{}</svg><a href="https://github.com/after-svg">after</a>',
      '<p><div><p><a href="https://github.com/x">x</a></li></p></form></br>',
      '<STYLE>body { background: url(https://img.example.com/bg.png) }</STYLE>',
      // The first of two same-named attributes is the one a browser reads.
      '<img src="https://img.example.com/first.png" SRC="https://img.example.com/second.png">',
      '<script>fetch("https://api.example.com/unclosed")',
    ].join('\n');
    const found = referencesInHtml(page).map((r) => [r.role, r.via, r.url]);
    expect(found).toEqual([
      ['load', '<feimage href>', 'https://filters.example.com/f.png'],
      ['load', '<image href>', 'https://img.example.com/s.png'],
      ['load', '<img src>', 'https://img.example.com/legacy.png'],
      // In SVG a <style> is markup, as browsers read it: one left open hides nothing after it.
      ['link', '<a href>', 'https://github.com/after-svg'],
      ['link', '<a href>', 'https://github.com/x'],
      ['load', 'css url()', 'https://img.example.com/bg.png'],
      ['load', '<img src>', 'https://img.example.com/first.png'],
      ['load', 'inline script: fetch()', 'https://api.example.com/unclosed'],
    ]);
  });

  it('ends a <style> or <script> inside <svg> and <math> where the browser does', () => {
    const read = (page: string) => referencesInHtml(page).map((r) => [r.role, r.via, r.url]);
    const svgStyle = '<style>body{background:url(https://img.example.com/svg-style.png)}';
    // Closed with the <svg> (or an element in it): what follows is the page again.
    expect(
      read(`<svg>${svgStyle}</svg><script>fetch("https://api.example.com/a")</script>`),
    ).toEqual([
      ['load', 'css url()', 'https://img.example.com/svg-style.png'],
      ['load', 'inline script: fetch()', 'https://api.example.com/a'],
    ]);
    expect(
      read(`<math><mrow><script>var a</math><p>fetch("https://prose.example.com/v1")</p>`),
    ).toEqual([]);
    // A stray end tag closes nothing: the <style> after it is still SVG markup.
    expect(
      read('<svg></x><g></use><style>.a{}</style></svg><img src="https://img.example.com/b.png">'),
    ).toEqual([['load', '<img src>', 'https://img.example.com/b.png']]);
    expect(read('<svg><g></x><image href="https://img.example.com/c.png"/></g></svg>')).toEqual([
      ['load', '<image href>', 'https://img.example.com/c.png'],
    ]);
    // </p> leaves foreign content; <foreignObject> lets HTML in only inside <svg>.
    expect(
      read('<svg><g></p><style>.a{}</style><img src="https://img.example.com/d.png">'),
    ).toEqual([['load', '<img src>', 'https://img.example.com/d.png']]);
    expect(
      read('<math><foreignObject><script>var a</math><img src="https://img.example.com/e.png">'),
    ).toEqual([['load', '<img src>', 'https://img.example.com/e.png']]);
  });

  it('reads `<![CDATA[` as a CDATA section only in an SVG or MathML element, as Chromium does', () => {
    const read = (page: string) => referencesInHtml(page).map((r) => r.url);
    const cdata = (host: string) =>
      `<![CDATA[ a > <img src="https://${host}.example.com/x.png"> ]]>`;
    const img = '<img src="https://after-cdata.example.com/x.png">';
    // In HTML it is a bogus comment that the first `>` ends: the image after it loads.
    expect(read(`<p>${cdata('html')}</p>`)).toEqual(['https://html.example.com/x.png']);
    expect(read(`<svg></svg>${cdata('after-svg')}`)).toEqual([
      'https://after-svg.example.com/x.png',
    ]);
    expect(
      read(`<svg><foreignObject><div>${cdata('div-in-svg')}</div></foreignObject></svg>`),
    ).toEqual(['https://div-in-svg.example.com/x.png']);
    // In an SVG or MathML element (an integration point too) it is text up to `]]>`.
    expect(read(`<svg>${cdata('svg')}</svg>`)).toEqual([]);
    expect(read(`<math>${cdata('math')}</math>`)).toEqual([]);
    expect(read(`<svg><foreignObject>${cdata('foreign-object')}</foreignObject></svg>`)).toEqual(
      [],
    );
    // A bogus comment that holds the whole tag still hides it.
    expect(read('<p><![CDATA[ <img src="https://hidden.example.com/x.png"> ]]></p>')).toEqual([]);
    // An <svg> or <math> inside an integration point is SVG or MathML again: text up to
    // `]]>`, so what it holds is markup neither there nor after a `>` in it.
    expect(
      read(`<svg><foreignObject><svg>${cdata('svg-in-fo')}</svg></foreignObject></svg>`),
    ).toEqual([]);
    expect(read(`<math><mi><svg>${cdata('svg-in-mi')}</svg></mi></math>`)).toEqual([]);
    expect(
      read(`<svg><foreignObject><svg><![CDATA[ a > </svg></foreignObject></svg><script> ]]>${img}`),
    ).toEqual(['https://after-cdata.example.com/x.png']);
  });

  it('reads a URL after a no-break space as browsers do: a path of the site, not a host', () => {
    // Chromium asks the page's own host for `/%C2%A0https://nbsp.example.com/a.png`.
    const page = [
      '<img src="\u00a0https://nbsp.example.com/a.png">',
      '<script src="\u3000https://ideographic.example.com/a.js"></script>',
      '<link rel="stylesheet" href="&nbsp;https://entity.example.com/a.css">',
      '<div style="background:url(\'\u00a0https://css.example.com/a.png\')"></div>',
      '<meta http-equiv="refresh" content="5;\u00a0https://refresh.example.com/">',
      '<script>fetch("\ufeffhttps://fetch.example.com/a")</script>',
      // A control character or a form feed before it is dropped: this one leaves.
      '<img src=" \fhttps://form-feed.example.com/a.png">',
    ].join('\n');
    expect(
      referencesInHtml(page)
        .filter((r) => externalHost(r.url) !== undefined)
        .map((r) => r.url),
    ).toEqual(['https://form-feed.example.com/a.png']);
  });

  it('reads a <form> inside an open one as browsers do: not at all', () => {
    const page = [
      '<form action="https://a.example.com/first"><p><form action="https://b.example.com/ignored">',
      '</form><form action="https://c.example.com/after-close"></form>',
    ].join('\n');
    expect(referencesInHtml(page).map((r) => [r.via, r.url])).toEqual([
      ['<form action>', 'https://a.example.com/first'],
      ['<form action>', 'https://c.example.com/after-close'],
    ]);
  });

  it('parses srcset and meta refresh forms', () => {
    expect(srcsetUrls('a.png 1x, https://x.example.com/b.png 2x,c.png')).toEqual([
      'a.png',
      'https://x.example.com/b.png',
      'c.png',
    ]);
    expect(refreshUrl("0;URL='https://go.example.com'")).toBe('https://go.example.com');
    expect(refreshUrl('30')).toBeUndefined();
  });

  it('splits srcset only between candidates: a URL keeps its commas, as browsers read it', () => {
    expect(
      srcsetUrls(
        'https://res.cloudinary.com/demo/image/upload/w_300,c_scale/s.jpg 300w, /img/a,b.png 2x',
      ),
    ).toEqual(['https://res.cloudinary.com/demo/image/upload/w_300,c_scale/s.jpg', '/img/a,b.png']);
    // A lazy-loading placeholder is one data: URL, not a link to "R0lGODlhAQABAAAAACw=".
    expect(srcsetUrls('data:image/gif;base64,R0lGODlhAQABAAAAACw= 1x')).toEqual([
      'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
    ]);
    expect(srcsetUrls('a.png,, b.png (x, y) 2x ,c.png')).toEqual(['a.png', 'b.png', 'c.png']);
    // An unclosed quote runs to the end of the attribute.
    expect(refreshUrl("0; url='https://go.example.com/next")).toBe('https://go.example.com/next');
  });

  it('reads flight rows nested deeper than the call stack', () => {
    // A 215-byte archive with this index.txt failed every run: "Maximum call stack size exceeded".
    const deep = `${'['.repeat(100_000)}["$","script",null,{"src":"https://cdn.example.com/a.js"}]${']'.repeat(100_000)}`;
    expect(referencesInFlight(`0:${deep}\n`).map((r) => r.url)).toEqual([
      'https://cdn.example.com/a.js',
    ]);
  });

  it('reads stray end tags inside a deep <svg> in linear time', () => {
    // Each stray end tag walked every element open in the <svg>: 37 s for this 700 KB page.
    const page = `<svg>${'<g>'.repeat(100_000)}${'</x>'.repeat(100_000)}<style>@import "https://f.example.com/a.css";</style>`;
    const started = performance.now();
    expect(referencesInHtml(page).map((r) => r.url)).toEqual(['https://f.example.com/a.css']);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('reads a srcset URL of a million commas in linear time', () => {
    // `/,+$/` retried from every comma of the run: about five minutes for this one attribute.
    const url = `a${','.repeat(1_000_000)}a`;
    const started = performance.now();
    expect(srcsetUrls(`${url},`)).toEqual([url]);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('keeps <iframe/>, <script/> and <textarea/> open as browsers do: their text is not markup', () => {
    const page = [
      '<iframe src="https://www.youtube.com/embed/x" />',
      '<img src="https://inside-the-frame-tag.example.com/a.png"></iframe>',
      '<script/>fetch("https://api.example.com/x")</script>',
      '<textarea/><img src="https://typed.example.com/b.png"></textarea>',
      '<svg><script href="https://svg.example.com/a.js"/><image href="https://svg.example.com/b.png"/></svg>',
      '<img src="https://after.example.com/c.png">',
    ].join('\n');
    expect(referencesInHtml(page).map((r) => r.url)).toEqual([
      'https://www.youtube.com/embed/x',
      'https://api.example.com/x',
      'https://svg.example.com/a.js',
      'https://svg.example.com/b.png',
      'https://after.example.com/c.png',
    ]);
  });

  it('reads what an <iframe srcdoc> loads, legacy script types, and SVG text with entities', () => {
    const page = [
      `<iframe srcdoc="<img src='https://frame.example.com/a.png'>"></iframe>`,
      '<script type="application/x-javascript">fetch("https://legacy.example.com/x")</script>',
      '<script type="text/plain">fetch("https://never-run.example.com/x")</script>',
      '<svg><style>p { background: url(&quot;https://svg.example.com/c.png&quot;) }</style></svg>',
    ].join('\n');
    expect(referencesInHtml(page).map((r) => [r.via, r.url])).toEqual([
      ['<iframe srcdoc> <img src>', 'https://frame.example.com/a.png'],
      ['inline script: fetch()', 'https://legacy.example.com/x'],
      ['css url()', 'https://svg.example.com/c.png'],
    ]);
  });
});

describe('<iframe srcdoc> documents inside one another', () => {
  /** What a page's scan finds, and the offsets of the frames it did not read. */
  function scanFrames(page: string) {
    const found: HtmlReference[] = [];
    const unread: number[] = [];
    const scanner = new HtmlScanner({
      reference: (reference) => found.push(reference),
      unreadFrame: (offset) => unread.push(offset),
    });
    scanner.write(page);
    scanner.end();
    return { found, unread };
  }

  it(`reads them ${MAX_FRAME_DEPTH} deep, each escaped once more than the one outside it`, () => {
    const { found, unread } = scanFrames(
      imageInFrames(MAX_FRAME_DEPTH, 'https://frame.example.com/a.png'),
    );
    expect(found.map((r) => [r.url, r.via])).toEqual([
      ['https://frame.example.com/a.png', `${'<iframe srcdoc> '.repeat(MAX_FRAME_DEPTH)}<img src>`],
    ]);
    expect(unread).toEqual([]);
  });

  it('names a deeper one as not read, at the outermost frame of the page', () => {
    const page = `<p>Intro</p>\n${imageInFrames(MAX_FRAME_DEPTH + 1, 'https://frame.example.com/a.png')}`;
    const { found, unread } = scanFrames(page);
    expect(found).toEqual([]);
    expect(unread).toEqual([page.indexOf('<iframe')]);
  });

  it('reads 1,000 levels (a 4 MB page from a 9 KB archive) without running out of stack', () => {
    // Read to the bottom, they took 1.4 GB and failed: "Maximum call stack size exceeded".
    const page = imageInFrames(1000, 'https://frame.example.com/a.png');
    expect(page.length).toBeGreaterThan(4_000_000);
    expect(scanFrames(page)).toEqual({ found: [], unread: [0] });
  });
});

describe('documents, stylesheets and scripts in data: URLs', () => {
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const loads = (html: string) =>
    referencesInHtml(html)
      .filter((r) => !/^data:/i.test(r.url))
      .map((r) => `${r.role} ${r.via} ${r.url}`);

  it('reads what a frame, an object, an embed, a stylesheet or a script from a data: URL loads', () => {
    const html = [
      `<iframe src="data:text/html,<script src='https://evil.com/x.js'></script><img src=/rel.png>"></iframe>`,
      `<object type="text/html" data="data:text/html,<img src='https://evil.com/o.png'>"></object>`,
      `<embed type="image/svg+xml" src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'><image href='https://evil.com/e.png'/></svg>">`,
      '<link rel="stylesheet" href="data:text/css,@import url(https://evil.com/imp.css);">',
      `<script src="data:text/javascript,fetch('https://evil.com/z')"></script>`,
      `<iframe src="DATA:text/html;charset=utf-8;base64,${b64('<img src="https://evil.com/b64.png">')}"></iframe>`,
      '<iframe src="data:text/html,%3Cimg%20src%3D%22https://evil.com/pct.png%22%3E"></iframe>',
    ].join('\n');
    expect(loads(html)).toEqual([
      'load <iframe src> (data:) <script src> https://evil.com/x.js',
      'load <object data> (data:) <img src> https://evil.com/o.png',
      'load <embed src> (data:) <image href> https://evil.com/e.png',
      'load <link rel=stylesheet> (data:) css url() https://evil.com/imp.css',
      'load <script src> (data:): fetch() https://evil.com/z',
      'load <iframe src> (data:) <img src> https://evil.com/b64.png',
      'load <iframe src> (data:) <img src> https://evil.com/pct.png',
    ]);
  });

  it('reads no further where the browser loads nothing from the payload', () => {
    const html = [
      // An SVG image is shown without loading what it references.
      `<img src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'><image href='https://evil.com/i.png'/></svg>">`,
      // Plain text, and a stylesheet that is not CSS.
      `<iframe src="data:,<img src='https://evil.com/t.png'>"></iframe>`,
      '<link rel="stylesheet" href="data:text/plain,@import url(https://evil.com/p.css);">',
      `<script src="data:image/png,fetch('https://evil.com/png')"></script>`,
    ].join('\n');
    expect(loads(html)).toEqual([]);
  });

  it('reads what a frame navigated to a javascript: URL runs and shows', () => {
    const html = [
      `<iframe src="javascript:'<img src=https://evil.com/shown.png>'"></iframe>`,
      `<iframe src="javascript:fetch('https://evil.com/run')"></iframe>`,
      `<iframe src="javascript:'<p>' + '<img src=https://evil.com/joined.png>'"></iframe>`,
      '<frame src=" java&#9;script:%27%3Cscript%20src%3Dhttps://evil.com/encoded.js%3E%3C/script%3E%27">',
      // An <object> or an <embed> runs none; a link's runs when it is followed, on this page.
      `<object type="text/html" data="javascript:'<img src=https://evil.com/o.png>'"></object>`,
      `<a href="javascript:'<img src=https://evil.com/link.png>'">x</a>`,
      '<iframe src="javascript:void(0)"></iframe>',
    ].join('\n');
    expect(
      referencesInHtml(html)
        .filter((r) => externalHost(r.url) !== undefined)
        .map((r) => `${r.role} ${r.via} ${r.url}`),
    ).toEqual([
      'load <iframe src> (javascript:) <img src> https://evil.com/shown.png',
      'load <iframe src> (javascript:): fetch() https://evil.com/run',
      'load <iframe src> (javascript:) <img src> https://evil.com/joined.png',
      'load <frame src> (javascript:) <script src> https://evil.com/encoded.js',
    ]);
  });

  it('reads data: documents inside one another up to the frame depth', () => {
    let page = `<img src='https://evil.com/deep.png'>`;
    for (let depth = 0; depth < MAX_FRAME_DEPTH; depth += 1)
      page = `<iframe src="data:text/html;base64,${b64(page)}"></iframe>`;
    expect(loads(page)).toHaveLength(1);
    const unread: number[] = [];
    const scanner = new HtmlScanner({
      reference: () => undefined,
      unreadFrame: (offset) => unread.push(offset),
    });
    scanner.write(`<iframe src="data:text/html;base64,${b64(page)}"></iframe>`);
    scanner.end();
    expect(unread).toEqual([0]);
  });

  it('reads a stylesheet imported from a data: URL', () => {
    const sheet = `@import url("data:text/css,@import 'https://evil.com/in.css';");`;
    expect(urlsInCss(sheet).filter((u) => !u.url.startsWith('data:'))).toEqual([
      { url: 'https://evil.com/in.css', offset: 12, via: 'css @import (data:) css @import' },
    ]);
    // A background is an image, not a stylesheet.
    expect(
      urlsInCss(`a{background:url("data:text/css,@import 'https://evil.com/x.css';")}`),
    ).toEqual([expect.objectContaining({ via: 'css url()' })]);
  });
});

describe('URL strings in scripts count as loads only with evidence', () => {
  it.each([
    ['fetch("https://api.example.com/v1")', 'fetch()'],
    ['new WebSocket(`wss://live.example.com/${room}`)', 'WebSocket()'],
    ['import("https://esm.example.com/mod.js")', 'import()'],
    ['import x from "https://esm.example.com/x.js"', 'import'],
    ['s.src="https://widget.example.com/w/"+id', '.src ='],
    ['xhr.open("GET", "https://api.example.com/x")', 'XMLHttpRequest.open()'],
    ['el.setAttribute("src", "https://img.example.com/p.gif")', 'setAttribute("src")'],
    ['jsx("script", { src: "https://cdn.example.com/a.js" })', '{ src: … }'],
    ['posthog.init("k", { api_host: "https://us.i.posthog.com" })', 'SDK host'],
    ['fetch("https:\\/\\/api.example.com\\/v1")', 'fetch()'],
    ['fetch(new Request("https://api.example.com/v2"))', 'Request()'],
    ['new Audio("https://media.example.com/a.mp3")', 'Audio()'],
    [
      'el.style.backgroundImage = "url(https://img.example.com/bg.png)"',
      '.backgroundImage = url()',
    ],
    ['new FontFace("Inter", "url(https://fonts.example.com/i.woff2)")', 'FontFace() url()'],
    // Hosts a browser requests that look unusual: an IDN top-level domain, the root's dot,
    // backslashes read as slashes.
    ["fetch('https://xn--e1afmkfd.xn--p1ai/api')", 'fetch()'],
    ["fetch('https://evil.com./api')", 'fetch()'],
    [String.raw`fetch('\\\\evil.com/api')`, 'fetch()'],
    [String.raw`fetch('https:\\\\evil.com/api')`, 'fetch()'],
  ])('%s → %s', (source, evidence) => {
    expect(urlsInScript(source)).toEqual([expect.objectContaining({ evidence })]);
  });

  it('reads CSS in a string as a load only where a script applies it', () => {
    // A page's text in a script (a VitePress page chunk, flight data) may show CSS: shown,
    // it loads nothing.
    const source = [
      'const html = "<pre>body { background: url(https://fonts.example.com/a.png) }</pre>";',
      'const note = `Set cursor: url(https://img.example.com/c.png)`;',
      'el.title = "url(https://img.example.com/t.png)";',
      // VitePress's social icon fallback, set only when the icon's CSS is missing.
      'o.style.setProperty("--icon", `url(\'https://api.iconify.design/simple-icons/${t.icon}.svg\')`);',
    ].join('\n');
    expect(urlsInScript(source)).toEqual([]);
  });

  it('reads a classic script with legacy octal escapes and numbers, which a module may not hold', () => {
    const source =
      'var copyright = "\\251 2024"; var mode = 0644; fetch("https://api.example.com/v1");';
    expect(urlsInScript(source)).toEqual([
      expect.objectContaining({ url: 'https://api.example.com/v1', evidence: 'fetch()' }),
    ]);
  });

  it('ignores bare "//", dummy bases, error-documentation links and comments', () => {
    const source = [
      'if (src.startsWith("//")) {}',
      'new URL(path, "http://a.com"); new URL("b", "https://p");',
      'throw new Error("https://react.dev/errors/" + code);',
      'const tests = "https://тест";',
      '// see https://comment.example.com',
      'const re = /https:\\/\\/regex.example.com/;',
    ].join('\n');
    expect(urlsInScript(source).filter((s) => s.evidence)).toEqual([]);
    expect(urlsInScript(source).map((s) => s.url)).toEqual([
      'http://a.com',
      'https://react.dev/errors/',
    ]);
  });
});

describe('links in scripts to hosts an SDK also loads from', () => {
  const evidenceOf = (source: string) => urlsInScript(source).map((s) => [s.url, s.evidence]);

  it('reads a link written in a script as a link, as the same link in HTML is', () => {
    // Docusaurus ships its footer and navbar config, and each MDX page, as objects like these.
    const source = [
      'window.cfg={footer:{links:[{label:"YouTube",href:"https://www.youtube.com/@acme"},',
      '{label:"Sentry docs",href:"https://docs.sentry.io/platforms/"},',
      '{label:"Player",href:"https://www.youtube.com/embed/x"}]}};',
      'Object.assign(a,{href:"https://www.youtube.com/watch?v=abc",textContent:"video"});',
      'a.href="https://cdn.jsdelivr.net/npm/pkg/";',
      'a.setAttribute("href", "https://unpkg.com/pkg/");',
      'nav.push({ icon: "github", link: "https://esm.sh/" });',
      'nav.push({ title: "Status", url: "https://status.segment.io/" });',
      'const pages = ["https://segment.com/docs/", "https://posthog.com/docs", "https://mixpanel.com/"];',
    ].join('\n');
    expect(evidenceOf(source).filter(([, evidence]) => evidence !== undefined)).toEqual([]);
  });

  it('still counts what the SDKs load: their resource hosts, a loading rel, a url without a label', () => {
    const source = [
      's.src="https://www.youtube.com/iframe_api";',
      'const dsn="https://k@o1.ingest.sentry.io/1";',
      'const cdn="https://browser.sentry-cdn.com/8.0.0/bundle.min.js";',
      'const api="https://us.i.posthog.com";',
      'l.rel="stylesheet";l.href="https://fonts.googleapis.com/css2?family=Inter";',
      'head.push(["link",{rel:"preconnect",href:"https://fonts.gstatic.com"}]);',
      'head.push(["link",{href:"https://cdn.jsdelivr.net/npm/k.css",rel:"stylesheet"}]);',
      'load({url:"https://cdn.segment.com/analytics.js"});',
    ].join('\n');
    expect(evidenceOf(source)).toEqual([
      ['https://www.youtube.com/iframe_api', '.src ='],
      ['https://k@o1.ingest.sentry.io/1', 'SDK host'],
      ['https://browser.sentry-cdn.com/8.0.0/bundle.min.js', 'SDK host'],
      ['https://us.i.posthog.com', 'SDK host'],
      ['https://fonts.googleapis.com/css2?family=Inter', 'SDK host'],
      ['https://fonts.gstatic.com', 'SDK host'],
      ['https://cdn.jsdelivr.net/npm/k.css', 'SDK host'],
      ['https://cdn.segment.com/analytics.js', 'SDK host'],
    ]);
  });

  it('passes a site whose bundled config links to YouTube and Sentry docs', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-sdk-link-'));
    try {
      await writeTree(root, {
        'index.html':
          '<a href="https://www.youtube.com/@acme">YouTube</a><script src="/main.js"></script>',
        'main.js':
          'window.cfg={footer:{links:[{label:"YouTube",href:"https://www.youtube.com/@acme"},{label:"Sentry docs",href:"https://docs.sentry.io/platforms/"}]}};',
      });
      const scan = await scanSite(await SiteTree.read(root), {
        allowedHosts: [],
        external: true,
        links: false,
      });
      expect(scan.external.map((e) => [e.role, e.url])).toEqual([
        ['link', 'https://www.youtube.com/@acme'],
      ]);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});

describe('formats real generators emit', () => {
  it('reads Next.js flight data: next/script, preload hints, host elements, inline next/script code', () => {
    const rows = [
      '1:"$Sreact.fragment"',
      '4:I[22016,["/_next/static/chunks/a.js"],""]',
      ':HL["https://fonts.example.com/css2?family=Inter","style"]',
      '5:T1c,this text has a https://in-text.example.com/ url',
      '0:' +
        JSON.stringify([
          ['$', '$L4', null, { href: 'https://github.com/example', children: 'GitHub' }],
          [
            '$',
            '$L8',
            null,
            { src: 'https://cdn.segment.com/analytics.js', strategy: 'afterInteractive' },
          ],
          [
            '$',
            '$L8',
            null,
            { id: 'x', strategy: 'lazyOnload', children: "s.src='https://widget.example.com/w';" },
          ],
          ['$', 'link', null, { rel: 'canonical', href: 'https://docs.example.com/' }],
          ['$', 'img', null, { src: 'https://img.example.com/a.png' }],
          [
            '$',
            'script',
            null,
            {
              type: 'importmap',
              dangerouslySetInnerHTML: { __html: '{"imports":{"a":"https://esm.example.com/a"}}' },
            },
          ],
        ]),
    ].join('\n');
    expect(referencesInFlight(rows).map((r) => `${r.role} ${r.via} ${r.url}`)).toEqual([
      'load RSC preload hint https://fonts.example.com/css2?family=Inter',
      'link next/link href https://github.com/example',
      'load next/script (afterInteractive) https://cdn.segment.com/analytics.js',
      'load inline script: .src = https://widget.example.com/w',
      'metadata <link rel=canonical> https://docs.example.com/',
      'load <img src> https://img.example.com/a.png',
      'load importmap https://esm.example.com/a',
    ]);
  });

  it('reads flight data pushed from inline scripts, across pushes', () => {
    const row = `0:${JSON.stringify([['$', '$L8', null, { src: 'https://cdn.segment.com/a.js', strategy: 'afterInteractive' }]])}\n`;
    const cut = 20;
    const html = [
      '<script>self.__next_f.push([0])</script>',
      `<script>self.__next_f.push([1,${JSON.stringify(row.slice(0, cut))}])</script>`,
      `<script>self.__next_f.push([1,${JSON.stringify(row.slice(cut))}])</script>`,
    ].join('\n');
    expect(referencesInHtml(html).map((r) => `${r.via} ${r.url}`)).toEqual([
      'next/script (afterInteractive) https://cdn.segment.com/a.js',
    ]);
  });

  it('reads a script that mentions __next_f but does more than push flight data as a script too', () => {
    const row = `0:${JSON.stringify([['$', 'img', null, { src: 'https://img.example.com/f.png' }]])}\n`;
    const html = [
      // What Next.js writes: only flight data, nothing else read.
      '<script>(self.__next_f=self.__next_f||[]).push([0]);self.__next_f.push([2,null])</script>',
      `<script>self.__next_f.push([1,${JSON.stringify(row)}])</script>`,
      // Not what Next.js writes: the rest of the code runs too.
      "<script>self.__next_f=self.__next_f||[];fetch('https://evil.com/api')</script>",
      `<script>self.__next_f.push([1,"x"]);new Image().src='https://evil.com/p.gif'</script>`,
      '<script>if (!self.__next_f) fetch(`https://evil.com/t`)</script>',
    ].join('\n');
    expect(referencesInHtml(html).map((r) => `${r.via} ${r.url}`)).toEqual([
      'inline script: fetch() https://evil.com/api',
      'inline script: .src = https://evil.com/p.gif',
      'inline script: fetch() https://evil.com/t',
      '<img src> https://img.example.com/f.png',
    ]);
  });

  it('reads importmaps and web app manifests', () => {
    expect(
      urlsInImportMap(
        '{"imports":{"a":"https://esm.sh/a"},"scopes":{"/x/":{"b":"https://cdn.example.com/b"}}}',
      ),
    ).toEqual(['https://esm.sh/a', 'https://cdn.example.com/b']);
    const manifest = JSON.stringify({
      start_url: 'https://docs.example.com/',
      icons: [{ src: 'https://cdn.example.com/icon.png' }],
      related_applications: [{ url: 'https://play.example.com/app' }],
    });
    expect(referencesInWebManifest(manifest).map((r) => `${r.role} ${r.url}`)).toEqual([
      'load https://cdn.example.com/icon.png',
      'link https://docs.example.com/',
      'metadata https://play.example.com/app',
    ]);
  });

  it('reads CSS with a tokenizer: url() forms, @import, and nothing inside comments', () => {
    const css = [
      '@import "https://fonts.example.com/a.css";',
      '@import url(//fonts.example.com/b.css);',
      '/* url(https://commented.example.com/x.png) */',
      ".b { background: url('https://img.example.com/s.png') }",
      '.c { content: "url(https://not-a-reference.example.com)" }',
    ].join('\n');
    expect(urlsInCss(css).map((u) => [u.via, u.url])).toEqual([
      ['css @import', 'https://fonts.example.com/a.css'],
      ['css url()', '//fonts.example.com/b.css'],
      ['css url()', 'https://img.example.com/s.png'],
    ]);
  });

  it('reads url() whose name is written with escapes, as browsers decode it', () => {
    const css = [
      '.a { background: u\\72l(https://img.example.com/a\\).png) }',
      ".b { background: \\75 rl('https://img.example.com/b.png') }",
      '.c { background: U\\52L( https://img.example.com/c.png ) }',
      '.d { color: red }',
      '.e { background: u\\72l(https://img.example.com/never-closed.png',
    ].join('\n');
    expect(urlsInCss(css).map((u) => [u.via, u.url])).toEqual([
      ['css url()', 'https://img.example.com/a).png'],
      ['css url()', 'https://img.example.com/b.png'],
      ['css url()', 'https://img.example.com/c.png'],
      ['css url()', 'https://img.example.com/never-closed.png'],
    ]);
    // Many of them unclosed read in linear time: the first takes the rest of the sheet, a
    // bad url() for the `(` in it.
    expect(urlsInCss('u\\72l('.repeat(200_000))).toEqual([]);
  });

  it('reads at-rule and function names written with escapes, as browsers decode them', () => {
    const css = [
      '@\\69mport "https://fonts.example.com/a.css";',
      '@\\69 mport "https://fonts.example.com/b.css" print;',
      '@n\\61mespace url(https://www.w3.org/1999/xhtml);',
      '.a { background: \\69mage-set("https://img.example.com/a.png" 1x) }',
      '.b { background: -webkit-\\69mage-set("https://img.example.com/b.png" 1x) }',
    ].join('\n');
    expect(urlsInCss(css).map((u) => [u.via, u.url])).toEqual([
      ['css @import', 'https://fonts.example.com/a.css'],
      ['css @import', 'https://fonts.example.com/b.css'],
      ['css image-set()', 'https://img.example.com/a.png'],
      ['css image-set()', 'https://img.example.com/b.png'],
    ]);
  });

  it('reads no URL in a bad url() with an escaped name, and reads on after its )', () => {
    const after = (n: number) => ` .x { background: url(https://img.example.com/${n}.png) }`;
    const css = [
      `.a { background: u\\72l(x") }${after(1)}`,
      `.b { background: u\\72l(a b) }${after(2)}`,
      `.c { background: u\\72l(x'/*) }${after(3)}`,
      `.d { background: u\\72l(a\\\nb) }${after(4)}`,
      `.e { background: u\\72l( a\\20 b ) }`,
    ].join('\n');
    expect(urlsInCss(css).map((u) => u.url)).toEqual([
      'https://img.example.com/1.png',
      'https://img.example.com/2.png',
      'https://img.example.com/3.png',
      'https://img.example.com/4.png',
      'a b',
    ]);
    // Many of them, each closed, read in linear time.
    expect(urlsInCss('u\\72l(x")'.repeat(50_000))).toEqual([]);
  });

  it('decodes escapes as CSS does: a line continued in a string, a code point past Unicode', () => {
    const css = [
      '.a { background: url("https://img.exa\\\nmple.com/a.png") }',
      '.b { background: url("https://img.example.com/\\110000.png") }',
      '.c { background: u\\72l(https://img.example.com/\\0.png) }',
    ].join('\n');
    expect(urlsInCss(css).map((u) => u.url)).toEqual([
      'https://img.example.com/a.png',
      'https://img.example.com/\uFFFD.png',
      'https://img.example.com/\uFFFD.png',
    ]);
  });

  it('reads no URL in @namespace, which names a namespace and is never fetched', () => {
    const css = [
      '@namespace url(http://www.w3.org/1999/xhtml);',
      '@namespace svg url("http://www.w3.org/2000/svg");',
      '@NAMESPACE m "http://www.w3.org/1998/Math/MathML";',
      'svg|a { background: url(https://img.example.com/s.png) }',
    ].join('\n');
    expect(urlsInCss(css).map((u) => u.url)).toEqual(['https://img.example.com/s.png']);
  });

  it('reads the strings of image-set() as URLs, but not those of type() inside it', () => {
    const css =
      '.a { background: image-set("https://img.example.com/1.png" 1x, "https://img.example.com/2.avif" type("image/avif")) }';
    expect(urlsInCss(css).map((u) => [u.via, u.url])).toEqual([
      ['css image-set()', 'https://img.example.com/1.png'],
      ['css image-set()', 'https://img.example.com/2.avif'],
    ]);
  });
});

describe('scanning a site', () => {
  /** Scans a site of `pages` (path → HTML) written to a temp dir, removed after. */
  async function scanPages(
    pages: Record<string, string | Buffer>,
    options: { external: boolean; links: boolean },
  ): Promise<Awaited<ReturnType<typeof scanSite>>> {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-scan-'));
    try {
      await writeTree(root, pages);
      return await scanSite(await SiteTree.read(root), { allowedHosts: [], ...options });
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  }

  it('reads .xhtml pages and .svg images by the XML rules browsers parse them with', async () => {
    // Served as application/xhtml+xml and image/svg+xml; Chromium contacts each host below.
    const scan = await scanPages(
      {
        'feed.xhtml': [
          '<?xml version="1.0"?>',
          '<!DOCTYPE html [<!ENTITY cdn "https://entity.example.com"><!ENTITY logo "&cdn;/logo.png">]>',
          '<html xmlns="http://www.w3.org/1999/xhtml"><head><script src="app.js"/><title/></head>',
          '<body><img src="https://after-script.example.com/a.png"/><img src="&logo;"/>',
          '<textarea/><img src="https://after-textarea.example.com/a.png"/>',
          '<style>p { background: url(&quot;https://style.example.com/a.png&quot;) }</style>',
          '<script>//<![CDATA[\nif (a && b) fetch("https://cdata.example.com/q?a=1&amp;b")\n//]]></script>',
          // Text in XML, a comment in a script: neither loads.
          '<![CDATA[ <img src="https://not-markup.example.com/a.png"/> ]]>',
          '<script><!-- fetch("https://commented.example.com/") --></script></body></html>',
        ].join('\n'),
        'app.js': '',
        'logo.svg': [
          '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY cdn "https://svg-entity.example.com">]>',
          // Fetched as the document loads, in its prolog only.
          '<?xml-stylesheet type="text/css" href="&cdn;/pi.css"?>',
          '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">',
          '<image href="&cdn;/a.png"/><image xlink:href="https://xlink.example.com/a.png"/>',
          '<script>/*<![CDATA[*/ fetch("https://svg-script.example.com/a") /*]]>*/</script>',
          '<?xml-stylesheet href="https://not-in-prolog.example.com/a.css"?></svg>',
        ].join('\n'),
      },
      { external: true, links: false },
    );
    expect(scan.external.map((e) => [e.file, e.line, e.via, e.url])).toEqual([
      ['feed.xhtml', 4, '<img src>', 'https://after-script.example.com/a.png'],
      ['feed.xhtml', 4, '<img src>', 'https://entity.example.com/logo.png'],
      ['feed.xhtml', 5, '<img src>', 'https://after-textarea.example.com/a.png'],
      ['feed.xhtml', 6, 'css url()', 'https://style.example.com/a.png'],
      // The CDATA section's `&amp;` is as written.
      ['feed.xhtml', 8, 'inline script: fetch()', 'https://cdata.example.com/q?a=1&amp;b'],
      ['logo.svg', 2, '<?xml-stylesheet href>', 'https://svg-entity.example.com/pi.css'],
      ['logo.svg', 4, '<image href>', 'https://svg-entity.example.com/a.png'],
      ['logo.svg', 4, '<image xlink:href>', 'https://xlink.example.com/a.png'],
      ['logo.svg', 5, 'inline script: fetch()', 'https://svg-script.example.com/a'],
    ]);
    expect(scan.pages).toBe(1);
  });

  it("expands an XML document's entities up to a bound, in linear time", async () => {
    // A billion laughs: each entity ten of the one before, and the last used 100,000 times
    // (a browser stops such a document; the scan reads on, entities past the bound as written).
    const entities = ['<!ENTITY e0 "https://laugh.example.com/">'];
    for (let i = 1; i <= 9; i += 1) entities.push(`<!ENTITY e${i} "${`&e${i - 1};`.repeat(10)}">`);
    const page = [
      `<?xml version="1.0"?><!DOCTYPE svg [${entities.join('')}]>`,
      '<svg xmlns="http://www.w3.org/2000/svg"><image href="&e1;"/>',
      '<image href="&e9;"/>'.repeat(100_000),
      '<image href="https://after.example.com/a.png"/></svg>',
    ].join('\n');
    const started = performance.now();
    const scan = await scanPages({ 'laughs.svg': page }, { external: true, links: false });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(scan.external.map((e) => e.host)).toEqual(['laugh.example.com', 'after.example.com']);
  });

  it('gives the documents a page holds (frames at data: URLs) no full allowance each', async () => {
    // A small billion laughs in each of a thousand frames: each may add in proportion to
    // its own size, not the whole bound, so the page is read in linear time.
    const entities = [`<!ENTITY a "${'x'.repeat(40)}">`];
    for (let i = 1; i <= 6; i += 1) {
      entities.push(`<!ENTITY ${'abcdefg'[i]} "${`&${'abcdefg'[i - 1]};`.repeat(10)}">`);
    }
    const frame = `<iframe src='data:image/svg+xml,<!DOCTYPE s [${entities.join('')}]><s/>'></iframe>`;
    const page = `<!doctype html><body>${frame.repeat(1000)}<img src="https://after.example.com/a.png"></body>`;
    const started = performance.now();
    const scan = await scanPages({ 'index.html': page }, { external: true, links: false });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(scan.external.map((e) => e.host)).toEqual(['after.example.com']);
  });

  it('reports what a <base href> of another origin sends away as outside the site', async () => {
    const scan = await scanPages(
      {
        'index.html': [
          '<base href="https://cdn.example.com/assets/">',
          '<script src="app.js"></script> <a href="/about">About</a>',
          '<img src="//img.example.com/x.png">',
        ].join('\n'),
        'local.html': '<script src="app.js"></script>',
      },
      { external: true, links: false },
    );
    expect(scan.external.map((e) => [e.file, e.role, e.url])).toEqual([
      ['index.html', 'load', 'https://cdn.example.com/assets/app.js'],
      ['index.html', 'link', 'https://cdn.example.com/about'],
      ['index.html', 'load', '//img.example.com/x.png'],
    ]);
  });

  it('reports what an inline script fetches from an IDN domain, a root-dotted host, a backslashed address', async () => {
    const scan = await scanPages(
      {
        'index.html': [
          "<script>fetch('https://xn--e1afmkfd.xn--p1ai/api')</script>",
          "<script>fetch('https://evil.com./api')</script>",
          String.raw`<script>fetch('\\\\evil.net/api')</script>`,
        ].join('\n'),
      },
      { external: true, links: false },
    );
    expect(scan.external.map((e) => [e.role, e.host, e.via])).toEqual([
      ['load', 'xn--e1afmkfd.xn--p1ai', 'inline script: fetch()'],
      ['load', 'evil.com.', 'inline script: fetch()'],
      ['load', 'evil.net', 'inline script: fetch()'],
    ]);
  });

  it('reads pages, stylesheets and scripts in UTF-16 by their byte order mark', async () => {
    const utf16le = (text: string) =>
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const utf16be = (text: string) =>
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    // Past 2 MB a page is streamed in pieces, which split its characters.
    const filler = `<p>${'é'.repeat(1_200_000)}</p>`;
    const scan = await scanPages(
      {
        'index.html': utf16le('<!doctype html>\n<img src="https://le.example.com/x.png">'),
        'be.html': utf16be('<!doctype html><link rel=stylesheet href="/s.css">'),
        'large.html': utf16le(`${filler}\n<img src="https://large.example.com/x.png">`),
        's.css': utf16be('body { background: url(https://css.example.com/bg.png) }'),
        'app.js': utf16le("fetch('https://js.example.com/api')"),
      },
      { external: true, links: false },
    );
    expect(scan.external.map((e) => [e.file, e.line, e.url]).sort()).toEqual([
      ['app.js', 1, 'https://js.example.com/api'],
      ['index.html', 2, 'https://le.example.com/x.png'],
      ['large.html', 2, 'https://large.example.com/x.png'],
      ['s.css', 1, 'https://css.example.com/bg.png'],
    ]);
  });

  it('holds no more of a page of 600,000 distinct outside URLs than the findings it keeps', async () => {
    // Each URL past the kept list was remembered, to report it once: a 98 MB page of 3M
    // distinct URLs ran a runner out of memory. Under a 120 MB heap, 600,000 did.
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-scan-heap-'));
    try {
      const page = await fs.open(path.join(root, 'index.html'), 'w');
      for (let start = 0; start < 600_000; start += 100_000) {
        const run = Array.from(
          { length: 100_000 },
          (_, i) => `<img src=//h.example.com/${start + i}>`,
        );
        await page.write(run.join(''));
      }
      await page.close();
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', '--max-old-space-size=120', 'test/support/scan-site.ts', root],
        { cwd: path.resolve(import.meta.dirname, '../..') },
      );
      expect(JSON.parse(stdout)).toEqual({
        external: 100_000,
        externalDropped: 500_000,
        unconfirmed: 0,
      });
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  }, 60_000);

  it('counts hosts named in scripts without evidence up to a bound', async () => {
    const hosts = MAX_UNCONFIRMED_HOSTS + 500;
    const names = Array.from({ length: hosts }, (_, i) => `"https://h${i}.example.net/"`);
    const scan = await scanPages(
      {
        'a.html': `<script>const a = [${names.slice(0, 6000).join(',')}];</script>`,
        'b.html': `<script>const b = [${names.slice(6000).join(',')}];</script>`,
      },
      { external: true, links: false },
    );
    expect(scan.unconfirmed.size).toBe(MAX_UNCONFIRMED_HOSTS);
  });

  it('keeps broken links of a deep directory up to a bound in characters; the count goes on', async () => {
    // A page 4,000 characters deep linking 20,000 times to a missing page beside it: kept
    // whole, each entry held 8 KB, and the report files 160 MB each.
    const dir = Array.from({ length: 16 }, (_, i) => `${i}${'d'.repeat(240)}`).join('/');
    const scan = await scanPages(
      { [`${dir}/index.html`]: '<a href=missing.html>x</a>\n'.repeat(20_000) },
      { external: false, links: true },
    );
    expect(scan.links.brokenCount).toBe(20_000);
    const chars = scan.links.broken.reduce(
      (n, b) => n + b.file.length + b.url.length + b.target.length,
      0,
    );
    expect(chars).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(scan.links.broken.length).toBeGreaterThan(1000);
    expect(scan.links.broken.length).toBeLessThan(20_000);
    expect(scan.links.broken[0]?.target).toBe(`/${dir}/missing.html`);
  });

  it('reads a URL as browsers do: a backslash is a slash, tabs and line breaks are dropped', async () => {
    const scan = await scanPages(
      {
        'index.html': [
          '<script src="/\\cdn.example.com/a.js"></script>',
          '<img src="/\n/img.example.com/b.png">',
          '<link rel="stylesheet" href="htt\tps://css.example.com/c.css">',
        ].join('\n'),
        'based.html': '<base href="\\\\base.example.com/"><img src="d.png">',
      },
      { external: true, links: true },
    );
    expect(scan.external.map((e) => [e.file, e.host])).toEqual([
      ['based.html', 'base.example.com'],
      ['index.html', 'cdn.example.com'],
      ['index.html', 'img.example.com'],
      ['index.html', 'css.example.com'],
    ]);
    expect(scan.links.broken).toEqual([]);
  });

  it('reads a protocol-relative <base href> as naming a host', async () => {
    const scan = await scanPages(
      { 'index.html': '<base href="//cdn.example.com/"><script src="app.js"></script>' },
      { external: true, links: true },
    );
    expect(scan.external.map((e) => [e.role, e.url])).toEqual([
      ['load', 'http://cdn.example.com/app.js'],
    ]);
    expect(scan.links.checked).toBe(0);
  });

  it('drops tabs and line breaks from a link, as browsers do, before resolving it', async () => {
    const scan = await scanPages(
      {
        'index.html': '<a href="/docs/\nintro">Intro</a> <a href="/docs/in\ttro">Intro</a>',
        'docs/intro.html': 'Intro',
      },
      { external: false, links: true },
    );
    expect(scan.links.checked).toBe(2);
    expect(scan.links.broken).toEqual([]);
  });

  it('resolves links from a page whose name holds a #, ?, % or backslash against its own folder', async () => {
    const links = '<a href="next">x</a> <a href="gone">y</a>';
    const scan = await scanPages(
      {
        'a/next.html': '<p>next</p>',
        'a/c#.html': links,
        'a/why?.html': links,
        'a/100%.html': links,
        'a/back\\slash.html': links,
      },
      { external: false, links: true },
    );
    expect(scan.links.broken.map((b) => [b.file, b.target]).sort()).toEqual([
      ['a/100%.html', '/a/gone'],
      ['a/back\\slash.html', '/a/gone'],
      ['a/c#.html', '/a/gone'],
      ['a/why?.html', '/a/gone'],
    ]);
  });

  it('checks no link that a <base href> of another origin sends away', async () => {
    const scan = await scanPages(
      {
        'index.html':
          '<base href="https://cdn.example.com/"><a href="/elsewhere">x</a> <a href="gone">y</a>',
        'local.html': '<a href="/missing">z</a>',
      },
      { external: false, links: true },
    );
    expect(scan.links.broken.map((b) => [b.file, b.url])).toEqual([['local.html', '/missing']]);
    expect(scan.links.checked).toBe(1);
  });

  it('resolves links from the page under a <base href> browsers cannot use', async () => {
    const links = '<a href="next">x</a> <a href="gone">y</a>';
    const scan = await scanPages(
      {
        'a/next.html': '<p>next</p>',
        // The first <base href> is the page's, even when it is unusable.
        'a/data.html': `<base href="data:text/html,x"><base href="/b/">${links}`,
        'a/invalid.html': `<base href="http://[x">${links}`,
        'a/script.html': `<base href="javascript:void 0">${links}`,
      },
      { external: false, links: true },
    );
    expect(scan.links.checked).toBe(6);
    expect(scan.links.broken.map((b) => [b.file, b.target])).toEqual([
      ['a/data.html', '/a/gone'],
      ['a/invalid.html', '/a/gone'],
      ['a/script.html', '/a/gone'],
    ]);
  });

  it('applies a <base href> to the references before it, past the first 64 KB too', async () => {
    // Text that puts the <base href> past the first piece of a page read whole (80 KB), and
    // of a page streamed (2.1 MB).
    const text = (bytes: number) => `<p>${'text '.repeat(bytes / 5)}</p>`;
    const before = '<a href="only-b">b</a><img src="pic.png">';
    const scan = await scanPages(
      {
        'b/only-b.html': '<p>b</p>',
        'b/pic.png': 'png',
        'a/early.html': `${before}<base href="/b/">`,
        'a/late.html': `${before}${text(80_000)}<base href="/b/">`,
        'a/streamed.html': `${before}${text(2_100_000)}<base href="/b/">`,
        'a/cdn-early.html': '<img src="early.png"><base href="https://cdn.example.com/">',
        'a/cdn-late.html': `<video poster="late.png"></video>${text(80_000)}<base href="https://cdn.example.com/">`,
      },
      { external: true, links: true },
    );
    expect(scan.links.broken).toEqual([]);
    expect(scan.links.checked).toBe(6);
    expect(scan.external.map((e) => [e.file, e.url])).toEqual([
      ['a/cdn-early.html', 'https://cdn.example.com/early.png'],
      ['a/cdn-late.html', 'https://cdn.example.com/late.png'],
    ]);
  });

  it('checks what the parser fetches before a <base href> at the page address, and its host under the base', async () => {
    // Chromium fetches these as it meets them, under the base read by then; a script may
    // move them under the later base (a preload turned stylesheet): their host is read there.
    const text = (bytes: number) => `<p>${'text '.repeat(bytes / 5)}</p>`;
    const parsed =
      '<script src="app.js"></script><link rel="stylesheet" href="site.css">' +
      '<link rel="preload modulepreload" href="mod.js"><iframe src="frame.html"></iframe>' +
      '<style>p { background: url(bg.png) }</style><p style="background: url(p.png)">p</p>';
    const own = {
      'a/app.js': '',
      'a/site.css': '',
      'a/mod.js': '',
      'a/frame.html': '',
      'a/bg.png': '',
      'a/p.png': '',
    };
    const scan = await scanPages(
      {
        ...own,
        'a/cdn.html': `${parsed}<base href="https://cdn.example.com/">`,
        'a/cdn-late.html': `${parsed}${text(80_000)}<base href="https://cdn.example.com/"><script src="after.js"></script>`,
        'a/moved.html': `${parsed}<a href="gone">x</a><base href="/b/"><img src="pic.png">`,
        'b/pic.png': 'png',
        'b/gone.html': 'x',
        // The same after the base: under it.
        'a/after.html': `<base href="https://cdn.example.com/">${parsed}`,
      },
      { external: true, links: true },
    );
    expect(scan.links.broken).toEqual([]);
    const under = (file: string) =>
      ['app.js', 'site.css', 'mod.js', 'frame.html', 'bg.png', 'p.png'].map((name) => [
        file,
        `https://cdn.example.com/${name}`,
      ]);
    expect(scan.external.map((e) => [e.file, e.url])).toEqual([
      ...under('a/after.html'),
      ...under('a/cdn-late.html'),
      ['a/cdn-late.html', 'https://cdn.example.com/after.js'],
      ...under('a/cdn.html'),
    ]);
  });

  it('reads a template before a late <base href> under it, and lists broken links in order', async () => {
    const scan = await scanPages(
      {
        // Inert until a script puts it in the page, by when the base is read; an SVG's
        // <template> closes no HTML one.
        'a/template.html':
          '<template><svg><template></template></svg><script src="t.js"></script>' +
          '<style>p { background: url(t.png) }</style></template>' +
          '<base href="https://cdn.example.com/">',
        // A frame made before the base reads all it holds against the page's address...
        'a/frame.html':
          '<iframe srcdoc="<script src=&quot;f.js&quot;></script><img src=&quot;f.png&quot;>"></iframe>' +
          '<base href="https://cdn.example.com/">',
        // ...but what comes after a base of its own under that one.
        'a/frame-base.html':
          '<iframe srcdoc="<script src=&quot;g.js&quot;></script><base href=&quot;https://own.example.com/&quot;><img src=&quot;h.png&quot;>"></iframe>' +
          '<base href="https://cdn.example.com/">',
        // A frame in a frame, made before the outer frame's base.
        'a/nested.html':
          `<iframe srcdoc="<iframe srcdoc='<img src=&quot;n.png&quot;>'></iframe><base href=&quot;https://own.example.com/&quot;>"></iframe>` +
          '<base href="https://cdn.example.com/">',
        // A base of the frame's own that is a path, and the page's past the first piece.
        'a/relative.html':
          '<iframe srcdoc="<base href=&quot;/x/&quot;><img src=&quot;r.png&quot;>"></iframe>' +
          `<p>${'text '.repeat(16_000)}</p><base href="https://cdn.example.com/">`,
        'a/f.js': '',
        'a/f.png': '',
        'a/g.js': '',
        'a/n.png': '',
        'x/r.png': '',
        'a/order.html': [
          '<p>x</p>',
          '<script src="missing-1.js"></script>',
          '<a href="missing-2">2</a>',
          '<link rel="stylesheet" href="missing-3.css">',
          '<a href="missing-4">4</a>',
          '<base href="/b/">',
        ].join('\n'),
      },
      { external: true, links: true },
    );
    // Whatever keeps the page's address for the link check is read under the page's base
    // by the host check too: a script may move the frame.
    expect(scan.external.map((e) => [e.file, e.url])).toEqual([
      ['a/frame-base.html', 'https://cdn.example.com/g.js'],
      ['a/frame-base.html', 'https://own.example.com/h.png'],
      ['a/frame.html', 'https://cdn.example.com/f.js'],
      ['a/frame.html', 'https://cdn.example.com/f.png'],
      ['a/nested.html', 'https://cdn.example.com/n.png'],
      ['a/relative.html', 'https://cdn.example.com/x/r.png'],
      ['a/template.html', 'https://cdn.example.com/t.js'],
      ['a/template.html', 'https://cdn.example.com/t.png'],
    ]);
    expect(scan.links.broken.map((link) => [link.file, link.line, link.target])).toEqual([
      ['a/order.html', 2, '/a/missing-1.js'],
      ['a/order.html', 3, '/b/missing-2'],
      ['a/order.html', 4, '/a/missing-3.css'],
      ['a/order.html', 5, '/b/missing-4'],
    ]);
  });

  it('reads an image in a frame from where the frame started and under its own base', async () => {
    // Chromium fetches the image at once from the page's base, and may again under the
    // frame's; a URL with a control character before it is read as browsers read it.
    const scan = await scanPages(
      {
        'index.html':
          '<base href="https://a.example.com/">' +
          '<iframe srcdoc="<img src=&quot;a.png&quot;><base href=&quot;https://b.example.com/&quot;>"></iframe>' +
          '<img src="&#1;//c.example.com/x.png">',
      },
      { external: true, links: true },
    );
    expect(scan.external.map((e) => e.url)).toEqual([
      'https://a.example.com/a.png',
      'https://b.example.com/a.png',
      '\u0001//c.example.com/x.png',
    ]);
    expect(scan.external.map((e) => e.host)).toEqual([
      'a.example.com',
      'b.example.com',
      'c.example.com',
    ]);
  });

  it('reads a disabled stylesheet, and a template an SVG may hold, under a late base', async () => {
    const enable =
      "<script>addEventListener('load', () => document.body.append(t.content.cloneNode(true)))</script>";
    const scan = await scanPages(
      {
        // Fetched once a script enables it, by when the base is read.
        'a/disabled.html':
          '<link rel="stylesheet" href="d.css" disabled><base href="https://cdn.example.com/">',
        // The <div>'s end tag closes the SVG in a browser: the template is an HTML one.
        'a/svg.html':
          `<div><svg></div><template id="t"><script src="t.js"></script></template>${enable}` +
          '<p>x</p><base href="https://cdn.example.com/">',
        // A control character, then spaces: read in one pass.
        'a/spaces.html': `<img src="&#1;a${' '.repeat(200_000)}b">`,
        // A long base, read once for all the page's references, and a reference repeated
        // under it resolved once: resolving each anew made a page of 0.5 MB take minutes.
        'a/long-base.html':
          `<base href="https://long.example.com/${'d'.repeat(400_000)}/">` +
          '<img src="i.png">'.repeat(20_000),
      },
      { external: true, links: false },
    );
    expect(scan.external.map((e) => [e.file, e.host])).toEqual([
      ['a/disabled.html', 'cdn.example.com'],
      ['a/long-base.html', 'long.example.com'],
      ['a/svg.html', 'cdn.example.com'],
    ]);
  });

  it('checks the links of a page under a long base, each link text resolved once', async () => {
    // Keyed by the base's address and the link together, each link hashed all of the base
    // again: a page of 2 MB took minutes.
    const base = `/${'d'.repeat(1_000_000)}/`;
    const scan = await scanPages(
      {
        'a/long.html': `<base href="${base}">${'<a href="i.html">i</a>'.repeat(40_000)}`,
        'a/host.html':
          `<base href="https://long.example.com${base}">` + '<a href="i.html">i</a>'.repeat(40_000),
      },
      { external: true, links: true },
    );
    // Under the root base, every link leads to one missing page; under the host's, outside.
    expect(scan.links.checked).toBe(40_000);
    expect(scan.links.brokenCount).toBe(40_000);
    expect(scan.external.map((e) => [e.file, e.host])).toEqual([
      ['a/host.html', 'long.example.com'],
    ]);
  });

  it('takes no <base href> from a template, a noscript or an SVG', async () => {
    const scan = await scanPages(
      {
        'a/next.html': '<p>next</p>',
        'a/page.html': [
          '<template><base href="/x/"></template><noscript><base href="/y/"></noscript>',
          '<svg><base href="/z/"/></svg><a href="next">next</a>',
        ].join(''),
        // Once the noscript ends, a <base> is the page's again.
        'b/only-b.html': '<p>b</p>',
        'a/late.html': '<noscript><p>x</noscript><base href="/b/"><a href="only-b">b</a>',
      },
      { external: false, links: true },
    );
    expect(scan.links.checked).toBe(2);
    expect(scan.links.broken).toEqual([]);
  });

  it('takes the <base href> after markup that ends a template, a noscript or an SVG', async () => {
    const links = '<base href="/b/"><a href="only-b">b</a>';
    const scan = await scanPages(
      {
        'b/only-b.html': '<p>b</p>',
        // </template> closes the SVG inside it; in a noscript a <template> is text; <p> ends SVG content.
        'a/template.html': `<template><svg></template>${links}`,
        'a/noscript.html': `<noscript><template></noscript>${links}`,
        'a/svg.html': `<svg><p>${links}`,
        // Still inside: the SVG's own elements, a template's content.
        'a/inside.html':
          '<template><svg><g></g></svg><base href="/b/"></template><a href="only-b">b</a>',
      },
      { external: false, links: true },
    );
    expect(scan.links.broken.map((b) => b.file)).toEqual(['a/inside.html']);
  });

  it('resolves links as nginx reads their paths: slashes merged, a lone % refused', async () => {
    const scan = await scanPages(
      {
        'guides/next.html': '<p>next</p>',
        'guides/100%.html': '<p>percent</p>',
        'guides/page.html': [
          '<a href="/guides//next">a</a> <a href="//x.example.com//next">b</a>',
          '<a href="100%">c</a> <a href="100%25">d</a> <a href="%C3">e</a>',
        ].join(''),
      },
      { external: false, links: true },
    );
    expect(scan.links.checked).toBe(4);
    expect(scan.links.broken.map((b) => [b.url, b.target])).toEqual([
      ['100%', '/guides/100%'],
      ['%C3', '/guides/%C3'],
    ]);
  });

  it('resolves a link of only a query to the page it is on', async () => {
    const scan = await scanPages(
      {
        'guides/index.html': '<a href="?tab=cli">CLI</a>',
        'guides/setup.html': '<a href="?tab=cli">CLI</a>',
      },
      { external: false, links: true },
    );
    // /guides/ is served as a directory index, /guides/setup by adding .html.
    expect(scan.rules.index).toEqual(
      expect.objectContaining({
        count: 1,
        example: expect.objectContaining({
          file: 'guides/index.html',
          served: 'guides/index.html',
        }),
      }),
    );
    expect(scan.rules.html).toEqual(
      expect.objectContaining({
        count: 1,
        example: expect.objectContaining({
          file: 'guides/setup.html',
          served: 'guides/setup.html',
        }),
      }),
    );
  });

  it('resolves each relative link from its own page, however pages repeat their links', async () => {
    const links = '<a href="/top">top</a> <a href="next">next</a> <a href="/top">top</a>';
    const scan = await scanPages(
      {
        'top.html': '<p>top</p>',
        'a/next.html': '<p>next</p>',
        'a/one.html': links,
        'b/one.html': links,
        'c/one.html': `<base href="/a/">${links}`,
        'c/two.html': links,
      },
      { external: false, links: true },
    );
    expect(scan.links.checked).toBe(12);
    expect(scan.links.broken.map((b) => [b.file, b.url, b.target])).toEqual([
      ['b/one.html', 'next', '/b/next'],
      ['c/two.html', 'next', '/c/next'],
    ]);
  });

  it('reports the same lines and URLs when a character straddles the pieces a page is read in', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-scan-'));
    // Pages reach the parser in 64 KB pieces: put a 4-byte character across the first cut.
    const filler = `<p>${'x'.repeat(80)}</p>\n`;
    let head = '<!DOCTYPE html>\n<html><body>\n';
    while (Buffer.byteLength(head + filler) < 65_536 - 10) head += filler;
    head += 'y'.repeat(65_536 - 2 - Buffer.byteLength(head));
    const html = `${head}🌍 é <a href="/missing-é">gone</a> <script src="https://cdn.example.com/x.js"></script>\n</body></html>\n`;
    expect(Buffer.from(html).subarray(65_534, 65_538).toString()).toBe('🌍');
    await fs.writeFile(path.join(root, 'index.html'), html);
    const where = (needle: string) => {
      const offset = html.indexOf(needle);
      const before = html.slice(0, offset).split('\n');
      return { line: before.length, column: (before.at(-1) as string).length + 1 };
    };
    try {
      const scan = await scanSite(await SiteTree.read(root), {
        allowedHosts: [],
        external: true,
        links: true,
      });
      expect(scan.links.broken).toEqual([
        { file: 'index.html', ...where('<a href'), url: '/missing-é', target: '/missing-é' },
      ]);
      expect(scan.external).toEqual([
        expect.objectContaining({
          file: 'index.html',
          ...where('<script src'),
          url: 'https://cdn.example.com/x.js',
          role: 'load',
        }),
      ]);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});

describe('grouping findings by host', () => {
  it('keeps each distinct way a host is reached once, in linear time for 100,000 of them', () => {
    // Custom tag and `on*` attribute names are the page's own: any number may differ.
    const findings: Finding[] = Array.from({ length: 100_000 }, (_, i) => ({
      host: 'cdn.example.net',
      role: 'load',
      severity: 'warning',
      via: `<x-tag-${i % 50_000} src>`,
      source: 'scan',
      file: 'index.html',
      url: 'https://cdn.example.net/a.js',
    }));
    const started = performance.now();
    const [group] = groupByHost(findings);
    expect(group?.count).toBe(100_000);
    expect(group?.vias).toHaveLength(50_000);
    expect(group?.vias.slice(0, 2)).toEqual(['<x-tag-0 src>', '<x-tag-1 src>']);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe("the export's URL rules", () => {
  it('serves the file, then .html, then the directory index, like try_files $uri $uri.html $uri/', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-tree-'));
    await writeTree(
      root,
      [
        'index.html',
        'guides/x.html',
        'guides/x/__next._tree.txt',
        'api/index.html',
        'logo.png',
      ].map((file) => [file, ''] as const),
    );
    const tree = await SiteTree.read(root);
    expect(tree.resolve('/')).toEqual({ file: 'index.html', rule: 'index' });
    expect(tree.resolve('/logo.png')).toEqual({ file: 'logo.png', rule: 'file' });
    expect(tree.resolve('/guides/x')).toEqual({
      file: 'guides/x.html',
      rule: 'html',
      shadowedByDirectory: true,
    });
    expect(tree.resolve('/api')).toEqual({ file: 'api/index.html', rule: 'index' });
    expect(tree.resolve('/api/')).toEqual({ file: 'api/index.html', rule: 'index' });
    expect(tree.resolve('/guides/')).toBeUndefined();
    expect(tree.resolve('/guides/y')).toBeUndefined();
    expect(tree.resolve('/../etc/passwd')).toBeUndefined();
    expect(pageUrl('guides/x.html')).toBe('/guides/x');
    expect(pageUrl('api/index.html')).toBe('/api/');
  });

  it('loads each sampled page from the address that serves it', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-tree-'));
    const files = [
      'index.html',
      'legacy.htm',
      'c#.html',
      'why?.html',
      '100%.html',
      'a b/index.html',
    ];
    await writeTree(
      root,
      files.map((file) => [file, ''] as const),
    );
    const tree = await SiteTree.read(root);
    for (const { file, url } of tree.pages()) {
      const address = new URL(pageAddress('http://127.0.0.1:1', url));
      expect([address.search, address.hash]).toEqual(['', '']);
      expect(tree.resolve(decodeURIComponent(address.pathname))?.file).toBe(file);
    }
    await fs.rm(root, { recursive: true, force: true });
  });

  it('samples the home page and one page per section first', () => {
    const pages = ['index.html', 'a/1.html', 'a/2.html', 'a/3.html', 'b/1.html', '404.html'].map(
      (file) => ({
        file,
        url: pageUrl(file),
      }),
    );
    expect(samplePages(pages, 3)).toEqual(['/', '/a/1', '/b/1']);
    expect(samplePages(pages, 10)).toEqual(['/', '/a/1', '/b/1', '/a/2', '/a/3']);
  });

  it('prints an nginx configuration that tries .html before the directory', () => {
    const config = nginxConfig({ has404Page: true }, { root: '/srv/docs' });
    expect(config).toContain('try_files $uri $uri.html $uri/ =404;');
    expect(config).toContain('root /srv/docs;');
    expect(config).toContain('error_page 404 /404.html;');
  });
});

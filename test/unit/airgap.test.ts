import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { urlsInCss } from '../../src/airgap/css.js';
import { refreshUrl, referencesInHtml, srcsetUrls } from '../../src/airgap/html.js';
import { urlStringsInJs } from '../../src/airgap/js.js';
import { externalHost, isAllowedHost } from '../../src/airgap/references.js';
import { scanSite } from '../../src/airgap/scan.js';
import { startEmulator } from '../../emulator/index.js';
import { request } from 'undici';
import { mintBundleLink } from '../../scripts/emulator-link.js';
import { gunzipSync } from 'node:zlib';
import tar from 'tar-stream';

describe('externalHost', () => {
  it.each([
    ['https://cdn.example.com/a.js', 'cdn.example.com'],
    ['http://analytics.example.com:8080/p', 'analytics.example.com:8080'],
    ['//fonts.example.net/css', 'fonts.example.net'],
    ['wss://live.example.com/socket', 'live.example.com'],
    ['HTTPS://UPPER.EXAMPLE.COM', 'upper.example.com'],
  ])('%s leaves the site (%s)', (url, host) => {
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
    'tel:+1555',
    'javascript:void(0)',
    'http://www.w3.org/2000/svg',
    '',
  ])('%j stays inside', (url) => {
    expect(externalHost(url)).toBeUndefined();
  });

  it('matches allowed hosts exactly or by *. suffix', () => {
    expect(isAllowedHost('cdn.example.com', ['cdn.example.com'])).toBe(true);
    expect(isAllowedHost('a.b.example.com', ['*.example.com'])).toBe(true);
    expect(isAllowedHost('example.com', ['*.example.com'])).toBe(false);
    expect(isAllowedHost('evil-example.com', ['*.example.com'])).toBe(false);
    expect(isAllowedHost('cdn.example.com:8443', ['cdn.example.com'])).toBe(true);
  });
});

describe('finding references', () => {
  it('reads every URL-carrying construct of HTML, with its line', () => {
    const html = [
      '<!doctype html>',
      '<html><head>',
      '<meta http-equiv="refresh" content="5; url=https://redirect.example.com/">',
      '<link rel="stylesheet" href="https://cdn.example.com/style.css">',
      '<script src="//scripts.example.com/app.js"></script>',
      '<style>body { background: url("https://img.example.com/bg.png") }</style>',
      '<script>fetch("https://api.example.com/search?q=" + q); const local = "/local";</script>',
      '<script type="application/ld+json">{"@context": "https://schema.org"}</script>',
      '</head><body>',
      '<img srcset="small.png 1x, https://img.example.com/large.png 2x" src="local.png">',
      '<div style="background-image: url(https://img.example.com/inline.png)"></div>',
      '<svg xmlns="http://www.w3.org/2000/svg"><use xlink:href="https://icons.example.com/s.svg#i"/></svg>',
      '<a href="guides/intro.html">Intro</a> <a href="https://github.com/example">GitHub</a>',
      '<!-- <img src="https://commented.example.com/x.png"> -->',
      '</body></html>',
    ].join('\n');
    const found = referencesInHtml(html).filter((r) => externalHost(r.url));
    const lines = html.split('\n');
    const lineOf = (offset: number) => html.slice(0, offset).split('\n').length;
    expect(found.map((r) => [r.kind, r.url, lineOf(r.offset)])).toEqual([
      ['meta refresh', 'https://redirect.example.com/', 3],
      ['html attribute', 'https://cdn.example.com/style.css', 4],
      ['html attribute', '//scripts.example.com/app.js', 5],
      ['css url()', 'https://img.example.com/bg.png', 6],
      ['js string', 'https://api.example.com/search?q=', 7],
      ['srcset', 'https://img.example.com/large.png', 10],
      ['inline style', 'https://img.example.com/inline.png', 11],
      ['html attribute', 'https://icons.example.com/s.svg#i', 12],
      ['html attribute', 'https://github.com/example', 13],
    ]);
    expect(lines).toHaveLength(15);
  });

  it('reads CSS with a tokenizer: url() forms, @import, and nothing inside comments', () => {
    const css = [
      '@import "https://fonts.example.com/a.css";',
      '@import url(//fonts.example.com/b.css);',
      '/* url(https://commented.example.com/x.png) */',
      '.a { background: url( "https://img.example.com/q.png" ) }',
      ".b { background: url('https://img.example.com/s.png') }",
      '.c { content: "url(https://not-a-reference.example.com)" }',
      '.d { background: url(img/local.png) }',
    ].join('\n');
    expect(urlsInCss(css).map((u) => [u.kind, u.url])).toEqual([
      ['css @import', 'https://fonts.example.com/a.css'],
      ['css url()', '//fonts.example.com/b.css'],
      ['css url()', 'https://img.example.com/q.png'],
      ['css url()', 'https://img.example.com/s.png'],
      ['css url()', 'img/local.png'],
    ]);
  });

  it('reads JavaScript string and template literals, not comments or regexes', () => {
    const js = [
      '// see https://comment.example.com',
      'const api = "https://api.example.com/v1";',
      'const t = `wss://live.example.com/${room}`;',
      'const re = /https:\\/\\/regex.example.com/;',
      "const rel = './chunk.js';",
    ].join('\n');
    expect(urlStringsInJs(js).map((s) => s.value)).toEqual([
      'https://api.example.com/v1',
      'wss://live.example.com/',
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
});

describe('scanSite', () => {
  it('reports file, line and host for each reference outside a hand-made site', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-scan-'));
    await fs.mkdir(path.join(root, 'assets'));
    await fs.writeFile(
      path.join(root, 'index.html'),
      '<html>\n<link href="assets/site.css" rel="stylesheet">\n<script src="https://analytics.example.com/a.js"></script>\n',
    );
    await fs.writeFile(
      path.join(root, 'assets', 'site.css'),
      '\n\n@import "https://fonts.example.com/f.css";\n',
    );
    await fs.writeFile(
      path.join(root, 'assets', 'app.js'),
      'const x = 1;\nfetch("https://search.example.com/q");\n',
    );
    await fs.writeFile(path.join(root, 'assets', 'logo.png'), 'https://not-scanned.example.com');
    const result = await scanSite(root, ['fonts.example.com']);
    expect(result.scanned).toBe(3);
    expect(result.references.map((r) => `${r.file}:${r.line} ${r.host} (${r.kind})`)).toEqual([
      'assets/app.js:2 search.example.com (js string)',
      'index.html:3 analytics.example.com (html attribute)',
    ]);
  });

  it("finds nothing outside the emulator's generated site", async () => {
    const emulator = await startEmulator({
      log: false,
      jobDurationMs: 0,
      queuedMs: 0,
      pageCount: 8,
    });
    try {
      const { url: bundleUrl } = await mintBundleLink(emulator, 'docs.example.com');
      const archive = Buffer.from(await (await request(bundleUrl)).body.arrayBuffer());
      const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-scan-site-'));
      const extract = tar.extract();
      extract.on('entry', (header, stream, next) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: unknown) => chunks.push(c as Buffer));
        stream.on('end', async () => {
          if (header.type === 'file') {
            const file = path.join(root, header.name);
            await fs.mkdir(path.dirname(file), { recursive: true });
            await fs.writeFile(file, Buffer.concat(chunks));
          }
          next();
        });
      });
      await new Promise((resolve, reject) => {
        extract.on('finish', () => resolve(undefined));
        extract.on('error', reject);
        extract.end(gunzipSync(archive));
      });
      const result = await scanSite(root, []);
      expect(result.scanned).toBeGreaterThan(8);
      expect(result.references).toEqual([]);
    } finally {
      await emulator.stop();
    }
  });
});

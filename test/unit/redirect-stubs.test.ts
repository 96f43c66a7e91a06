import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SiteTree } from '../../src/airgap/site-tree.js';
import { CHANGES_FORMAT, CHANGES_VERSION, type ChangeReport } from '../../src/changes/compare.js';
import { findRedirects, readRefresh, redirectOf } from '../../src/changes/redirects.js';
import type { ManifestFile } from '../../src/deliver/manifest.js';

/** A stub as generators write it (Hugo's alias page, give or take). */
const stub = (meta: string, head = '') =>
  `<!DOCTYPE html><html><head>${head}<title>Redirecting…</title>${meta}</head><body></body></html>`;
const refresh = (content: string) => `<meta http-equiv="refresh" content="${content}">`;

describe('the refresh a browser acts on', () => {
  it.each([
    ['0; url=/start/setup', '/start/setup'],
    ['0;URL=/start/setup', '/start/setup'],
    ["0; url='/start/setup'", '/start/setup'],
    ['0,/start/setup', '/start/setup'],
    // Next.js: 1 for redirect(), 0 for permanentRedirect().
    ['1;url=/start/setup', '/start/setup'],
    ['.5; url=setup', 'setup'],
    ['0; url=https://docs.example.com/a?b=1&amp;c=2', 'https://docs.example.com/a?b=1&c=2'],
  ])('sends the reader on at once: %s', (content, url) => {
    expect(readRefresh(stub(refresh(content)))).toEqual({ url });
  });

  it.each([
    // A page to be read before it moves on, or a reload of itself.
    '5; url=/start/setup',
    '0',
    // No time: a browser ignores it, as it does a time followed by anything but a separator.
    'url=/start/setup',
    '0x; url=/start/setup',
    '',
  ])('is no redirect: %s', (content) => {
    expect(readRefresh(stub(refresh(content)))).toBeUndefined();
  });

  it('is the first a browser takes, in the page itself', () => {
    // The first refresh acted on wins, even a reload; one it ignores does not count.
    expect(readRefresh(stub(`${refresh('0')}${refresh('0; url=/b')}`))).toBeUndefined();
    expect(readRefresh(stub(`${refresh('url=/a')}${refresh('0; url=/b')}`))).toEqual({
      url: '/b',
    });
    expect(readRefresh(stub(refresh('0; url=/b').replace('refresh', 'REFRESH')))).toEqual({
      url: '/b',
    });
    // Not a tag of the page: in a template, a noscript (text where scripts run), SVG, a
    // comment or a script.
    for (const hidden of [
      `<template>${refresh('0; url=/x')}</template>`,
      `<noscript>${refresh('0; url=/x')}</noscript>`,
      `<svg>${refresh('0; url=/x')}</svg>`,
      `<!-- ${refresh('0; url=/x')} -->`,
      `<script>document.write('${refresh('0; url=/x')}')</script>`,
    ]) {
      expect(readRefresh(stub(hidden)), hidden).toBeUndefined();
    }
    expect(readRefresh(stub(`<svg/>${refresh('0; url=/b')}`))).toEqual({ url: '/b' });
  });

  it('is read against the base known when the browser meets it', () => {
    expect(readRefresh(stub(refresh('0; url=setup'), '<base href="/start/">'))).toEqual({
      url: 'setup',
      base: '/start/',
    });
    expect(readRefresh(stub(`${refresh('0; url=setup')}<base href="/start/">`))).toEqual({
      url: 'setup',
    });
  });
});

describe('the page a stub redirects to', () => {
  const pages = [
    'index.html',
    'guides/setup.html',
    'start/setup.html',
    'start/index.html',
    'reference/api/index.html',
  ];
  const tree = SiteTree.of('', pages, []);
  const site = { domain: 'docs.example.com', sitePath: '' };
  const target = (url: string, file = 'guides/setup.html', at = site, head = '') =>
    redirectOf(Buffer.from(stub(refresh(`0; url=${url}`), head)), file, tree, at);

  it.each([
    ['/start/setup', 'start/setup.html'],
    ['../start/setup', 'start/setup.html'],
    ['/start/setup.html', 'start/setup.html'],
    ['/start/setup?from=old#top', 'start/setup.html'],
    ['/start/', 'start/index.html'],
    ['/reference/api', 'reference/api/index.html'],
    ['https://docs.example.com/start/setup', 'start/setup.html'],
    ['http://docs.example.com/start/setup', 'start/setup.html'],
    ['/', 'index.html'],
  ])('%s leads to %s', (url, file) => {
    expect(target(url)).toBe(file);
  });

  it.each([
    ['another site', 'https://example.com/start/setup'],
    ['no page of the site', '/start/missing'],
    ['the stub itself', '/guides/setup'],
    ['no web address', 'javascript:alert(1)'],
  ])('is none for %s', (_, url) => {
    expect(target(url)).toBeUndefined();
  });

  it('is read against the base and the folder the site is served under', () => {
    expect(target('setup', 'guides/setup.html', site, '<base href="/start/">')).toBe(
      'start/setup.html',
    );
    const docs = { domain: 'docs.example.com', sitePath: '/docs' };
    expect(target('/docs/start/setup', 'guides/setup.html', docs)).toBe('start/setup.html');
    expect(target('../start/setup', 'guides/setup.html', docs)).toBe('start/setup.html');
    // Outside the folder: another site on the same domain.
    expect(target('/start/setup', 'guides/setup.html', docs)).toBeUndefined();
  });
});

describe('finding the stubs among the pages a report lists', () => {
  it('reads the added and changed pages only, and names the page each redirects to', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'redirect-stubs-'));
    try {
      const written: Record<string, string> = {
        'guides/setup.html': stub(refresh('0; url=/start/setup')),
        'start/setup.html': '<title>Setup</title><p>How to set up.</p>',
        'old/unchanged.html': stub(refresh('0; url=/start/setup')),
        'guides/alias.html': stub(refresh('1;url=../start/setup')),
      };
      const files = new Map<string, ManifestFile>();
      for (const [file, text] of Object.entries(written)) {
        await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
        await fs.writeFile(path.join(root, file), text);
        files.set(file, { path: file, size: text.length, sha256: '0'.repeat(64) });
      }
      files.set('gone/unreadable.html', { path: 'gone/unreadable.html', size: 1, sha256: '' });
      const page = (file: string) => ({ path: file, url: `https://docs.example.com/${file}` });
      const report = {
        format: CHANGES_FORMAT,
        version: CHANGES_VERSION,
        pages: {
          added: [page('start/setup.html'), page('guides/alias.html')],
          changed: [page('guides/setup.html'), page('gone/unreadable.html')],
        },
      } as unknown as ChangeReport;
      const site = { domain: 'docs.example.com', sitePath: '' };
      expect(await findRedirects(root, report, files, site)).toEqual(
        new Map([
          ['guides/alias.html', 'start/setup.html'],
          ['guides/setup.html', 'start/setup.html'],
        ]),
      );
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kindOf } from '../../src/airgap/scan.js';
import { generator } from '../support/random.js';

/** Which files the readiness check reads, and as what: decided for every file of the site. */
describe('the kind of each file of the site', () => {
  it('reads pages, styles, scripts, payloads and manifests by extension, in any case', () => {
    const kinds = Object.fromEntries(
      [
        'index.html',
        'guides/intro.HTM',
        'feed.xhtml',
        'assets/logo.svg',
        'assets/site.Css',
        'assets/app.js',
        'assets/app.MJS',
        'chunks/a.cjs',
        'site.webmanifest',
        'manifest.json',
        'icons/manifest.json',
        'guides/intro.txt',
        'robots.txt',
      ].map((file) => [file, kindOf(file)]),
    );
    expect(kinds).toEqual({
      'index.html': 'html',
      'guides/intro.HTM': 'html',
      'feed.xhtml': 'html',
      'assets/logo.svg': 'html',
      'assets/site.Css': 'css',
      'assets/app.js': 'js',
      'assets/app.MJS': 'js',
      'chunks/a.cjs': 'js',
      'site.webmanifest': 'manifest',
      'manifest.json': 'manifest',
      'icons/manifest.json': 'manifest',
      'guides/intro.txt': 'flight',
      'robots.txt': 'flight',
    });
  });

  it('leaves alone what has no such extension, as path.extname reads one', () => {
    for (const file of [
      'assets/photo.png',
      'fonts/inter.woff2',
      'app.js.map',
      'guides.html/readme',
      '.txt',
      'assets/.css',
      'html',
      'a/webmanifest',
      'xmanifest.json',
      'icons/my-manifest.json',
      'manifest.json.bak',
    ]) {
      expect([file, kindOf(file)]).toEqual([file, undefined]);
    }
    // A name of leading dots and more has an extension after its last dot.
    expect(kindOf('guides/..txt')).toBe('flight');
  });

  it('agrees with path.extname on names made of dots, slashes and extensions', () => {
    const reference = (file: string) => {
      const extension = path.posix.extname(file).toLowerCase();
      if (['.html', '.htm', '.xhtml', '.svg'].includes(extension)) return 'html';
      if (extension === '.css') return 'css';
      if (['.js', '.mjs', '.cjs'].includes(extension)) return 'js';
      if (extension === '.webmanifest' || path.posix.basename(file) === 'manifest.json')
        return 'manifest';
      if (extension === '.txt') return 'flight';
      return undefined;
    };
    const parts = ['.', '..', 'a', 'X', '/', '.HTML', '.js', '.Txt', 'manifest.json', '.svg'];
    const random = generator(7);
    let kinded = 0;
    for (let n = 0; n < 20_000; n += 1) {
      let file = '';
      const length = 1 + random.int(6);
      for (let i = 0; i < length; i += 1) file += parts[random.int(parts.length)];
      if (file.startsWith('/') || file.endsWith('/')) continue;
      const expected = reference(file);
      if (expected !== undefined) kinded += 1;
      expect([file, kindOf(file)]).toEqual([file, expected]);
    }
    expect(kinded).toBeGreaterThan(1000);
  });
});

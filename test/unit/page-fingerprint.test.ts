import { describe, expect, it } from 'vitest';
import {
  fingerprintPage,
  markupDigest,
  normalizeAssetPath,
  normalizeUrl,
  readVisible,
  sameMarkup,
} from '../../src/changes/fingerprint.js';
import { buildDocsSite, newBuildId, samplePages } from '../support/docs-site.js';
import { generator, type Rng } from '../support/random.js';

const page = (body: string, head = '<title>Intro - Docs</title>') =>
  Buffer.from(`<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`);

const visible = (body: string, head?: string) => readVisible(page(body, head));
const digest = (bytes: Buffer) => markupDigest(bytes).digest;

describe('what a reader sees of a page', () => {
  it('reads tags that lack an attribute in linear time', () => {
    // Each <a> without href searched the rest of the page for one: 16 s for this 3 MB page.
    const bytes = page(`${'<a>x</a><img>'.repeat(300_000)}<a href="/end">end</a>`);
    const started = performance.now();
    const read = readVisible(bytes);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(read.content).toBe(
      readVisible(page(`${'<a>x</a><img>'.repeat(300_000)}<a href=/end>end</a>`)).content,
    );
  });

  it('reads pages built to defeat its searches in linear time', () => {
    // Each of these took minutes on a page of a few MB (an archive of a few KB): a lowercase
    // closing tag searched to the end of the page for every uppercase one, a look back to
    // the page's start for every `<script` inside a tag never closed, and a rescan of a long
    // comment for every candidate after it.
    const pages = [
      page(`${'<script>x</SCRIPT><p>a</p>'.repeat(100_000)}`),
      page(`<p title="${'<script '.repeat(400_000)}`),
      page(`<!--${'x'.repeat(2_000_000)}-->${'<b title="<script">b</b>'.repeat(100_000)}`),
    ];
    for (const bytes of pages) {
      const started = performance.now();
      markupDigest(bytes);
      readVisible(bytes);
      expect(performance.now() - started).toBeLessThan(3000);
    }
    // The visible text is still that of the same page with lowercase closing tags.
    expect(visible('<script>x</SCRIPT><p>a</p>'.repeat(3)).content).toBe(
      visible('<script>x</script><p>a</p>'.repeat(3)).content,
    );
    expect(digest(page('<script>x</SCRIPT><p>a</p>'.repeat(3)))).toBe(
      digest(page('<script>y</SCRIPT><p>a</p>'.repeat(3))),
    );
  });

  it('ignores scripts, styles, templates, noscript, comments and link tags', () => {
    const plain = visible('<main><p>Hello reader</p></main>');
    const noisy = visible(
      '<main><!-- build 42 --><p>Hello <!--$-->reader</p><script>self.__next_f.push([1,"b:XYZ"])</script>' +
        '<style>.a{color:red}</style><template><p>later</p></template><noscript>Enable JS</noscript></main>',
      '<title>Intro - Docs</title><link rel="preload" href="/_next/static/chunks/0a1b2c3d4e5f6.js"/><script src="/_next/static/BUILDID/_buildManifest.js"></script>',
    );
    expect(noisy.content).toBe(plain.content);
  });

  it('ends a comment where a browser does, and reads CDATA as text only in SVG and MathML', () => {
    const read = (body: string) => visible(body).content;
    // `--!>` ends a comment, and `<!-->` and `<!--->` are empty ones: the text after shows.
    for (const comment of ['<!-- a --!>', '<!-->', '<!--->']) {
      expect(read(`<p>Hi${comment} reader</p>`), comment).not.toBe(read(`<p>Hi${comment} you</p>`));
      expect(read(`<p>Hi${comment} reader</p>`), comment).toBe(read('<p>Hi reader</p>'));
    }
    // A `>` inside a comment does not end it.
    expect(read('<p>Hi<!-- a > reader --></p>')).toBe(read('<p>Hi<!-- a > you --></p>'));
    // In an SVG, CDATA is text; in HTML a bogus comment, up to the first `>`.
    expect(read('<svg><text><![CDATA[ reader ]]></text></svg>')).not.toBe(
      read('<svg><text><![CDATA[ you ]]></text></svg>'),
    );
    expect(read('<p><![CDATA[ reader ]]></p>')).toBe(read('<p><![CDATA[ you ]]></p>'));
    expect(read('<svg/><p><![CDATA[ reader ]]></p>')).toBe(read('<svg/><p><![CDATA[ you ]]></p>'));
    // Pages built to hold a comment open read in linear time.
    const started = performance.now();
    readVisible(page(`<!--${'-'.repeat(4_000_000)}`));
    readVisible(page(`<svg><![CDATA[${'-'.repeat(4_000_000)}`));
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('sees a declarative shadow root, which a browser shows where it is', () => {
    const callout = (text: string, mode = 'shadowrootmode="open"') =>
      visible(`<main><my-callout><template ${mode}><p>${text}</p></template></my-callout></main>`)
        .content;
    expect(callout('Always back up')).not.toBe(callout('Never back up'));
    expect(callout('Always', 'shadowroot="open"')).not.toBe(callout('Never', 'shadowroot="open"'));
    expect(callout('Always', 'id="row"')).toBe(callout('Never', 'id="row"'));
  });

  it('ignores class, id, style and data attributes, and whitespace runs', () => {
    expect(
      visible(
        '<main class="prose dark" data-x="1"><p id="a1" style="color:red">Hello   reader</p></main>',
      ).content,
    ).toBe(visible('<main>\n  <p>Hello\nreader</p>\n</main>').content);
  });

  it('keeps whitespace inside pre as it is: a code sample indented otherwise has changed', () => {
    const sample = (code: string) =>
      visible(`<main><p>Example:</p><pre><code>${code}</code></pre><p>Done.</p></main>`).content;
    const before = sample('if x:\n    y = 1\nreturn 2');
    expect(sample('if x:\n    y = 1\n    return 2')).not.toBe(before);
    expect(sample('if x:\n    y = 1\nreturn 2')).toBe(before);
    // Highlighting spans inside it change nothing either, as long as the text is the same.
    expect(sample('<span class="k">if</span> x:\n    y = <span class="n">1</span>\nreturn 2')).toBe(
      sample('<span>if</span> x:\n    y = <span>1</span>\nreturn 2'),
    );
    // Line breaks as a browser reads them: CR LF and a lone CR are LF.
    expect(sample('if x:\r\n    y = 1\r\nreturn 2')).toBe(before);
    expect(sample('if x:\r    y = 1\rreturn 2')).toBe(before);
    expect(sample('if x:\r\n\r\n    y = 1\nreturn 2')).not.toBe(before);
    expect(sample('if x:\r\r\n    y = 1\r\nreturn 2')).toBe(sample('if x:\n\n    y = 1\nreturn 2'));
    // A CR that ends a run before a tag is a line break of its own, as is the LF after it.
    expect(sample('x\r<span>\n</span>y')).toBe(sample('x\n<span>\n</span>y'));
    expect(sample('<span>x\r</span>\ny')).toBe(sample('<span>x\n</span>\ny'));
    expect(sample('x\r<span>\n</span>y')).not.toBe(sample('x\n<span></span>y'));
    // A page saved with CR LF throughout, before, inside and after its samples.
    const lf =
      '<main>\n<p>Example:</p>\n<pre><code>a\n  b\n</code></pre>\n<p>More</p>\n<pre>c\nd</pre>\n</main>';
    expect(visible(lf.replaceAll('\n', '\r\n')).content).toBe(visible(lf).content);
    // Outside pre, whitespace runs still collapse.
    expect(visible('<main><p>a  b</p><pre>x</pre></main>').content).toBe(
      visible('<main><p>a b</p><pre>x</pre></main>').content,
    );
  });

  it('sees text, the title, link targets, image sources and alt text', () => {
    const base = visible(
      '<main><p>Hello <a href="/guides/a">guide</a></p><img src="/x.png" alt="Chart"></main>',
    );
    expect(
      visible(
        '<main><p>Hello <a href="/guides/a">guide</a></p><img src="/x.png" alt="Chart"></main>',
        '<title>Other</title>',
      ).content,
    ).not.toBe(base.content);
    expect(
      visible(
        '<main><p>Hello <a href="/guides/b">guide</a></p><img src="/x.png" alt="Chart"></main>',
      ).content,
    ).not.toBe(base.content);
    expect(
      visible(
        '<main><p>Hello <a href="/guides/a">guide</a></p><img src="/y.png" alt="Chart"></main>',
      ).content,
    ).not.toBe(base.content);
    expect(
      visible(
        '<main><p>Hello <a href="/guides/a">guide</a></p><img src="/x.png" alt="Graph"></main>',
      ).content,
    ).not.toBe(base.content);
    expect(
      visible(
        '<main><p>Hello <a href="/guides/a">guides</a></p><img src="/x.png" alt="Chart"></main>',
      ).content,
    ).not.toBe(base.content);
  });

  it('sees the media a page shows through source, srcset, poster, embed, object and track', () => {
    const pairs = [
      [
        '<video controls><source src="/videos/setup-v1.mp4"></video>',
        '<video controls><source src="/videos/setup-v2.mp4"></video>',
      ],
      [
        '<picture><source srcset="/img/dark.png" media="(prefers-color-scheme: dark)"><img src="/img/light.png"></picture>',
        '<picture><source srcset="/img/dark-2.png" media="(prefers-color-scheme: dark)"><img src="/img/light.png"></picture>',
      ],
      [
        '<img src="/a.png" srcset="/a.png 1x, /a-big.png 2x">',
        '<img src="/a.png" srcset="/a.png 1x, /b-big.png 2x">',
      ],
      [
        '<img src="/a.png" srcset="/a.png 1x, /a-big.png 2x">',
        '<img src="/a.png" srcset="/a.png 1x, /a-big.png 3x">',
      ],
      [
        '<video src="/v.mp4" poster="/still-1.png"></video>',
        '<video src="/v.mp4" poster="/still-2.png"></video>',
      ],
      ['<embed src="/spec-v1.pdf">', '<embed src="/spec-v2.pdf">'],
      ['<object data="/diagram-1.svg"></object>', '<object data="/diagram-2.svg"></object>'],
      [
        '<video src="/v.mp4"><track src="/captions-en.vtt"></video>',
        '<video src="/v.mp4"><track src="/captions-fr.vtt"></video>',
      ],
    ];
    for (const [a, b] of pairs) {
      expect(visible(`<main>${a}</main>`).content, `${a}\n${b}`).not.toBe(
        visible(`<main>${b}</main>`).content,
      );
    }
    // Attributes a minifier wrote without whitespace between them are read too.
    expect(visible('<main><img alt="Chart"src="/a.png"></main>').content).not.toBe(
      visible('<main><img alt="Chart"src="/b.png"></main>').content,
    );
    // Nor is a name at the start of another attribute's value taken for the attribute.
    expect(visible('<main><a title="href=x" href="/one">a</a></main>').content).not.toBe(
      visible('<main><a title="href=x" href="/two">a</a></main>').content,
    );
    // The build's hashes stay out of them, as out of every asset link.
    expect(
      visible('<main><img srcset="/_astro/a.DlQ8ZhpE.png 1x, /_astro/b.Cx9aB3kQ.png 2x"></main>'),
    ).toEqual(
      visible('<main><img srcset="/_astro/a.Bz7kQ1wE.png 1x,/_astro/b.Qw3eR5tY.png   2x"></main>'),
    );
  });

  it('sees the meta description but no other head element', () => {
    const head =
      '<title>T</title><meta name="description" content="About A"><meta name="generator" content="X 1.0">';
    const base = visible('<main>x</main>', head).content;
    expect(visible('<main>x</main>', head.replace('About A', 'About B')).content).not.toBe(base);
    expect(visible('<main>x</main>', head.replace('X 1.0', 'X 2.0')).content).toBe(base);
  });

  it('sees where a redirect page sends its reader', () => {
    // Next.js writes redirect() in a static export as this meta tag, and a page without body.
    const redirect = (to: string) =>
      visible('', `<meta id="__next-page-redirect" http-equiv="refresh" content="1;url=${to}"/>`)
        .content;
    expect(redirect('/guides/v2')).not.toBe(redirect('/guides/v1'));
    expect(redirect('/guides/v1')).toBe(redirect('/guides/v1'));
  });

  it('leaves build ids, content hashes and cache-busting queries out of asset links', () => {
    expect(
      visible('<main><img src="/_next/static/media/logo.3f9a2c1b.png?dpl=abc"></main>').content,
    ).toBe(visible('<main><img src="/_next/static/media/logo.77aa99bb.png"></main>').content);
    expect(
      visible(
        '<main><img src="/_next/image?url=%2F_next%2Fstatic%2Fmedia%2Fa.1234abcd.png&w=640"></main>',
      ).content,
    ).toBe(
      visible(
        '<main><img src="/_next/image?url=%2F_next%2Fstatic%2Fmedia%2Fa.9876fedc.png&w=640"></main>',
      ).content,
    );
  });

  it('splits the navigation from the content: nav, banner header, footer, aside, roles and platform ids', () => {
    const shell = (nav: string, content: string) =>
      visible(
        `<header><a href="/">Docs</a></header><div id="sidebar"><ul><li><a href="/a">${nav}</a></li></ul></div>` +
          `<nav aria-label="breadcrumb">Guides</nav><main><p>${content}</p></main>` +
          `<div role="contentinfo">© Example</div><aside>On this page</aside>`,
      );
    const base = shell('Page A', 'Body');
    const renamed = shell('Page A renamed', 'Body');
    expect(renamed.content).toBe(base.content);
    expect(renamed.navigation).not.toBe(base.navigation);
    const edited = shell('Page A', 'Body edited');
    expect(edited.navigation).toBe(base.navigation);
    expect(edited.content).not.toBe(base.content);
  });

  it('keeps a header or footer inside main or article with the content (a page title, a callout)', () => {
    const withTitle = (title: string) =>
      visible(
        `<nav>Menu</nav><main><header id="header"><h1>${title}</h1></header><p>x</p><footer>Was this useful?</footer></main>`,
      );
    expect(withTitle('New title').content).not.toBe(withTitle('Old title').content);
    expect(withTitle('New title').navigation).toBe(withTitle('Old title').navigation);
  });

  it('keeps a header or aside inside an element of role main with the content', () => {
    // Sphinx's Read the Docs theme: <div role="main">; docutils writes footnotes as <aside>.
    const page = (note: string) =>
      visible(
        `<nav>Menu</nav><div role="main"><div><header><h1>Install</h1></header><p>Steps</p>` +
          `<aside class="footnote">${note}</aside></div></div><footer>Built with Sphinx</footer>`,
      );
    expect(page('Node 20 or later').content).not.toBe(page('Node 18 or later').content);
    expect(page('Node 20 or later').navigation).toBe(page('Node 18 or later').navigation);
    // The footer after it is navigation again.
    const footer = (text: string) =>
      visible(`<div role="main"><div><p>Steps</p></div></div><footer>${text}</footer>`);
    expect(footer('a').content).toBe(footer('b').content);
  });

  it('tracks nested regions of the same element', () => {
    const nested = (inner: string) =>
      visible(`<aside><div><aside>${inner}</aside></div>Still aside</aside><main>Content</main>`);
    expect(nested('a').content).toBe(nested('b').content);
    expect(nested('a').navigation).not.toBe(nested('b').navigation);
  });

  it('reads the title as a person does: UTF-8, entities decoded, whitespace collapsed', () => {
    expect(visible('<p>x</p>', '<title>  Café &amp; Crème\n – Docs </title>').title).toBe(
      'Café & Crème – Docs',
    );
  });

  it('decodes character references in text and in the attributes it reads, as a browser does', () => {
    const read = (body: string, head?: string) => visible(`<main>${body}</main>`, head).content;
    // The spellings of one character that React, Vue and hand-written HTML use.
    const spellings = [
      ['<p>Q&amp;A</p>', '<p>Q&#38;A</p>', '<p>Q&#x26;A</p>', '<p>Q&A</p>', '<p>Q&AMP;A</p>'],
      ['<p>don&#x27;t</p>', '<p>don&#39;t</p>', "<p>don't</p>", '<p>don&apos;t</p>'],
      ['<p>a&nbsp;&nbsp;b</p>', '<p>a\u00a0\u00a0b</p>', '<p>a&#160;&#xA0;b</p>'],
      ['<p>&copy 2024 &mdash; Docs &#x1F600;</p>', '<p>\u00a9 2024 \u2014 Docs \u{1F600}</p>'],
      ['<p>a&#32;&#10; b</p>', '<p>a b</p>'],
      ['<pre>if (a &lt; b &amp;&amp; c)\r\n  x</pre>', '<pre>if (a &#60; b && c)\n  x</pre>'],
      [
        '<img src="/x.png" alt="Q&amp;A">',
        "<img src='/x.png' alt='Q&#38;A'>",
        '<IMG SRC=/x.png ALT=Q&A>',
      ],
      ['<a href="/search?q=a&amp;page=2">s</a>', '<a href="/search?q=a&page=2">s</a>'],
      ['<a href="/guides&#x2F;intro">s</a>', '<a href="/guides/intro">s</a>'],
      ['<input type="submit" value="Q&amp;A">', '<input type="submit" value="Q&A">'],
    ];
    for (const [first, ...others] of spellings) {
      for (const other of others) expect(read(other as string), other).toBe(read(first as string));
    }
    const described = (text: string) =>
      read('<p>x</p>', `<title>T</title><meta name="description" content="${text}">`);
    expect(described('Don&#x27;t panic')).toBe(described("Don't panic"));
    const titled = (title: string) => visible('<p>x</p>', `<title>${title}</title>`);
    expect(titled('Q&#38;A &copy 2024').content).toBe(titled('Q&amp;A \u00a9 2024').content);
    expect(titled('Q&#38;A &copy 2024').title).toBe('Q&A \u00a9 2024');
    // A no-break space is no space, and a name an attribute's value only starts with
    // (`&copy=2`, a query parameter) is no reference there.
    expect(read('<p>a&nbsp;b</p>')).not.toBe(read('<p>a b</p>'));
    expect(read('<a href="/s?a=1&copy=2">s</a>')).not.toBe(read('<a href="/s?a=1\u00a9=2">s</a>'));
  });

  it('sees the label of a button and the text a field is filled with, as a reader does', () => {
    const read = (control: string, value: string) =>
      visible(`<main><form>${control.replace('%', value)}</form></main>`).content;
    for (const shown of [
      '<input type="submit" value="%">',
      '<input type="button" value="%">',
      '<input type="reset" value="%">',
      '<input type="text" value="%">',
      '<input value="%">',
      '<INPUT TYPE="Submit" VALUE="%">',
    ]) {
      expect(read(shown, 'Send'), shown).not.toBe(read(shown, 'Delete'));
    }
    // Values a reader never sees: a hidden field's, a box's or a password's.
    for (const hidden of [
      '<input type="hidden" value="%">',
      '<input type="checkbox" value="%">',
      '<input type="password" value="%">',
    ]) {
      expect(read(hidden, 'Send'), hidden).toBe(read(hidden, 'Delete'));
    }
    // A slider moved and a swatch of another colour are seen, though not as text.
    const slider = '<input type="range" min="0" max="100" value="%">';
    expect(read(slider, '20')).not.toBe(read(slider, '80'));
    const swatch = '<input type="color" value="%">';
    expect(read(swatch, '#ff0000')).not.toBe(read(swatch, '#0000ff'));
  });

  it('sees the hint a field shows while it is empty, as a reader does', () => {
    const read = (control: string, hint: string) =>
      visible(`<main><form>${control.replace('%', hint)}</form></main>`).content;
    for (const shown of [
      '<input type="search" placeholder="%">',
      '<input placeholder="%">',
      '<input type="email" placeholder="%" value="">',
      '<input type="password" placeholder="%">',
      '<textarea placeholder="%"></textarea>',
      '<INPUT TYPE="Search" PLACEHOLDER="%">',
    ]) {
      expect(read(shown, 'Search docs'), shown).not.toBe(read(shown, 'Find a page'));
    }
    // Controls a reader types no text into show none.
    for (const hidden of [
      '<input type="checkbox" placeholder="%">',
      '<input type="submit" value="Go" placeholder="%">',
      '<input type="date" placeholder="%">',
    ]) {
      expect(read(hidden, 'Search docs'), hidden).toBe(read(hidden, 'Find a page'));
    }
    // Rebuilt with other classes and ids, the hint spelled with a reference: the same.
    expect(read('<input class="a1" id="s-1" placeholder="%">', 'Search docs&hellip;')).toBe(
      read('<input class="b2" id="s-2" placeholder="%">', 'Search docs\u2026'),
    );
    // A search box in the sidebar is navigation.
    const shell = (hint: string) =>
      visible(`<nav><input type="search" placeholder="${hint}"></nav><main><p>Body</p></main>`);
    expect(shell('Search docs').navigation).not.toBe(shell('Find a page').navigation);
    expect(shell('Search docs').content).toBe(shell('Find a page').content);
  });

  it('sees the image and the alt text of an image button, as of an image', () => {
    const button = (src: string, alt: string, rest = '') =>
      visible(`<main><form><input type="image" src="${src}" alt="${alt}"${rest}></form></main>`)
        .content;
    const base = button('/img/go.png', 'Search');
    expect(button('/img/go.png', 'Find')).not.toBe(base);
    expect(button('/img/stop.png', 'Search')).not.toBe(base);
    // Its value is never shown; attribute names in capitals, references and a rebuilt
    // asset's hash read as before.
    expect(button('/img/go.png', 'Search', ' value="x1"')).toBe(button('/img/go.png', 'Search'));
    expect(
      visible('<main><form><INPUT TYPE="Image" SRC="/img/go.png" ALT="Q&amp;A"></form></main>')
        .content,
    ).toBe(button('/img/go.png', 'Q&A'));
    expect(button('/_next/static/media/go.3f9a2c1b.png', 'Search')).toBe(
      button('/_next/static/media/go.7d41e0aa.png', 'Search'),
    );
  });

  it('sees what an abbreviation stands for, but no other tooltip', () => {
    const read = (markup: string, title: string) =>
      visible(`<main><p>${markup.replace('%', title)}</p></main>`).content;
    for (const shown of ['<abbr title="%">API</abbr>', '<ABBR TITLE="%">API</ABBR>']) {
      expect(read(shown, 'Application interface'), shown).not.toBe(read(shown, 'Admin interface'));
    }
    expect(read('<abbr title="%">Q&amp;A</abbr>', 'Questions &amp; answers')).toBe(
      read('<abbr class="x" title="%">Q&A</abbr>', 'Questions & answers'),
    );
    // A tooltip shows on hover only, and repeats what is shown or names the chrome
    // ("Copy code", "Direct link to heading"): left out.
    for (const tooltip of [
      '<a href="/a" title="%">Guide</a>',
      '<span title="%">Guide</span>',
      '<button title="%">Copy</button>',
    ]) {
      expect(read(tooltip, 'Application interface'), tooltip).toBe(
        read(tooltip, 'Admin interface'),
      );
    }
  });

  it('sees an item of a task list ticked, and a radio button chosen', () => {
    const list = (items: string) => visible(`<main><ul>${items}</ul></main>`).content;
    const open = '<li><input type="checkbox" disabled> Ship it</li>';
    const done = '<li><input type="checkbox" disabled checked> Ship it</li>';
    expect(list(done)).not.toBe(list(open));
    expect(list('<li><INPUT TYPE="checkbox" CHECKED=""> Ship it</li>')).toBe(list(done));
    expect(list('<li><input checked type="checkbox"/> Ship it</li>')).toBe(list(done));
    // A name that only ends in the word, or the word in another attribute's value, is no
    // such attribute.
    for (const unticked of [
      '<li><input type="checkbox" data-checked disabled> Ship it</li>',
      '<li><input type="checkbox" title="checked items" disabled> Ship it</li>',
      "<li><input type=checkbox title='a checked=1' disabled> Ship it</li>",
      '<li><input type="checkbox" title=checked disabled> Ship it</li>',
    ]) {
      expect(list(unticked), unticked).toBe(list(open));
    }
    const radio = (checked: string) =>
      list(
        `<li><input type="radio" name="a"${checked}> A</li><li><input type="radio" name="a"> B</li>`,
      );
    expect(radio(' checked')).not.toBe(radio(''));
  });

  it('reads a highlighted code sample as its text: tokens part nothing, a <br> breaks the line', () => {
    const sample = (code: string) =>
      visible(`<main><pre><code>${code}</code></pre></main>`).content;
    const plain = sample('const x = f(1)\ny()\n');
    // Two highlighters' tokens of the same line, and Docusaurus's `<br>` at each line's end.
    expect(
      sample('<span class="k">const</span><span> x</span> = <span>f</span>(<b>1</b>)\ny()\n'),
    ).toBe(plain);
    expect(
      sample(
        '<span class="line"><span>const x = f(1)</span><br></span><span class="line"><span>y</span><span>()</span><br/></span>',
      ),
    ).toBe(plain);
    // But a block inside a sample still parts its lines, and an edit is still an edit.
    expect(sample('<div>const x = f(1)</div><div>y()</div>')).not.toBe(
      sample('<div>const x = f(1)y</div><div>()</div>'),
    );
    expect(sample('<span>const</span> x = f(2)\ny()\n')).not.toBe(plain);
  });

  it('reads the words a comment stands between as one, as a browser shows them', () => {
    // React parts adjacent text with an empty comment: `v{major}.{minor}` is `v<!-- -->2<!-- -->.<!-- -->1`.
    expect(visible('<main><p>v<!-- -->2<!-- -->.<!-- -->1</p></main>').content).toBe(
      visible('<main><p>v2.1</p></main>').content,
    );
    expect(visible('<main><p>Hello <!--$-->reader<!--/$--></p></main>').content).toBe(
      visible('<main><p>Hello reader</p></main>').content,
    );
    expect(visible('<main><p>a</p><!-- x --><p>b</p></main>').content).not.toBe(
      visible('<main><p>ab</p></main>').content,
    );
  });

  it('reads attribute names in any case, as a browser does, and values as they are written', () => {
    const lower = visible(
      '<main><a href="/Guides/A">guide</a><img src="/x.png" alt="Chart"></main>',
    );
    // Hand-written HTML in capitals shows the reader the same page.
    expect(
      visible('<MAIN><A HREF="/Guides/A">guide</A><IMG Src="/x.png" ALT="Chart"></MAIN>').content,
    ).toBe(lower.content);
    // And an edit there is an edit: the link's target, the image, its alt text.
    for (const edited of [
      '<main><A HREF="/guides/b">guide</A><img src="/x.png" alt="Chart"></main>',
      '<main><a href="/Guides/A">guide</a><IMG SRC="/y.png" alt="Chart"></main>',
      '<main><a href="/Guides/A">guide</a><img src="/x.png" ALT="Graph"></main>',
    ])
      expect(visible(edited).content, edited).not.toBe(lower.content);
    // A name in capitals inside a value is no attribute: `data-note="HREF=/x"` holds no link.
    expect(visible('<main><a data-note="HREF=/x">guide</a></main>').content).toBe(
      visible('<main><a data-note="HREF=/y">guide</a></main>').content,
    );
  });

  it('reads an attribute where the tag has it, not where its name is written inside another value', () => {
    // A tooltip or an alt text that mentions `href=` or `src=`, before the attribute itself:
    // the link and the image a reader follows are the real ones, and an edit to them shows.
    for (const [before, after] of [
      ['<a title="set href=/x" href="/one">go</a>', '<a title="set href=/x" href="/two">go</a>'],
      ['<img alt="a src=/x.png" src="/one.png">', '<img alt="a src=/x.png" src="/two.png">'],
      [
        "<img data-note=' alt=hi' alt=one src=/a.png>",
        "<img data-note=' alt=hi' alt=two src=/a.png>",
      ],
      ['<a title="x"href="/one">go</a>', '<a title="x"href="/two">go</a>'],
    ])
      expect(visible(`<main>${before}</main>`).content, after).not.toBe(
        visible(`<main>${after}</main>`).content,
      );
    // The first of two attributes of one name counts, as in a browser.
    expect(visible('<main><a href="/one" href="/x">go</a></main>').content).toBe(
      visible('<main><a href="/one" href="/y">go</a></main>').content,
    );
    // A name without a value holds none: the next attribute's value is not its.
    expect(visible('<main><img alt src="/one.png"></main>').content).not.toBe(
      visible('<main><img alt src="/two.png"></main>').content,
    );
  });

  it('survives a truncated page and unquoted attributes', () => {
    expect(() =>
      readVisible(Buffer.from('<html><body><a href=/x>link</a><p>cut <b')),
    ).not.toThrow();
    expect(visible('<main><a href=/x>go</a></main>').content).not.toBe(
      visible('<main><a href=/y>go</a></main>').content,
    );
  });
});

describe('markup digest', () => {
  it('is the same when only scripts, and the styles and link tags of the head, differ', () => {
    const a = page(
      '<p>x</p><script>build A</script>',
      '<title>T</title><link rel="modulepreload" href="/assets/app.AAAA1111.js"><style>.a{}</style>',
    );
    const b = page(
      '<p>x</p><script>build B, longer</script>',
      '<title>T</title><link rel="modulepreload" href="/assets/app.BBBB2222.js"><style>.b{}</style>',
    );
    expect(digest(a)).toBe(digest(b));
    expect(digest(a)).toMatch(/^[0-9a-f]{8}-[0-9a-f]+$/);
  });

  it('counts styles and link tags in the body, yet the page is still found unchanged by its scan', () => {
    const build = (hash: string) =>
      page(`<main><p>x</p><link rel="stylesheet" href="/_astro/ec.${hash}.css"></main>`);
    expect(digest(build('AAAA1111'))).not.toBe(digest(build('BBBB2222')));
    const earlier = fingerprintPage(build('AAAA1111'));
    const again = fingerprintPage(build('BBBB2222'), earlier);
    expect(again.content).toBe(earlier.content);
    expect(again.navigation).toBe(earlier.navigation);
  });

  it('takes neither a header element nor the lack of a closing head tag for the end of the head', () => {
    const headless = (hash: string) =>
      Buffer.from(
        `<title>T</title><header>h</header><link rel="preload" href="/a.${hash}.js"><p>x</p>`,
      );
    expect(digest(headless('AAAA'))).toBe(digest(headless('BBBB')));
  });

  it('changes whenever what a reader sees changes (so an equal digest may carry the fingerprint over)', () => {
    const variants = [
      '<main><p>x</p></main>',
      '<main><p>y</p></main>',
      '<main><p>x</p><a href="/a">x</a></main>',
      '<nav>x</nav><main><p>x</p></main>',
      '<main><p>x</p><!-- a comment counts here, not in what a reader sees --></main>',
      '<main><p>x</p><scripts>a custom element is no script</scripts></main>',
    ];
    const digests = new Set(variants.map((v) => digest(page(v))));
    expect(digests.size).toBe(variants.length);
  });

  it('detects every one-character edit', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(20);
    const base = digest(page(`<p>${text}</p>`));
    for (let i = 0; i < text.length; i += 7) {
      const edited = `${text.slice(0, i)}${text[i] === 'x' ? 'y' : 'x'}${text.slice(i + 1)}`;
      expect(digest(page(`<p>${edited}</p>`))).not.toBe(base);
    }
  });

  it('stays what earlier releases wrote in their manifests', () => {
    // Digests of manifests already deployed must compare equal to the same pages today.
    const next =
      '<!DOCTYPE html><html><head><title>Intro - Docs</title><link rel="preload" href="/_next/static/chunks/a1b2.js"/>' +
      '<script src="/_next/static/b1/_buildManifest.js" async=""></script><style>.a{}</style></head><body>' +
      '<nav><a href="/">Home</a></nav><main><p>Hello reader</p><link rel="stylesheet" href="/x.css"></main>' +
      '<script>self.__next_f.push([1,"b1"])</script></body></html>';
    expect(digest(Buffer.from(next))).toBe('2ed219b5-b9');
    expect(digest(Buffer.from('<p>a</p><link rel="preload" href="/a.js"><script>x'))).toBe(
      'a983d80e-a',
    );
  });

  it('reads a script, style or link tag inside a comment as the comment it is', () => {
    // A commented-out embed: left out up to the next real </script>, it hid the text between.
    const embed = (limit: string) =>
      page(`<p>a</p><!-- <script> embed --><p>The limit is ${limit}.</p><script>x</script>`);
    expect(digest(embed('5'))).not.toBe(digest(embed('100')));
    expect(visible('<!-- <script> embed --><p>The limit is 5.</p>')).not.toEqual(
      visible('<!-- <script> embed --><p>The limit is 100.</p>'),
    );
    const title = (text: string) =>
      page('<p>a</p>', `<!-- <style> --><title>${text}</title><style>.a{}</style>`);
    expect(digest(title('Intro'))).not.toBe(digest(title('Outro')));
    // A comment never closed runs to the end of the page, as the visible scan reads it.
    expect(digest(page('<p>a</p><!-- <script>x</script><p>b</p>'))).not.toBe(
      digest(page('<p>a</p><!-- <script>y</script><p>b</p>')),
    );
    // The elements after a comment are still left out.
    expect(digest(page('<!-- <script> --><p>a</p><script>build 1</script>'))).toBe(
      digest(page('<!-- <script> --><p>a</p><script>build 2</script>')),
    );
  });

  it('keeps a script, style or link tag inside a CDATA section, which an SVG shows as text', () => {
    // An SVG diagram of markup: a reader sees `<script>show("v1")</script>` in the picture.
    // Left out of the markup, an edit to it kept the earlier fingerprint of the page.
    const body = (text: string) =>
      `<main><svg><text><![CDATA[<p>${text}</p>]]></text></svg></main>`;
    const pages = [
      (text: string) => page(body(text)),
      // Without a `</head>`, styles and links are left out everywhere.
      (text: string) => Buffer.from(`<!DOCTYPE html><title>T</title>${body(text)}`),
    ];
    for (const text of [
      '<script>show("v1")</script>',
      '<style>b { background: url(v1.png) }</style>',
      '<link href="/v1.css">',
    ]) {
      for (const make of pages) {
        const earlier = make(text);
        const now = make(text.replace('v1', 'v2'));
        const first = fingerprintPage(earlier);
        expect(readVisible(now).content, text).not.toBe(first.content);
        expect(fingerprintPage(now, first).content, text).not.toBe(first.content);
        expect(sameMarkup(now, first), text).toBe(false);
      }
    }
    // The elements after a CDATA section are still left out.
    expect(digest(page('<svg><![CDATA[ a > b ]]></svg><p>a</p><script>build 1</script>'))).toBe(
      digest(page('<svg><![CDATA[ a > b ]]></svg><p>a</p><script>build 2</script>')),
    );
  });

  it('reads a tag name inside another tag, or a closing tag in capitals, as the visible scan does', () => {
    const cases = [
      // Serializers that follow the spec leave < unescaped in attribute values.
      (v: string) =>
        page(
          `<p>${v}</p>`,
          `<meta name="description" content="Learn the <script> element"><title>T</title><script src="/a.js"></script>`,
        ),
      (v: string) =>
        page(
          '<p>a</p>',
          `<meta name="description" content="the <script> tag"><title>${v}</title><script src="/a.js"></script>`,
        ),
      (v: string) => page(`<p title="<script>">a</p><p>${v}</p><script>x</script>`),
      (v: string) => page(`<!x <script><p>${v}</p><script>x</script>`),
      (v: string) => page(`<script>x</SCRIPT><p>${v}</p>`),
      (v: string) => page(`<p>${v}</p>`, '<title>T</title><style</head>'),
    ];
    for (const make of cases) {
      const [a, b] = [make('100'), make('5')];
      expect(readVisible(a), String(a)).not.toEqual(readVisible(b));
      expect(digest(a), String(a)).not.toBe(digest(b));
    }
  });

  it('treats a removed element as a separator, as the visible scan does', () => {
    const separated = page('<p>a<script>x</script>b</p>');
    const joined = page('<p>ab</p>');
    expect(digest(separated)).not.toBe(digest(joined));
  });

  it('leaves out an unterminated script to the end, as the visible scan does', () => {
    expect(digest(Buffer.from('<p>a</p><script>x'))).toBe(
      digest(Buffer.from('<p>a</p><script>y, z')),
    );
  });
});

/** Whether `now` has the markup of `earlier`, checked along the earlier page's layout. */
const sameAsEarlier = (earlier: Buffer, now: Buffer) => {
  const { digest: markup, layout } = markupDigest(earlier);
  return sameMarkup(now, { markup, ...(layout !== undefined ? { layout } : {}) });
};

/** A page with a random head and body, every build id and hash in scripts and head tags. */
function randomPage(rng: Rng, build: string): string {
  const pick = <T>(items: readonly T[]) => items[rng.int(items.length)] as T;
  const head = [
    () => `<link rel="preload" href="/_next/static/chunks/${build}.js"/>`,
    () => `<style>.c-${build}{}</style>`,
    () => `<script src="/_next/static/${build}/_buildManifest.js" async=""></script>`,
    () => '<meta name="description" content="About"/>',
    () => '<meta name="description" content="the <script> tag"/>',
    () => `<script>window.b="</head>${build}"</script>`,
    // Tags longer than the few hundred bytes a tag's end is first looked for among.
    () => `<link rel="preload" href="/_next/static/${'x'.repeat(300)}/${build}.js"/>`,
    () => `<script src="/_next/static/${'x'.repeat(300)}/${build}.js" async=""></script>`,
  ];
  const body = [
    () => '<p>Some text</p>',
    () => '<nav><a href="/guides/intro">Intro</a></nav>',
    () => `<script>self.__next_f.push([1,"${build}:<p>x</p>"])</script>`,
    () => `<script type="application/json">{"b":"${build}"}</script>`,
    () => '<link rel="stylesheet" href="/a.css">',
    () => '<scripts>custom</scripts>',
    () => '\0',
    () => '<!-- <script> -->',
    () => '<!-- a note -->',
    () => '<p title="<script>">t</p>',
    () => `<script>${build}</SCRIPT>`,
    () => '<!x <style>',
    () => '<!--<link rel="x">-->',
    () => '<!-- <style>',
    () => `<script data-note="${'y'.repeat(300)}</script>">${build}</script><p>after</p>`,
  ];
  const parts = ['<!DOCTYPE html><html><head><title>T</title>'];
  for (let i = rng.int(6); i > 0; i -= 1) parts.push(pick(head)());
  if (rng.int(8) > 0) parts.push('</head>');
  parts.push('<body>');
  for (let i = rng.int(12); i > 0; i -= 1) parts.push(pick(body)());
  parts.push(pick(['</body></html>', `<script>${build}`, '<script', '']));
  return parts.join('');
}

describe('markup check along the earlier layout', () => {
  it('finds every page of a rebuilt site unchanged, and only the edited page changed', () => {
    const pages = samplePages(30, 3);
    const edited = pages.map((p, i) => (i === 7 ? { ...p, body: [...p.body, 'One more.'] } : p));
    const before = buildDocsSite({ pages, buildId: newBuildId('a'), sidebarSize: 20 });
    const after = buildDocsSite({ pages: edited, buildId: newBuildId('b'), sidebarSize: 20 });
    const html = [...before.keys()].filter((file) => file.endsWith('.html'));
    expect(html).toHaveLength(30);
    const changed = html.filter((file) => {
      const [a, b] = [before.get(file) as string, after.get(file) as string];
      expect(a).not.toBe(b);
      return !sameAsEarlier(Buffer.from(a), Buffer.from(b));
    });
    expect(changed).toEqual(['concepts/topic-7.html']);
  });

  it('carries a page over only when the full markup digest is equal, whatever the edit', () => {
    const rng = generator(17);
    const edits = [
      '<script>',
      '</script>',
      '<script ',
      '<link>',
      '<style>',
      '</head>',
      '<',
      '>',
      '\0',
      'x',
      '<!--',
      '-->',
    ];
    const ELEMENT = /<script[^>]*>[^<]*<\/script>|<style>[^<]*<\/style>|<link[^>]*>/g;
    const replacements = ['<link rel="x">', '<style>s</style>', '<script>s</script>'];
    let carried = 0;
    for (let round = 0; round < 3000; round += 1) {
      const earlier = Buffer.from(randomPage(generator(round), 'AAAA1111'));
      let text = randomPage(generator(round), 'BBBB2222');
      for (let i = rng.int(3); i > 0; i -= 1) {
        const at = rng.int(text.length + 1);
        const edit = rng.int(3);
        if (edit === 0)
          text = `${text.slice(0, at)}${edits[rng.int(edits.length)]}${text.slice(at)}`;
        else if (edit === 1) text = `${text.slice(0, at)}${text.slice(at + 1 + rng.int(8))}`;
        else {
          // One left-out element for another kind, in its place: a link in the body counts.
          const elements = [...text.matchAll(ELEMENT)];
          const element = elements[rng.int(elements.length)];
          if (element?.index !== undefined)
            text = `${text.slice(0, element.index)}${replacements[rng.int(replacements.length)]}${text.slice(element.index + element[0].length)}`;
        }
      }
      const now = Buffer.from(text);
      if (sameAsEarlier(earlier, now)) {
        carried += 1;
        expect(digest(now), `${earlier}\n${now}`).toBe(digest(earlier));
        // Carried over, the page must read as the earlier one did.
        expect(readVisible(now), `${earlier}\n${now}`).toEqual(readVisible(earlier));
      }
    }
    // The edits that only touched scripts or head tags were carried over.
    expect(carried).toBeGreaterThan(500);
  });

  it('finds a rebuilt page unchanged whatever its structure, when its full digest is unchanged', () => {
    let unchanged = 0;
    for (let round = 0; round < 2000; round += 1) {
      const earlier = Buffer.from(randomPage(generator(round), 'AAAA1111'));
      const now = Buffer.from(randomPage(generator(round), 'BBBB2222-longer'));
      // A `</head>` inside a script of the head ends the head early: the tags after it count.
      if (digest(now) !== digest(earlier)) continue;
      unchanged += 1;
      expect(sameAsEarlier(earlier, now), `${earlier}\n${now}`).toBe(true);
    }
    expect(unchanged).toBeGreaterThan(1000);
  });

  it('checks a page of an earlier manifest without layout by its full digest', () => {
    const earlier = page('<main>x</main><script>build 1</script>');
    const markup = digest(earlier);
    expect(sameMarkup(page('<main>x</main><script>build 2</script>'), { markup })).toBe(true);
    expect(sameMarkup(page('<main>y</main><script>build 2</script>'), { markup })).toBe(false);
  });

  it('checks a page by its full digest when its layout is of an earlier form', () => {
    // What an earlier release wrote for this page: a layout that puts a script where the
    // comment holds one, and a digest of the runs around it, without the limit's text.
    const earlier = { markup: '44ab442a-54', layout: '2b;45,e' };
    const now = page('<p>a</p><!-- <script> embed --><p>The limit is 5.</p><script>x</script>');
    expect(sameMarkup(now, earlier)).toBe(false);
    // A page without such a comment has the digest it had.
    const plain = page('<p>a</p><p>The limit is 5.</p><script>build 1</script>');
    const { digest: markup, layout } = markupDigest(plain);
    const earlierForm = (layout as string).slice('2;'.length);
    expect(
      sameMarkup(page('<p>a</p><p>The limit is 5.</p><script>build 2</script>'), {
        markup,
        layout: earlierForm,
      }),
    ).toBe(true);
  });

  it('refuses a layout that does not fit the page', () => {
    const now = page('<main>x</main><script>build 2</script>');
    const { digest: markup, layout } = markupDigest(page('<main>x</main><script>build 1</script>'));
    expect(layout).toMatch(/^2;[0-9a-f]+;[0-9a-f]+(,[0-9a-f]+)*$/);
    const [, head, runs] = (layout as string).split(';') as [string, string, string];
    const wrong = [
      `2;${head};ffffff`,
      `2;${head};0`,
      `2;${head};${runs},0`,
      `2;${head};${runs.replace(/,[^,]*$/, '')}`,
      `2;-;${runs}`,
      `2;${(Number.parseInt(head, 16) + 1).toString(16)};${runs}`,
      '2;zz',
    ];
    for (const guess of wrong)
      expect(sameMarkup(now, { markup, layout: guess }), guess).toBe(false);
    expect(sameMarkup(now, { markup, layout: layout as string })).toBe(true);
    // A layout of an earlier form is no guide: the page is checked by its full digest.
    expect(sameMarkup(now, { markup, layout: 'zz' })).toBe(true);
    expect(sameMarkup(page('<main>y</main>'), { markup, layout: 'zz' })).toBe(false);
  });

  it('carries a page over only when both the CRC and the length of the digest are its own', () => {
    const now = page('<main>x</main><script>build 2</script>');
    const { digest: markup, layout } = markupDigest(page('<main>x</main><script>build 1</script>'));
    const [crc, length] = markup.split('-') as [string, string];
    const flipped = (Number.parseInt(crc, 16) ^ 1).toString(16).padStart(8, '0');
    const others = [
      `${flipped}-${length}`,
      `${crc}-${(Number.parseInt(length, 16) + 1).toString(16)}`,
      `${crc}-${(Number.parseInt(length, 16) - 1).toString(16)}`,
      `${crc}${length}`,
      // The same sum, but not as the digest is written: the earlier one is not carried over.
      `${crc}-0${length}`,
    ];
    for (const other of others) {
      expect(sameMarkup(now, { markup: other, layout: layout as string }), other).toBe(false);
    }
    expect(sameMarkup(now, { markup, layout: layout as string })).toBe(true);
  });
});

describe('fingerprintPage', () => {
  it('carries the earlier fingerprint over when the markup is unchanged', () => {
    const earlier = fingerprintPage(page('<main>x</main><script>build 1</script>'));
    const again = fingerprintPage(page('<main>x</main><script>build 2</script>'), earlier);
    expect(again).toBe(earlier);
    const changed = fingerprintPage(page('<main>y</main><script>build 2</script>'), earlier);
    expect(changed).not.toBe(earlier);
    expect(changed.content).not.toBe(earlier.content);
  });
});

describe('asset names without build noise', () => {
  it.each([
    ['_next/static/5MI0zayT0GZZrxxes3N4X/_buildManifest.js', '_next/static/*/_buildManifest.js'],
    ['_next/static/chunks/079h_c3rnr5lh.js', '_next/static/chunks/*.js'],
    ['_next/static/chunks/3e90-54fyc_bw.js', '_next/static/chunks/*.js'],
    ['_next/static/chunks/turbopack-2u1d16houkiyo.js', '_next/static/chunks/turbopack-*.js'],
    ['_next/static/chunks/main-app-a1b2c3d4e5f6a7b8.js', '_next/static/chunks/main-app-*.js'],
    ['_next/static/media/logo.3f9a2c1b.png', '_next/static/media/logo.*.png'],
    ['assets/style.QLzf_0bl.css', 'assets/style.*.css'],
    ['assets/inter-italic-latin-ext.CN1xVJS-.woff2', 'assets/inter-italic-latin-ext.*.woff2'],
    ['assets/chunks/framework.DlQ8ZhpE.js', 'assets/chunks/framework.*.js'],
    ['_astro/index.BCVqSRsC.css', '_astro/index.*.css'],
    ['images/step-1-install.png', 'images/step-1-install.png'],
    // A name a writer chose stays, so that swapping one image or file for another shows.
    ['images/diagram01.png', 'images/diagram01.png'],
    ['images/Settings.png', 'images/Settings.png'],
    ['images/quickstart_step1.png', 'images/quickstart_step1.png'],
    ['files/report2023.pdf', 'files/report2023.pdf'],
    ['files/report-20231015.pdf', 'files/report-20231015.pdf'],
    ['assets/diagram01.Bx8aK3Qz.png', 'assets/diagram01.*.png'],
    ['assets/index-BCVqSRsC.js', 'assets/index-*.js'],
    ['docs/assets/app.BxK3a9Zq.js', 'docs/assets/app.*.js'],
    // A site's own files in its assets folder (Next.js public/assets/) keep their names.
    ['assets/diagram01.png', 'assets/diagram01.png'],
    ['assets/release-notes-2023.pdf', 'assets/release-notes-2023.pdf'],
    ['assets/images/step-1-install.png', 'assets/images/step-1-install.png'],
    ['assets/screenshot-20231015.png', 'assets/screenshot-20231015.png'],
    ['assets/release-2023-BxK3a9Zq.pdf', 'assets/release-2023-*.pdf'],
    // Vite 5's hashes may hold a dash; older builds' hex hashes may be digits alone.
    ['assets/hero-Ab-cD1x9.png', 'assets/hero-*.png'],
    ['assets/hero-AbcdEf1-.png', 'assets/hero-*.png'],
    ['assets/img/logo.12345678.png', 'assets/img/logo.*.png'],
    ['assets/release-notes-v2-final.pdf', 'assets/release-notes-v2-final.pdf'],
    ['assets/system-overview.png', 'assets/system-overview.png'],
    ['images/screenshot.png', 'images/screenshot.png'],
    ['logo.png', 'logo.png'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeAssetPath(input)).toBe(expected);
  });

  it('keeps links to pages as written', () => {
    expect(normalizeUrl('/guides/intro')).toBe('/guides/intro');
    expect(normalizeUrl('/guides/intro.html?x=1#part')).toBe('/guides/intro.html?x=1#part');
    expect(normalizeUrl('https://example.com/a.3f9a2c1b.js?v=2')).toBe(
      'https://example.com/a.*.js',
    );
  });
});

import { createHash } from 'node:crypto';
import { tarOf } from './archives.js';

/**
 * A documentation site shaped like a Next.js static export, as the platform's exports
 * are: every build gets a new build id (`_next/static/<buildId>/`), which the pages
 * carry in their flight data and RSC payloads, so two builds of the same content differ
 * in every page's bytes. The content is a function of the pages given; the build noise
 * of the build id. Used to test and measure the change report without a real build.
 */

export interface DocsPage {
  /** Route without slashes at the ends; '' is the home page. */
  route: string;
  title: string;
  /** Paragraphs of the page. */
  body: string[];
}

export interface DocsBuild {
  pages: DocsPage[];
  buildId: string;
  /** Changes the hashed chunk names and bytes: a new release of the site's code. */
  codeVersion?: number;
  /** Pages listed in the sidebar (all by default; large sites list a section). */
  sidebarSize?: number;
}

const hash = (text: string, length = 13) =>
  createHash('sha256')
    .update(text)
    .digest('base64url')
    .replace(/[-_]/g, 'x')
    .slice(0, length)
    .toLowerCase();

/** `count` pages of a few paragraphs each, routes spread over sections. */
export function samplePages(count: number, paragraphs = 6): DocsPage[] {
  const sections = ['guides', 'reference', 'api', 'concepts'];
  return Array.from({ length: count }, (_, i) => ({
    route: i === 0 ? '' : `${sections[i % sections.length]}/topic-${i}`,
    title: i === 0 ? 'Overview' : `Topic ${i}`,
    body: Array.from(
      { length: paragraphs },
      (_, p) =>
        `Paragraph ${p + 1} of topic ${i} explains how the example product handles request ${p} and what to configure for it, with links to related topics.`,
    ),
  }));
}

function fileOf(route: string): string {
  return route === '' ? 'index.html' : `${route}.html`;
}

function chunkNames(codeVersion: number): string[] {
  return Array.from({ length: 6 }, (_, i) => `${hash(`chunk-${i}-${codeVersion}`)}.js`);
}

function renderPage(build: DocsBuild, index: number, chunks: string[]): string {
  const page = build.pages[index] as DocsPage;
  const sidebar = build.pages.slice(0, build.sidebarSize ?? build.pages.length);
  const links = sidebar
    .map(
      (p) =>
        `<li class="relative scroll-m-4"><a class="group flex items-center rounded-xl px-3 py-1.5 text-sm${p === page ? ' bg-primary/10 text-primary font-medium' : ' text-gray-700 hover:bg-gray-600/5'}" href="/${p.route}"${p === page ? ' aria-current="page"' : ''}><div class="flex-1">${p.title}</div></a></li>`,
    )
    .join('');
  const preload = chunks
    .map(
      (c) =>
        `<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/${c}"/>`,
    )
    .join('');
  const scripts = chunks
    .map((c) => `<script src="/_next/static/chunks/${c}" async=""></script>`)
    .join('');
  const paragraphs = page.body.map((text) => `<p>${text}</p>`).join('\n');
  // A code sample as Shiki highlights it: a span per token, whitespace kept.
  const sample = Array.from(
    { length: 12 },
    (_, line) =>
      `<span class="line"><span style="color:#F97583">const</span><span style="color:#E1E4E8"> option${line} </span><span style="color:#F97583">=</span><span style="color:#9ECBFF"> "${page.title.toLowerCase()}"</span><span style="color:#E1E4E8">;</span></span>`,
  ).join('\n');
  // Next.js serializes the whole tree, the layout's navigation included, into flight data.
  const tree = JSON.stringify({
    b: build.buildId,
    c: ['', ...page.route.split('/')],
    nav: sidebar.map((p) => ['$', 'a', null, { href: `/${p.route}`, children: p.title }]),
    page: ['$', 'main', null, { title: page.title, children: page.body }],
  });
  const flight = JSON.stringify(`0:${tree}\n`);
  return [
    '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>',
    preload,
    scripts,
    `<title>${page.title} - Example Docs</title>`,
    `<meta name="description" content="${page.title} in the example docs"/>`,
    `<link rel="canonical" href="https://docs.example.com/${page.route}"/>`,
    '</head><body><div hidden=""><!--$--><!--/$--></div>',
    '<div id="navbar" class="fixed top-0 z-30"><a href="/">Example Docs</a><a href="https://github.com/example/docs">GitHub</a></div>',
    `<div id="sidebar" class="hidden lg:block"><div id="sidebar-content"><ul>${links}</ul></div></div>`,
    `<main id="content-area"><header id="header"><h1 id="page-title">${page.title}</h1></header>`,
    `<div class="prose">${paragraphs}\n<pre class="shiki"><code>${sample}</code></pre></div>`,
    '<img alt="Diagram" src="/_next/static/media/diagram.3f9a2c1b.png" width="400" height="200"/>',
    '</main><footer id="footer"><a href="https://www.example.com/privacy">Privacy</a></footer>',
    `<script>(self.__next_f=self.__next_f||[]).push([0])</script><script>self.__next_f.push([1,${flight}])</script>`,
    '</body></html>',
  ].join('');
}

/** Every file of one build: pages, their RSC payloads, chunks and build metadata. */
export function buildDocsSite(build: DocsBuild): Map<string, string> {
  const chunks = chunkNames(build.codeVersion ?? 1);
  const files = new Map<string, string>();
  build.pages.forEach((page, index) => {
    const file = fileOf(page.route);
    files.set(file, renderPage(build, index, chunks));
    // The RSC payload beside the page holds the same flight data.
    const flight = /self\.__next_f\.push\(\[1,("(?:[^"\\]|\\.)*")\]\)/.exec(
      files.get(file) as string,
    )?.[1];
    files.set(file.replace(/\.html$/, '.txt'), JSON.parse(flight ?? '""') as string);
  });
  chunks.forEach((chunk, i) =>
    files.set(
      `_next/static/chunks/${chunk}`,
      `/* chunk ${i} of code version ${build.codeVersion ?? 1} */`,
    ),
  );
  files.set(`_next/static/${build.buildId}/_buildManifest.js`, 'self.__BUILD_MANIFEST={};');
  files.set(`_next/static/${build.buildId}/_ssgManifest.js`, 'self.__SSG_MANIFEST=new Set([]);');
  files.set('_next/static/media/diagram.3f9a2c1b.png', 'PNG diagram');
  return files;
}

/** The build as the tar.gz archive an export bundle would be. */
export async function docsArchive(build: DocsBuild): Promise<Buffer> {
  return tarOf([...buildDocsSite(build)].map(([name, content]) => ({ name, content })));
}

/** A Next.js-style build id: 21 characters of base64url. */
export function newBuildId(seed: string): string {
  return createHash('sha256').update(seed).digest('base64url').slice(0, 21);
}

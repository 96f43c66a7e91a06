import { posix } from 'node:path';

/** What a generated site depends on; the same parameters give the same bytes. */
export interface SiteParams {
  domain: string;
  /** HTML pages in the site, index.html included. */
  pageCount: number;
  revision: number;
}

export interface SiteFile {
  path: string;
  body: Buffer;
}

interface PageSpec {
  path: string;
  title: string;
}

const SECTIONS = ['guides', 'reference', 'api'] as const;
const TOPICS = [
  'introduction',
  'quickstart',
  'installation',
  'configuration',
  'authentication',
  'deployment',
  'webhooks',
  'errors',
  'pagination',
  'rate-limits',
  'versioning',
  'search',
  'navigation',
  'themes',
  'components',
  'analytics',
  'localization',
  'migration',
  'troubleshooting',
  'changelog',
];
const WORDS = (
  'the export page site build static bundle asset theme reader project section guide ' +
  'version client server request response token config value option link layout content ' +
  'render deploy cache archive index navigation component example default custom update'
).split(' ');

/** A 1x1 PNG: the smallest real image a browser accepts. */
const LOGO_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Every file of the static site: pageCount HTML pages, CSS, JS, a logo and a search index. */
export function siteFiles(params: SiteParams): SiteFile[] {
  const pages = planPages(params.pageCount);
  const files = pages.map((page, index) => ({
    path: page.path,
    body: Buffer.from(renderPage(params, pages, index), 'utf8'),
  }));
  const searchIndex = pages.map((page) => ({ title: page.title, path: page.path }));
  return [
    ...files,
    { path: 'assets/style.css', body: Buffer.from(STYLE_CSS, 'utf8') },
    { path: 'assets/app.js', body: Buffer.from(APP_JS, 'utf8') },
    { path: 'assets/logo.png', body: LOGO_PNG },
    { path: 'search-index.json', body: Buffer.from(JSON.stringify(searchIndex), 'utf8') },
  ];
}

function planPages(pageCount: number): PageSpec[] {
  const pages: PageSpec[] = [{ path: 'index.html', title: 'Overview' }];
  for (let n = 0; pages.length < pageCount; n++) {
    const section = SECTIONS[n % SECTIONS.length] as string;
    const round = Math.floor(n / SECTIONS.length);
    const topic = TOPICS[round % TOPICS.length] as string;
    const lap = Math.floor(round / TOPICS.length);
    const slug = lap === 0 ? topic : `${topic}-${lap + 1}`;
    pages.push({ path: `${section}/${slug}.html`, title: titleCase(slug) });
  }
  return pages;
}

const titleCase = (slug: string): string =>
  slug
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');

/** The relative URL from one site file to another. */
const relative = (from: string, to: string): string =>
  posix.relative(posix.dirname(from), to) || posix.basename(to);

function renderPage(params: SiteParams, pages: PageSpec[], index: number): string {
  const page = pages[index] as PageSpec;
  const markdown = index === 0 ? indexMarkdown(params, pages) : pageMarkdown(params, pages, index);
  const root = relative(page.path, 'index.html').replace(/index\.html$/, '');
  const to = (target: string): string => escapeHtml(relative(page.path, target));
  return `<!doctype html>
<html lang="en" data-root="${root}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} | ${escapeHtml(params.domain)}</title>
<link rel="stylesheet" href="${to('assets/style.css')}">
<link rel="icon" href="${to('assets/logo.png')}">
<script src="${to('assets/app.js')}" defer></script>
</head>
<body>
<header><a class="brand" href="${to('index.html')}"><img src="${to('assets/logo.png')}" alt="" width="16" height="16"> ${escapeHtml(params.domain)}</a>
<input id="search" type="search" placeholder="Search" aria-label="Search"><ul id="results"></ul></header>
<main>
${markdownToHtml(markdown)}
</main>
<footer>Static export of ${escapeHtml(params.domain)}, build ${params.revision + 1}</footer>
</body>
</html>
`;
}

function indexMarkdown(params: SiteParams, pages: PageSpec[]): string {
  const random = seededRandom(`${params.domain}|${params.revision}|index.html`);
  const lines = [`# ${params.domain} documentation`, '', paragraph(random), ''];
  for (const section of SECTIONS) {
    const inSection = pages.filter((page) => page.path.startsWith(`${section}/`));
    if (inSection.length === 0) continue;
    lines.push(`## ${titleCase(section)}`, '');
    for (const page of inSection) lines.push(`- [${page.title}](${page.path})`);
    lines.push('');
  }
  return lines.join('\n');
}

function pageMarkdown(params: SiteParams, pages: PageSpec[], index: number): string {
  const page = pages[index] as PageSpec;
  const previous = pages[index - 1] as PageSpec;
  const next = pages[(index + 1) % pages.length] as PageSpec;
  const random = seededRandom(`${params.domain}|${params.revision}|${page.path}`);
  return [
    `# ${page.title}`,
    '',
    paragraph(random),
    '',
    '## Overview',
    '',
    paragraph(random),
    '',
    `- Previous: [${previous.title}](${relative(page.path, previous.path)})`,
    `- Next: [${next.title}](${relative(page.path, next.path)})`,
    `- Back to the [overview](${relative(page.path, 'index.html')})`,
    '',
    '```',
    `docs export --page ${page.path} --format html`,
    '```',
    '',
    '## Details',
    '',
    `${paragraph(random)} See \`${page.path}\` for the **${page.title}** source.`,
    '',
  ].join('\n');
}

function paragraph(random: () => number): string {
  const sentences = 3 + Math.floor(random() * 3);
  return Array.from({ length: sentences }, () => sentence(random)).join(' ');
}

function sentence(random: () => number): string {
  const length = 8 + Math.floor(random() * 7);
  const words = Array.from({ length }, () => WORDS[Math.floor(random() * WORDS.length)] as string);
  const text = words.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** Deterministic PRNG (FNV-1a seed, mulberry32 stream). */
function seededRandom(seed: string): () => number {
  let state = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) state = Math.imul(state ^ seed.charCodeAt(i), 0x01000193);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The Markdown subset the generator writes: headings, paragraphs, lists, code fences, inline links. */
export function markdownToHtml(markdown: string): string {
  const html: string[] = [];
  let list = false;
  let code = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) {
      html.push(code ? '</code></pre>' : '<pre><code>');
      code = !code;
      continue;
    }
    if (code) {
      html.push(escapeHtml(line));
      continue;
    }
    const item = /^- (.*)$/.exec(line);
    if (item === null && list) {
      html.push('</ul>');
      list = false;
    }
    const heading = /^(#{1,3}) (.*)$/.exec(line);
    if (heading) {
      const level = (heading[1] as string).length;
      html.push(`<h${level}>${inline(heading[2] as string)}</h${level}>`);
    } else if (item) {
      if (!list) html.push('<ul>');
      list = true;
      html.push(`<li>${inline(item[1] as string)}</li>`);
    } else if (line.trim() !== '') {
      html.push(`<p>${inline(line)}</p>`);
    }
  }
  if (list) html.push('</ul>');
  return html.join('\n');
}

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/`([^`]+)`/g, '<code>$1</code>');
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const STYLE_CSS = `/* Static export theme: no web fonts, no remote assets. */
:root { --accent: #0d9373; --text: #1f2933; }
body { margin: 0; font: 16px/1.6 system-ui, sans-serif; color: var(--text); }
header { display: flex; gap: 1rem; align-items: center; padding: 0.75rem 1.5rem; border-bottom: 1px solid #e4e7eb; }
.brand { font-weight: 600; color: var(--accent); text-decoration: none; }
main { max-width: 48rem; margin: 0 auto; padding: 1.5rem; }
pre { background: #f5f7fa; padding: 1rem; overflow-x: auto; }
footer { padding: 1.5rem; color: #7b8794; font-size: 0.875rem; text-align: center; }
#results { position: absolute; list-style: none; margin: 2.5rem 0 0; padding: 0; background: #fff; }
`;

const APP_JS = `/* Static export client: offline search over search-index.json, no network beyond the site. */
(function () {
  var root = document.documentElement.getAttribute('data-root') || '';
  var input = document.getElementById('search');
  var results = document.getElementById('results');
  if (!input || !results) return;
  var pages = [];
  fetch(root + 'search-index.json')
    .then(function (response) { return response.json(); })
    .then(function (index) { pages = index; });
  input.addEventListener('input', function () {
    var query = input.value.trim().toLowerCase();
    results.textContent = '';
    if (query === '') return;
    pages
      .filter(function (page) { return page.title.toLowerCase().indexOf(query) !== -1; })
      .slice(0, 8)
      .forEach(function (page) {
        var item = document.createElement('li');
        var link = document.createElement('a');
        link.href = root + page.path;
        link.textContent = page.title;
        item.appendChild(link);
        results.appendChild(item);
      });
  });
})();
`;

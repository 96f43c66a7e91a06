/**
 * Writes a small project for each generator: the same pages (content.ts) turned into a
 * Next.js 16 App Router static export with MDX, a VitePress 1 site and an Astro 5 +
 * Starlight site. Each returns the command that builds it and where the output lands.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  type Generator,
  LEAKY_EMBEDS,
  LOGO_PNG,
  OUTBOUND_LINKS,
  type Page,
  type Variant,
} from './content.js';

export interface Project {
  /** Arguments to the generator's binary in node_modules/.bin. */
  command: [string, ...string[]];
  /** Directory of the built site, relative to the project. */
  output: string;
}

async function write(root: string, file: string, content: string | Buffer): Promise<void> {
  const target = path.join(root, file);
  await fs.mkdir(path.dirname(target), { recursive: true });
  await fs.writeFile(target, content);
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

export async function writeProject(
  generator: Generator,
  root: string,
  pages: Page[],
  variant: Variant,
  generatorsDir: string,
): Promise<Project> {
  if (generator === 'next') return writeNext(root, pages, variant, generatorsDir);
  if (generator === 'vitepress') return writeVitePress(root, pages, variant);
  return writeStarlight(root, pages, variant);
}

/** The page that carries the leaky embeds. */
const EMBED_ROUTE = 'guides/getting-started';

async function writeNext(
  root: string,
  pages: Page[],
  variant: Variant,
  generatorsDir: string,
): Promise<Project> {
  await write(
    root,
    'next.config.mjs',
    `import createMDX from '@next/mdx';
const withMDX = createMDX({});
export default withMDX({
  output: 'export',
  images: { unoptimized: true },
  pageExtensions: ['js', 'jsx', 'md', 'mdx'],
  turbopack: { root: ${JSON.stringify(generatorsDir)} },
});
`,
  );
  await write(
    root,
    'mdx-components.js',
    `import Link from 'next/link';
export function useMDXComponents(components) {
  return {
    ...components,
    a: ({ href = '', ...props }) =>
      href.startsWith('/') ? <Link href={href} {...props} /> : <a href={href} {...props} />,
  };
}
`,
  );
  const nav = pages
    .map((p) => `        <li><Link href="/${p.route}">${p.title}</Link></li>`)
    .join('\n');
  const leakyHead =
    variant === 'leaky'
      ? `
        <link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter&display=swap" />
        <script type="importmap" dangerouslySetInnerHTML={{ __html: ${JSON.stringify(json({ imports: { confetti: 'https://esm.sh/canvas-confetti@1.9.3' } }))} }} />
        <script type="module" dangerouslySetInnerHTML={{ __html: 'import confetti from "confetti"; window.confetti = confetti;' }} />`
      : '';
  const leakyBody =
    variant === 'leaky'
      ? `
        <Script src="https://cdn.segment.com/analytics.js/v1/exampleWriteKey/analytics.min.js" strategy="afterInteractive" />
        <Script src="https://www.googletagmanager.com/gtag/js?id=G-EXAMPLE1" strategy="lazyOnload" />
        <Script id="banner" strategy="afterInteractive">{\`var s = document.createElement('script'); s.src = 'https://cdn.jsdelivr.net/npm/canvas-confetti@1.9.3/dist/confetti.browser.min.js'; document.head.appendChild(s);\`}</Script>`
      : '';
  await write(
    root,
    'app/layout.jsx',
    `import Image from 'next/image';
import Link from 'next/link';
import Script from 'next/script';

export const metadata = {
  metadataBase: new URL('https://docs.example.com'),
  title: 'Example Docs',
  alternates: { canonical: './' },
  openGraph: { title: 'Example Docs', url: './', images: ['/logo.png'] },
};

const organization = {
  '@context': 'https://schema.org',
  '@type': 'Organization',
  name: 'Example',
  url: 'https://www.example.com',
  logo: 'https://docs.example.com/logo.png',
};

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <head>
        <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON.stringify(organization) }} />${leakyHead}
      </head>
      <body>
        <header>
          <Link href="/"><Image src="/logo.png" alt="Example" width={32} height={32} /></Link>
          <a href="${OUTBOUND_LINKS[0]}">GitHub</a>
        </header>
        <nav><ul>
${nav}
        </ul></nav>
        <main>{children}</main>${leakyBody}
      </body>
    </html>
  );
}
`,
  );
  await write(
    root,
    'app/manifest.js',
    `export const dynamic = 'force-static';
export default function manifest() {
  return {
    name: 'Example Docs',
    short_name: 'Docs',
    start_url: '/',
    display: 'standalone',
    icons: [{ src: '/logo.png', sizes: '1x1', type: 'image/png' }],
  };
}
`,
  );
  await write(root, 'public/logo.png', LOGO_PNG);
  for (const page of pages) {
    const embeds = variant === 'leaky' && page.route === EMBED_ROUTE ? `\n\n${LEAKY_EMBEDS}` : '';
    const dir = page.route === '' ? 'app' : `app/${page.route}`;
    await write(
      root,
      `${dir}/page.mdx`,
      `import Image from 'next/image'\n\n# ${page.title}\n\n<Image src="/logo.png" alt="" width={16} height={16} />\n\n${page.body}${embeds}\n`,
    );
  }
  return { command: ['next', 'build'], output: 'out' };
}

/**
 * A Shiki transformer that lifts its time limit on highlighting a line: past 500 ms it
 * colours the rest of the line as one token, so on a loaded machine two builds of one
 * page differed in their code samples' colours.
 */
const NO_TIME_LIMIT = `{ name: 'no-time-limit', preprocess(code, options) { options.tokenizeTimeLimit = 0; } }`;

async function writeVitePress(root: string, pages: Page[], variant: Variant): Promise<Project> {
  const head: unknown[] = [['link', { rel: 'icon', href: '/logo.png' }]];
  if (variant === 'leaky') {
    head.push(
      ['link', { rel: 'preconnect', href: 'https://fonts.gstatic.com', crossorigin: '' }],
      [
        'link',
        { rel: 'stylesheet', href: 'https://fonts.googleapis.com/css2?family=Inter&display=swap' },
      ],
      [
        'link',
        {
          rel: 'stylesheet',
          href: 'https://cdn.jsdelivr.net/npm/katex@0.16.11/dist/katex.min.css',
        },
      ],
      ['script', { async: '', src: 'https://www.googletagmanager.com/gtag/js?id=G-EXAMPLE1' }],
      [
        'script',
        {},
        "!function(t,e){var o,n,p,r;e.__SV||(window.posthog=e,e._i=[],e.init=function(i,s,a){(p=t.createElement('script')).type='text/javascript',p.async=!0,p.src=s.api_host.replace('.i.posthog.com','-assets.i.posthog.com')+'/static/array.js',(r=t.getElementsByTagName('script')[0]).parentNode.insertBefore(p,r);e._i.push([i,s,a])},e.__SV=1)}(document,window.posthog||[]);posthog.init('phc_example',{api_host:'https://us.i.posthog.com'});",
      ],
      [
        'script',
        { type: 'module' },
        "import mermaid from 'https://cdn.jsdelivr.net/npm/mermaid@11/dist/mermaid.esm.min.mjs'; mermaid.initialize({ startOnLoad: true });",
      ],
    );
  }
  const config = {
    title: 'Example Docs',
    cleanUrls: true,
    head,
    themeConfig: {
      logo: '/logo.png',
      nav: [{ text: 'Guides', link: '/guides/getting-started' }],
      sidebar: pages.map((p) => ({ text: p.title, link: `/${p.route}` })),
      socialLinks: [{ icon: 'github', link: OUTBOUND_LINKS[0] }],
      search:
        variant === 'leaky'
          ? {
              provider: 'algolia',
              options: { appId: 'EXAMPLEAPP1', apiKey: 'example-search-key', indexName: 'docs' },
            }
          : { provider: 'local' },
    },
  };
  // No time limit on Shiki's highlighting of a line, as for Starlight (below).
  await write(
    root,
    'docs/.vitepress/config.mjs',
    `export default { ...${json(config)}, markdown: { codeTransformers: [${NO_TIME_LIMIT}] } };\n`,
  );
  await write(root, 'docs/public/logo.png', LOGO_PNG);
  for (const page of pages) {
    const embeds = variant === 'leaky' && page.route === EMBED_ROUTE ? `\n\n${LEAKY_EMBEDS}` : '';
    const file = page.route === '' ? 'docs/index.md' : `docs/${page.route}.md`;
    await write(root, file, `# ${page.title}\n\n![Logo](/logo.png)\n\n${page.body}${embeds}\n`);
  }
  return { command: ['vitepress', 'build', 'docs'], output: 'docs/.vitepress/dist' };
}

async function writeStarlight(root: string, pages: Page[], variant: Variant): Promise<Project> {
  const head: unknown[] = [];
  if (variant === 'leaky') {
    head.push(
      {
        tag: 'script',
        content:
          "window.$crisp=[];window.CRISP_WEBSITE_ID='00000000-0000-0000-0000-000000000000';(function(){var d=document,s=d.createElement('script');s.src='https://client.crisp.chat/l.js';s.async=1;d.getElementsByTagName('head')[0].appendChild(s);})();",
      },
      {
        tag: 'script',
        content:
          "(function(){var s=document.createElement('script');s.async=true;s.src='https://widget.intercom.io/widget/exampleapp';document.head.appendChild(s);})();",
      },
      {
        tag: 'script',
        attrs: {
          src: 'https://cdn.jsdelivr.net/npm/canvas-confetti@1.9.3/dist/confetti.browser.min.js',
          defer: true,
        },
      },
      {
        tag: 'link',
        attrs: {
          rel: 'stylesheet',
          href: 'https://cdn.jsdelivr.net/npm/katex@0.16.11/dist/katex.min.css',
        },
      },
    );
  }
  await write(
    root,
    'astro.config.mjs',
    `import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';
export default defineConfig({
  site: 'https://docs.example.com',
  integrations: [
    starlight({
      title: 'Example Docs',
      social: [{ icon: 'github', label: 'GitHub', href: ${JSON.stringify(OUTBOUND_LINKS[0])} }],
      head: ${json(head)},
      sidebar: ${json(pages.filter((p) => p.route !== '').map((p) => ({ label: p.title, link: `/${p.route}/` })))},
      expressiveCode: { shiki: { transformers: [${NO_TIME_LIMIT}] } },
    }),
  ],
});
`,
  );
  await write(
    root,
    'src/content.config.mjs',
    `import { defineCollection } from 'astro:content';
import { docsLoader } from '@astrojs/starlight/loaders';
import { docsSchema } from '@astrojs/starlight/schema';
export const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };
`,
  );
  await write(root, 'public/logo.png', LOGO_PNG);
  // Starlight links /favicon.svg from every page; the leaky site leaves it out (a broken link).
  if (variant === 'clean')
    await write(
      root,
      'public/favicon.svg',
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>\n',
    );
  for (const page of pages) {
    const embeds = variant === 'leaky' && page.route === EMBED_ROUTE ? `\n\n${LEAKY_EMBEDS}` : '';
    const file =
      page.route === '' ? 'src/content/docs/index.md' : `src/content/docs/${page.route}.md`;
    await write(
      root,
      file,
      `---\ntitle: ${JSON.stringify(page.title)}\n---\n\n![Logo](/logo.png)\n\n${page.body}${embeds}\n`,
    );
  }
  return { command: ['astro', 'build'], output: 'dist' };
}

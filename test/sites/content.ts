/**
 * The content the fixture sites are built from: the same small documentation site for
 * every generator, in a clean variant (loads nothing from outside itself, but links to
 * outside pages as real docs do) and a leaky one (analytics, chat widgets, fonts, CDN
 * scripts, embeds and outside images, as real docs sites add them).
 */

export type Generator = 'next' | 'vitepress' | 'starlight';
export type Variant = 'clean' | 'leaky';

export interface Page {
  /** Route without extension or slashes at the ends; '' is the home page. */
  route: string;
  title: string;
  /** Markdown (also valid MDX: no bare `<`, `{` or HTML comments). */
  body: string;
}

export const OUTBOUND_LINKS = [
  'https://github.com/example/docs',
  'https://developer.mozilla.org/en-US/docs/Web/HTTP',
  'https://datatracker.ietf.org/doc/html/rfc9110',
];

/** Hosts a leaky build makes the browser contact when its pages load (per generator). */
export const LEAKY_LOADS: Record<Generator, string[]> = {
  next: [
    'fonts.googleapis.com',
    'cdn.segment.com',
    'www.googletagmanager.com',
    'esm.sh',
    'www.youtube-nocookie.com',
    'images.unsplash.com',
    'cdn.jsdelivr.net',
  ],
  vitepress: [
    'fonts.googleapis.com',
    'www.googletagmanager.com',
    'us-assets.i.posthog.com',
    'cdn.jsdelivr.net',
    'www.youtube-nocookie.com',
    'images.unsplash.com',
  ],
  starlight: [
    'client.crisp.chat',
    'widget.intercom.io',
    'cdn.jsdelivr.net',
    'www.youtube-nocookie.com',
    'images.unsplash.com',
  ],
};

export const PAGES: Page[] = [
  {
    route: '',
    title: 'Example Docs',
    body: [
      'Welcome to the documentation of the example product.',
      '',
      '- [Getting started](/guides/getting-started)',
      '- [Configuration](/guides/configuration)',
      '- [API reference](/reference/api)',
      '',
      `The source of these pages lives on [GitHub](${OUTBOUND_LINKS[0]}).`,
    ].join('\n'),
  },
  {
    route: 'guides/getting-started',
    title: 'Getting started',
    body: [
      'Install the command line tool, then run it once to create a configuration.',
      '',
      '```sh',
      'npm install --global example-cli',
      'example init',
      '```',
      '',
      'Continue with the [configuration](/guides/configuration) or read about',
      `[HTTP](${OUTBOUND_LINKS[1]}) first.`,
    ].join('\n'),
  },
  {
    route: 'guides/configuration',
    title: 'Configuration',
    body: [
      'Every setting has a default; the file only needs what you change.',
      '',
      '| Setting | Default |',
      '| --- | --- |',
      '| `timeout` | `30s` |',
      '| `retries` | `3` |',
      '',
      `Timeouts follow [RFC 9110](${OUTBOUND_LINKS[2]}). Back to [getting started](/guides/getting-started).`,
    ].join('\n'),
  },
  {
    route: 'reference/api',
    title: 'API reference',
    body: [
      'The API answers JSON over HTTPS.',
      '',
      '```js',
      "const response = await fetch('/api/v1/items');",
      '```',
      '',
      'See also the [CLI reference](/reference/cli).',
    ].join('\n'),
  },
  {
    route: 'reference/cli',
    title: 'CLI reference',
    body: [
      'The CLI prints `--help` for every command.',
      '',
      'Return to the [API reference](/reference/api) or the [home page](/).',
    ].join('\n'),
  },
];

/** Raw HTML a leaky site puts in one page: a video embed and an outside image. */
export const LEAKY_EMBEDS = [
  '<iframe src="https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ" width="560" height="315" title="Demo video"></iframe>',
  '',
  '<img src="https://images.unsplash.com/photo-1518770660439-4636190af475?w=400" alt="Circuit board" width="400" height="267" />',
].join('\n');

/** A 1×1 PNG, the sites' logo. */
export const LOGO_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The pages with per-build changes applied (another route's body, or a page removed),
 * then moved: the page at each route of `moves` is built at the route it maps to, where
 * the links to it lead too.
 */
export function pagesWith(
  edits: Readonly<Record<string, string | null>> = {},
  moves: Readonly<Record<string, string>> = {},
): Page[] {
  const edited = PAGES.flatMap((page) => {
    const edit = edits[page.route];
    if (edit === null) return [];
    return [edit === undefined ? page : { ...page, body: edit }];
  });
  return edited.map((page) => {
    let body = page.body;
    for (const [from, to] of Object.entries(moves))
      body = body.replaceAll(`](/${from})`, `](/${to})`);
    return { ...page, route: moves[page.route] ?? page.route, body };
  });
}

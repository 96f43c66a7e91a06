/**
 * The builds the change report is proven on: for Next.js, VitePress and Starlight, the standard
 * clean site, a second build of the same content, the site with one page edited, the
 * site with one page deleted (and the one link to it removed, since VitePress refuses dead
 * links), and the site with one page moved to another section. Built with the other fixtures (test/sites/build.ts) by .ci/run:
 *
 *   tsx test/sites/change-sites.ts
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSite, cachedSite, type SiteSpec } from './build.js';
import { PAGES } from './content.js';

export type ChangeGenerator = 'next' | 'vitepress' | 'starlight';

const bodyOf = (route: string) => PAGES.find((page) => page.route === route)?.body as string;

export const EDITED_ROUTE = 'guides/configuration';
export const DELETED_ROUTE = 'reference/cli';
/** The page that linked to the deleted one, edited to drop the link. */
export const RELINKED_ROUTE = 'reference/api';
/** The page moved to another section (the page above links to it there). */
export const MOVED = { from: 'reference/cli', to: 'guides/cli' };

export function changeSites(generator: ChangeGenerator) {
  const base: SiteSpec = { generator, variant: 'clean' };
  return {
    base,
    rebuilt: { ...base, rebuild: 2 },
    edited: {
      ...base,
      edits: {
        [EDITED_ROUTE]: bodyOf(EDITED_ROUTE).replace(
          'the file only needs what you change.',
          'the file only needs the settings you change.',
        ),
      },
    },
    deleted: {
      ...base,
      edits: {
        [DELETED_ROUTE]: null,
        [RELINKED_ROUTE]: bodyOf(RELINKED_ROUTE).replace(
          'See also the [CLI reference](/reference/cli).',
          'The CLI prints the same data as JSON.',
        ),
      },
    },
    moved: { ...base, moves: { [MOVED.from]: MOVED.to } },
  } satisfies Record<string, SiteSpec>;
}

export const CHANGE_GENERATORS: ChangeGenerator[] = ['next', 'vitepress', 'starlight'];

async function main(): Promise<void> {
  for (const generator of CHANGE_GENERATORS) {
    for (const [name, spec] of Object.entries(changeSites(generator))) {
      const cached = cachedSite(spec);
      if (cached) console.log(`Cached ${generator} ${name}: ${cached}`);
      else await buildSite(spec);
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

import { z } from 'zod';
import type { FoundReference } from './references.js';

const importMap = z.object({
  imports: z.record(z.string(), z.string()).optional(),
  scopes: z.record(z.string(), z.record(z.string(), z.string())).optional(),
});

/** The module URLs of a `<script type="importmap">`: what `import "name"` loads. */
export function urlsInImportMap(source: string): string[] {
  const parsed = importMap.safeParse(parseJson(source));
  if (!parsed.success) return [];
  const { imports = {}, scopes = {} } = parsed.data;
  return [...Object.values(imports), ...Object.values(scopes).flatMap((s) => Object.values(s))];
}

const manifestImage = z.object({ src: z.string() }).passthrough();
const webManifest = z
  .object({
    start_url: z.string().optional(),
    scope: z.string().optional(),
    icons: z.array(manifestImage).optional(),
    screenshots: z.array(manifestImage).optional(),
    shortcuts: z
      .array(z.object({ url: z.string().optional(), icons: z.array(manifestImage).optional() }))
      .optional(),
    related_applications: z.array(z.object({ url: z.string().optional() })).optional(),
  })
  .passthrough();

/**
 * The references of a web app manifest: icons and screenshots are fetched by the
 * browser; `start_url`, `scope` and shortcuts are where an installed app navigates;
 * related applications are store listings nobody loads. Offsets point at the URL text.
 */
export function referencesInWebManifest(source: string): FoundReference[] {
  const parsed = webManifest.safeParse(parseJson(source));
  if (!parsed.success) return [];
  const manifest = parsed.data;
  const found: FoundReference[] = [];
  const add = (url: string | undefined, role: FoundReference['role'], via: string) => {
    if (url === undefined) return;
    const at = source.indexOf(JSON.stringify(url).slice(1, -1));
    found.push({ url, offset: Math.max(0, at), role, via });
  };
  for (const icon of manifest.icons ?? []) add(icon.src, 'load', 'manifest icons');
  for (const shot of manifest.screenshots ?? []) add(shot.src, 'load', 'manifest screenshots');
  for (const shortcut of manifest.shortcuts ?? []) {
    add(shortcut.url, 'link', 'manifest shortcuts');
    for (const icon of shortcut.icons ?? []) add(icon.src, 'load', 'manifest icons');
  }
  add(manifest.start_url, 'link', 'manifest start_url');
  add(manifest.scope, 'link', 'manifest scope');
  for (const app of manifest.related_applications ?? [])
    add(app.url, 'metadata', 'manifest related_applications');
  return found;
}

/** The value of a JSON text, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

import fs from 'node:fs/promises';
import path from 'node:path';
import type { ExtractLimits } from '../../src/config.js';
import { type ExtractedSite, ExtractingSink } from '../../src/deliver/extract.js';

export const GENEROUS: ExtractLimits = { maxBytes: 1 << 30, maxEntries: 100_000, maxRatio: 0 };

export type Outcome = { ok: true; site: ExtractedSite } | { ok: false; error: Error };

/**
 * Extracts `archive` into `root` in process, as the action does while downloading: the
 * bytes arrive in `chunk`-sized pieces, zip is finished from the file. The archive file is
 * written beside `root`, never inside it.
 */
export async function extractBuffer(
  archive: Buffer,
  root: string,
  limits: ExtractLimits = GENEROUS,
  options: { chunk?: number; signal?: AbortSignal } = {},
): Promise<Outcome> {
  await fs.mkdir(root, { recursive: true });
  const file = `${root}.archive`;
  await fs.writeFile(file, archive);
  const sink = new ExtractingSink(root, limits, options.signal);
  const chunk = options.chunk ?? 64 * 1024;
  try {
    for (let at = 0; at < archive.length; at += chunk) {
      await sink.write(archive.subarray(at, at + chunk));
    }
    return { ok: true, site: await sink.finish(file) };
  } catch (error) {
    await sink.abort();
    return { ok: false, error: error as Error };
  } finally {
    await fs.rm(file, { force: true });
  }
}

/** Every path under `dir`, `/`-separated, directories with a trailing slash, sorted. */
export async function treeOf(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .map((e) => {
      const rel = path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/');
      return e.isDirectory() ? `${rel}/` : rel;
    })
    .sort();
}

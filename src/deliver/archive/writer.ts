import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { UnsafeArchiveError } from '../../errors.js';
import type { PlannedEntry } from './entries.js';

/** A regular file as extracted: what the export manifest lists. */
export interface WrittenFile {
  /** `/`-separated path inside the site. */
  path: string;
  size: number;
  sha256: string;
  executable: boolean;
}

export interface WrittenSymlink {
  path: string;
  target: string;
}

/** Every file and link of the extracted site, hashed on the way to disk, sorted by path. */
export interface SiteContents {
  files: WrittenFile[];
  symlinks: WrittenSymlink[];
}

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
  /** Keyed by relative path: an entry written twice keeps its last content, as on disk. */
  readonly #written = new Map<string, WrittenFile | WrittenSymlink>();
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

  /** What was written so far, sorted by path: the manifest's file list. */
  contents(): SiteContents {
    const files: WrittenFile[] = [];
    const symlinks: WrittenSymlink[] = [];
    for (const record of this.#written.values()) {
      if ('sha256' in record) files.push(record);
      else symlinks.push(record);
    }
    const byPath = (a: { path: string }, b: { path: string }) =>
      a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
    return { files: files.sort(byPath), symlinks: symlinks.sort(byPath) };
  }

  /** Writes a file whose whole content is in memory. */
  file(entry: PlannedEntry, data: Buffer): void {
    this.#ensureDirectory(path.dirname(entry.absolute));
    fs.writeFileSync(entry.absolute, data, { mode: entry.mode });
    this.#record(entry, data.length, createHash('sha256').update(data).digest('hex'));
  }

  /** Streams a large file to disk chunk by chunk, hashing it on the way. */
  async fileFromChunks(entry: PlannedEntry, content: AsyncIterable<Uint8Array>): Promise<void> {
    this.#ensureDirectory(path.dirname(entry.absolute));
    const hash = createHash('sha256');
    let size = 0;
    const fd = fs.openSync(entry.absolute, 'w', entry.mode);
    try {
      for await (const chunk of content) {
        fs.writeSync(fd, chunk);
        hash.update(chunk);
        size += chunk.length;
      }
    } finally {
      fs.closeSync(fd);
    }
    this.#record(entry, size, hash.digest('hex'));
  }

  symlink(entry: PlannedEntry): void {
    this.#ensureDirectory(path.dirname(entry.absolute));
    fs.symlinkSync(entry.linkTarget as string, entry.absolute);
    this.#written.set(entry.relative, { path: entry.relative, target: entry.linkTarget as string });
  }

  /** A hard link shares its source's bytes, so it shares its record too. */
  hardlink(entry: PlannedEntry): void {
    this.#ensureDirectory(path.dirname(entry.absolute));
    fs.linkSync(entry.linkSource as string, entry.absolute);
    const sourceRelative = entry.linkSourceRelative as string;
    const source = this.#written.get(sourceRelative);
    if (source === undefined || !('sha256' in source)) {
      throw new UnsafeArchiveError(
        `Refusing to extract the archive: the hard link "${entry.relative}" points at "${sourceRelative}", which is not a file extracted before it.`,
      );
    }
    this.#files += 1;
    this.#written.set(entry.relative, { ...source, path: entry.relative });
  }

  #record(entry: PlannedEntry, size: number, sha256: string): void {
    this.#files += 1;
    this.#written.set(entry.relative, {
      path: entry.relative,
      size,
      sha256,
      executable: (entry.mode & 0o111) !== 0,
    });
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

import fs from 'node:fs/promises';
import path from 'node:path';
import { UnsafeArchiveError } from '../../errors.js';
import type { PlannedEntry } from './entries.js';

/** Files up to this size are read whole and written in the background. */
export const SMALL_FILE_BYTES = 1024 * 1024;

export interface WriterOptions {
  /** Background writes at once (they run on libuv's thread pool). */
  maxConcurrent?: number;
  /** Bytes of file content held in memory for background writes. */
  maxBufferedBytes?: number;
}

/**
 * Writes planned entries under the destination root. Small files are written in the
 * background, a bounded number at a time, so that extraction overlaps file I/O without
 * holding more than `maxBufferedBytes` in memory.
 */
export class SiteWriter {
  readonly #dirs = new Set<string>();
  readonly #pending = new Map<string, Promise<void>>();
  readonly #inflight = new Set<Promise<void>>();
  readonly #maxConcurrent: number;
  readonly #maxBufferedBytes: number;
  #bufferedBytes = 0;
  #failure: unknown;
  #files = 0;

  constructor(
    readonly root: string,
    options: WriterOptions = {},
  ) {
    this.#dirs.add(root);
    this.#maxConcurrent = options.maxConcurrent ?? 16;
    this.#maxBufferedBytes = options.maxBufferedBytes ?? 32 * 1024 * 1024;
  }

  get fileCount(): number {
    return this.#files;
  }

  async directory(entry: PlannedEntry): Promise<void> {
    await this.#ensureDirectory(entry.absolute);
  }

  /** Writes a file whose whole content is in memory; returns once it is scheduled. */
  async fileFromBuffer(entry: PlannedEntry, data: Buffer): Promise<void> {
    this.#throwIfFailed();
    while (
      this.#inflight.size >= this.#maxConcurrent ||
      (this.#bufferedBytes + data.length > this.#maxBufferedBytes && this.#inflight.size > 0)
    ) {
      await Promise.race(this.#inflight);
      this.#throwIfFailed();
    }
    await this.#ensureDirectory(path.dirname(entry.absolute));
    this.#files += 1;
    const before = this.#pending.get(entry.absolute);
    this.#bufferedBytes += data.length;
    const write = (async () => {
      await before;
      await fs.writeFile(entry.absolute, data, { mode: entry.mode });
    })();
    this.#track(entry.absolute, write, data.length);
  }

  /** Streams a large file to disk, chunk by chunk; returns when it is written. */
  async fileFromChunks(entry: PlannedEntry, content: AsyncIterable<Uint8Array>): Promise<void> {
    this.#throwIfFailed();
    await this.#ensureDirectory(path.dirname(entry.absolute));
    await this.#pending.get(entry.absolute);
    this.#files += 1;
    const handle = await fs.open(entry.absolute, 'w', entry.mode);
    try {
      for await (const chunk of content) await handle.write(chunk);
    } finally {
      await handle.close();
    }
  }

  async symlink(entry: PlannedEntry): Promise<void> {
    this.#throwIfFailed();
    await this.#ensureDirectory(path.dirname(entry.absolute));
    await fs.symlink(entry.linkTarget as string, entry.absolute);
  }

  async hardlink(entry: PlannedEntry): Promise<void> {
    this.#throwIfFailed();
    await this.#ensureDirectory(path.dirname(entry.absolute));
    await this.#pending.get(entry.linkSource as string);
    this.#throwIfFailed();
    this.#files += 1;
    await fs.link(entry.linkSource as string, entry.absolute);
  }

  /** Waits for every background write; throws the first failure. */
  async finish(): Promise<void> {
    await Promise.allSettled(this.#inflight);
    this.#throwIfFailed();
  }

  /**
   * Checks where every extracted symlink really resolves (following chains of links
   * the archive created): each must stay inside the root.
   */
  async verifySymlinks(relatives: readonly string[]): Promise<void> {
    if (relatives.length === 0) return;
    const realRoot = await fs.realpath(this.root);
    for (const relative of relatives) {
      const absolute = path.join(this.root, ...relative.split('/'));
      let resolved: string;
      try {
        resolved = await fs.realpath(absolute);
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

  #track(file: string, write: Promise<void>, bytes: number): void {
    const settled = write.then(
      () => undefined,
      (err: unknown) => {
        this.#failure ??= err;
      },
    );
    const done = settled.finally(() => {
      this.#bufferedBytes -= bytes;
      this.#inflight.delete(done);
      if (this.#pending.get(file) === settled) this.#pending.delete(file);
    });
    this.#pending.set(file, settled);
    this.#inflight.add(done);
  }

  async #ensureDirectory(dir: string): Promise<void> {
    if (this.#dirs.has(dir)) return;
    await fs.mkdir(dir, { recursive: true, mode: 0o755 });
    for (let d = dir; d.length > this.root.length && !this.#dirs.has(d); d = path.dirname(d)) {
      this.#dirs.add(d);
    }
  }

  #throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }
}

import fs from 'node:fs/promises';
import path from 'node:path';
import type { ExtractLimits } from '../config.js';
import { UnsafeArchiveError } from '../errors.js';
import { readTree } from '../tree-walk.js';
import type { ByteSink } from './download.js';
import { isFullDisk, withDiskSpace } from './full-disk.js';
import { type ArchiveFormat, detectFormat, refusalOf, SNIFF_BYTES } from './archive/format.js';
import { type ExtractResult, TarExtraction } from './archive/tar.js';
import type { WrittenFileListener } from './archive/writer.js';
import { extractZip } from './archive/zip.js';

export interface ExtractedSite extends ExtractResult {
  format: ArchiveFormat;
}

/**
 * Extracts the archive into `stagingDir` while it downloads: the format is read from
 * the first bytes, tar and tar.gz are extracted as they stream in, zip (whose
 * directory sits at the end) once the file is complete. Non-archives are refused as
 * soon as their first bytes arrive.
 */
export class ExtractingSink implements ByteSink {
  #head: Buffer[] = [];
  #headBytes = 0;
  #format: ArchiveFormat | undefined;
  #tar: TarExtraction | undefined;

  /**
   * `signal` (the step's deadline, a cancellation) interrupts extraction too;
   * `onWritten` is told of each file as soon as it is on disk.
   */
  constructor(
    readonly stagingDir: string,
    readonly limits: ExtractLimits,
    readonly signal?: AbortSignal,
    readonly onWritten?: WrittenFileListener,
  ) {}

  get format(): ArchiveFormat | undefined {
    return this.#format;
  }

  /** Only zip (read from its end) and a format not yet known need the file. */
  needsFile(): boolean {
    return this.#format === undefined || this.#format === 'zip';
  }

  /** A plain tar has no checksum of its own; gzip (its CRC) and zip (one per entry) do. */
  needsChecksum(): boolean {
    return this.#format === undefined || this.#format === 'tar';
  }

  async write(chunk: Buffer): Promise<void> {
    try {
      if (this.#format === undefined) {
        this.#head.push(chunk);
        this.#headBytes += chunk.length;
        if (this.#headBytes >= SNIFF_BYTES) await this.#begin();
        return;
      }
      await this.#tar?.write(chunk);
    } catch (err) {
      throw await this.#withSpace(err);
    }
  }

  async restart(): Promise<void> {
    await this.#tar?.abort();
    this.#tar = undefined;
    this.#format = undefined;
    this.#head = [];
    this.#headBytes = 0;
    await fs.rm(this.stagingDir, { recursive: true, force: true });
    await fs.mkdir(this.stagingDir, { recursive: true });
  }

  /** Completes extraction once the whole archive is in `file`. */
  async finish(file: string): Promise<ExtractedSite> {
    try {
      if (this.#format === undefined) await this.#begin();
      const format = this.#format as ArchiveFormat;
      const result =
        format === 'zip'
          ? await extractZip(file, this.stagingDir, this.limits, this.signal, this.onWritten)
          : await (this.#tar as TarExtraction).end();
      return { format, ...result };
    } catch (err) {
      throw await this.#withSpace(err);
    }
  }

  /** A full disk says how much of the site was on it, and what is free there. */
  async #withSpace(err: unknown): Promise<unknown> {
    if (!isFullDisk(err)) return err;
    // Added up only now: a run whose disk has room never pays for it.
    return withDiskSpace(err, { written: await bytesUnder(this.stagingDir) });
  }

  /** Stops any extraction in progress (on failure or cancellation). */
  async abort(): Promise<void> {
    await this.#tar?.abort();
  }

  async #begin(): Promise<void> {
    const head = Buffer.concat(this.#head);
    this.#head = [];
    const format = detectFormat(head);
    if (format === undefined) {
      throw new UnsafeArchiveError(refusalOf(head));
    }
    this.#format = format;
    if (format !== 'zip') {
      this.#tar = new TarExtraction(
        this.stagingDir,
        format,
        this.limits,
        this.signal,
        this.onWritten,
      );
      await this.#tar.write(head);
    }
  }
}

/** Reads the first bytes of a finished download and names its format, or refuses it. */
export async function sniffFile(file: string): Promise<ArchiveFormat> {
  const handle = await fs.open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
    const head = buffer.subarray(0, bytesRead);
    const format = detectFormat(head);
    if (format === undefined) {
      throw new UnsafeArchiveError(refusalOf(head));
    }
    return format;
  } finally {
    await handle.close();
  }
}

/** The bytes of the files below `dir` (what the extraction wrote); 0 where it cannot be read. */
async function bytesUnder(dir: string): Promise<number> {
  const entries = await readTree(dir).catch(() => []);
  const sizes = await Promise.all(
    entries
      .filter((entry) => entry.dirent.isFile())
      .map((entry) =>
        fs.lstat(path.join(dir, entry.path)).then(
          (stat) => stat.size,
          () => 0,
        ),
      ),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import type { ExtractLimits } from '../../config.js';
import { ActionError, UnsafeArchiveError } from '../../errors.js';
import { type ArchiveEntry, EntryGuard } from './entries.js';
import { type SiteContents, SiteWriter, SMALL_FILE_BYTES } from './writer.js';

export interface ExtractResult {
  files: number;
  entries: number;
  bytes: number;
  /** Every file (size, SHA-256) and link written: the export manifest is built from it. */
  contents: SiteContents;
}

/** Larger than zlib's 16 KB default: fewer callbacks per megabyte. */
const GUNZIP_CHUNK_BYTES = 256 * 1024;
/** Input handed to the decompressor at once. */
const BATCH_BYTES = 1024 * 1024;

const KIND: Record<string, ArchiveEntry['kind']> = {
  file: 'file',
  'contiguous-file': 'file',
  directory: 'directory',
  symlink: 'symlink',
  link: 'hardlink',
  'character-device': 'device',
  'block-device': 'device',
  fifo: 'fifo',
};

/**
 * Extracts a tar or tar.gz stream as its bytes arrive: `write` each chunk in order
 * (it waits while the extractor is busy), then `end`. Every entry passes the
 * EntryGuard before anything is written.
 */
export class TarExtraction {
  readonly #input = new PassThrough({ highWaterMark: 2 * BATCH_BYTES });
  readonly #done: Promise<ExtractResult>;
  #failure: Error | undefined;
  #batch: Buffer[] = [];
  #batchBytes = 0;

  constructor(root: string, format: 'tar' | 'tar.gz', limits: ExtractLimits) {
    this.#done = this.#run(root, format, limits).catch((err: unknown) => {
      this.#failure = mapArchiveError(err, format);
      throw this.#failure;
    });
    this.#done.catch(() => undefined);
  }

  async write(chunk: Buffer): Promise<void> {
    if (this.#failure) throw this.#failure;
    this.#batch.push(chunk);
    this.#batchBytes += chunk.length;
    if (this.#batchBytes >= BATCH_BYTES) await this.#flush();
  }

  /** Ends the input and waits until every entry is on disk and checked. */
  async end(): Promise<ExtractResult> {
    await this.#flush();
    this.#input.end();
    return this.#done;
  }

  /** Stops extracting; what was written stays for the caller to remove. */
  async abort(): Promise<void> {
    this.#input.destroy(new ActionError('extraction aborted'));
    await this.#done.catch(() => undefined);
  }

  /**
   * Hands the batched chunks on as one: each write into the decompressor is a round trip
   * through the thread pool, and 64 KB network chunks would make thousands of them.
   */
  async #flush(): Promise<void> {
    if (this.#batchBytes === 0) return;
    const data = this.#batch.length === 1 ? (this.#batch[0] as Buffer) : Buffer.concat(this.#batch);
    this.#batch = [];
    this.#batchBytes = 0;
    if (!this.#input.write(data)) {
      await Promise.race([once(this.#input, 'drain'), this.#done]);
      if (this.#failure) throw this.#failure;
    }
  }

  async #run(
    root: string,
    format: 'tar' | 'tar.gz',
    limits: ExtractLimits,
  ): Promise<ExtractResult> {
    const guard = new EntryGuard(root, limits);
    const writer = new SiteWriter(root);
    const extract = tar.extract();
    // The stream machinery reports a refused entry as "premature close": keep the cause.
    let refusal: unknown;
    extract.on('entry', (header, content, next) => {
      extractEntry(guard, writer, header, content).then(
        () => next(),
        (err: unknown) => {
          refusal ??= err;
          content.destroy();
          next(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
    try {
      if (format === 'tar.gz') {
        await pipeline(this.#input, createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES }), extract);
      } else await pipeline(this.#input, extract);
    } catch (err) {
      throw refusal ?? err;
    }
    writer.verifySymlinks(guard.symlinks);
    return {
      files: writer.fileCount,
      entries: guard.entryCount,
      bytes: guard.byteCount,
      contents: writer.contents(),
    };
  }
}

async function extractEntry(
  guard: EntryGuard,
  writer: SiteWriter,
  header: tar.Header,
  content: tar.Extract extends AsyncIterable<infer S> ? S : never,
): Promise<void> {
  const planned = guard.plan({
    name: header.name,
    kind: KIND[header.type ?? 'file'] ?? 'unknown',
    size: header.size ?? 0,
    ...(header.linkname ? { linkTarget: header.linkname } : {}),
    ...(header.mode !== undefined ? { mode: header.mode } : {}),
  });
  if (planned === undefined || planned.kind !== 'file') {
    for await (const _ of content); // no data to keep; the parser needs it consumed
    if (planned?.kind === 'directory') writer.directory(planned);
    else if (planned?.kind === 'symlink') writer.symlink(planned);
    else if (planned?.kind === 'hardlink') writer.hardlink(planned);
    return;
  }
  if (planned.size <= SMALL_FILE_BYTES) {
    const chunks: Buffer[] = [];
    for await (const chunk of content as AsyncIterable<Buffer>) chunks.push(chunk);
    writer.file(planned, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
  } else {
    await writer.fileFromChunks(planned, content as AsyncIterable<Buffer>);
  }
}

/** Parser and decompressor errors mean a corrupt or truncated archive: say so plainly. */
export function mapArchiveError(err: unknown, format: string): Error {
  if (err instanceof ActionError) return err;
  const error = err as NodeJS.ErrnoException;
  const message = error?.message ?? String(err);
  if (error?.code === 'ENOSPC') {
    return new ActionError(`Could not write the extracted site: the disk is full (${message}).`);
  }
  if (
    error?.code?.startsWith('Z_') ||
    /unexpected end|invalid tar header|truncated|incorrect header|corrupt/i.test(message)
  ) {
    return new UnsafeArchiveError(`The ${format} archive is truncated or corrupt (${message}).`);
  }
  if (error?.code && /^E[A-Z]+$/.test(error.code)) {
    return new ActionError(`Could not write the extracted site (${error.code}: ${message}).`);
  }
  return new UnsafeArchiveError(`The ${format} archive could not be read (${message}).`);
}

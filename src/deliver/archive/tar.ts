import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, type Gunzip } from 'node:zlib';
import type tar from 'tar-stream';
import type { ExtractLimits } from '../../config.js';
import { abortReason, ActionError, LocalFileError, UnsafeArchiveError } from '../../errors.js';
import { mayBeAppleDouble, peekHead } from './apple-double.js';
import { type ArchiveEntry, EntryGuard, printable } from './entries.js';
import { checkRunsFit, readMapFromData, sparseFileOf } from './sparse.js';
import { createTarParser, type ParsedHeader } from './tar-parser.js';
import type { SiteContents } from './listing.js';
import { SiteWriter, SMALL_FILE_BYTES, type WrittenFileListener } from './writer.js';

export interface ExtractResult {
  files: number;
  entries: number;
  bytes: number;
  /** macOS metadata files (`__MACOSX/`, AppleDouble `._` files) left out of the site. */
  macMetadata: number;
  /** Every file (size, SHA-256) and link written: the export manifest is built from it. */
  contents: SiteContents;
}

/** Larger than zlib's 16 KB default: fewer callbacks per megabyte. */
const GUNZIP_CHUNK_BYTES = 256 * 1024;
/** Input handed to the decompressor at once. */
const BATCH_BYTES = 1024 * 1024;
/** Batches in the ring: the decompressor holds the others while one fills. */
const GZIP_BATCHES = 3;

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

type EntryContent = tar.Extract extends AsyncIterable<infer S> ? S : never;

/**
 * Extracts a tar or tar.gz stream as its bytes arrive: `write` each chunk in order
 * (it waits while the extractor is busy), then `end`. Every entry passes the
 * EntryGuard before anything is written; `signal` (the step's deadline or a
 * cancellation) stops it between two chunks.
 */
export class TarExtraction {
  readonly #parser = createTarParser();
  /** Plain tar: the parser hands on slices of its input, so the chunks go in as they are. */
  readonly #input: PassThrough | undefined;
  /** tar.gz: the decompressor copies what it reads, so its batches are reused. */
  readonly #gunzip: Gunzip | undefined;
  readonly #ring: BatchRing | undefined;
  readonly #done: Promise<ExtractResult>;
  readonly #signal: AbortSignal | undefined;
  #settled = false;
  #failure: Error | undefined;
  #received = 0;

  constructor(
    root: string,
    format: 'tar' | 'tar.gz',
    limits: ExtractLimits,
    signal?: AbortSignal,
    onWritten?: WrittenFileListener,
  ) {
    this.#signal = signal;
    if (format === 'tar.gz') {
      this.#gunzip = createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES });
      this.#ring = new BatchRing(this.#gunzip);
    } else this.#input = new PassThrough({ highWaterMark: 2 * BATCH_BYTES });
    // The parser, not the input: once every byte has arrived, the input has ended and a
    // pipeline no longer listens to it, while the parser may still be writing files.
    const onAbort = () => this.#parser.destroy(abortReason(signal as AbortSignal));
    signal?.addEventListener('abort', onAbort, { once: true });
    this.#done = this.#run(root, format, limits, onWritten)
      .catch((err: unknown) => {
        this.#failure = signal?.aborted ? abortReason(signal) : mapArchiveError(err, format, root);
        throw this.#failure;
      })
      .finally(() => {
        this.#settled = true;
        this.#ring?.release();
        signal?.removeEventListener('abort', onAbort);
      });
    this.#done.catch(() => undefined);
    if (signal?.aborted) onAbort();
  }

  async write(chunk: Buffer): Promise<void> {
    if (this.#failure) throw this.#failure;
    this.#received += chunk.length;
    if (this.#ring) {
      await this.#ring.write(chunk, this.#done);
      if (this.#failure) throw this.#failure;
      return;
    }
    // Each chunk as it came: a small buffer the parser is done with soon dies young,
    // where one gathered megabyte outlives a collection or two and waits for a full one
    // (measured, 500,000 files: 139 MB and 6.0 s against 179 MB and 8.8 s).
    const input = this.#input as PassThrough;
    if (!input.write(chunk)) {
      await Promise.race([once(input, 'drain'), this.#done]);
      if (this.#failure) throw this.#failure;
    }
  }

  /** Ends the input and waits until every entry is on disk and checked. */
  async end(): Promise<ExtractResult> {
    if (this.#gunzip) {
      if (!this.#settled) {
        this.#ring?.flush();
        this.#gunzip.end();
      }
    } else {
      this.#input?.end();
    }
    return this.#done;
  }

  /** Stops extracting; what was written stays for the caller to remove. */
  async abort(): Promise<void> {
    (this.#gunzip ?? this.#input)?.destroy(new ActionError('extraction aborted'));
    await this.#done.catch(() => undefined);
  }

  async #run(
    root: string,
    format: 'tar' | 'tar.gz',
    limits: ExtractLimits,
    onWritten?: WrittenFileListener,
  ): Promise<ExtractResult> {
    const guard = new EntryGuard(root, limits, () => this.#received);
    const writer = new SiteWriter(root, onWritten);
    const extract = this.#parser;
    // The stream machinery reports a refused entry as "premature close": keep the cause.
    let refusal: unknown;
    extract.on('entry', (header, content, next) => {
      extractEntry(guard, writer, header as tar.Header & ParsedHeader, content).then(
        () => next(),
        (err: unknown) => {
          refusal ??= err;
          content.destroy();
          next(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
    try {
      await pipeline((this.#gunzip ?? this.#input) as Gunzip | PassThrough, extract);
    } catch (err) {
      throw refusal ?? err;
    }
    if (this.#signal?.aborted) throw abortReason(this.#signal);
    return completeExtraction(guard, writer);
  }
}

/**
 * The download's chunks on their way into the decompressor, copied into a few batches
 * of 1 MB that are used again once the decompressor has read them. Each write into the
 * decompressor is a round trip through the thread pool, so 64 KB network chunks are
 * gathered first; copied at once, each network chunk dies young, and the batches are
 * neither allocated nor faulted in again for every megabyte. A full ring waits for the
 * decompressor: the download runs at most a few batches ahead of it.
 */
class BatchRing {
  readonly #free: Buffer[] = [];
  #filling: Buffer | undefined;
  #filled = 0;
  #returned: (() => void) | undefined;
  #released = false;

  constructor(private readonly gunzip: Gunzip) {
    for (let i = 0; i < GZIP_BATCHES; i += 1) this.#free.push(Buffer.allocUnsafeSlow(BATCH_BYTES));
  }

  /** Copies `chunk` into the ring; resolves early once `done` settles (nothing reads on). */
  async write(chunk: Buffer, done: Promise<unknown>): Promise<void> {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.#filling === undefined) {
        while (this.#free.length === 0) {
          if (this.#released) return;
          await Promise.race([new Promise<void>((resolve) => (this.#returned = resolve)), done]);
        }
        this.#filling = this.#free.pop() as Buffer;
      }
      const copied = chunk.copy(this.#filling, this.#filled, offset);
      offset += copied;
      this.#filled += copied;
      if (this.#filled === BATCH_BYTES) this.flush();
    }
  }

  /** Hands the batch being filled to the decompressor. */
  flush(): void {
    const batch = this.#filling;
    if (batch === undefined || this.#filled === 0) return;
    this.gunzip.write(batch.subarray(0, this.#filled), () => {
      this.#free.push(batch);
      this.#returned?.();
    });
    this.#filling = undefined;
    this.#filled = 0;
  }

  /** The extraction is over: stop waiting for batches to come back. */
  release(): void {
    this.#released = true;
    this.#returned?.();
  }
}

/** Creates the links, checks where they lead, and gathers the result of an extraction. */
export function completeExtraction(guard: EntryGuard, writer: SiteWriter): ExtractResult {
  writer.finish(guard.tree);
  return {
    files: writer.fileCount,
    entries: guard.entryCount,
    bytes: guard.byteCount,
    macMetadata: guard.macMetadataCount,
    contents: writer.contents(guard.tree, guard.entryCount),
  };
}

async function drain(content: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of content); // no data to keep; the parser needs it consumed
}

async function gather(content: AsyncIterable<Buffer>): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of content) chunks.push(chunk);
  return chunks;
}

/**
 * The chunks of a small entry, gathered from its events: an async iterator per entry
 * costs more than most entries take to write.
 */
function collect(content: EntryContent): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let ended = false;
    content.on('data', (chunk) => chunks.push(chunk as Buffer));
    content.once('end', () => {
      ended = true;
      resolve(chunks);
    });
    content.once('error', reject);
    // Destroyed before its end (the archive stopped mid-entry): never wait for it.
    content.once('close', () => {
      if (!ended) reject(new Error('premature close'));
    });
  });
}

async function extractEntry(
  guard: EntryGuard,
  writer: SiteWriter,
  header: tar.Header & ParsedHeader,
  content: EntryContent,
): Promise<void> {
  const typeflag = header.typeflag;
  // A volume label names the archive (GNU tar skips it); a continuation belongs to a
  // multi-volume set, whose other parts are not here.
  if (typeflag === 'V') return drain(content);
  if (typeflag === 'M') {
    throw new UnsafeArchiveError(
      `Refusing to extract the archive: entry "${printable(header.name)}" continues a file from another volume of a multi-volume archive.`,
    );
  }
  const sparse = sparseFileOf(header);
  // A dumpdir (GNU incremental archives) is a directory whose data lists its contents; old
  // (pre-POSIX) archives mark a directory as a regular file whose name ends with a slash.
  const kind =
    typeflag === 'D' || (header.type === 'file' && header.name.endsWith('/'))
      ? 'directory'
      : (KIND[header.type ?? 'file'] ?? 'unknown');
  const described: ArchiveEntry = {
    name: sparse?.name ?? header.name,
    kind,
    size: sparse?.realSize ?? header.size ?? 0,
  };
  if (header.linkname) described.linkTarget = header.linkname;
  if (header.mode !== undefined) described.mode = header.mode;
  // A `._` file's first bytes tell an AppleDouble companion from a page; what they were
  // read from is the content from here on.
  let peeked: AsyncIterable<Buffer> | undefined;
  if (kind === 'file' && sparse === undefined && mayBeAppleDouble(described.name)) {
    const { head, content: whole } = await peekHead(content as AsyncIterable<Buffer>);
    described.head = head;
    peeked = whole;
  }
  const planned = guard.plan(described);
  // tar-stream never feeds a directory's size field as data (GNU tar ignores it too), so
  // reading its content would wait forever.
  if (header.type === 'directory') {
    if (planned) writer.directory(planned);
    return;
  }
  if (planned === undefined || planned.kind !== 'file') {
    await drain(peeked ?? content);
    if (planned?.kind === 'directory') writer.directory(planned);
    else if (planned?.kind === 'symlink') writer.symlink(planned);
    else if (planned?.kind === 'hardlink') writer.hardlink(planned);
    return;
  }
  if (sparse !== undefined) {
    const { runs, data } = sparse.runs
      ? { runs: sparse.runs, data: content as AsyncIterable<Buffer> }
      : await readMapFromData(header, content as AsyncIterable<Buffer>);
    checkRunsFit(header, runs, sparse.realSize);
    await writer.sparseFile(planned, runs, data);
    return;
  }
  if (planned.size <= SMALL_FILE_BYTES) {
    const chunks = peeked ? await gather(peeked) : await collect(content);
    writer.file(planned, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
  } else {
    await writer.fileFromChunks(planned, peeked ?? (content as AsyncIterable<Buffer>));
  }
}

/**
 * Parser and decompressor errors mean a corrupt or truncated archive: say so plainly. A
 * full disk is named by the directory being written (`root`), as the download's is.
 */
export function mapArchiveError(err: unknown, format: string, root?: string): Error {
  if (err instanceof ActionError) return err;
  const error = err as NodeJS.ErrnoException;
  const message = printable(error?.message ?? String(err));
  if (error?.code === 'ENOSPC' || error?.code === 'EDQUOT') {
    if (root !== undefined)
      return new LocalFileError({
        code: error.code,
        path: root,
        doing: 'write the extracted site into',
        cause: err,
      });
    return new ActionError(`Could not write the extracted site: the disk is full (${message}).`);
  }
  if (error?.code === 'ENAMETOOLONG') {
    return new UnsafeArchiveError(
      `Refusing to extract the archive: it holds a path longer than this filesystem accepts under the destination.`,
    );
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

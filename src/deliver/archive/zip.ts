import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import type { ExtractLimits } from '../../config.js';
import { ActionError, throwIfAborted, UnsafeArchiveError } from '../../errors.js';
import { mayBeAppleDouble, peekHead } from './apple-double.js';
import { type ArchiveEntry, checkExpansion, EntryGuard, printable } from './entries.js';
import { completeExtraction, type ExtractResult, mapArchiveError } from './tar.js';
import { SiteWriter, SMALL_FILE_BYTES, type WrittenFileListener } from './writer.js';

const S_IFMT = 0o170000;
const FILE_TYPE: Record<number, ArchiveEntry['kind']> = {
  0o100000: 'file',
  0o040000: 'directory',
  0o120000: 'symlink',
  0o020000: 'device',
  0o060000: 'device',
  0o010000: 'fifo',
  0o140000: 'unknown', // socket
};
const MAX_SYMLINK_TARGET = 4096;
const STORED = 0;
const DEFLATED = 8;
/** The methods a zip may name that this action does not extract, for a message that says which. */
const METHOD_NAMES: Record<number, string> = {
  1: 'Shrink',
  6: 'Implode',
  9: 'Deflate64',
  12: 'bzip2',
  14: 'LZMA',
  93: 'Zstandard',
  95: 'XZ',
  96: 'JPEG',
  97: 'WavPack',
  98: 'PPMd',
  99: 'AES encryption',
};
const EOCD_SIGNATURE = 0x06054b50;
const EOCD_BYTES = 22;
const LOCAL_HEADER_BYTES = 30;
const UTF8_NAMES = 0x800;
const UNICODE_PATH_FIELD = 0x7075;
/** The longest run of entries between two turns of the event loop (see EventLoopTurns). */
const TURN_MS = 20;

/**
 * Reads the zip file with synchronous calls: yauzl parses the directory and the local
 * headers through it, and a site's thousands of small entries each cost a read instead
 * of a thread-pool round trip. `size` may differ from the file's: see `endRecordSize`.
 */
class SyncFileReader extends yauzl.RandomAccessReader {
  constructor(
    readonly fd: number,
    readonly fileSize: number,
    readonly visibleSize: number,
  ) {
    super();
  }

  /** Large entries stream; the descriptor stays open (it belongs to extractZip). */
  override _readStreamForRange(start: number, end: number): Readable {
    const fd = this.fd;
    let position = start;
    return new Readable({
      read(size) {
        const length = Math.min(Math.max(size, 64 * 1024), end - position);
        if (length <= 0) {
          this.push(null);
          return;
        }
        const buffer = Buffer.allocUnsafe(length);
        fs.read(fd, buffer, 0, length, position, (err, bytesRead) => {
          if (err) return this.destroy(err);
          position += bytesRead;
          this.push(bytesRead > 0 ? buffer.subarray(0, bytesRead) : null);
        });
      },
    });
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (err: Error | null, bytesRead?: number) => void,
  ): void {
    let bytesRead: number;
    try {
      bytesRead = fs.readSync(this.fd, buffer, offset, length, position);
    } catch (err) {
      callback(err as Error);
      return;
    }
    // An end-record comment declared longer than what is left reads as zeros (as unzip does).
    const pastEnd = position + length > this.fileSize && position + length <= this.visibleSize;
    if (bytesRead < length && pastEnd) {
      buffer.fill(0, offset + bytesRead, offset + length);
      bytesRead = length;
    }
    callback(null, bytesRead);
  }

  override close(callback: (err: Error | null) => void): void {
    callback(null);
  }
}

/**
 * Extracts a zip file (its directory is at the end, so it cannot stream). The central
 * directory is read twice: first to refuse, before a byte is written, an archive whose
 * entries overlap (one stream counted many times), exceed the size, ratio or count
 * ceilings, or use a method or encryption this action does not read; then to extract
 * each entry through the same EntryGuard as tar entries, sizes and CRC-32 checked.
 */
export async function extractZip(
  file: string,
  root: string,
  limits: ExtractLimits,
  signal?: AbortSignal,
  onWritten?: WrittenFileListener,
): Promise<ExtractResult> {
  const fd = fs.openSync(file, 'r');
  try {
    const fileSize = fs.fstatSync(fd).size;
    const size = endRecordSize(fd, fileSize);
    const open = async () => {
      try {
        return await yauzl.fromRandomAccessReaderPromise(
          new SyncFileReader(fd, fileSize, size),
          size,
          {
            lazyEntries: true,
            autoClose: false,
            validateEntrySizes: true,
            decodeStrings: false,
          },
        );
      } catch (err) {
        throw mapZipError(err);
      }
    };
    const survey = await open();
    if (survey.entryCount > limits.maxEntries) {
      throw new UnsafeArchiveError(
        `Refusing to extract the archive: it has ${survey.entryCount} entries, more than ${limits.maxEntries} (raise \`max-extract-files\` if this is expected).`,
      );
    }
    await surveyEntries(survey, limits, fileSize);
    throwIfAborted(signal);

    const zip = await open();
    const guard = new EntryGuard(root, limits, () => fileSize);
    const writer = new SiteWriter(root, onWritten);
    try {
      await new Promise<void>((resolve, reject) => {
        zip.on('error', reject);
        zip.on('end', resolve);
        const turns = new EventLoopTurns();
        zip.on('entry', (entry: yauzl.Entry) => {
          extractZipEntry(zip, fd, entry, guard, writer, signal).then(
            () => turns.then(() => zip.readEntry()),
            reject,
          );
        });
        zip.readEntry();
      });
    } catch (err) {
      throw mapZipError(err, root);
    }
    return completeExtraction(guard, writer);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Runs the next step of a loop over entries: soon (a microtask), but every few
 * milliseconds on a later turn of the event loop. Small entries are read, inflated and
 * written with synchronous calls, so without these turns a zip of many small files would
 * hold the thread until its end, and neither the step's deadline (a timer) nor a
 * cancellation (a signal) could reach the `signal` checked before each entry.
 */
class EventLoopTurns {
  #since = performance.now();

  then(step: () => void): void {
    if (performance.now() - this.#since < TURN_MS) {
      queueMicrotask(step);
      return;
    }
    setImmediate(() => {
      this.#since = performance.now();
      step();
    });
  }
}

/**
 * The size yauzl should see. Some tools write an end record whose comment length is off
 * by some bytes (junk after it, or a comment cut short): unzip and bsdtar read those, so
 * the file is presented as ending where the record says it ends.
 */
function endRecordSize(fd: number, fileSize: number): number {
  const tailLength = Math.min(fileSize, EOCD_BYTES + 0xffff);
  const tail = Buffer.alloc(tailLength);
  fs.readSync(fd, tail, 0, tailLength, fileSize - tailLength);
  let last: number | undefined;
  for (let i = tailLength - EOCD_BYTES; i >= 0; i -= 1) {
    if (tail.readUInt32LE(i) !== EOCD_SIGNATURE) continue;
    const comment = tail.readUInt16LE(i + 20);
    if (comment === tailLength - i - EOCD_BYTES) return fileSize;
    last ??= fileSize - tailLength + i + EOCD_BYTES + comment;
  }
  return last ?? fileSize;
}

/** The first pass over the central directory: nothing is written until it passes. */
async function surveyEntries(zip: yauzl.ZipFile, limits: ExtractLimits, archiveSize: number) {
  const starts = new Float64Array(zip.entryCount);
  const ends = new Float64Array(zip.entryCount);
  let count = 0;
  let total = 0;
  const turns = new EventLoopTurns();
  await new Promise<void>((resolve, reject) => {
    zip.on('error', (err) => reject(mapZipError(err)));
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      try {
        const name = entryName(entry);
        if (entry.isEncrypted()) {
          throw new UnsafeArchiveError(
            `Refusing to extract the archive: entry "${printable(name)}" is encrypted.`,
          );
        }
        const method = entry.compressionMethod;
        if (method !== STORED && method !== DEFLATED) {
          const known = METHOD_NAMES[method];
          throw new UnsafeArchiveError(
            `Refusing to extract the archive: entry "${printable(name)}" is compressed with ${known ?? 'an unknown method'} (method ${method}), which this action does not extract; re-create the archive with Deflate, the default of zip, 7-Zip and Windows.`,
          );
        }
        if (count < starts.length) {
          starts[count] = entry.relativeOffsetOfLocalHeader;
          ends[count] =
            entry.relativeOffsetOfLocalHeader +
            LOCAL_HEADER_BYTES +
            entry.fileNameLength +
            entry.compressedSize;
        }
        count += 1;
        if (kindOf(entry, name) === 'file') {
          total += entry.uncompressedSize;
          checkExpansion(limits, total, archiveSize);
        }
        // Not from inside the callback: with synchronous reads, that would nest a stack
        // frame per entry.
        turns.then(() => zip.readEntry());
      } catch (err) {
        reject(err);
      }
    });
    zip.readEntry();
  });
  checkNoOverlap(starts.subarray(0, count), ends.subarray(0, count));
}

/**
 * Each entry's bytes must be its own: a bomb points many entries at one stream (Info-ZIP
 * refuses these as "overlapped components"). The span counted for an entry is its local
 * header and data, without the local extra field, so an honest archive never trips it.
 */
function checkNoOverlap(starts: Float64Array, ends: Float64Array): void {
  let order: Uint32Array | undefined;
  for (let i = 1; i < starts.length; i += 1) {
    if ((starts[i] as number) < (starts[i - 1] as number)) {
      order = Uint32Array.from(starts.keys()).sort(
        (a, b) => (starts[a] as number) - (starts[b] as number),
      );
      break;
    }
  }
  let previousEnd = 0;
  for (let k = 0; k < starts.length; k += 1) {
    const i = order ? (order[k] as number) : k;
    if ((starts[i] as number) < previousEnd) {
      throw new UnsafeArchiveError(
        'Refusing to extract the archive: its entries overlap (several entries share the same compressed bytes, as in a zip bomb).',
      );
    }
    previousEnd = ends[i] as number;
  }
}

/**
 * The entry's name as unzip and bsdtar read it: the Info-ZIP Unicode Path field, or
 * UTF-8 when the flag says so; else UTF-8 when the bytes are valid UTF-8 (Info-ZIP on
 * Unix writes names that way without the flag); else the DOS code page 437.
 */
function entryName(entry: yauzl.Entry): string {
  const raw = entry.fileNameRaw;
  const flags = entry.generalPurposeBitFlag;
  if (flags & UTF8_NAMES) return raw.toString('utf8');
  if (entry.extraFields.some((field) => field.id === UNICODE_PATH_FIELD)) {
    const withField = yauzl.getFileNameLowLevel(flags, raw, entry.extraFields, true);
    if (withField !== yauzl.getFileNameLowLevel(flags, raw, [], true)) return withField;
  }
  if (isUtf8(raw)) return raw.toString('utf8');
  return yauzl.getFileNameLowLevel(flags, raw, [], true);
}

/**
 * As unzip and bsdtar read it: a name ending in a slash is a directory whatever its mode
 * says, and a named pipe's mode (`… | zip out.zip -` stores the mode of its stdin) is a
 * regular file with the entry's bytes.
 */
function kindOf(entry: yauzl.Entry, name: string): ArchiveEntry['kind'] {
  if (name.endsWith('/') || (name.endsWith('\\') && backslashSeparates(entry, name))) {
    return 'directory';
  }
  const unixMode = (entry.externalFileAttributes >>> 16) & 0xffff;
  const kind = unixMode & S_IFMT ? (FILE_TYPE[unixMode & S_IFMT] ?? 'unknown') : 'file';
  return kind === 'fifo' ? 'file' : kind;
}

/** MS-DOS, NTFS and VFAT: the "version made by" hosts of Windows and DOS tools. */
const WINDOWS_HOSTS = new Set([0, 11, 14]);

/**
 * Whether `\\` separates the components of the entry's name: made on Windows or DOS, by a
 * tool that wrote no `/` in it (old .NET, some Windows zippers). A name that holds a `/`
 * was written with `/` as its separator, and keeps its backslashes as characters, as
 * unzip and bsdtar read both. (unzip splits MS-DOS names only, bsdtar all three hosts.)
 */
function backslashSeparates(entry: yauzl.Entry, name: string): boolean {
  return WINDOWS_HOSTS.has(entry.versionMadeBy >>> 8) && !name.includes('/');
}

async function extractZipEntry(
  zip: yauzl.ZipFile,
  fd: number,
  entry: yauzl.Entry,
  guard: EntryGuard,
  writer: SiteWriter,
  signal: AbortSignal | undefined,
): Promise<void> {
  throwIfAborted(signal);
  const name = entryName(entry);
  const unixMode = (entry.externalFileAttributes >>> 16) & 0xffff;
  const kind = kindOf(entry, name);
  if (kind === 'symlink' && entry.uncompressedSize > MAX_SYMLINK_TARGET) {
    throw new UnsafeArchiveError(
      `Refusing to extract the archive: symlink "${printable(name)}" has an oversized target.`,
    );
  }
  const linkTarget =
    kind === 'symlink' ? (await readWhole(zip, fd, entry, name)).toString('utf8') : undefined;
  // A `._` file's first bytes tell an AppleDouble companion from a page.
  let data: Buffer | undefined;
  let head: Buffer | undefined;
  if (kind === 'file' && mayBeAppleDouble(name)) {
    if (entry.uncompressedSize <= SMALL_FILE_BYTES) {
      data = await readWhole(zip, fd, entry, name);
      head = data;
    } else head = await readHead(zip, entry);
  }
  const planned = guard.plan({
    name,
    kind,
    size: kind === 'file' ? entry.uncompressedSize : 0,
    ...(linkTarget !== undefined ? { linkTarget } : {}),
    ...(unixMode ? { mode: unixMode & 0o777 } : {}),
    ...(backslashSeparates(entry, name) ? { backslashSeparates: true } : {}),
    ...(head !== undefined ? { head } : {}),
  });
  if (planned === undefined) return;
  if (planned.kind === 'directory') return writer.directory(planned);
  if (planned.kind === 'symlink') return writer.symlink(planned);
  if (planned.size <= SMALL_FILE_BYTES)
    return writer.file(planned, data ?? (await readWhole(zip, fd, entry, name)));
  let crc = 0;
  const content = await openStream(zip, entry);
  await writer.fileFromChunks(
    planned,
    (async function* () {
      for await (const chunk of content as AsyncIterable<Buffer>) {
        throwIfAborted(signal);
        crc = zlib.crc32(chunk, crc);
        yield chunk;
      }
    })(),
  );
  checkCrc(entry, name, crc);
}

function openStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise<Readable>((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream))),
  );
}

/** The first bytes of a large entry, inflated; the rest is not read. */
async function readHead(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const stream = await openStream(zip, entry);
  try {
    return (await peekHead(stream)).head;
  } finally {
    stream.destroy();
  }
}

/** An entry's content, read and inflated in one go; sizes and CRC-32 checked. */
async function readWhole(
  zip: yauzl.ZipFile,
  fd: number,
  entry: yauzl.Entry,
  name: string,
): Promise<Buffer> {
  const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
  const compressed = Buffer.allocUnsafe(entry.compressedSize);
  if (fs.readSync(fd, compressed, 0, compressed.length, fileDataStart) !== compressed.length) {
    throw new UnsafeArchiveError(
      `The zip archive is truncated or corrupt (entry "${printable(name)}" is cut short).`,
    );
  }
  let data: Buffer;
  if (entry.compressionMethod === STORED) data = compressed;
  else {
    try {
      // One byte of slack, so that content longer than declared is noticed, never written.
      data = zlib.inflateRawSync(compressed, { maxOutputLength: entry.uncompressedSize + 1 });
    } catch (err) {
      // Past the slack byte: more than the directory said.
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new UnsafeArchiveError(
          `Refusing to extract the archive: entry "${printable(name)}" holds more bytes than its header declares.`,
        );
      }
      throw new UnsafeArchiveError(
        `The zip archive is truncated or corrupt (entry "${printable(name)}": ${(err as Error).message}).`,
      );
    }
  }
  if (data.length !== entry.uncompressedSize) {
    throw new UnsafeArchiveError(
      `Refusing to extract the archive: entry "${printable(name)}" holds ${data.length > entry.uncompressedSize ? 'more' : 'fewer'} bytes than its header declares.`,
    );
  }
  checkCrc(entry, name, zlib.crc32(data));
  return data;
}

function checkCrc(entry: yauzl.Entry, name: string, crc: number): void {
  if (crc >>> 0 !== entry.crc32 >>> 0) {
    throw new UnsafeArchiveError(
      `The zip archive is corrupt: entry "${printable(name)}" does not match its CRC-32.`,
    );
  }
}

function mapZipError(err: unknown, root?: string): Error {
  if (err instanceof ActionError) return err;
  return mapArchiveError(err, 'zip', root);
}

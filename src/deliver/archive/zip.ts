import fs from 'node:fs';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import type { ExtractLimits } from '../../config.js';
import { ActionError, UnsafeArchiveError } from '../../errors.js';
import { type ArchiveEntry, EntryGuard } from './entries.js';
import { type ExtractResult, mapArchiveError } from './tar.js';
import { SiteWriter, SMALL_FILE_BYTES } from './writer.js';

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

/**
 * Reads the zip file with synchronous calls: yauzl parses the directory and the local
 * headers through it, and a site's thousands of small entries each cost a read instead
 * of a thread-pool round trip.
 */
class SyncFileReader extends yauzl.RandomAccessReader {
  constructor(readonly fd: number) {
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
    callback(null, bytesRead);
  }

  override close(callback: (err: Error | null) => void): void {
    callback(null);
  }
}

/**
 * Extracts a zip file (its directory is at the end, so it cannot stream). Entries pass
 * the same EntryGuard as tar entries; sizes and CRC-32s are checked against the
 * directory (yauzl itself checks no CRC).
 */
export async function extractZip(
  file: string,
  root: string,
  limits: ExtractLimits,
): Promise<ExtractResult> {
  const fd = fs.openSync(file, 'r');
  try {
    let zip: yauzl.ZipFile;
    try {
      zip = await yauzl.fromRandomAccessReaderPromise(
        new SyncFileReader(fd),
        fs.fstatSync(fd).size,
        {
          lazyEntries: true,
          autoClose: false,
          validateEntrySizes: true,
          strictFileNames: true,
          decodeStrings: true,
        },
      );
    } catch (err) {
      throw mapZipError(err);
    }
    if (zip.entryCount > limits.maxEntries) {
      throw new UnsafeArchiveError(
        `Refusing to extract the archive: it has ${zip.entryCount} entries, more than ${limits.maxEntries} (raise max-extract-files if this is expected).`,
      );
    }
    const guard = new EntryGuard(root, limits);
    const writer = new SiteWriter(root);
    try {
      await new Promise<void>((resolve, reject) => {
        zip.on('error', reject);
        zip.on('end', resolve);
        zip.on('entry', (entry: yauzl.Entry) => {
          extractZipEntry(zip, fd, entry, guard, writer).then(() => zip.readEntry(), reject);
        });
        zip.readEntry();
      });
    } catch (err) {
      throw mapZipError(err);
    }
    writer.verifySymlinks(guard.symlinks);
    return {
      files: writer.fileCount,
      entries: guard.entryCount,
      bytes: guard.byteCount,
      contents: writer.contents(),
    };
  } finally {
    fs.closeSync(fd);
  }
}

async function extractZipEntry(
  zip: yauzl.ZipFile,
  fd: number,
  entry: yauzl.Entry,
  guard: EntryGuard,
  writer: SiteWriter,
): Promise<void> {
  const unixMode = (entry.externalFileAttributes >>> 16) & 0xffff;
  const isDirectoryName = entry.fileName.endsWith('/');
  const kind: ArchiveEntry['kind'] =
    unixMode & S_IFMT
      ? (FILE_TYPE[unixMode & S_IFMT] ?? 'unknown')
      : isDirectoryName
        ? 'directory'
        : 'file';
  if (entry.isEncrypted()) {
    throw new UnsafeArchiveError(
      `Refusing to extract the archive: entry "${entry.fileName}" is encrypted.`,
    );
  }
  if (kind === 'symlink' && entry.uncompressedSize > MAX_SYMLINK_TARGET) {
    throw new UnsafeArchiveError(
      `Refusing to extract the archive: symlink "${entry.fileName}" has an oversized target.`,
    );
  }
  const linkTarget =
    kind === 'symlink' ? (await readWhole(zip, fd, entry)).toString('utf8') : undefined;
  const planned = guard.plan({
    name: entry.fileName,
    kind,
    size: kind === 'file' ? entry.uncompressedSize : 0,
    ...(linkTarget !== undefined ? { linkTarget } : {}),
    ...(unixMode ? { mode: unixMode & 0o777 } : {}),
  });
  if (planned === undefined) return;
  if (planned.kind === 'directory') return writer.directory(planned);
  if (planned.kind === 'symlink') return writer.symlink(planned);
  if (planned.size <= SMALL_FILE_BYTES)
    return writer.file(planned, await readWhole(zip, fd, entry));
  let crc = 0;
  const content = await new Promise<Readable>((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream))),
  );
  await writer.fileFromChunks(
    planned,
    (async function* () {
      for await (const chunk of content as AsyncIterable<Buffer>) {
        crc = zlib.crc32(chunk, crc);
        yield chunk;
      }
    })(),
  );
  checkCrc(entry, crc);
}

/** An entry's content, read and inflated in one go; sizes and CRC-32 checked. */
async function readWhole(zip: yauzl.ZipFile, fd: number, entry: yauzl.Entry): Promise<Buffer> {
  const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
  const compressed = Buffer.allocUnsafe(entry.compressedSize);
  if (fs.readSync(fd, compressed, 0, compressed.length, fileDataStart) !== compressed.length) {
    throw new UnsafeArchiveError(
      `The zip archive is truncated or corrupt (entry "${entry.fileName}" is cut short).`,
    );
  }
  let data: Buffer;
  if (entry.compressionMethod === STORED) data = compressed;
  else if (entry.compressionMethod === DEFLATED) {
    try {
      // One byte of slack, so that content longer than declared is noticed, never written.
      data = zlib.inflateRawSync(compressed, { maxOutputLength: entry.uncompressedSize + 1 });
    } catch (err) {
      throw new UnsafeArchiveError(
        `The zip archive is truncated or corrupt (entry "${entry.fileName}": ${(err as Error).message}).`,
      );
    }
  } else {
    throw new UnsafeArchiveError(
      `Refusing to extract the archive: entry "${entry.fileName}" uses compression method ${entry.compressionMethod}, which this action does not read.`,
    );
  }
  if (data.length !== entry.uncompressedSize) {
    throw new UnsafeArchiveError(
      `Refusing to extract the archive: entry "${entry.fileName}" holds ${data.length > entry.uncompressedSize ? 'more' : 'fewer'} bytes than its header declares.`,
    );
  }
  checkCrc(entry, zlib.crc32(data));
  return data;
}

function checkCrc(entry: yauzl.Entry, crc: number): void {
  if (crc >>> 0 !== entry.crc32 >>> 0) {
    throw new UnsafeArchiveError(
      `The zip archive is corrupt: entry "${entry.fileName}" does not match its CRC-32.`,
    );
  }
}

function mapZipError(err: unknown): Error {
  if (err instanceof ActionError) return err;
  const message = (err as Error)?.message ?? String(err);
  if (/invalid characters|absolute path|invalid relative path|fileName/i.test(message)) {
    return new UnsafeArchiveError(`Refusing to extract the archive: ${message}.`);
  }
  return mapArchiveError(err, 'zip');
}

import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { ExtractLimits } from '../../config.js';
import { ActionError, UnsafeArchiveError } from '../../errors.js';
import { type ArchiveEntry, EntryGuard } from './entries.js';
import { mapArchiveError, type ExtractResult } from './tar.js';
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

/**
 * Extracts a zip file (its directory is at the end, so it cannot stream). Entries pass
 * the same EntryGuard as tar entries; yauzl checks that sizes match the headers.
 */
export async function extractZip(
  file: string,
  root: string,
  limits: ExtractLimits,
): Promise<ExtractResult> {
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.open(
        file,
        {
          lazyEntries: true,
          autoClose: true,
          validateEntrySizes: true,
          strictFileNames: true,
          decodeStrings: true,
        },
        (err, opened) => (err ? reject(err) : resolve(opened)),
      ),
    );
  } catch (err) {
    throw mapZipError(err);
  }
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
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
        extractZipEntry(zip, entry, guard, writer).then(() => zip.readEntry(), reject);
      });
      zip.readEntry();
    });
  } catch (err) {
    zip.close();
    throw mapZipError(err);
  }
  writer.verifySymlinks(guard.symlinks);
  return { files: writer.fileCount, entries: guard.entryCount, bytes: guard.byteCount };
}

async function extractZipEntry(
  zip: yauzl.ZipFile,
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
  const linkTarget = kind === 'symlink' ? await readSymlinkTarget(zip, entry) : undefined;
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
  const content = await openEntry(zip, entry);
  if (planned.size <= SMALL_FILE_BYTES) {
    const chunks: Buffer[] = [];
    for await (const chunk of content) chunks.push(chunk as Buffer);
    writer.file(planned, Buffer.concat(chunks));
  } else {
    await writer.fileFromChunks(planned, content);
  }
}

async function readSymlinkTarget(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<string> {
  if (entry.uncompressedSize > MAX_SYMLINK_TARGET) {
    throw new UnsafeArchiveError(
      `Refusing to extract the archive: symlink "${entry.fileName}" has an oversized target.`,
    );
  }
  const content = await openEntry(zip, entry);
  const chunks: Buffer[] = [];
  for await (const chunk of content) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream))),
  );
}

function mapZipError(err: unknown): Error {
  if (err instanceof ActionError) return err;
  const message = (err as Error)?.message ?? String(err);
  if (/invalid characters|absolute path|invalid relative path|fileName/i.test(message)) {
    return new UnsafeArchiveError(`Refusing to extract the archive: ${message}.`);
  }
  return mapArchiveError(err, 'zip');
}

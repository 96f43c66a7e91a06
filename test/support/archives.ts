import { constants, crc32, deflateRawSync, gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import yazl from 'yazl';
import { rawTar } from './raw-tar.js';
import { rawZip } from './raw-zip.js';

export interface TarEntrySpec {
  name: string;
  type?: tar.Header['type'];
  content?: string | Buffer;
  linkname?: string;
  mode?: number;
  /** Extra pax records; any value makes the name travel in a pax header, verbatim. */
  pax?: Record<string, string>;
}

/** A tar (or tar.gz) built entry by entry, names and types exactly as given. */
export async function tarOf(entries: TarEntrySpec[], gzip = true): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of pack) chunks.push(chunk as Buffer);
  })();
  for (const entry of entries) {
    const content = entry.content === undefined ? undefined : Buffer.from(entry.content);
    await new Promise<void>((resolve, reject) => {
      const header: tar.Header = {
        name: entry.name,
        type: entry.type ?? 'file',
        mode: entry.mode ?? (entry.type === 'directory' ? 0o755 : 0o644),
        size: content?.length ?? 0,
        mtime: new Date(0),
        linkname: entry.linkname ?? '',
        uid: 0,
        gid: 0,
        uname: '',
        gname: '',
        devmajor: 0,
        devminor: 0,
        ...(entry.pax ? { pax: entry.pax } : {}),
      };
      if (content) pack.entry(header, content, (err) => (err ? reject(err) : resolve()));
      else pack.entry(header, (err) => (err ? reject(err) : resolve())).end(null);
    });
  }
  pack.finalize();
  await done;
  const archive = Buffer.concat(chunks);
  return gzip ? gzipSync(archive) : archive;
}

export interface ZipEntrySpec {
  name: string;
  content?: string | Buffer;
  symlinkTo?: string;
  directory?: boolean;
}

/** A zip built with yazl (which itself refuses `..` and absolute names). */
export async function zipOf(entries: ZipEntrySpec[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    if (entry.directory) zip.addEmptyDirectory(entry.name, { mtime: new Date(0) });
    else if (entry.symlinkTo !== undefined) {
      zip.addBuffer(Buffer.from(entry.symlinkTo), entry.name, {
        mode: 0o120777,
        mtime: new Date(0),
      });
    } else zip.addBuffer(Buffer.from(entry.content ?? ''), entry.name, { mtime: new Date(0) });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A small but real site, to wrap around a hostile entry. */
export const SITE: TarEntrySpec[] = [
  {
    name: 'index.html',
    content: '<!doctype html><title>Docs</title><a href="guides/intro.html">Intro</a>',
  },
  { name: 'guides/', type: 'directory' },
  { name: 'guides/intro.html', content: '<!doctype html><title>Intro</title>' },
];

const MiB = 1024 * 1024;

/** Raw deflate blocks of `data` that end on a byte boundary, so that pieces concatenate. */
const deflatePiece = (data: Buffer) =>
  deflateRawSync(data, { finishFlush: constants.Z_SYNC_FLUSH });

/**
 * One raw deflate stream of `pieces`, a run of zeros compressed once per megabyte and the
 * result repeated: what gzip makes of the same bytes, minus the time to compress them.
 */
function deflateWithZeros(pieces: (Buffer | { zeros: number })[]) {
  const zeroMiB = Buffer.alloc(MiB);
  const zeroMiBDeflated = deflatePiece(zeroMiB);
  const out: Buffer[] = [];
  let crc = 0;
  let size = 0;
  for (const piece of pieces) {
    if (Buffer.isBuffer(piece)) {
      out.push(deflatePiece(piece));
      crc = crc32(piece, crc);
      size += piece.length;
      continue;
    }
    for (let left = piece.zeros; left > 0; left -= MiB) {
      const run = Math.min(left, MiB);
      out.push(run === MiB ? zeroMiBDeflated : deflatePiece(Buffer.alloc(run)));
      crc = crc32(run === MiB ? zeroMiB : Buffer.alloc(run), crc);
    }
    size += piece.zeros;
  }
  out.push(deflateRawSync(Buffer.alloc(0))); // the final block
  return { bytes: Buffer.concat(out), size, crc };
}

/**
 * A tar.gz or a zip of one file of `bytes` zeros, built in milliseconds however large:
 * archives that take seconds to extract, for the tests that interrupt an extraction.
 */
export function zerosArchive(format: 'tar.gz' | 'zip', name: string, bytes: number): Buffer {
  if (format === 'zip') {
    return rawZip([{ name, deflated: deflateWithZeros([{ zeros: bytes }]) }]);
  }
  const header = rawTar([{ name, size: bytes }]).subarray(0, 512);
  const padding = (512 - (bytes % 512)) % 512;
  // The file's zeros, its padding to a block, and the two zero blocks that end a tar.
  const deflated = deflateWithZeros([header, { zeros: bytes + padding + 1024 }]);
  const gzipHeader = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(deflated.crc, 0);
  trailer.writeUInt32LE(deflated.size % 2 ** 32, 4);
  return Buffer.concat([gzipHeader, deflated.bytes, trailer]);
}

/**
 * An AppleDouble file of `size` bytes (at least 50), as macOS writes one beside each file
 * it archives (`._name`, or under `__MACOSX/`): the magic 00 05 16 07, version 2, the
 * "Mac OS X" filler, a Finder info entry over the rest and an empty resource fork.
 */
export function appleDouble(size = 4096): Buffer {
  const bytes = Buffer.alloc(size);
  bytes.writeUInt32BE(0x00051607, 0);
  bytes.writeUInt32BE(0x00020000, 4);
  bytes.write('Mac OS X        ', 8, 'latin1');
  bytes.writeUInt16BE(2, 24);
  bytes.writeUInt32BE(9, 26); // Finder info
  bytes.writeUInt32BE(50, 30);
  bytes.writeUInt32BE(size - 50, 34);
  bytes.writeUInt32BE(2, 38); // resource fork
  bytes.writeUInt32BE(size, 42);
  bytes.writeUInt32BE(0, 46);
  return bytes;
}

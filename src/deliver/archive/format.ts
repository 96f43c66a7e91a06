export type ArchiveFormat = 'tar.gz' | 'tar' | 'zip';

/** Bytes needed to tell the formats apart (a tar header is 512 bytes, magic at 257). */
export const SNIFF_BYTES = 512;

/** The archive format from its first bytes; never from a file name or URL. */
export function detectFormat(head: Buffer): ArchiveFormat | undefined {
  if (startsWith(head, [0x1f, 0x8b])) return 'tar.gz';
  // A local file header, or the end record alone (an empty zip).
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) {
    return 'zip';
  }
  if (head.length >= 262 && head.subarray(257, 262).toString('latin1') === 'ustar') return 'tar';
  if (head.length >= SNIFF_BYTES && hasTarChecksum(head)) return 'tar';
  // An empty tar (`tar -cf e.tar -T /dev/null`) is its end-of-archive blocks alone: GNU
  // tar and bsdtar extract nothing from it, as from an empty tar.gz.
  if (head.length >= SNIFF_BYTES && isZeroBlock(head)) return 'tar';
  return undefined;
}

function isZeroBlock(head: Buffer): boolean {
  for (let i = 0; i < SNIFF_BYTES; i += 1) if (head[i] !== 0) return false;
  return true;
}

/**
 * Archive formats this action does not extract, by their signatures: a storage (or an
 * export setting) that serves one gets a message naming it, not "no known format".
 */
const UNSUPPORTED: { name: string; matches(head: Buffer): boolean }[] = [
  {
    name: 'an xz-compressed archive',
    matches: (head) => startsWith(head, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]),
  },
  {
    // "BZh", the block size '1'-'9', then a block's magic (pi) or, empty, the end's (sqrt pi).
    name: 'a bzip2-compressed archive',
    matches: (head) =>
      startsWith(head, [0x42, 0x5a, 0x68]) &&
      head.length >= 10 &&
      (head[3] as number) >= 0x31 &&
      (head[3] as number) <= 0x39 &&
      ['314159265359', '177245385090'].includes(head.toString('hex', 4, 10)),
  },
  {
    name: 'a Zstandard-compressed archive',
    matches: (head) => startsWith(head, [0x28, 0xb5, 0x2f, 0xfd]),
  },
  {
    name: 'a 7-Zip archive',
    matches: (head) => startsWith(head, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]),
  },
];

/** Whether `head` begins with the bytes of `signature`. */
function startsWith(head: Buffer, signature: number[]): boolean {
  return head.length >= signature.length && signature.every((byte, i) => head[i] === byte);
}

/** Why bytes that `detectFormat` does not read are refused: the error message, whole. */
export function refusalOf(head: Buffer): string {
  const unsupported = UNSUPPORTED.find((format) => format.matches(head));
  if (unsupported) {
    return `The bundle cannot be extracted: the storage served ${unsupported.name}, which this action does not extract (it extracts tar, tar.gz and zip).`;
  }
  return `The bundle is not an archive: the storage served ${describeNonArchive(head)}.`;
}

/**
 * v7 and pre-POSIX tar headers carry no magic: a first block whose checksum field matches
 * its bytes (summed unsigned, or signed as some old tars did) is one.
 */
function hasTarChecksum(block: Buffer): boolean {
  const field = block
    .toString('latin1', 148, 156)
    .replace(/^ +/, '')
    .replace(/[\0 ].*$/s, '');
  if (!/^[0-7]{1,7}$/.test(field)) return false;
  const stored = Number.parseInt(field, 8);
  let unsigned = 8 * 0x20;
  let signed = 8 * 0x20;
  for (let i = 0; i < SNIFF_BYTES; i += 1) {
    if (i >= 148 && i < 156) continue;
    const byte = block[i] as number;
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  return unsigned > 8 * 0x20 && (stored === unsigned || stored === signed);
}

export const EXTENSION: Record<ArchiveFormat, string> = {
  'tar.gz': '.tar.gz',
  tar: '.tar',
  zip: '.zip',
};

/** A short description of bytes that are not an archive, for the error message. */
export function describeNonArchive(head: Buffer): string {
  if (head.length === 0) return 'an empty body';
  const text = head.toString('utf8', 0, Math.min(head.length, 512)).trimStart();
  if (/^<(!doctype html|html|head|body)/i.test(text)) {
    const title = /<title[^>]*>([^<]*)</i.exec(text)?.[1]?.trim();
    return title ? `an HTML page ("${title}")` : 'an HTML page';
  }
  if (text.startsWith('<?xml') || text.startsWith('<Error>')) {
    const code = /<Code>([^<]*)</.exec(text)?.[1];
    return code ? `an XML error document (${code})` : 'an XML document';
  }
  if (text.startsWith('{')) return 'a JSON document';
  return `${head.length >= SNIFF_BYTES ? 'data' : `${head.length} bytes`} that match no known archive format (first bytes ${head.subarray(0, 8).toString('hex')})`;
}

export type ArchiveFormat = 'tar.gz' | 'tar' | 'zip';

/** Bytes needed to tell the formats apart (a tar header is 512 bytes, magic at 257). */
export const SNIFF_BYTES = 512;

/** The archive format from its first bytes; never from a file name or URL. */
export function detectFormat(head: Buffer): ArchiveFormat | undefined {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz';
  if (
    head.length >= 4 &&
    head[0] === 0x50 &&
    head[1] === 0x4b &&
    ((head[2] === 0x03 && head[3] === 0x04) || (head[2] === 0x05 && head[3] === 0x06))
  ) {
    return 'zip';
  }
  if (head.length >= 262 && head.subarray(257, 262).toString('latin1') === 'ustar') return 'tar';
  if (head.length >= SNIFF_BYTES && hasTarChecksum(head)) return 'tar';
  return undefined;
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

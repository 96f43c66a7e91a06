export interface RawTarEntry {
  /** The 100-byte name field, written byte for byte (NUL and all) and padded with NULs. */
  name: string | Buffer;
  /** The 155-byte ustar prefix field, joined to the name with a slash by readers. */
  prefix?: string;
  /** Type flag: '0' file, '1' hard link, '2' symlink, '5' directory… */
  type?: string;
  data?: Buffer | string;
  /** The size field, when it is not the length of `data` (a header whose data is sent apart). */
  size?: number;
  linkname?: string;
  mode?: number;
  /** Changes the header block (fields no option covers) before its checksum is written. */
  edit?: (header: Buffer) => void;
}

const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, '0')}\0`;

/**
 * A ustar archive written header by header, for entries tar libraries will not write
 * (a name field with bytes after its NUL, a prefix field that climbs out).
 */
export function rawTar(entries: RawTarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const data = Buffer.from(entry.data ?? '');
    const header = Buffer.alloc(512);
    const name = Buffer.isBuffer(entry.name) ? entry.name : Buffer.from(entry.name, 'utf8');
    name.copy(header, 0, 0, Math.min(name.length, 100));
    header.write(octal(entry.mode ?? 0o644, 8), 100, 'latin1');
    header.write(octal(0, 8), 108, 'latin1');
    header.write(octal(0, 8), 116, 'latin1');
    header.write(octal(entry.size ?? data.length, 12), 124, 'latin1');
    header.write(octal(0, 12), 136, 'latin1');
    header.write(entry.type ?? '0', 156, 'latin1');
    header.write(entry.linkname ?? '', 157, 'utf8');
    header.write('ustar\u000000', 257, 'latin1');
    header.write(entry.prefix ?? '', 345, 'utf8');
    entry.edit?.(header);
    header.fill(0x20, 148, 156);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

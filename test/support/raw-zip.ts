import { crc32 } from 'node:zlib';

export interface RawZipEntry {
  /** Written byte for byte: `..`, absolute paths, backslashes and NUL are all allowed. */
  name: string | Buffer;
  data?: Buffer | string;
  /** Data already compressed with deflate (method 8), and the size and CRC-32 it inflates to. */
  deflated?: { bytes: Buffer; size: number; crc: number };
  /** Unix mode including the file type bits (0o100644, 0o120777 for a symlink…). */
  mode?: number;
  /** The "version made by" host: 3 Unix (the default), 0 MS-DOS, 11 NTFS, 14 VFAT… */
  madeBy?: number;
}

/**
 * A zip written byte by byte, its entries stored (uncompressed) or deflated beforehand, for
 * archives that zip libraries refuse to create: the hostile-archive tests need exactly those.
 */
export function rawZip(entries: RawZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.isBuffer(entry.name) ? entry.name : Buffer.from(entry.name, 'utf8');
    const data = entry.deflated?.bytes ?? Buffer.from(entry.data ?? '');
    const size = entry.deflated?.size ?? data.length;
    const method = entry.deflated ? 8 : 0;
    const crc = entry.deflated?.crc ?? crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, data);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    const host = entry.madeBy ?? 3;
    central.writeUInt16LE((host << 8) | 20, 4); // made by Unix, unless told
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    // A DOS host keeps DOS attributes (0x20: archive) and no Unix mode.
    const attributes =
      entry.mode === undefined && host !== 3 ? 0x20 : (entry.mode ?? 0o100644) << 16;
    central.writeUInt32LE(attributes >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

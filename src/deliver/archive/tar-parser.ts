import { isUtf8 } from 'node:buffer';
import tar from 'tar-stream';

/**
 * tar-stream (pinned to 3.2.2, whose internals this class relies on) parses headers,
 * long names and pax records; patches/tar-stream+3.2.2.patch (applied by `npm ci`) has it
 * read each header's numbers in place instead of through two views and a string each.
 * What it lacks, this narrow subclass adds, without reading a header field of its own
 * beyond the GNU sparse map:
 *
 * - the end of the archive: GNU tar and Python stop at the first zero block, so bytes
 *   after it (`cat a.tar b.tar`, padding, junk) are never read as entries;
 * - the raw header block and the raw pax records of each entry, so the layer above can
 *   read the typeflag (volume labels, dumpdirs, sparse files) and repeated pax keys
 *   (GNU.sparse.offset/numbytes of the 0.0 sparse format);
 * - the extension blocks of old GNU sparse headers ('S' entries with more than four
 *   runs), which sit between the header and the data and are not counted in its size;
 * - names that are not UTF-8: GNU tar and bsdtar store a name's bytes as they are (a tree
 *   made on a Latin-1 system), and extract each to a name of its own. Decoded as UTF-8,
 *   every such byte would read U+FFFD and distinct entries would become one file; they
 *   are read as Latin-1 instead (see `decodeName`), as zip names fall back on code page
 *   437. Names are taken from tar-stream in Latin-1, which keeps their bytes.
 */

/** The parts of tar-stream's Extract this subclass uses. */
interface TarStreamInternals {
  _buffer: {
    buffered: number;
    shift(size: number): Buffer | null;
    shiftFirst(size: number): Buffer | null;
  };
  _header: (tar.Header & ParsedHeader) | null;
  _pax: Record<string, string> | null;
  _paxGlobal: Record<string, string> | null;
  _stream: unknown;
  _missing: number;
  _locked: boolean;
  _finished: boolean;
  _unlockBound: (err?: Error | null) => void;
  _continueWrite(err: Error | null): void;
  _createStream(): tar.Extract extends AsyncIterable<infer S> ? S : never;
  _consumeHeader(): boolean;
  _decodeLongHeader(buf: Buffer): void;
  _write(data: Buffer, cb: (err?: Error | null) => void): void;
  _final(cb: (err?: Error | null) => void): void;
  emit(event: string, ...args: unknown[]): boolean;
}

/** What this layer adds to each header tar-stream emits. */
export interface ParsedHeader {
  /** The raw typeflag character ('0', '5', 'S', 'V', 'D', …; '\0' for old archives). */
  typeflag?: string;
  /** Every record of the entry's pax header, in order, repeated keys kept. */
  paxRecords?: [string, string][];
  /** Old GNU sparse entries ('S'): the runs from the header and its extension blocks. */
  gnuSparse?: { realSize: number; runs: { offset: number; size: number }[] };
}

const S_TYPEFLAG = 0x53;
const BLOCK = 512;

type ExtractClass = new (opts?: object) => TarStreamInternals;
const Extract = tar.extract().constructor as ExtractClass;

class TarParser extends Extract {
  #lastBlock: Buffer | undefined;
  /** The records of the entry's own pax header, read once for the names and for the entry. */
  #paxRecords: [string, string][] | undefined;
  #ended = false;
  /** An 'S' header whose extension blocks are still to come. */
  #pendingSparse: (tar.Header & ParsedHeader) | undefined;

  constructor() {
    // Old (v7, pre-POSIX) archives have no ustar magic: tar-stream reads them when asked.
    super({ allowUnknownFormat: true, filenameEncoding: 'latin1' });
    const buffer = this._buffer;
    const shift = buffer.shift.bind(buffer);
    buffer.shift = (size: number) => {
      const block = shift(size);
      if (size === BLOCK && block !== null) this.#lastBlock = block;
      return block;
    };
  }

  override _consumeHeader(): boolean {
    if (this._locked) return false;
    try {
      if (this.#pendingSparse !== undefined) return this.#consumeSparseExtension();
      const consumed = super._consumeHeader();
      if (consumed && this._header === null) {
        this.#ended = true;
        while (this._buffer.buffered > 0) this._buffer.shiftFirst(this._buffer.buffered);
      }
      return consumed;
    } catch (error) {
      // A malformed sparse map fails the archive, as tar-stream's own header errors do.
      // The entry's stream was never handed out: drop it, so the error is not raised on it.
      this._stream = null;
      this._continueWrite(error as Error);
      return false;
    }
  }

  override _decodeLongHeader(buf: Buffer): void {
    const type = this._header?.type as string;
    super._decodeLongHeader(buf);
    if (type !== 'pax-header' && type !== 'pax-global-header') return;
    const records = paxRecords(buf);
    if (type === 'pax-header') this.#paxRecords = records;
    // tar-stream reads pax values as UTF-8; bsdtar writes a name that is not UTF-8 as
    // bytes (hdrcharset=BINARY).
    const pax = type === 'pax-header' ? this._pax : this._paxGlobal;
    if (pax) {
      for (const [key, value] of records) {
        if ((key === 'path' || key === 'linkpath') && pax[key] !== undefined) pax[key] = value;
      }
    }
  }

  override _write(data: Buffer, cb: (err?: Error | null) => void): void {
    if (this.#ended) cb(null);
    else super._write(data, cb);
  }

  override _final(cb: (err?: Error | null) => void): void {
    if (this.#pendingSparse !== undefined) return cb(new Error('Unexpected end of data'));
    if (!this.#ended) return super._final(cb);
    this._finished = true;
    cb(null);
  }

  override emit(event: string, ...args: unknown[]): boolean {
    if (event !== 'entry') return super.emit(event, ...args);
    const header = args[0] as tar.Header & ParsedHeader;
    // tar-stream reads a base-256 size it cannot decode as null, and lets it through.
    if (!Number.isSafeInteger(header.size) || header.size < 0) {
      throw new Error('Invalid tar header: bad number');
    }
    // Names from the header block or a GNU long name came in Latin-1 (their bytes).
    const pax = header.pax as Record<string, string> | null;
    if (!pax?.path) header.name = fromLatin1(header.name);
    if (header.linkname && !pax?.linkpath) header.linkname = fromLatin1(header.linkname);
    const raw = this.#lastBlock as Buffer;
    header.typeflag = raw[156] === 0 ? '\0' : String.fromCharCode(raw[156] as number);
    if (this.#paxRecords !== undefined) {
      header.paxRecords = this.#paxRecords;
      this.#paxRecords = undefined;
    }
    if (raw[156] === S_TYPEFLAG) {
      const runs = sparseRuns(raw, 386, 4);
      header.gnuSparse = { realSize: octal(raw, 483, 12), runs };
      if (raw[482] !== 0) {
        // Extension blocks follow: hold the entry back until the last one is read.
        this.#pendingSparse = header;
        this._stream = null;
        this._missing = 0;
        this._locked = false;
        return true;
      }
    }
    return super.emit(event, ...args);
  }

  #consumeSparseExtension(): boolean {
    const block = this._buffer.shift(BLOCK) as Buffer;
    const header = this.#pendingSparse as tar.Header & ParsedHeader;
    header.gnuSparse?.runs.push(...sparseRuns(block, 0, 21));
    if (block[504] !== 0) return true;
    this.#pendingSparse = undefined;
    this._locked = true;
    this._header = header;
    const stream = this._createStream();
    if (header.size > 0) {
      this._stream = stream;
      this._missing = header.size;
    }
    super.emit('entry', header, stream, this._unlockBound);
    return true;
  }
}

/** A tar parser that stops at the end-of-archive block and reports what tar-stream omits. */
export function createTarParser(): tar.Extract {
  return new TarParser() as unknown as tar.Extract;
}

function sparseRuns(block: Buffer, start: number, count: number) {
  const runs: { offset: number; size: number }[] = [];
  for (let i = 0; i < count; i += 1) {
    const at = start + i * 24;
    if (block[at] === 0) break;
    runs.push({ offset: octal(block, at, 12), size: octal(block, at + 12, 12) });
  }
  return runs;
}

/** A numeric header field: octal digits, or base-256 when the top bit is set. */
function octal(block: Buffer, at: number, length: number): number {
  const field = block.subarray(at, at + length);
  if ((field[0] as number) & 0x80) {
    let value = 0;
    for (let i = 1; i < field.length; i += 1) value = value * 256 + (field[i] as number);
    return value;
  }
  const text = field
    .toString('latin1')
    .replace(/[\0 ].*$/s, '')
    .trim();
  const value = text === '' ? 0 : Number.parseInt(text, 8);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error('Invalid tar header: bad number');
  return value;
}

/** `len key=value\n` records, in order (the pax format of POSIX.1-2001). */
export function paxRecords(data: Buffer): [string, string][] {
  const records: [string, string][] = [];
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space < 0) break;
    const length = Number.parseInt(data.toString('latin1', at, space), 10);
    if (!(length > space - at + 1) || at + length > data.length) break;
    const equals = data.indexOf(0x3d, space + 1);
    if (equals > space + 1 && equals < at + length - 1) {
      records.push([
        data.toString('utf8', space + 1, equals),
        decodeName(data.subarray(equals + 1, at + length - 1)),
      ]);
    }
    at += length;
  }
  return records;
}

/** A name read in Latin-1, as `decodeName` reads its bytes; ASCII, most names, as it is. */
function fromLatin1(name: string): string {
  return NOT_ASCII.test(name) ? decodeName(Buffer.from(name, 'latin1')) : name;
}

const NOT_ASCII = /[^\x00-\x7f]/;

/**
 * A name's bytes, each `/`-separated part as UTF-8 when it is, else as Latin-1: one
 * character per byte. By part, so that a Latin-1 file in a UTF-8 directory (`über/caf\xe9`)
 * lands in that directory, as GNU tar puts it, not in a second one spelled `Ã¼ber`.
 */
export function decodeName(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  const parts: string[] = [];
  let start = 0;
  for (let slash = bytes.indexOf(SLASH); ; slash = bytes.indexOf(SLASH, start)) {
    const part = bytes.subarray(start, slash < 0 ? bytes.length : slash);
    parts.push(isUtf8(part) ? part.toString('utf8') : part.toString('latin1'));
    if (slash < 0) return parts.join('/');
    start = slash + 1;
  }
}

const SLASH = 0x2f;

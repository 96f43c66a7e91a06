import {
  isDigest,
  longName,
  type LongNames,
  MAX_KEY_LENGTH,
  pathIn,
  type TreeDir,
  visitTree,
} from './entries.js';

/** A regular file as extracted: what the export manifest lists. */
export interface WrittenFile {
  /** `/`-separated path inside the site. */
  path: string;
  size: number;
  sha256: string;
  executable: boolean;
}

export interface WrittenSymlink {
  path: string;
  target: string;
}

/**
 * Every file and link of the extracted site, hashed on the way to disk, sorted by path.
 * The lists are read again on each pass, and a file's record is made as it is read: the
 * site is held as names, never as a path or an object per file.
 */
export interface SiteContents {
  readonly files: Iterable<WrittenFile>;
  /** The files' paths alone, in the same order. */
  readonly filePaths: Iterable<string>;
  readonly fileCount: number;
  /** The files' sizes, added up. */
  readonly fileBytes: number;
  readonly symlinks: readonly WrittenSymlink[];
  /**
   * `/`-separated paths of the directories created, empty ones included (not the root):
   * with the files and links, the tree as it is on disk. Absent where the filesystem may
   * have spelled a name otherwise than the archive (see SiteWriter).
   */
  readonly directories?: Iterable<string>;
}

/** Set on a slot once its file is written. */
const WRITTEN = 1;
const EXECUTABLE = 2;
const SHA256_BYTES = 32;
/** A size from 4 GiB - 1 up: the size itself is kept beside the array. */
const LARGE = 0xffffffff;

/**
 * What the writer knows of each file (size, SHA-256, executable bit), by slot, in
 * arrays that double as they fill: 37 bytes per file (a size of 4 GiB or more costs an
 * entry in a map besides) and no object for the collector to trace, whatever the number
 * of files.
 */
export class FileRecords {
  #sha256 = Buffer.alloc(0);
  #sizes = new Uint32Array(0);
  #flags = new Uint8Array(0);
  readonly #large = new Map<number, number>();

  has(slot: number): boolean {
    return ((this.#flags[slot] ?? 0) & WRITTEN) !== 0;
  }

  set(slot: number, size: number, sha256: Buffer, executable: boolean): void {
    this.#reserve(slot);
    sha256.copy(this.#sha256, slot * SHA256_BYTES);
    this.#setSize(slot, size);
    this.#flags[slot] = WRITTEN | (executable ? EXECUTABLE : 0);
  }

  copy(from: number, to: number): void {
    this.#reserve(to);
    this.#sha256.copy(
      this.#sha256,
      to * SHA256_BYTES,
      from * SHA256_BYTES,
      (from + 1) * SHA256_BYTES,
    );
    this.#setSize(to, this.size(from));
    this.#flags[to] = this.#flags[from] as number;
  }

  size(slot: number): number {
    const size = this.#sizes[slot] as number;
    return size === LARGE ? (this.#large.get(slot) ?? size) : size;
  }

  /** The record of a written slot, for the file at `relative`. */
  get(slot: number, relative: string): WrittenFile {
    return {
      path: relative,
      size: this.size(slot),
      sha256: this.#sha256.toString('hex', slot * SHA256_BYTES, (slot + 1) * SHA256_BYTES),
      executable: ((this.#flags[slot] as number) & EXECUTABLE) !== 0,
    };
  }

  #setSize(slot: number, size: number): void {
    if (size >= LARGE) {
      this.#sizes[slot] = LARGE;
      this.#large.set(slot, size);
    } else {
      this.#sizes[slot] = size;
      if (this.#large.size > 0) this.#large.delete(slot);
    }
  }

  #reserve(slot: number): void {
    if (slot < this.#flags.length) return;
    const capacity = Math.max(1024, slot + 1, this.#flags.length * 2);
    const sha256 = Buffer.alloc(capacity * SHA256_BYTES);
    this.#sha256.copy(sha256);
    this.#sha256 = sha256;
    const sizes = new Uint32Array(capacity);
    sizes.set(this.#sizes);
    this.#sizes = sizes;
    const flags = new Uint8Array(capacity);
    flags.set(this.#flags);
    this.#flags = flags;
  }
}

/** What a listed entry is: a file's slot (0 or more), a symlink's (`~slot`), or this. */
const DIRECTORY = -0x80000000;
/** Names joined into one string at a time: a few dozen KB each, never one string of them all. */
const NAMES_PER_PIECE = 4096;

/**
 * The extracted site in the order of its paths: every entry's name and depth, depth
 * first, so that a pass rebuilds each path from its directory's (one join per entry).
 * Each name is kept as what it adds to the name before it (in that order, neighbours
 * share most of their spelling: `page-1041.html`, `page-1042.html`): how many of the
 * earlier name's characters it starts with, then the rest, packed into strings. With
 * the rest in typed arrays, that is about 8 bytes per entry beyond the characters it
 * adds, where the guard's tree (a map per directory) costs some 100 and an array of
 * paths costs the length of every path. A name over 32 characters is kept as its tree
 * key (its digest) and read back from the disk on each pass, so the listing does not
 * grow with the length of names either. Made once the extraction is over; the tree can
 * then go. Read it before the site is moved.
 */
export class SiteListing implements SiteContents {
  readonly #longNames: LongNames;
  /** What each name adds to the one before it, NAMES_PER_PIECE names to a string. */
  readonly #pieces: string[];
  /** How many characters of the name before it each name starts with. */
  readonly #shared: Uint8Array;
  /** How many characters each name adds, in its piece. */
  readonly #added: Uint8Array;
  readonly #depths: Uint16Array;
  readonly #nodes: Int32Array;
  readonly #records: FileRecords;
  readonly #namesAsWritten: boolean;
  readonly fileCount: number;
  readonly fileBytes: number;
  readonly symlinks: readonly WrittenSymlink[];

  /**
   * Lists `tree` (the guard's, which holds every path the plans gave out: every one was
   * written, since any failure ends the extraction), taking it apart as it goes: the
   * tree's memory is free to go while the listing fills. `entries` is how many it may
   * hold (the guard's count); long names are read back through `longNames`;
   * `directoriesListed` is false where names on disk may differ from the archive's
   * spelling.
   */
  constructor(
    tree: TreeDir,
    site: {
      entries: number;
      longNames: LongNames;
      records: FileRecords;
      linkTargets: ReadonlyMap<number, string>;
      directoriesListed: boolean;
    },
  ) {
    const { longNames, records, linkTargets } = site;
    let count = 0;
    let shared = new Uint8Array(site.entries);
    let added = new Uint8Array(site.entries);
    let depths = new Uint16Array(site.entries);
    let nodes = new Int32Array(site.entries);
    const pieces: string[] = [];
    let piece: string[] = [];
    let previous = '';
    let fileCount = 0;
    let fileBytes = 0;
    const symlinks: WrittenSymlink[] = [];
    const visit: Parameters<typeof visitTree>[2] = (directory, name, node, depth, key) => {
      if (count === nodes.length) {
        shared = grown(shared);
        added = grown(added);
        depths = grown(depths);
        nodes = grown(nodes);
      }
      if (key.length > MAX_KEY_LENGTH) throw new Error(`a tree key of ${key.length} characters`);
      const same = sharedPrefix(previous, key);
      shared[count] = same;
      added[count] = key.length - same;
      depths[count] = depth;
      if (typeof node !== 'number') nodes[count] = DIRECTORY;
      else {
        nodes[count] = node;
        if (node >= 0) {
          fileCount += 1;
          fileBytes += records.size(node);
        } else {
          symlinks.push({
            path: pathIn(directory, name),
            target: linkTargets.get(~node) as string,
          });
        }
      }
      count += 1;
      piece.push(same === 0 ? key : key.slice(same));
      previous = key;
      if (piece.length === NAMES_PER_PIECE) {
        pieces.push(piece.join(''));
        piece = [];
      }
    };
    visitTree(tree, longNames, visit, { takeApart: true });
    pieces.push(piece.join(''));
    this.#longNames = longNames;
    this.#pieces = pieces;
    this.#shared = shared.subarray(0, count);
    this.#added = added.subarray(0, count);
    this.#depths = depths.subarray(0, count);
    this.#nodes = nodes.subarray(0, count);
    this.#records = records;
    this.#namesAsWritten = site.directoriesListed;
    this.fileCount = fileCount;
    this.fileBytes = fileBytes;
    this.symlinks = symlinks;
  }

  get files(): Iterable<WrittenFile> {
    const records = this.#records;
    return {
      [Symbol.iterator]: () => this.#entries('files', (path, slot) => records.get(slot, path)),
    };
  }

  get filePaths(): Iterable<string> {
    return { [Symbol.iterator]: () => this.#entries('files', pathOnly) };
  }

  get directories(): Iterable<string> | undefined {
    if (!this.#namesAsWritten) return undefined;
    return { [Symbol.iterator]: () => this.#entries('directories', pathOnly) };
  }

  /** Reads the tree keys back in order: `next(i)` for i = 0, 1, 2… gives entry i's key. */
  #keys(): { next(i: number): string } {
    const pieces = this.#pieces;
    const shared = this.#shared;
    const added = this.#added;
    let piece = '';
    let offset = 0;
    let key = '';
    return {
      next(i) {
        if (i % NAMES_PER_PIECE === 0) {
          piece = pieces[i / NAMES_PER_PIECE] as string;
          offset = 0;
        }
        const end = offset + (added[i] as number);
        const rest = piece.slice(offset, end);
        offset = end;
        const same = shared[i] as number;
        key = same === 0 ? rest : key.slice(0, same) + rest;
        return key;
      },
    };
  }

  /**
   * The files or the directories, in order, each as `made` makes it from its path (and a
   * file's slot): one pass, one generator. A directory's path is kept while the entries
   * inside it pass.
   */
  *#entries<T>(wanted: 'files' | 'directories', made: (path: string, slot: number) => T) {
    const depths = this.#depths;
    const nodes = this.#nodes;
    const keys = this.#keys();
    const directories: string[] = [];
    /** The long names of the directory at each depth, read when one is first needed. */
    const longNames: (((key: string) => string | undefined) | undefined)[] = [];
    for (let i = 0; i < nodes.length; i += 1) {
      // Every key is read, in order: each is spelled from the one before it.
      const key = keys.next(i);
      const node = nodes[i] as number;
      if (node < 0 && node !== DIRECTORY) continue;
      const depth = depths[i] as number;
      const directory = depth === 0 ? '' : (directories[depth - 1] as string);
      const name = isDigest(key)
        ? longName((longNames[depth] ??= this.#longNames(directory)), key, directory)
        : key;
      const path = pathIn(directory, name);
      if (node === DIRECTORY) {
        directories[depth] = path;
        longNames[depth + 1] = undefined;
        if (wanted === 'directories') yield made(path, node);
      } else if (wanted === 'files') yield made(path, node);
    }
  }
}

/** How many characters `b` starts with of `a`: at most MAX_KEY_LENGTH, as keys are. */
function sharedPrefix(a: string, b: string): number {
  const most = Math.min(a.length, b.length, MAX_KEY_LENGTH);
  let i = 0;
  while (i < most && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return i;
}

function pathOnly(path: string): string {
  return path;
}

function grown<T extends Uint8Array | Uint16Array | Int32Array>(array: T): T {
  const larger = new (array.constructor as new (length: number) => T)(
    Math.max(1024, array.length * 2),
  );
  larger.set(array);
  return larger;
}

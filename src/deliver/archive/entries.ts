import { hash } from 'node:crypto';
import path from 'node:path';
import type { ExtractLimits } from '../../config.js';
import { formatBytes } from '../../duration.js';
import { ActionError, UnsafeArchiveError } from '../../errors.js';
import { MANIFEST_NAME } from '../manifest.js';
import { isMacMetadata } from './apple-double.js';

/** What an archive entry asks to create, independent of the archive format. */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'hardlink';

export interface ArchiveEntry {
  name: string;
  /** tar type or a zip mode's file type; anything else is refused. */
  kind: EntryKind | 'device' | 'fifo' | 'unknown';
  /** Bytes the entry writes (a sparse file's full length, holes included). */
  size: number;
  /** Symlink target, or the archive path a hard link points at. */
  linkTarget?: string;
  mode?: number;
  /**
   * `\` separates the name's components: zip entries made on MS-DOS, NTFS or VFAT (their
   * "version made by" host), as unzip reads them. Elsewhere `\` is a character of the name.
   */
  backslashSeparates?: boolean;
  /**
   * A file's first bytes, read before planning when its name starts with `._` (see
   * `mayBeAppleDouble`): they tell a macOS AppleDouble companion from a page.
   */
  head?: Buffer;
}

export interface PlannedEntry {
  kind: EntryKind;
  /** Normalized path inside the destination, `/`-separated, no leading `./`. */
  relative: string;
  /** Absolute path under the destination. */
  absolute: string;
  /** The path's components, `relative.split('/')`. */
  parts: string[];
  /** Index of the first parent directory this entry creates (parts.length - 1: none). */
  firstNewParent: number;
  /** What an earlier entry left at this path, which this one replaces. */
  replaces?: 'file' | 'directory';
  /**
   * Files and links: the number of the path among those holding one, which indexes what
   * the writer records of it. An entry that replaces a file keeps the file's slot.
   */
  slot?: number;
  size: number;
  mode: number;
  /** Symlink target as written in the archive (checked to stay inside). */
  linkTarget?: string;
  /** For hard links: the absolute path of the file linked to. */
  linkSource?: string;
  /** For hard links: the normalized relative path of the file linked to. */
  linkSourceRelative?: string;
  /** For hard links: the slot of the file linked to. */
  linkSourceSlot?: number;
}

/**
 * The longest path and name Linux accepts (PATH_MAX, NAME_MAX), in bytes: anything
 * longer cannot be created, so it is refused before any work is spent on it.
 */
export const PATH_MAX = 4096;
export const NAME_MAX = 255;
/**
 * Symlinks wait in memory until every other entry is written: their targets and names
 * may total this much, in UTF-16 code units. A site's links take a few kilobytes;
 * 500,000 links of 4 KB would take 2 GB.
 */
export const MAX_LINK_BYTES = 16 * 1024 * 1024;
/** Where the filesystem itself splits names at `\\` (Windows), every name is read so. */
const BACKSLASH_IS_SEPARATOR = path.sep === '\\';
/** Below this, the expansion ratio is not enforced: small archives may compress well. */
export const RATIO_FLOOR_BYTES = 1024 ** 3;

/**
 * A directory the archive creates, with what it holds by name (see `treeKey`): a
 * directory, or the slot of a file (`slot`) or of a symlink (`~slot`, below zero). The
 * tree is the only place the entries' paths are kept, one key per component, so an
 * entry costs the same whatever the length of its path or of its names.
 */
export class TreeDir {
  readonly children = new Map<string, TreeDir | number>();
}

/** Names longer than this, in UTF-16 code units, are keyed by a digest. */
const LONG_NAME = 32;
/** The longest tree key: a name of LONG_NAME, or a NUL and a SHA-256 (see `treeKey`). */
export const MAX_KEY_LENGTH = LONG_NAME + 1;

/**
 * The key of a name in the tree: the name itself, or for a long one a NUL (which no name
 * holds) and the name's SHA-256, 33 characters however long the name. A long name is
 * read back from the disk when the site is listed (see `visitTree`).
 */
export function treeKey(name: string): string {
  if (name.length <= LONG_NAME) return name;
  return `\0${hash('sha256', Buffer.from(name, 'utf16le'), 'binary')}`;
}

/**
 * `text` in a string of its own, to be kept. A part split from an entry's name is, in
 * V8, a view into the whole name: kept as it is, it would keep the entry's full path
 * alive (a 3,900-byte path for a 20-byte name). Measured: 60 bytes per name in the tree
 * instead of 100 for a short name, and a copy costs well under a microsecond.
 */
export function detached(text: string): string {
  return /[^\u0000-\u00ff]/.test(text)
    ? Buffer.from(text, 'utf16le').toString('utf16le')
    : Buffer.from(text, 'latin1').toString('latin1');
}

/** Whether a tree key stands for a long name, to be read back from the disk. */
export function isDigest(key: string): boolean {
  return key.charCodeAt(0) === 0;
}

/** What a tree node holds. */
function kindOf(node: TreeDir | number): 'directory' | 'file' | 'symlink' {
  return typeof node !== 'number' ? 'directory' : node < 0 ? 'symlink' : 'file';
}

/**
 * Decides, entry by entry, whether an archive may be extracted into `root`, and where.
 * It keeps a tree of everything the archive created (one node per path component, so
 * every check costs the length of the name, never more), and refuses absolute names,
 * `..`, NUL, names no filesystem accepts, devices and fifos, anything written through
 * (or replacing) a symlink, a directory replaced by something else, and archives past
 * the size, ratio or entry ceilings. Symlinks are only recorded here: the writer creates
 * them after every other entry and then resolves them on disk. macOS metadata (`__MACOSX/`,
 * AppleDouble `._` files) passes the same checks of its name, type and size, counts against
 * the ceilings, and is then left out: never written, listed or counted in the site.
 */
export class EntryGuard {
  readonly tree = new TreeDir();
  /** The root and a separator: an entry's absolute path is this and its parts. */
  readonly #prefix: string;
  #entries = 0;
  #bytes = 0;
  #slots = 0;
  #linkBytes = 0;
  #macMetadataFiles = 0;
  #leftOutBytes = 0;
  /** Each symlink's target by slot, for a hard link made to the symlink later. */
  readonly #symlinkTargets = new Map<number, string>();

  /** `archiveBytes` tells how much of the archive has been read, for the ratio ceiling. */
  constructor(
    readonly root: string,
    readonly limits: ExtractLimits,
    readonly archiveBytes: () => number = () => 0,
  ) {
    this.#prefix = path.join(root, path.sep);
  }

  get entryCount(): number {
    return this.#entries;
  }

  /** The bytes of the files planned to be written (macOS metadata left out). */
  get byteCount(): number {
    return this.#bytes - this.#leftOutBytes;
  }

  /** How many macOS metadata files were left out (see `isMacMetadata`). */
  get macMetadataCount(): number {
    return this.#macMetadataFiles;
  }

  /**
   * Returns the entry's plan, `undefined` for entries that create nothing (the root, a
   * hard link to itself, macOS metadata), or throws.
   */
  plan(entry: ArchiveEntry): PlannedEntry | undefined {
    const name = entry.name;
    const refuse = (why: string): never => {
      throw new UnsafeArchiveError(
        `Refusing to extract the archive: entry "${printable(name)}" ${why}.`,
      );
    };
    if (entry.kind === 'device') refuse('is a device file');
    if (entry.kind === 'fifo') refuse('is a named pipe (fifo)');
    if (entry.kind === 'unknown') refuse('has an entry type this action does not extract');

    this.#countEntry();
    const bytes = entry.kind === 'file' ? entry.size : 0;
    this.addBytes(bytes);

    const backslashSeparates = entry.backslashSeparates === true || BACKSLASH_IS_SEPARATOR;
    const parts = normalizeName(name, refuse, backslashSeparates);
    if (parts.length === 0) {
      if (entry.kind === 'directory') return undefined;
      refuse('has no name');
    }
    // Left out once its name is known to be safe: `__MACOSX/../x` is refused as any `..`.
    if (isMacMetadata(entry.kind, parts, entry.head)) {
      if (entry.kind === 'file') this.#macMetadataFiles += 1;
      this.#leftOutBytes += bytes;
      return undefined;
    }
    // Refused at once, not once the whole archive is out: the manifest goes there. In any
    // spelling: on a case-insensitive filesystem (macOS) it names the same file. The
    // length first, so that other entries make no lower-case copy of their first part.
    const first = parts[0] as string;
    if (first.length === MANIFEST_NAME.length && first.toLowerCase() === MANIFEST_NAME) {
      refuse(`lies at ${MANIFEST_NAME} in the site's root, where this action writes its manifest`);
    }
    let kind = entry.kind as EntryKind;
    let symlinkTarget = entry.linkTarget;
    const relative = parts.join('/');

    // A hard link to a symlink (`cp -al` of a tree with links, stored so by GNU tar, bsdtar
    // and Python) is what link(2) makes of it: a second symlink with the same target text.
    // It is planned as that symlink, and every symlink check is made from where it sits: a
    // relative target that stayed inside from the source may lead out from here.
    let hardLink: { parts: string[]; relative: string; source: number } | undefined;
    let asSymlink = 'is a symlink';
    if (kind === 'hardlink') {
      const targetParts = normalizeName(
        entry.linkTarget ?? '',
        (why) => refuse(`is a hard link whose target ${why}`),
        backslashSeparates,
      );
      const source = this.#find(targetParts);
      if (typeof source !== 'number') {
        return refuse(
          `is a hard link to "${printable(entry.linkTarget ?? '')}", which is not a file or symlink extracted before it`,
        );
      }
      const targetRelative = targetParts.join('/');
      // A link to itself (GNU tar writes these for a file listed twice) keeps what is there.
      if (targetRelative === relative) return undefined;
      if (source < 0) {
        kind = 'symlink';
        symlinkTarget = this.#symlinkTargets.get(~source);
        asSymlink = `is a hard link to the symlink "${printable(targetRelative)}", so a symlink here,`;
      } else {
        hardLink = { parts: targetParts, relative: targetRelative, source };
      }
    }

    // Every parent must be a directory this archive created (or creates now): never a
    // symlink, never a file.
    let node = this.tree;
    let firstNewParent = parts.length - 1;
    for (let i = 0; i < parts.length - 1; i += 1) {
      const key = treeKey(parts[i] as string);
      let child = node.children.get(key);
      if (child === undefined) {
        if (firstNewParent === parts.length - 1) firstNewParent = i;
        // Directories a name implies count too: one deep name must not make a million.
        this.#countEntry();
        child = new TreeDir();
        node.children.set(detached(key), child);
      } else if (typeof child === 'number') {
        refuse(
          child < 0
            ? `would be written through the symlink "${printable(parts.slice(0, i + 1).join('/'))}"`
            : `needs "${printable(parts.slice(0, i + 1).join('/'))}" to be a directory, but it is a file`,
        );
      }
      node = child as TreeDir;
    }
    const leafName = parts[parts.length - 1] as string;
    const siblings = node.children;
    const leafKey = treeKey(leafName);
    const existingNode = siblings.get(leafKey);
    const existing = existingNode === undefined ? undefined : kindOf(existingNode);
    if (existing === 'symlink') return refuse('would replace a symlink');
    if (existing === 'directory' && kind !== 'directory') refuse('would replace a directory');
    if (existing === 'file' && kind !== 'file' && kind !== 'hardlink')
      refuse('would replace a file with a link or directory');

    const planned: PlannedEntry = {
      kind,
      relative,
      absolute: this.#absolute(parts, relative),
      parts,
      firstNewParent,
      size: entry.size,
      mode: kind === 'directory' ? 0o755 : (entry.mode ?? 0o644) & 0o111 ? 0o755 : 0o644,
    };
    if (existing !== undefined) planned.replaces = existing;
    if (kind === 'symlink') {
      const target = symlinkTarget ?? '';
      if (target === '' || target.includes('\0')) refuse(`${asSymlink} without a usable target`);
      if (Buffer.byteLength(target) >= PATH_MAX)
        refuse(`${asSymlink} whose target is longer than ${PATH_MAX - 1} bytes`);
      if (target.startsWith('/') || /^[A-Za-z]:/.test(target) || target.includes('\\')) {
        refuse(`${asSymlink} to the absolute path "${printable(target)}"`);
      }
      if (climbsOut(parts.length - 1, target)) {
        refuse(`${asSymlink} to "${printable(target)}", outside the export`);
      }
      this.#linkBytes += target.length + leafName.length;
      if (this.#linkBytes > MAX_LINK_BYTES) {
        throw new UnsafeArchiveError(
          `Refusing to extract the archive: its symlinks' targets and names total more than ${formatBytes(MAX_LINK_BYTES)}, far more than a site holds (each one is kept until the others are written).`,
        );
      }
      planned.linkTarget = target;
    }
    if (hardLink !== undefined) {
      planned.linkSource = this.#absolute(hardLink.parts, hardLink.relative);
      planned.linkSourceRelative = hardLink.relative;
      planned.linkSourceSlot = hardLink.source;
    }
    if (kind === 'directory') {
      if (existingNode === undefined) siblings.set(detached(leafKey), new TreeDir());
    } else if (typeof existingNode === 'number') {
      planned.slot = existingNode;
    } else {
      const slot = this.#slots;
      this.#slots += 1;
      planned.slot = slot;
      siblings.set(detached(leafKey), kind === 'symlink' ? ~slot : slot);
      if (kind === 'symlink') this.#symlinkTargets.set(slot, planned.linkTarget as string);
    }
    return planned;
  }

  /** Counts bytes to be written, so a lying size header cannot slip past the ceilings. */
  addBytes(count: number): void {
    this.#bytes += count;
    checkExpansion(this.limits, this.#bytes, this.archiveBytes());
  }

  /** The absolute path of normalized `parts` (`relative` is them joined by `/`). */
  #absolute(parts: readonly string[], relative: string): string {
    return this.#prefix + (path.sep === '/' ? relative : parts.join(path.sep));
  }

  #countEntry(): void {
    this.#entries += 1;
    if (this.#entries > this.limits.maxEntries) {
      throw new UnsafeArchiveError(
        `Refusing to extract the archive: it has more than ${this.limits.maxEntries} entries and directories (raise \`max-extract-files\` if this is expected).`,
      );
    }
  }

  #find(parts: readonly string[]): TreeDir | number | undefined {
    let node: TreeDir | number | undefined = this.tree;
    for (const part of parts) {
      if (typeof node === 'number') return undefined;
      node = node.children.get(treeKey(part));
      if (node === undefined) return undefined;
    }
    return node;
  }
}

/**
 * Refuses `bytes` of extracted content past max-extract-size, or past max-extract-ratio
 * times the archive's size (`archiveBytes`, or what was read of it so far) once over
 * the ratio floor.
 */
export function checkExpansion(limits: ExtractLimits, bytes: number, archiveBytes: number): void {
  if (bytes > limits.maxBytes) {
    throw new UnsafeArchiveError(
      `Refusing to extract the archive: it expands to more than ${formatBytes(limits.maxBytes)} (raise \`max-extract-size\` if this is expected).`,
    );
  }
  const ratio = limits.maxRatio ?? 0;
  if (
    ratio > 0 &&
    bytes > (limits.ratioFloorBytes ?? RATIO_FLOOR_BYTES) &&
    bytes > ratio * archiveBytes
  ) {
    throw new UnsafeArchiveError(
      `Refusing to extract the archive: it expands to more than ${ratio} times its size (${formatBytes(bytes)} from ${formatBytes(archiveBytes)}; raise \`max-extract-ratio\`, or set it to 0, if this is expected).`,
    );
  }
}

/** Whether a symlink `depth` directories below the root, pointing at `target`, leaves it on paper. */
function climbsOut(depth: number, target: string): boolean {
  let level = depth;
  for (const part of target.split('/')) {
    if (part === '..') level -= 1;
    else if (part !== '' && part !== '.') level += 1;
    if (level < 0) return true;
  }
  return false;
}

/**
 * `a/./b//c/` -> `[a, b, c]`. With `backslashSeparates` (a zip made on Windows or DOS),
 * backslashes become separators first, as unzip reads them; elsewhere a backslash is a
 * character of the name, as GNU tar and unzip keep it (`back\\slash.html` is one file).
 * Either way a name that `\\` would make absolute, or a `..` between backslashes, is
 * refused: the tree may be read on Windows later. Refuses absolute names, `..`, NUL, and
 * names longer than a filesystem accepts, in time linear in the name.
 */
export function normalizeName(
  name: string,
  refuse: (why: string) => never,
  backslashSeparates = false,
): string[] {
  if (name.includes('\0')) refuse('contains a NUL character');
  const bytes = Buffer.byteLength(name);
  if (bytes >= PATH_MAX) refuse(`has a name of ${bytes} bytes, longer than ${PATH_MAX - 1}`);
  const backslashed = name.includes('\\');
  const slashed = backslashSeparates && backslashed ? name.replaceAll('\\', '/') : name;
  if (/^[/\\]/.test(name) || /^[A-Za-z]:/.test(slashed)) refuse('has an absolute path');
  const parts: string[] = [];
  for (const part of slashed.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') refuse('contains ".."');
    if (backslashed && part.includes('\\') && part.split('\\').includes('..')) {
      refuse('contains ".." between backslashes');
    }
    if (part.length > NAME_MAX / 4 && Buffer.byteLength(part) > NAME_MAX) {
      refuse(`has a component of ${Buffer.byteLength(part)} bytes, longer than ${NAME_MAX}`);
    }
    parts.push(part);
  }
  return parts;
}

/** A name as it may appear in a log line: control characters escaped, at most 200 characters. */
export function printable(text: string): string {
  const short = text.length > 200 ? `${text.slice(0, 199)}…` : text;
  return short.replace(
    /[\u0000-\u001f\u007f]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

/**
 * The names of a directory's long-named entries, by tree key: read from the disk, where
 * the extraction wrote them (`directory` is its `/`-separated path, '' for the root).
 */
export type LongNames = (directory: string) => (key: string) => string | undefined;

/**
 * Calls `visit` for every node under `root` with the `/`-separated path of its directory
 * ('' for the root), its name, the node, its depth (0 at the root) and its key in the tree
 * (see `treeKey`), depth first, in the order of the paths as strings unless `sorted` is
 * false (siblings compare a directory's name followed by `/`). Only a directory's path is
 * made here (its directory's path joined to its name, which V8 keeps as a pair of the
 * two): a walk over 500,000 entries leaves no path per file behind for the collector.
 * With `takeApart`, each directory is emptied once its entries are read, for a walk that
 * is the tree's last: its memory can go while the walk goes on.
 */
export function visitTree(
  root: TreeDir,
  longNames: LongNames,
  visit: (
    directory: string,
    name: string,
    node: TreeDir | number,
    depth: number,
    key: string,
  ) => void,
  { sorted = true, takeApart = false }: { sorted?: boolean; takeApart?: boolean } = {},
): void {
  const read = (dir: TreeDir, path: string) => {
    const children = childrenOf(dir, path, longNames, sorted);
    if (takeApart) dir.children.clear();
    return children;
  };
  const stack = [{ path: '', children: read(root, ''), next: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as (typeof stack)[number];
    const { children } = frame;
    const at = frame.next;
    if (at === children.order.length) {
      stack.pop();
      continue;
    }
    frame.next += 1;
    const index = children.order[at] as number;
    const name = children.names[index] as string;
    const node = children.nodes[index] as TreeDir | number;
    visit(frame.path, name, node, stack.length - 1, children.keys[index] as string);
    if (typeof node !== 'number') {
      const path = pathIn(frame.path, name);
      stack.push({ path, children: read(node, path), next: 0 });
    }
  }
}

/** The `/`-separated path of `name` in `directory` ('' for the root). */
export function pathIn(directory: string, name: string): string {
  return directory === '' ? name : `${directory}/${name}`;
}

/** A directory's entries in parallel arrays, and the order to visit them in. */
interface Children {
  keys: string[];
  names: string[];
  nodes: (TreeDir | number)[];
  order: number[];
}

/** A directory's entries by name, long names read back through `longNames`. */
function childrenOf(
  dir: TreeDir,
  directory: string,
  longNames: LongNames,
  sorted: boolean,
): Children {
  const keys = [...dir.children.keys()];
  const nodes = [...dir.children.values()];
  let names: ((key: string) => string | undefined) | undefined;
  const spelled = keys.map((key) => {
    if (!isDigest(key)) return key;
    names ??= longNames(directory);
    return longName(names, key, directory);
  });
  const order = keys.map((_, index) => index);
  if (sorted) {
    const sortKeys = spelled.map((name, index) =>
      typeof nodes[index] === 'number' ? name : `${name}/`,
    );
    order.sort((a, b) => {
      const x = sortKeys[a] as string;
      const y = sortKeys[b] as string;
      return x < y ? -1 : x > y ? 1 : 0;
    });
  }
  return { keys, names: spelled, nodes, order };
}

/** The long name of `key` in `directory`, read back through `names`; it must be there. */
export function longName(
  names: (key: string) => string | undefined,
  key: string,
  directory: string,
): string {
  const name = names(key);
  if (name === undefined) {
    throw new ActionError(
      `The extracted site could not be listed: an entry of "${printable(directory || '.')}" is no longer on disk under the name the archive gave it.`,
    );
  }
  return name;
}

/** The long names among `names`, by tree key. */
export function longNamesOf(names: Iterable<string>): Map<string, string> {
  const byKey = new Map<string, string>();
  for (const name of names) if (name.length > LONG_NAME) byKey.set(treeKey(name), name);
  return byKey;
}

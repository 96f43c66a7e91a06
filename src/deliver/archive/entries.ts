import path from 'node:path';
import type { ExtractLimits } from '../../config.js';
import { formatBytes } from '../../duration.js';
import { UnsafeArchiveError } from '../../errors.js';

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
  replaces?: EntryKind;
  size: number;
  mode: number;
  /** Symlink target as written in the archive (checked to stay inside). */
  linkTarget?: string;
  /** For hard links: the absolute path of the file linked to. */
  linkSource?: string;
  /** For hard links: the normalized relative path of the file linked to. */
  linkSourceRelative?: string;
}

/**
 * The longest path and name Linux accepts (PATH_MAX, NAME_MAX), in bytes: anything
 * longer cannot be created, so it is refused before any work is spent on it.
 */
export const PATH_MAX = 4096;
export const NAME_MAX = 255;
/** Below this, the expansion ratio is not enforced: small archives may compress well. */
export const RATIO_FLOOR_BYTES = 1024 ** 3;

interface TreeNode {
  kind: EntryKind;
  /** Directories only: the entries created inside, by name. */
  children?: Map<string, TreeNode>;
}

/**
 * Decides, entry by entry, whether an archive may be extracted into `root`, and where.
 * It keeps a tree of everything the archive created (one node per path component, so
 * every check costs the length of the name, never more), and refuses absolute names,
 * `..`, NUL, names no filesystem accepts, devices and fifos, anything written through
 * (or replacing) a symlink, a directory replaced by something else, and archives past
 * the size, ratio or entry ceilings. Symlinks are only recorded here: the writer creates
 * them after every other entry and then resolves them on disk.
 */
export class EntryGuard {
  readonly #tree: TreeNode = { kind: 'directory', children: new Map() };
  #entries = 0;
  #bytes = 0;

  /** `archiveBytes` tells how much of the archive has been read, for the ratio ceiling. */
  constructor(
    readonly root: string,
    readonly limits: ExtractLimits,
    readonly archiveBytes: () => number = () => 0,
  ) {}

  get entryCount(): number {
    return this.#entries;
  }

  get byteCount(): number {
    return this.#bytes;
  }

  /** Returns the entry's plan, `undefined` for entries that create nothing, or throws. */
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
    this.addBytes(entry.kind === 'file' ? entry.size : 0);

    const parts = normalizeName(name, refuse);
    if (parts.length === 0) {
      if (entry.kind === 'directory') return undefined;
      refuse('has no name');
    }
    const kind = entry.kind as EntryKind;
    const relative = parts.join('/');

    // Every parent must be a directory this archive created (or creates now): never a
    // symlink, never a file.
    let node = this.#tree;
    let firstNewParent = parts.length - 1;
    for (let i = 0; i < parts.length - 1; i += 1) {
      const part = parts[i] as string;
      const children = node.children as Map<string, TreeNode>;
      let child = children.get(part);
      if (child === undefined) {
        if (firstNewParent === parts.length - 1) firstNewParent = i;
        // Directories a name implies count too: one deep name must not make a million.
        this.#countEntry();
        child = { kind: 'directory', children: new Map() };
        children.set(part, child);
      } else if (child.kind === 'symlink') {
        refuse(
          `would be written through the symlink "${printable(parts.slice(0, i + 1).join('/'))}"`,
        );
      } else if (child.kind !== 'directory') {
        refuse(
          `needs "${printable(parts.slice(0, i + 1).join('/'))}" to be a directory, but it is a file`,
        );
      }
      node = child;
    }
    const leafName = parts[parts.length - 1] as string;
    const siblings = node.children as Map<string, TreeNode>;
    const existing = siblings.get(leafName)?.kind;
    if (existing === 'symlink') refuse('would replace a symlink');
    if (existing === 'directory' && kind !== 'directory') refuse('would replace a directory');
    if ((existing === 'file' || existing === 'hardlink') && kind !== 'file' && kind !== 'hardlink')
      refuse('would replace a file with a link or directory');

    const planned: PlannedEntry = {
      kind,
      relative,
      absolute: path.join(this.root, ...parts),
      parts,
      firstNewParent,
      ...(existing !== undefined ? { replaces: existing } : {}),
      size: entry.size,
      mode: kind === 'directory' ? 0o755 : (entry.mode ?? 0o644) & 0o111 ? 0o755 : 0o644,
    };
    if (kind === 'symlink') {
      const target = entry.linkTarget ?? '';
      if (target === '' || target.includes('\0')) refuse('is a symlink without a usable target');
      if (Buffer.byteLength(target) >= PATH_MAX)
        refuse(`is a symlink whose target is longer than ${PATH_MAX - 1} bytes`);
      if (target.startsWith('/') || /^[A-Za-z]:/.test(target) || target.includes('\\')) {
        refuse(`is a symlink to the absolute path "${printable(target)}"`);
      }
      if (climbsOut(parts.length - 1, target)) {
        refuse(`is a symlink to "${printable(target)}", outside the export`);
      }
      planned.linkTarget = target;
    }
    if (kind === 'hardlink') {
      const targetParts = normalizeName(entry.linkTarget ?? '', (why) =>
        refuse(`is a hard link whose target ${why}`),
      );
      const targetKind = this.#find(targetParts)?.kind;
      if (targetKind !== 'file' && targetKind !== 'hardlink') {
        refuse(
          `is a hard link to "${printable(entry.linkTarget ?? '')}", which is not a file extracted before it`,
        );
      }
      const targetRelative = targetParts.join('/');
      // A link to itself (GNU tar writes these for a file listed twice) keeps the file.
      if (targetRelative === relative) return undefined;
      planned.linkSource = path.join(this.root, ...targetParts);
      planned.linkSourceRelative = targetRelative;
    }
    if (existing === undefined || existing !== kind) {
      siblings.set(leafName, kind === 'directory' ? { kind, children: new Map() } : { kind });
    }
    return planned;
  }

  /** Counts bytes to be written, so a lying size header cannot slip past the ceilings. */
  addBytes(count: number): void {
    this.#bytes += count;
    checkExpansion(this.limits, this.#bytes, this.archiveBytes());
  }

  #countEntry(): void {
    this.#entries += 1;
    if (this.#entries > this.limits.maxEntries) {
      throw new UnsafeArchiveError(
        `Refusing to extract the archive: it has more than ${this.limits.maxEntries} entries and directories (raise \`max-extract-files\` if this is expected).`,
      );
    }
  }

  #find(parts: readonly string[]): TreeNode | undefined {
    let node: TreeNode | undefined = this.#tree;
    for (const part of parts) {
      node = node?.children?.get(part);
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
 * `a/./b//c/` -> `[a, b, c]`. Backslashes (Windows tools) become separators first, so the
 * checks below see what a Windows extractor would create. Refuses absolute names, `..`,
 * NUL, and names longer than a filesystem accepts, in time linear in the name.
 */
export function normalizeName(name: string, refuse: (why: string) => never): string[] {
  if (name.includes('\0')) refuse('contains a NUL character');
  const bytes = Buffer.byteLength(name);
  if (bytes >= PATH_MAX) refuse(`has a name of ${bytes} bytes, longer than ${PATH_MAX - 1}`);
  const slashed = name.includes('\\') ? name.replaceAll('\\', '/') : name;
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed)) refuse('has an absolute path');
  const parts: string[] = [];
  for (const part of slashed.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') refuse('contains ".."');
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

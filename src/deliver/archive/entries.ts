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
 * Decides, entry by entry, whether an archive may be extracted into `root`, and where.
 * It refuses absolute names, `..`, NUL and backslashes, devices and fifos, links whose
 * target leaves the root, anything written through (or replacing) a symlink, a
 * directory replaced by something else, and archives past the size or entry ceilings.
 * The root is a fresh directory, so what this guard has seen is all that exists there.
 */
export class EntryGuard {
  readonly #created = new Map<string, EntryKind>();
  #entries = 0;
  #bytes = 0;

  constructor(
    readonly root: string,
    readonly limits: ExtractLimits,
  ) {}

  get entryCount(): number {
    return this.#entries;
  }

  get byteCount(): number {
    return this.#bytes;
  }

  /** Symlinks created so far, for the final check of where they resolve. */
  get symlinks(): string[] {
    return [...this.#created].filter(([, kind]) => kind === 'symlink').map(([rel]) => rel);
  }

  /** Returns the entry's plan, `undefined` for entries that create nothing, or throws. */
  plan(entry: ArchiveEntry): PlannedEntry | undefined {
    const name = entry.name;
    const refuse = (why: string) => {
      throw new UnsafeArchiveError(
        `Refusing to extract the archive: entry "${printable(name)}" ${why}.`,
      );
    };
    if (entry.kind === 'device') refuse('is a device file');
    if (entry.kind === 'fifo') refuse('is a named pipe (fifo)');
    if (entry.kind === 'unknown') refuse('has an entry type this action does not extract');

    this.#entries += 1;
    if (this.#entries > this.limits.maxEntries) {
      throw new UnsafeArchiveError(
        `Refusing to extract the archive: it has more than ${this.limits.maxEntries} entries (raise max-extract-files if this is expected).`,
      );
    }
    this.addBytes(entry.size);

    const relative = normalizeName(name, refuse);
    if (relative === '') {
      if (entry.kind === 'directory') return undefined;
      refuse('has no name');
    }
    const kind = entry.kind as EntryKind;

    // Every parent must be a directory this archive created (or will create): never a
    // symlink, never a file.
    const parts = relative.split('/');
    for (let i = 1; i < parts.length; i += 1) {
      const parent = parts.slice(0, i).join('/');
      const existing = this.#created.get(parent);
      if (existing === 'symlink')
        refuse(`would be written through the symlink "${printable(parent)}"`);
      if (existing === 'file' || existing === 'hardlink')
        refuse(`needs "${printable(parent)}" to be a directory, but it is a file`);
    }
    const existing = this.#created.get(relative);
    if (existing === 'symlink') refuse('would replace a symlink');
    if (existing === 'directory' && kind !== 'directory') refuse('would replace a directory');
    if ((existing === 'file' || existing === 'hardlink') && kind !== 'file')
      refuse('would replace a file with a link or directory');

    const planned: PlannedEntry = {
      kind,
      relative,
      absolute: path.join(this.root, ...parts),
      size: entry.size,
      mode: kind === 'directory' ? 0o755 : (entry.mode ?? 0o644) & 0o111 ? 0o755 : 0o644,
    };
    if (kind === 'symlink') {
      const target = entry.linkTarget ?? '';
      if (target === '' || target.includes('\0')) refuse('is a symlink without a usable target');
      if (target.startsWith('/') || /^[A-Za-z]:/.test(target) || target.includes('\\')) {
        refuse(`is a symlink to the absolute path "${printable(target)}"`);
      }
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(relative), target));
      if (resolved === '..' || resolved.startsWith('../')) {
        refuse(`is a symlink to "${printable(target)}", outside the export`);
      }
      planned.linkTarget = target;
    }
    if (kind === 'hardlink') {
      const targetRelative = normalizeName(entry.linkTarget ?? '', (why) =>
        refuse(`is a hard link whose target ${why}`),
      );
      const targetKind = this.#created.get(targetRelative);
      if (targetKind !== 'file' && targetKind !== 'hardlink') {
        refuse(
          `is a hard link to "${printable(entry.linkTarget ?? '')}", which is not a file extracted before it`,
        );
      }
      planned.linkSource = path.join(this.root, ...targetRelative.split('/'));
      planned.linkSourceRelative = targetRelative;
    }
    for (let i = 1; i < parts.length; i += 1) {
      const parent = parts.slice(0, i).join('/');
      if (!this.#created.has(parent)) this.#created.set(parent, 'directory');
    }
    this.#created.set(relative, kind);
    return planned;
  }

  /** Counts bytes actually written, so a lying size header cannot slip past the ceiling. */
  addBytes(count: number): void {
    this.#bytes += count;
    if (this.#bytes > this.limits.maxBytes) {
      throw new UnsafeArchiveError(
        `Refusing to extract the archive: it expands to more than ${formatBytes(this.limits.maxBytes)} (raise max-extract-size if this is expected).`,
      );
    }
  }
}

/** `a/./b//c/` -> `a/b/c`; refuses absolute names, `..`, NUL and backslashes. */
function normalizeName(name: string, refuse: (why: string) => never): string {
  if (name.includes('\0')) refuse('contains a NUL character');
  if (name.includes('\\')) refuse('contains a backslash');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) refuse('has an absolute path');
  const parts = name.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) refuse('contains ".."');
  return parts.join('/');
}

function printable(text: string): string {
  const shown = text.replace(
    /[\u0000-\u001f\u007f]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return shown.length > 200 ? `${shown.slice(0, 199)}…` : shown;
}

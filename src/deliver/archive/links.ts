import fs from 'node:fs';
import path from 'node:path';

/** Links followed in one lookup before the kernel gives up with ELOOP (Linux's limit). */
export const MAX_LINK_HOPS = 40;

/** Where a path leads: a real path inside the root (it may not exist yet), or outside. */
type Resolution = { inside: true; path: string } | { inside: false };

/** A link that loops, or that needs more than MAX_LINK_HOPS links to resolve. */
export class LinkLoopError extends Error {
  override name = 'LinkLoopError';
}

/**
 * Resolves symlinks the way the kernel does, through the links that really exist on disk:
 * `lstat` and `readlink` decide what each component is, so a case-insensitive or
 * normalizing filesystem is judged by its own name rules, and `l/..` climbs from where
 * `l` really points, not from where it sits. Each link is resolved once (keyed by its
 * inode) and each path looked up once, so checking every link of a tree costs time
 * linear in the total length of their targets.
 */
export class LinkResolver {
  readonly #root: string;
  readonly #stats = new Map<string, fs.Stats | undefined>();
  readonly #links = new Map<string, Resolution | 'resolving'>();

  /** `root` must be a directory whose parents, inside it, are real directories. */
  constructor(root: string) {
    this.#root = fs.realpathSync.native(root);
  }

  /** Whether the link at `relative` (`/`-separated, under the root) leads inside the root. */
  leadsInside(relative: string): boolean {
    return this.#resolveLink(this.#root + path.sep + relative.split('/').join(path.sep), 0).inside;
  }

  #resolveLink(absolute: string, depth: number): Resolution {
    const stat = this.#lstat(absolute);
    if (stat === undefined || !stat.isSymbolicLink()) return { inside: true, path: absolute };
    const key = `${stat.dev}:${stat.ino}`;
    const known = this.#links.get(key);
    if (known === 'resolving' || depth > MAX_LINK_HOPS) {
      throw new LinkLoopError('a loop of symlinks, or a chain longer than the kernel follows');
    }
    if (known !== undefined) return known;
    this.#links.set(key, 'resolving');
    const target = fs.readlinkSync(absolute);
    const result: Resolution = path.isAbsolute(target)
      ? { inside: false }
      : this.#walk(path.dirname(absolute), target, depth);
    this.#links.set(key, result);
    return result;
  }

  #walk(start: string, target: string, depth: number): Resolution {
    let current = start;
    const parts = target.split('/');
    for (let i = 0; i < parts.length; i += 1) {
      const part = parts[i] as string;
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (current === this.#root) return { inside: false };
        current = path.dirname(current);
        continue;
      }
      const next = current + path.sep + part;
      const stat = this.#lstat(next);
      if (stat === undefined) {
        // Nothing there yet: the rest is where a later write through this link would land.
        return this.#lexical(next, parts, i + 1);
      }
      if (stat.isSymbolicLink()) {
        const via = this.#resolveLink(next, depth + 1);
        if (!via.inside) return via;
        current = via.path;
        continue;
      }
      // A file with more components after it leads nowhere (ENOTDIR): harmless.
      if (!stat.isDirectory() && i < parts.length - 1) return { inside: true, path: next };
      current = next;
    }
    return { inside: true, path: current };
  }

  #lexical(from: string, parts: readonly string[], start: number): Resolution {
    let current = from;
    for (let i = start; i < parts.length; i += 1) {
      const part = parts[i] as string;
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (current === this.#root) return { inside: false };
        current = path.dirname(current);
      } else current = current + path.sep + part;
    }
    return { inside: true, path: current };
  }

  #lstat(file: string): fs.Stats | undefined {
    if (this.#stats.has(file)) return this.#stats.get(file);
    let stat: fs.Stats | undefined;
    try {
      stat = fs.lstatSync(file);
    } catch {
      stat = undefined;
    }
    this.#stats.set(file, stat);
    return stat;
  }
}

import { readTree } from '../tree-walk.js';

/**
 * How a URL path found its file under the export's URL rules, the ones of
 * `try_files $uri $uri.html $uri/ =404`: `file` as is, `html` by appending `.html`
 * (extensionless links), `index` as a directory's index.html.
 */
export type UrlRule = 'file' | 'html' | 'index';

export interface Resolved {
  /** Relative, `/`-separated path of the file served. */
  file: string;
  rule: UrlRule;
  /**
   * A directory of the same name exists beside the `.html` file (Next.js writes one of
   * RSC payloads per page): a server that tries `$uri/` before `$uri.html` answers 403.
   */
  shadowedByDirectory?: true;
}

/** The files and directories of an extracted site, and its URL rules. */
export class SiteTree {
  private constructor(
    readonly root: string,
    readonly files: ReadonlySet<string>,
    readonly directories: ReadonlySet<string>,
  ) {}

  static async read(root: string): Promise<SiteTree> {
    const files = new Set<string>();
    const directories = new Set<string>(['']);
    for (const { path, dirent } of await readTree(root)) {
      if (dirent.isFile()) files.add(path);
      else if (dirent.isDirectory()) directories.add(path);
    }
    return new SiteTree(root, files, directories);
  }

  /** A tree already listed (a worker thread gets the lists of the one that read it). */
  static of(root: string, files: Iterable<string>, directories: Iterable<string>): SiteTree {
    return new SiteTree(root, new Set(files), new Set(directories));
  }

  /**
   * The file a decoded URL path (`/guides/intro`) is served from, or undefined (404).
   * Runs of slashes count as one, as nginx reads them (`merge_slashes`, on by default):
   * `/guides//intro` is served.
   */
  resolve(urlPath: string): Resolved | undefined {
    const merged = urlPath.includes('//') ? urlPath.replace(/\/{2,}/g, '/') : urlPath;
    const trimmed = merged.includes('/.') ? withoutDotSegments(merged) : merged.replace(/^\/+/, '');
    if (trimmed === undefined) return undefined;
    if (trimmed === '' || trimmed.endsWith('/')) {
      const index = `${trimmed}index.html`;
      return this.files.has(index) ? { file: index, rule: 'index' } : undefined;
    }
    if (this.files.has(trimmed)) return { file: trimmed, rule: 'file' };
    if (this.files.has(`${trimmed}.html`)) {
      return this.directories.has(trimmed)
        ? { file: `${trimmed}.html`, rule: 'html', shadowedByDirectory: true }
        : { file: `${trimmed}.html`, rule: 'html' };
    }
    if (this.files.has(`${trimmed}/index.html`))
      return { file: `${trimmed}/index.html`, rule: 'index' };
    return undefined;
  }

  /** The HTML pages, with the URL each is served at (`guides/x.html` → `/guides/x`). */
  pages(): { file: string; url: string }[] {
    return [...this.files]
      .filter((file) => /\.html?$/i.test(file))
      .sort()
      .map((file) => ({ file, url: pageUrl(file) }));
  }
}

/**
 * A URL path decoded as a file's name reads (`/a%20b` is `/a b`), or undefined when it is
 * no percent-encoding of UTF-8: a `%` that two hex digits do not follow (`100%`, which
 * nginx answers 400), or bytes no file name of the tree spells (`%C3` alone).
 */
export function decodedUrlPath(pathname: string): string | undefined {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
}

/**
 * A decoded URL path's `.` and `..` steps applied, as nginx applies them once it has
 * decoded `%2F` (`/x/..%2Fnext` is `/next`), without its leading slash; undefined for one
 * that climbs above the root (nginx: 400).
 */
function withoutDotSegments(urlPath: string): string | undefined {
  const kept: string[] = [];
  const steps = urlPath.replace(/^\/+/, '').split('/');
  for (const [at, step] of steps.entries()) {
    const last = at === steps.length - 1;
    if (step === '..') {
      if (kept.length === 0) return undefined;
      kept.pop();
    } else if (step !== '.') kept.push(step);
    // A path that ends in a step names a folder: `/guides/setup/..` is `/guides/`.
    if (last && (step === '.' || step === '..')) kept.push('');
  }
  return kept.join('/');
}

/**
 * The URL path a page is served at: its clean form, a directory for index.html. Only
 * `.html` is left out: `resolve` appends `.html`, so `x.htm` is served at `/x.htm` alone.
 */
export function pageUrl(file: string): string {
  if (file === 'index.html') return '/';
  if (file.endsWith('/index.html')) return `/${file.slice(0, -'index.html'.length)}`;
  return `/${file.endsWith('.html') ? file.slice(0, -'.html'.length) : file}`;
}

/**
 * The address of a page's URL path on `origin`, each segment encoded: a `#`, `?`, `%` or
 * `\` in a name is part of the path a browser asks for, and of the base its relative
 * links are resolved against.
 */
export function pageAddress(origin: string, urlPath: string): string {
  return `${origin}${urlPath.split('/').map(encodeURIComponent).join('/')}`;
}

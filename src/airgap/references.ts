/** Where a reference was found and what kind of construct holds it. */
export type ReferenceKind =
  | 'html attribute'
  | 'srcset'
  | 'meta refresh'
  | 'inline style'
  | 'css url()'
  | 'css @import'
  | 'js string';

export interface ExternalReference {
  /** File path relative to the site root, `/`-separated. */
  file: string;
  line: number;
  column: number;
  url: string;
  host: string;
  kind: ReferenceKind;
}

/** Schemes that load or open something over the network. */
const NETWORK_SCHEMES = new Set(['http', 'https', 'ws', 'wss', 'ftp']);

/** Namespace identifiers: they look like URLs but nothing ever fetches them. */
const NAMESPACES = new Set([
  'http://www.w3.org/2000/svg',
  'http://www.w3.org/1999/xhtml',
  'http://www.w3.org/1999/xlink',
  'http://www.w3.org/1998/math/mathml',
  'http://www.w3.org/xml/1998/namespace',
  'http://www.w3.org/2000/xmlns/',
]);

/**
 * The host a reference would reach outside the site, or undefined when it stays inside
 * (relative paths, fragments, data:, mailto:, javascript: and other non-network schemes).
 */
export function externalHost(reference: string): string | undefined {
  const value = reference.trim();
  if (value === '') return undefined;
  if (NAMESPACES.has(value.toLowerCase())) return undefined;
  let absolute: string;
  if (value.startsWith('//')) absolute = `https:${value}`;
  else {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
    if (scheme === undefined || !NETWORK_SCHEMES.has(scheme)) return undefined;
    absolute = value;
  }
  try {
    const url = new URL(absolute);
    return url.host.toLowerCase() || undefined;
  } catch {
    // An unparseable absolute URL still points outside; name what follows the slashes.
    return /^[a-z]*:?\/\/([^/?#\s]*)/i.exec(value)?.[1]?.toLowerCase() || '(unparseable host)';
  }
}

/** `cdn.example.com` matches itself; `*.example.com` matches any subdomain of it. */
export function isAllowedHost(host: string, allowed: readonly string[]): boolean {
  const bare = host.replace(/:\d+$/, '');
  return allowed.some((pattern) => {
    if (pattern === host || pattern === bare) return true;
    if (pattern.startsWith('*.')) {
      const suffix = pattern.slice(1).replace(/:\d+$/, '');
      return bare.endsWith(suffix) && bare.length > suffix.length;
    }
    return false;
  });
}

/** Maps character offsets of a text to 1-based lines and columns. */
export class LineIndex {
  readonly #starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1))
      this.#starts.push(i + 1);
  }

  at(offset: number): { line: number; column: number } {
    let low = 0;
    let high = this.#starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.#starts[mid] as number) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (this.#starts[low] as number) + 1 };
  }
}

/**
 * What the browser does with a reference: `load` fetches it while the page is shown
 * (scripts, styles, images, frames, fonts, preconnects, fetch targets); `link` only when
 * a reader acts (`<a href>`, `<form action>`); `metadata` never (canonical, og:*,
 * JSON-LD, namespaces). Air-gapped deployments break on loads, not on the others.
 */
export type Role = 'load' | 'link' | 'metadata';

/** A reference found in a file, before it is known to leave the site. */
export interface FoundReference {
  url: string;
  /** Character offset in the file. */
  offset: number;
  role: Role;
  /** The construct that holds it, as a reader would search for it: `<script src>`, `css url()`. */
  via: string;
}

/** A reference that leaves the site. */
export interface ExternalReference {
  /** File path relative to the site root, `/`-separated. */
  file: string;
  line: number;
  column: number;
  url: string;
  host: string;
  role: Role;
  via: string;
}

const TAB_OR_NEWLINE = /[\t\n\r]/;
const TAB_OR_NEWLINE_ALL = /[\t\n\r]/g;

/**
 * `value` without the C0 controls and spaces at either end, which the URL parser drops
 * (`&#1;//host/`, `" https://…\n"`). Only those: a no-break space, an ideographic space or
 * a byte order mark (which `trim` drops) stays, and makes the URL a relative one, as
 * browsers read it: `src="\u00a0https://cdn…"` asks the site for a path.
 */
function withoutUrlEdges(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) <= 0x20) start += 1;
  while (end > start && value.charCodeAt(end - 1) <= 0x20) end -= 1;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/** `//host/…`, and `\\host`, `/\host`, `\/host`, which browsers read the same. */
const SCHEME_RELATIVE = /^[/\\]{2}/;

/** Schemes that load or open something over the network. */
const NETWORK_SCHEMES = new Set(['http', 'https', 'ws', 'wss', 'ftp']);

/**
 * The host a reference would reach outside the site, or undefined when it stays inside
 * (relative paths, fragments, data:, mailto:, javascript: and other non-network schemes)
 * or names no host at all (a bare `//`).
 */
export function externalHost(reference: string): string | undefined {
  // As browsers read it: tabs and line breaks anywhere are dropped, control characters
  // and spaces at either end too (`&#1;//host/`), `\` is `/` in http(s).
  const value = withoutUrlEdges(
    TAB_OR_NEWLINE.test(reference) ? reference.replace(TAB_OR_NEWLINE_ALL, '') : reference,
  );
  if (value === '') return undefined;
  let absolute: string;
  if (SCHEME_RELATIVE.test(value)) absolute = `https:${value}`;
  else {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
    if (scheme === undefined || !NETWORK_SCHEMES.has(scheme)) return undefined;
    absolute = value;
  }
  try {
    return new URL(absolute).host.toLowerCase() || undefined;
  } catch {
    // Not a URL a browser could request (`https://${host}/x` pieces, `//` alone).
    return undefined;
  }
}

/**
 * A host a string in a script could really be requesting: a registrable name (at least
 * one dot, a top-level label of letters or an internationalized one, `xn--p1ai`, and the
 * root's dot allowed after it, `evil.com.`) or an IP address. Excludes the dummy bases
 * libraries use to parse relative URLs (`http://a`, `https://p`, `http://x.y`-style tests
 * keep their dots, and are caught by the lack of a call site instead).
 */
export function isRealHost(host: string): boolean {
  const bare = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(bare) || bare.includes(':')) return true;
  const labels = (bare.endsWith('.') ? bare.slice(0, -1) : bare).split('.');
  const top = labels.at(-1) ?? '';
  return (
    labels.length >= 2 &&
    labels.every((l) => l !== '') &&
    (/^[a-z]{2,}$/.test(top) || /^xn--[a-z0-9-]+$/.test(top))
  );
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

/** Line starts held in one full block: 256 KB. */
const BLOCK_LINES = 64 * 1024;
/** The first block's size, doubled as it fills. */
const FIRST_BLOCK_LINES = 1024;
/** A block's starts are kept as offsets from its first one, in 32 bits. */
const BLOCK_SPAN = 2 ** 32;

/**
 * Maps character offsets of a text, given in pieces as it streams, to 1-based lines.
 * Line starts are kept 4 bytes each, in blocks that are filled and never copied: an array
 * of numbers took 24 bytes a line at its peak (100 MB of line breaks, from an archive of
 * a few hundred KB: 2.4 GB).
 */
export class LineIndex {
  readonly #blocks: Uint32Array[] = [];
  /**
   * Per block: the offset its starts are counted from, and its first line (0-based); a
   * block holds the lines up to the next one's first.
   */
  readonly #bases: number[] = [];
  readonly #firstLines: number[] = [];
  /** The block being filled, with its base and how many starts it holds. */
  #block = new Uint32Array(0);
  #base = 0;
  #count = 0;
  #length = 0;

  constructor(
    text?: string,
    private readonly limits: { blockLines: number; blockSpan: number } = {
      blockLines: BLOCK_LINES,
      blockSpan: BLOCK_SPAN,
    },
  ) {
    this.#startBlock(0);
    this.#push(0);
    if (text !== undefined) this.append(text);
  }

  append(piece: string): void {
    for (let i = piece.indexOf('\n'); i >= 0; i = piece.indexOf('\n', i + 1))
      this.#push(this.#length + i + 1);
    this.#length += piece.length;
  }

  at(offset: number): { line: number; column: number } {
    const last = this.#blocks.length - 1;
    const b = lastAtMost(this.#bases, this.#bases.length, offset);
    const block = this.#blocks[b] as Uint32Array;
    const base = this.#bases[b] as number;
    const first = this.#firstLines[b] as number;
    const count = b === last ? this.#count : (this.#firstLines[b + 1] as number) - first;
    const i = lastAtMost(block, count, offset - base);
    return {
      line: first + i + 1,
      column: offset - (base + (block[i] as number)) + 1,
    };
  }

  #push(start: number): void {
    if (start - this.#base >= this.limits.blockSpan) this.#startBlock(start);
    else if (this.#count === this.#block.length) {
      if (this.#block.length < this.limits.blockLines) this.#growBlock();
      else this.#startBlock(start);
    }
    this.#block[this.#count] = start - this.#base;
    this.#count += 1;
  }

  /** A page's first block starts small (most pages have a few thousand lines) and doubles. */
  #growBlock(): void {
    const grown = new Uint32Array(Math.min(this.#block.length * 2, this.limits.blockLines));
    grown.set(this.#block);
    this.#block = grown;
    this.#blocks[this.#blocks.length - 1] = grown;
  }

  #startBlock(base: number): void {
    const firstLine =
      this.#blocks.length === 0 ? 0 : (this.#firstLines.at(-1) as number) + this.#count;
    this.#block = new Uint32Array(
      this.#blocks.length === 0
        ? Math.min(FIRST_BLOCK_LINES, this.limits.blockLines)
        : this.limits.blockLines,
    );
    this.#blocks.push(this.#block);
    this.#bases.push(base);
    this.#firstLines.push(firstLine);
    this.#base = base;
    this.#count = 0;
  }
}

/** The index of the last of the first `count` sorted `values` that is at most `value` (the first is). */
function lastAtMost(values: ArrayLike<number>, count: number, value: number): number {
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((values[mid] as number) <= value) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** `rel` values of `<link>` that make the browser fetch or connect while the page loads. */
const LOADING_RELS = new Set([
  'stylesheet',
  'icon',
  'apple-touch-icon',
  'apple-touch-icon-precomposed',
  'mask-icon',
  'fluid-icon',
  'preload',
  'modulepreload',
  'prefetch',
  'prerender',
  'preconnect',
  'dns-prefetch',
  'manifest',
]);

/** The SVG elements whose href is fetched (as opposed to `<a>`, which navigates). */
const SVG_LOADING_HREF = new Set(['use', 'image', 'feimage', 'script', 'mpath']);

type AttributeRole = Readonly<{ role: Role; via: string }>;

/** Roles by tag and attribute, for the elements whose role does not depend on other attributes. */
const ROLE_CACHE = new Map<string, Map<string, AttributeRole | undefined>>();
const MAX_CACHED_TAGS = 1000;

/** What the browser does with the URL in `attribute` of element `tag`, or undefined when it holds none. */
export function roleOfAttribute(
  tag: string,
  attribute: string,
  attributes: Readonly<Record<string, string>>,
): AttributeRole | undefined {
  // Only <link>'s role reads `rel`: the others are computed once (a sidebar repeats <a href> hundreds of times a page).
  if (tag === 'link') return roleOf(tag, attribute, attributes);
  let byAttribute = ROLE_CACHE.get(tag);
  if (byAttribute === undefined) {
    // Custom elements and React component names are open-ended: keep the cache bounded.
    if (ROLE_CACHE.size >= MAX_CACHED_TAGS) return roleOf(tag, attribute, attributes);
    ROLE_CACHE.set(tag, (byAttribute = new Map()));
  }
  if (byAttribute.has(attribute)) return byAttribute.get(attribute);
  const role = roleOf(tag, attribute, attributes);
  byAttribute.set(attribute, role);
  return role;
}

function roleOf(
  tag: string,
  attribute: string,
  attributes: Readonly<Record<string, string>>,
): AttributeRole | undefined {
  const via = `<${tag} ${attribute}>`;
  switch (attribute) {
    case 'href':
    case 'xlink:href': {
      if (tag === 'a' || tag === 'area') return { role: 'link', via };
      if (tag === 'link') {
        const rels = (attributes.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean);
        const loading = rels.find((rel) => LOADING_RELS.has(rel));
        return loading
          ? { role: 'load', via: `<link rel=${loading}>` }
          : { role: 'metadata', via: `<link rel=${rels.join(' ') || '?'}>` };
      }
      if (tag === 'base') return { role: 'metadata', via };
      if (SVG_LOADING_HREF.has(tag)) return { role: 'load', via };
      return { role: 'link', via };
    }
    case 'src':
    case 'srcset':
    case 'imagesrcset':
    case 'poster':
    case 'background':
    case 'lowsrc':
    case 'dynsrc':
    case 'icon':
    case 'manifest':
    case 'archive':
    case 'codebase':
      return { role: 'load', via };
    case 'data':
      return tag === 'object' ? { role: 'load', via } : undefined;
    case 'action':
    case 'formaction':
    case 'ping':
      return { role: 'link', via };
    case 'cite':
    case 'longdesc':
    case 'itemtype':
    case 'itemid':
      return { role: 'metadata', via };
    default:
      return undefined;
  }
}

/** The origin a site's own addresses are resolved under (no request goes there). */
export const SITE_ORIGIN = 'http://site.invalid';
export const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** A `<base href>` as read once: a page repeats it for every reference, and it may be long. */
interface ParsedBase {
  namesHost: boolean;
  /** A path from the site's root (`/docs/`). */
  fromRoot: boolean;
  /** Resolved against the site (a path from its root keeps the site's origin), when it is a URL. */
  url: URL | undefined;
  /**
   * References resolved under it, by what the page wrote: the same string each time, so
   * that a page repeating `i.png` under a long base has it built, hashed and checked once.
   */
  resolved: Map<string, string>;
}
/** References a base keeps resolved. */
const MAX_RESOLVED = 256;
/**
 * The bases read lately: a page's and those of its `<iframe srcdoc>` frames, asked for in
 * turn, reference by reference (one remembered base was read again at every turn).
 */
const BASES = new Map<string, ParsedBase>();
const MAX_BASES = 16;

function parsedBase(base: string): ParsedBase {
  const known = BASES.get(base);
  if (known !== undefined) return known;
  const trimmed = withoutUrlEdges(base);
  let url: URL | undefined;
  try {
    url = new URL(trimmed, `${SITE_ORIGIN}/`);
  } catch {
    url = undefined;
  }
  const parsed = {
    namesHost: externalHost(trimmed) !== undefined,
    fromRoot: /^\/(?![/\\])/.test(trimmed),
    url,
    resolved: new Map<string, string>(),
  };
  if (BASES.size >= MAX_BASES) BASES.clear();
  BASES.set(base, parsed);
  return parsed;
}

/** Whether a `<base href>` sends relative references to a host: `//cdn.example.com/` (or `\\cdn…`) too, with the page's own scheme. */
export function baseNamesHost(base: string): boolean {
  return parsedBase(base).namesHost;
}

/**
 * A page's reference as the browser requests it: under a `<base href>` that names a host,
 * a relative one (`app.js`, `/about`) leads to that host, not into the site.
 */
export function underBase<T extends FoundReference>(found: T, base: string | undefined): T {
  if (base === undefined) return found;
  const { namesHost, url: baseUrl, resolved } = parsedBase(base);
  if (!namesHost || baseUrl === undefined) return found;
  const known = resolved.get(found.url);
  if (known !== undefined) return { ...found, url: known };
  if (SCHEME.test(found.url) || externalHost(found.url) !== undefined) return found;
  let url: string;
  try {
    url = new URL(found.url, baseUrl).href;
  } catch {
    return found;
  }
  if (resolved.size >= MAX_RESOLVED) resolved.clear();
  resolved.set(found.url, url);
  return { ...found, url };
}

/**
 * `found` resolved against a `<base href>` that names a host or starts at the site's root
 * (`/docs/`), or undefined for another (`docs/`, `?v=2`), which depends on the page's
 * address. A path stays a path (`/docs/app.js`).
 */
export function againstBase<T extends FoundReference>(found: T, base: string): T | undefined {
  const { namesHost, fromRoot, url: baseUrl } = parsedBase(base);
  if (baseUrl === undefined || !(namesHost || fromRoot)) return undefined;
  if (SCHEME.test(found.url) || externalHost(found.url) !== undefined) return found;
  try {
    const url = new URL(found.url, baseUrl);
    return {
      ...found,
      url: url.origin === SITE_ORIGIN ? `${url.pathname}${url.search}${url.hash}` : url.href,
    };
  } catch {
    return found;
  }
}

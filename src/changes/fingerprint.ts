import { createHash, type Hash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import {
  DecodingMode,
  decodeHTML,
  decodeHTMLAttribute,
  EntityDecoder,
  htmlDecodeTree,
} from 'entities/decode';
import { isHtmlWhitespace } from '../html-whitespace.js';
import { safeDecode } from '../net.js';

/**
 * What a reader sees on a page, reduced to short hashes, so that two exports can be
 * compared page by page even though every build rewrites the bytes (Next.js build ids
 * and flight data, VitePress hash maps, content-hashed asset names).
 *
 * Two levels, both computed from the page's bytes, not decoded into a string of text:
 * - `markup`: CRC-32 and length of the page without scripts, nor the head's styles and
 *   `<link>` tags: where build ids, flight data, hash maps and preloads of hashed chunks
 *   live (such a tag inside a comment or a CDATA section is part of it, kept). Cheap
 *   (native search and CRC, no decoding): when it equals the earlier export's, the page
 *   is unchanged and its other hashes are carried over. CRC-32
 *   detects every edit confined to 4 bytes and misses others with odds of 1 in 4
 *   billion; a miss would only keep an earlier fingerprint, never fail a run. With it
 *   goes the page's `layout`, where its kept runs are: the next export checks the page
 *   along them instead of searching it.
 * - `content` and `navigation`: SHA-256 of the visible text, link targets, images, media,
 *   alt texts (an image button's too), the values inputs show, the hints empty fields
 *   show (`placeholder`) and what abbreviations stand for (`<abbr title>`), with
 *   character references decoded where a `&` occurs, whitespace collapsed (but inside
 *   `<pre>`, where indentation is content: a code sample's) and build ids and content
 *   hashes taken out of asset URLs;
 *   split between the page's own content and the navigation around it (nav, banner
 *   header and footer, sidebar, table of contents, pagination).
 * `markup` covers every byte the other two read, so an equal `markup` implies equal others.
 */

/**
 * Bumped whenever the normalization changes what most pages hash to: hashes of another
 * scheme are not compared, so the next report compares every page by its bytes. Line
 * breaks inside `<pre>` read as LF came without a bump: only a page with a CR there hashes
 * differently, and is reported changed once if its markup changed too. So did the media
 * of `<source>`, `srcset`, `poster`, `<embed>`, `<object>` and `<track>`, on the pages
 * that have them, the target of a `<meta http-equiv=refresh>` on redirect pages, and
 * declarative shadow roots (`<template shadowrootmode>`); nor did a header, footer or
 * aside inside an element of `role="main"`, now content, on the pages that have one; nor
 * attribute names read in any case (`<A HREF>`), on the pages that write them in capitals;
 * nor an attribute read where the tag has it, not where another's value names it
 * (`title="set href=x"`), on the pages whose values do;
 * nor the value an `<input>` shows (a button's label), nor whether a box is ticked (a
 * task list's items), nor the hint a field shows while empty (`placeholder`), nor an
 * image button's image and alt text (`<input type=image>`), nor what an abbreviation
 * stands for (`<abbr title>`), on the pages that have them.
 * Character references decoded (`&#x27;`, `&#39;` and `'` read alike) came without one
 * too, though on a site React renders they change what most pages hash to (it writes
 * every `'` and `&` of a page's text as one): the hashes are only made again for a page
 * whose markup changed, so such a page is reported changed once, at its first edit or
 * markup change after the upgrade (a sidebar renamed on every page reports those pages
 * changed, not navigation changed, once). So did comments that part no words any more
 * (React's `v<!-- -->2`, read `v2`), and tags inside `<pre>` that part no tokens (a
 * `<br>` there is a line break), on the pages that have them.
 */
export const FINGERPRINT_SCHEME = 2;

export interface PageFingerprint {
  /** The page's `<title>`, as a person reads it. */
  title?: string;
  markup: string;
  /** Where the markup's runs are, for the next export's check (see `Markup`). */
  layout?: string;
  content: string;
  navigation: string;
}

/** Hex characters kept of each SHA-256: 128 bits tell pages apart. */
const DIGEST_CHARS = 32;

/** Characters that end a tag name. */
const isNameEnd = (c: number) => c === 62 || c === 47 || isHtmlWhitespace(c) || Number.isNaN(c);

/** Elements whose content is never shown as text (but a template that is a shadow root). */
const isHidden = (name: string) =>
  name === 'script' || name === 'style' || name === 'template' || name === 'noscript';
/** Elements that hold navigation, when they are not inside the page's main content. */
const LANDMARKS = new Set(['header', 'footer', 'aside']);
/** Ids documented by docs platforms for their navigation chrome (Mintlify's custom CSS ids). */
const NAVIGATION_IDS = new Set([
  'navbar',
  'sidebar',
  'sidebar-content',
  'mobile-nav',
  'table-of-contents',
  'pagination',
  'footer',
  'banner',
]);
const NAVIGATION_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary']);
/**
 * Elements that are part of a line of text, not a block of their own: inside `<pre>` the
 * text around them reads as one.
 */
const PHRASING = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'br',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'font',
  'i',
  'ins',
  'kbd',
  'mark',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
]);
/**
 * Input types whose `value` a reader does not see: a hidden field, a box or a radio
 * button (their state is shown, not their value), a password (masked), a file chooser
 * and an image button (which show a file name, and an image and its alt text). A
 * slider's and a swatch's value (`range`, `color`) is read, though not shown as text:
 * it is where the slider stands and the swatch's colour, seen as a box's tick is.
 */
const VALUE_NOT_SHOWN = new Set(['hidden', 'checkbox', 'radio', 'password', 'file', 'image']);
/**
 * Input types that show no `placeholder`: nothing is typed into them as text (a button, a
 * box, a date picker, a slider). A type a browser does not know is a text field, which does.
 */
const PLACEHOLDER_NOT_SHOWN = new Set([
  'hidden',
  'checkbox',
  'radio',
  'file',
  'image',
  'submit',
  'reset',
  'button',
  'range',
  'color',
  'date',
  'month',
  'week',
  'time',
  'datetime-local',
]);

/**
 * Elements `markup` leaves out, found by a native search of the bytes. Styles and link
 * tags only in the head, where generators put them: searching the body for tags it
 * rarely holds would scan every page twice more, and one left in only costs that page
 * a scan.
 */
const LEFT_OUT = [
  { opening: Buffer.from('<script'), closing: Buffer.from('</script'), headOnly: false },
  { opening: Buffer.from('<style'), closing: Buffer.from('</style'), headOnly: true },
  { opening: Buffer.from('<link'), headOnly: true },
] as const;
const HEAD_END = Buffer.from('</head');
const COMMENT_OPEN = Buffer.from('<!--');
const COMMENT_CLOSE = Buffer.from('-->');
const CDATA_OPEN = Buffer.from('<![CDATA[');
const CDATA_CLOSE = Buffer.from(']]>');
const GREATER_THAN = 62;
const BANG = 33;
const LESS_THAN = 60;
const CR = 13;
const LF = 10;
/**
 * CRC-32 (zlib's polynomial) of each byte value, for the separator, a zero byte that
 * never occurs in text and stands where a left-out element was.
 */
const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

/** A page's markup digest, and its layout for the next export's check. */
export interface Markup {
  /** CRC-32 and length, in hex, of the page without scripts, nor the head's styles and links. */
  digest: string;
  /**
   * Where the digest's runs are: `2;`, then in hex how many of their bytes come before the
   * end of the head (`-` without one), then each run's length, comma-separated; each run
   * but the last is followed by a left-out element. Absent when the head ends inside a
   * left-out element, or for a page of more than LAYOUT_MAX_RUNS runs.
   */
  layout?: string;
}

/**
 * Layouts made before a tag inside a comment was told from an element had no prefix:
 * one of them may put an element where a comment holds a `<script`, and a walk along it
 * would leave out what a reader sees after the comment. Their pages are checked by the
 * full digest instead, which is the same as it was for every page without such a comment.
 */
export const LAYOUT_PREFIX = '2;';

/** Beyond this many left-out elements, a page's layout is not recorded: the next export searches it. */
const LAYOUT_MAX_RUNS = 4096;

/** CRC-32 and length of the bytes added, with a separator where a left-out element was. */
class Checksum {
  #crc = 0;
  #length = 0;

  /** Adds `bytes` from `from` to `to`, which callers keep within the page (no clamping here). */
  add(bytes: Buffer, from: number, to: number): void {
    if (to <= from) return;
    // A plain view: `subarray` goes through Buffer's constructor, a cost on every run.
    this.#crc = crc32(new Uint8Array(bytes.buffer, bytes.byteOffset + from, to - from), this.#crc);
    this.#length += to - from;
  }

  /** The separator's one byte, summed here: a page has dozens, each a call into zlib otherwise. */
  separator(): void {
    const c = ~this.#crc >>> 0;
    this.#crc = ~((CRC_TABLE[c & 0xff] as number) ^ (c >>> 8)) >>> 0;
    this.#length += 1;
  }

  hex(): string {
    return `${(this.#crc >>> 0).toString(16).padStart(8, '0')}-${this.#length.toString(16)}`;
  }

  /**
   * Whether `digest` is this sum's as `hex` writes it (the length without leading zeros),
   * read without making a string.
   */
  matches(digest: string): boolean {
    return (
      digest.charCodeAt(8) === DASH &&
      (digest.length === 10 || digest.charCodeAt(9) !== ZERO) &&
      hexValue(digest, 0, 8) === this.#crc >>> 0 &&
      hexValue(digest, 9, digest.length) === this.#length
    );
  }
}

/**
 * What one pass over a page has learnt of it, so that no search goes over the same bytes
 * again and again: a page of thousands of `<script></SCRIPT>` searched to its end for each
 * one's lowercase closing tag, and one of `<script ` words inside a tag never closed looked
 * back to its start for each (a few KB of archive held a step for minutes). Positions are
 * asked for in increasing order in one pass; any other order is answered by a plain search.
 */
class PageSearch {
  /** Per closing tag: from where on no lowercase one occurs (made at the first miss). */
  #lowerMissFrom: Map<Buffer, number> | undefined;
  /** Per closing tag: the last any-case search, from where and what it found. */
  #anyCase: Map<Buffer, { from: number; at: number }> | undefined;
  /** The last `>` before `#gtUpTo`, and the first from it (-1: none, -2: not looked for). */
  #gtUpTo = 0;
  #lastGt = -1;
  #nextGt = -2;
  /** Comments, and CDATA sections (text in an SVG, which `readVisible` reads whole). */
  readonly comments: CommentLike;
  readonly cdata: CommentLike;
  /** Where the first `<![CDATA[` is (-1: none), or -2 before it is looked for. */
  #firstCdata = -2;

  constructor(readonly bytes: Buffer) {
    this.comments = new CommentLike(bytes, COMMENT_OPEN, COMMENT_CLOSE);
    this.cdata = new CommentLike(bytes, CDATA_OPEN, CDATA_CLOSE);
  }

  /**
   * Whether a CDATA section opens before `at`: most pages have none, and are spared a
   * second look back along each run.
   */
  cdataBefore(at: number): boolean {
    if (this.#firstCdata === -2) this.#firstCdata = this.bytes.indexOf(CDATA_OPEN);
    return this.#firstCdata !== -1 && this.#firstCdata < at;
  }

  /** Where `closing` (lowercase ASCII) occurs from `from`: lowercase first, then in any case. */
  closing(closing: Buffer, from: number): number {
    const missFrom = this.#lowerMissFrom?.get(closing);
    if (missFrom === undefined || from < missFrom) {
      const lower = this.bytes.indexOf(closing, from);
      if (lower !== -1) return lower;
      (this.#lowerMissFrom ??= new Map()).set(closing, from);
    }
    const last = this.#anyCase?.get(closing);
    if (last !== undefined && from >= last.from && (last.at === -1 || from <= last.at))
      return last.at;
    const at = indexOfAnyCase(this.bytes, closing, from);
    (this.#anyCase ??= new Map()).set(closing, { from, at });
    return at;
  }

  /** The last `>` before `at`, or -1. */
  lastGreaterThanBefore(at: number): number {
    if (at < this.#gtUpTo) return this.bytes.lastIndexOf(GREATER_THAN, at - 1);
    for (;;) {
      if (this.#nextGt === -2) this.#nextGt = this.bytes.indexOf(GREATER_THAN, this.#gtUpTo);
      if (this.#nextGt === -1 || this.#nextGt >= at) return this.#lastGt;
      this.#lastGt = this.#nextGt;
      this.#gtUpTo = this.#nextGt + 1;
      this.#nextGt = -2;
    }
  }
}

/**
 * Where a comment, or a CDATA section, opens and closes, found for PageSearch in the same
 * increasing order: `opening` and the `closing` that ends it.
 */
class CommentLike {
  /** The end of the one last looked for, by where it opens. */
  #closedOpen = -1;
  #closedAt = -1;
  /** The last opening in [#from, #upTo). */
  #from = -1;
  #upTo = -1;
  #open = -1;

  constructor(
    readonly bytes: Buffer,
    readonly opening: Buffer,
    readonly closing: Buffer,
  ) {}

  /** Where the closing of the one opened at `open` starts, or -1. */
  closeOf(open: number): number {
    if (open !== this.#closedOpen) {
      this.#closedOpen = open;
      this.#closedAt = this.bytes.indexOf(this.closing, open + this.opening.length);
    }
    return this.#closedAt;
  }

  /** The last opening that starts in [from, at) and is whole before `at`, or -1. */
  lastOpen(from: number, at: number): number {
    const { opening } = this;
    let open: number;
    if (from === this.#from && at >= this.#upTo) {
      // Only what lies past the last look is new; an opening across its edge is looked for too.
      const since = Math.max(from, this.#upTo - (opening.length - 1));
      const found = this.bytes.subarray(since, at).lastIndexOf(opening);
      open = found === -1 ? this.#open : since + found;
    } else {
      const found = this.bytes.subarray(from, at).lastIndexOf(opening);
      open = found === -1 ? -1 : from + found;
    }
    this.#from = from;
    this.#upTo = at;
    this.#open = open;
    return open;
  }

  /** Where the one that holds `at` ends (past its closing, or the end of the page), or -1. */
  endAround(from: number, at: number): number {
    const open = this.lastOpen(from, at);
    if (open === -1) return -1;
    const close = this.closeOf(open);
    const end = close === -1 ? this.bytes.length : close + this.closing.length;
    return end > at ? end : -1;
  }
}

/** Where the markup resumes after the left-out element that starts at `start`. */
function resumeAfter(page: PageSearch, element: (typeof LEFT_OUT)[number], start: number): number {
  const { bytes } = page;
  if (!('closing' in element)) {
    const end = greaterThanFrom(bytes, start);
    return end === -1 ? bytes.length : end + 1;
  }
  // Searched from the end of the opening tag, as the visible scan searches it: a
  // `</script` inside the tag itself closes nothing.
  const tagEnd = greaterThanFrom(bytes, start);
  if (tagEnd === -1) return bytes.length;
  // `<script src=…></script>`: closed at once, seen without a search. Otherwise
  // `</SCRIPT>` alone is found in any case, as the visible scan finds it after the same miss.
  const closing = isAt(bytes, element.closing, tagEnd + 1)
    ? tagEnd + 1
    : page.closing(element.closing, tagEnd + 1);
  if (closing === -1) return bytes.length;
  // `</script>`: the `>` is nearly always next, found without another search.
  const next = closing + element.closing.length;
  if (bytes[next] === GREATER_THAN) return next + 1;
  const end = bytes.indexOf(GREATER_THAN, next);
  return end === -1 ? bytes.length : end + 1;
}

/** CRC-32 and length of the page without scripts, styles and link tags; see the module comment. */
export function markupDigest(bytes: Buffer): Markup {
  const page = new PageSearch(bytes);
  const sum = new Checksum();
  const headEnd = indexOfTag(bytes, HEAD_END, 0);
  const head = headEnd === -1 ? bytes : bytes.subarray(0, headEnd);
  const runs: number[] = [];
  /** Bytes of the runs before the end of the head; undefined while it is not reached. */
  let headKept = headEnd === -1 ? -1 : undefined;
  let kept = 0;
  const run = (from: number, to: number) => {
    if (headKept === undefined && from <= headEnd && headEnd < to) headKept = kept + headEnd - from;
    runs.push(to - from);
    kept += to - from;
    sum.add(bytes, from, to);
  };
  // Where each kind of left-out element occurs next; each is searched for once per page.
  const next = LEFT_OUT.map(() => -2);
  /** Where the run being summed starts. */
  let from = 0;
  /** Where the next left-out element is searched for: past a comment, within the run. */
  let searchFrom = 0;
  for (;;) {
    let kind = -1;
    for (let k = 0; k < LEFT_OUT.length; k += 1) {
      if ((next[k] as number) !== -1 && (next[k] as number) < searchFrom) {
        const element = LEFT_OUT[k] as (typeof LEFT_OUT)[number];
        next[k] = indexOfTag(element.headOnly ? head : bytes, element.opening, searchFrom, bytes);
      }
      const at = next[k] as number;
      if (at !== -1 && (kind === -1 || at < (next[kind] as number))) kind = k;
    }
    if (kind === -1) break;
    const start = next[kind] as number;
    // `<!-- <script> -->` is no script: left out up to the next `</script>`, it would hide
    // the text between the comment and that end, which a reader sees. The run goes on.
    const commentEnd = endOfCommentAround(page, from, start);
    if (commentEnd !== -1) {
      searchFrom = commentEnd;
      continue;
    }
    // Nor is one inside another tag, such as in an attribute's value. (Inside the text of
    // a `<title>`, `<textarea>` or a body's `<style>`, where generators escape `<`, one
    // would still be taken for an element.)
    if (insideTag(page, start)) {
      searchFrom = start + 1;
      continue;
    }
    run(from, start);
    sum.separator();
    from = resumeAfter(page, LEFT_OUT[kind] as (typeof LEFT_OUT)[number], start);
    searchFrom = from;
  }
  run(from, bytes.length);
  const layout =
    headKept !== undefined && runs.length <= LAYOUT_MAX_RUNS
      ? `${LAYOUT_PREFIX}${headKept === -1 ? '-' : headKept.toString(16)};${runs.map((n) => n.toString(16)).join(',')}`
      : undefined;
  return { digest: sum.hex(), ...(layout !== undefined ? { layout } : {}) };
}

/** Whether `page` has a layout the markup check can walk (not one of an earlier form). */
export function hasLayout(page: { layout?: string }): boolean {
  return page.layout?.startsWith(LAYOUT_PREFIX) === true;
}

/**
 * `earlier`, carried over, with the layout of the same markup as the page has now: one
 * of an earlier form, or none, is replaced, so the next export walks it. The same object
 * when its layout is that one already.
 */
export function withLayout<T extends { layout?: string }>(
  earlier: T,
  layout: string | undefined,
): T {
  if (earlier.layout === layout) return earlier;
  const { layout: _, ...rest } = earlier;
  return (layout === undefined ? rest : { ...rest, layout }) as T;
}

/**
 * Whether the page has the markup digest of the earlier page whose digest and layout are
 * given. With a layout, the page is not searched: each run of the earlier page is taken
 * at its length and must be followed by a left-out element (the last by the end of the
 * page), and the head must end at the same place in the runs. An equal digest then means
 * equal runs, so that no left-out element can start inside one (but in a comment, as
 * in the earlier page) and `markupDigest` would find the same elements; anything else is
 * reported as a change, which only costs the page a scan.
 */
export function sameMarkup(bytes: Buffer, earlier: { markup: string; layout?: string }): boolean {
  const layout = earlier.layout;
  if (layout === undefined || !hasLayout(earlier)) {
    return markupDigest(bytes).digest === earlier.markup;
  }
  const headEnd = indexOfTag(bytes, HEAD_END, 0);
  const first = LAYOUT_PREFIX.length;
  const dash = layout.charCodeAt(first) === DASH;
  let at = dash ? first + 1 : hexEnd(layout, first);
  const layoutHead = dash ? -1 : hexValue(layout, first, at);
  if (layout.charCodeAt(at) !== SEMICOLON || layoutHead === undefined) return false;
  if ((layoutHead === -1) !== (headEnd === -1)) return false;
  let headFound = headEnd === -1;
  const sum = new Checksum();
  let page: PageSearch | undefined;
  let kept = 0;
  let from = 0;
  for (;;) {
    const digits = hexEnd(layout, at + 1);
    const length = hexValue(layout, at + 1, digits);
    if (length === undefined) return false;
    at = digits;
    const start = from + length;
    if (!(start <= bytes.length)) return false;
    if (!headFound && layoutHead < kept + length) {
      if (headEnd !== from + layoutHead - kept) return false;
      headFound = true;
    }
    sum.add(bytes, from, start);
    kept += length;
    if (at === layout.length)
      return start === bytes.length && headFound && sum.matches(earlier.markup);
    if (layout.charCodeAt(at) !== COMMA) return false;
    const element = leftOutAt(bytes, start, headEnd);
    if (element === undefined) return false;
    sum.separator();
    page ??= new PageSearch(bytes);
    from = resumeAfter(page, element, start);
  }
}

const DASH = 45;
const ZERO = 48;
const SEMICOLON = 59;
const COMMA = 44;

/** The lowercase hex number in `text` (a layout's) from `at` to `end`, or undefined where none is. */
function hexValue(text: string, at: number, end: number): number | undefined {
  let value = 0;
  if (end === at || end - at > 12) return undefined;
  for (let i = at; i < end; i += 1) {
    const c = text.charCodeAt(i);
    value = value * 16 + (c <= 57 ? c - 48 : c - 87);
  }
  return value;
}

/** Where the lowercase hex digits that start at `at` end. */
function hexEnd(text: string, at: number): number {
  let i = at;
  for (; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) break;
  }
  return i;
}

/**
 * Where the comment that holds `at` ends (past its `-->`, or the end of the page when it
 * is never closed), looking in the run from `from`; -1 when `at` is in no comment.
 * Comments do not nest, so only the last one opened before `at` can hold it. A comment
 * that a browser ends sooner (`--!>`, `<!-->`) is taken here to go on to its `-->`: the
 * markup then keeps more than `readVisible` reads (a script after it), never less. So is
 * a CDATA section, up to its `]]>`: in an SVG, `readVisible` reads it whole as text,
 * `<script>` and all (`<text><![CDATA[ <p><script>…</script> ]]></text>`); elsewhere a
 * browser ends it at the first `>`, and keeping more costs nothing but the markup's
 * steadiness on such a page.
 */
function endOfCommentAround(page: PageSearch, from: number, at: number): number {
  const comment = page.comments.endAround(from, at);
  return page.cdataBefore(at) ? Math.max(comment, page.cdata.endAround(from, at)) : comment;
}

/**
 * Where a tag opened by `opening` (`<script`, not `<scripts`) starts in `haystack` (the
 * page, or its head), from `from`; or -1. The byte after it is read in `page`: a search
 * of the head alone must not take its end for the end of a name (`<style</head>`).
 */
function indexOfTag(haystack: Buffer, opening: Buffer, from: number, page = haystack): number {
  for (
    let at = haystack.indexOf(opening, from);
    at !== -1;
    at = haystack.indexOf(opening, at + 1)
  ) {
    const after = page[at + opening.length];
    if (after === undefined || isNameEnd(after)) return at;
  }
  return -1;
}

/**
 * Whether `at` is inside a tag, as the visible scan reads tags (from `<` to the first `>`):
 * `<p title="<script>">` or `<!x <script>` hold no script.
 */
function insideTag(page: PageSearch, at: number): boolean {
  return at > 0 && page.bytes.lastIndexOf(LESS_THAN, at - 1) > page.lastGreaterThanBefore(at);
}

/** Whether byte `b` is `lower` (ASCII) or, for a letter, its capital. */
function sameIgnoringCase(b: number, lower: number): boolean {
  return b === lower || (lower >= 97 && lower <= 122 && b === lower - 32);
}

/**
 * Where `needle` (lowercase ASCII, starting with a character that has no case, such as
 * `<`) occurs from `from` in any case; -1 when nowhere. It reads only up to the match.
 */
function indexOfAnyCase(bytes: Buffer, needle: Buffer, from: number): number {
  const first = needle[0] as number;
  for (let at = bytes.indexOf(first, from); at !== -1; at = bytes.indexOf(first, at + 1)) {
    let i = 1;
    while (i < needle.length && sameIgnoringCase(bytes[at + i] as number, needle[i] as number))
      i += 1;
    if (i === needle.length) return at;
  }
  return -1;
}

/** The left-out element that starts at `at`, if one does (a style or link tag only in the head). */
function leftOutAt(
  bytes: Buffer,
  at: number,
  headEnd: number,
): (typeof LEFT_OUT)[number] | undefined {
  for (const element of LEFT_OUT) {
    if (element.headOnly && headEnd !== -1 && at >= headEnd) continue;
    if (isTagAt(bytes, element.opening, at)) return element;
  }
  return undefined;
}

/** Whether a tag opened by `opening` starts at `at`: a few bytes, compared here. */
function isTagAt(bytes: Buffer, opening: Buffer, at: number): boolean {
  if (!isAt(bytes, opening, at)) return false;
  const after = bytes[at + opening.length];
  return after === undefined || isNameEnd(after);
}

/** Whether `bytes` hold `needle` at `at`. */
function isAt(bytes: Buffer, needle: Buffer, at: number): boolean {
  for (let i = 0; i < needle.length; i += 1) {
    if (bytes[at + i] !== needle[i]) return false;
  }
  return true;
}

/** Bytes a tag's end is looked for among here before a native search, which costs more to call. */
const TAG_LOOK = 256;

/** The first `>` from `from`, or -1: a tag's end, nearly always within a few dozen bytes. */
function greaterThanFrom(bytes: Buffer, from: number): number {
  const near = Math.min(bytes.length, from + TAG_LOOK);
  for (let at = from; at < near; at += 1) if (bytes[at] === GREATER_THAN) return at;
  return near === bytes.length ? -1 : bytes.indexOf(GREATER_THAN, near);
}

/**
 * Index just past the comment whose text starts at `from` (after its `<!--`), where
 * browsers end it: at `-->` or `--!>`, or at once for `<!-->` and `<!--->`; the end of
 * the text when it is never closed. Each `--` is looked at once.
 */
function afterComment(html: string, from: number): number {
  if (html.charCodeAt(from) === GREATER_THAN) return from + 1;
  if (html.startsWith('->', from)) return from + 2;
  for (
    let dashes = html.indexOf('--', from);
    dashes !== -1;
    dashes = html.indexOf('--', dashes + 1)
  ) {
    const next = html.charCodeAt(dashes + 2);
    if (next === GREATER_THAN) return dashes + 3;
    if (next === BANG && html.charCodeAt(dashes + 3) === GREATER_THAN) return dashes + 4;
  }
  return html.length;
}

/** Index just past `needle` from `from`, or the end of the text. */
function after(html: string, needle: string, from: number): number {
  const at = html.indexOf(needle, from);
  return at === -1 ? html.length : at + needle.length;
}

/**
 * Where `</name` starts (any letter case), or the end of the text. `missedFrom` holds, per
 * name, where a lowercase search of this page found none: one from further on is not made
 * again (a page of `<script></SCRIPT>` searched to its end for each of them).
 */
function indexOfClosing(
  html: string,
  name: string,
  from: number,
  missedFrom: Map<string, number>,
): number {
  const missed = missedFrom.get(name);
  if (missed === undefined || from < missed) {
    const lower = html.indexOf(`</${name}`, from);
    if (lower !== -1) return lower;
    missedFrom.set(name, from);
  }
  const pattern = new RegExp(`</${name}`, 'ig');
  pattern.lastIndex = from;
  return pattern.exec(html)?.index ?? html.length;
}

/** Below this many bytes a copy is a loop: `Buffer#copy` costs more to call than a short run. */
const SHORT_COPY = 64;

/** Copies source[from, to) into `target` at `at`; returns how many bytes it copied. */
function copyBytes(source: Buffer, from: number, to: number, target: Buffer, at: number): number {
  if (to - from >= SHORT_COPY) return source.copy(target, at, from, to);
  for (let i = from; i < to; i += 1) target[at + i - from] = source[i] as number;
  return Math.max(0, to - from);
}

/** Collects visible bytes with whitespace collapsed, then hashes them. */
class VisibleText {
  #length = 0;
  #spaced = true;
  /** The next CR `verbatim` found in the page (-1: none after it), or -2 before its first search. */
  #nextCr = -2;
  readonly #hash: Hash = createHash('sha256');

  /** `scratch` is reused from page to page: it is only read up to what this page wrote. */
  constructor(private readonly scratch: { buffer: Buffer }) {}

  get #buffer(): Buffer {
    return this.scratch.buffer;
  }

  /** Appends bytes[from, to), each run of whitespace as one space. */
  text(bytes: Buffer, from: number, to: number): void {
    this.#reserve(to - from + 1);
    const out = this.#buffer;
    let length = this.#length;
    let spaced = this.#spaced;
    for (let i = from; i < to; i += 1) {
      const c = bytes[i] as number;
      if (isHtmlWhitespace(c)) {
        if (!spaced) {
          out[length] = 32;
          length += 1;
          spaced = true;
        }
      } else {
        out[length] = c;
        length += 1;
        spaced = false;
      }
    }
    this.#length = length;
    this.#spaced = spaced;
  }

  /**
   * Appends bytes[from, to) as they are, whitespace included (the text of a `<pre>`), but
   * for line breaks: a browser reads CR LF and a lone CR as LF before anything else, so a
   * sample saved with Windows line endings reads the same.
   */
  verbatim(bytes: Buffer, from: number, to: number): void {
    this.#reserve(to - from);
    const out = this.#buffer;
    let start = from;
    // Where the next CR is is kept from run to run: most pages have none, and a search
    // from each run to the end of the page would read the page once per run.
    if (this.#nextCr !== -1 && this.#nextCr < from) this.#nextCr = bytes.indexOf(CR, from);
    while (this.#nextCr !== -1 && this.#nextCr < to) {
      const cr = this.#nextCr;
      this.#length += copyBytes(bytes, start, cr, out, this.#length);
      out[this.#length] = LF;
      this.#length += 1;
      // A run ends at a tag, so a CR LF pair is never split between two runs.
      start = bytes[cr + 1] === LF && cr + 1 < to ? cr + 2 : cr + 1;
      this.#nextCr = bytes.indexOf(CR, start);
    }
    this.#length += copyBytes(bytes, start, to, out, this.#length);
    this.#spaced = false;
  }

  /**
   * Appends the character reference at html[amp] (`&amp;`, `&#x27;`, `&copy`), decoded as a
   * browser decodes one in text, or the `&` itself when none starts there; returns where
   * the text goes on. In a `<pre>` the character is kept as it is, even whitespace.
   */
  reference(html: string, amp: number, pre: boolean): number {
    this.#references ??= new EntityDecoder(htmlDecodeTree, (codePoint) =>
      this.#character(codePoint),
    );
    this.#pre = pre;
    this.#references.startEntity(DecodingMode.Legacy);
    let consumed = this.#references.write(html, amp + 1);
    // -1: the page ends inside the reference.
    if (consumed < 0) consumed = this.#references.end();
    if (consumed > 0) return amp + consumed;
    this.#character(38 /* & */);
    return amp + 1;
  }

  /** Decodes references for `reference`, made at the page's first. */
  #references: EntityDecoder | undefined;
  /** Whether the reference being decoded is inside `<pre>`. */
  #pre = false;

  /** Appends the character `codePoint` as UTF-8, whitespace collapsed outside `<pre>`. */
  #character(codePoint: number): void {
    if (!this.#pre && isHtmlWhitespace(codePoint)) {
      this.separate();
      return;
    }
    this.#reserve(4);
    if (codePoint < 0x80) this.#buffer[this.#length++] = codePoint;
    else this.#length += this.#buffer.write(String.fromCodePoint(codePoint), this.#length, 'utf8');
    this.#spaced = false;
  }

  /** Appends a line break, as a `<br>` inside `<pre>` shows one. */
  lineBreak(): void {
    this.#reserve(1);
    this.#buffer[this.#length] = LF;
    this.#length += 1;
    this.#spaced = false;
  }

  /** Appends a word as it is (an attribute value), set apart by spaces. */
  word(value: string): void {
    this.separate();
    this.#reserve(value.length + 1);
    this.#length += this.#buffer.write(value, this.#length, 'latin1');
    this.#spaced = false;
    this.separate();
  }

  /** Appends bytes[from, to) as one word, as they are. */
  rawWord(bytes: Buffer, from: number, to: number): void {
    this.separate();
    this.#reserve(to - from + 1);
    this.#length += copyBytes(bytes, from, to, this.#buffer, this.#length);
    this.#spaced = false;
    this.separate();
  }

  separate(): void {
    if (this.#spaced) return;
    this.#reserve(1);
    this.#buffer[this.#length] = 32;
    this.#length += 1;
    this.#spaced = true;
  }

  /** Hex digest of everything appended. */
  digest(): string {
    if (this.#length > 0) this.#hash.update(this.#buffer.subarray(0, this.#length));
    this.#length = 0;
    return this.#hash.digest('hex').slice(0, DIGEST_CHARS);
  }

  #reserve(extra: number): void {
    if (this.#length + extra <= this.#buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, this.#length + extra));
    this.#buffer.copy(grown, 0, 0, this.#length);
    this.scratch.buffer = grown;
  }
}

/**
 * Whether tag texts html[from, to), asked about in increasing order of `from`, hold
 * `needle`. The next occurrence from the last tag is kept, so the page is searched once
 * per needle (not to its end per tag: an attribute most tags lack would be looked for
 * through scripts and flight data) and no tag is sliced into a string of its own.
 */
class TagHolds {
  /** The first occurrence from #searchedFrom (-1: none); -2 before the first search. */
  #next = -2;
  #searchedFrom = 0;

  constructor(
    readonly html: string,
    readonly needle: string,
  ) {}

  in(from: number, to: number): boolean {
    if (from < this.#searchedFrom || (this.#next !== -1 && this.#next < from)) {
      this.#next = this.#search(from);
      this.#searchedFrom = from;
    }
    return this.#next !== -1 && this.#next + this.needle.length <= to;
  }

  /**
   * The first occurrence from `from`, or -1. Looked for by its last character (`=`, which
   * ends an attribute's name): a native search stops at each occurrence of the needle's
   * first character, a space, thousands of times a page.
   */
  #search(from: number): number {
    const { html, needle } = this;
    const last = needle.length - 1;
    const end = needle.charAt(last);
    const beforeEnd = needle.charCodeAt(last - 1);
    for (let at = html.indexOf(end, from + last); at !== -1; at = html.indexOf(end, at + 1)) {
      // The character before it first: most `=` end other names (`class=`, `href=`).
      if (html.charCodeAt(at - 1) === beforeEnd && html.startsWith(needle, at - last)) {
        return at - last;
      }
    }
    return -1;
  }
}

/** What a reader sees on the page: its title and the hashes of content and navigation. */
export type VisibleFingerprint = Omit<PageFingerprint, 'markup'>;

/**
 * The fingerprint of one HTML page. `earlier` is the fingerprint the same page had in
 * the earlier export: when the markup is unchanged its visible hashes are carried over
 * and the page is not scanned again.
 */
export function fingerprintPage(
  bytes: Buffer,
  earlier?: PageFingerprint,
  /** The page's markup digest, when worked out already. */
  markup: Markup = markupDigest(bytes),
): PageFingerprint {
  if (earlier?.markup === markup.digest) return withLayout(earlier, markup.layout);
  const { title, content, navigation } = readVisible(bytes);
  return {
    ...(title !== undefined ? { title } : {}),
    markup: markup.digest,
    ...(markup.layout !== undefined ? { layout: markup.layout } : {}),
    content,
    navigation,
  };
}

/** Buffers the visible text is gathered in, reused from page to page. */
const SCRATCH = {
  content: { buffer: Buffer.allocUnsafe(64 * 1024) },
  navigation: { buffer: Buffer.allocUnsafe(64 * 1024) },
};

/** Scans the page once for what a reader sees; see the module comment. */
export function readVisible(bytes: Buffer): VisibleFingerprint {
  const html = bytes.toString('latin1');
  const n = html.length;
  const content = new VisibleText(SCRATCH.content);
  const navigation = new VisibleText(SCRATCH.navigation);
  let title: string | undefined;
  /** The element that opened the navigation region, and how many of its kind are open. */
  let region: string | undefined;
  let regionDepth = 0;
  /** Inside `<main>` or `<article>`, header, footer and aside belong to the content. */
  let mainDepth = 0;
  /** How many `<svg>` and `<math>` are open, where `<![CDATA[` opens text. */
  let foreignDepth = 0;
  /**
   * The element that is the main content by its role (Sphinx's `<div role="main">`), and
   * how many of its kind are open: inside it too, they belong to the content.
   */
  let roleMain: string | undefined;
  let roleMainDepth = 0;
  /** Inside `<pre>`, whitespace is kept as it is: a code sample's indentation is content. */
  let preDepth = 0;
  let out = content;
  let at = 0;
  const closingMissedFrom = new Map<string, number>();
  /** The next `&` from where text was last read (-1: none), searched for once per `&`. */
  let nextAmpersand = -2;
  const holdsId = new TagHolds(html, ' id=');
  const holdsRole = new TagHolds(html, ' role=');

  /**
   * Appends the text html[from, to) to `into`, as it is in a `<pre>`, its character
   * references decoded.
   */
  const readText = (into: VisibleText, from: number, to: number, pre: boolean) => {
    for (let at = from; ;) {
      if (nextAmpersand !== -1 && nextAmpersand < at) nextAmpersand = html.indexOf('&', at);
      const end = nextAmpersand === -1 || nextAmpersand >= to ? to : nextAmpersand;
      if (pre) into.verbatim(bytes, at, end);
      else into.text(bytes, at, end);
      if (end === to) return;
      at = into.reference(html, end, pre);
    }
  };

  const opensNavigation = (name: string, lt: number, gt: number): boolean => {
    if (name === 'nav') return true;
    if (mainDepth > 0) return false;
    if (LANDMARKS.has(name)) return true;
    if (holdsId.in(lt, gt)) {
      const id = valueOf(html, 'id', lt, gt);
      if (id !== undefined && NAVIGATION_IDS.has(id)) return true;
    }
    if (holdsRole.in(lt, gt)) {
      const role = valueOf(html, 'role', lt, gt);
      if (role !== undefined && NAVIGATION_ROLES.has(role.toLowerCase())) return true;
    }
    return false;
  };

  while (at < n) {
    // Tags often follow one another (`</a></li><li>`): the next then needs no search.
    const lt = html.charCodeAt(at) === LESS_THAN ? at : html.indexOf('<', at);
    const textEnd = lt === -1 ? n : lt;
    if (textEnd > at) readText(out, at, textEnd, preDepth > 0);
    if (lt === -1) break;
    const next = html.charCodeAt(lt + 1);
    if (next === 33 /* ! */) {
      if (foreignDepth > 0 && html.startsWith('<![CDATA[', lt)) {
        // In SVG or MathML, a CDATA section is text (`<text><![CDATA[ a < b ]]></text>`).
        const end = html.indexOf(']]>', lt + 9);
        out.text(bytes, lt + 9, end === -1 ? n : end);
        at = end === -1 ? n : end + 3;
      } else {
        // Elsewhere `<![CDATA[` is a bogus comment, which the first `>` ends.
        at = html.startsWith('<!--', lt) ? afterComment(html, lt + 4) : after(html, '>', lt);
      }
      // A comment parts no words around it: React writes `v<!-- -->2` for `v{2}`.
      continue;
    }
    const closing = next === 47; /* / */
    const nameStart = lt + (closing ? 2 : 1);
    let nameEnd = nameStart;
    // The name ends at the tag's `>` at the latest, or at the end of the page (NaN).
    while (!isNameEnd(html.charCodeAt(nameEnd))) nameEnd += 1;
    // A tag without attributes (`</a>`, `<li>`) ends with its name: its `>` is not searched for.
    const gt = html.charCodeAt(nameEnd) === GREATER_THAN ? nameEnd : html.indexOf('>', nameEnd);
    if (gt === -1) break;
    at = gt + 1;
    const name = html.slice(nameStart, nameEnd).toLowerCase();
    // Inside `<pre>`, where whitespace is kept, a highlighter's tokens and line elements
    // part nothing (`<span>if</span><span>(</span>` reads `if(`), and a `<br>` is a line break.
    if (preDepth === 0 || !PHRASING.has(name)) out.separate();
    else if (name === 'br' && !closing) out.lineBreak();

    if (closing) {
      if (name === 'pre' && preDepth > 0) preDepth -= 1;
      if ((name === 'svg' || name === 'math') && foreignDepth > 0) foreignDepth -= 1;
      if (name === roleMain && --roleMainDepth === 0) {
        roleMain = undefined;
        mainDepth -= 1;
      }
      if (name === region && --regionDepth === 0) {
        region = undefined;
        out = content;
      } else if ((name === 'main' || name === 'article') && mainDepth > 0) mainDepth -= 1;
      continue;
    }
    // A declarative shadow root (`<template shadowrootmode="open">`) is shown where it is.
    if (isHidden(name) && !(name === 'template' && html.slice(lt, gt).includes('shadowroot'))) {
      at = after(html, '>', indexOfClosing(html, name, at, closingMissedFrom));
      continue;
    }
    if (name === 'link') continue;
    if (name === 'title' && title === undefined) {
      const end = indexOfClosing(html, 'title', at, closingMissedFrom);
      title = html.slice(at, end);
      readText(content, at, end, false);
      content.separate();
      at = after(html, '>', end);
      continue;
    }
    if (name === 'main' || name === 'article') mainDepth += 1;
    else if (name === 'pre') preDepth += 1;
    else if ((name === 'svg' || name === 'math') && html.charCodeAt(gt - 1) !== 47 /* / */)
      foreignDepth += 1;
    if (roleMain !== undefined) {
      if (name === roleMain) roleMainDepth += 1;
    } else if (
      holdsRole.in(lt, gt) &&
      valueOf(html, 'role', nameEnd, gt)?.toLowerCase() === 'main'
    ) {
      roleMain = name;
      roleMainDepth = 1;
      mainDepth += 1;
    }
    if (region !== undefined) {
      if (name === region) regionDepth += 1;
    } else if (opensNavigation(name, lt, gt)) {
      region = name;
      regionDepth = 1;
      out = navigation;
    }
    if (name === 'a' || name === 'area') {
      const href = valueOf(html, 'href', nameEnd, gt);
      if (href !== undefined) {
        const normalized = normalizeUrl(href);
        // Most links lead to pages and stay as written: their bytes are copied as they are.
        if (normalized === href && valueStart !== -1) {
          out.rawWord(bytes, valueStart, valueStart + href.length);
        } else out.word(normalized);
      }
    } else if (name === 'img' || name === 'iframe' || name === 'video' || name === 'audio') {
      const src = valueOf(html, 'src', nameEnd, gt);
      if (src !== undefined) out.word(normalizeUrl(src));
      if (name === 'img') readSourceSet(out, valueOf(html, 'srcset', nameEnd, gt));
      else if (name === 'video') {
        const poster = valueOf(html, 'poster', nameEnd, gt);
        if (poster !== undefined) out.word(normalizeUrl(poster));
      }
      const label = valueOf(html, name === 'img' ? 'alt' : 'title', nameEnd, gt);
      if (label !== undefined) out.word(label);
    } else if (name === 'source' || name === 'embed' || name === 'track' || name === 'object') {
      // What a <video>, <audio> or <picture> shows, an embedded document, captions.
      const src = valueOf(html, name === 'object' ? 'data' : 'src', nameEnd, gt);
      if (src !== undefined) out.word(normalizeUrl(src));
      if (name === 'source') readSourceSet(out, valueOf(html, 'srcset', nameEnd, gt));
    } else if (name === 'input') {
      // A button's label (`type="submit" value="Send"`) and the text a field is filled
      // with: shown, though not part of the page's text (`innerText`).
      const type = valueOf(html, 'type', nameEnd, gt)?.toLowerCase();
      if (type === undefined || !VALUE_NOT_SHOWN.has(type)) {
        const value = valueOf(html, 'value', nameEnd, gt);
        if (value !== undefined) out.word(value);
      } else if (type === 'checkbox' || type === 'radio') {
        // A box's state is what it shows: an item of a task list ticked (`- [x]`, which
        // Markdown renders as a disabled checkbox) is an edit a reader sees.
        out.word(hasAttribute(html, 'checked', nameEnd, gt) ? '[x]' : '[ ]');
      } else if (type === 'image') {
        // An image button shows its image, and its alt text as an `<img>` does.
        const src = valueOf(html, 'src', nameEnd, gt);
        if (src !== undefined) out.word(normalizeUrl(src));
        const alt = valueOf(html, 'alt', nameEnd, gt);
        if (alt !== undefined) out.word(alt);
      }
      if (type === undefined || !PLACEHOLDER_NOT_SHOWN.has(type)) {
        readPlaceholder(out, html, nameEnd, gt);
      }
    } else if (name === 'textarea') {
      readPlaceholder(out, html, nameEnd, gt);
    } else if (name === 'abbr') {
      // What an abbreviation stands for (Markdown's `*[API]: …`) is why it is marked up,
      // though shown on hover; other titles are tooltips that repeat what is shown or name
      // the chrome ("Copy code"), and are left out.
      const expansion = valueOf(html, 'title', nameEnd, gt);
      if (expansion !== undefined) out.word(expansion);
    } else if (name === 'meta') {
      // The description, and where a redirect page sends its reader (`0; url=/new`, as
      // Next.js writes `redirect()` in a static export): the page has nothing else to see.
      const described = valueOf(html, 'name', nameEnd, gt)?.toLowerCase() === 'description';
      if (described || valueOf(html, 'http-equiv', nameEnd, gt)?.toLowerCase() === 'refresh') {
        content.word(valueOf(html, 'content', nameEnd, gt) ?? '');
      }
    }
  }
  return {
    ...(title !== undefined ? { title: readableTitle(title) } : {}),
    content: content.digest(),
    navigation: navigation.digest(),
  };
}

/**
 * The images of a `srcset` (`a.png 1x, a@2x.png 2x`), each URL without its build noise,
 * with its width or density: a reader on another screen sees another one of them.
 */
function readSourceSet(out: VisibleText, srcset: string | undefined): void {
  if (srcset === undefined) return;
  for (const candidate of srcset.split(',')) {
    const [url, ...descriptors] = candidate.trim().split(/\s+/);
    if (url === undefined || url === '') continue;
    out.word(normalizeUrl(url));
    for (const descriptor of descriptors) out.word(descriptor);
  }
}

/**
 * The hint a field shows while it is empty (a search box's "Search docs…"): a reader sees
 * it until they type, as they see a collapsed `<details>` once they open it.
 */
function readPlaceholder(out: VisibleText, html: string, from: number, to: number): void {
  const placeholder = valueOf(html, 'placeholder', from, to);
  if (placeholder !== undefined) out.word(placeholder);
}

/**
 * Where the value valueOf returned last starts in the page, when it is the page's bytes
 * as they are; -1 when references in it were decoded.
 */
let valueStart = 0;

/**
 * The value of attribute `name` in the tag text html[from, to), quoted or not, with its
 * character references decoded (`Q&amp;A`, `don&#x27;t`); undefined when the tag has no
 * such attribute, or one without a value (`<input checked>`).
 */
function valueOf(html: string, name: string, from: number, to: number): string | undefined {
  const start = findAttribute(html, name, from, to);
  if (start < 0) return undefined;
  const value = html.slice(start, attributeEnd);
  valueStart = start;
  if (!value.includes('&')) return value;
  valueStart = -1;
  return decodedValue(value);
}

/**
 * Whether the tag text html[from, to] has attribute `name`, with a value or without one
 * (`<input checked>`), in any case.
 */
function hasAttribute(html: string, name: string, from: number, to: number): boolean {
  return findAttribute(html, name, from, to) !== ABSENT;
}

/** findAttribute's answers when there is no value to point at. */
const ABSENT = -1;
const WITHOUT_VALUE = -2;
/** Where the value findAttribute found last ends (before its closing quote). */
let attributeEnd = 0;

/**
 * Where the value of attribute `name` (lowercase) starts in the tag text html[from, to),
 * its end in `attributeEnd`; ABSENT, or WITHOUT_VALUE (`<input checked>`). The tag is read
 * as a browser reads it, an attribute after another, so a name inside another's value
 * (`title="set href=x"`, `alt="a src=b"`) is no attribute; names in any case (`<A HREF>`,
 * as hand-written HTML has them), and the first of a name counts, as in a browser.
 */
function findAttribute(html: string, name: string, from: number, to: number): number {
  let at = from;
  while (at < to) {
    const c = html.charCodeAt(at);
    if (isHtmlWhitespace(c) || c === 47 /* / */) {
      at += 1;
      continue;
    }
    // An attribute's name, then its value when `=` follows: a value is never a name.
    let end = at;
    while (end < to && !isNameEnd(html.charCodeAt(end)) && html.charCodeAt(end) !== 61) end += 1;
    if (end === at) end += 1;
    const named = end - at === name.length && isNamed(html, at, name);
    at = end;
    while (at < to && isHtmlWhitespace(html.charCodeAt(at))) at += 1;
    if (html.charCodeAt(at) !== 61 /* = */) {
      if (named) return WITHOUT_VALUE;
      continue;
    }
    at += 1;
    while (at < to && isHtmlWhitespace(html.charCodeAt(at))) at += 1;
    const quote = html.charCodeAt(at);
    let start: number;
    let stop: number;
    if (quote === 34 || quote === 39) {
      start = at + 1;
      const close = html.indexOf(quote === 34 ? '"' : "'", start);
      stop = close === -1 || close > to ? to : close;
      at = stop + 1;
    } else {
      start = at;
      while (at < to && !isHtmlWhitespace(html.charCodeAt(at)) && html.charCodeAt(at) !== 62)
        at += 1;
      stop = at;
    }
    if (named) {
      attributeEnd = stop;
      return start;
    }
  }
  return ABSENT;
}

/** Whether html holds `name` (lowercase ASCII) at `at`, in any case. */
function isNamed(html: string, at: number, name: string): boolean {
  for (let i = 0; i < name.length; i += 1) {
    let c = html.charCodeAt(at + i);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== name.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * An attribute's value, its bytes read as latin1 (as `readVisible` reads the page), with
 * its character references decoded: as UTF-8 bytes read as latin1 again, the bytes a
 * page that has the characters themselves holds.
 */
function decodedValue(value: string): string {
  const decoded = decodeHTMLAttribute(Buffer.from(value, 'latin1').toString('utf8'));
  return Buffer.from(decoded, 'utf8').toString('latin1');
}

/** Characters of a title kept, and the most a manifest's page title may hold. */
export const TITLE_CHARS = 1000;

/**
 * The title as UTF-8 text, entities of markup decoded, whitespace collapsed, control
 * characters dropped and at most TITLE_CHARS long: as the next run's manifest check
 * accepts it.
 */
function readableTitle(raw: string): string {
  const title = decodeHTML(Buffer.from(raw, 'latin1').toString('utf8'))
    .replace(/\s+/g, ' ')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  if (title.length <= TITLE_CHARS) return title;
  // Never half a surrogate pair at the cut.
  return `${title.slice(0, TITLE_CHARS - 1).replace(/[\uD800-\uDBFF]$/, '')}…`;
}

/**
 * A link target as a reader would tell it apart: asset URLs lose their query, build ids
 * and content hashes (`/_next/static/media/logo.3f9a2c1b.png` → `/_next/static/media/logo.*.png`);
 * links to pages are kept as written.
 */
export function normalizeUrl(url: string): string {
  // Most links lead to pages (`/guides/intro`): no dot in the last segment, nothing to do.
  // `_next` first: a short needle is a plain scan, a long one sets up a search table per call.
  if (!lastSegmentHasDot(url) && !(url.includes('_next') && url.includes('_next/image'))) {
    return url;
  }
  // The same assets recur on every page (icons, images): each is worked out once.
  let normalized = NORMALIZED.get(url);
  if (normalized === undefined) {
    if (NORMALIZED.size >= MAX_NORMALIZED) NORMALIZED.clear();
    normalized = normalizeOnce(url);
    NORMALIZED.set(url, normalized);
  }
  return normalized;
}

/** Whether a dot follows the URL's last slash; scanned from the end, as most links are short. */
function lastSegmentHasDot(url: string): boolean {
  for (let i = url.length - 1; i >= 0; i -= 1) {
    const c = url.charCodeAt(i);
    if (c === 46 /* . */) return true;
    if (c === 47 /* / */) return false;
  }
  return false;
}

/** normalizeUrl's answers, bounded so that a site of unique links cannot grow it forever. */
const NORMALIZED = new Map<string, string>();
const MAX_NORMALIZED = 100_000;

function normalizeOnce(url: string): string {
  const cut = url.search(/[?#]/);
  const path = cut === -1 ? url : url.slice(0, cut);
  // Next.js image optimizer links carry the image as a query parameter.
  if (/(?:^|\/)_next\/image$/.test(path)) {
    const inner = /[?&]url=([^&#]*)/.exec(url)?.[1];
    return inner === undefined ? path : `${path}?url=${normalizeUrl(safeDecode(inner))}`;
  }
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (!/\.[a-z0-9]+$/i.test(name) || /\.html?$/i.test(name)) return url;
  return normalizeAssetPath(path);
}

/**
 * Folders only a generator writes, where a name may be a content hash alone (Turbopack's
 * `chunks/079h_c3rnr5lh.js`) or hold digits before one (`3e90-54fyc_bw.js`).
 */
const GENERATOR_FOLDER = /(?:^|\/)(?:_next\/static|_astro)\//;
/**
 * Vite and VitePress hash into `assets/`, after the file's own name (`index-BCVqSRsC.js`,
 * `style.QLzf_0bl.css`); but a site's own files go there too (`public/assets/`), so a
 * name there is a writer's (`diagram01.png`, `release-notes-2023.pdf`), and a hash after
 * it has a letter (a date such as `20231015` is none).
 */
const ASSETS_FOLDER = /(?:^|\/)assets\//;
/** Where a file is, for how its name may hold a hash. */
type Folder = 'generator' | 'assets' | 'other';
/** Folders Next.js puts under `_next/static/` that are not a build id. */
const NEXT_STATIC_FOLDERS = new Set(['chunks', 'css', 'media', 'webpack', 'development']);

/**
 * An asset's path with what changes from build to build replaced by `*`: the build id
 * folder of `_next/static/<buildId>/` and content hashes in file names
 * (`logo.3f9a2c1b.png`, `main-app-a1b2c3d4.js`, `0a1b2c3d4e5f.js`, `index.BCVqSRsC.css`).
 */
export function normalizeAssetPath(path: string): string {
  const segments = path.split('/');
  const folder: Folder = GENERATOR_FOLDER.test(path)
    ? 'generator'
    : ASSETS_FOLDER.test(path)
      ? 'assets'
      : 'other';
  const last = segments.length - 1;
  for (let i = 0; i < last; i += 1) {
    const isBuildId =
      i >= 2 &&
      segments[i - 1] === 'static' &&
      segments[i - 2] === '_next' &&
      !NEXT_STATIC_FOLDERS.has(segments[i] as string);
    if (isBuildId) segments[i] = '*';
  }
  segments[last] = withoutHashes(segments[last] as string, folder);
  return segments.join('/');
}

function withoutHashes(name: string, folder: Folder): string {
  const parts = name.split('.');
  if (parts.length < 2) return name;
  const extension = parts.pop() as string;
  // Outside the folders generators hash into, a hash mixes letters and digits: a date
  // (`report-20231015`) or a word (`Settings`) is part of a name a writer chose.
  const isHash =
    folder === 'generator'
      ? looksLikeHash
      : folder === 'assets'
        ? (token: string) => looksLikeHash(token) && /[A-Za-z]/.test(token)
        : looksLikeMixedHash;
  const kept = parts.map((part, index) => {
    if (folder === 'assets') {
      // Vite's `[name]-[hash]`: 8 characters of base64url, with a dash among them at times.
      const vite = VITE_NAME.exec(part);
      if (vite && looksLikeViteHash(vite[2] as string)) return `${vite[1]}-*`;
    }
    const dash = part.lastIndexOf('-');
    if (dash > 0 && isHash(part.slice(dash + 1))) {
      const prefix = part.slice(0, dash);
      // `3e90-54fyc_bw` is a hash with a dash in it; `main-app-a1b2c3d4` is a name and a hash.
      return /\d/.test(prefix) && folder === 'generator' ? '*' : `${prefix}-*`;
    }
    // The leading part is the file's own name (`diagram01.png`, `diagram01.Bx8aK3Qz.png`:
    // swapping it is a change), unless it stands alone in a generator's folder
    // (`chunks/079h_c3rnr5lh.js`).
    if (index === 0 && !(folder === 'generator' && parts.length === 1)) return part;
    // After the name, in a hashed folder, a hash may be digits alone (`logo.12345678.png`).
    // Outside hashed folders a dash reads as words: `step-1-install`.
    if (folder !== 'other') return looksLikeHash(part) ? '*' : part;
    return looksLikeMixedHash(part) && !part.includes('-') ? '*' : part;
  });
  return [...kept, extension].join('.');
}

/** A name and Vite's hash after a dash: 8 characters that may hold a dash themselves. */
const VITE_NAME = /^(.+)-([A-Za-z0-9_-]{8})$/;

/**
 * Vite's hash (base64url): a capital among letters or digits nearly always (98% of them);
 * a writer's names are lower case (`v2-final`, `overview`).
 */
function looksLikeViteHash(token: string): boolean {
  return /[A-Z]/.test(token) && /[a-z0-9]/.test(token);
}

/** A hash with both letters and digits, as content hashes of 8+ characters nearly always are. */
function looksLikeMixedHash(token: string): boolean {
  return looksLikeHash(token) && /\d/.test(token) && /[A-Za-z]/.test(token);
}

/**
 * A content hash as generators write them: 8+ characters of base64url or base36 with a
 * digit (`3f9a2c1b`, `079h_c3rnr5lh`), or Vite's 8 characters in mixed case (`DlQ8ZhpE`,
 * `BCVqSRsC`); a word in mixed case such as `_buildManifest` is not one.
 */
function looksLikeHash(token: string): boolean {
  if (token.length < 8 || !/^[A-Za-z0-9_-]+$/.test(token)) return false;
  if (/\d/.test(token)) return true;
  return token.length === 8 && /[a-z]/.test(token) && /[A-Z]/.test(token);
}

/** The navigation hash of a page that has none (a bare redirect stub's). */
export const NO_NAVIGATION = readVisible(Buffer.alloc(0)).navigation;

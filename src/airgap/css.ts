import { tokenize } from 'css-tree/tokenizer';
// CSS's whitespace is HTML's: space, tab, line feed, form feed, carriage return.
import { isHtmlWhitespace, withoutHtmlWhitespace } from '../html-whitespace.js';
import { dataUrlPayload, isDataUrl } from './data-urls.js';

// Token types of css-tree's tokenizer (CSS Syntax Level 3).
const FUNCTION = 2;
const AT_KEYWORD = 3;
const STRING = 5;
const URL = 7;
const WHITESPACE = 13;
const LEFT_PARENTHESIS = 21;
const RIGHT_PARENTHESIS = 22;
const COMMENT = 25;
const IMAGE_SET = /^(?:-webkit-)?image-set\($/i;

export interface FoundUrl {
  url: string;
  offset: number;
  /** `css url()` or `css @import`: both load. */
  via: string;
  /** Named by an `@import` (`@import url(…)` too): a stylesheet. */
  imported?: true;
}

/**
 * An escape as CSS Syntax reads it: up to six hex digits and one whitespace after them,
 * a line break (in a string, a line continued: nothing), or any other character as itself.
 */
const ESCAPE = /\\(?:([0-9a-f]{1,6})(?:\r\n|[ \t\n\r\f])?|(\r\n|[\n\r\f])|([\s\S]))/gi;
const REPLACEMENT_CHARACTER = '\uFFFD';

/** Text with its escapes decoded: an identifier's, a string's or a url()'s. */
function decodeEscapes(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(ESCAPE, (_, hex?: string, lineBreak?: string, character?: string) => {
    if (hex === undefined) return lineBreak !== undefined ? '' : (character as string);
    const code = Number.parseInt(hex, 16);
    // Zero, a surrogate or past Unicode's last code point is U+FFFD, as browsers read it.
    return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)
      ? REPLACEMENT_CHARACTER
      : String.fromCodePoint(code);
  });
}

function unquote(text: string): string {
  const quote = text[0];
  const inner =
    quote === '"' || quote === "'" ? text.slice(1, text.endsWith(quote) ? -1 : undefined) : text;
  return decodeEscapes(inner);
}

/** Thrown from the tokenizer's callback to stop it where it stands. */
const RESUME = new Error('read again from the end of an escaped url()');

/** How many `@import` of a `data:` stylesheet inside one another are read. */
export const MAX_DATA_IMPORT_DEPTH = 4;

/**
 * Every URL a stylesheet would load: `url(...)` in any form, `src(...)`, `image-set`
 * strings and `@import "..."`, found with a CSS tokenizer (not a regular expression),
 * so comments and strings that merely contain "url(" are not mistaken for references.
 * What a stylesheet imported from a `data:` URL loads is read too, at the `@import`.
 */
export function urlsInCss(source: string, depth = 0): FoundUrl[] {
  const found = urlsInOneSheet(source);
  if (!found.some((f) => f.imported && isDataUrl(f.url))) return found;
  return found.flatMap((f) => {
    const payload = f.imported ? dataUrlPayload(f.url) : undefined;
    if (payload?.type !== 'text/css' || depth >= MAX_DATA_IMPORT_DEPTH) return [f];
    const imported = urlsInCss(payload.text, depth + 1).map((inner) => ({
      url: inner.url,
      offset: f.offset,
      via: `css @import (data:) ${inner.via}`,
    }));
    return [f, ...imported];
  });
}

function urlsInOneSheet(source: string): FoundUrl[] {
  const found: FoundUrl[] = [];
  let pending: { via: string } | undefined;
  /** Inside `@namespace … ;`: its url() or string names a namespace and is never fetched (CSS Namespaces 3). */
  let inNamespace = false;
  /** The blocks open, by whether each is an `image-set(`, whose own strings are URLs (not those of `type()` inside it). */
  const blocks: boolean[] = [];
  /** Where the text the tokenizer reads starts in `source`. */
  let from = 0;
  /** Where to read again from, past a url() the tokenizer cannot read. */
  let resume = 0;
  /** After `@import`, up to the URL it names. */
  let importing = false;
  const push = (url: string, offset: number, via: string) => {
    found.push({ url, offset, via, ...(importing ? { imported: true as const } : {}) });
    importing = false;
  };
  const read = (type: number, tokenStart: number, tokenEnd: number): void => {
    if (type === WHITESPACE || type === COMMENT) return;
    const start = from + tokenStart;
    const end = from + tokenEnd;
    const text = source.slice(start, end);
    // A name as a browser reads it: `@\69mport` is @import and `u\72l(…)` is url(…),
    // decoded before it is looked at.
    const name =
      (type === FUNCTION || type === AT_KEYWORD) && text.includes('\\')
        ? decodeEscapes(text)
        : text;
    if (inNamespace) {
      if (text === ';' || text === '{' || text === '}') inNamespace = false;
      return;
    }
    if (type === AT_KEYWORD && name.toLowerCase() === '@namespace') {
      inNamespace = true;
      pending = undefined;
      return;
    }
    // The tokenizer only knows `url(` as written: after an escaped one it reads an
    // unquoted URL as other tokens, where a quote or a comment runs past its `)`. The URL
    // is read here, and the tokenizer starts again after it.
    if (type === FUNCTION && name !== text && name.toLowerCase() === 'url(') {
      const inner = source.slice(end).match(/^[ \t\n\r\f]*(["']?)/) as RegExpMatchArray;
      if (inner[1] === '') {
        const close = unescapedParenthesis(source, end);
        const url = unquotedUrl(source.slice(end, close));
        if (url !== undefined) push(url, start, 'css url()');
        pending = undefined;
        resume = Math.min(close + 1, source.length);
        throw RESUME;
      }
    }
    if (type === FUNCTION || type === LEFT_PARENTHESIS)
      blocks.push(type === FUNCTION && IMAGE_SET.test(name));
    else if (type === RIGHT_PARENTHESIS) blocks.pop();
    else if (type === STRING && !pending && blocks[blocks.length - 1] === true) {
      found.push({ url: unquote(text), offset: start, via: 'css image-set()' });
      return;
    }
    if (type === URL) {
      const inner = withoutHtmlWhitespace(
        text.slice(text.indexOf('(') + 1, text.endsWith(')') ? -1 : undefined),
      );
      push(unquote(inner), start, 'css url()');
      pending = undefined;
      return;
    }
    if (pending && type === STRING) {
      push(unquote(text), start, pending.via);
      pending = undefined;
      return;
    }
    pending = undefined;
    if (type === FUNCTION && /^(url|src)\($/i.test(name)) pending = { via: 'css url()' };
    else if (type === AT_KEYWORD && name.toLowerCase() === '@import') {
      pending = { via: 'css @import' };
      importing = true;
    } else importing = false;
  };
  do {
    from = resume;
    try {
      tokenize(from === 0 ? source : source.slice(from), read);
    } catch (err) {
      if (err !== RESUME) throw err;
    }
  } while (resume > from);
  return found;
}

/** Where the unquoted URL from `from` ends: its first `)` that no backslash escapes, or the end. */
function unescapedParenthesis(source: string, from: number): number {
  for (let i = from; i < source.length; i += 1) {
    const c = source.charCodeAt(i);
    if (c === 0x5c /* \\ */) i += 1;
    else if (c === 0x29 /* ) */) return i;
  }
  return source.length;
}

/** A character that makes an unquoted url() bad: a quote, `(`, or a control character. */
const breaksUrl = (c: number) =>
  c === 0x22 ||
  c === 0x27 ||
  c === 0x28 ||
  c <= 0x08 ||
  c === 0x0b ||
  (c >= 0x0e && c <= 0x1f) ||
  c === 0x7f;

/**
 * The URL of an unquoted url() from its inside, or undefined for a bad one that loads
 * nothing: a quote, `(`, whitespace or a control character inside it, or a backslash
 * before a line break (CSS Syntax, "consume a url token").
 */
function unquotedUrl(inside: string): string | undefined {
  let first = 0;
  let last = inside.length;
  while (first < last && isHtmlWhitespace(inside.charCodeAt(first))) first += 1;
  while (last > first && isHtmlWhitespace(inside.charCodeAt(last - 1))) last -= 1;
  const written = inside.slice(first, last);
  for (let i = 0; i < written.length; i += 1) {
    const c = written.charCodeAt(i);
    if (c === 0x5c /* \\ */) {
      const next = written.charCodeAt(i + 1);
      if (next === 0x0a || next === 0x0c || next === 0x0d) return undefined;
      // Hex digits and the one whitespace that ends them (CR LF is one) are the escape's own.
      const escape = /^\\(?:[0-9a-f]{1,6}(?:\r\n|[ \t\n\r\f])?|[\s\S])/i.exec(
        written.slice(i, i + 9),
      );
      i += (escape?.[0].length ?? 1) - 1;
    } else if (isHtmlWhitespace(c) || breaksUrl(c)) return undefined;
  }
  return decodeEscapes(written);
}

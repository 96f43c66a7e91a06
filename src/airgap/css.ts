import { tokenize } from 'css-tree/tokenizer';

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
}

function unquote(text: string): string {
  const quote = text[0];
  const inner =
    quote === '"' || quote === "'" ? text.slice(1, text.endsWith(quote) ? -1 : undefined) : text;
  return inner.replace(/\\([0-9a-f]{1,6}\s?|.)/gi, (_, escaped: string) =>
    /^[0-9a-f]/i.test(escaped) ? String.fromCodePoint(Number.parseInt(escaped, 16)) : escaped,
  );
}

/**
 * Every URL a stylesheet would load: `url(...)` in any form, `src(...)`, `image-set`
 * strings and `@import "..."`, found with a CSS tokenizer (not a regular expression),
 * so comments and strings that merely contain "url(" are not mistaken for references.
 */
export function urlsInCss(source: string): FoundUrl[] {
  const found: FoundUrl[] = [];
  let pending: { via: string } | undefined;
  /** Inside `@namespace … ;`: its url() or string names a namespace and is never fetched (CSS Namespaces 3). */
  let inNamespace = false;
  /** The blocks open, by whether each is an `image-set(`, whose own strings are URLs (not those of `type()` inside it). */
  const blocks: boolean[] = [];
  /** Tokens before this offset are the inside of a url() read whole already. */
  let skipUntil = 0;
  tokenize(source, (type, start, end) => {
    if (type === WHITESPACE || type === COMMENT || start < skipUntil) return;
    const text = source.slice(start, end);
    if (inNamespace) {
      if (text === ';' || text === '{' || text === '}') inNamespace = false;
      return;
    }
    if (type === AT_KEYWORD && text.toLowerCase() === '@namespace') {
      inNamespace = true;
      pending = undefined;
      return;
    }
    // A function's name as a browser reads it: `u\72l(…)` is url(…), decoded before it is
    // looked at. The tokenizer only knows `url(` as written, and splits an unquoted URL
    // after an escaped one into pieces.
    const name = type === FUNCTION && text.includes('\\') ? unquote(text) : text;
    if (type === FUNCTION && name !== text && name.toLowerCase() === 'url(') {
      const inner = source.slice(end).match(/^[ \t\n\r\f]*(["']?)/) as RegExpMatchArray;
      if (inner[1] === '') {
        const close = unescapedParenthesis(source, end);
        found.push({
          url: unquote(source.slice(end, close).trim()),
          offset: start,
          via: 'css url()',
        });
        pending = undefined;
        skipUntil = close + 1;
        return;
      }
    }
    if (type === FUNCTION || type === LEFT_PARENTHESIS)
      blocks.push(type === FUNCTION && IMAGE_SET.test(text));
    else if (type === RIGHT_PARENTHESIS) blocks.pop();
    else if (type === STRING && !pending && blocks[blocks.length - 1] === true) {
      found.push({ url: unquote(text), offset: start, via: 'css image-set()' });
      return;
    }
    if (type === URL) {
      const inner = text.slice(text.indexOf('(') + 1, text.endsWith(')') ? -1 : undefined).trim();
      found.push({ url: unquote(inner), offset: start, via: 'css url()' });
      pending = undefined;
      return;
    }
    if (pending && type === STRING) {
      found.push({ url: unquote(text), offset: start, via: pending.via });
      pending = undefined;
      return;
    }
    pending = undefined;
    if (type === FUNCTION && /^(url|src)\($/i.test(name)) pending = { via: 'css url()' };
    else if (type === AT_KEYWORD && text.toLowerCase() === '@import')
      pending = { via: 'css @import' };
  });
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

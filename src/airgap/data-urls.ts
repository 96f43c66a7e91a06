/**
 * A `data:` URL holds its document in itself: a frame, a stylesheet or a script loaded
 * from one loads what that document references. Payloads past this many characters are
 * not read (a page's attribute holds them whole already; this bounds the decoded copy).
 */
export const MAX_DATA_URL_CHARS = 4 * 1024 * 1024;

export interface DataUrlPayload {
  /** The MIME type, lowercased, without parameters: `text/html`, `text/css`. */
  type: string;
  text: string;
}

const DATA_URL = /^[\t\n\f\r ]*data:/i;

export function isDataUrl(url: string): boolean {
  return DATA_URL.test(url);
}

/**
 * The payload of a `data:` URL as text (percent-decoded, or base64-decoded, as UTF-8), with
 * its MIME type (`text/plain` when none is given, as the Fetch standard reads it); undefined
 * for another URL, one without a comma, or one past MAX_DATA_URL_CHARS.
 */
export function dataUrlPayload(url: string): DataUrlPayload | undefined {
  if (url.length > MAX_DATA_URL_CHARS || !isDataUrl(url)) return undefined;
  const start = url.indexOf(':') + 1;
  const comma = url.indexOf(',', start);
  if (comma < 0) return undefined;
  const header = url.slice(start, comma).replace(/[\t\n\r]/g, '');
  const base64 = /;[ ]*base64[ ]*$/i.test(header);
  const mediaType = (base64 ? header.replace(/;[ ]*base64[ ]*$/i, '') : header)
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  const bytes = percentDecoded(url.slice(comma + 1));
  const text = base64
    ? Buffer.from(bytes.toString('latin1').replace(/[\t\n\f\r ]/g, ''), 'base64').toString('utf8')
    : bytes.toString('utf8');
  return { type: mediaType || 'text/plain', text };
}

/**
 * The code of a `javascript:` URL, as a frame navigated to it runs it: the URL without
 * the controls and spaces before it and the tabs and line breaks in it (`java\tscript:`),
 * percent-decoded as UTF-8; undefined for another URL or one past MAX_DATA_URL_CHARS.
 */
export function javascriptUrlCode(url: string): string | undefined {
  // Most frames show a page: ruled out before the URL is copied.
  if (url.length > MAX_DATA_URL_CHARS || !/^[\0-\x20]*j/i.test(url)) return undefined;
  const value = url.replace(/^[\0-\x20]+/, '').replace(/[\t\n\r]/g, '');
  if (!/^javascript:/i.test(value)) return undefined;
  return percentDecoded(value.slice('javascript:'.length)).toString('utf8');
}

/** `%41` is `A`; a `%` not followed by two hex digits stays itself (the URL standard's percent-decode). */
function percentDecoded(body: string): Buffer {
  const raw = Buffer.from(body, 'utf8');
  if (!body.includes('%')) return raw;
  const out = Buffer.alloc(raw.length);
  let length = 0;
  for (let i = 0; i < raw.length; i += 1) {
    const pair = raw[i] === 0x25 ? raw.toString('latin1', i + 1, i + 3) : '';
    if (/^[0-9a-f]{2}$/i.test(pair)) {
      out[length++] = Number.parseInt(pair, 16);
      i += 2;
    } else out[length++] = raw[i] as number;
  }
  return out.subarray(0, length);
}

/** MIME types a frame, an `<object>` or an `<embed>` renders as a document whose references load. */
export const DOCUMENT_TYPES = new Set(['text/html', 'application/xhtml+xml', 'image/svg+xml']);
/** MIME types a classic `<script src>` refuses to run (Chromium's list); it runs any other. */
export const NOT_SCRIPT_TYPES = /^(?:image|audio|video)\/|^text\/csv$/;

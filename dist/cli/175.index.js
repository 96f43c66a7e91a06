export const id = 175;
export const ids = [175];
export const modules = {

/***/ 2496:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   R: () => (/* binding */ urlsInCss)
/* harmony export */ });
/* unused harmony export MAX_DATA_IMPORT_DEPTH */
/* harmony import */ var css_tree_tokenizer__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(527);
/* harmony import */ var _html_whitespace_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(143);
/* harmony import */ var _data_urls_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(5798);

// CSS's whitespace is HTML's: space, tab, line feed, form feed, carriage return.


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
/**
 * An escape as CSS Syntax reads it: up to six hex digits and one whitespace after them,
 * a line break (in a string, a line continued: nothing), or any other character as itself.
 */
const ESCAPE = /\\(?:([0-9a-f]{1,6})(?:\r\n|[ \t\n\r\f])?|(\r\n|[\n\r\f])|([\s\S]))/gi;
const REPLACEMENT_CHARACTER = '\uFFFD';
/** Text with its escapes decoded: an identifier's, a string's or a url()'s. */
function decodeEscapes(text) {
    if (!text.includes('\\'))
        return text;
    return text.replace(ESCAPE, (_, hex, lineBreak, character) => {
        if (hex === undefined)
            return lineBreak !== undefined ? '' : character;
        const code = Number.parseInt(hex, 16);
        // Zero, a surrogate or past Unicode's last code point is U+FFFD, as browsers read it.
        return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)
            ? REPLACEMENT_CHARACTER
            : String.fromCodePoint(code);
    });
}
function unquote(text) {
    const quote = text[0];
    const inner = quote === '"' || quote === "'" ? text.slice(1, text.endsWith(quote) ? -1 : undefined) : text;
    return decodeEscapes(inner);
}
/** Thrown from the tokenizer's callback to stop it where it stands. */
const RESUME = new Error('read again from the end of an escaped url()');
/** How many `@import` of a `data:` stylesheet inside one another are read. */
const MAX_DATA_IMPORT_DEPTH = 4;
/**
 * Every URL a stylesheet would load: `url(...)` in any form, `src(...)`, `image-set`
 * strings and `@import "..."`, found with a CSS tokenizer (not a regular expression),
 * so comments and strings that merely contain "url(" are not mistaken for references.
 * What a stylesheet imported from a `data:` URL loads is read too, at the `@import`.
 */
function urlsInCss(source, depth = 0) {
    const found = urlsInOneSheet(source);
    if (!found.some((f) => f.imported && (0,_data_urls_js__WEBPACK_IMPORTED_MODULE_0__/* .isDataUrl */ .ax)(f.url)))
        return found;
    return found.flatMap((f) => {
        const payload = f.imported ? (0,_data_urls_js__WEBPACK_IMPORTED_MODULE_0__/* .dataUrlPayload */ .QZ)(f.url) : undefined;
        if (payload?.type !== 'text/css' || depth >= MAX_DATA_IMPORT_DEPTH)
            return [f];
        const imported = urlsInCss(payload.text, depth + 1).map((inner) => ({
            url: inner.url,
            offset: f.offset,
            via: `css @import (data:) ${inner.via}`,
        }));
        return [f, ...imported];
    });
}
function urlsInOneSheet(source) {
    const found = [];
    let pending;
    /** Inside `@namespace … ;`: its url() or string names a namespace and is never fetched (CSS Namespaces 3). */
    let inNamespace = false;
    /** The blocks open, by whether each is an `image-set(`, whose own strings are URLs (not those of `type()` inside it). */
    const blocks = [];
    /** Where the text the tokenizer reads starts in `source`. */
    let from = 0;
    /** Where to read again from, past a url() the tokenizer cannot read. */
    let resume = 0;
    /** After `@import`, up to the URL it names. */
    let importing = false;
    const push = (url, offset, via) => {
        found.push({ url, offset, via, ...(importing ? { imported: true } : {}) });
        importing = false;
    };
    const read = (type, tokenStart, tokenEnd) => {
        if (type === WHITESPACE || type === COMMENT)
            return;
        const start = from + tokenStart;
        const end = from + tokenEnd;
        const text = source.slice(start, end);
        // A name as a browser reads it: `@\69mport` is @import and `u\72l(…)` is url(…),
        // decoded before it is looked at.
        const name = (type === FUNCTION || type === AT_KEYWORD) && text.includes('\\')
            ? decodeEscapes(text)
            : text;
        if (inNamespace) {
            if (text === ';' || text === '{' || text === '}')
                inNamespace = false;
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
            const inner = source.slice(end).match(/^[ \t\n\r\f]*(["']?)/);
            if (inner[1] === '') {
                const close = unescapedParenthesis(source, end);
                const url = unquotedUrl(source.slice(end, close));
                if (url !== undefined)
                    push(url, start, 'css url()');
                pending = undefined;
                resume = Math.min(close + 1, source.length);
                throw RESUME;
            }
        }
        if (type === FUNCTION || type === LEFT_PARENTHESIS)
            blocks.push(type === FUNCTION && IMAGE_SET.test(name));
        else if (type === RIGHT_PARENTHESIS)
            blocks.pop();
        else if (type === STRING && !pending && blocks[blocks.length - 1] === true) {
            found.push({ url: unquote(text), offset: start, via: 'css image-set()' });
            return;
        }
        if (type === URL) {
            const inner = (0,_html_whitespace_js__WEBPACK_IMPORTED_MODULE_1__/* .withoutHtmlWhitespace */ .F)(text.slice(text.indexOf('(') + 1, text.endsWith(')') ? -1 : undefined));
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
        if (type === FUNCTION && /^(url|src)\($/i.test(name))
            pending = { via: 'css url()' };
        else if (type === AT_KEYWORD && name.toLowerCase() === '@import') {
            pending = { via: 'css @import' };
            importing = true;
        }
        else
            importing = false;
    };
    do {
        from = resume;
        try {
            (0,css_tree_tokenizer__WEBPACK_IMPORTED_MODULE_2__/* .tokenize */ .qw)(from === 0 ? source : source.slice(from), read);
        }
        catch (err) {
            if (err !== RESUME)
                throw err;
        }
    } while (resume > from);
    return found;
}
/** Where the unquoted URL from `from` ends: its first `)` that no backslash escapes, or the end. */
function unescapedParenthesis(source, from) {
    for (let i = from; i < source.length; i += 1) {
        const c = source.charCodeAt(i);
        if (c === 0x5c /* \\ */)
            i += 1;
        else if (c === 0x29 /* ) */)
            return i;
    }
    return source.length;
}
/** A character that makes an unquoted url() bad: a quote, `(`, or a control character. */
const breaksUrl = (c) => c === 0x22 ||
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
function unquotedUrl(inside) {
    let first = 0;
    let last = inside.length;
    while (first < last && (0,_html_whitespace_js__WEBPACK_IMPORTED_MODULE_1__/* .isHtmlWhitespace */ .f)(inside.charCodeAt(first)))
        first += 1;
    while (last > first && (0,_html_whitespace_js__WEBPACK_IMPORTED_MODULE_1__/* .isHtmlWhitespace */ .f)(inside.charCodeAt(last - 1)))
        last -= 1;
    const written = inside.slice(first, last);
    for (let i = 0; i < written.length; i += 1) {
        const c = written.charCodeAt(i);
        if (c === 0x5c /* \\ */) {
            const next = written.charCodeAt(i + 1);
            if (next === 0x0a || next === 0x0c || next === 0x0d)
                return undefined;
            // Hex digits and the one whitespace that ends them (CR LF is one) are the escape's own.
            const escape = /^\\(?:[0-9a-f]{1,6}(?:\r\n|[ \t\n\r\f])?|[\s\S])/i.exec(written.slice(i, i + 9));
            i += (escape?.[0].length ?? 1) - 1;
        }
        else if ((0,_html_whitespace_js__WEBPACK_IMPORTED_MODULE_1__/* .isHtmlWhitespace */ .f)(c) || breaksUrl(c))
            return undefined;
    }
    return decodeEscapes(written);
}


/***/ }),

/***/ 5798:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   QZ: () => (/* binding */ dataUrlPayload),
/* harmony export */   ax: () => (/* binding */ isDataUrl),
/* harmony export */   c6: () => (/* binding */ NOT_SCRIPT_TYPES),
/* harmony export */   g2: () => (/* binding */ DOCUMENT_TYPES),
/* harmony export */   sk: () => (/* binding */ javascriptUrlCode)
/* harmony export */ });
/* unused harmony export MAX_DATA_URL_CHARS */
/**
 * A `data:` URL holds its document in itself: a frame, a stylesheet or a script loaded
 * from one loads what that document references. Payloads past this many characters are
 * not read (a page's attribute holds them whole already; this bounds the decoded copy).
 */
const MAX_DATA_URL_CHARS = 4 * 1024 * 1024;
const DATA_URL = /^[\t\n\f\r ]*data:/i;
function isDataUrl(url) {
    return DATA_URL.test(url);
}
/**
 * The payload of a `data:` URL as text (percent-decoded, or base64-decoded, as UTF-8), with
 * its MIME type (`text/plain` when none is given, as the Fetch standard reads it); undefined
 * for another URL, one without a comma, or one past MAX_DATA_URL_CHARS.
 */
function dataUrlPayload(url) {
    if (url.length > MAX_DATA_URL_CHARS || !isDataUrl(url))
        return undefined;
    const start = url.indexOf(':') + 1;
    const comma = url.indexOf(',', start);
    if (comma < 0)
        return undefined;
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
function javascriptUrlCode(url) {
    // Most frames show a page: ruled out before the URL is copied.
    if (url.length > MAX_DATA_URL_CHARS || !/^[\0-\x20]*j/i.test(url))
        return undefined;
    const value = url.replace(/^[\0-\x20]+/, '').replace(/[\t\n\r]/g, '');
    if (!/^javascript:/i.test(value))
        return undefined;
    return percentDecoded(value.slice('javascript:'.length)).toString('utf8');
}
/** `%41` is `A`; a `%` not followed by two hex digits stays itself (the URL standard's percent-decode). */
function percentDecoded(body) {
    const raw = Buffer.from(body, 'utf8');
    if (!body.includes('%'))
        return raw;
    const out = Buffer.alloc(raw.length);
    let length = 0;
    for (let i = 0; i < raw.length; i += 1) {
        const pair = raw[i] === 0x25 ? raw.toString('latin1', i + 1, i + 3) : '';
        if (/^[0-9a-f]{2}$/i.test(pair)) {
            out[length++] = Number.parseInt(pair, 16);
            i += 2;
        }
        else
            out[length++] = raw[i];
    }
    return out.subarray(0, length);
}
/** MIME types a frame, an `<object>` or an `<embed>` renders as a document whose references load. */
const DOCUMENT_TYPES = new Set(['text/html', 'application/xhtml+xml', 'image/svg+xml']);
/** MIME types a classic `<script src>` refuses to run (Chromium's list); it runs any other. */
const NOT_SCRIPT_TYPES = /^(?:image|audio|video)\/|^text\/csv$/;


/***/ }),

/***/ 3629:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   I: () => (/* binding */ referencesInFlight)
/* harmony export */ });
/* harmony import */ var _css_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(2496);
/* harmony import */ var _js_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(4100);
/* harmony import */ var _json_formats_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(156);
/* harmony import */ var _references_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(8809);




/** React prop names of the URL attributes `roleOfAttribute` knows. */
const PROP_ATTRIBUTES = {
    href: 'href',
    src: 'src',
    srcSet: 'srcset',
    imageSrcSet: 'imagesrcset',
    poster: 'poster',
    action: 'action',
    formAction: 'formaction',
    data: 'data',
    cite: 'cite',
    xlinkHref: 'xlink:href',
};
/**
 * The references in React Server Components flight data, the payload a Next.js App
 * Router export embeds in every page (`self.__next_f.push([1, "…"])`) and writes beside
 * it (`page.txt`, `page/__next.*.txt`). Rows are `id:payload` lines; JSON rows hold the
 * element tree as `["$", type, key, props]`, and `:HL[url, as]` rows are preload hints.
 * Elements built by client components (next/script, next/link, next/image) appear here
 * only: `<Script src strategy="afterInteractive">` never reaches the HTML.
 * `offset` of each reference is the offset of its row in `text`.
 */
function referencesInFlight(text) {
    const found = [];
    let position = 0;
    while (position < text.length) {
        const colon = text.indexOf(':', position);
        if (colon < 0)
            break;
        const id = text.slice(position, colon);
        if (!/^[0-9a-f]*$/i.test(id)) {
            // Not a row start: skip the line.
            const newline = text.indexOf('\n', position);
            position = newline < 0 ? text.length : newline + 1;
            continue;
        }
        const rowStart = position;
        const payloadStart = colon + 1;
        if (text[payloadStart] === 'T') {
            // `T<hex byte length>,<text>`: raw text without a line end.
            const comma = text.indexOf(',', payloadStart);
            const bytes = Number.parseInt(text.slice(payloadStart + 1, comma), 16);
            position =
                comma < 0 || Number.isNaN(bytes) ? text.length : skipUtf8Bytes(text, comma + 1, bytes);
            continue;
        }
        const newline = text.indexOf('\n', payloadStart);
        const end = newline < 0 ? text.length : newline;
        const payload = text.slice(payloadStart, end);
        position = end + 1;
        const emit = (reference) => found.push({ ...reference, offset: rowStart });
        if (payload.startsWith('HL')) {
            const hint = (0,_json_formats_js__WEBPACK_IMPORTED_MODULE_2__/* .parseJson */ .qF)(payload.slice(2));
            if (Array.isArray(hint) && typeof hint[0] === 'string')
                emit({ url: hint[0], offset: 0, role: 'load', via: 'RSC preload hint' });
            continue;
        }
        if (/^[A-Z]/.test(payload))
            continue;
        const value = (0,_json_formats_js__WEBPACK_IMPORTED_MODULE_2__/* .parseJson */ .qF)(payload);
        if (value !== undefined)
            walk(value, emit);
    }
    return found;
}
function skipUtf8Bytes(text, from, bytes) {
    let remaining = bytes;
    let index = from;
    while (remaining > 0 && index < text.length) {
        const code = text.codePointAt(index);
        remaining -= code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
        index += code >= 0x10000 ? 2 : 1;
    }
    return index;
}
/** Every element in a row's value, in document order; a stack of its own, as JSON nests without limit. */
function walk(root, emit) {
    const stack = [root];
    while (stack.length > 0) {
        const value = stack.pop();
        if (!Array.isArray(value)) {
            if (value !== null && typeof value === 'object') {
                const children = Object.values(value);
                for (let i = children.length - 1; i >= 0; i -= 1)
                    stack.push(children[i]);
            }
            continue;
        }
        if (value[0] === '$' &&
            typeof value[1] === 'string' &&
            value[3] !== null &&
            typeof value[3] === 'object') {
            element(value[1], value[3], emit);
        }
        for (let i = value.length - 1; i >= 0; i -= 1)
            stack.push(value[i]);
    }
}
function element(type, props, emit) {
    // `$L5`: a client component (next/script, next/link, next/image); `div`: a host element.
    const component = type.startsWith('$');
    const strategy = typeof props.strategy === 'string' ? props.strategy : undefined;
    const attributes = {};
    for (const [prop, attribute] of Object.entries(PROP_ATTRIBUTES)) {
        if (typeof props[prop] === 'string')
            attributes[attribute] = props[prop];
    }
    if (typeof props.rel === 'string')
        attributes.rel = props.rel;
    for (const [attribute, url] of Object.entries(attributes)) {
        if (attribute === 'rel')
            continue;
        if (component) {
            if (attribute === 'src')
                emit({
                    url,
                    offset: 0,
                    role: 'load',
                    via: strategy ? `next/script (${strategy})` : 'component src',
                });
            else if (attribute === 'href')
                emit({ url, offset: 0, role: 'link', via: 'next/link href' });
            continue;
        }
        const role = (0,_references_js__WEBPACK_IMPORTED_MODULE_3__/* .roleOfAttribute */ .K4)(type, attribute, attributes);
        if (role)
            emit({ url, offset: 0, ...role });
    }
    const inner = props.dangerouslySetInnerHTML;
    const code = typeof inner?.__html === 'string'
        ? inner.__html
        : (component && strategy) || type === 'script'
            ? typeof props.children === 'string'
                ? props.children
                : undefined
            : undefined;
    if (code === undefined)
        return;
    if (type === 'style') {
        for (const css of (0,_css_js__WEBPACK_IMPORTED_MODULE_0__/* .urlsInCss */ .R)(code))
            emit({ ...css, offset: 0, role: 'load' });
        return;
    }
    if (type !== 'script' && !(component && strategy))
        return;
    const scriptType = typeof props.type === 'string' ? props.type.toLowerCase() : '';
    if (scriptType === 'importmap') {
        for (const url of (0,_json_formats_js__WEBPACK_IMPORTED_MODULE_2__/* .urlsInImportMap */ .jD)(code))
            emit({ url, offset: 0, role: 'load', via: 'importmap' });
    }
    else if (scriptType === '' || scriptType === 'module' || scriptType.includes('javascript')) {
        for (const script of (0,_js_js__WEBPACK_IMPORTED_MODULE_1__/* .urlsInScript */ .z)(code)) {
            if (script.evidence)
                emit({
                    url: script.url,
                    offset: 0,
                    role: 'load',
                    via: `inline script: ${script.evidence}`,
                });
        }
    }
}


/***/ }),

/***/ 178:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   CH: () => (/* binding */ HtmlScanner),
/* harmony export */   Lt: () => (/* binding */ refreshUrl),
/* harmony export */   rF: () => (/* binding */ MAX_FRAME_DEPTH)
/* harmony export */ });
/* unused harmony exports srcsetUrls, referencesInHtml */
/* harmony import */ var acorn__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4559);
/* harmony import */ var entities__WEBPACK_IMPORTED_MODULE_10__ = __webpack_require__(7031);
/* harmony import */ var htmlparser2__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(5455);
/* harmony import */ var htmlparser2__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(5867);
/* harmony import */ var _html_whitespace_js__WEBPACK_IMPORTED_MODULE_9__ = __webpack_require__(143);
/* harmony import */ var _css_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(2496);
/* harmony import */ var _data_urls_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(5798);
/* harmony import */ var _flight_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(3629);
/* harmony import */ var _js_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(4100);
/* harmony import */ var _json_formats_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(156);
/* harmony import */ var _references_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(8809);
var _a;










/** Attributes whose value is one URL (HTML, SVG and a few legacy ones). */
const URL_ATTRIBUTES = new Set([
    'href',
    'src',
    'action',
    'formaction',
    'poster',
    'data',
    'cite',
    'background',
    'manifest',
    'longdesc',
    'icon',
    'xlink:href',
    'archive',
    'codebase',
    'lowsrc',
    'dynsrc',
]);
const SRCSET_ATTRIBUTES = new Set(['srcset', 'imagesrcset']);
/** The `type`s a browser runs as script: `module` and the HTML spec's JavaScript MIME types, old ones included. */
const CLASSIC_OR_MODULE = /^(|module|(?:application|text)\/(?:x-)?(?:java|ecma)script|text\/javascript1\.[0-5]|text\/jscript|text\/livescript)$/i;
/** Attributes whose value the scan reads: the others are skipped without being copied. */
const READ_ATTRIBUTES = new Set([
    ...URL_ATTRIBUTES,
    ...SRCSET_ATTRIBUTES,
    'style',
    'rel',
    'type',
    'http-equiv',
    'content',
    'srcdoc',
    'disabled',
]);
/**
 * READ_ATTRIBUTES by name length: each attribute name is a fresh string, and comparing it
 * with the few names of its length costs less than hashing it for the set.
 */
const READ_ATTRIBUTES_BY_LENGTH = [];
for (const name of READ_ATTRIBUTES)
    (READ_ATTRIBUTES_BY_LENGTH[name.length] ??= []).push(name);
/**
 * The name as READ_ATTRIBUTES spells it, or undefined for an attribute the scan skips. The
 * element's attributes are keyed by it: a key from the list is already in V8's string
 * table, where a fresh copy would be looked up there at every store and read.
 */
function readAttributeName(name) {
    const names = READ_ATTRIBUTES_BY_LENGTH[name.length];
    if (names !== undefined)
        for (const known of names)
            if (known === name)
                return known;
    return isEventHandler(name) ? name : undefined;
}
/** `onload`, `onerror`, …: a script the browser runs, as an inline `<script>` is. */
function isEventHandler(name) {
    return name.length > 2 && name.charCodeAt(0) === 111 && name.charCodeAt(1) === 110;
}
/**
 * htmlparser2's void elements, by length first: the commonest tags (`a`, `p`) and most
 * others are ruled out without comparing or hashing the name (Parser asks for every tag).
 */
function isVoidElement(name) {
    switch (name.length) {
        case 2:
            return name === 'br' || name === 'hr';
        case 3:
            return name === 'img' || name === 'col' || name === 'wbr';
        case 4:
            return name === 'link' || name === 'meta' || name === 'base' || name === 'area';
        case 5:
            return (name === 'input' ||
                name === 'embed' ||
                name === 'frame' ||
                name === 'param' ||
                name === 'track');
        case 6:
            return name === 'source' || name === 'keygen';
        case 7:
            return name === 'command' || name === 'isindex';
        case 8:
            return name === 'basefont';
        default:
            return false;
    }
}
/**
 * htmlparser2's Tokenizer, skipping ahead to the next `<`, `>` or quote with the engine's
 * string search rather than a loop over each character (most of a page is text between
 * tags). Same contract as the method it replaces: `index` at the character, or at the
 * last one of the buffer when it is not there.
 */
class SearchingTokenizer extends htmlparser2__WEBPACK_IMPORTED_MODULE_7__/* ["default"] */ .A {
}
const CDATA_LAST = 'CDATA['.length - 1;
const OPENING_SQUARE_BRACKET = 0x5b;
const tokenizerCdataSequence = htmlparser2__WEBPACK_IMPORTED_MODULE_7__/* ["default"] */ .A.prototype.stateCDATASequence;
Object.defineProperty(SearchingTokenizer.prototype, 'stateCDATASequence', {
    /**
     * `<![CDATA[` opens a CDATA section only in an SVG or MathML element. Elsewhere a browser
     * reads it as a bogus comment, which the next `>` ends: in `<![CDATA[ a > <img src=…> ]]>`
     * the image loads. The Tokenizer would hide everything up to `]]>`; it is handed a
     * character that is not the last `[`, and takes the bogus comment's path from there.
     */
    value: function stateCDATASequence(c) {
        const bogus = this.sequenceIndex === CDATA_LAST &&
            c === OPENING_SQUARE_BRACKET &&
            this.cbs.cdataAllowed?.() !== true;
        tokenizerCdataSequence.call(this, bogus ? 0 : c);
    },
});
Object.defineProperty(SearchingTokenizer.prototype, 'fastForwardTo', {
    value: function fastForwardTo(c) {
        const found = this.buffer.indexOf(String.fromCharCode(c), this.index + 1 - this.offset);
        if (found >= 0) {
            this.index = found + this.offset;
            return true;
        }
        this.index = this.buffer.length + this.offset - 1;
        return false;
    },
});
/**
 * htmlparser2's Parser with the same tree-building rules, minus the copies no one reads:
 * the value of an attribute outside READ_ATTRIBUTES (class, id, data-*: most of them)
 * is neither cut from the text nor stored on the element, and neither are comments and
 * text outside `<script>` and `<style>` (`textWanted`).
 */
class ScanningParser extends htmlparser2__WEBPACK_IMPORTED_MODULE_8__/* .Parser */ .i {
    #skipping = false;
    /** Read as XML (an `.xhtml` or `.svg` document), where the tokenizer is in XML mode too. */
    xml;
    constructor(handler, options) {
        super(handler, options);
        this.xml = options.xmlMode === true;
    }
    foreignOpen = [];
    foreignNames = new Map();
    /** The element being reported closed is an SVG or MathML one (a `<template>` there is none of HTML's). */
    closingForeign = false;
    /** Whether an element named `template` or `noscript` is open since the `<svg>` or `<math>`. */
    holdsInertName() {
        const names = this.foreignNames;
        return names.size > 0 && ((names.get('template') ?? 0) > 0 || (names.get('noscript') ?? 0) > 0);
    }
    /** Whether text is read: only a raw `<script>` or `<style>`'s, which the scanner asks for. */
    textWanted = false;
    ontext(start, endIndex) {
        if (this.textWanted) {
            super.ontext(start, endIndex);
            return;
        }
        const state = this;
        state.endIndex = endIndex - 1;
        state.startIndex = endIndex;
    }
    /** Comments are never read (the Parser would cut each one from the page for no one). */
    oncomment(_start, endIndex) {
        const state = this;
        state.endIndex = endIndex;
        state.startIndex = endIndex + 1;
    }
    isVoidElement(name) {
        return isVoidElement(name);
    }
    onattribname(start, endIndex) {
        super.onattribname(start, endIndex);
        const state = this;
        const known = readAttributeName(state.attribname);
        this.#skipping = known === undefined;
        if (known !== undefined)
            state.attribname = known;
    }
    onattribdata(start, endIndex) {
        if (!this.#skipping)
            super.onattribdata(start, endIndex);
    }
    onattribend(_quote, endIndex) {
        const state = this;
        state.endIndex = endIndex;
        // As the Parser does (the first of two same-named attributes counts), without its
        // generic own-property check: every name read here is a plain one (READ_ATTRIBUTES).
        const attribs = state.attribs;
        if (!this.#skipping && attribs !== null && attribs[state.attribname] === undefined)
            attribs[state.attribname] = state.attribvalue;
        state.attribvalue = '';
    }
}
/**
 * The end tags the scan acts on outside SVG and MathML: those of the raw-text elements it
 * reads, </form>, and those of the elements whose `<base>` browsers ignore. Another end
 * tag's name (</a>, </li>, </div>: most of them) is not even cut from the text when its
 * length rules it out.
 */
const END_TAGS_READ = ['script', 'style', 'form', 'template', 'noscript'];
const END_TAG_READ_LENGTHS = new Set(END_TAGS_READ.map((name) => name.length));
/** Where SVG and MathML content lets HTML back in (lower case, as tag names are read here). */
const HTML_INTEGRATION_POINTS = {
    svg: new Set(['foreignobject', 'desc', 'title']),
    math: new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml']),
};
// The scan reads each start tag with its attributes, and the end of `<script>` and
// `<style>`; it never asks which HTML element encloses another. So the Parser's stack of
// open elements (implied end tags, a second <form>, SVG's camel-case names) is not kept:
// a start tag is named in lower case, an end tag reported as written. Only inside
// `<svg>` and `<math>` are open elements followed, because there the tokenizer reads
// `<style>` and `<script>` as markup rather than raw text, as browsers do: it asks
// isInForeignContext at every tag.
Object.defineProperties(ScanningParser.prototype, {
    readTagName: {
        value: function readTagName(start, endIndex) {
            const name = this.getSlice(start, endIndex).toLowerCase();
            // HTML's alias, outside SVG: <image> is an <img>.
            return name === 'image' && !foreignNow(this) ? 'img' : name;
        },
    },
    isInForeignContext: {
        value: function isInForeignContext() {
            return foreignNow(this);
        },
    },
    // Asked by the tokenizer at `<![CDATA[` (see SearchingTokenizer).
    cdataAllowed: {
        value: function cdataAllowed() {
            return this.xml || currentNodeForeign(this);
        },
    },
    emitOpenTag: {
        value: function emitOpenTag(name) {
            this.openTagStart = this.startIndex;
            this.tagname = name;
            this.attribs = {};
            const open = this.foreignOpen;
            // `<svg><p>`: a browser leaves foreign content for the HTML element (asked only there:
            // a name looked up in a set is hashed, at every tag).
            if (foreignNow(this) && BREAKOUT.has(name))
                leaveForeign(this);
            if (name === 'svg' || name === 'math')
                pushForeign(this, { name, root: name, foreign: true });
            else if (open.length > 0 && !this.isVoidElement(name)) {
                const { root } = open[open.length - 1];
                const foreign = !HTML_INTEGRATION_POINTS[root].has(name) && foreignNow(this);
                pushForeign(this, { name, root, foreign });
            }
        },
    },
    onclosetag: {
        value: function onclosetag(start, endIndex) {
            this.endIndex = endIndex;
            if (this.foreignOpen.length > 0)
                closeForeign(this, this.readTagName(start, endIndex));
            else if (END_TAG_READ_LENGTHS.has(endIndex - start)) {
                const name = this.readTagName(start, endIndex);
                if (!this.isVoidElement(name))
                    this.cbs.onclosetag?.(name, false);
            }
            this.startIndex = endIndex + 1;
        },
    },
    onselfclosingtag: {
        value: function onselfclosingtag(endIndex) {
            this.endIndex = endIndex;
            // Browsers honour `/>` on SVG and MathML elements only: `<iframe … />` or `<script/>`
            // stays open, and its content runs as raw text to its end tag (the tokenizer does
            // this itself, since recognizeSelfClosing is off). XML honours it on any element.
            if (!this.xml && !openedForeign(this)) {
                this.onopentagend(endIndex);
                return;
            }
            this.closeCurrentTag(false);
            this.startIndex = endIndex + 1;
        },
    },
    closeCurrentTag: {
        value: function closeCurrentTag(isOpenImplied) {
            const name = this.tagname;
            this.endOpenTag(isOpenImplied);
            const open = this.foreignOpen;
            // `<svg><template/>`: an SVG element closes, no HTML one.
            if (open.length > 0 && open[open.length - 1]?.name === name)
                this.closingForeign = popForeign(this).foreign;
            if (!this.isVoidElement(name))
                this.cbs.onclosetag?.(name, !isOpenImplied);
            this.closingForeign = false;
        },
    },
});
/** Whether the start tag just read opened an SVG or MathML element (the `<svg>` or `<math>` itself, or an element in foreign content). */
function openedForeign(state) {
    const open = state.foreignOpen;
    return open[open.length - 1]?.name === state.tagname && currentNodeForeign(state);
}
/**
 * Whether the innermost open element is an SVG or MathML one: an `<svg>` or `<math>`,
 * wherever it is (one inside a `<foreignObject>` or `<mi>` too), or one opened in foreign
 * content (an integration point such as `<foreignObject>` too, though its content is
 * HTML; not an HTML element inside it).
 */
function currentNodeForeign(state) {
    const open = state.foreignOpen;
    const current = open[open.length - 1];
    if (current === undefined)
        return false;
    if (current.name === 'svg' || current.name === 'math')
        return true;
    const parent = open[open.length - 2];
    return parent === undefined || parent.foreign;
}
function pushForeign(state, element) {
    state.foreignOpen.push(element);
    state.foreignNames.set(element.name, (state.foreignNames.get(element.name) ?? 0) + 1);
}
function popForeign(state) {
    const element = state.foreignOpen.pop();
    state.foreignNames.set(element.name, state.foreignNames.get(element.name) - 1);
    return element;
}
function foreignNow(state) {
    const open = state.foreignOpen;
    return open.length > 0 && open[open.length - 1].foreign;
}
/**
 * An end tag met since an `<svg>` or `<math>` opened: it closes the element of its name
 * open in there and every element inside that one, each reported closed (a `<style>` or
 * `<script>` among them ends there). `</p>` and `</br>` leave foreign content, as browsers
 * read them. Any other end tag is taken as stray and ignored, as browsers do when nothing
 * of that name is open; one that closes an element around the `<svg>` (which the scan does
 * not follow) therefore leaves it open, where a later `<style>` or `<script>` is read as
 * markup: the text is still read, where the opposite mistake would take the rest of the
 * page for a style sheet.
 */
function closeForeign(state, name) {
    const open = state.foreignOpen;
    // A name none of them has is known without walking the stack (one stray end tag each).
    let keep = state.foreignNames.get(name) ? open.length - 1 : -1;
    while (keep >= 0 && open[keep]?.name !== name)
        keep -= 1;
    if (keep >= 0) {
        popForeignTo(state, keep);
    }
    else if (name === 'p' || name === 'br') {
        leaveForeign(state);
    }
    else if (state.cbs.closesAroundForeign?.(name)) {
        // `<template><svg></template>`: the end tag closes the SVG, then its own element.
        popForeignTo(state, 0);
        state.cbs.onclosetag?.(name, false);
    }
}
/** Closes the foreign elements open down to the innermost HTML one or integration point. */
function leaveForeign(state) {
    const open = state.foreignOpen;
    let keep = open.length;
    while (keep > 0 && open[keep - 1]?.foreign)
        keep -= 1;
    popForeignTo(state, keep);
}
function popForeignTo(state, keep) {
    while (state.foreignOpen.length > keep) {
        const element = popForeign(state);
        state.closingForeign = element.foreign;
        state.cbs.onclosetag?.(element.name, false);
        state.closingForeign = false;
    }
}
/**
 * The HTML start tags that end foreign content wherever they are in an `<svg>` or `<math>`
 * (the HTML standard's list, but `<font>`, which does only with some attributes).
 */
const BREAKOUT = new Set([
    ...['b', 'big', 'blockquote', 'body', 'br', 'center', 'code', 'dd', 'div', 'dl', 'dt'],
    ...['em', 'embed', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'hr', 'i', 'img', 'li'],
    ...['listing', 'menu', 'meta', 'nobr', 'ol', 'p', 'pre', 'ruby', 's', 'small', 'span'],
    ...['strong', 'strike', 'sub', 'sup', 'table', 'tt', 'u', 'ul', 'var'],
]);
const COMMA = 44;
/**
 * The URLs of a `srcset`, split as the HTML spec's srcset parser splits them: a URL runs
 * to the next whitespace (commas inside it are its own: `…/w_300,c_scale/a.jpg`,
 * `data:image/gif;base64,…`), its trailing commas end the candidate, and otherwise the
 * descriptors run to a comma outside parentheses.
 */
function srcsetUrls(value) {
    const urls = [];
    let at = 0;
    while (at < value.length) {
        while (at < value.length && ((0,_html_whitespace_js__WEBPACK_IMPORTED_MODULE_9__/* .isHtmlWhitespace */ .f)(value.charCodeAt(at)) || value[at] === ','))
            at += 1;
        const start = at;
        while (at < value.length && !(0,_html_whitespace_js__WEBPACK_IMPORTED_MODULE_9__/* .isHtmlWhitespace */ .f)(value.charCodeAt(at)))
            at += 1;
        if (at === start)
            break;
        // Its trailing commas cut by a loop: `/,+$/` would retry from every comma of a long run.
        let end = at;
        while (end > start && value.charCodeAt(end - 1) === COMMA)
            end -= 1;
        const url = value.slice(start, end);
        if (end === at) {
            for (let depth = 0; at < value.length; at += 1) {
                const c = value[at];
                if (c === '(')
                    depth = 1;
                else if (c === ')')
                    depth = 0;
                else if (c === ',' && depth === 0)
                    break;
            }
        }
        if (url !== '')
            urls.push(url);
    }
    return urls;
}
/**
 * The URL of `<meta http-equiv="refresh" content="5; url=...">`. A quoted URL runs to its
 * closing quote, or to the end when there is none, as browsers read it.
 */
function refreshUrl(content) {
    if (!/[^\d\s.;,]/.test(content))
        return undefined;
    // ASCII whitespace only, as the HTML standard skips: a no-break space is the URL's own.
    const lead = /^[\t\n\f\r ]*\d*(?:\.[\d.]*)?[\t\n\f\r ]*[;,]?[\t\n\f\r ]*(?:url[\t\n\f\r ]*=[\t\n\f\r ]*)?/i.exec(content)?.[0] ?? '';
    let url = content.slice(lead.length);
    const quote = url[0];
    if (quote === "'" || quote === '"') {
        const end = url.indexOf(quote, 1);
        url = url.slice(1, end < 0 ? undefined : end);
    }
    url = (0,_html_whitespace_js__WEBPACK_IMPORTED_MODULE_9__/* .withoutHtmlWhitespace */ .F)(url);
    return url === '' ? undefined : url;
}
/** The `<link rel>` values fetched as the parser meets them (a lone icon or manifest is not). */
const PARSER_FETCHED_RELS = /(?:^|\s)(?:stylesheet|preload|modulepreload|prefetch)(?:\s|$)/i;
/** Whether `name` of `<tag>` is fetched as the parser meets it (see `HtmlReference.parsed`). */
function fetchedWhenParsed(tag, name, attributes) {
    if (name === 'src')
        return tag === 'script' || tag === 'iframe';
    // An SVG <script>'s.
    if (tag === 'script')
        return name === 'href' || name === 'xlink:href';
    // A disabled stylesheet is fetched once a script enables it.
    return (tag === 'link' &&
        name === 'href' &&
        attributes.disabled === undefined &&
        PARSER_FETCHED_RELS.test(attributes.rel ?? ''));
}
/**
 * How deep `<iframe srcdoc>` documents are read inside one another. Each one is parsed
 * again from its attribute, where the one inside it is escaped once more: without a bound,
 * 1,000 levels (a 4 MB page, a 9 KB archive) took 1.4 GB and overflowed the call stack.
 * Real pages nest one or two.
 */
const MAX_FRAME_DEPTH = 8;
/**
 * Reads a page as it streams in, with a real HTML parser, and reports every reference
 * with what the browser does with it: URL attributes by element and `rel`, srcset, meta
 * refresh, inline styles, `<style>`, inline scripts (evidence-based), importmaps and
 * Next.js flight data. JSON-LD is metadata and not read further.
 */
class HtmlScanner {
    /**
     * `<base href>`, which relative references resolve against: the page's first, once read,
     * or set before reading when an earlier reading found it.
     */
    base;
    /** This reading has met the page's first `<base href>` (the one `base` holds). */
    baseReached = false;
    #callbacks;
    #parser;
    #raw;
    /** A `<form>` is open: browsers ignore another `<form>` start tag until its `</form>`. */
    #inForm = false;
    /**
     * `<template>` elements open, and a `<noscript>`: a `<base>` in one is not the page's (a
     * template's content is a document of its own; with scripts on, a noscript's is text,
     * where a `<template>` is none).
     */
    #templates = 0;
    #inNoscript = false;
    /** Flight data of the page, in order, and where each piece came from. */
    #flight = [];
    #flightStarts = [];
    #flightLength = 0;
    /** How many `<iframe srcdoc>` documents this one is inside. */
    #depth;
    /** Read as XML: the general entities its DOCTYPE declares, and the characters they may still add. */
    #xml;
    /** In an XML `<![CDATA[` section: text whose `&` is itself. */
    #inCdata = false;
    /** A start tag has been read: the document's prolog, where `<?xml-stylesheet?>` counts, is over. */
    #pastProlog = false;
    /**
     * `depth`: how many frame documents this one is inside. `xml`: the document is XML (an
     * `.xhtml` or `.svg` file, served as such), which a browser parses by XML's rules: `/>`
     * closes any element (`<script src="a.js"/>` holds none of what follows), a `<script>` or
     * `<style>` holds markup (entities, comments, CDATA sections), and the entities the
     * DOCTYPE declares stand for their text.
     */
    constructor(callbacks, { depth = 0, xml = false } = {}) {
        this.#callbacks = callbacks;
        this.#depth = depth;
        this.#xml = xml
            ? { entities: new Map(), budget: 0, allowance: MAX_ENTITY_EXPANSION }
            : undefined;
        const handler = {
            onopentag: (name, attributes) => this.#open(name, attributes),
            ontext: (text) => {
                if (!this.#raw)
                    return;
                if (this.#raw.parts.length === 0)
                    this.#raw.start = this.#parser.startIndex;
                // A CDATA section's text is not decoded: its `&` are kept through the decoding.
                this.#raw.parts.push(this.#inCdata ? text.replaceAll('&', '&amp;') : text);
            },
            oncdatastart: () => {
                this.#inCdata = true;
            },
            oncdataend: () => {
                this.#inCdata = false;
            },
            onprocessinginstruction: (name, data) => {
                if (this.#xml === undefined)
                    return;
                if (name.toLowerCase() === '?xml-stylesheet')
                    this.#readStylesheetInstruction(data);
                else if (data.includes('ENTITY'))
                    this.#declare(data);
            },
            // Outside SVG and MathML, only the end tags in END_TAGS_READ get here.
            onclosetag: (name) => {
                if (this.#raw && name === this.#raw.tag)
                    this.#closeRaw();
                // `<svg><template></template></svg>`: no HTML template was opened, none closes.
                if (this.#parser.closingForeign)
                    return;
                if (name === 'form')
                    this.#inForm = false;
                else if (name === 'noscript')
                    this.#inNoscript = false;
                else if (name === 'template' && this.#templates > 0 && !this.#inNoscript)
                    this.#templates -= 1;
            },
            closesAroundForeign: (name) => (name === 'template' && this.#templates > 0) || (name === 'noscript' && this.#inNoscript),
        };
        this.#parser = new ScanningParser(handler, {
            decodeEntities: false,
            lowerCaseAttributeNames: true,
            xmlMode: xml,
            Tokenizer: SearchingTokenizer,
        });
    }
    write(chunk) {
        const xml = this.#xml;
        if (xml !== undefined) {
            // What the entities may add grows with the document: linear in every page's size,
            // however many documents (frames, files) a site holds.
            const grant = Math.min(ENTITY_EXPANSION_PER_CHARACTER * chunk.length, xml.allowance);
            xml.budget += grant;
            xml.allowance -= grant;
        }
        this.#parser.write(chunk);
    }
    end() {
        this.#parser.end();
        // A script or style the page never closes runs to its end.
        if (this.#raw)
            this.#closeRaw();
        if (this.#flight.length === 0)
            return;
        const starts = this.#flightStarts;
        for (const reference of (0,_flight_js__WEBPACK_IMPORTED_MODULE_3__/* .referencesInFlight */ .I)(this.#flight.join(''))) {
            // The row's offset in the joined flight text → the script that pushed it.
            let low = 0;
            for (let high = starts.length - 1; low < high;) {
                const mid = (low + high + 1) >> 1;
                if (starts[mid].at <= reference.offset)
                    low = mid;
                else
                    high = mid - 1;
            }
            this.#callbacks.reference({ ...reference, offset: starts[low]?.offset ?? 0 });
        }
    }
    #emit(reference) {
        this.#callbacks.reference(reference);
    }
    #open(tag, attributes) {
        this.#pastProlog = true;
        if (tag === 'form' && !this.#parser.isInForeignContext()) {
            if (this.#inForm)
                return;
            this.#inForm = true;
        }
        const offset = this.#parser.startIndex;
        for (const name in attributes) {
            // Entities are decoded here, in the few values read, rather than in all the text.
            const raw = attributes[name];
            const value = raw.includes('&') ? this.#decodeAttribute(raw) : raw;
            if (URL_ATTRIBUTES.has(name)) {
                const role = (0,_references_js__WEBPACK_IMPORTED_MODULE_6__/* .roleOfAttribute */ .K4)(tag, name, attributes);
                const url = role ? (0,_html_whitespace_js__WEBPACK_IMPORTED_MODULE_9__/* .withoutHtmlWhitespace */ .F)(value) : '';
                if (role?.role === 'load' && (0,_data_urls_js__WEBPACK_IMPORTED_MODULE_2__/* .isDataUrl */ .ax)(url))
                    this.#readDataUrl(tag, url, offset, role.via);
                else if (role?.role === 'load' && (tag === 'iframe' || tag === 'frame'))
                    this.#readJavascriptUrl(url, offset, role.via);
                if (role && url !== '')
                    this.#emit({
                        url,
                        offset,
                        role: role.role,
                        via: role.via,
                        attribute: true,
                        ...(fetchedWhenParsed(tag, name, attributes) && this.#fetchedNow()
                            ? { parsed: true }
                            : {}),
                    });
            }
            else if (SRCSET_ATTRIBUTES.has(name)) {
                const role = (0,_references_js__WEBPACK_IMPORTED_MODULE_6__/* .roleOfAttribute */ .K4)(tag, name, attributes);
                for (const url of srcsetUrls(value))
                    if (role)
                        this.#emit({ url, offset, role: role.role, via: role.via, attribute: true });
            }
            else if (name === 'style') {
                for (const css of (0,_css_js__WEBPACK_IMPORTED_MODULE_1__/* .urlsInCss */ .R)(value))
                    this.#emit({
                        url: css.url,
                        offset,
                        role: 'load',
                        via: 'inline style',
                        ...(this.#fetchedNow() ? { parsed: true } : {}),
                    });
            }
            else if (isEventHandler(name)) {
                this.#readScript(value, () => offset, name);
            }
            else if (name === 'srcdoc' && tag === 'iframe') {
                if (this.#depth < MAX_FRAME_DEPTH)
                    this.#readFrame(value, offset);
                else
                    this.#callbacks.unreadFrame?.(offset);
            }
        }
        if (tag === 'template' || tag === 'noscript' || tag === 'base')
            this.#openInert(tag, attributes);
        if (tag === 'meta' && attributes['http-equiv']?.toLowerCase() === 'refresh') {
            const url = refreshUrl(this.#decodeAttribute(attributes.content ?? ''));
            if (url)
                this.#emit({ url, offset, role: 'load', via: '<meta http-equiv=refresh>' });
        }
        if (tag === 'style' || (tag === 'script' && attributes.src === undefined))
            this.#raw = {
                tag,
                type: tag === 'script' ? (attributes.type ?? '').trim().toLowerCase() : '',
                start: offset,
                parts: [],
                // Inside <svg> or <math>, or in XML, its text is markup: entities mean their characters.
                decode: this.#xml !== undefined || this.#parser.isInForeignContext(),
            };
        this.#parser.textWanted = this.#raw !== undefined;
    }
    /**
     * `<?xml-stylesheet href="…"?>` in an XML document's prolog: a stylesheet (CSS, or XSLT
     * where a browser still applies it), fetched as the document loads, alternate ones too.
     */
    #readStylesheetInstruction(data) {
        if (this.#pastProlog)
            return;
        const href = PSEUDO_ATTRIBUTE_HREF.exec(data);
        const url = (0,_html_whitespace_js__WEBPACK_IMPORTED_MODULE_9__/* .withoutHtmlWhitespace */ .F)(this.#decodeAttribute(href?.[1] ?? href?.[2] ?? ''));
        if (url !== '')
            this.#emit({
                url,
                offset: this.#parser.startIndex,
                role: 'load',
                via: '<?xml-stylesheet href>',
            });
    }
    /** An attribute's value with its entities decoded: the DOCTYPE's own too, in XML. */
    #decodeAttribute(raw) {
        return (0,entities__WEBPACK_IMPORTED_MODULE_10__/* .decodeHTMLAttribute */ .Im)(this.#expandEntities(raw));
    }
    /**
     * `text` with the references to the entities an XML document's DOCTYPE declares replaced
     * by their text, up to ENTITY_EXPANSION_PER_CHARACTER characters for each of the
     * document's and MAX_ENTITY_EXPANSION in all (past it, as written: a browser stops such
     * a document, and the scan stays linear in the page's size).
     */
    #expandEntities(text) {
        const xml = this.#xml;
        if (xml === undefined || xml.entities.size === 0)
            return text;
        return text.replace(ENTITY_REFERENCE, (reference, name) => {
            const value = xml.entities.get(name);
            if (value === undefined || value.length > xml.budget)
                return reference;
            xml.budget -= value.length;
            return value;
        });
    }
    /**
     * Takes the general entity an XML declaration defines (`<!ENTITY cdn "https://…">`, the
     * first of a name binding it), its character references and the entities declared
     * before it expanded. One whose value holds a `>`, where the tokenizer ends the
     * declaration, is not read; nor is an external one, which browsers do not fetch.
     */
    #declare(declaration) {
        const xml = this.#xml;
        const match = ENTITY_DECLARATION.exec(declaration);
        const name = match?.[1];
        if (match === null || name === undefined || xml.entities.has(name))
            return;
        const value = (0,entities__WEBPACK_IMPORTED_MODULE_10__/* .decodeHTML */ .Gz)(this.#expandEntities(match[2] ?? match[3] ?? ''));
        if (value.length <= xml.budget)
            xml.entities.set(name, value);
    }
    /** Follows `<template>` and `<noscript>`, and takes the first `<base href>` of the page's own tree. */
    #openInert(tag, attributes) {
        // In an SVG or MathML element these are no HTML elements.
        if (this.#inNoscript || this.#parser.isInForeignContext())
            return;
        if (tag === 'template')
            this.#templates += 1;
        else if (tag === 'noscript')
            this.#inNoscript = true;
        else if (attributes.href !== undefined && !this.baseReached && this.#templates === 0) {
            this.baseReached = true;
            this.base ??= this.#decodeAttribute(attributes.href);
        }
    }
    #closeRaw() {
        const raw = this.#raw;
        this.#raw = undefined;
        this.#parser.textWanted = false;
        if (!raw)
            return;
        const joined = raw.parts.join('');
        const content = raw.decode && joined.includes('&') ? (0,entities__WEBPACK_IMPORTED_MODULE_10__/* .decodeHTML */ .Gz)(this.#expandEntities(joined)) : joined;
        if (raw.tag === 'style') {
            for (const css of (0,_css_js__WEBPACK_IMPORTED_MODULE_1__/* .urlsInCss */ .R)(content))
                this.#emit({
                    url: css.url,
                    offset: raw.start + css.offset,
                    role: 'load',
                    via: css.via,
                    ...(this.#fetchedNow() ? { parsed: true } : {}),
                });
            return;
        }
        if (raw.type === 'importmap') {
            for (const url of (0,_json_formats_js__WEBPACK_IMPORTED_MODULE_5__/* .urlsInImportMap */ .jD)(content))
                this.#emit({ url, offset: raw.start, role: 'load', via: '<script type=importmap>' });
            return;
        }
        if (!CLASSIC_OR_MODULE.test(raw.type))
            return; // JSON-LD, templates, speculation rules
        // A script that does more than push flight data is read as a script too.
        if (content.includes('__next_f') && this.#readFlightPush(content, raw.start))
            return;
        this.#readScript(content, (at) => raw.start + at, 'inline script');
    }
    /**
     * Whether what the parser meets now is fetched now: not in a `<template>` or a
     * `<noscript>`, nor in one taken for an SVG element's (the SVG may have been closed by
     * markup this parser does not follow: `<div><svg></div><template>`).
     */
    #fetchedNow() {
        return this.#templates === 0 && !this.#inNoscript && !this.#parser.holdsInertName();
    }
    /** A document of its own, inside the attribute: the frame loads what it references. */
    #readFrame(value, offset) {
        const found = [];
        const inner = new _a({
            reference: (reference) => found.push({ reference, beforeItsBase: !inner.baseReached }),
            unconfirmed: (url) => this.#callbacks.unconfirmed?.({ ...url, offset }),
            unreadFrame: () => this.#callbacks.unreadFrame?.(offset),
        }, { depth: this.#depth + 1 });
        inner.write(value);
        inner.end();
        // The frame's document starts from the page's base as it is when the frame is made:
        // the page's own address when the frame comes before the page's <base href>. What its
        // parser fetches before a base of its own keeps that; the rest goes under that base.
        const madeBeforeBase = !this.baseReached && this.#fetchedNow();
        const atCreation = (reference) => madeBeforeBase ? { ...reference, parsed: true } : reference;
        const itsBase = inner.baseReached ? inner.base : undefined;
        for (const { reference: whole, beforeItsBase } of found) {
            const { parsed, ...reference } = whole;
            const framed = { ...reference, offset, via: `<iframe srcdoc> ${reference.via}` };
            const underItsBase = itsBase === undefined || (parsed && beforeItsBase)
                ? undefined
                : (0,_references_js__WEBPACK_IMPORTED_MODULE_6__/* .againstBase */ .pG)(framed, itsBase);
            if (underItsBase === undefined) {
                this.#emit(atCreation(framed));
                continue;
            }
            if (beforeItsBase && framed.role === 'load') {
                // An image or a poster before the frame's base is fetched at once from where the
                // frame started, and may be again under its base: both, for the host check only.
                const { attribute: _, ...loaded } = framed;
                this.#emit(atCreation(loaded));
            }
            if ((0,_references_js__WEBPACK_IMPORTED_MODULE_6__/* .baseNamesHost */ .YQ)(itsBase))
                this.#emit({ ...underItsBase, parsed: true });
            else
                this.#emit(atCreation(underItsBase));
        }
    }
    /**
     * What a frame, an `<object>` or `<embed>`, a stylesheet or a script loaded from a
     * `data:` URL loads in turn. A document of its own has no address to resolve a path
     * against: only its URLs with a host are read.
     */
    #readDataUrl(tag, url, offset, via) {
        const payload = (0,_data_urls_js__WEBPACK_IMPORTED_MODULE_2__/* .dataUrlPayload */ .QZ)(url);
        if (payload === undefined)
            return;
        const inside = `${via} (data:)`;
        if (tag === 'script') {
            if (!_data_urls_js__WEBPACK_IMPORTED_MODULE_2__/* .NOT_SCRIPT_TYPES */ .c6.test(payload.type))
                this.#readScript(payload.text, () => offset, inside);
            return;
        }
        if (tag === 'link') {
            if (payload.type !== 'text/css')
                return;
            for (const css of (0,_css_js__WEBPACK_IMPORTED_MODULE_1__/* .urlsInCss */ .R)(payload.text))
                this.#emit({ url: css.url, offset, role: 'load', via: `${inside} ${css.via}` });
            return;
        }
        if (!FRAMING_TAGS.has(tag) || !_data_urls_js__WEBPACK_IMPORTED_MODULE_2__/* .DOCUMENT_TYPES */ .g2.has(payload.type))
            return;
        this.#readUrlDocument(payload.text, offset, inside, payload.type !== 'text/html');
    }
    /**
     * What a frame navigated to a `javascript:` URL loads: its code runs (`fetch("…")`), and
     * a string it comes to (`javascript:'<img src=…>'`, pieces joined with `+` too) is the
     * frame's document. `<object>` and `<embed>` run none.
     */
    #readJavascriptUrl(url, offset, via) {
        const code = (0,_data_urls_js__WEBPACK_IMPORTED_MODULE_2__/* .javascriptUrlCode */ .sk)(url);
        if (code === undefined)
            return;
        const inside = `${via} (javascript:)`;
        this.#readScript(code, () => offset, inside);
        const document = stringValue(code);
        if (document !== undefined)
            this.#readUrlDocument(document, offset, inside);
    }
    /**
     * A document a URL holds in itself (`data:`, `javascript:`), which has no address of its
     * own to resolve a path against: only its URLs with a host are read.
     */
    #readUrlDocument(text, offset, inside, xml = false) {
        if (this.#depth >= MAX_FRAME_DEPTH) {
            this.#callbacks.unreadFrame?.(offset);
            return;
        }
        const inner = new _a({
            reference: ({ url: found, role, via: innerVia }) => {
                if (HAS_HOST.test(found))
                    this.#emit({ url: found, offset, role, via: `${inside} ${innerVia}` });
            },
            unconfirmed: (script) => this.#callbacks.unconfirmed?.({ ...script, offset }),
            unreadFrame: () => this.#callbacks.unreadFrame?.(offset),
        }, { depth: this.#depth + 1, xml });
        inner.write(text);
        inner.end();
    }
    /**
     * The URLs in a script's code (`offsetOf` places each in the page): loads when the code
     * loads them, the others unconfirmed.
     */
    #readScript(code, offsetOf, via) {
        for (const script of (0,_js_js__WEBPACK_IMPORTED_MODULE_4__/* .urlsInScript */ .z)(code)) {
            const offset = offsetOf(script.offset);
            if (script.evidence)
                this.#emit({ url: script.url, offset, role: 'load', via: `${via}: ${script.evidence}` });
            else
                this.#callbacks.unconfirmed?.({ url: script.url, offset });
        }
    }
    /**
     * `self.__next_f.push([1, "…"])`: the string is a piece of the page's flight data.
     * Whether the script does nothing else: no name but those of the push forms Next.js
     * writes (`(self.__next_f=self.__next_f||[]).push([0])`), so no call that requests.
     */
    #readFlightPush(content, start) {
        let onlyPushes = true;
        try {
            for (const token of (0,acorn__WEBPACK_IMPORTED_MODULE_0__/* .tokenizer */ .OH)(content, { ecmaVersion: 'latest' })) {
                const value = token.value;
                if (token.type !== acorn__WEBPACK_IMPORTED_MODULE_0__/* .tokTypes */ .Y_.string) {
                    if (!FLIGHT_PUSH_TOKENS.has(token.type.label))
                        onlyPushes = false;
                    else if (token.type === acorn__WEBPACK_IMPORTED_MODULE_0__/* .tokTypes */ .Y_.name && !FLIGHT_PUSH_NAMES.has(value))
                        onlyPushes = false;
                    continue;
                }
                if (typeof value !== 'string')
                    continue;
                this.#flightStarts.push({ at: this.#flightLength, offset: start + token.start });
                this.#flight.push(value);
                this.#flightLength += value.length;
            }
        }
        catch {
            // Not the push form we know: read as any script.
            return false;
        }
        return onlyPushes;
    }
}
_a = HtmlScanner;
/**
 * The string a script's code comes to when it is only string literals, joined with `+`
 * (`'<p>' + "<img …>"`), or undefined: what a frame shows of a `javascript:` URL.
 */
function stringValue(code) {
    const pieces = [];
    try {
        for (const token of (0,acorn__WEBPACK_IMPORTED_MODULE_0__/* .tokenizer */ .OH)(code, { ecmaVersion: 'latest' })) {
            const { label } = token.type;
            const value = token.value;
            if (token.type === acorn__WEBPACK_IMPORTED_MODULE_0__/* .tokTypes */ .Y_.string || token.type === acorn__WEBPACK_IMPORTED_MODULE_0__/* .tokTypes */ .Y_.template) {
                if (typeof value !== 'string')
                    return undefined;
                pieces.push(value);
            }
            else if (label === '+/-' ? value !== '+' : !STRING_JOINING.has(label))
                return undefined;
        }
    }
    catch {
        return undefined;
    }
    return pieces.length > 0 ? pieces.join('') : undefined;
}
/** The tokens (acorn's labels) around and between the strings: `+` is a `+/-` one. */
const STRING_JOINING = new Set(['(', ')', ';', '`']);
/** Elements that show a document from their URL: a `data:` one is read as such. */
const FRAMING_TAGS = new Set(['iframe', 'frame', 'object', 'embed']);
/** A URL with a scheme or a `//` host: what a document at a `data:` URL can load. */
const HAS_HOST = /^[\t\n\f\r ]*(?:[a-z][a-z0-9+.-]*:|[/\\]{2})/i;
/**
 * Characters the entities an XML document declares may add to it, in all: a billion
 * laughs (`&a;` ten times in `&b;`, and so on) stops there, as a browser stops it.
 */
const MAX_ENTITY_EXPANSION = 4 * 1024 * 1024;
/**
 * Characters the entities may add for each character of the document: a frame at a
 * `data:` URL, or an icon, is a document of its own, and a page of thousands of small
 * ones must not get thousands of full allowances.
 */
const ENTITY_EXPANSION_PER_CHARACTER = 16;
/** The `href` pseudo-attribute of an `<?xml-stylesheet?>` instruction, in either quotes. */
const PSEUDO_ATTRIBUTE_HREF = /[\t\n\r ]href[\t\n\r ]*=[\t\n\r ]*(?:"([^"]*)"|'([^']*)')/;
/** `&name;`, a reference to a general entity (not `&#…;`, a character's). */
const ENTITY_REFERENCE = /&([^\s&;#<>"']+);/g;
/** `<!ENTITY name "value">` or `'value'`, as the tokenizer reports it: up to its first `>`, after the DOCTYPE's start for the first. */
const ENTITY_DECLARATION = /!ENTITY[\t\n\r ]+([^\s%"'>]+)[\t\n\r ]+(?:"([^"]*)"|'([^']*)')[\t\n\r ]*$/;
/** The tokens (acorn's labels) and names of the scripts that push Next.js flight data. */
const FLIGHT_PUSH_TOKENS = new Set([
    'name',
    'num',
    'null',
    '(',
    ')',
    '[',
    ']',
    '.',
    ',',
    ';',
    '=',
    '||',
]);
const FLIGHT_PUSH_NAMES = new Set(['self', '__next_f', 'push']);
/** Every reference of a whole page (tests and small inputs). */
function referencesInHtml(source) {
    const found = [];
    const scanner = new HtmlScanner({ reference: (r) => found.push(r) });
    scanner.write(source);
    scanner.end();
    return found;
}


/***/ }),

/***/ 4100:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  z: () => (/* binding */ urlsInScript)
});

// EXTERNAL MODULE: ./node_modules/acorn/dist/acorn.mjs
var acorn = __webpack_require__(4559);
// EXTERNAL MODULE: ./.build/html-whitespace.js
var html_whitespace = __webpack_require__(143);
// EXTERNAL MODULE: ./.build/airgap/css.js
var css = __webpack_require__(2496);
// EXTERNAL MODULE: ./.build/airgap/references.js
var references = __webpack_require__(8809);
;// CONCATENATED MODULE: ./.build/airgap/sdk-hosts.js

/**
 * Hosts (and, where the same host also serves pages people link to, paths) of analytics,
 * chat, search, font, embed and CDN services: a URL string naming one of them in a script
 * is loaded by that script (their snippets build the final URL at run time, so no call
 * site holds the literal). `host` matches itself or a subdomain; `host/path` also needs
 * the URL's path to start with `/path`. A whole domain is listed only when it serves
 * nothing a reader is linked to: `youtube.com/@acme` and `docs.sentry.io` are links.
 */
const SDK_HOSTS = [
    // Analytics and tag managers
    'googletagmanager.com',
    'google-analytics.com',
    'analytics.google.com',
    'doubleclick.net',
    'cdn.segment.com',
    'segment.io',
    'i.posthog.com',
    'app.posthog.com',
    'eu.posthog.com',
    'api-js.mixpanel.com',
    'api.mixpanel.com',
    'api-eu.mixpanel.com',
    'mxpnl.com',
    'cdn.amplitude.com',
    'api.amplitude.com',
    'api2.amplitude.com',
    'api.eu.amplitude.com',
    'heap-api.com',
    'heapanalytics.com',
    'edge.fullstory.com',
    'rs.fullstory.com',
    'static.hotjar.com',
    'script.hotjar.com',
    'vars.hotjar.com',
    'hotjar.io',
    'plausible.io/js/',
    'plausible.io/api/',
    'cdn.usefathom.com',
    'clarity.ms',
    'cloudflareinsights.com',
    'ingest.sentry.io',
    'ingest.us.sentry.io',
    'ingest.de.sentry.io',
    'sentry-cdn.com',
    'hs-scripts.com',
    'hs-analytics.net',
    'hsforms.net',
    'koala.live',
    'june.so',
    // Chat and support widgets
    'intercom.io',
    'intercomcdn.com',
    'client.crisp.chat',
    'zdassets.com',
    'zopim.com',
    'driftt.com',
    'frontapp.com',
    'widget.kapa.ai',
    'proxy.kapa.ai',
    'api.inkeep.com',
    // Search
    'algolia.net',
    'algolianet.com',
    'algolia.io',
    'typesense.net',
    // Fonts and CDNs
    'fonts.googleapis.com',
    'fonts.gstatic.com',
    'use.typekit.net',
    'cdn.jsdelivr.net',
    'unpkg.com',
    'esm.sh',
    'cdnjs.cloudflare.com',
    'cdn.skypack.dev',
    'ga.jspm.io',
    // Embeds: YouTube's player, not its channel and video pages
    'youtube.com/embed/',
    'youtube.com/iframe_api',
    'youtube.com/player_api',
    'youtube.com/s/',
    'youtube-nocookie.com',
    'ytimg.com',
    'player.vimeo.com',
    'js.stripe.com',
];
const KNOWN = SDK_HOSTS.map((entry) => {
    const slash = entry.indexOf('/');
    return slash < 0
        ? { host: entry, path: undefined }
        : { host: entry.slice(0, slash), path: entry.slice(slash) };
});
/** The path of `url` (`https://host/…`, `//host/…` or `\\host/…`, read as a browser reads it). */
function pathOf(url) {
    try {
        return new URL(url, references/* SITE_ORIGIN */.t_).pathname;
    }
    catch {
        return '';
    }
}
/** Whether `url`, whose host is `host`, is one an SDK on the list requests. */
function isSdkUrl(url, host) {
    const bare = host.replace(/:\d+$/, '').replace(/\.$/, '');
    let path;
    return KNOWN.some((known) => {
        if (bare !== known.host && !bare.endsWith(`.${known.host}`))
            return false;
        if (known.path === undefined)
            return true;
        path ??= pathOf(url);
        return path.startsWith(known.path);
    });
}

;// CONCATENATED MODULE: ./.build/airgap/js.js





/** Calls whose first argument is requested: `fetch("…")`, `new WebSocket("…")`, `import("…")`. */
const REQUESTING_CALLS = new Set([
    'fetch',
    'importScripts',
    'sendBeacon',
    'WebSocket',
    'EventSource',
    'Worker',
    'SharedWorker',
    'register',
    'loadScript',
    'getScript',
    'import',
    'Request',
    // `new Audio("…")` fetches its source at once (preload is `auto`), played or not.
    'Audio',
]);
/** Style properties a script sets to CSS that loads what its `url()` names. */
const LOADING_STYLE_PROPERTIES = new Set([
    'background',
    'backgroundImage',
    'borderImage',
    'borderImageSource',
    'content',
    'cssText',
    'cursor',
    'listStyle',
    'listStyleImage',
    'mask',
    'maskImage',
]);
/**
 * `rel` values (and the element name) that make an `href` a load: `l.rel = "stylesheet";
 * l.href = "…"`, `{ rel: "preconnect", href: "…" }` in a head config.
 */
const LOADING_LINK_HINTS = new Set([
    'link',
    'stylesheet',
    'preconnect',
    'preload',
    'modulepreload',
    'prefetch',
    'dns-prefetch',
    'icon',
    'manifest',
]);
/** Keys beside `url` that make an object a link (`{ label: "YouTube", url: "…" }`). */
const LINK_LABEL_KEYS = new Set(['label', 'title', 'text', 'children', 'name', 'icon']);
/** Tokens after a link's URL in which a loading `rel` or a label key still counts. */
const LINK_LOOKAHEAD = 8;
/**
 * `https://host`, `//host`, and the backslashes browsers read as slashes (`'\\\\host/…'`),
 * after the controls and spaces the URL parser drops (not a no-break space: a path).
 */
const LOOKS_LIKE_URL = /^[\0-\x20]*(?:[a-z][a-z0-9+.-]*:)?[/\\]{2}[^/\\\s]/i;
function seen(token) {
    const value = token.value;
    return { label: token.type.label, value: typeof value === 'string' ? value : '' };
}
/** Why the string after these tokens is requested, or undefined (newest token last). */
function evidenceFrom(before) {
    const at = (back) => before[before.length - back];
    const one = at(1);
    const two = at(2);
    if (!one)
        return undefined;
    if (one.label === '(' && two && (two.label === 'name' || two.label === 'import')) {
        const callee = two.label === 'import' ? 'import' : two.value;
        if (REQUESTING_CALLS.has(callee))
            return `${callee}()`;
    }
    // xhr.open("GET", "…") and el.setAttribute("src", "…")
    if (one.label === ',' && two?.label === 'string' && at(3)?.label === '(') {
        const callee = at(4)?.value;
        if (callee === 'open')
            return 'XMLHttpRequest.open()';
        if (callee === 'setAttribute' && two.value === 'src')
            return 'setAttribute("src")';
    }
    if (one.label === '=' && two?.value === 'src' && at(3)?.label === '.')
        return '.src =';
    if (one.label === ':' && two?.value === 'src' && (two.label === 'name' || two.label === 'string'))
        return '{ src: … }';
    if ((one.label === 'name' && one.value === 'from') || one.label === 'import')
        return 'import';
    return undefined;
}
/**
 * How the string after these tokens is used as a link's address, or undefined: `href`
 * (`{ href: "…" }`, `{ link: "…" }`, `a.href = "…"`, `setAttribute("href", "…")`) or
 * `url` (`{ url: "…" }`, a link only beside a label).
 */
function linkContextFrom(before) {
    const at = (back) => before[before.length - back];
    const [one, two, three] = [at(1), at(2), at(3)];
    if (one?.label === ':' && (two?.label === 'name' || two?.label === 'string')) {
        if (two.value === 'href' || two.value === 'link')
            return 'href';
        if (two.value === 'url')
            return 'url';
    }
    if (one?.label === '=' && two?.value === 'href' && three?.label === '.')
        return 'href';
    if (one?.label === ',' && two?.label === 'string' && two.value === 'href' && three?.label === '(')
        return at(4)?.value === 'setAttribute' ? 'href' : undefined;
    return undefined;
}
/** Whether a pending link stays a load: a loading `rel` beside it, or a `url` with no label. */
function settle(link) {
    const isLink = !link.loadingHint && (link.context === 'href' || link.labelled);
    if (isLink)
        delete link.found.evidence;
}
/**
 * URL strings of a script that name a real host, each with the evidence that the browser
 * requests it: a requesting call or property (`fetch("…")`, `script.src = "…"`, `import`),
 * or a known SDK host. Strings without evidence (error-documentation links, dummy bases
 * such as `http://a.com`, bare `//`) come back without it: they are not loads.
 */
function urlsInScript(source) {
    // `"https:\/\/…"` (JSON written by a server-side encoder) holds its slashes escaped, and
    // `"\\\\host/…"` its backslashes, which browsers read as slashes.
    if (!source.includes('//') && !source.includes('\\/') && !source.includes('\\\\'))
        return [];
    try {
        return tokenUrls(source, 'module');
    }
    catch {
        // A classic script may use what a module may not (`"\251"`, `010`): read it as one.
        try {
            return tokenUrls(source, 'script');
        }
        catch {
            return fallback(source);
        }
    }
}
/**
 * Why the CSS in the string after these tokens is applied, so that its `url()` loads:
 * `el.style.backgroundImage = "url(…)"`, `new FontFace("…", "url(…)")`; undefined
 * otherwise. CSS shown as text, in a page's data, loads nothing; nor does a custom
 * property a script sets (`style.setProperty("--icon", "url(…)")`) until a style uses it:
 * VitePress's theme sets one to an icon service only when the icon's own CSS is missing.
 */
function cssEvidenceFrom(before) {
    const at = (back) => before[before.length - back];
    const [one, two, three] = [at(1), at(2), at(3)];
    if (one?.label === '=' && two?.label === 'name' && three?.label === '.')
        return LOADING_STYLE_PROPERTIES.has(two.value) ? `.${two.value} =` : undefined;
    if (one?.label === ',' && two?.label === 'string' && three?.label === '(') {
        const callee = at(4)?.value;
        if (callee === 'FontFace')
            return 'FontFace()';
    }
    return undefined;
}
function tokenUrls(source, sourceType) {
    const found = [];
    const before = [];
    let pending = [];
    for (const token of (0,acorn/* tokenizer */.OH)(source, {
        ecmaVersion: 'latest',
        sourceType,
        allowHashBang: true,
        allowReturnOutsideFunction: true,
        allowAwaitOutsideFunction: true,
    })) {
        const current = seen(token);
        if (pending.length > 0)
            pending = watchPending(pending, current);
        if (token.type === acorn/* tokTypes */.Y_.string || token.type === acorn/* tokTypes */.Y_.template) {
            // What comes before a template's text is what comes before its opening backquote.
            const context = before.at(-1)?.label === '`' ? before.slice(0, -1) : before;
            if (LOOKS_LIKE_URL.test(current.value)) {
                const url = (0,html_whitespace/* withoutHtmlWhitespace */.F)(current.value);
                const host = (0,references/* externalHost */.K8)(url);
                if (host !== undefined && (0,references/* isRealHost */.BV)(host)) {
                    const evidence = evidenceFrom(context);
                    const sdk = evidence === undefined && isSdkUrl(url, host);
                    const item = { url, offset: token.start };
                    if (evidence !== undefined || sdk)
                        item.evidence = evidence ?? 'SDK host';
                    found.push(item);
                    const link = sdk ? linkContextFrom(context) : undefined;
                    if (link !== undefined)
                        pending.push(pendingLink(item, link, context));
                }
            }
            else if (/url\(/i.test(current.value)) {
                const evidence = cssEvidenceFrom(context);
                for (const { url } of evidence === undefined ? [] : (0,css/* urlsInCss */.R)(current.value)) {
                    const host = (0,references/* externalHost */.K8)(url);
                    if (host !== undefined && (0,references/* isRealHost */.BV)(host))
                        found.push({ url, offset: token.start, evidence: `${evidence} url()` });
                }
            }
        }
        before.push(current);
        if (before.length > 8)
            before.shift();
    }
    for (const link of pending)
        settle(link);
    return found;
}
function pendingLink(found, context, before) {
    const link = {
        found,
        context,
        remaining: LINK_LOOKAHEAD,
        loadingHint: false,
        labelled: false,
    };
    for (let i = before.length - 1; i >= 0; i -= 1) {
        const token = before[i];
        if (token.label === 'string' && LOADING_LINK_HINTS.has(token.value))
            link.loadingHint = true;
        if (token.label === '{')
            break;
        if (LINK_LABEL_KEYS.has(token.value))
            link.labelled = true;
    }
    return link;
}
/** Notes what a token says about each pending link; settles those whose object or window ended. */
function watchPending(pending, token) {
    return pending.filter((link) => {
        if (token.label === 'string' && LOADING_LINK_HINTS.has(token.value))
            link.loadingHint = true;
        if ((token.label === 'name' || token.label === 'string') && LINK_LABEL_KEYS.has(token.value))
            link.labelled = true;
        link.remaining -= 1;
        const ended = link.remaining <= 0 || token.label === '}' || token.label === ';';
        if (ended)
            settle(link);
        return !ended;
    });
}
/** A script the tokenizer cannot read: quoted URLs, counted as loads only for SDK hosts. */
function fallback(source) {
    const found = [];
    for (const match of source.matchAll(/(["'`])((?:[a-z][a-z0-9+.-]*:)?\/\/[^"'`\s\\]+)\1/gi)) {
        const url = match[2];
        const host = (0,references/* externalHost */.K8)(url);
        if (host === undefined || !(0,references/* isRealHost */.BV)(host))
            continue;
        const index = match.index ?? 0;
        const asLink = /\b(?:href|link)["']?\s*[:=]\s*$/.test(source.slice(Math.max(0, index - 12), index));
        found.push({
            url,
            offset: index + 1,
            ...(!asLink && isSdkUrl(url, host) ? { evidence: 'SDK host' } : {}),
        });
    }
    return found;
}


/***/ }),

/***/ 156:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Fz: () => (/* binding */ referencesInWebManifest),
/* harmony export */   jD: () => (/* binding */ urlsInImportMap),
/* harmony export */   qF: () => (/* binding */ parseJson)
/* harmony export */ });
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(2857);

const importMap = zod__WEBPACK_IMPORTED_MODULE_0__/* .object */ .Ikc({
    imports: zod__WEBPACK_IMPORTED_MODULE_0__/* .record */ .g1P(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP(), zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()).optional(),
    scopes: zod__WEBPACK_IMPORTED_MODULE_0__/* .record */ .g1P(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP(), zod__WEBPACK_IMPORTED_MODULE_0__/* .record */ .g1P(zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP(), zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP())).optional(),
});
/** The module URLs of a `<script type="importmap">`: what `import "name"` loads. */
function urlsInImportMap(source) {
    const parsed = importMap.safeParse(parseJson(source));
    if (!parsed.success)
        return [];
    const { imports = {}, scopes = {} } = parsed.data;
    return [...Object.values(imports), ...Object.values(scopes).flatMap((s) => Object.values(s))];
}
const manifestImage = zod__WEBPACK_IMPORTED_MODULE_0__/* .object */ .Ikc({ src: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP() }).passthrough();
const webManifest = zod__WEBPACK_IMPORTED_MODULE_0__/* .object */ .Ikc({
    start_url: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().optional(),
    scope: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().optional(),
    icons: zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(manifestImage).optional(),
    screenshots: zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(manifestImage).optional(),
    shortcuts: zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_0__/* .object */ .Ikc({ url: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().optional(), icons: zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(manifestImage).optional() }))
        .optional(),
    related_applications: zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_0__/* .object */ .Ikc({ url: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().optional() })).optional(),
})
    .passthrough();
/**
 * The references of a web app manifest: icons and screenshots are fetched by the
 * browser; `start_url`, `scope` and shortcuts are where an installed app navigates;
 * related applications are store listings nobody loads. Offsets point at the URL text.
 */
function referencesInWebManifest(source) {
    const parsed = webManifest.safeParse(parseJson(source));
    if (!parsed.success)
        return [];
    const manifest = parsed.data;
    const found = [];
    const add = (url, role, via) => {
        if (url === undefined)
            return;
        const at = source.indexOf(JSON.stringify(url).slice(1, -1));
        found.push({ url, offset: Math.max(0, at), role, via });
    };
    for (const icon of manifest.icons ?? [])
        add(icon.src, 'load', 'manifest icons');
    for (const shot of manifest.screenshots ?? [])
        add(shot.src, 'load', 'manifest screenshots');
    for (const shortcut of manifest.shortcuts ?? []) {
        add(shortcut.url, 'link', 'manifest shortcuts');
        for (const icon of shortcut.icons ?? [])
            add(icon.src, 'load', 'manifest icons');
    }
    add(manifest.start_url, 'link', 'manifest start_url');
    add(manifest.scope, 'link', 'manifest scope');
    for (const app of manifest.related_applications ?? [])
        add(app.url, 'metadata', 'manifest related_applications');
    return found;
}
/** The value of a JSON text, or undefined when it is not JSON. */
function parseJson(text) {
    try {
        return JSON.parse(text);
    }
    catch {
        return undefined;
    }
}


/***/ }),

/***/ 9413:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   AI: () => (/* binding */ SiteTree),
/* harmony export */   DP: () => (/* binding */ decodedUrlPath),
/* harmony export */   fi: () => (/* binding */ pageUrl),
/* harmony export */   qx: () => (/* binding */ pageAddress)
/* harmony export */ });
/* harmony import */ var _tree_walk_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9904);

/** The files and directories of an extracted site, and its URL rules. */
class SiteTree {
    root;
    files;
    directories;
    constructor(root, files, directories) {
        this.root = root;
        this.files = files;
        this.directories = directories;
    }
    static async read(root) {
        const files = new Set();
        const directories = new Set(['']);
        for (const { path, dirent } of await (0,_tree_walk_js__WEBPACK_IMPORTED_MODULE_0__/* .readTree */ .Z)(root)) {
            if (dirent.isFile())
                files.add(path);
            else if (dirent.isDirectory())
                directories.add(path);
        }
        return new SiteTree(root, files, directories);
    }
    /** A tree already listed (a worker thread gets the lists of the one that read it). */
    static of(root, files, directories) {
        return new SiteTree(root, new Set(files), new Set(directories));
    }
    /**
     * The file a decoded URL path (`/guides/intro`) is served from, or undefined (404).
     * Runs of slashes count as one, as nginx reads them (`merge_slashes`, on by default):
     * `/guides//intro` is served.
     */
    resolve(urlPath) {
        const merged = urlPath.includes('//') ? urlPath.replace(/\/{2,}/g, '/') : urlPath;
        const trimmed = merged.includes('/.') ? withoutDotSegments(merged) : merged.replace(/^\/+/, '');
        if (trimmed === undefined)
            return undefined;
        if (trimmed === '' || trimmed.endsWith('/')) {
            const index = `${trimmed}index.html`;
            return this.files.has(index) ? { file: index, rule: 'index' } : undefined;
        }
        if (this.files.has(trimmed))
            return { file: trimmed, rule: 'file' };
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
    pages() {
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
function decodedUrlPath(pathname) {
    try {
        return decodeURIComponent(pathname);
    }
    catch {
        return undefined;
    }
}
/**
 * A decoded URL path's `.` and `..` steps applied, as nginx applies them once it has
 * decoded `%2F` (`/x/..%2Fnext` is `/next`), without its leading slash; undefined for one
 * that climbs above the root (nginx: 400).
 */
function withoutDotSegments(urlPath) {
    const kept = [];
    const steps = urlPath.replace(/^\/+/, '').split('/');
    for (const [at, step] of steps.entries()) {
        const last = at === steps.length - 1;
        if (step === '..') {
            if (kept.length === 0)
                return undefined;
            kept.pop();
        }
        else if (step !== '.')
            kept.push(step);
        // A path that ends in a step names a folder: `/guides/setup/..` is `/guides/`.
        if (last && (step === '.' || step === '..'))
            kept.push('');
    }
    return kept.join('/');
}
/**
 * The URL path a page is served at: its clean form, a directory for index.html. Only
 * `.html` is left out: `resolve` appends `.html`, so `x.htm` is served at `/x.htm` alone.
 */
function pageUrl(file) {
    if (file === 'index.html')
        return '/';
    if (file.endsWith('/index.html'))
        return `/${file.slice(0, -'index.html'.length)}`;
    return `/${file.endsWith('.html') ? file.slice(0, -'.html'.length) : file}`;
}
/**
 * The address of a page's URL path on `origin`, each segment encoded: a `#`, `?`, `%` or
 * `\` in a name is part of the path a browser asks for, and of the base its relative
 * links are resolved against.
 */
function pageAddress(origin, urlPath) {
    return `${origin}${urlPath.split('/').map(encodeURIComponent).join('/')}`;
}


/***/ }),

/***/ 2380:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   A$: () => (/* binding */ isMountPoint),
/* harmony export */   Lo: () => (/* binding */ mountsInside),
/* harmony export */   c5: () => (/* binding */ holdsMountsSync)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1455);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6760);



/**
 * What is mounted where, from the kernel's table on Linux: a bind mount of the same file
 * system keeps its parent's device number, so only the table tells it. Elsewhere, or
 * when the table cannot be read, the list is empty.
 */
async function mountPoints() {
    if (process.platform !== 'linux')
        return [];
    return pointsOf(await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.readFile('/proc/self/mountinfo', 'utf8').catch(() => ''));
}
function pointsOf(table) {
    const points = [];
    for (const line of table.split('\n')) {
        const point = line.split(' ')[4];
        if (point !== undefined)
            points.push(unescapeMountPath(point));
    }
    return points;
}
/** The kernel writes a space, tab, newline and backslash in a mount path as `\ooo`. */
function unescapeMountPath(text) {
    return text.replace(/\\([0-7]{3})/g, (_, octal) => String.fromCharCode(parseInt(octal, 8)));
}
/** Whether something is mounted at `dir` itself. */
async function isMountPoint(dir) {
    const real = await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.realpath(dir);
    return (await mountPoints()).includes(real);
}
/** The mount points below `real` (a real path), not at it. */
function below(real, points) {
    const prefix = `${real}${node_path__WEBPACK_IMPORTED_MODULE_2__.sep}`;
    return points.filter((point) => point.startsWith(prefix));
}
/** What is mounted below `dir` (not at it), as paths relative to it. */
async function mountsInside(dir) {
    const real = await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.realpath(dir).catch(() => undefined);
    if (real === undefined)
        return [];
    return below(real, await mountPoints()).map((point) => node_path__WEBPACK_IMPORTED_MODULE_2__.relative(real, point));
}
/**
 * `mountsInside`, for an exit hook, which cannot wait: whether anything is mounted below
 * `dir`, true also when that cannot be told (the tree is then left for a later run).
 */
function holdsMountsSync(dir) {
    if (process.platform !== 'linux')
        return false;
    try {
        const table = node_fs__WEBPACK_IMPORTED_MODULE_0__.readFileSync('/proc/self/mountinfo', 'utf8');
        return below(node_fs__WEBPACK_IMPORTED_MODULE_0__.realpathSync(dir), pointsOf(table)).length > 0;
    }
    catch {
        return true;
    }
}


/***/ }),

/***/ 4271:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Hn: () => (/* binding */ createStagingDirectory),
/* harmony export */   Nc: () => (/* binding */ temporaryFileName),
/* harmony export */   QY: () => (/* binding */ replaceDirectory),
/* harmony export */   Xp: () => (/* binding */ recoverInterruptedRuns),
/* harmony export */   Zf: () => (/* binding */ writeFileAtomic),
/* harmony export */   ag: () => (/* binding */ moveFileInto),
/* harmony export */   cF: () => (/* binding */ removeTemporary),
/* harmony export */   cL: () => (/* binding */ removeStaleTemporaryFiles),
/* harmony export */   eR: () => (/* binding */ siblingPath),
/* harmony export */   hN: () => (/* binding */ trackTemporary)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7598);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3024);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(1455);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6760);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(9243);
/* harmony import */ var _full_disk_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(6313);
/* harmony import */ var _mounts_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(2380);
/* harmony import */ var _process_identity_js__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(8908);








/**
 * Everything lands in a sibling of the target first and is renamed into place only when
 * complete. Every temporary path is registered, so that it is removed however the run
 * ends: by the run's own cleanup, or, when the process dies first (a crash, an exit from
 * elsewhere), by an exit hook. Names carry the process id and, where known, a tag of when
 * it started (process-identity.ts), so a later run can recognise and remove what a killed
 * run (SIGKILL, power loss) left behind, even once another process has its id.
 */
const leftovers = new Set();
/** Earlier exports moved aside (value) while the new one is renamed to their place (key). */
const movedAside = new Map();
let exitHookInstalled = false;
function installExitHook() {
    if (exitHookInstalled)
        return;
    exitHookInstalled = true;
    process.once('exit', cleanUpSync);
}
/** Registers a temporary path for removal should the process end before the run does. */
function trackTemporary(file) {
    leftovers.add(file);
    installExitHook();
}
/** Removes a temporary path now and forgets it. */
async function removeTemporary(file) {
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rm(file, { recursive: true, force: true });
    leftovers.delete(file);
}
/** Forgets a temporary path that became the real thing (renamed into place). */
function untrack(file) {
    leftovers.delete(file);
}
function cleanUpSync() {
    for (const [target, previous] of movedAside) {
        try {
            if (!node_fs__WEBPACK_IMPORTED_MODULE_1__.existsSync(target))
                node_fs__WEBPACK_IMPORTED_MODULE_1__.renameSync(previous, target);
        }
        catch {
            // A later run puts it back (recoverInterruptedRuns).
        }
    }
    movedAside.clear();
    for (const file of leftovers) {
        try {
            // On Node 24 rmSync crosses into mount points and deletes what they hold.
            if ((0,_mounts_js__WEBPACK_IMPORTED_MODULE_6__/* .holdsMountsSync */ .c5)(file))
                continue;
            node_fs__WEBPACK_IMPORTED_MODULE_1__.rmSync(file, { recursive: true, force: true });
        }
        catch {
            // Nothing more can be done while the process exits.
        }
    }
    leftovers.clear();
}
/**
 * `partial`: staging; `previous`: moved aside during a swap; `removed`: being removed,
 * never put back. Exactly what siblingPath names (a process id, the tag of its start
 * where known, 8 hex digits): a directory of the user's that merely looks like one
 * (`.site.previous-2024-12`, a dated backup) is never taken for a killed run's, to be put
 * back over path or removed. Names without the tag, of earlier versions, are judged by
 * the process id alone.
 */
const SIBLING = /^\.(.+)\.(partial|previous|removed)-(\d{1,10})(?:-([0-9a-f]{8}))?-[0-9a-f]{8}$/s;
/** The download's temporary file in the runner's temp directory, named as SIBLING is. */
const TEMPORARY_FILE = /^static-export-(\d+)(?:-([0-9a-f]{8}))?-[0-9a-f]+\.download$/;
/** `.site.partial-<pid>-<tag>-<random>` beside `site`. */
function siblingPath(target, label) {
    return node_path__WEBPACK_IMPORTED_MODULE_3__.join(node_path__WEBPACK_IMPORTED_MODULE_3__.dirname(target), `.${node_path__WEBPACK_IMPORTED_MODULE_3__.basename(target)}.${label}-${(0,_process_identity_js__WEBPACK_IMPORTED_MODULE_7__/* .ownNamePart */ .vb)()}-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomBytes)(4).toString('hex')}`);
}
/** A temporary file name in `dir` that a later run recognises as this run's. */
function temporaryFileName(dir, suffix) {
    return node_path__WEBPACK_IMPORTED_MODULE_3__.join(dir, `static-export-${(0,_process_identity_js__WEBPACK_IMPORTED_MODULE_7__/* .ownNamePart */ .vb)()}-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomBytes)(6).toString('hex')}${suffix}`);
}
/**
 * Whether the run that named `file` after its process (`pid`, and `tag` of its start when
 * the name has one) may still be using it. This process only uses what it made: in a
 * container every run gets the same small id, so whatever else carries it was left by an
 * earlier run.
 */
function isAlive(pid, tag, file) {
    if ((0,_process_identity_js__WEBPACK_IMPORTED_MODULE_7__/* .processState */ .LS)(pid, tag) !== 'running')
        return false;
    return pid !== process.pid || leftovers.has(file) || [...movedAside.values()].includes(file);
}
/**
 * Cleans up after runs that were killed before they could, for the entries `bases` of
 * `dir` that this run writes (the site, or an archive and its manifest): their staging
 * is removed, and an earlier export they had moved aside but not yet replaced is put
 * back. `dir` is listed once. Never fails the run: what it cannot remove (a read-only
 * tree) is left, with a warning, rather than blocking every later run in this place.
 */
async function recoverInterruptedRuns(dir, bases) {
    const wanted = new Set(bases);
    const names = await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.readdir(dir).catch(() => []);
    const recovery = { done: [], warnings: [] };
    for (const name of names) {
        const match = SIBLING.exec(name);
        const base = match?.[1];
        const file = node_path__WEBPACK_IMPORTED_MODULE_3__.join(dir, name);
        if (!match ||
            base === undefined ||
            !wanted.has(base) ||
            isAlive(Number(match[3]), match[4], file))
            continue;
        const target = node_path__WEBPACK_IMPORTED_MODULE_3__.join(dir, base);
        const targetExists = await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.lstat(target).then(() => true, () => false);
        const putBack = match[2] === 'previous' && !targetExists;
        let at = file;
        try {
            if (putBack) {
                await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rename(file, target);
                recovery.done.push(`Put back the earlier export that an interrupted run had moved to ${name}.`);
            }
            else {
                if (match[2] === 'previous') {
                    at = siblingPath(target, 'removed');
                    await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rename(file, at);
                }
                await removeEarlierTree(at);
                recovery.done.push(`Removed ${name}, left by an interrupted run.`);
            }
        }
        catch (err) {
            recovery.warnings.push(putBack
                ? `Could not put back the earlier export that an interrupted run had moved to ${file} (${(0,_errors_js__WEBPACK_IMPORTED_MODULE_4__/* .errorMessage */ .gJ)(err)}): it is left there, and this run writes a new ${base}.`
                : `Could not remove ${at}, left by an earlier run (${(0,_errors_js__WEBPACK_IMPORTED_MODULE_4__/* .errorMessage */ .gJ)(err)}): remove it by hand; this run goes on without it.`);
        }
    }
    return recovery;
}
/** Removes this action's temporary files that killed runs left in `dir`. */
async function removeStaleTemporaryFiles(dir) {
    const names = await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.readdir(dir).catch(() => []);
    for (const name of names) {
        const match = TEMPORARY_FILE.exec(name);
        const file = node_path__WEBPACK_IMPORTED_MODULE_3__.join(dir, name);
        if (match && !isAlive(Number(match[1]), match[2], file)) {
            await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rm(file, { force: true });
        }
    }
}
async function createStagingDirectory(target) {
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.mkdir(node_path__WEBPACK_IMPORTED_MODULE_3__.dirname(target), { recursive: true });
    const staging = siblingPath(target, 'partial');
    trackTemporary(staging);
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.mkdir(staging, { mode: 0o755 });
    return staging;
}
/**
 * Puts `staging` where `target` is. The earlier tree is moved aside, the new one renamed
 * into place, and only then is the earlier one removed; if the second rename fails the
 * earlier tree is put back. Either way `target` is a complete tree, old or new.
 * `leftBehind` says why the earlier tree is still beside it, when it could not be removed.
 */
async function replaceDirectory(staging, target) {
    const previous = siblingPath(target, 'previous');
    let replaced = false;
    installExitHook();
    movedAside.set(target, previous);
    try {
        try {
            await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rename(target, previous);
            replaced = true;
        }
        catch (err) {
            // ENOENT: nothing there to move aside.
            const { code } = err;
            if (code !== 'ENOENT')
                throw (0,_errors_js__WEBPACK_IMPORTED_MODULE_4__/* .asLocalFileError */ .kH)({ code }, target, 'move aside the earlier export in') ?? err;
        }
        try {
            await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rename(staging, target);
        }
        catch (err) {
            if (replaced)
                await putBack(previous, target, err);
            throw clashOr(err, target);
        }
    }
    finally {
        movedAside.delete(target);
    }
    untrack(staging);
    if (!replaced)
        return { replaced };
    return { replaced, ...(await removePrevious(previous, target)) };
}
/**
 * Puts the earlier tree back after the new one could not take its place. When that fails
 * too, something else wrote `target` meanwhile (a second run into the same path): what it
 * wrote stays, and the earlier tree, now out of date, is removed by the next run.
 */
async function putBack(previous, target, cause) {
    try {
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rename(previous, target);
    }
    catch {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_4__/* .ActionError */ .lZ(`The new site could not be put in place at ${target} (${(0,_errors_js__WEBPACK_IMPORTED_MODULE_4__/* .errorMessage */ .gJ)(cause)}), nor the earlier export put back: something else wrote ${target} meanwhile, such as another run into the same path ${overlapped(target)}`);
    }
}
/** A directory that appeared at `target` during the swap is named as such. */
function clashOr(err, target) {
    const code = err.code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST')
        return err;
    return new _errors_js__WEBPACK_IMPORTED_MODULE_4__/* .ActionError */ .lZ(`The new site could not be put in place: ${target} appeared while this run was replacing it, such as from another run into the same path ${overlapped(target)}`);
}
/** The end of both messages about another writer at `target` during the swap. */
function overlapped(target) {
    return `(runs into one path must not overlap). ${target} holds what was written there; this run's site was discarded.`;
}
/**
 * Removes the earlier tree once the new one is in place. The run has done its job by
 * then, so a tree that cannot be removed (made read-only by its owner) is left, with
 * the reason, for the caller to warn about, rather than failing a run that succeeded.
 */
async function removePrevious(previous, target) {
    // Renamed first: a tree left half removed must never be put back as one moved aside
    // by a run killed mid-swap (recoverInterruptedRuns).
    let at = previous;
    trackTemporary(at);
    try {
        const removed = siblingPath(target, 'removed');
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rename(previous, removed);
        untrack(previous);
        at = removed;
        trackTemporary(at);
        await removeEarlierTree(at);
        untrack(at);
        return {};
    }
    catch (err) {
        untrack(at);
        return {
            leftBehind: `The earlier export could not be removed after the new one was put in place, and is left in ${at} (${(0,_errors_js__WEBPACK_IMPORTED_MODULE_4__/* .errorMessage */ .gJ)(err)}): remove it by hand, ${howToRemove(err)}.`,
        };
    }
}
/**
 * Removes a tree that held an earlier export (or a user's directory replaced with
 * `overwrite`), unless something is mounted inside it: what a mount holds is never ours
 * to delete, whichever way a runtime's recursive removal treats mount points.
 */
async function removeEarlierTree(dir) {
    const mounts = await (0,_mounts_js__WEBPACK_IMPORTED_MODULE_6__/* .mountsInside */ .Lo)(dir);
    if (mounts.length > 0) {
        throw Object.assign(new Error(`something is mounted inside it, at ${mounts.slice(0, 3).join(', ')}`), { code: 'EBUSY' });
    }
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rm(dir, { recursive: true, force: true });
}
/** What stands in the way of removing a tree, by the error its removal met. */
function howToRemove(err) {
    const code = err.code;
    if (code === 'EBUSY')
        return 'after unmounting what is mounted inside it (its data is not touched)';
    if (code === 'EACCES' || code === 'EPERM')
        return 'after making it writable';
    return 'once what kept it there is out of the way';
}
/** Moves a finished file into `dir` under `name`, atomically on the destination side. */
async function moveFileInto(file, dir, name) {
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.mkdir(dir, { recursive: true });
    const destination = node_path__WEBPACK_IMPORTED_MODULE_3__.join(dir, name);
    const staging = siblingPath(destination, 'partial');
    trackTemporary(staging);
    try {
        try {
            await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rename(file, staging);
        }
        catch (err) {
            if (err.code !== 'EXDEV')
                throw err;
            try {
                await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.copyFile(file, staging);
            }
            catch (copyErr) {
                // Named by the directory written into: the error's own path is the temp file's.
                const { code } = copyErr;
                const failure = (0,_errors_js__WEBPACK_IMPORTED_MODULE_4__/* .asLocalFileError */ .kH)({ code }, dir, 'copy the archive into') ?? copyErr;
                // Its partial copy goes first: the space then said free is what the archive had.
                await removeTemporary(staging);
                const archive = await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.stat(file).catch(() => undefined);
                throw await (0,_full_disk_js__WEBPACK_IMPORTED_MODULE_5__/* .withDiskSpace */ .y)(failure, { needed: archive?.size });
            }
            await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rm(file, { force: true });
        }
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.chmod(staging, 0o644);
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rename(staging, destination);
        untrack(staging);
    }
    finally {
        await removeTemporary(staging);
    }
    return destination;
}
/** Writes a small text file atomically (temp file, then rename). */
async function writeFileAtomic(file, content, mode = 0o644) {
    try {
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.mkdir(node_path__WEBPACK_IMPORTED_MODULE_3__.dirname(file), { recursive: true });
    }
    catch (err) {
        // A file where a folder should be: EEXIST for the file's own folder, ENOTDIR above it.
        const { code } = err;
        throw (0,_errors_js__WEBPACK_IMPORTED_MODULE_4__/* .asLocalFileError */ .kH)({ code: code === 'EEXIST' ? 'ENOTDIR' : code }, file, 'write') ?? err;
    }
    // What killed runs left beside the file while writing it; never fails the write.
    await recoverInterruptedRuns(node_path__WEBPACK_IMPORTED_MODULE_3__.dirname(file), [node_path__WEBPACK_IMPORTED_MODULE_3__.basename(file)]);
    const staging = siblingPath(file, 'partial');
    trackTemporary(staging);
    try {
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.writeFile(staging, content, { mode });
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rename(staging, file);
        untrack(staging);
    }
    catch (err) {
        // Named by the file the user gave: the error's own path is the temporary one's.
        const { code } = err;
        throw await (0,_full_disk_js__WEBPACK_IMPORTED_MODULE_5__/* .withDiskSpace */ .y)((0,_errors_js__WEBPACK_IMPORTED_MODULE_4__/* .asLocalFileError */ .kH)({ code }, file, 'write') ?? err);
    }
    finally {
        await removeTemporary(staging);
    }
}


/***/ }),

/***/ 8908:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   DJ: () => (/* binding */ ownStart),
/* harmony export */   LS: () => (/* binding */ processState),
/* harmony export */   pP: () => (/* binding */ ownPidNamespace),
/* harmony export */   vb: () => (/* binding */ ownNamePart)
/* harmony export */ });
/* unused harmony exports startOf, startTag */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7598);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3024);


/**
 * A run is known by its process, to tell whether what it left (staging beside `path`, a
 * lock) is still in use. The id alone is reused: by the next run in a container, by any
 * process after a reboot or once ids wrap. Where Linux says when a process started
 * (/proc/<pid>/stat, in the boot it belongs to), that start is recorded and compared too;
 * elsewhere, and for what an earlier version recorded, the id alone tells.
 *
 * /proc is read synchronously: its files are made in memory, and an exit hook reads them too.
 */
/** When process `pid` started: the boot's id and the clock ticks since boot; undefined where unknown. */
function startOf(pid) {
    const boot = bootId();
    if (boot === undefined)
        return undefined;
    let stat;
    try {
        stat = node_fs__WEBPACK_IMPORTED_MODULE_1__.readFileSync(`/proc/${pid}/stat`, 'utf8');
    }
    catch {
        return undefined;
    }
    // Field 2, the command name, is in parentheses and may hold spaces and parentheses;
    // field 22 (starttime) is the 20th after it.
    const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return ticks !== undefined && /^\d+$/.test(ticks) ? `${boot}/${ticks}` : undefined;
}
let boot;
function bootId() {
    if (boot === undefined) {
        try {
            boot = node_fs__WEBPACK_IMPORTED_MODULE_1__.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
        }
        catch {
            boot = null;
        }
    }
    return boot ?? undefined;
}
/** A start shortened to 8 hex digits, for a file name: `.site.partial-<pid>-<tag>-<random>`. */
function startTag(start) {
    return (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(start).digest('hex').slice(0, 8);
}
let own;
/** This process's start, read once (undefined where unknown). */
function ownStart() {
    own ??= { start: startOf(process.pid) };
    return own.start;
}
/** `<pid>-<tag>` (or `<pid>` where the start is unknown): what names this process's files. */
function ownNamePart() {
    const start = ownStart();
    return start === undefined ? String(process.pid) : `${process.pid}-${startTag(start)}`;
}
/**
 * What became of the process that recorded itself as `pid`, started at `started` (its
 * start, or the tag of it; undefined when only the id was recorded): `running`; `gone`
 * when no process has the id; `reused` when the one that has it started at another time.
 */
function processState(pid, started) {
    if (!processExists(pid))
        return 'gone';
    if (started === undefined)
        return 'running';
    const actual = startOf(pid);
    // Its start cannot be read now (/proc mounted with hidepid): the id alone tells.
    if (actual === undefined)
        return 'running';
    return started === actual || started === startTag(actual) ? 'running' : 'reused';
}
function processExists(pid) {
    try {
        process.kill(pid, 0);
        return true;
    }
    catch (err) {
        // EPERM: it exists, as another user's.
        return err.code === 'EPERM';
    }
}
let namespace;
/**
 * The process id namespace this process is in (`pid:[4026531836]`), undefined where
 * unknown: an id means nothing in another one (another container on the same host).
 */
function ownPidNamespace() {
    if (namespace === undefined) {
        let id;
        try {
            id = node_fs__WEBPACK_IMPORTED_MODULE_1__.readlinkSync('/proc/self/ns/pid');
        }
        catch {
            id = undefined;
        }
        namespace = { id };
    }
    return namespace.id;
}


/***/ }),

/***/ 3175:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  execute: () => (/* binding */ execute)
});

// UNUSED EXPORTS: retryDescriber

// EXTERNAL MODULE: ./node_modules/undici/index.js
var undici = __webpack_require__(6752);
// EXTERNAL MODULE: ./.build/clock.js
var _build_clock = __webpack_require__(8104);
// EXTERNAL MODULE: ./.build/errors.js
var errors = __webpack_require__(9243);
// EXTERNAL MODULE: external "node:stream"
var external_node_stream_ = __webpack_require__(7075);
// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __webpack_require__(8522);
// EXTERNAL MODULE: ./.build/duration.js
var duration = __webpack_require__(4184);
// EXTERNAL MODULE: external "node:net"
var external_node_net_ = __webpack_require__(7030);
;// CONCATENATED MODULE: ./.build/proxy.js



const DEFAULT_PORT = { 'http:': 80, 'https:': 443 };
function firstSet(env, names) {
    return firstSetVariable(env, names)?.value;
}
function firstSetVariable(env, names) {
    for (const name of names) {
        const value = env[name]?.trim();
        if (value)
            return { name, value };
    }
    return undefined;
}
const PROXY_VARIABLES = {
    'https:': ['https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY'],
    'http:': ['http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY'],
};
/** A proxy variable that names no usable proxy: going direct instead would hide the mistake. */
class ProxySettingError extends errors/* ActionError */.lZ {
    name = 'ProxySettingError';
    kind = 'proxy-setting';
    variable;
    constructor(variable, why) {
        // The value is never shown: it may hold the proxy's password.
        super(`${variable} is not a proxy URL (${why}; value not shown). Write it as http://proxy.example.com:3128, with user:password@ before the host when the proxy asks for them (percent-encode special characters), or unset it.`);
        this.variable = variable;
    }
}
/** An address or CIDR range as a BlockList, or undefined when it is neither. */
function addressRule(text) {
    const [address = '', prefix] = text.split('/');
    const bare = address.replace(/^\[|\]$/g, '');
    const family = (0,external_node_net_.isIP)(bare);
    if (family === 0)
        return undefined;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    const list = new external_node_net_.BlockList();
    if (prefix === undefined) {
        list.addAddress(bare, type);
        return list;
    }
    const bits = Number(prefix);
    if (!/^\d+$/.test(prefix) || bits > (family === 4 ? 32 : 128))
        return undefined;
    list.addSubnet(bare, bits, type);
    return list;
}
/** Parses a NO_PROXY value (commas or whitespace between entries). */
function parseNoProxy(value) {
    const rules = [];
    let all = false;
    for (const raw of (value ?? '').split(/[\s,]+/)) {
        const entry = raw.trim().toLowerCase();
        if (entry === '')
            continue;
        if (entry === '*') {
            all = true;
            continue;
        }
        // `::1` is an address, not host `:` and port 1: try the whole entry as one first.
        const whole = addressRule(entry);
        if (whole) {
            rules.push({ addresses: whole });
            continue;
        }
        const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(entry);
        const hostPort = bracketed ?? /^([^:]+):(\d+)$/.exec(entry);
        const host = hostPort ? hostPort[1] : entry;
        const port = hostPort ? Number(hostPort[2]) : undefined;
        const addresses = addressRule(host);
        if (addresses)
            rules.push({ addresses, ...(port !== undefined ? { port } : {}) });
        else
            rules.push({
                host: host.replace(/^\*?\./, '').replace(/\.$/, ''),
                ...(port !== undefined ? { port } : {}),
            });
    }
    return { all, rules };
}
/** True when NO_PROXY says `url` is reached directly. */
function bypassesProxy(url, noProxy) {
    if (noProxy.all)
        return true;
    // `docs.example.com.` (fully qualified) is the same host as `docs.example.com`.
    const host = url.hostname
        .replace(/^\[|\]$/g, '')
        .replace(/\.$/, '')
        .toLowerCase();
    const port = url.port !== '' ? Number(url.port) : DEFAULT_PORT[url.protocol];
    const family = (0,external_node_net_.isIP)(host);
    return noProxy.rules.some((rule) => {
        if (rule.port !== undefined && rule.port !== port)
            return false;
        if (rule.addresses) {
            return family !== 0 && rule.addresses.check(host, family === 4 ? 'ipv4' : 'ipv6');
        }
        // A name never matches an address (`0.1` is no suffix of 127.0.0.1), as with curl.
        if (family !== 0)
            return false;
        const name = rule.host;
        return host === name || host.endsWith(`.${name}`);
    });
}
/**
 * The proxy schemes undici's ProxyAgent can go through, as curl reads them: not `socks:`,
 * which undici speaks as SOCKS5 but curl (whose variables these are) as SOCKS4.
 */
const PROXY_SCHEMES = new Set(['http:', 'https:', 'socks5:']);
/**
 * A proxy URL as the environment gives it; curl assumes http:// when the scheme is
 * missing. Throws ProxySettingError when it is not one.
 */
function parseProxyUrl(variable) {
    const { name, value } = variable;
    let proxy;
    try {
        proxy = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
    }
    catch {
        throw new ProxySettingError(name, 'it does not parse as a URL');
    }
    if (proxy.hostname === '')
        throw new ProxySettingError(name, 'it names no host');
    // Any other scheme fails each request with an argument error that reads like a network one.
    if (!PROXY_SCHEMES.has(proxy.protocol)) {
        throw new ProxySettingError(name, `its scheme ${proxy.protocol} is not one of http, https, socks5 (socks5h and socks4, or socks as curl reads it, are not supported)`);
    }
    // An unencoded `/`, `?` or `#` in the password ends the host early: the rest, `@` and
    // real host included, is read as a path, and a piece of the password as the host, which
    // every message about the proxy would then print.
    const rest = `${proxy.pathname === '/' ? '' : proxy.pathname}${proxy.search}${proxy.hash}`;
    if (rest !== '') {
        throw new ProxySettingError(name, rest.includes('@')
            ? 'a /, ? or # comes before its last @, as when a user name or password holds /, @ or : not percent-encoded: write them %2F, %40, %3A'
            : 'it has a path, query or fragment after the host and port, which a proxy URL has not: in a user name or password, write / ? # as %2F %3F %23');
    }
    try {
        decodeURIComponent(proxy.username);
        decodeURIComponent(proxy.password);
    }
    catch {
        throw new ProxySettingError(name, 'its user name or password holds a % that encodes nothing');
    }
    return proxy;
}
/**
 * Checks every proxy variable that would be used, so that a mistyped one stops the run
 * before its first request instead of being skipped.
 */
function checkProxyEnvironment(env = process.env) {
    for (const names of Object.values(PROXY_VARIABLES)) {
        const variable = firstSetVariable(env, [...names]);
        if (variable)
            parseProxyUrl(variable);
    }
}
/** The proxy the environment names for `url`, or undefined when it is reached directly. */
function proxyFor(url, env = process.env) {
    const variable = firstSetVariable(env, [
        ...PROXY_VARIABLES[url.protocol === 'https:' ? 'https:' : 'http:'],
    ]);
    if (variable === undefined)
        return undefined;
    if (bypassesProxy(url, parseNoProxy(firstSet(env, ['no_proxy', 'NO_PROXY']))))
        return undefined;
    return parseProxyUrl(variable);
}
/** A proxy as it may be printed: scheme, host and port, never its credentials. */
function describeProxy(proxy) {
    return `${proxy.protocol}//${proxy.host}`;
}
/** The proxy answered a CONNECT with something other than 200: it refused the tunnel. */
class ProxyTunnelRefused extends Error {
    name = 'ProxyTunnelRefused';
    code = 'ERR_PROXY_TUNNEL_REFUSED';
    status;
    proxy;
    target;
    constructor(options) {
        super(`The proxy ${describeProxy(options.proxy)} answered HTTP ${options.status} to CONNECT ${options.target}`);
        this.status = options.status;
        this.proxy = options.proxy;
        this.target = options.target;
    }
}
/** The code of a ProxyConnectionFailed, which wraps the failure's own. */
const PROXY_CONNECTION_FAILED = 'ERR_PROXY_CONNECTION_FAILED';
/**
 * The connection to the proxy itself failed (its TLS, for an `https://` proxy), or it
 * closed or garbled its answer to CONNECT: the failure is the proxy's, whatever host the
 * request was for. Its code is its own, the failure's is in `cause`: undici takes a
 * connect error with its socket code (`UND_ERR_SOCKET`) for one worth reconnecting at
 * once, and a proxy that closes every CONNECT would be tried in a tight loop, forever.
 */
class ProxyConnectionFailed extends Error {
    name = 'ProxyConnectionFailed';
    code = PROXY_CONNECTION_FAILED;
    proxy;
    constructor(proxy, cause) {
        const { message } = (cause ?? {});
        super(typeof message === 'string' ? message : String(cause), { cause });
        this.proxy = proxy;
    }
}
function proxyAuthorization(proxy) {
    if (proxy.username === '' && proxy.password === '')
        return undefined;
    const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
    return `Basic ${Buffer.from(credentials).toString('base64')}`;
}
/** The proxy's URL without its user name and password, which go in a header of their own. */
function withoutCredentials(proxy) {
    const bare = new URL(proxy.href);
    bare.username = '';
    bare.password = '';
    return bare.href;
}
/** A dispatcher made of others: closing or destroying it does so to each of them. */
class CompositeDispatcher extends undici/* Dispatcher */.mk {
    close(callback) {
        const closing = Promise.all(this.parts().map((d) => d.close())).then(() => undefined);
        if (callback)
            void closing.then(callback);
        else
            return closing;
    }
    destroy(errOrCallback, callback) {
        const err = typeof errOrCallback === 'function' ? null : (errOrCallback ?? null);
        const done = typeof errOrCallback === 'function' ? errOrCallback : callback;
        const destroying = Promise.all(this.parts().map((d) => d.destroy(err))).then(() => undefined);
        if (done)
            void destroying.then(done);
        else
            return destroying;
    }
}
/**
 * Plain-http requests through a proxy, as curl sends them: the whole URL on the request
 * line (absolute form), to a connection with the proxy (over TLS to an https:// one). The
 * proxy's own answers (407, 403) come back as ordinary responses.
 */
class AbsoluteFormProxy extends CompositeDispatcher {
    #pool;
    #authorization;
    constructor(proxy, options) {
        super();
        this.#pool = new undici/* Pool */.bC(proxy.origin, options);
        this.#authorization = proxyAuthorization(proxy);
    }
    dispatch(options, handler) {
        const origin = String(options.origin ?? '');
        const headers = { ...options.headers };
        if (!Object.keys(headers).some((name) => name.toLowerCase() === 'host')) {
            headers.host = new URL(origin).host;
        }
        if (this.#authorization)
            headers['proxy-authorization'] = this.#authorization;
        return this.#pool.dispatch({ ...options, path: `${origin}${options.path}`, headers }, handler);
    }
    parts() {
        return [this.#pool];
    }
}
/**
 * Notices undici's proxy routes would put on stderr, into the run's log, that say nothing
 * of the run: that its SOCKS5 support is experimental (once, at the first connection
 * through one), and Node's DEP0123 for a TLS server name that is an IP address, which
 * undici sets for an `https://` proxy named by one and, on its SOCKS5 path, for an https
 * target named by one. Left out from the first such route on; any other warning is
 * printed as before.
 */
const PROXY_NOTICES = [
    (warning) => warning.name === 'ExperimentalWarning' &&
        warning.message.startsWith('SOCKS5 proxy support is experimental'),
    (warning) => warning.code === 'DEP0123',
];
let proxyNoticesLeftOut = false;
function leaveOutProxyNotices() {
    if (proxyNoticesLeftOut)
        return;
    proxyNoticesLeftOut = true;
    const emit = process.emitWarning;
    process.emitWarning = function (...args) {
        const [warning, second, code] = args;
        // Anything else, a wrong argument too, is Node's to print or refuse.
        const named = typeof warning === 'string'
            ? Object.assign(new Error(warning), {
                name: (typeof second === 'string' ? second : second?.type) || 'Warning',
                code: typeof second === 'string' ? code : second?.code,
            })
            : warning instanceof Error
                ? warning
                : undefined;
        if (named !== undefined && PROXY_NOTICES.some((isNotice) => isNotice(named)))
            return;
        Reflect.apply(emit, this, args);
    };
}
/** A tunnelling proxy agent whose refused CONNECT fails with the proxy's status as data. */
function tunnellingAgent(proxy, options) {
    const namedByAddress = (0,external_node_net_.isIP)(proxy.hostname.replace(/^\[|\]$/g, '')) !== 0;
    if (proxy.protocol === 'socks5:' || (proxy.protocol === 'https:' && namedByAddress)) {
        leaveOutProxyNotices();
    }
    const authorization = proxyAuthorization(proxy);
    return new undici/* ProxyAgent */.kT({
        ...options,
        // The TLS settings meant for the server apply inside the tunnel, and to an https://
        // proxy itself (its CA, when one is given, is the server's too).
        ...(options.connect && typeof options.connect === 'object'
            ? {
                requestTls: options.connect,
                ...(proxy.protocol === 'https:' ? { proxyTls: options.connect } : {}),
            }
            : {}),
        ...(proxy.protocol === 'socks5:'
            ? {
                uri: proxy.href,
                // undici hands a SOCKS5 proxy the URL's user name and password still percent-encoded.
                ...(proxy.username !== '' || proxy.password !== ''
                    ? {
                        username: decodeURIComponent(proxy.username),
                        password: decodeURIComponent(proxy.password),
                    }
                    : {}),
            }
            : {
                // undici sends credentials on CONNECT only when both the user name and the password
                // are there; curl, and our absolute-form requests, send either (a token as the user
                // name, `http://token@proxy`, is common).
                uri: withoutCredentials(proxy),
                ...(authorization !== undefined ? { token: authorization } : {}),
            }),
        clientFactory: (origin, clientOptions) => {
            const pool = new undici/* Pool */.bC(origin, clientOptions);
            const connect = pool.connect.bind(pool);
            return Object.assign(pool, {
                connect: async (connectOptions) => {
                    let data;
                    try {
                        data = await connect(connectOptions);
                    }
                    catch (err) {
                        throw new ProxyConnectionFailed(proxy, err);
                    }
                    if (data.statusCode !== 200) {
                        data.socket.destroy();
                        throw new ProxyTunnelRefused({
                            status: data.statusCode,
                            proxy,
                            target: connectOptions.path,
                        });
                    }
                    return data;
                },
            });
        },
    });
}
/**
 * The dispatcher of every request the action sends: direct, or through the proxy the
 * environment names for that URL (read once, when it is created; a proxy variable that
 * is not a URL throws ProxySettingError then).
 */
class ProxyRoutes extends CompositeDispatcher {
    #env;
    #options;
    #direct;
    #viaProxy = new Map();
    constructor(env = process.env, options = {}) {
        super();
        checkProxyEnvironment(env);
        this.#env = { ...env };
        this.#options = options;
        this.#direct = new undici/* Agent */.g6(options);
    }
    /** The proxy a request to `url` goes through, if any. */
    proxyFor(url) {
        return proxyFor(url, this.#env);
    }
    #route(url) {
        const proxy = this.proxyFor(url);
        if (proxy === undefined)
            return this.#direct;
        const key = `${url.protocol}${proxy.href}`;
        let dispatcher = this.#viaProxy.get(key);
        if (dispatcher === undefined) {
            dispatcher =
                url.protocol === 'http:' && proxy.protocol !== 'socks5:'
                    ? new AbsoluteFormProxy(proxy, this.#options)
                    : tunnellingAgent(proxy, this.#options);
            this.#viaProxy.set(key, dispatcher);
        }
        return dispatcher;
    }
    dispatch(options, handler) {
        return this.#route(new URL(String(options.origin))).dispatch(options, handler);
    }
    parts() {
        return [this.#direct, ...this.#viaProxy.values()];
    }
}

;// CONCATENATED MODULE: ./.build/http.js





/** The first value of a response header. */
function header(headers, name) {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
}
/**
 * Reads at most `limit` bytes of a body and drops the rest: error pages and API answers
 * are small, and an untrusted server must not make the client buffer gigabytes.
 */
async function readBytes(body, limit, destroy) {
    const chunks = [];
    let size = 0;
    for await (const data of body) {
        const chunk = data;
        chunks.push(chunk);
        size += chunk.length;
        if (size > limit) {
            destroy();
            return { bytes: Buffer.concat(chunks).subarray(0, limit), truncated: true };
        }
    }
    return { bytes: Buffer.concat(chunks), truncated: false };
}
/** A Content-Encoding the action can undo, as a fresh transform. */
function decoderFor(encoding) {
    switch (encoding?.trim().toLowerCase()) {
        case 'gzip':
        case 'x-gzip':
            return external_node_zlib_.createGunzip();
        case 'deflate':
            return new DeflateDecoder();
        case 'br':
            return external_node_zlib_.createBrotliDecompress();
        default:
            return undefined;
    }
}
/**
 * `Content-Encoding: deflate` is zlib's format (RFC 9110), but some servers send raw
 * deflate under that name, which browsers and curl read as well: a zlib stream is told by
 * its first two bytes (method 8 in the low four bits, the pair a multiple of 31).
 */
class DeflateDecoder extends external_node_stream_.Transform {
    #inflate;
    /** The first byte, while the second has not come. */
    #head;
    /** The deflate data has ended: what follows it is dropped, as zlib's own inflater drops it. */
    #ended = false;
    /** Called once the inflater has ended, when this stream is flushed before. */
    #onEnd;
    _transform(chunk, _encoding, done) {
        if (this.#ended) {
            done();
            return;
        }
        let data = chunk;
        if (this.#inflate === undefined) {
            data = this.#head ? Buffer.concat([this.#head, chunk]) : chunk;
            if (data.length < 2) {
                this.#head = data;
                done();
                return;
            }
            this.#head = undefined;
            const wrapped = (data[0] & 0x0f) === 8 && data.readUInt16BE(0) % 31 === 0;
            this.#inflate = this.#start(wrapped ? external_node_zlib_.createInflate() : external_node_zlib_.createInflateRaw());
        }
        this.#inflate.write(data, (err) => done(err ?? undefined));
    }
    _flush(done) {
        // A body of one byte is no stream of either kind: raw inflate says why.
        const inflate = this.#inflate ?? (this.#head ? this.#start(external_node_zlib_.createInflateRaw()) : undefined);
        if (inflate === undefined) {
            done();
            return;
        }
        if (this.#ended) {
            done();
            return;
        }
        if (this.#head)
            inflate.write(this.#head);
        this.#onEnd = () => done();
        inflate.end();
    }
    /** Asked for more: what the inflater holds back for want of room flows again. */
    _read(size) {
        this.#inflate?.resume();
        super._read(size);
    }
    _destroy(err, done) {
        this.#inflate?.destroy();
        done(err);
    }
    #start(inflate) {
        this.#inflate = inflate;
        inflate.on('data', (data) => {
            if (!this.push(data))
                inflate.pause();
        });
        inflate.on('error', (err) => this.destroy(err));
        // Bytes after the deflate data end it before the body does (a trailing CRLF).
        inflate.once('end', () => {
            this.#ended = true;
            this.#onEnd?.();
        });
        return inflate;
    }
}
/** The encodings a response carries beyond `identity`, e.g. `gzip`. */
function contentEncoding(headers) {
    const value = header(headers, 'content-encoding')?.trim().toLowerCase();
    return value === undefined || value === '' || value === 'identity' ? undefined : value;
}
/**
 * Reads a small body, undoing a Content-Encoding that arrived although the request asked
 * for identity (a middlebox), within `limit` bytes either way.
 */
async function readDecodedBytes(body, headers, limit) {
    const decoder = decoderFor(contentEncoding(headers));
    if (decoder === undefined)
        return readBytes(body, limit, () => body.destroy());
    // pipeline, not pipe: a body that fails (a timeout, a cancellation) fails the decoder
    // too, where pipe would leave the loop waiting for bytes that never come.
    const decoded = (0,external_node_stream_.pipeline)(body, decoder, () => undefined);
    return readBytes(decoded, limit, () => {
        body.destroy();
        decoder.destroy();
    });
}
/** The same as UTF-8 text. */
async function readDecodedText(body, headers, limit) {
    const { bytes, truncated } = await readDecodedBytes(body, headers, limit);
    return { text: bytes.toString('utf8'), truncated };
}
/** The proxy a request to `url` goes through, when the dispatcher routes by the environment. */
function proxyOf(dispatcher, url) {
    return dispatcher instanceof ProxyRoutes ? dispatcher.proxyFor(url) : undefined;
}
/**
 * What servers say the time is, from their `Date` headers: the storage judges a link's
 * expiry by its own clock, which may differ from the runner's by minutes.
 */
class ServerTime {
    clock;
    #offsetMs;
    constructor(clock) {
        this.clock = clock;
    }
    /** Learns the offset from a response's Date header (second resolution: mid-second). */
    observe(headers) {
        const at = Date.parse(header(headers, 'date') ?? '');
        if (!Number.isNaN(at))
            this.#offsetMs = at + 500 - this.clock.now();
    }
    /** How far the server's clock is ahead of the runner's (negative: behind), once known. */
    get offsetMs() {
        return this.#offsetMs;
    }
    /** The server's time now, when a Date header has been seen. */
    now() {
        return this.#offsetMs === undefined ? undefined : this.clock.now() + this.#offsetMs;
    }
    /**
     * False only when both clocks, the runner's and the server's (when known), say the
     * moment has passed: a link is tried whenever the store may still accept it.
     */
    mayBeBefore(at) {
        const margin = 2000;
        if (this.clock.now() < at.getTime())
            return true;
        const server = this.now();
        return server !== undefined && server < at.getTime() + margin;
    }
    /** "the runner's clock is 20m 00s ahead of the server's", when they differ by over a minute. */
    describeSkew(server) {
        const offset = this.#offsetMs;
        if (offset === undefined || Math.abs(offset) < 60_000)
            return undefined;
        return `the runner's clock is ${(0,duration/* formatDuration */.a3)(Math.abs(offset))} ${offset < 0 ? 'ahead of' : 'behind'} ${server}'s (from its Date header)`;
    }
}
/**
 * Retry-After as seconds or as an HTTP date, in ms. A date is read against the same
 * response's Date header when there is one, so a runner clock that is off does not
 * stretch or cut the wait.
 */
function retryAfterMs(headers, clock) {
    const text = header(headers, 'retry-after')?.trim();
    if (text === undefined)
        return undefined;
    if (/^\d+(\.\d+)?$/.test(text))
        return Math.round(Number(text) * 1000);
    const at = Date.parse(text);
    if (Number.isNaN(at))
        return undefined;
    const now = Date.parse(header(headers, 'date') ?? '');
    return Math.max(0, at - (Number.isNaN(now) ? clock.now() : now));
}
const UNKNOWN_ISSUER = new Set([
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'UNABLE_TO_GET_ISSUER_CERT',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'CERT_UNTRUSTED',
]);
const CERT_DATES = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const TLS_OTHER = new Set([
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'UND_ERR_PRX_TLS',
    'CERT_REJECTED',
    'CERT_SIGNATURE_FAILURE',
    'CERT_REVOKED',
    'EPROTO',
    'ERR_SSL_WRONG_VERSION_NUMBER',
    'ERR_SSL_PACKET_LENGTH_TOO_LONG',
]);
const TIMEOUTS = new Set([
    'UND_ERR_CONNECT_TIMEOUT',
    'UND_ERR_HEADERS_TIMEOUT',
    'UND_ERR_BODY_TIMEOUT',
    'ETIMEDOUT',
]);
/** Connection failures that, with a proxy set, are the proxy's. */
const CONNECTING = new Set([
    'ECONNREFUSED',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'UND_ERR_CONNECT_TIMEOUT',
]);
/** A connection closed or reset by the other end. */
const CLOSED = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);
/** What to check when the proxy does not answer CONNECT as an HTTP proxy does. */
const PROXY_SCHEME_ADVICE = "Check the proxy URL's scheme and port in HTTPS_PROXY (or ALL_PROXY): a proxy that speaks TLS on that port is written https://, a SOCKS5 proxy socks5://.";
/** `err` and its causes, four at most (undici and fetch wrap an error in another). */
function* causeChain(err) {
    let current = err;
    for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
        yield current;
        current = current.cause;
    }
}
function codesOf(err) {
    const codes = [];
    for (const error of causeChain(err)) {
        const code = error.code;
        if (typeof code === 'string')
            codes.push(code);
    }
    return codes;
}
/** `err`, or the first error of its causes, that is a `kind`. */
function causeOfKind(err, kind) {
    for (const error of causeChain(err))
        if (error instanceof kind)
            return error;
    return undefined;
}
function messageOf(err) {
    const message = err?.message;
    return typeof message === 'string' ? message : String(err);
}
/**
 * Classifies a failed request by its error codes (never by its message): TLS, proxy and
 * DNS failures are not transient, since trying again cannot fix a missing CA, refused
 * proxy credentials or a host name that does not resolve.
 */
function classifyNetworkError(err, request) {
    if (err instanceof ProxyTunnelRefused)
        return proxyRefusal(err.status, err.proxy, request.host);
    const codes = codesOf(err);
    const socks = codes.find((c) => c.startsWith(SOCKS5_ERROR));
    if (request.proxy !== undefined && socks !== undefined) {
        return socksRefusal(socks, messageOf(err), request.proxy, request.host);
    }
    // The failure's own code, not the wrapper's that says whose it was.
    const own = codes.filter((c) => c !== PROXY_CONNECTION_FAILED);
    const code = own.find((c) => c !== 'UND_ERR_SOCKET') ?? own[0] ?? codes[0];
    const detail = `${code ?? 'error'}: ${messageOf(err)}`;
    const has = (set) => codes.some((c) => set.has(c));
    // The TLS of an https:// proxy itself (before any tunnel, or carrying a plain-http
    // request): the proxy's certificate.
    const proxyTls = causeOfKind(err, ProxyConnectionFailed)?.proxy ??
        (request.plainHttp === true && request.proxy?.protocol === 'https:'
            ? request.proxy
            : undefined);
    const tlsPeer = proxyTls
        ? { host: hostOf(proxyTls), named: `the proxy ${describeProxy(proxyTls)}` }
        : { host: request.host, named: request.host };
    if (has(UNKNOWN_ISSUER)) {
        return {
            kind: 'tls',
            transient: false,
            code,
            summary: `the TLS certificate of ${tlsPeer.named} is not signed by a CA this runner trusts (${code})`,
            advice: `If ${tlsPeer.host} (or a proxy that inspects TLS) uses a private or corporate CA, give the runner that CA's certificate: set NODE_EXTRA_CA_CERTS to the path of a PEM file holding it. Do not turn off certificate checks.`,
        };
    }
    if (has(CERT_DATES)) {
        return {
            kind: 'tls',
            transient: false,
            code,
            summary: `the TLS certificate of ${tlsPeer.named} is outside its validity dates (${code})`,
            advice: `Check the runner's clock, and that ${tlsPeer.host} serves a current certificate.`,
        };
    }
    if (has(TLS_OTHER)) {
        return {
            kind: 'tls',
            transient: false,
            code,
            summary: `the TLS handshake with ${tlsPeer.named} failed (${detail})`,
            advice: code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'UND_ERR_PRX_TLS'
                ? `The certificate is for another host name: check the URL's host name.`
                : `Check that the URL's scheme and port match the server (https to a TLS port).`,
        };
    }
    if (request.proxy !== undefined && has(CONNECTING)) {
        const proxy = describeProxy(request.proxy);
        const refused = codes.includes('ECONNREFUSED');
        const unknown = codes.includes('ENOTFOUND');
        return {
            kind: 'proxy',
            transient: !(refused || unknown),
            code,
            summary: refused
                ? `the proxy ${proxy} refused the connection (${code})`
                : unknown
                    ? `the proxy's host name ${request.proxy.hostname} does not resolve (${code})`
                    : codes.includes('EAI_AGAIN')
                        ? `the proxy's host name ${request.proxy.hostname} did not resolve: the runner's DNS failed for now (${code})`
                        : `the proxy ${proxy} could not be reached (${code})`,
            advice: `Check the proxy in HTTPS_PROXY/HTTP_PROXY (or ALL_PROXY), or list ${request.host.replace(/:\d+$/, '')} in NO_PROXY if it is reachable directly.`,
        };
    }
    const tunnel = causeOfKind(err, ProxyConnectionFailed);
    // undici's parse errors carry no HPE_ code (7.x), so they are known by their class.
    const unparsed = causeOfKind(err, undici/* errors */.sO.HTTPParserError) !== undefined ||
        codes.some((c) => c.startsWith('HPE_'));
    if (tunnel !== undefined && unparsed) {
        return {
            kind: 'proxy',
            transient: false,
            code,
            summary: `the proxy ${describeProxy(tunnel.proxy)} did not answer CONNECT as an HTTP proxy does (${messageOf(err)})`,
            advice: `Is it a SOCKS proxy, or TLS on this port? ${PROXY_SCHEME_ADVICE}`,
        };
    }
    if (tunnel !== undefined && has(CLOSED)) {
        return {
            kind: 'proxy',
            transient: false,
            code,
            summary: `the proxy ${describeProxy(tunnel.proxy)} closed the connection without answering CONNECT (${code})`,
            advice: PROXY_SCHEME_ADVICE,
        };
    }
    if (codes.includes('ENOTFOUND')) {
        return {
            kind: 'dns',
            transient: false,
            code,
            summary: `the host name ${request.host.replace(/:\d+$/, '')} does not resolve from this runner (${code})`,
            advice: "Check the host name in the URL and the runner's DNS; a network that reaches out only through a proxy needs HTTPS_PROXY.",
        };
    }
    if (codes.includes('EAI_AGAIN')) {
        return {
            kind: 'dns',
            transient: true,
            code,
            summary: `the host name ${request.host.replace(/:\d+$/, '')} did not resolve: the runner's DNS failed for now (${code})`,
            advice: "Check the runner's DNS resolver: it kept failing to answer for this name, which may well exist.",
        };
    }
    if (has(TIMEOUTS)) {
        return { kind: 'timeout', transient: true, code, summary: `no answer in time (${detail})` };
    }
    // zlib's codes: the body came, declared compressed, and does not decompress.
    const zlibCode = codes.find((c) => c.startsWith('Z_'));
    if (zlibCode !== undefined) {
        return {
            kind: 'broken',
            transient: true,
            code: zlibCode,
            summary: `the answer's compressed body does not decompress (${zlibCode}: ${messageOf(err)})`,
        };
    }
    if (codes.includes('ECONNREFUSED')) {
        return {
            kind: 'refused',
            transient: true,
            code,
            summary: `the connection was refused (${detail})`,
        };
    }
    return { kind: 'broken', transient: true, code, summary: `the connection failed (${detail})` };
}
/**
 * An error answer that the proxy itself wrote (not the server behind it): squid marks its
 * pages with X-Squid-Error, proxies that follow RFC 9209 send Proxy-Status, and tinyproxy
 * names itself as the server (it passes on the server's own Server header untouched).
 */
function answeredByProxy(headers) {
    return (header(headers, 'x-squid-error') !== undefined ||
        header(headers, 'proxy-status') !== undefined ||
        /^tinyproxy\//i.test(header(headers, 'server') ?? ''));
}
/**
 * A proxy's own refusal (a CONNECT answered with an error, or a 407 to a plain request).
 * A 401 from the proxy itself is a refusal of its credentials too: tinyproxy answers wrong
 * ones with 401, not 407.
 */
function proxyRefusal(status, proxy, host) {
    const name = describeProxy(proxy);
    const withCredentials = proxy.username !== '' || proxy.password !== '';
    if (status === 407 || status === 401) {
        return {
            kind: 'proxy',
            transient: false,
            code: `HTTP ${status}`,
            status,
            summary: `the proxy ${name} requires authentication (HTTP ${status})`,
            advice: credentialsAdvice(proxy, withCredentials),
        };
    }
    if (status === 403) {
        return {
            kind: 'proxy',
            transient: false,
            code: 'HTTP 403',
            status,
            summary: `the proxy ${name} refused to connect to ${host} (HTTP 403)`,
            advice: accessRulesAdvice(host),
        };
    }
    return {
        kind: 'proxy',
        transient: status >= 500,
        code: `HTTP ${status}`,
        status,
        summary: `the proxy ${name} could not connect to ${host} (HTTP ${status})`,
        ...(status >= 500 ? {} : { advice: `Check the proxy settings for ${host}.` }),
    };
}
/**
 * What to do about a proxy asking for credentials: correct the ones in its URL, or put
 * some there, written as a URL of its own scheme.
 */
function credentialsAdvice(proxy, withCredentials) {
    const form = `${proxy.protocol === 'socks5:' ? 'socks5' : 'http'}://user:password@host:port`;
    return withCredentials
        ? `The proxy refused the user name and password in the proxy URL: correct them (${form}, percent-encoding special characters).`
        : `Put the proxy credentials in the proxy URL of the variable that names it (HTTPS_PROXY, HTTP_PROXY or ALL_PROXY): ${form} (percent-encode special characters; keep it in a secret).`;
}
/** What to do about a proxy whose rules refuse `host`. */
function accessRulesAdvice(host) {
    return `The proxy's access rules do not allow ${host}: ask its administrators to allow it, or list the host in NO_PROXY if it is reachable directly.`;
}
/** The prefix of undici's codes for a SOCKS5 proxy's refusals and replies. */
const SOCKS5_ERROR = 'UND_ERR_SOCKS5';
/**
 * A SOCKS5 proxy's refusal, by undici's code: of the credentials (not transient, as with
 * an HTTP proxy's 407), of the target by its rules, or of a target it could not reach
 * (its reply codes 3 to 5: tried again, as a connection refused directly would be).
 */
function socksRefusal(code, message, proxy, host) {
    const name = describeProxy(proxy);
    const withCredentials = proxy.username !== '' || proxy.password !== '';
    const failure = { kind: 'proxy', code };
    if (code === `${SOCKS5_ERROR}_AUTH_FAILED` || code === `${SOCKS5_ERROR}_AUTH_REJECTED`) {
        return {
            ...failure,
            transient: false,
            summary: `the proxy ${name} requires authentication (${code}: ${message})`,
            advice: withCredentials && code === `${SOCKS5_ERROR}_AUTH_REJECTED`
                ? 'The proxy takes no user name and password: remove them from the proxy URL, or check that it is the proxy meant.'
                : credentialsAdvice(proxy, withCredentials),
        };
    }
    const reply = /_REPLY_(\d+)$/.exec(code)?.[1];
    if (reply === '2') {
        return {
            ...failure,
            transient: false,
            summary: `the proxy ${name} refused to connect to ${host} (${code}: ${message})`,
            advice: accessRulesAdvice(host),
        };
    }
    if (reply !== undefined && Number(reply) <= 6) {
        return {
            ...failure,
            transient: true,
            summary: `the proxy ${name} could not connect to ${host} (${code}: ${message})`,
        };
    }
    return {
        ...failure,
        transient: false,
        summary: `the proxy ${name} did not answer as a SOCKS5 proxy this action can use (${code}: ${message})`,
        advice: 'Check that the proxy URL names a SOCKS5 proxy, or use an HTTP proxy.',
    };
}
/** The host:port of a URL, for messages. */
function hostOf(url) {
    return url.port !== '' ? url.host : `${url.host}:${url.protocol === 'https:' ? 443 : 80}`;
}

// EXTERNAL MODULE: ./.build/net.js
var net = __webpack_require__(8213);
// EXTERNAL MODULE: ./.build/redact.js
var redact = __webpack_require__(7437);
;// CONCATENATED MODULE: ./.build/retry.js

/** Network and server failures of the API and the storage alike: five minutes of outage. */
const OUTAGE_BUDGET = {
    outageMs: 5 * 60_000,
    baseDelayMs: 500,
    maxDelayMs: 15_000,
};
/** A try needs at least this much time left before the deadline to be worth making. */
const MIN_TRY_MS = 250;
/** Exponential backoff with full jitter: a random delay in [50, min(max, base·2^(n-1))). */
function backoffDelay(failure, budget, random) {
    const ceiling = Math.min(budget.maxDelayMs, budget.baseDelayMs * 2 ** Math.max(0, failure - 1));
    // Never zero: two callers that both drew 0 would retry in lockstep.
    return Math.max(50, Math.floor(random() * ceiling));
}
/**
 * How a 429 is tried again, from the API or the storage: until the deadline (a rate limit
 * is not an outage), and a second more than the backoff, so that no wait after one is
 * under a second, as far as the deadline allows.
 */
const RATE_LIMITED = { untilDeadline: true, extraDelayMs: 1000, rateLimited: true };
/**
 * The one retry schedule of the action, for the API client, the download and the bundle
 * wait alike: each caller judges its own failures, calls `failed` for those worth another
 * try (it sleeps, or says why it gives up), and `succeeded` whenever progress is made.
 */
class RetrySchedule {
    #options;
    #failures = 0;
    #firstFailureAt;
    /** Time the server asked to wait, not counted as outage (ms). */
    #askedMs = 0;
    constructor(options) {
        this.#options = { ...options, budget: options.budget ?? OUTAGE_BUDGET };
    }
    /** Failures in the current run (0 after progress). */
    get failures() {
        return this.#failures;
    }
    /** Progress was made: the next failure starts a new run with a fresh budget. */
    succeeded() {
        this.#failures = 0;
        this.#firstFailureAt = undefined;
        this.#askedMs = 0;
    }
    #backoff(failure) {
        const { budget, random } = this.#options;
        return (failure.extraDelayMs ?? 0) + backoffDelay(this.#failures, budget, random);
    }
    /** Waits before the next try; returns why not instead when the budget or deadline is spent. */
    async failed(failure) {
        const { clock, budget } = this.#options;
        const now = clock.now();
        this.#failures += 1;
        this.#firstFailureAt ??= now;
        const elapsedMs = now - this.#firstFailureAt;
        const stop = (why) => ({
            why,
            attempts: this.#failures,
            elapsedMs,
            ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
        });
        const deadline = this.#options.deadline?.();
        const left = deadline === undefined ? Infinity : deadline - now;
        let outageLeft = failure.untilDeadline
            ? Infinity
            : this.#firstFailureAt + budget.outageMs + this.#askedMs - now;
        let delayMs;
        if (failure.retryAfterMs !== undefined) {
            // Trying earlier than the server asked is pointless, so the wait is not shortened.
            if (failure.retryAfterMs + MIN_TRY_MS > left)
                return stop('deadline');
            if (deadline !== undefined) {
                // A server that names when it is back (a maintenance window) is waited for, up to
                // the run's deadline: its wait is no part of the outage.
                this.#askedMs += failure.retryAfterMs;
                outageLeft += failure.retryAfterMs;
            }
            else if (failure.retryAfterMs > outageLeft) {
                // Without a deadline, nothing else would bound the waits.
                return stop('outage');
            }
            const room = Math.min(left, outageLeft) - MIN_TRY_MS;
            // Nor is it shorter than the backoff: a server answering "Retry-After: 0" (or a date
            // already past) again and again would otherwise be asked in a tight loop.
            const backoff = room < MIN_TRY_MS ? 0 : this.#backoff(failure);
            delayMs = Math.max(failure.retryAfterMs, Math.min(backoff, room));
        }
        else {
            const room = Math.min(left, outageLeft) - MIN_TRY_MS;
            if (room < MIN_TRY_MS)
                return stop(left <= outageLeft ? 'deadline' : 'outage');
            delayMs = Math.min(this.#backoff(failure), room);
        }
        const rateLimit = !failure.rateLimited
            ? {}
            : {
                rateLimit: failure.retryAfterMs !== undefined
                    ? { askedMs: failure.retryAfterMs }
                    : { capMs: (failure.extraDelayMs ?? 0) + budget.maxDelayMs },
            };
        this.#options.onRetry?.({
            attempt: this.#failures + 1,
            delayMs,
            reason: failure.reason,
            ...rateLimit,
        });
        await clock.sleep(delayMs, this.#options.signal);
        return undefined;
    }
}
/** A server's wait in whole seconds; one past a day (a broken header) is not spelled out. */
function askedWait(ms) {
    return ms > 86_400_000 ? 'over a day' : `${Math.ceil(ms / 1000)}s`;
}
/** "for 4.2 s over 6 attempts", "the run's timeout leaves no time…": why the tries ended. */
function describeGiveUp(stop) {
    const tries = `${stop.attempts} attempt${stop.attempts === 1 ? '' : 's'}`;
    if (stop.why === 'deadline') {
        return `The run's timeout leaves no time to try again${stop.retryAfterMs !== undefined
            ? ` (the server asked to wait ${askedWait(stop.retryAfterMs)})`
            : ''}; gave up after ${tries}.`;
    }
    return `Gave up after ${tries} over ${(0,duration/* formatDuration */.a3)(stop.elapsedMs)}${stop.retryAfterMs !== undefined
        ? ` (the server asked to wait ${askedWait(stop.retryAfterMs)} more)`
        : ''}.`;
}

// EXTERNAL MODULE: ./.build/api/errors.js
var api_errors = __webpack_require__(3698);
;// CONCATENATED MODULE: ./.build/api/retry.js
/** Reads (and calls that only hand out a fresh link) are safe to repeat. */
const REPEATABLE = {
    statuses: new Set([408, 429, 500, 502, 503, 504]),
    once: false,
    afterSuccess: true,
};
/**
 * A second export of the same site only costs the service work: a start that a gateway
 * answered (502, 503, 504), or that broke off, is sent again even when the service may
 * have acted on it; the run follows the job of the answer it gets, and the other runs to
 * its end unused. A 500 is the API saying, in its own words, that it failed this request,
 * maybe after making the job and maybe every time: retried through the outage budget, on
 * the published routes (no 409 for a second export), it could start an unused export per
 * try. A start whose 202 arrived has started its job.
 */
const START_EXPORT = {
    statuses: new Set([429, 502, 503, 504]),
    once: false,
    afterSuccess: false,
};
/**
 * A second agent job would open a second pull request, and a follow-up sent twice is
 * acted on twice: only what proves the service did not act is tried again.
 */
const CREATE_ONCE = {
    statuses: new Set([429, 503]),
    once: true,
    afterSuccess: false,
};
/**
 * Network failures before any connection was made, to the API or a proxy: refused, or a
 * host name that did not resolve (for good, or for now).
 */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * Whether a failed call provably was not acted on: a rate limit (refused before any work),
 * a 503 in the API's own words (its `{ "error" }` body) or with a Retry-After (the server
 * asks to come back later), or a connection never made (the request never left the runner).
 * A 502 or 504, a proxy's 503 page, a 500, a reset or a timeout may come after the service
 * acted: a gateway that gave up waiting, or an answer lost on the way back.
 */
function notActedOn(failure) {
    if (failure.status === undefined)
        return failure.code !== undefined && NEVER_SENT.has(failure.code);
    if (failure.kind === 'proxy')
        return false;
    if (failure.status === 429)
        return true;
    return failure.status === 503 && (failure.fromApi || failure.retryAfterMs !== undefined);
}
/**
 * A 404 about a job this run has just created, before any call has found it: behind a
 * load balancer, a replica that has not seen the job yet answers for it. A few seconds of
 * the usual backoff, then the 404 stands.
 */
const JUST_CREATED_BUDGET = {
    outageMs: 10_000,
    baseDelayMs: 500,
    maxDelayMs: 4000,
};

// EXTERNAL MODULE: ./.build/api/schemas.js
var schemas = __webpack_require__(4137);
;// CONCATENATED MODULE: ./.build/api/client.js












/** Bodies bigger than this are not read: no legitimate answer of this API comes close. */
const MAX_BODY_BYTES = 1024 * 1024;
/** The inputs each request field comes from, for the advice on a 400. */
const START_FIELDS = { domain: 'domain', version: 'docs-version', paths: 'export-paths' };
const AGENT_FIELDS = { prompt: 'prompt', projectId: 'project-id', project: 'project-id' };
/** The admin API: static export and agent jobs, over one undici dispatcher. */
class AdminApi {
    #options;
    /** The API server's clock, from its Date headers. */
    serverTime;
    /** Decided by the first export call that got an answer other than "no such route". */
    #exportRoutes;
    /** The operation of a call sent at most once whose request is out without an answer. */
    #unanswered;
    /** Whether a call has had a usable answer: the API is where `base-url` says. */
    #answered = false;
    /**
     * Jobs this client created that no call has found yet, with the clock time of their
     * creation: a 404 about one is a replica that has not seen it yet, for a while.
     */
    #created = new Map();
    constructor(options) {
        const checked = (0,net/* parseServiceUrl */.iO)(options.baseUrl.href);
        if (!(checked instanceof URL))
            throw new errors/* ActionError */.lZ(`base-url ${checked.reason}.`);
        const redactor = options.redactor ?? new redact/* Redactor */.pO();
        redactor.add(options.apiKey);
        this.#options = {
            ...options,
            dispatcher: options.dispatcher ?? new ProxyRoutes(),
            clock: options.clock ?? _build_clock/* systemClock */.m,
            random: options.random ?? Math.random,
            requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
            userAgent: options.userAgent ?? 'static-export-action',
            redactor,
        };
        this.serverTime = new ServerTime(this.#options.clock);
    }
    /** Whether `text` holds the API key, as it is or percent-encoded: it goes to the API only. */
    holdsKey(text) {
        const key = this.#options.apiKey;
        return key !== '' && (text.includes(key) || text.includes(encodeURIComponent(key)));
    }
    /** Later calls stop retrying once this clock time has passed. */
    set deadline(at) {
        this.#options.deadline = at;
    }
    /**
     * The operation of a call that is sent at most once (an agent job creation, a follow-up)
     * whose request went out and was cut off before its answer, by a cancel or the run's
     * timeout: the server may have acted on it.
     */
    get unanswered() {
        return this.#unanswered;
    }
    /** The export routes in use, once an export call has been answered. */
    get exportRoutes() {
        return this.#exportRoutes;
    }
    async startExport(request, signal) {
        const body = { domain: request.domain };
        if (request.version !== undefined)
            body.version = request.version;
        if (request.paths !== undefined)
            body.paths = request.paths;
        const job = await this.#exportCall(request.projectId, (prefix) => ({
            method: 'POST',
            path: prefix,
            body,
            schema: schemas/* exportJobSchema */.bf,
            operation: `start the static export of ${request.domain}`,
            retry: START_EXPORT,
            inputs: START_FIELDS,
            notFound: (0,api_errors/* notFoundAdvice */.yD)(),
            cutOff: 'The export job was started all the same, and runs to its end on the server, but its id was in the lost part: running again starts another export.',
            actedAnyway: 'The failed try may have started an export all the same: that one then runs to its end on the server, unused.',
            refusedAfterActed: (earlier) => `The export it names was probably started by this run's earlier attempt (${earlier}), though its answer was lost. It runs on the server to its end: to use it rather than wait for it and start another, run again with \`job-id\` set to its id (in the service's words above, or on the dashboard).`,
        }), signal);
        this.#created.set(exportJob(job.jobId), this.#options.clock.now());
        return job;
    }
    getExportJob(jobId, projectId, signal) {
        return this.#exportCall(projectId, (prefix) => ({
            method: 'GET',
            path: `${prefix}/${segment(jobId, 'export job id')}`,
            schema: schemas/* exportJobSchema */.bf,
            operation: `read export job ${jobId}`,
            retry: REPEATABLE,
            job: exportJob(jobId),
        }), signal);
    }
    /** Each call hands out a fresh presigned link for the same finished job. */
    createBundle(jobId, projectId, signal) {
        return this.#exportCall(projectId, (prefix) => ({
            method: 'POST',
            path: `${prefix}/${segment(jobId, 'export job id')}/bundle`,
            schema: schemas/* bundleLinkSchema */.eV,
            operation: `generate the bundle link of export job ${jobId}`,
            retry: REPEATABLE,
            job: exportJob(jobId),
        }), signal);
    }
    async createAgentJob(projectId, prompt, signal) {
        const job = await this.#call({
            method: 'POST',
            path: `/v2/agent/${segment(projectId, 'project id')}/job`,
            body: { prompt },
            schema: schemas/* agentJobSchema */.cs,
            operation: `create an agent job in project ${projectId}`,
            forbidden: api_errors/* AGENT_FORBIDDEN */.K_,
            retry: CREATE_ONCE,
            inputs: AGENT_FIELDS,
            notFound: (0,api_errors/* notFoundAdvice */.yD)('`project-id` (a project of that organization)'),
        }, signal);
        this.#created.set(agentJob(projectId, job.id), this.#options.clock.now());
        return job;
    }
    getAgentJob(projectId, id, signal) {
        return this.#call({
            method: 'GET',
            path: `/v2/agent/${segment(projectId, 'project id')}/job/${segment(id, 'agent job id')}`,
            schema: (0,schemas/* agentJobAnswer */.j0)(id),
            operation: `read agent job ${id}`,
            forbidden: api_errors/* AGENT_FORBIDDEN */.K_,
            retry: REPEATABLE,
            job: agentJob(projectId, id),
        }, signal);
    }
    /**
     * A follow-up instruction to an existing agent job (200, the job; 400, 404, 429, which
     * shares the hourly limit of creations). Sent at most once, like a creation: a second
     * delivery would have the agent act on it twice.
     */
    sendAgentMessage(projectId, id, prompt, signal) {
        return this.#call({
            method: 'POST',
            path: `/v2/agent/${segment(projectId, 'project id')}/job/${segment(id, 'agent job id')}/message`,
            body: { prompt },
            schema: (0,schemas/* agentJobAnswer */.j0)(id),
            operation: `send a follow-up to agent job ${id}`,
            forbidden: api_errors/* AGENT_FORBIDDEN */.K_,
            retry: CREATE_ONCE,
            inputs: AGENT_FIELDS,
        }, signal);
    }
    /**
     * An export call on the published routes; with a project, on the project-scoped ones
     * when the published ones answer that the route does not exist (404 or 405).
     */
    async #exportCall(projectId, callAt, signal) {
        const published = '/v1/static-export/jobs';
        if (this.#exportRoutes === 'project' && projectId !== undefined) {
            return this.#call(callAt(`/v1/static-export/${segment(projectId, 'project id')}/jobs`), signal);
        }
        try {
            const answer = await this.#call(callAt(published), signal);
            this.#exportRoutes = 'published';
            return answer;
        }
        catch (err) {
            const noSuchRoute = err instanceof api_errors/* ApiError */.hD && (err.status === 404 || err.status === 405);
            if (!noSuchRoute || projectId === undefined || this.#exportRoutes === 'published')
                throw err;
            let answer;
            try {
                answer = await this.#call(callAt(`/v1/static-export/${segment(projectId, 'project id')}/jobs`), signal);
            }
            catch (scopedErr) {
                // Both 404: the published route's answer is the one to show.
                if (scopedErr instanceof api_errors/* ApiError */.hD && scopedErr.status === 404)
                    throw err;
                throw scopedErr;
            }
            this.#exportRoutes = 'project';
            return answer;
        }
    }
    async #call(request, signal) {
        const { clock, random, redactor } = this.#options;
        // The operation names ids the caller passed in; a key pasted there must not leak.
        const call = { ...request, operation: redactor.redact(request.operation) };
        /** The last attempt that failed in a way the server may have acted on anyway. */
        let maybeActed;
        /** Said with the next try: what the failed one may have left behind. */
        let note;
        const retries = (budget) => new RetrySchedule({
            clock,
            random,
            ...(budget ? { budget } : {}),
            deadline: () => this.#options.deadline,
            ...(signal ? { signal } : {}),
            onRetry: (event) => this.#options.onRetry?.({
                operation: call.operation,
                ...event,
                ...(note !== undefined ? { note } : {}),
            }),
        });
        const schedule = retries(this.#options.budget);
        /** 404s about a job this run has just created: not seen by every replica yet. */
        const notYetKnown = retries(JUST_CREATED_BUDGET);
        for (;;) {
            (0,errors/* throwIfAborted */.Te)(signal);
            let failure;
            try {
                const answer = await this.#send(call, signal);
                if (call.job !== undefined)
                    this.#created.delete(call.job);
                return answer;
            }
            catch (err) {
                if (!(err instanceof api_errors/* ApiError */.hD))
                    throw err;
                failure = err;
            }
            const { job } = call;
            const createdAt = job !== undefined ? this.#created.get(job) : undefined;
            if (failure.status === 404 && job !== undefined && createdAt !== undefined) {
                const stop = await notYetKnown.failed({
                    reason: `HTTP 404${failure.detail ? ` (${failure.detail})` : ''}, just after this run created the job`,
                });
                if (!stop)
                    continue;
                throw failure.withMessage(`Could not ${call.operation} (HTTP 404${failure.detail ? `: ${failure.detail}` : ''}): the service does not know ${redactor.redact(call.job ?? '')}, though it gave this run that id when the job was created ${(0,duration/* formatDuration */.a3)(clock.now() - createdAt)} before. ${describeGiveUp(stop)}`);
            }
            if (!isRetryable(call.retry, failure)) {
                if (schedule.failures === 0)
                    throw failure;
                const attempts = `after ${schedule.failures + 1} attempts`;
                // A start refused as a second one is most likely refused for this run's own first:
                // the generic advice (wait, then run again) would start yet another.
                if (failure.status === 409 && maybeActed !== undefined && call.refusedAfterActed) {
                    const words = failure.detail ? `: ${failure.detail}` : '';
                    throw failure.withMessage(`Could not ${call.operation} (HTTP 409${words}) ${attempts}. ${call.refusedAfterActed(maybeActed)}`);
                }
                throw failure.withMessage(`${failure.message} (${attempts})`);
            }
            note = undefined;
            if (!call.retry.afterSuccess && !notActedOn(failure)) {
                maybeActed = failure.status !== undefined ? `HTTP ${failure.status}` : failure.kind;
                note = call.actedAnyway;
            }
            const stop = await schedule.failed({
                reason: failure.status !== undefined
                    ? `HTTP ${failure.status}${failure.detail ? ` (${failure.detail})` : ''}`
                    : (failure.detail ?? failure.kind),
                ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
                ...(failure.status === 429 ? RATE_LIMITED : {}),
            });
            if (stop)
                throw failure.withMessage(`${failure.message} ${describeGiveUp(stop)}`);
        }
    }
    async #send(call, signal) {
        const { baseUrl, apiKey, dispatcher, requestTimeoutMs, redactor, clock } = this.#options;
        const url = new URL(baseUrl);
        url.pathname = `${baseUrl.pathname.replace(/\/+$/, '')}${call.path}`;
        const proxy = proxyOf(dispatcher, url);
        const started = clock.now();
        const once = call.retry.once;
        if (once)
            this.#unanswered = call.operation;
        let response;
        try {
            response = await (0,undici/* request */.Em)(url, {
                method: call.method,
                dispatcher,
                headers: {
                    authorization: `Bearer ${apiKey}`,
                    accept: 'application/json',
                    'accept-encoding': 'identity',
                    'user-agent': this.#options.userAgent,
                    ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
                },
                body: call.body !== undefined ? JSON.stringify(call.body) : undefined,
                headersTimeout: requestTimeoutMs,
                bodyTimeout: requestTimeoutMs,
                ...(signal ? { signal } : {}),
            });
        }
        catch (err) {
            if (signal?.aborted)
                throw (0,errors/* abortReason */.Js)(signal);
            // Not cut off: the failure itself says what it means for a call that must not run twice.
            if (once)
                this.#unanswered = undefined;
            throw networkError(call, err, redactor, url, proxy);
        }
        this.serverTime.observe(response.headers);
        const { statusCode } = response;
        let text;
        let truncated;
        try {
            ({ text, truncated } = await readDecodedText(response.body, response.headers, MAX_BODY_BYTES));
        }
        catch (err) {
            if (signal?.aborted)
                throw (0,errors/* abortReason */.Js)(signal);
            if (once)
                this.#unanswered = undefined;
            if (!call.retry.afterSuccess && statusCode >= 200 && statusCode < 300) {
                throw cutOffAnswer(call, statusCode, networkError(call, err, redactor, url, proxy));
            }
            throw networkError(call, err, redactor, url, proxy);
        }
        if (once)
            this.#unanswered = undefined;
        const contentType = header(response.headers, 'content-type');
        this.#options.debug?.(`${call.method} ${url.pathname} → ${statusCode} (${clock.now() - started} ms, ${text.length} bytes)`);
        if (proxy !== undefined &&
            (statusCode === 407 || (statusCode >= 400 && answeredByProxy(response.headers)))) {
            const refusal = proxyRefusal(statusCode, proxy, hostOf(url));
            throw new api_errors/* ApiError */.hD(`Could not ${call.operation}: ${refusal.summary}. ${refusal.advice ?? ''}`.trim(), { kind: 'proxy', status: statusCode, transient: refusal.transient });
        }
        if (statusCode >= 300 && statusCode < 400) {
            const location = header(response.headers, 'location');
            const target = location === undefined
                ? 'nowhere'
                : URL.canParse(location, url.href)
                    ? (0,net/* withoutQuery */.j$)(new URL(location, url))
                    : 'an address that is not a URL';
            throw new api_errors/* ApiError */.hD(redactor.redact(`Could not ${call.operation}: the API answered HTTP ${statusCode}, a redirect to ${target}. The key is never sent to another address: set \`base-url\` to the address the API really answers on.`), { kind: 'redirect', status: statusCode });
        }
        if (statusCode < 200 || statusCode >= 300) {
            const detail = redactor.redact((0,api_errors/* summarizeBody */.GV)(text, contentType));
            const waitMs = retryAfterMs(response.headers, clock);
            throw new api_errors/* ApiError */.hD(redactor.redact((0,api_errors/* describeStatus */.Wn)(call.operation, statusCode, detail, call.inputs, call.notFound, call.forbidden)), {
                kind: (0,api_errors/* kindOfStatus */.o3)(statusCode),
                status: statusCode,
                detail,
                fromApi: (0,api_errors/* isApiErrorBody */.Ty)(text),
                ...(waitMs !== undefined ? { retryAfterMs: waitMs } : {}),
            });
        }
        // An error page is judged by its status and its start; an answer must be read whole.
        if (truncated) {
            throw new api_errors/* ApiError */.hD(`Could not ${call.operation}: the API answered HTTP ${statusCode} with a body larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB, far beyond any answer of this API. Check \`base-url\`: it must point at the admin API.`, { kind: 'invalid-response', status: statusCode });
        }
        let json;
        try {
            // RFC 8259 8.1: a parser may ignore a byte order mark, and jq does.
            json = JSON.parse(text.replace(/^\uFEFF/, ''));
        }
        catch {
            // Once the API has answered, a page that is not JSON is something in between (a
            // proxy, a captive portal, a gateway cutting the body): a read asks again.
            const advice = this.#answered
                ? 'The same `base-url` answered before: something between the runner and the API (a proxy, a gateway) answered instead.'
                : 'Check `base-url`: it must point at the admin API.';
            throw new api_errors/* ApiError */.hD(`Could not ${call.operation}: the API answered HTTP ${statusCode} with a body that is not JSON (${redactor.redact((0,api_errors/* summarizeBody */.GV)(text, contentType)) || 'empty'}). ${advice}`, { kind: 'invalid-response', status: statusCode, transient: this.#answered });
        }
        const parsed = call.schema.safeParse(json);
        if (!parsed.success) {
            throw new api_errors/* ApiError */.hD(`Could not ${call.operation}: the API's answer is not usable (${describeIssue(parsed.error.issues[0])}).`, { kind: 'invalid-response', status: statusCode });
        }
        this.#answered = true;
        return parsed.data;
    }
}
/** An export job, as `#created` keys it and a message names it. */
const exportJob = (jobId) => `export job ${jobId}`;
/** An agent job, as `#created` keys it and a message names it: ids are a project's. */
const agentJob = (projectId, id) => `agent job ${id} of project ${projectId}`;
/** An id as one path segment, or a refusal when it would change the request's path. */
function segment(id, what) {
    const checked = (0,schemas/* pathSegment */.pn)(id);
    if (checked === undefined) {
        throw new api_errors/* ApiError */.hD(`The ${what} ${JSON.stringify(id.slice(0, 80))} would change the request path (it holds a slash, a backslash, control characters or is "." or ".."): refusing to send it.`, { kind: 'invalid-response' });
    }
    return encodeURIComponent(checked);
}
function isRetryable(policy, failure) {
    if (policy.once && !notActedOn(failure))
        return false;
    if (failure.status !== undefined) {
        if (failure.kind === 'redirect')
            return false;
        // A success that is not the API's answer, after the API has answered: a read asks again.
        if (failure.kind === 'invalid-response')
            return failure.transient && policy.afterSuccess;
        // A proxy's own 5xx (it could not reach the API) is a gateway error like any other.
        if (failure.kind === 'proxy' && !failure.transient)
            return false;
        return policy.statuses.has(failure.status);
    }
    return failure.transient;
}
/**
 * A call that makes something, answered with a success whose body was cut off: it is not
 * sent again, since the server has acted on it.
 */
function cutOffAnswer(call, status, cut) {
    return new api_errors/* ApiError */.hD(`Could not ${call.operation}: the API answered HTTP ${status}, but its answer was cut off (${cut.detail ?? cut.kind}).${call.cutOff ? ` ${call.cutOff}` : ''}`, { kind: 'invalid-response', status, ...(cut.detail ? { detail: cut.detail } : {}), cause: cut });
}
const NETWORK_KIND = {
    tls: 'tls',
    proxy: 'proxy',
    dns: 'dns',
    timeout: 'timeout',
    refused: 'network',
    broken: 'network',
};
function networkError(call, err, redactor, url, proxy) {
    const failure = classifyNetworkError(err, {
        host: hostOf(url),
        ...(proxy ? { proxy, plainHttp: url.protocol === 'http:' } : {}),
    });
    const detail = redactor.redact(failure.summary);
    const advice = failure.advice ??
        (failure.kind === 'timeout' ? '' : 'Check `base-url` and the network or proxy settings.');
    const what = failure.kind === 'timeout' ? `the API did not answer in time (${detail})` : detail;
    return new api_errors/* ApiError */.hD(redactor.redact(`Could not ${call.operation}: ${what}.${advice ? ` ${advice}` : ''}`), {
        kind: NETWORK_KIND[failure.kind] ?? 'network',
        detail,
        transient: failure.transient,
        ...(failure.code !== undefined ? { code: failure.code } : {}),
        cause: err,
    });
}
/**
 * The first problem with an answer, readable: `status: expected string, received number`,
 * `id is missing or not valid`, or a schema's own words (`id is not a safe identifier`).
 */
function describeIssue(issue) {
    const where = issue?.path.length ? issue.path.join('.') : 'the body';
    const message = issue?.message ?? 'Invalid input';
    if (message === 'Invalid input')
        return `${where} is missing or not valid`;
    const typed = /^Invalid input: (.+)$/.exec(message);
    return typed ? `${where}: ${typed[1]}` : `${where} ${message}`;
}

// EXTERNAL MODULE: ./.build/config.js
var _build_config = __webpack_require__(4638);
;// CONCATENATED MODULE: ./.build/poll.js

const EXPORT_SCHEDULE = {
    minMs: 500,
    maxMs: 15_000,
    initialMs: 1000,
    factor: 1.5,
};
/** Agent jobs report no progress: back off from 2 s to 15 s. */
const AGENT_SCHEDULE = {
    minMs: 500,
    maxMs: 15_000,
    initialMs: 2000,
    factor: 1.5,
};
/** Once the estimate says the job is this close to done, poll just after the estimate. */
const NEAR_MS = 2000;
const JUST_AFTER_MS = 250;
/** While progress stands still, wait at most this share of the time it has stood still. */
const STALL_SHARE = 0.25;
/** Never wait longer than this share of the time polled so far: early estimates are poor. */
const ELAPSED_SHARE = 0.5;
/**
 * Estimated time to completion from the progress rate, measured from the first sample
 * that showed any progress (a queued job's 0% would make a running job look slow).
 */
function estimateRemainingMs(history) {
    const moving = history.filter((s) => s.progress !== undefined && s.progress > 0);
    const last = history.at(-1);
    const first = moving[0];
    if (!first || last?.progress === undefined || last.at <= first.at)
        return undefined;
    const rate = (last.progress - first.progress) / (last.at - first.at);
    if (!(rate > 0))
        return undefined;
    return Math.max(0, (100 - last.progress) / rate);
}
/**
 * The wait before the next poll. With progress: half-way to the estimated end, then
 * just after it; while progress stands still, a quarter of the time it has stood still
 * (so a job that stalls and then jumps is noticed soon after); past the estimated end,
 * a short backoff. Without progress: a geometric backoff. Always within [minMs, maxMs].
 */
function nextPollDelay(history, interval, limits) {
    if (interval !== 'auto')
        return interval;
    const clamp = (ms) => Math.min(limits.maxMs, Math.max(limits.minMs, Math.round(ms)));
    const last = history.at(-1);
    if (last?.progress === undefined) {
        return clamp(limits.initialMs * limits.factor ** Math.max(0, history.length - 1));
    }
    // Samples at the current progress value, oldest first: how long it has stood still.
    let since = history.length - 1;
    while (since > 0 && history[since - 1]?.progress === last.progress)
        since -= 1;
    const still = history.length - 1 - since;
    if (last.progress >= 100)
        return clamp(limits.minMs * limits.factor ** still);
    const remaining = estimateRemainingMs(history);
    const stalled = still > 0 ? STALL_SHARE * (last.at - history[since].at) : Infinity;
    if (remaining === undefined) {
        return clamp(Math.min(stalled, limits.initialMs * limits.factor ** still));
    }
    const ahead = remaining > NEAR_MS ? remaining / 2 : remaining + JUST_AFTER_MS;
    const elapsed = ELAPSED_SHARE * (last.at - history[0].at);
    return clamp(Math.min(ahead, stalled, elapsed));
}
/** Polls until `isSettled`, the deadline or the signal, whichever comes first. */
async function pollUntilSettled(options) {
    const { clock, signal } = options;
    const history = [];
    for (;;) {
        (0,errors/* throwIfAborted */.Te)(signal);
        const value = await options.read(signal);
        const progress = options.progressOf?.(value);
        history.push({ at: clock.now(), ...(progress !== undefined ? { progress } : {}) });
        options.onPoll?.(value, estimateRemainingMs(history));
        if (options.isSettled(value))
            return value;
        const left = options.deadline - clock.now();
        if (left <= 0)
            throw options.onDeadline(value);
        await clock.sleep(Math.min(left, nextPollDelay(history, options.interval, options.limits)), signal);
    }
}

// EXTERNAL MODULE: ./.build/report.js
var _build_report = __webpack_require__(5794);
;// CONCATENATED MODULE: ./.build/agent/follow-up.js



/** The rate limit of agent jobs, which follow-ups share: what it is and what to do. */
const AGENT_RATE_LIMIT_ADVICE = 'Agent jobs are limited per project per rolling hour (the documented limit is 100 creations; follow-up messages count too): wait for older jobs to age out of the hour, or raise `timeout` so the run waits longer.';
/** What to check when the job given as agent-job-id is not found. */
function jobNotFoundAdvice(config) {
    return `Check \`agent-job-id\` and \`project-id\`: the job must exist in project ${config.projectId}.`;
}
/**
 * The advice for a failure that leaves a send-once call's outcome unknown: a 2xx answer
 * that could not be used (the server acted), or a broken connection, a timeout or a
 * server error (it may have). Undefined for a failure that says it was not acted on.
 */
function unknownOutcomeAdvice(error, call) {
    const { status, kind } = error;
    // What the client tries again (a refused connection, the API's 503) was never acted on.
    if (notActedOn(error))
        return undefined;
    if (kind === 'invalid-response' && status !== undefined && status >= 200 && status < 300) {
        return `The API accepted the request (HTTP ${status}), so ${call.subject.toLowerCase()} was probably ${call.done}: ${call.check}`;
    }
    if (kind === 'network' || kind === 'timeout' || kind === 'server') {
        return `${call.subject} may have been ${call.done} anyway: ${call.check}`;
    }
    return undefined;
}
const FOLLOW_UP = {
    subject: 'The message',
    done: 'delivered',
    check: _build_report/* CHECK_BEFORE_RESENDING */.B,
};
/** Sends `prompt` to an existing agent job as a follow-up; returns the job as answered. */
async function sendFollowUp(config, jobId, prompt, deps) {
    const { api, reporter, signal } = deps;
    reporter.info(`Follow-up: ${(0,_build_report/* promptHeadline */.J1)(prompt)}`);
    let job;
    try {
        job = await api.sendAgentMessage(config.projectId, jobId, prompt, signal);
    }
    catch (err) {
        if (!(err instanceof api_errors/* ApiError */.hD))
            throw err;
        if (err.status === 429)
            throw (0,api_errors/* withAdvice */.b5)(err, AGENT_RATE_LIMIT_ADVICE);
        if (err.status === 404)
            throw (0,api_errors/* withAdvice */.b5)(err, jobNotFoundAdvice(config));
        // A 400 also answers a bad prompt: the archived advice only when the job is archived.
        if (err.status === 400 && (await isArchived(config, jobId, deps))) {
            // Told afresh: the job, not an input, is what was refused, so no input is to check.
            const refused = (0,api_errors/* describeStatus */.Wn)(`send a follow-up to agent job ${jobId}`, 400, err.detail ?? '');
            throw err.withMessage(`${refused} An archived job takes no follow-ups: leave \`agent-job-id\` empty to create a new job with this prompt.`);
        }
        const advice = unknownOutcomeAdvice(err, FOLLOW_UP);
        throw advice === undefined ? err : (0,api_errors/* withAdvice */.b5)(err, advice);
    }
    // An answer without a status says nothing of the job's state: none is claimed then.
    reporter.info(`Follow-up sent to agent job ${job.id}${job.statusStated ? `, which is now ${job.status}` : ''}.`);
    return job;
}
/** Whether the job reads as archived; a failed read says nothing either way. */
async function isArchived(config, jobId, { api, signal }) {
    try {
        return (await api.getAgentJob(config.projectId, jobId, signal)).status === 'archived';
    }
    catch (err) {
        if (signal?.aborted)
            throw err;
        return false;
    }
}

;// CONCATENATED MODULE: ./.build/agent/run.js







function isAgentSettled(job) {
    return job.status === 'completed' || job.status === 'archived' || job.status === 'failed';
}
/**
 * After a follow-up the job may still read as settled (the earlier run) for a moment:
 * until it has been seen active, a settled status counts only after this long.
 */
const FOLLOW_UP_GRACE_MS = 30_000;
/**
 * An agent job from start to pull request: create one (prompt), follow an existing one
 * (agent-job-id), or send an existing one a follow-up and follow it (both). The outputs
 * are set as soon as each is known.
 */
async function runAgent(config, deps) {
    const { api, reporter, record, clock, signal } = deps;
    record.mode =
        config.jobId === undefined ? 'create' : config.prompt !== undefined ? 'follow-up' : 'attach';
    const published = new Map();
    const publish = (name, value) => {
        if (value === undefined || published.get(name) === value)
            return;
        published.set(name, value);
        reporter.setOutput(name, value);
    };
    /** The job this run follows: the one it asked for, or the one it created. */
    let followed = config.jobId;
    let otherNamed = false;
    const remember = (job) => {
        followed ??= job.id;
        // An answer naming another job is not followed there: said once, as for an export.
        if (job.id !== followed && !otherNamed) {
            otherNamed = true;
            reporter.warning(`An answer about agent job ${followed} names job ${job.id}: following ${followed}, the job this run ${record.mode === 'create' ? 'created' : 'asked for'}.`);
        }
        record.jobId = followed;
        record.status = job.status;
        record.prLink = job.prLink;
        record.prLinkUnusable = job.prLink === undefined && job.prLinkUnusable;
        record.repository = job.source.repository ?? record.repository;
        record.ref = job.source.ref ?? record.ref;
        record.model = job.model ?? record.model;
        record.createdAt = job.createdAt ?? record.createdAt;
        record.archivedAt = job.archivedAt ?? record.archivedAt;
        publish('agent-job-id', followed);
        publish('agent-repository', record.repository);
        publish('agent-branch', record.ref);
        publish('agent-model', record.model);
        // As soon as it is known: a run that times out still names the pull request.
        if (job.prLink)
            publish('pr-link', job.prLink);
    };
    const started = config.jobId === undefined
        ? await createJob(config, deps)
        : config.prompt !== undefined
            ? await reporter.group(`Sending a follow-up to agent job ${config.jobId}`, async () => {
                const job = await sendFollowUp(config, config.jobId, config.prompt, deps);
                record.followUpSent = true;
                return job;
            })
            : await reporter.group(`Reading agent job ${config.jobId}`, async () => {
                const job = await api
                    .getAgentJob(config.projectId, config.jobId, signal)
                    .catch((err) => {
                    if (err instanceof api_errors/* ApiError */.hD && err.status === 404) {
                        throw (0,api_errors/* withAdvice */.b5)(err, jobNotFoundAdvice(config));
                    }
                    throw err;
                });
                reporter.info(`Agent job ${config.jobId} is ${job.status}${onRepository(job)}.`);
                return job;
            });
    remember(started);
    if (!config.wait) {
        const job = await statusOf(started, config, deps);
        remember(job);
        publish('agent-status', job.status);
        if (job.prLink)
            publish('pr-link', job.prLink);
        // Right after a follow-up, a settled status may still be the earlier run's.
        if (job.status === 'failed' && record.mode !== 'follow-up') {
            throw failedError(job, record, record.mode === 'attach' ? '' : ' right away');
        }
        reporter.info(`\`wait: false\`: not following the job (${job.status}).`);
        return record;
    }
    const followUp = record.mode === 'follow-up';
    const waitStarted = clock.now();
    // A follow-up's answer without a status proves nothing: the job may read as settled
    // from its earlier run until it is seen active again.
    let seenActive = !followUp || (started.statusStated && started.status === 'active');
    let lastStatus = '';
    const jobId = followed;
    // Reading the job failed, not the job: it goes on, and the way back to it is said. A 404
    // ends that for a job given by id, but not for one this run has just created.
    const stillRunning = (err) => {
        const notFound = err instanceof api_errors/* ApiError */.hD && err.status === 404;
        if (err instanceof api_errors/* ApiError */.hD && !signal?.aborted && (!notFound || record.mode === 'create')) {
            throw (0,api_errors/* withAdvice */.b5)(err, stillRunningAdvice(record.mode, jobId, notFound));
        }
        throw err;
    };
    const finished = await reporter.group(`Waiting for agent job ${jobId}`, () => pollUntilSettled({
        read: (s) => api.getAgentJob(config.projectId, jobId, s),
        isSettled: (job) => isAgentSettled(job) && (seenActive || clock.now() - waitStarted >= FOLLOW_UP_GRACE_MS),
        onPoll: (job) => {
            remember(job);
            if (job.status === 'active')
                seenActive = true;
            if (job.status === lastStatus)
                return;
            lastStatus = job.status;
            reporter.info(`[${(0,duration/* formatDuration */.a3)(clock.now() - waitStarted).padStart(7)}] ${job.status}`, {
                progress: true,
            });
            reporter.progress?.({ phase: 'agent', status: job.status });
        },
        interval: config.pollInterval,
        limits: AGENT_SCHEDULE,
        clock,
        deadline: deps.deadline,
        onDeadline: () => new errors/* TimeoutError */.MU((0,_build_report/* describeTimeout */.by)(record, config.timeoutMs)),
        ...(signal ? { signal } : {}),
    }).catch(stillRunning));
    publish('agent-status', finished.status);
    publish('pr-link', finished.prLink ?? '');
    if (finished.status === 'failed')
        throw failedError(finished, record);
    if (finished.prLink)
        reporter.info(`Pull request: ${finished.prLink}`);
    else if (finished.prLinkUnusable)
        reporter.warning(`Agent job ${jobId} ended ${finished.status} with a pull request link that is not an http(s) address, so pr-link is empty: look for the pull request on the repository${finished.source.repository ? ` (${finished.source.repository})` : ''}.`);
    else if (finished.status === 'completed')
        reporter.notice(`Agent job ${jobId} ended completed without a pull request: the agent changed no files.`);
    // Archiving can stop a job before the agent is done: no pull request proves nothing.
    else
        reporter.warning(`Agent job ${jobId} was archived without a pull request, perhaps before the agent finished: whether it changed files is not known. Check the job${record.ref ? `, and its branch ${record.ref}` : ''}${record.repository ? ` on ${record.repository}` : ''}.`);
    return record;
}
/**
 * A created job's own status, for wait: false: the create answer is documented without
 * one, so the job is read once. The read is a courtesy: the job exists either way, so a
 * read that fails is a warning (re-running the step would create a second job). A
 * follow-up is not read: right after it, the job may still show its earlier run.
 */
async function statusOf(started, config, deps) {
    const { api, reporter, record, signal } = deps;
    if (started.statusStated || record.mode === 'follow-up')
        return started;
    try {
        return await api.getAgentJob(config.projectId, started.id, signal);
    }
    catch (err) {
        if (signal?.aborted)
            throw err;
        reporter.warning(`Agent job ${started.id} was created, but reading its status failed (${(0,errors/* errorMessage */.gJ)(err)}): it is taken as active. Follow it with ${(0,_build_report/* setting */.Pe)('agent-job-id', started.id)}; running this step again would create a second job.`);
        return started;
    }
}
function onRepository(job) {
    if (!job.source.repository)
        return '';
    return ` on ${job.source.repository}${job.source.ref ? ` (branch ${job.source.ref})` : ''}`;
}
/**
 * What to do when the job could no longer be read while waiting: it keeps running on the
 * server, and this step run again would create it, or send its follow-up, a second time.
 * `notFound`: the service answered 404 about the job this run created.
 */
function stillRunningAdvice(mode, jobId, notFound = false) {
    const follow = (0,_build_report/* setting */.Pe)('agent-job-id', jobId);
    if (mode === 'create') {
        // The 404's own message says the service does not know the job this run created.
        const created = notFound
            ? 'It may still show up, and run'
            : `Agent job ${jobId} was created and may still be running`;
        return `${created}: follow it with ${follow} (and no \`prompt\`)${notFound ? ' once the service knows it' : ''}; running this step again as it is would create a second job.`;
    }
    if (mode === 'follow-up') {
        return `The follow-up was sent to agent job ${jobId}, which may still be running: follow it with ${follow} and no \`prompt\`; with the prompt, it would be sent again.`;
    }
    return `Agent job ${jobId} may still be running: follow it again later with ${follow}.`;
}
/** The API documents no reason on a failed job; a server that sends one has it shown. */
function failedError(job, record, when = '') {
    record.error = job.error;
    // The job the run follows, whatever id the answer names.
    const id = record.jobId ?? job.id;
    return new errors/* JobFailedError */.dk(`Agent job ${id} failed${when}: ${job.error ?? 'the API gave no reason'}.${job.prLink ? ` Its pull request: ${job.prLink}.` : ''} To try again, send it a follow-up (${(0,_build_report/* setting */.Pe)('agent-job-id', id)} and a \`prompt\` saying what to change), or start a new job.`);
}
/** A job creation, sent at most once: a second job would open a second pull request. */
const CREATE = { subject: 'The job', done: 'created', check: _build_report/* CHECK_BEFORE_CREATING */.Rb };
async function createJob(config, deps) {
    const { api, reporter, signal } = deps;
    const prompt = config.prompt;
    return reporter.group(`Creating an agent job in project ${config.projectId}`, async () => {
        reporter.info(`Prompt: ${(0,_build_report/* promptHeadline */.J1)(prompt)}`);
        let job;
        try {
            job = await api.createAgentJob(config.projectId, prompt, signal);
        }
        catch (err) {
            if (!(err instanceof api_errors/* ApiError */.hD))
                throw err;
            if (err.status === 429)
                throw (0,api_errors/* withAdvice */.b5)(err, AGENT_RATE_LIMIT_ADVICE);
            const advice = unknownOutcomeAdvice(err, CREATE);
            throw advice === undefined ? err : (0,api_errors/* withAdvice */.b5)(err, advice);
        }
        reporter.info(`Agent job ${job.id} created (${job.status})${job.source.repository ? ` on ${job.source.repository}` : ''}.`);
        if (job.source.ref)
            reporter.info(`Branch: ${job.source.ref}`);
        // Said now, while this run can still follow it: a later run could not.
        if (!_build_config/* INPUT_ID */.R0.test(job.id)) {
            reporter.warning(`The API named the job ${JSON.stringify(job.id)}, which \`agent-job-id\` does not take (letters, digits, ".", "_" and "-" only): a later run cannot follow it or send it a follow-up.`);
        }
        return job;
    });
}

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./.build/deliver/place.js
var place = __webpack_require__(4271);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: ./.build/deliver/manifest.js
var deliver_manifest = __webpack_require__(391);
// EXTERNAL MODULE: ./.build/deliver/protected.js
var deliver_protected = __webpack_require__(6346);
// EXTERNAL MODULE: ./.build/deliver/mounts.js
var mounts = __webpack_require__(2380);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: external "node:timers/promises"
var external_node_timers_promises_ = __webpack_require__(8500);
;// CONCATENATED MODULE: ./.build/deliver/unchanged.js








/**
 * Whether the files an earlier export lists are still the ones it wrote. A manifest only
 * proves a directory is ours while its files are: an export edited by hand, or a user's
 * own files under a manifest copied from elsewhere, would otherwise be deleted as ours.
 * An untouched export costs one lstat per file; a file changed since the manifest was
 * written is read, to compare its SHA-256 with the manifest's. Changed is judged by the
 * inode's change time too, which no copy or extraction can set back as it can the
 * modification time (`cp -p`, `tar`, `rsync -t`); a file stamped as late as the manifest,
 * or a manifest stamped in the future (a clock ahead), counts as changed.
 */
/** Read at once, into one buffer reused for every file. */
const READ_BYTES = 1024 * 1024;
/** Bytes hashed between two turns of the event loop, so that a cancellation is heard. */
const BYTES_PER_TURN = 64 * 1024 * 1024;
/** Never through a link, never waiting on a FIFO put where a file was. */
const READ_FLAGS = external_node_fs_.constants.O_RDONLY | (external_node_fs_.constants.O_NOFOLLOW ?? 0) | (external_node_fs_.constants.O_NONBLOCK ?? 0);
/**
 * The listed paths in `dir` that no longer hold what `manifest` says, sorted: a file of
 * another size, something other than a file, a file modified since with other bytes,
 * or a symbolic link that is no longer the same link. A listed path that is missing is
 * not a change (nothing of the user's is there to lose).
 */
async function changedSinceExport(dir, manifest) {
    // A manifest proves times only in the directory it was written in: one copied beside a
    // user's files (or one that names no directory) has every listed file read.
    const here = await (0,deliver_protected/* identityOf */.cu)(dir);
    const there = (0,deliver_manifest/* writtenIn */.Xs)(manifest);
    const written = here !== undefined && there !== undefined && (0,deliver_protected/* sameIdentity */.BU)(here, there);
    const since = written ? provenBefore(await promises_.lstat(external_node_path_.join(dir, deliver_manifest/* MANIFEST_NAME */.ir))) : -Infinity;
    const changed = [];
    const toHash = [];
    // Synchronous lstat: a few microseconds each from the inode cache, where a round trip
    // through the thread pool per file would add a fraction of a second to 20,000 files.
    for (const file of manifest.files) {
        const stat = lstatOrUndefined(external_node_path_.join(dir, file.path));
        if (stat === undefined)
            continue;
        if (!stat.isFile() || stat.size !== file.size)
            changed.push(file.path);
        else if (touchedSince(stat, since))
            toHash.push(file);
    }
    // Synchronous reads into one buffer: a stream per file allocated a megabyte for each,
    // and collecting them cost more than the reading (6,000 files, 150 MB: 0.6 s against
    // 0.2 s).
    const buffer = Buffer.allocUnsafe(READ_BYTES);
    let sinceTurn = 0;
    for (const file of toHash) {
        if (sinceTurn >= BYTES_PER_TURN) {
            await (0,external_node_timers_promises_.setImmediate)();
            sinceTurn = 0;
        }
        sinceTurn += file.size;
        if (sha256OrUndefined(external_node_path_.join(dir, file.path), buffer) !== file.sha256) {
            changed.push(file.path);
        }
    }
    for (const link of manifest.symlinks) {
        const at = external_node_path_.join(dir, link.path);
        const stat = lstatOrUndefined(at);
        if (stat === undefined)
            continue;
        if (!stat.isSymbolicLink() || (0,external_node_fs_.readlinkSync)(at) !== link.target)
            changed.push(link.path);
    }
    return changed.sort();
}
/**
 * The time before which a file untouched since `manifest` was written was last modified
 * and changed: the manifest's modification time, or -Infinity for a manifest from the
 * future (a clock ahead), which proves nothing by its time.
 */
function provenBefore(manifest) {
    return manifest.mtimeMs > Date.now() ? -Infinity : manifest.mtimeMs;
}
/**
 * Whether a file may have been written since (see `provenBefore`): written before its
 * manifest, an untouched file is older than it in both times.
 */
function touchedSince(file, since) {
    return file.mtimeMs >= since || file.ctimeMs >= since;
}
function lstatOrUndefined(file) {
    try {
        return (0,external_node_fs_.lstatSync)(file);
    }
    catch (err) {
        const code = err.code;
        if (code === 'ENOENT' || code === 'ENOTDIR')
            return undefined;
        throw err;
    }
}
/** SHA-256 of a file, read in chunks; undefined when it cannot be read (not proven ours). */
function sha256OrUndefined(file, buffer = Buffer.allocUnsafe(READ_BYTES)) {
    const hashing = hashChunks(file, buffer);
    for (;;) {
        const step = hashing.next();
        if (step.done === true)
            return typeof step.value === 'string' ? step.value : undefined;
    }
}
/**
 * The same, for a file that may be large (an archive kept by `extract: false`): the event
 * loop turns every BYTES_PER_TURN, and a cancellation heard then stops the reading.
 */
async function sha256OfLargeFile(file, signal) {
    const hashing = hashChunks(file, Buffer.allocUnsafe(READ_BYTES));
    let sinceTurn = 0;
    try {
        for (;;) {
            const step = hashing.next();
            if (step.done === true)
                return step.value;
            sinceTurn += step.value;
            if (sinceTurn >= BYTES_PER_TURN) {
                await (0,external_node_timers_promises_.setImmediate)();
                (0,errors/* throwIfAborted */.Te)(signal);
                sinceTurn = 0;
            }
        }
    }
    finally {
        // Stopped early: the generator's own finally closes the file.
        hashing.return({ unreadable: 'stopped' });
    }
}
/** Reads `file` into its SHA-256, yielding the bytes of each read. */
function* hashChunks(file, buffer) {
    const hash = (0,external_node_crypto_.createHash)('sha256');
    let fd;
    try {
        fd = (0,external_node_fs_.openSync)(file, READ_FLAGS);
    }
    catch (err) {
        const code = err.code;
        if (code === 'EACCES' || code === 'EPERM' || code === 'ENOENT' || code === 'ELOOP') {
            return { unreadable: code };
        }
        throw err;
    }
    try {
        for (;;) {
            const read = (0,external_node_fs_.readSync)(fd, buffer, 0, buffer.length, null);
            if (read === 0)
                break;
            hash.update(buffer.subarray(0, read));
            yield read;
        }
    }
    finally {
        (0,external_node_fs_.closeSync)(fd);
    }
    return hash.digest('hex');
}

// EXTERNAL MODULE: ./.build/tree-walk.js
var tree_walk = __webpack_require__(9904);
;// CONCATENATED MODULE: ./.build/deliver/target.js










/** The way out of a refusal, as the user gives it. */
function optIn(rules) {
    return rules.invokedAs === 'cli' ? 'pass --overwrite true' : 'set overwrite to true';
}
/** Why `path` may not be used; the message names the path, what is in it and the way out. */
class TargetRefusal extends Error {
    name = 'TargetRefusal';
}
const SAMPLE = 3;
/**
 * Decides whether the directory `target` may be replaced by a new export. Reads the
 * filesystem (never writes). Throws a TargetRefusal, or returns what is there now.
 */
async function inspectTarget(target, rules, given) {
    const shown = describePath(target, given);
    const refuse = (why) => {
        throw new TargetRefusal(`${shown} ${why}`);
    };
    await checkSitePlace(target, rules, given);
    const stat = await target_lstatOrUndefined(target);
    if (stat === undefined)
        return { kind: 'absent' };
    if (stat.isSymbolicLink()) {
        const to = await promises_.readlink(target).catch(() => '?');
        refuse(`is a symbolic link (to ${to}): give the directory itself as \`path\`, so that the link is not replaced by a directory.`);
    }
    if (!stat.isDirectory())
        refuse('exists and is not a directory: remove it or choose another `path`.');
    const parent = await promises_.stat(external_node_path_.dirname(target));
    if (parent.dev !== stat.dev || (await (0,mounts/* isMountPoint */.A$)(target)))
        refuse(`is a mount point (a file system or a bind mount is mounted there), and a mount point cannot be swapped for a new directory: give a directory inside it as \`path\`, such as ${external_node_path_.join(given ?? target, 'site')}.`);
    const uid = process.getuid?.();
    // In a sticky directory (like /tmp) only the owner of an entry, or of the directory,
    // may rename it away.
    if ((parent.mode & STICKY) !== 0 && uid !== undefined && uid !== 0 && parent.uid !== uid) {
        if (stat.uid !== uid)
            refuse(`belongs to another user (uid ${stat.uid}) in a directory where only an entry's owner may move it (the sticky bit, as on /tmp), so it cannot be swapped for the new site: choose a \`path\` of this runner's own.`);
    }
    const state = await describeDirectory(target).catch((err) => {
        // It was there a moment ago: something moved or replaced it while it was read.
        if (err.code !== 'ENOENT')
            throw err;
        // Not the input's fault: the same run succeeds once the other has ended.
        throw new errors/* PathInUseError */.c4(`${shown} changed while it was being checked, such as by another run into the same path (runs into one path must not overlap): wait for that run to end, then run again.`);
    });
    const outsideAt = await realPathOutsideWorkspace(target, rules);
    const outside = outsideAt !== undefined;
    const needsOptIn = state.kind === 'foreign' || (state.kind === 'empty' && outside);
    if (needsOptIn && !rules.overwrite) {
        const what = state.kind === 'foreign'
            ? state.description
            : `is an existing directory outside the workspace${outsideAt === target ? '' : ` (it resolves to ${outsideAt})`}`;
        refuse(`${what}: refusing to replace it. Choose a new or empty directory${outside ? ' inside the workspace' : ''}, or ${optIn(rules)} to replace it and everything in it.`);
    }
    return state;
}
/**
 * The checks of the directory `target` by where it is, not by what it holds: made before
 * anything is written beside it (the lock on it), and again by inspectTarget.
 */
async function checkSitePlace(target, rules, given) {
    const refuse = (why) => {
        throw new TargetRefusal(`${describePath(target, given)} ${why}`);
    };
    const protectedWhy = (await protectedReasonThroughLinks(target, rules)) ??
        (await protectedReasonThroughMounts(target, rules));
    if (protectedWhy)
        refuse(`is never replaced: ${protectedWhy}. Choose a directory of its own, such as a new folder in the workspace.`);
    const unwritable = await unwritableReason(external_node_path_.dirname(target));
    if (unwritable)
        refuse(`cannot be written: ${unwritable}, and the new site is created beside \`path\` before it takes its place. Make it writable for the runner, or choose another \`path\`.`);
    const sibling = external_node_path_.basename((0,place/* siblingPath */.eR)(target, 'previous'));
    if (Buffer.byteLength(sibling) > NAME_MAX)
        refuse(`has a name too long to create the new site beside it under a name of its own (${sibling.replace(/-\d+(?:-[0-9a-f]{8})?-[0-9a-f]+$/, '-…')}, more than ${NAME_MAX} bytes): choose a name of at most ${NAME_MAX - (Buffer.byteLength(sibling) - Buffer.byteLength(external_node_path_.basename(target)))} bytes.`);
}
/**
 * Decides whether an archive kept as a file (`extract: false`) may be written into `dir`
 * under one of `names` (the extension depends on the format the storage serves). The
 * directory is not replaced, so it may hold other files; an existing archive of the same
 * name is overwritten only when its manifest beside it says this action wrote it.
 * Returns the archives there that it wrote, by name, as their manifests record them.
 */
async function inspectArchiveTarget(dir, names, rules, given, signal) {
    const ours = new Map();
    const shown = describePath(dir, given);
    if (!(await checkArchivePlace(dir, rules, given)))
        return ours;
    for (const name of names) {
        const file = external_node_path_.join(dir, name);
        // The manifest beside it is written too: a file of the user's there is theirs.
        const manifest = archiveManifestName(name);
        const manifestStat = await target_lstatOrUndefined(external_node_path_.join(dir, manifest));
        if (manifestStat !== undefined && !rules.overwrite) {
            const read = manifestStat.isFile()
                ? await (0,deliver_manifest/* readManifest */.WI)(external_node_path_.join(dir, manifest))
                : { kind: 'invalid' };
            if (read.kind !== 'valid' || read.manifest.archive.file !== name) {
                throw new TargetRefusal(`${shown} already holds ${manifest}, which is not the export manifest this action writes beside ${name}: refusing to overwrite it. Move it away, choose another \`path\`, or ${optIn(rules)}.`);
            }
        }
        const existing = await target_lstatOrUndefined(file);
        if (existing === undefined)
            continue;
        if (!existing.isFile()) {
            throw new TargetRefusal(`${shown} already holds ${name}, which is not a regular file: remove it or choose another \`path\`.`);
        }
        const kept = await keptArchive(dir, name, existing, signal);
        if (typeof kept === 'object' && 'sha256' in kept)
            ours.set(name, kept);
        else if (!rules.overwrite) {
            const manifest = archiveManifestName(name);
            const unreadable = typeof kept === 'object' ? kept.unreadable : undefined;
            const why = kept === 'changed'
                ? `which is not the archive its export manifest (${manifest}) describes (changed or replaced since this action wrote it)`
                : unreadable !== undefined
                    ? `which could not be read (${unreadable}) to check it is the archive its export manifest (${manifest}) describes`
                    : `and no export manifest (${manifest}) says this action wrote it`;
            throw new TargetRefusal(`${shown} already holds ${name}, ${why}: refusing to overwrite it. ${unreadable !== undefined ? 'Make it readable for the runner, move it away' : 'Move it away'}, choose another \`path\`, or ${optIn(rules)}.`);
        }
    }
    return ours;
}
/**
 * The checks of the directory `dir` an archive is kept in by where it is, not by what it
 * holds: made before anything is written into it (the lock), and again by
 * inspectArchiveTarget. False when there is no such directory yet.
 */
async function checkArchivePlace(dir, rules, given) {
    const shown = describePath(dir, given);
    // Writing one file into the workspace is fine; replacing the workspace is not.
    if (!((0,deliver_protected/* contains */.gR)(dir, rules.workspace, rules.platform) && (0,deliver_protected/* contains */.gR)(rules.workspace, dir, rules.platform))) {
        const why = await protectedReasonThroughLinks(dir, rules);
        if (why)
            throw new TargetRefusal(`${shown} is not written into: ${why}. Choose a directory of its own.`);
    }
    const unwritable = await unwritableReason(dir);
    if (unwritable)
        throw new TargetRefusal(`${shown} is not written into: ${unwritable}. Make it writable for the runner, or choose another \`path\`.`);
    const stat = await target_lstatOrUndefined(dir);
    if (stat === undefined)
        return false;
    if (stat.isSymbolicLink()) {
        const to = await promises_.readlink(dir).catch(() => '?');
        throw new TargetRefusal(`${shown} is a symbolic link (to ${to}): give the directory itself as \`path\`.`);
    }
    if (!stat.isDirectory()) {
        throw new TargetRefusal(`${shown} exists and is not a directory: remove it or choose another \`path\`.`);
    }
    return true;
}
/**
 * The archive `name` in `dir` as the manifest beside it records it; 'changed' when that
 * manifest names it but the file is not what it describes (edited or replaced since);
 * why, when it had to be read and could not be; or undefined when there is no such
 * manifest. The archive it names is known by its size, and, unless it is older than the
 * manifest in both its times (see unchanged.ts), by its SHA-256. The one it names in
 * `replacing` was there when a run wrote the manifest, before renaming the new archive
 * over it, and is known by its SHA-256: it is what a run killed between the two left,
 * and only those exact bytes are ours.
 */
async function keptArchive(dir, name, archive, signal) {
    const manifestFile = external_node_path_.join(dir, archiveManifestName(name));
    const read = await (0,deliver_manifest/* readManifest */.WI)(manifestFile);
    if (read.kind !== 'valid' || read.manifest.archive.file !== name)
        return undefined;
    const named = read.manifest.archive;
    const { replacing } = read.manifest;
    const sized = [named, ...(replacing && replacing.sha256 !== named.sha256 ? [replacing] : [])]
        .filter((bytes) => bytes.sizeBytes === archive.size)
        .map(({ sha256, sizeBytes }) => ({ sha256, sizeBytes }));
    const only = sized.length === 1 ? sized[0] : undefined;
    if (only?.sha256 === named.sha256 &&
        !touchedSince(archive, provenBefore(await promises_.lstat(manifestFile)))) {
        return only;
    }
    if (sized.length === 0)
        return 'changed';
    // Touched since, or one of two of the same size: the bytes tell.
    const actual = await sha256OfLargeFile(external_node_path_.join(dir, name), signal);
    if (typeof actual !== 'string')
        return actual;
    return sized.find((bytes) => bytes.sha256 === actual) ?? 'changed';
}
/** The manifest kept beside an archive file. */
function archiveManifestName(archiveName) {
    return `${archiveName}.static-export.json`;
}
/** `"docs" (/home/runner/work/repo/repo/docs)`: what the user wrote and where it leads. */
function describePath(target, given) {
    return given !== undefined && given !== target ? `"${given}" (${target})` : target;
}
/** `lstat`, or undefined where nothing is: missing, or below a file (ENOTDIR). */
async function target_lstatOrUndefined(file) {
    return promises_.lstat(file).catch((err) => {
        if (err.code === 'ENOENT' || err.code === 'ENOTDIR')
            return undefined;
        throw err;
    });
}
/**
 * The protected rules applied to `target` as written and as it really resolves: a
 * symlink on the way must not lead into a directory that may not be replaced.
 */
async function protectedReasonThroughLinks(target, rules) {
    const lexical = (0,deliver_protected/* protectedReason */.zN)(target, rules);
    if (lexical)
        return lexical;
    const real = await realPathOfPlanned(target);
    if (real === target)
        return undefined;
    const realRules = {
        ...rules,
        workspace: await realPathOfPlanned(rules.workspace),
        ...(rules.home ? { home: await realPathOfPlanned(rules.home) } : {}),
        runnerDirs: await Promise.all(rules.runnerDirs.map(realPathOfPlanned)),
    };
    const why = (0,deliver_protected/* protectedReason */.zN)(real, realRules);
    return why ? `${why} (it resolves to ${real})` : undefined;
}
/**
 * Where `target` really is, when that is outside the workspace: a symbolic link among
 * its parents (`www -> /srv/www`) leads outside from a path written inside.
 */
async function realPathOutsideWorkspace(target, rules) {
    const [real, workspace] = await Promise.all([
        realPathOfPlanned(target),
        realPathOfPlanned(rules.workspace),
    ]);
    return (0,deliver_protected/* contains */.gR)(workspace, real, rules.platform) ? undefined : real;
}
/**
 * The protected rules applied by device and inode: a bind mount (or any second mount)
 * reaches the workspace or one of its parents by a path that no path rule recognises.
 */
async function protectedReasonThroughMounts(target, rules) {
    const identity = await (0,deliver_protected/* identityOf */.cu)(target);
    if (identity === undefined)
        return undefined;
    const named = [
        { name: 'the workspace', dir: rules.workspace },
        ...(rules.home ? [{ name: 'the home directory', dir: rules.home }] : []),
        ...rules.runnerDirs.map((dir) => ({
            name: `the temporary or tool-cache directory ${dir}`,
            dir,
        })),
    ];
    const lineages = await Promise.all(named.map(async ({ name, dir }) => ({ name, identities: await lineageOf(dir) })));
    return (0,deliver_protected/* protectedReasonByIdentity */._R)(identity, lineages);
}
/** The identities of `dir` (when it exists) and of each of its parents, up to the root. */
async function lineageOf(dir) {
    const identities = [];
    let at = await realPathOfPlanned(dir);
    for (;;) {
        identities.push(await (0,deliver_protected/* identityOf */.cu)(at));
        const parent = external_node_path_.dirname(at);
        if (parent === at)
            return identities;
        at = parent;
    }
}
/**
 * Why nothing can be created in `dir` (or, when it does not exist yet, in the nearest
 * parent that does): a read-only place is refused before the export, not after it.
 */
async function unwritableReason(dir) {
    let at = external_node_path_.resolve(dir);
    let found = await target_lstatOrUndefined(at);
    while (found === undefined && external_node_path_.dirname(at) !== at) {
        at = external_node_path_.dirname(at);
        found = await target_lstatOrUndefined(at);
    }
    // What the directories would be made in: a link that leads nowhere, or a file.
    const followed = found?.isSymbolicLink() ? await promises_.stat(at).catch(() => undefined) : found;
    if (found?.isSymbolicLink() && followed === undefined) {
        const to = await promises_.readlink(at).catch(() => '?');
        return `${at} is a symbolic link to ${to}, which does not exist`;
    }
    if (followed !== undefined && !followed.isDirectory())
        return `${at} is a file, not a directory`;
    try {
        await promises_.access(at, external_node_fs_.constants.W_OK);
        return undefined;
    }
    catch (err) {
        const code = err.code;
        if (code === 'EROFS')
            return `${at} is on a read-only file system (EROFS)`;
        if (code === 'EACCES' || code === 'EPERM')
            return `${at} is not writable (${code})`;
        throw err;
    }
}
/**
 * Why a file the action writes beside the site (its Helm values, its change report) must
 * not be written at `file`: inside a system directory or the checkout's `.git`, by its
 * own path or the one its links lead to. Undefined when it may be written.
 */
async function protectedFileReason(file, rules) {
    const given = external_node_path_.resolve(file);
    const real = await realPathOfPlanned(file);
    const gitDirs = [
        external_node_path_.join(rules.workspace, '.git'),
        external_node_path_.join(await realPathOfPlanned(rules.workspace), '.git'),
    ];
    for (const at of given === real ? [given] : [given, real]) {
        const how = at === given ? 'is' : 'leads, through a link,';
        const system = (0,deliver_protected/* systemTreeOf */.tU)(at, rules.platform);
        if (system)
            return `it ${how} inside ${system}, a system directory`;
        if (gitDirs.some((git) => (0,deliver_protected/* contains */.gR)(git, at, rules.platform))) {
            return `it ${how} inside the checkout's .git directory`;
        }
    }
    return undefined;
}
/** What the runner may not read inside `dir` cannot be checked, nor replaced safely. */
function unreadable(err, dir) {
    if (err.code !== 'EACCES' && err.code !== 'EPERM')
        throw err;
    const where = err.path === undefined ? dir : err.path;
    const inside = external_node_path_.relative(dir, where);
    throw new TargetRefusal(`${dir} holds ${inside === '' ? 'entries' : `${inside}, a directory`} the runner cannot read (${err.code}), so what it holds cannot be checked: make it readable for the runner, or choose another \`path\`.`);
}
/** The sticky bit of a directory's mode. */
const STICKY = 0o1000;
/** Longest name of a directory entry on Linux and macOS (bytes). */
const NAME_MAX = 255;
/** The real path of `target`, or of its deepest existing parent with the rest appended. */
async function realPathOfPlanned(target) {
    const missing = [];
    let at = external_node_path_.resolve(target);
    for (;;) {
        try {
            return external_node_path_.join(await promises_.realpath(at), ...missing.reverse());
        }
        catch (err) {
            // Missing, or below a file: the part that exists is resolved, and the rest follows.
            const code = err.code;
            if (code !== 'ENOENT' && code !== 'ENOTDIR')
                throw err;
            const parent = external_node_path_.dirname(at);
            if (parent === at)
                return external_node_path_.resolve(target);
            missing.push(external_node_path_.basename(at));
            at = parent;
        }
    }
}
/**
 * An empty directory, an earlier export (its manifest, nothing it does not list, and the
 * listed files as it wrote them), or something else.
 */
async function describeDirectory(dir) {
    // Empty directories hold no data: only files, links and other entries count.
    const items = (await (0,tree_walk/* readTree */.Z)(dir).catch((err) => unreadable(err, dir)))
        .filter((entry) => !entry.dirent.isDirectory())
        .map((entry) => entry.path);
    if (items.length === 0)
        return { kind: 'empty' };
    const read = await (0,deliver_manifest/* readManifest */.WI)(external_node_path_.join(dir, deliver_manifest/* MANIFEST_NAME */.ir));
    if (read.kind === 'valid') {
        const listed = new Set([
            deliver_manifest/* MANIFEST_NAME */.ir,
            ...read.manifest.files.map((f) => f.path),
            ...read.manifest.symlinks.map((s) => s.path),
        ]);
        const extra = items.filter((item) => !listed.has(item)).sort();
        if (extra.length > 0) {
            return {
                kind: 'foreign',
                description: `holds an earlier export plus ${count(extra.length, 'file')} that it did not contain (${sample(extra)})`,
                manifest: read.manifest,
            };
        }
        const changed = await changedSinceExport(dir, read.manifest);
        if (changed.length === 0)
            return { kind: 'export', manifest: read.manifest };
        return {
            kind: 'foreign',
            description: `holds an earlier export whose files were changed since (${sample(changed)})`,
            manifest: read.manifest,
        };
    }
    const sorted = items.sort();
    const why = read.kind === 'invalid'
        ? read.newer === undefined
            ? `its ${deliver_manifest/* MANIFEST_NAME */.ir} is not a valid export manifest (${shortened(read.reason)})`
            : `its ${deliver_manifest/* MANIFEST_NAME */.ir} ${(0,deliver_manifest/* writtenByNewer */.oe)(read.newer)}`
        : `no export manifest (${deliver_manifest/* MANIFEST_NAME */.ir}) says this action wrote it`;
    return {
        kind: 'foreign',
        description: `holds ${count(sorted.length, 'file')} (${sample(sorted)}) and ${why}`,
    };
}
function count(n, noun) {
    return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
/** A file name, or what a manifest's reader said about it, cut to 80 characters. */
function shortened(item) {
    return item.length > 80 ? `${item.slice(0, 79).replace(/[\uD800-\uDBFF]$/, '')}…` : item;
}
function sample(items) {
    const shown = items.slice(0, SAMPLE).map(shortened);
    return `${shown.join(', ')}${items.length > SAMPLE ? `, … ${items.length - SAMPLE} more` : ''}`;
}
/** The manifest of the earlier export `path` holds, alone or (with `overwrite`) beside other files. */
function earlierExportIn(state) {
    return state?.kind === 'export' || state?.kind === 'foreign' ? state.manifest : undefined;
}

;// CONCATENATED MODULE: ./.build/changes/baseline.js









/**
 * The folder the site is served under on `domain` (`/docs`, as the URL encodes it), or ''
 * for its root: known from a `compare-with` address on that host that reads the manifest
 * under its own name, which lies at the root of every export. Any other source says
 * nothing of it (a manifest of another name may be kept anywhere, another host may
 * serve the site elsewhere).
 */
function sitePathOf(source, domain) {
    if (source.kind !== 'url' || source.url.hostname !== domain)
        return '';
    const { pathname } = source.url;
    return pathname.endsWith(`/${deliver_manifest/* MANIFEST_NAME */.ir}`) ? pathname.slice(0, -deliver_manifest/* MANIFEST_NAME */.ir.length - 1) : '';
}
/** Loads the earlier export's manifest from where `compare-with` says. Never throws. */
async function loadBaseline(source, context) {
    try {
        if (source.kind === 'url')
            return await fetchManifest(source.url, context);
        if (source.kind === 'file')
            return await readManifestAt(source.path, source.given);
        if (source.kind === 'none')
            return { kind: 'none', reason: '`compare-with` is none' };
        const earlier = earlierExportIn(context.target);
        if (earlier !== undefined) {
            return {
                kind: 'found',
                baseline: {
                    manifest: earlier,
                    source: `the earlier export in \`path\` (${context.targetPath})`,
                },
            };
        }
        return {
            kind: 'none',
            reason: `\`path\` (${context.targetPath}) holds no earlier export to compare with; set \`compare-with\` to the live site's manifest to compare with what is deployed`,
        };
    }
    catch (err) {
        if (context.signal?.aborted)
            throw err;
        return { kind: 'unusable', reason: (0,errors/* errorMessage */.gJ)(err) };
    }
}
function usable(manifest, where) {
    if (manifest.files.length === 0 && manifest.archive.file !== undefined) {
        return {
            kind: 'unusable',
            reason: `${where} describes a kept archive (${manifest.archive.file}), not an extracted site, so it lists no pages`,
        };
    }
    return { kind: 'found', baseline: { manifest, source: where } };
}
/** A manifest file, or a directory holding an export (and so its manifest). */
async function readManifestAt(file, given) {
    const stat = await promises_.stat(file).catch((err) => {
        if (err.code === 'ENOENT')
            return undefined;
        throw err;
    });
    const shown = given === file ? file : `"${given}" (${file})`;
    if (stat === undefined) {
        // `docs.example.com`, `docs.example.com/docs/`: a site, written as a path.
        const host = /^([a-z0-9-]+(?:\.[a-z0-9-]+)+)\.?(\/[^\\]*)?$/i.exec(given);
        const hint = host !== null && !/\.(?:json|html?)$/i.test(given)
            ? `; for the live site, give https://${host[1]}${(host[2] ?? '/').replace(/\/?$/, '/')}`
            : given.toLowerCase() === 'none'
                ? '; to compare with nothing, write none in lowercase'
                : '';
        return { kind: 'unusable', reason: `\`compare-with\` ${shown} does not exist${hint}` };
    }
    // A link the user named is followed; readManifest never follows one itself.
    const manifestFile = stat.isDirectory()
        ? external_node_path_.join(file, deliver_manifest/* MANIFEST_NAME */.ir)
        : await promises_.realpath(file);
    const read = await (0,deliver_manifest/* readManifest */.WI)(manifestFile);
    if (read.kind === 'absent') {
        return {
            kind: 'unusable',
            reason: `\`compare-with\` ${shown} is a directory without an export manifest (${deliver_manifest/* MANIFEST_NAME */.ir})`,
        };
    }
    if (read.kind === 'invalid') {
        return {
            kind: 'unusable',
            reason: read.newer === undefined
                ? `\`compare-with\` ${manifestFile} is not an export manifest: ${read.reason}`
                : cannotRead(`\`compare-with\` ${manifestFile}`, read.newer),
        };
    }
    return usable(read.manifest, `the manifest ${manifestFile}`);
}
/**
 * The manifest as a site serves it: plain GET, no credentials, no redirects followed,
 * within one request-timeout from start to last byte (a site that sends a byte at a time
 * never trips a timeout between chunks, and the report is not worth holding the export).
 */
async function fetchManifest(url, context) {
    const shown = (0,net/* withoutQuery */.j$)(url);
    const deadline = AbortSignal.timeout(context.requestTimeoutMs);
    const signal = context.signal ? AbortSignal.any([context.signal, deadline]) : deadline;
    const failed = (err) => {
        if (context.signal?.aborted)
            throw err;
        if (deadline.aborted) {
            return {
                kind: 'unusable',
                reason: `${shown} did not answer in full within ${(0,duration/* formatDuration */.a3)(context.requestTimeoutMs)} (\`request-timeout\`)`,
            };
        }
        const code = err.code;
        return { kind: 'unusable', reason: `could not fetch ${shown} (${code ?? (0,errors/* errorMessage */.gJ)(err)})` };
    };
    let response;
    try {
        response = await (0,undici/* request */.Em)(url, {
            method: 'GET',
            dispatcher: context.dispatcher,
            headers: {
                accept: 'application/json',
                'accept-encoding': 'identity',
                'user-agent': 'static-export-action',
            },
            headersTimeout: context.requestTimeoutMs,
            bodyTimeout: context.requestTimeoutMs,
            signal,
        });
    }
    catch (err) {
        return failed(err);
    }
    const { statusCode } = response;
    if (statusCode !== 200) {
        // Drained, not destroyed: destroying a body makes it emit an abort error.
        await response.body.dump().catch(() => undefined);
        const location = header(response.headers, 'location');
        const why = statusCode === 404
            ? 'the site does not serve its export manifest there yet (a first deploy, or the file is not published)'
            : statusCode >= 300 && statusCode < 400 && location
                ? redirection(location, url)
                : statusCode >= 500
                    ? 'the site failed to serve it; the next run tries again'
                    : 'it is not served there';
        return { kind: 'unusable', reason: `${shown} answered HTTP ${statusCode}: ${why}` };
    }
    let read;
    try {
        // Asked for as is, but a store may keep it compressed and say so (S3's Content-Encoding).
        read = await readDecodedBytes(response.body, response.headers, deliver_manifest/* MANIFEST_MAX_BYTES */.V4);
    }
    catch (err) {
        // Fetched in full, and not in the encoding its header names (a CDN's wrong label).
        const code = err.code;
        if (typeof code === 'string' && code.startsWith('Z_') && !context.signal?.aborted) {
            return {
                kind: 'unusable',
                reason: `${shown} is served with Content-Encoding ${JSON.stringify(contentEncoding(response.headers))}, but its body is not in that encoding (${code}): serve it as is, or with the header its bytes have`,
            };
        }
        return failed(err);
    }
    const { bytes, truncated } = read;
    if (truncated) {
        return {
            kind: 'unusable',
            reason: `${shown} is larger than ${(0,duration/* formatBytes */.z3)(deliver_manifest/* MANIFEST_MAX_BYTES */.V4)}: not an export manifest`,
        };
    }
    const text = (0,deliver_manifest/* textOfManifest */.EO)(bytes);
    let json;
    try {
        json = JSON.parse(text);
    }
    catch {
        const encoding = contentEncoding(response.headers);
        if (encoding !== undefined && decoderFor(encoding) === undefined) {
            return {
                kind: 'unusable',
                reason: `${shown} is served with Content-Encoding ${JSON.stringify(encoding)}, which the action cannot undo: serve it as is or gzip`,
            };
        }
        // A site that answers every path with a page (an app's fallback, a login page).
        const html = /^\s*</.test(text) || /html/i.test(header(response.headers, 'content-type') ?? '');
        return {
            kind: 'unusable',
            reason: html
                ? `${shown} answered with an HTML page, not the manifest: the site serves a page for paths it does not have (a fallback or a login page), so ${deliver_manifest/* MANIFEST_NAME */.ir} is not published with it`
                : `${shown} is not JSON`,
        };
    }
    const parsed = (0,deliver_manifest/* parseManifest */.Ng)(json);
    if (parsed.kind === 'invalid') {
        return {
            kind: 'unusable',
            reason: parsed.newer === undefined
                ? `${shown} is not an export manifest (${parsed.reason})`
                : cannotRead(shown, parsed.newer),
        };
    }
    return usable(parsed.manifest, `the manifest served at ${shown}`);
}
/** A manifest of a later version: there is no report, and it is the action that is behind. */
function cannotRead(where, version) {
    return `${where} ${(0,deliver_manifest/* writtenByNewer */.oe)(version)}, which this one cannot read: update the action to compare with it`;
}
/** Why a redirect is not followed, and where to look instead when it is a web address. */
function redirection(location, from) {
    let target;
    try {
        target = new URL(location, from);
    }
    catch {
        return 'it redirects to an address that is not a URL';
    }
    if (target.protocol !== 'https:' && target.protocol !== 'http:') {
        return `it redirects to a ${target.protocol} address, not a web address`;
    }
    return `it redirects to ${(0,net/* withoutQuery */.j$)(target)}: give that address`;
}

// EXTERNAL MODULE: ./.build/changes/fingerprint.js
var fingerprint = __webpack_require__(5992);
// EXTERNAL MODULE: ./.build/airgap/site-tree.js
var site_tree = __webpack_require__(9413);
;// CONCATENATED MODULE: ./.build/changes/site-files.js


/** An HTML file is a page. */
function isPage(file) {
    return /\.html?$/i.test(file);
}
/**
 * Page data: Next.js RSC payloads (`guides/intro.txt` beside `guides/intro.html`, and the
 * segment files `__next.*.txt`), VitePress page chunks (`assets/guides_intro.md.<hash>.js`)
 * and its `hashmap.json`. They change with every build and say nothing a page does not.
 */
function roleOf(file, pages) {
    if (isPage(file))
        return 'page';
    const name = file.slice(file.lastIndexOf('/') + 1);
    if (name.endsWith('.txt')) {
        if (name.startsWith('__next.'))
            return 'page-data';
        // Next.js writes `.html` alone: a text file beside an `.htm` page is the site's own.
        if (pages.has(`${file.slice(0, -4)}.html`))
            return 'page-data';
    }
    if (file === 'hashmap.json')
        return 'page-data';
    if (/(?:^|\/)assets\/[^/]+\.md\.[A-Za-z0-9_-]+(?:\.lean)?\.js$/.test(file))
        return 'page-data';
    return 'asset';
}
/**
 * The path a reader types: `guides/intro.html` → `/guides/intro`, `index.html` → `/`; the
 * one the readiness check serves the page at, so `x.htm` stays `/x.htm`.
 */
function pageRoute(file) {
    return (0,site_tree/* pageUrl */.fi)(file);
}
/**
 * The page's address on the live site (`#` and `?` in a name are part of its path), on a
 * site served under `sitePath` (`/docs`, encoded as a URL holds it) when it is not the root.
 */
function pageUrl(domain, file, sitePath = '') {
    return `${siteUrl(domain, sitePath).slice(0, -1)}${encodeURI(pageRoute(file)).replace(/#/g, '%23').replace(/\?/g, '%3F')}`;
}
/** The address of the site's home: `https://docs.example.com/`, `https://example.com/docs/`. */
function siteUrl(domain, sitePath = '') {
    return `https://${domain}${sitePath}/`;
}
/**
 * Pagefind's search index (Starlight's search, `pagefind/` or `_pagefind/`): a language and
 * 7 or more hex digits of the file's hash, after `_` (`fragment/en_8349913.pf_fragment`).
 */
const PAGEFIND_HASH = /^((?:.*\/)?_?pagefind\/(?:[^/]+\/)*[^/]*_)[0-9a-f]{7,}(\.pf_[a-z]+)$/;
/** Assets are matched across builds by this key: build ids and content hashes left out. */
function assetKey(file) {
    // Only the report's key: what a page links to is normalized as before (its fingerprint).
    return (0,fingerprint/* normalizeAssetPath */.RL)(file.replace(PAGEFIND_HASH, '$1*$2'));
}

;// CONCATENATED MODULE: ./.build/changes/compare.js


/**
 * The change report: what a reader will notice between the export that is live (or was
 * in `path`) and the new one. Computed from the two manifests alone, so the earlier
 * export may be a manifest served by the live site.
 */
const CHANGES_FORMAT = 'static-export-changes';
/**
 * 2: a page moved to another address is listed in `pages.moved`, and no longer in
 * `pages.removed` and `pages.added`.
 * 3: a page whose old address became a redirect to its new one is moved too (its
 * `previous.redirected`), no longer an added page beside a changed one; a page that
 * redirects names where (`redirectsTo`); `site` names where the pages are served.
 * 4: such a page is moved too when its content changed with the move (`changed`), no
 * longer an added page beside a changed one.
 */
const CHANGES_VERSION = 4;
/**
 * Sorts an export's files, once: the earlier export's as soon as it is known (its pages
 * are looked up while the new export is extracted), the new one's as its pages are.
 */
function exportFiles(files) {
    const pages = new Map();
    // One pass: a manifest being made lists its files anew on each one.
    const others = [];
    for (const file of files) {
        if (isPage(file.path))
            pages.set(file.path, file);
        else
            others.push(file);
    }
    return sortedFiles(pages, others);
}
/** An export's files from its pages and the rest, which are assets unless page data. */
function sortedFiles(pages, others) {
    return { pages, assets: others.filter((file) => roleOf(file.path, pages) === 'asset') };
}
function refOf(manifest) {
    return { domain: manifest.domain, jobId: manifest.jobId, exportedAt: manifest.exportedAt };
}
function byPath(a, b) {
    return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
/**
 * The order a reader expects of addresses: numbers by their value (`/p2` before `/p10`),
 * accents and case after the letters (`/café` just after `/cafe`, `/Zeta` after `/alpha`).
 * One locale, named: the runner's (Swedish, say, puts `ä` after `z`) would change the report.
 */
const readerOrder = new Intl.Collator('en', { numeric: true });
/**
 * Sorts pages in the order of their addresses as a reader spells them, before any
 * encoding: `/` first, `/guides/` before `/guides/setup`, `/p2` before `/p10`. Addresses
 * the collation holds equal (`/p01`, `/p1`) keep an order by their code points.
 */
function sortByRoute(list) {
    const routes = new Map(list.map((page) => [page, pageRoute(page.path)]));
    list.sort((a, b) => {
        const x = routes.get(a);
        const y = routes.get(b);
        return readerOrder.compare(x, y) || (x < y ? -1 : x > y ? 1 : byPath(a, b));
    });
}
/** Compares two export manifests; `source` says where `previous` came from. */
function compareExports(previous, current, source, options = {}) {
    const domain = current.domain;
    const { files = {}, sitePath = '', redirects } = options;
    const earlier = files.previous ?? exportFiles(previous.files);
    const now = files.current ?? exportFiles(current.files);
    const pagesBefore = earlier.pages;
    const pagesAfter = now.pages;
    const sameScheme = previous.pageFingerprints !== undefined &&
        previous.pageFingerprints.scheme === current.pageFingerprints?.scheme;
    const url = (file) => pageUrl(domain, file, sitePath);
    const change = (file) => ({
        path: file.path,
        url: url(file.path),
        ...(file.page?.title ? { title: file.page.title } : {}),
    });
    const pages = {
        before: pagesBefore.size,
        after: pagesAfter.size,
        added: [],
        removed: [],
        moved: [],
        changed: [],
        navigationChanged: [],
        unchanged: 0,
        comparedByBytes: 0,
    };
    let compared = 0;
    // Earlier pages found under their folder's index (`x.html` → `x/index.html`).
    const nowIndexes = new Set();
    for (const [file, after] of pagesAfter) {
        let before = pagesBefore.get(file);
        const flat = before === undefined ? asFlatPage(file) : undefined;
        if (flat !== undefined && !pagesAfter.has(flat)) {
            before = pagesBefore.get(flat);
            if (before !== undefined)
                nowIndexes.add(flat);
        }
        if (before === undefined) {
            pages.added.push(change(after));
            continue;
        }
        compared += 1;
        if (sameScheme && before.page && after.page) {
            if (before.page.content !== after.page.content)
                pages.changed.push(change(after));
            else if (before.page.navigation !== after.page.navigation)
                pages.navigationChanged.push(change(after));
            else
                pages.unchanged += 1;
            continue;
        }
        pages.comparedByBytes += 1;
        if (before.sha256 === after.sha256)
            pages.unchanged += 1;
        else
            pages.changed.push(change(after));
    }
    // Every earlier page was found among the new ones unless some were removed.
    if (compared < pagesBefore.size) {
        for (const [file, before] of pagesBefore) {
            if (!pagesAfter.has(file) && !nowIndexes.has(file))
                pages.removed.push(change(before));
        }
    }
    if (redirects !== undefined) {
        followRedirects(pages, redirects, url, sameScheme ? pagesBefore : undefined, pagesAfter);
    }
    if (sameScheme)
        findMoves(pages, pagesBefore, pagesAfter);
    for (const list of [
        pages.added,
        pages.removed,
        pages.moved,
        pages.changed,
        pages.navigationChanged,
    ]) {
        sortByRoute(list);
    }
    return {
        format: CHANGES_FORMAT,
        version: CHANGES_VERSION,
        source,
        site: siteUrl(domain, sitePath),
        previous: refOf(previous),
        current: refOf(current),
        comparedBy: !sameScheme || (compared > 0 && pages.comparedByBytes === compared) ? 'bytes' : 'content',
        pages,
        assets: compareAssets(earlier.assets, now.assets),
        size: { before: previous.totals.bytes, after: current.totals.bytes },
    };
}
/**
 * The page `x.html` for a folder's index `x/index.html`: its address `/x` still serves the
 * index (static hosts lead it to `/x/`), so it is the same page, neither moved nor removed.
 * Not the other way: `/x/` serves no `x.html`.
 */
function asFlatPage(file) {
    return file.endsWith('/index.html') ? `${file.slice(0, -'/index.html'.length)}.html` : undefined;
}
/**
 * Names where each added or changed page that is a redirect now sends its reader. A
 * changed page that redirects to an added page is that page's old address, where the
 * generator left a stub: the added page moved, and the stub is no change of its own. With
 * other content than it had, it moved and changed at once (a page renamed and edited),
 * when no other stub leads there (two pages merged into a new one: which one moved would
 * be a guess). Content is compared only with fingerprints of one scheme (`before`).
 */
function followRedirects(pages, redirects, url, before, after) {
    const added = new Map(pages.added.map((page) => [page.path, page]));
    const changed = new Set(pages.changed);
    const moved = new Set();
    // Added pages that stubs with other content lead to, and those stubs.
    const edited = new Map();
    for (const page of [...pages.changed, ...pages.added]) {
        const target = redirects.get(page.path);
        if (target === undefined || target === page.path || !after.has(target))
            continue;
        page.redirectsTo = { path: target, url: url(target) };
        const to = added.get(target);
        const content = before?.get(page.path)?.page?.content;
        if (to === undefined || moved.has(to) || !changed.has(page) || content === undefined) {
            continue;
        }
        if (content !== after.get(target)?.page?.content) {
            // A page of the site's (with its navigation) become a bare stub (with none): a stub
            // before (`/latest` sent on to a newer page), or one drawn inside the site's frame,
            // whose navigation changes with any page added, moved nothing.
            const navigation = before?.get(page.path)?.page?.navigation;
            if (navigation !== fingerprint/* NO_NAVIGATION */.Fg &&
                after.get(page.path)?.page?.navigation === fingerprint/* NO_NAVIGATION */.Fg) {
                edited.set(to, [...(edited.get(to) ?? []), page]);
            }
            continue;
        }
        pages.moved.push({ ...to, previous: { path: page.path, url: page.url, redirected: true } });
        moved.add(to).add(page);
    }
    for (const [to, [page, ...others]] of edited) {
        if (page === undefined || others.length > 0 || moved.has(to))
            continue;
        pages.moved.push({
            ...to,
            previous: { path: page.path, url: page.url, redirected: true },
            changed: true,
        });
        moved.add(to).add(page);
    }
    if (moved.size === 0)
        return;
    pages.added = pages.added.filter((page) => !moved.has(page));
    pages.changed = pages.changed.filter((page) => !moved.has(page));
}
/**
 * Takes out of the added and removed pages those that moved: an added page whose content
 * is a removed page's, when no other added or removed page has that content (two pages of
 * the same text, such as stubs, are left as they are rather than paired by guess).
 */
function findMoves(pages, before, after) {
    if (pages.added.length === 0 || pages.removed.length === 0)
        return;
    const removed = onlyOneWithContent(pages.removed, before);
    const moved = new Set();
    for (const [content, page] of onlyOneWithContent(pages.added, after)) {
        const from = removed.get(content);
        if (from === undefined)
            continue;
        pages.moved.push({ ...page, previous: { path: from.path, url: from.url } });
        moved.add(page).add(from);
    }
    pages.added = pages.added.filter((page) => !moved.has(page));
    pages.removed = pages.removed.filter((page) => !moved.has(page));
}
/** The pages of `list` by their content fingerprint, for the fingerprints only one of them has. */
function onlyOneWithContent(list, files) {
    const byContent = new Map();
    for (const page of list) {
        const content = files.get(page.path)?.page?.content;
        if (content !== undefined)
            byContent.set(content, byContent.has(content) ? undefined : page);
    }
    const unique = new Map();
    for (const [content, page] of byContent)
        if (page !== undefined)
            unique.set(content, page);
    return unique;
}
/**
 * Assets are matched by their name without build ids and content hashes, then by
 * content: within a name, equal bytes are unchanged, and what is left pairs up as changed
 * (`style.3f9a.css` → `style.a1b2.css`), the rest added or removed.
 */
function compareAssets(before, after) {
    const groups = new Map();
    const group = (key) => {
        let found = groups.get(key);
        if (!found) {
            found = { before: [], after: [] };
            groups.set(key, found);
        }
        return found;
    };
    for (const file of before)
        group(assetKey(file.path)).before.push(file);
    for (const file of after)
        group(assetKey(file.path)).after.push(file);
    const result = { added: [], removed: [], changed: [], unchanged: 0 };
    for (const { before: old, after: now } of groups.values()) {
        const oldByHash = new Map();
        for (const file of old)
            oldByHash.set(file.sha256, [...(oldByHash.get(file.sha256) ?? []), file]);
        const unmatched = [];
        for (const file of now) {
            const same = oldByHash.get(file.sha256);
            if (same && same.length > 0) {
                same.shift();
                result.unchanged += 1;
            }
            else
                unmatched.push(file);
        }
        const leftover = [...oldByHash.values()].flat().sort(byPath);
        unmatched.sort(byPath);
        // Same name without the hash first, so that each changed file pairs with its own.
        for (const file of [...unmatched]) {
            const twin = leftover.findIndex((o) => o.path === file.path);
            if (twin === -1)
                continue;
            result.changed.push({ path: file.path, previous: file.path });
            leftover.splice(twin, 1);
            unmatched.splice(unmatched.indexOf(file), 1);
        }
        const paired = new Set();
        for (const [file, previous] of pairBySize(unmatched, leftover)) {
            result.changed.push({ path: file.path, previous: previous.path });
            paired.add(file).add(previous);
        }
        for (const file of unmatched)
            if (!paired.has(file))
                result.added.push({ path: file.path });
        for (const file of leftover)
            if (!paired.has(file))
                result.removed.push({ path: file.path });
    }
    result.added.sort(byPath);
    result.removed.sort(byPath);
    result.changed.sort(byPath);
    return result;
}
/** Beyond this many steps, a group is paired in order of size without looking further. */
const MAX_PAIRING_STEPS = 4_000_000;
/**
 * Pairs the files left in a group (new ones with earlier ones whose bytes differ) so that
 * their sizes differ the least in all: an edit keeps a file's size close, and the many
 * chunks a generator names by their hash alone (`chunks/079h_c3rnr5lh.js`), all in one
 * group, rarely share one. Each of the shorter list pairs with one of the longer; in the
 * best pairing neither list's size order crosses, so dynamic programming finds it in
 * (shorter) x (difference + 1) steps.
 */
function pairBySize(now, before) {
    const bySize = (a, b) => a.size - b.size || byPath(a, b);
    const nowFewer = now.length <= before.length;
    const fewer = (nowFewer ? now : before).slice().sort(bySize);
    const more = (nowFewer ? before : now).slice().sort(bySize);
    const n = fewer.length;
    // fewer[i - 1] pairs with more[i - 1 + k], k from 0 to `spare`: the files of `more`
    // skipped so far.
    const spare = more.length - n;
    const width = spare + 1;
    const matched = fewer.map((_, i) => i);
    if (n > 0 && spare > 0 && n * width <= MAX_PAIRING_STEPS) {
        // cost[k]: the least total difference pairing fewer[0..i) with k files of more skipped.
        const skipped = new Uint8Array((n + 1) * width);
        let cost = new Float64Array(width);
        for (let i = 1; i <= n; i += 1) {
            const next = new Float64Array(width);
            const size = fewer[i - 1].size;
            for (let k = 0; k <= spare; k += 1) {
                const take = cost[k] + Math.abs(size - more[i - 1 + k].size);
                // Or more[i - 1 + k] is skipped: fewer[i - 1] pairs further back, k - 1 skipped.
                const skip = k > 0 ? next[k - 1] : Infinity;
                if (take <= skip)
                    next[k] = take;
                else {
                    next[k] = skip;
                    skipped[i * width + k] = 1;
                }
            }
            cost = next;
        }
        for (let i = n, k = spare; i > 0;) {
            if (skipped[i * width + k] === 1)
                k -= 1;
            else {
                matched[i - 1] = i - 1 + k;
                i -= 1;
            }
        }
    }
    return matched.map((j, i) => {
        const a = fewer[i];
        const b = more[j];
        return nowFewer ? [a, b] : [b, a];
    });
}
/** Why the export removes more pages than `limit` allows, or undefined when it does not. */
function exceedsRemovalLimit(report, limit) {
    const removed = report.pages.removed.length;
    const before = report.pages.before;
    const limitShare = 'percent' in limit ? limit.percent : undefined;
    const shown = `${removed} of the ${before} pages (${formatPercent(removed, before, limitShare)})`;
    if ('pages' in limit) {
        return removed > limit.pages
            ? `it removes ${shown}, more than \`max-removed-pages\` allows (${limit.pages})`
            : undefined;
    }
    // Compared without dividing: 7 of 100 pages is exactly 7%, where 7 / 100 * 100 is not.
    const over = removed * 100 - limit.percent * before > 1e-9 * before;
    return over
        ? `it removes ${shown}, more than \`max-removed-pages\` allows (${limit.percent}%)`
        : undefined;
}
/**
 * `removed` of `before` as a share a person reads: whole when it is (7 of 100 is 7%, though
 * 7 / 100 * 100 is not quite), else to one decimal, or more where one would round it onto
 * a value it is not: the limit it exceeds (21 of 419 is 5.01%, not 5.0%), 0% or 100%.
 */
function formatPercent(removed, before, limit) {
    if (before === 0 || (removed * 100) % before === 0) {
        return `${before === 0 ? 0 : (removed * 100) / before}%`;
    }
    const share = (removed / before) * 100;
    let digits = 1;
    while (digits < 6 && [limit, 0, 100].includes(Number(share.toFixed(digits))))
        digits += 1;
    return `${share.toFixed(digits)}%`;
}

// EXTERNAL MODULE: external "node:worker_threads"
var external_node_worker_threads_ = __webpack_require__(5919);
// EXTERNAL MODULE: ./.build/worker-file.js
var worker_file = __webpack_require__(625);
;// CONCATENATED MODULE: ./.build/changes/page-fingerprints.js




/**
 * Fingerprints the pages of an extracted site, each as soon as it is written (`add`), then
 * whatever is missing once the site is complete (`finish`). Runs the same in a worker
 * thread or in the calling one. A page whose bytes equal the earlier export's keeps its
 * earlier fingerprint unread; one whose markup is unchanged keeps it without a scan.
 *
 * A path may be added more than once (an archive entry replaced by a later one, a
 * download restarted): the last look wins, and `finish` looks again at any page whose
 * last look was at other bytes than the ones the site ends up with.
 */
class PageFingerprintJob {
    root;
    earlier;
    #outcomes = new Map();
    /** One buffer for every page: their sizes are known from the extraction. */
    #buffer = Buffer.allocUnsafe(256 * 1024);
    constructor(root, earlier) {
        this.root = root;
        this.earlier = earlier;
    }
    /** A file was written in full: fingerprints it now if it is a page (from `bytes` when given). */
    add(file, bytes) {
        if (!isPage(file.path))
            return;
        this.#outcomes.set(file.path, this.#look(file, bytes));
    }
    /**
     * Keeps the earlier fingerprint of a page that has the same bytes, or the same markup
     * (from `bytes`, the page as written), as in the earlier export. Returns what is left
     * to scan (with its markup digest when it was worked out), or undefined.
     */
    triage(file, bytes) {
        if (!isPage(file.path))
            return undefined;
        const previous = this.earlier?.get(file.path);
        if (previous?.page === undefined)
            return file;
        let page = previous.page;
        if (previous.sha256 !== file.sha256) {
            if (bytes === undefined)
                return file;
            if ((0,fingerprint/* hasLayout */.Dn)(page)) {
                if (!(0,fingerprint/* sameMarkup */.fw)(bytes, page))
                    return file;
            }
            else {
                // No layout to walk (an earlier form, or none): the full digest decides, and its
                // layout goes with the page carried over, for the next export.
                const markup = (0,fingerprint/* markupDigest */.lU)(bytes);
                if (markup.digest !== page.markup)
                    return { ...file, markup };
                page = (0,fingerprint/* withLayout */.Vp)(page, markup.layout);
            }
        }
        this.#outcomes.set(file.path, { sha256: file.sha256, page, carriedOver: true });
        return undefined;
    }
    /** What this job has looked at so far, by path: what a worker hands back to the job that finishes. */
    outcomes() {
        return this.#outcomes;
    }
    /** Takes another job's looks (a worker's) as this one's own. */
    adopt(outcomes) {
        for (const [file, outcome] of outcomes)
            this.#outcomes.set(file, outcome);
    }
    /** Fingerprints of every page among `files` (the site as extracted, in full). */
    finish(files) {
        const byPath = new Map();
        const unreadable = [];
        const pageFiles = [];
        const otherFiles = [];
        let carriedOver = 0;
        for (const file of files) {
            if (!isPage(file.path)) {
                otherFiles.push(file);
                continue;
            }
            pageFiles.push(file);
            let outcome = this.#outcomes.get(file.path);
            if (outcome?.sha256 !== file.sha256 || 'unreadable' in outcome)
                outcome = this.#look(file);
            if ('unreadable' in outcome) {
                unreadable.push(`${file.path}: ${outcome.unreadable}`);
                continue;
            }
            byPath.set(file.path, outcome.page);
            if (outcome.carriedOver)
                carriedOver += 1;
        }
        return { scheme: fingerprint/* FINGERPRINT_SCHEME */.xh, byPath, carriedOver, unreadable, pageFiles, otherFiles };
    }
    #look(file, written) {
        const previous = this.earlier?.get(file.path);
        if (previous?.page !== undefined && previous.sha256 === file.sha256) {
            return { sha256: file.sha256, page: previous.page, carriedOver: true };
        }
        let bytes = written;
        if (bytes === undefined) {
            try {
                if (file.size > this.#buffer.length)
                    this.#buffer = Buffer.allocUnsafe(file.size);
                bytes = readInto(external_node_path_.join(this.root, ...file.path.split('/')), this.#buffer, file.size);
            }
            catch (err) {
                const code = err.code;
                return { sha256: file.sha256, unreadable: code ?? String(err) };
            }
        }
        const page = (0,fingerprint/* fingerprintPage */.y8)(bytes, previous?.page, file.markup);
        // The same markup keeps the earlier fingerprint (its layout renewed); another is a scan.
        return { sha256: file.sha256, page, carriedOver: page.markup === previous?.page?.markup };
    }
}
/** The file's first `size` bytes, read into `buffer` with three system calls. */
function readInto(file, buffer, size) {
    const fd = (0,external_node_fs_.openSync)(file, 'r');
    try {
        let read = 0;
        while (read < size) {
            const n = (0,external_node_fs_.readSync)(fd, buffer, read, size - read, read);
            if (n === 0)
                break;
            read += n;
        }
        return buffer.subarray(0, read);
    }
    finally {
        (0,external_node_fs_.closeSync)(fd);
    }
}

;// CONCATENATED MODULE: ./.build/changes/fingerprinter.js






/** The worker's entry, as the build places it beside the module that starts it. */
const WORKER_FILE = 'fingerprint-worker.js';
/**
 * Pages are handed to the worker in batches: one message per page costs more than its
 * scan. The worker starts with the first full batch: fewer pages (an export that edits a
 * few) are scanned here at the end in less time than a thread takes to start.
 */
const BATCH_PAGES = 128;
function startPageFingerprinter(root, earlier, options = {}) {
    const workerFile = options.workerFile ?? (0,worker_file/* shippedWorkerFile */.M)(import.meta.url, WORKER_FILE);
    if (workerFile !== undefined && (0,external_node_fs_.existsSync)(workerFile)) {
        try {
            return new WorkerFingerprinter(root, earlier, workerFile, options);
        }
        catch (err) {
            options.debug?.(`No fingerprint worker (${String(err)}): pages are fingerprinted inline.`);
        }
    }
    return inlineFingerprinter(root, earlier);
}
function inlineFingerprinter(root, earlier) {
    const job = new PageFingerprintJob(root, earlier);
    return {
        where: 'inline',
        scannedBeside: 0,
        written: (file, bytes) => {
            const rest = job.triage(file, bytes);
            if (rest !== undefined)
                job.add(rest, bytes);
        },
        finish: (files) => Promise.resolve(job.finish(files)),
        stop: () => Promise.resolve(),
    };
}
/**
 * Batches handed to the worker ahead of its answers, so that it never waits for the next
 * one while this thread is busy; the rest wait here, for whichever thread is free first.
 */
const IN_FLIGHT = 2;
/**
 * Pages with the earlier export's bytes or markup are settled here, as they are written
 * (a CRC of bytes in memory); the worker scans the rest, and is started once there is a
 * batch of them: an export that changes a few pages, or a site without pages, never
 * starts it. Once the site is written, this thread scans the batches the worker has not
 * reached yet beside it, from the other end of the queue: a first export, or a sidebar
 * changed on every page, leaves most of the scanning after the extraction.
 */
class WorkerFingerprinter {
    root;
    earlier;
    workerFile;
    options;
    #local;
    #worker;
    #outcomes;
    #batch = [];
    /** Full batches not handed to the worker yet. */
    #queue = [];
    /** Batches the worker has and has not said it scanned. */
    #inFlight = 0;
    /** Called when the worker has scanned a batch, or failed. */
    #progress;
    #failed;
    #stopped = false;
    #scannedBeside = 0;
    constructor(root, earlier, workerFile, options) {
        this.root = root;
        this.earlier = earlier;
        this.workerFile = workerFile;
        this.options = options;
        this.#local = new PageFingerprintJob(root, earlier);
    }
    get where() {
        return this.#worker === undefined ? 'inline' : 'worker';
    }
    get scannedBeside() {
        return this.#scannedBeside;
    }
    #start() {
        if (this.#worker !== undefined || this.#failed !== undefined)
            return this.#worker;
        let worker;
        try {
            worker = new external_node_worker_threads_.Worker(this.workerFile, {
                workerData: { root: this.root, ...(this.earlier ? { earlier: this.earlier } : {}) },
            });
        }
        catch (err) {
            this.#failed = err;
            return undefined;
        }
        // The worker never keeps the step alive: a failed run ends without waiting for it.
        worker.unref();
        this.#outcomes = new Promise((resolve, reject) => {
            worker.on('message', (message) => {
                if (message.kind === 'outcomes') {
                    resolve(message.outcomes);
                    return;
                }
                this.#inFlight -= 1;
                this.#pump();
                this.#progress?.();
            });
            worker.once('error', reject);
            worker.once('exit', (code) => reject(new Error(`the fingerprint worker exited (code ${code}) before answering`)));
        });
        // Awaited by finish; meanwhile a failure is only remembered, never unhandled.
        this.#outcomes.catch((err) => {
            this.#failed = err;
            this.#progress?.();
        });
        this.#worker = worker;
        return worker;
    }
    written(file, bytes) {
        const rest = this.#local.triage(file, bytes);
        if (rest === undefined || this.#failed !== undefined)
            return;
        this.#batch.push(rest);
        if (this.#batch.length >= (this.options.batchPages ?? BATCH_PAGES)) {
            this.#queue.push(this.#batch);
            this.#batch = [];
            this.#start();
            this.#pump();
        }
    }
    /** Hands the worker the oldest batches, up to IN_FLIGHT of them. */
    #pump() {
        const worker = this.#worker;
        if (worker === undefined)
            return;
        while (this.#inFlight < IN_FLIGHT && this.#failed === undefined) {
            const pages = this.#queue.shift();
            if (pages === undefined)
                return;
            worker.postMessage({ kind: 'written', pages });
            this.#inFlight += 1;
        }
    }
    async finish(files, signal) {
        // Nothing was left to the worker: what remains is looked at here.
        if (this.#worker === undefined && this.#failed === undefined) {
            return this.#local.finish(files);
        }
        if (this.#batch.length > 0)
            this.#queue.push(this.#batch);
        this.#batch = [];
        const stop = () => void this.stop();
        signal?.addEventListener('abort', stop, { once: true });
        try {
            this.#pump();
            // The worker takes batches from the front of the queue, this thread from the back.
            for (let pages = this.#queue.pop(); pages !== undefined; pages = this.#queue.pop()) {
                for (const page of pages)
                    this.#local.add(page);
                this.#scannedBeside += pages.length;
                if (this.#stopped)
                    throw new Error('the page fingerprints were stopped');
                // The worker's answers come in here, each handing it the next batch.
                await (0,external_node_timers_promises_.setImmediate)();
            }
            while (this.#inFlight > 0 && this.#failed === undefined) {
                await new Promise((resolve) => (this.#progress = resolve));
            }
            if (this.#failed !== undefined || this.#worker === undefined || !this.#outcomes) {
                throw this.#failed;
            }
            this.#worker.postMessage({ kind: 'finish' });
            this.#local.adopt(await this.#outcomes);
        }
        catch (err) {
            (0,errors/* throwIfAborted */.Te)(signal);
            if (this.#stopped)
                throw err;
            // A broken worker costs time, never the report: what it had is looked at here.
            this.options.debug?.(`The fingerprint worker failed (${String(err)}): pages are fingerprinted inline.`);
        }
        finally {
            signal?.removeEventListener('abort', stop);
            this.#progress = undefined;
            await this.stop();
        }
        return this.#local.finish(files);
    }
    async stop() {
        this.#stopped = true;
        this.#progress?.();
        await this.#worker?.terminate();
    }
}

// EXTERNAL MODULE: ./node_modules/htmlparser2/dist/Parser.js
var Parser = __webpack_require__(5867);
// EXTERNAL MODULE: ./.build/airgap/html.js
var airgap_html = __webpack_require__(178);
;// CONCATENATED MODULE: ./.build/changes/redirects.js






/**
 * Redirect stubs: the pages a generator leaves at a moved page's old address, whose
 * `<meta http-equiv="refresh">` sends the reader on to the new one (Hugo's aliases, Jekyll's
 * redirect_from, Docusaurus's client redirects, Next.js's `redirect()` in a static export).
 * The fingerprints only hash where a page redirects, so the report reads the few pages it
 * lists as added or changed again, smallest first, as a stub is.
 */
/** Bytes of pages read again at most: stubs are a few hundred bytes, a site's pages far more. */
const STUB_BYTES_READ = 16 * 1024 * 1024;
/**
 * The longest delay of a refresh that sends a reader on at once: Next.js writes 0 for a
 * permanent redirect and 1 for a temporary one; a longer one leaves a page to be read.
 */
const REDIRECT_MAX_SECONDS = 1;
/**
 * The pages of the new export that the report lists as added or changed, that redirect a
 * reader at once to another page of it: the stub's path → the page's path. Reads them
 * from `root` (the extracted site) smallest first, within a budget of bytes.
 */
async function findRedirects(root, report, files, site) {
    const redirects = new Map();
    const listed = [...report.pages.added, ...report.pages.changed]
        .map((page) => files.get(page.path))
        .filter((file) => file !== undefined)
        .sort((a, b) => a.size - b.size);
    // The site's tree only for a page that names a refresh: most reports list none.
    let tree;
    let budget = STUB_BYTES_READ;
    for (const file of listed) {
        budget -= file.size;
        if (budget < 0)
            break;
        const bytes = await promises_.readFile(external_node_path_.join(root, ...file.path.split('/')))
            .catch(() => undefined);
        if (bytes === undefined || !namesRefresh(bytes))
            continue;
        tree ??= site_tree/* SiteTree */.AI.of('', files.keys(), []);
        const target = redirectOf(bytes, file.path, tree, site);
        if (target !== undefined)
            redirects.set(file.path, target);
    }
    return redirects;
}
/** The page of the site that the page `file` (its bytes) sends a reader to at once, if any. */
function redirectOf(bytes, file, tree, site) {
    if (!namesRefresh(bytes))
        return undefined;
    const refresh = readRefresh(bytes.toString('utf8'));
    if (refresh === undefined)
        return undefined;
    const own = pageUrl(site.domain, file, site.sitePath);
    let target;
    try {
        target = new URL(refresh.url, refresh.base === undefined ? own : new URL(refresh.base, own));
    }
    catch {
        return undefined;
    }
    if ((target.protocol !== 'https:' && target.protocol !== 'http:') ||
        target.hostname !== site.domain) {
        return undefined;
    }
    const inSite = `${site.sitePath}/`;
    if (!target.pathname.startsWith(inSite))
        return undefined;
    const urlPath = (0,site_tree/* decodedUrlPath */.DP)(target.pathname.slice(site.sitePath.length));
    const found = urlPath === undefined ? undefined : tree.resolve(urlPath)?.file;
    return found !== undefined && found !== file && isPage(found) ? found : undefined;
}
/** Whether the page's bytes name a refresh at all: most pages do not, and are not parsed. */
function namesRefresh(bytes) {
    const text = bytes.toString('latin1');
    return /http-equiv/i.test(text) && /refresh/i.test(text);
}
/**
 * The URL of the first `<meta http-equiv="refresh">` of a page, the one a browser acts on,
 * when it sends the reader on within `REDIRECT_MAX_SECONDS`; and the page's `<base href>`,
 * which a relative URL is read against. What a `<template>`, a `<noscript>` (text to a
 * browser that runs scripts) or an SVG or MathML element holds is no tag of the page.
 */
function readRefresh(html) {
    let found;
    let refreshed = false;
    let base;
    let inert = 0;
    const INERT = new Set(['template', 'noscript', 'svg', 'math']);
    const parser = new Parser/* Parser */.i({
        onopentag(name, attributes) {
            if (INERT.has(name))
                inert += 1;
            if (inert > 0)
                return;
            if (refreshed)
                return;
            // The refresh's URL is read against the base known when its tag is met.
            if (name === 'base' && base === undefined && attributes.href !== undefined) {
                base = attributes.href.trim();
            }
            if (name !== 'meta' || attributes['http-equiv']?.toLowerCase() !== 'refresh')
                return;
            const content = attributes.content ?? '';
            // As the HTML standard reads it: a time, then the end, a separator or a blank; a
            // browser ignores any other (`content="url=/x"`), and acts on the first it takes.
            const delay = /^[\t\n\f\r ]*(\d*)(\.[\d.]*)?(?:[;,\t\n\f\r ]|$)/.exec(content);
            if (delay === null || (delay[1] === '' && delay[2] === undefined))
                return;
            refreshed = true;
            const url = (0,airgap_html/* refreshUrl */.Lt)(content);
            if (url !== undefined && Number(delay[1] || '0') <= REDIRECT_MAX_SECONDS)
                found = { url };
        },
        onclosetag(name) {
            if (INERT.has(name) && inert > 0)
                inert -= 1;
        },
    }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
    parser.end(html);
    return found === undefined ? undefined : { ...found, ...(base !== undefined ? { base } : {}) };
}

;// CONCATENATED MODULE: ./.build/changes/review.js













/** The export removes more pages than `max-removed-pages` allows; `path` was left as it was. */
class RemovalLimitError extends errors/* ActionError */.lZ {
    name = 'RemovalLimitError';
}
/**
 * The change report of one export run: the earlier export is looked up as soon as the run
 * starts (a manifest served by the live site is fetched while the export job runs), the
 * pages are fingerprinted for the new manifest once the site is extracted, and the report
 * is made, written and checked against `max-removed-pages` before the site is put in place.
 */
class ChangeReview {
    config;
    target;
    deps;
    #baseline;
    /** The earlier export's files, sorted once it is known, before the new export is extracted. */
    #earlier;
    /** The new export's files, sorted as its pages are fingerprinted; kept until the report. */
    #current;
    /**
     * An earlier run's report at the fixed `changes-file`, removed as the run starts (true
     * when there was one): a run that fails, or makes no report, leaves none there for a
     * later step to read as its own.
     */
    #staleRemoved;
    /** The folder the live site is served under on its domain, where the report links pages. */
    #sitePath;
    /** The extracted site, until it is put in place: the report reads redirect stubs there. */
    #stagingDir;
    constructor(config, target, deps) {
        this.config = config;
        this.target = target;
        this.deps = deps;
        this.#baseline = loadBaseline(config.compareWith, {
            ...(target ? { target } : {}),
            targetPath: config.path,
            dispatcher: deps.dispatcher,
            requestTimeoutMs: config.requestTimeoutMs,
            ...(deps.signal ? { signal: deps.signal } : {}),
        });
        this.#earlier = this.#baseline.then((baseline) => baseline.kind === 'found' ? exportFiles(baseline.baseline.manifest.files) : undefined);
        this.#staleRemoved = this.#removeStaleReport();
        this.#sitePath = sitePathOf(config.compareWith, config.domain);
        // Awaited later; a rejection (a cancellation, a file that cannot be removed) must not
        // go unhandled meanwhile.
        this.#baseline.catch(() => undefined);
        this.#earlier.catch(() => undefined);
        this.#staleRemoved.catch(() => undefined);
    }
    /** A report is made (not with `compare-with: none`, where only the guard runs). */
    get reports() {
        return this.config.compareWith.kind !== 'none';
    }
    /**
     * Page fingerprints for the manifest, made as the pages are written (in a worker thread
     * when there is one) once the earlier export is known: pages whose bytes or markup are
     * unchanged keep the earlier fingerprints.
     */
    describePages = (stagingDir) => {
        const { reporter, clock } = this.deps;
        this.#stagingDir = stagingDir;
        let fingerprinter;
        let stopped = false;
        // Pages written before the earlier export is known wait here (a URL is still loading).
        let waiting = [];
        const ready = Promise.all([this.#baseline, this.#earlier]).then(([baseline, earlier]) => {
            if (stopped)
                return undefined;
            fingerprinter = startPageFingerprinter(stagingDir, earlierPages(baseline, earlier), {
                debug: (line) => reporter.debug(line),
            });
            for (const file of waiting)
                fingerprinter.written(file);
            waiting = [];
            return fingerprinter;
        });
        ready.catch(() => undefined);
        return {
            written: (file, bytes) => {
                if (fingerprinter)
                    fingerprinter.written(file, bytes);
                // The bytes are only valid during the call: a waiting page is read back later.
                else if (isPage(file.path))
                    waiting.push(file);
            },
            finish: async (contents, signal) => {
                const started = clock.now();
                const running = await ready;
                if (running === undefined)
                    throw new Error('the page fingerprints were stopped');
                const pages = await running.finish(contents.files, signal);
                this.#current = currentFiles(pages);
                reporter.debug(`Fingerprinted ${pages.byPath.size} pages ${whereScanned(running)}, ${(0,duration/* formatDuration */.a3)(clock.now() - started)} after the extraction (${pages.carriedOver} carried over: unchanged bytes or markup).`);
                if (pages.unreadable.length > 0) {
                    reporter.warning(`${pages.unreadable.length} extracted pages could not be read to fingerprint them (${pages.unreadable.slice(0, 3).join('; ')}${pages.unreadable.length > 3 ? '; …' : ''}): the change report compares them by their bytes.`);
                }
                // Only the fingerprints go into the manifest: the lists of files die with the report.
                return { scheme: pages.scheme, byPath: pages.byPath };
            },
            stop: async () => {
                stopped = true;
                await fingerprinter?.stop();
            },
        };
    };
    /** Before the site is put in place: the report, its outputs and file, and the guard. */
    review = async (manifest) => {
        const { reporter, record } = this.deps;
        const baseline = await this.#baseline;
        // Removed before this run's report is written there.
        const staleRemoved = await this.#staleRemoved;
        if (baseline.kind !== 'found') {
            record.changes = { kind: 'none', reason: baseline.reason };
            if (baseline.kind === 'unusable')
                reporter.warning(`No change report: ${baseline.reason}.`);
            else
                reporter.info(`No change report: ${baseline.reason}.`);
            if (staleRemoved) {
                reporter.info(`Removed ${this.config.changesFile}, the change report of an earlier run: this run has none.`);
            }
            this.#guardAgainstPath(manifest);
            return;
        }
        // Both sides are sorted already: the earlier one before the extraction, the new one with its pages.
        const previous = await this.#earlier;
        const current = this.#current;
        this.#current = undefined;
        const compare = (redirects) => compareExports(baseline.baseline.manifest, manifest, baseline.baseline.source, {
            files: { ...(previous ? { previous } : {}), ...(current ? { current } : {}) },
            sitePath: this.#sitePath,
            ...(redirects ? { redirects } : {}),
        });
        let report = compare();
        const redirects = await this.#redirectsIn(report, current);
        // Rare: a page listed that redirects. Compared again, it is labelled, or its move found.
        if (redirects.size > 0)
            report = compare(redirects);
        if (baseline.baseline.manifest.domain !== manifest.domain) {
            reporter.warning(`The earlier export is of ${baseline.baseline.manifest.domain}, this one of ${manifest.domain}: the change report compares them anyway.`);
        }
        const file = this.config.changesFile ??
            external_node_path_.join(this.deps.tempDir, `static-export-changes-${manifest.jobId}.json`);
        await (0,place/* writeFileAtomic */.Zf)(file, `${JSON.stringify(report, null, 2)}\n`);
        const earlierScheme = baseline.baseline.manifest.pageFingerprints?.scheme;
        record.changes = {
            kind: 'report',
            report,
            file,
            ...(report.comparedBy === 'bytes' ? { byBytesBecause: whyByBytes(earlierScheme).said } : {}),
        };
        this.#publish(report, file, earlierScheme);
        const limit = this.config.maxRemovedPages;
        const excess = limit === undefined ? undefined : exceedsRemovalLimit(report, limit);
        if (excess !== undefined) {
            // The file is in RUNNER_TEMP, gone with the job: the message names the first too.
            throw removalRefused(`${excess}; removed: ${namedRemoved(report.pages.removed, this.config.domain)}. The removed pages are listed in ${file}`);
        }
    };
    /**
     * Without a report, `max-removed-pages` still counts against the earlier export that
     * `path` holds, which is what the swap would replace: an empty export must not wipe
     * the docs because the live site's manifest could not be read.
     */
    #guardAgainstPath(manifest) {
        const limit = this.config.maxRemovedPages;
        if (limit === undefined)
            return;
        const { reporter } = this.deps;
        const earlier = earlierExportIn(this.target);
        if (earlier === undefined) {
            reporter.warning('`max-removed-pages` was not checked: there is no earlier export to count removed pages against, neither from `compare-with` nor in `path`.');
            return;
        }
        const source = `the earlier export in \`path\` (${this.config.path})`;
        const report = compareExports(earlier, manifest, source, { sitePath: this.#sitePath });
        const excess = exceedsRemovalLimit(report, limit);
        if (excess !== undefined) {
            // No report file lists them: the first are named here, in the log and the summary.
            throw removalRefused(`${excess}, counted against ${source}; removed: ${namedRemoved(report.pages.removed, this.config.domain)}`);
        }
        reporter.info(`\`max-removed-pages\` was checked against ${source}: ${report.pages.removed.length} of its ${report.pages.before} pages removed.`);
    }
    /** The pages the report lists as added or changed that are redirect stubs, and where to. */
    async #redirectsIn(report, current) {
        const root = this.#stagingDir;
        if (root === undefined || current === undefined)
            return new Map();
        const started = this.deps.clock.now();
        const redirects = await findRedirects(root, report, current.pages, {
            domain: this.config.domain,
            sitePath: this.#sitePath,
        });
        this.deps.reporter.debug(`Looked for redirect stubs among the added and changed pages in ${(0,duration/* formatDuration */.a3)(this.deps.clock.now() - started)}: ${redirects.size} found.`);
        return redirects;
    }
    /** Removes the report at the fixed `changes-file` when it is one of ours; true when it was. */
    async #removeStaleReport() {
        const file = this.config.changesFile;
        return file === undefined ? false : removeStaleReport(file, this.deps.reporter);
    }
    #publish(report, file, earlierScheme) {
        const { reporter } = this.deps;
        const { pages, assets } = report;
        reporter.setOutput('pages-added', String(pages.added.length));
        reporter.setOutput('pages-removed', String(pages.removed.length));
        reporter.setOutput('pages-moved', String(pages.moved.length));
        reporter.setOutput('pages-changed', String(pages.changed.length));
        reporter.setOutput('pages-navigation-changed', String(pages.navigationChanged.length));
        reporter.setOutput('assets-changed', String(assets.changed.length + assets.added.length + assets.removed.length));
        reporter.setOutput('changes-file', file);
        // An address no longer served is a path, as in the summary: a link there answers 404.
        const gone = (url) => (0,_build_report/* addressPath */.EL)(url, this.config.domain);
        reporter.info(`Compared with ${report.source}, export job ${report.previous.jobId}.`);
        reporter.info(`Pages: ${pages.before} → ${pages.after}: ${pages.added.length} added, ${pages.removed.length} removed, ${pages.moved.length} moved, ${pages.changed.length} changed, navigation changed on ${pages.navigationChanged.length}, ${pages.unchanged} unchanged.`);
        const lists = [
            ['changed', pages.changed, true],
            ['added', pages.added, true],
            ['removed', pages.removed, false],
            ['moved', pages.moved, true],
        ];
        for (const [label, list, served] of lists) {
            for (const page of list.slice(0, 10)) {
                const from = 'previous' in page ? `${gone(page.previous.url)} → ` : '';
                const stub = 'previous' in page && page.previous.redirected
                    ? ` (the old address redirects to it${page.changed ? '; its content changed too' : ''})`
                    : page.redirectsTo
                        ? ` (redirects to ${page.redirectsTo.url})`
                        : '';
                reporter.info(`  ${label}: ${from}${served ? page.url : gone(page.url)}${stub}`);
            }
            if (list.length > 10)
                reporter.info(`  … ${list.length - 10} more ${label}`);
        }
        reporter.info(`Assets: ${assets.changed.length} changed, ${assets.added.length} added, ${assets.removed.length} removed. Full report: ${file}`);
        if (report.comparedBy === 'bytes') {
            const { said, more } = whyByBytes(earlierScheme);
            reporter.notice(`The earlier export ${said}${more}: pages were compared by their bytes, so every rebuilt page counts as changed. The next report compares what a reader sees.`);
        }
        else if (pages.comparedByBytes > 0) {
            reporter.notice(`${pages.comparedByBytes} of the pages in both exports had no fingerprint in one of them: they were compared by their bytes, so a rebuild counts as a change there. The other pages were compared by what a reader sees.`);
        }
    }
}
/**
 * Why pages were compared by their bytes, said of the earlier manifest (the summary's
 * words), and `more` the log adds.
 */
function whyByBytes(earlierScheme) {
    return earlierScheme === undefined || earlierScheme === fingerprint/* FINGERPRINT_SCHEME */.xh
        ? { said: 'has no page fingerprints', more: ' (it predates them, or they were turned off)' }
        : {
            said: `has page fingerprints of another kind (scheme ${earlierScheme}; this version makes ${fingerprint/* FINGERPRINT_SCHEME */.xh})`,
            more: ', made by another version of this action',
        };
}
/** Removed pages a refusal names: the log and the summary outlive the report file. */
const NAMED_REMOVED = 5;
/**
 * The first removed pages by path (`/guides/old`: nothing is served at their address any
 * more, as the summary shows them), and how many more: `/a, /b and 3 more`.
 */
function namedRemoved(removed, domain) {
    const named = removed.slice(0, NAMED_REMOVED).map((page) => (0,_build_report/* addressPath */.EL)(page.url, domain));
    const more = removed.length > NAMED_REMOVED ? ` and ${removed.length - NAMED_REMOVED} more` : '';
    return `${named.join(', ')}${more}`;
}
/** Where the pages were scanned, for the debug log. */
function whereScanned(fingerprinter) {
    if (fingerprinter.where === 'inline')
        return 'in the main thread';
    const beside = fingerprinter.scannedBeside;
    return `in a worker thread while extracting${beside > 0 ? ` (${beside} of them in the main thread beside it, after the extraction)` : ''}`;
}
/** The guard's refusal: `why` says what the export removes, and where that is listed. */
function removalRefused(why) {
    return new RemovalLimitError(`The export was not put in place, and \`path\` was left as it is: ${why}. If the removal is intended, raise \`max-removed-pages\` or leave it empty for this run.`);
}
/** The earlier export's pages, when their fingerprints were made the way this version makes them. */
function earlierPages(baseline, earlier) {
    if (baseline.kind !== 'found' || earlier === undefined)
        return undefined;
    const { manifest } = baseline.baseline;
    if (manifest.pageFingerprints?.scheme !== fingerprint/* FINGERPRINT_SCHEME */.xh)
        return undefined;
    return earlier.pages;
}
/** The new export's files as the report compares them, from its pages' fingerprinting. */
function currentFiles(fingerprints) {
    const pages = new Map();
    for (const file of fingerprints.pageFiles) {
        const page = fingerprints.byPath.get(file.path);
        pages.set(file.path, {
            path: file.path,
            size: file.size,
            sha256: file.sha256,
            ...(page ? { page } : {}),
        });
    }
    return sortedFiles(pages, fingerprints.otherFiles);
}
/**
 * Removes the change report an earlier run left at `file` (a file of the report's format
 * only: anything else there is the user's), so that a later step never reads it as this
 * run's. Whether there was one.
 */
async function removeStaleReport(file, reporter) {
    const text = await promises_.readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined)
        return false;
    let format;
    try {
        format = JSON.parse(text).format;
    }
    catch {
        return false;
    }
    if (format !== CHANGES_FORMAT)
        return false;
    await promises_.rm(file, { force: true });
    reporter.debug(`Removed ${file}, the change report of an earlier run.`);
    return true;
}

;// CONCATENATED MODULE: ./.build/deliver/archive/format.js
/** Bytes needed to tell the formats apart (a tar header is 512 bytes, magic at 257). */
const SNIFF_BYTES = 512;
/** The archive format from its first bytes; never from a file name or URL. */
function detectFormat(head) {
    if (startsWith(head, [0x1f, 0x8b]))
        return 'tar.gz';
    // A local file header, or the end record alone (an empty zip).
    if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) {
        return 'zip';
    }
    if (head.length >= 262 && head.subarray(257, 262).toString('latin1') === 'ustar')
        return 'tar';
    if (head.length >= SNIFF_BYTES && hasTarChecksum(head))
        return 'tar';
    // An empty tar (`tar -cf e.tar -T /dev/null`) is its end-of-archive blocks alone: GNU
    // tar and bsdtar extract nothing from it, as from an empty tar.gz.
    if (head.length >= SNIFF_BYTES && isZeroBlock(head))
        return 'tar';
    return undefined;
}
function isZeroBlock(head) {
    for (let i = 0; i < SNIFF_BYTES; i += 1)
        if (head[i] !== 0)
            return false;
    return true;
}
/**
 * Archive formats this action does not extract, by their signatures: a storage (or an
 * export setting) that serves one gets a message naming it, not "no known format".
 */
const UNSUPPORTED = [
    {
        name: 'an xz-compressed archive',
        matches: (head) => startsWith(head, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]),
    },
    {
        // "BZh", the block size '1'-'9', then a block's magic (pi) or, empty, the end's (sqrt pi).
        name: 'a bzip2-compressed archive',
        matches: (head) => startsWith(head, [0x42, 0x5a, 0x68]) &&
            head.length >= 10 &&
            head[3] >= 0x31 &&
            head[3] <= 0x39 &&
            ['314159265359', '177245385090'].includes(head.toString('hex', 4, 10)),
    },
    {
        name: 'a Zstandard-compressed archive',
        matches: (head) => startsWith(head, [0x28, 0xb5, 0x2f, 0xfd]),
    },
    {
        name: 'a 7-Zip archive',
        matches: (head) => startsWith(head, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]),
    },
];
/** Whether `head` begins with the bytes of `signature`. */
function startsWith(head, signature) {
    return head.length >= signature.length && signature.every((byte, i) => head[i] === byte);
}
/** Why bytes that `detectFormat` does not read are refused: the error message, whole. */
function refusalOf(head) {
    const unsupported = UNSUPPORTED.find((format) => format.matches(head));
    if (unsupported) {
        return `The bundle cannot be extracted: the storage served ${unsupported.name}, which this action does not extract (it extracts tar, tar.gz and zip).`;
    }
    return `The bundle is not an archive: the storage served ${describeNonArchive(head)}.`;
}
/**
 * v7 and pre-POSIX tar headers carry no magic: a first block whose checksum field matches
 * its bytes (summed unsigned, or signed as some old tars did) is one.
 */
function hasTarChecksum(block) {
    const field = block
        .toString('latin1', 148, 156)
        .replace(/^ +/, '')
        .replace(/[\0 ].*$/s, '');
    if (!/^[0-7]{1,7}$/.test(field))
        return false;
    const stored = Number.parseInt(field, 8);
    let unsigned = 8 * 0x20;
    let signed = 8 * 0x20;
    for (let i = 0; i < SNIFF_BYTES; i += 1) {
        if (i >= 148 && i < 156)
            continue;
        const byte = block[i];
        unsigned += byte;
        signed += byte > 127 ? byte - 256 : byte;
    }
    return unsigned > 8 * 0x20 && (stored === unsigned || stored === signed);
}
const EXTENSION = {
    'tar.gz': '.tar.gz',
    tar: '.tar',
    zip: '.zip',
};
/** A short description of bytes that are not an archive, for the error message. */
function describeNonArchive(head) {
    if (head.length === 0)
        return 'an empty body';
    const text = head.toString('utf8', 0, Math.min(head.length, 512)).trimStart();
    if (/^<(!doctype html|html|head|body)/i.test(text)) {
        const title = /<title[^>]*>([^<]*)</i.exec(text)?.[1]?.trim();
        return title ? `an HTML page ("${title}")` : 'an HTML page';
    }
    if (text.startsWith('<?xml') || text.startsWith('<Error>')) {
        const code = /<Code>([^<]*)</.exec(text)?.[1];
        return code ? `an XML error document (${code})` : 'an XML document';
    }
    if (text.startsWith('{'))
        return 'a JSON document';
    return `${head.length >= SNIFF_BYTES ? 'data' : `${head.length} bytes`} that match no known archive format (first bytes ${head.subarray(0, 8).toString('hex')})`;
}

// EXTERNAL MODULE: ./.build/deliver/full-disk.js
var full_disk = __webpack_require__(6313);
;// CONCATENATED MODULE: ./.build/deliver/write-all.js

/**
 * Writes all of `data` at `position`. A write to a disk that is nearly full writes what
 * fits and says how much, without an error: only the next one fails (ENOSPC).
 */
function writeAll(fd, data, position) {
    let done = 0;
    while (done < data.length) {
        done += external_node_fs_.writeSync(fd, data, done, data.length - done, position + done);
    }
}

// EXTERNAL MODULE: external "node:v8"
var external_node_v8_ = __webpack_require__(8877);
// EXTERNAL MODULE: external "node:vm"
var external_node_vm_ = __webpack_require__(714);
;// CONCATENATED MODULE: ./.build/young-generation.js



/** V8's own default: each scavenge that finds the young generation full may double it. */
const DEFAULT_GROWTH_FACTOR = 2;
let holders = 0;
/**
 * Keeps V8's young generation at the size it has now until the returned function is
 * called. Streaming an archive allocates a buffer or two per entry that dies at once;
 * left to grow (up to 48 MB on 64-bit), the young generation collects them rarely, so
 * the decompressor's freed chunks pile up as external memory and are reused cold.
 * Measured on a 256 MB tar.gz of 20,000 files: the whole step peaks at 164 MB instead of
 * 197-215 MB, and takes less time. The growth factor is read by V8 each time it
 * considers growing, so changing it at run time takes effect (unlike the semi-space
 * size, which is fixed at start-up); it is process-wide, so worker threads started
 * meanwhile keep their young generation too (no slower in the change-report and
 * readiness benchmarks). The default is put back when the last holder releases. The
 * first hold on the main thread also takes V8's collector for `collectYoungGeneration`.
 */
function holdYoungGeneration() {
    if (collect === undefined && external_node_worker_threads_.isMainThread)
        collect = takeCollector();
    if (holders === 0)
        external_node_v8_.setFlagsFromString('--semi-space-growth-factor=1');
    holders += 1;
    let released = false;
    return () => {
        if (released)
            return;
        released = true;
        holders -= 1;
        if (holders === 0)
            external_node_v8_.setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH_FACTOR}`);
    };
}
/** V8's collector, once taken (null: not offered); see `collectYoungGeneration`. */
let collect;
/**
 * Collects the young generation now, when `holdYoungGeneration` has been called once on
 * the main thread (otherwise this does nothing). A network chunk dies as soon as it is
 * copied, but its memory (outside V8's heap) is only freed when the young generation is
 * next collected, and a download allocates too few objects to fill it often: on a 1 GiB
 * tar.gz of large files, or while a zip is saved whole, about 4,000 dead chunks (50 MB)
 * piled up between two collections.
 */
function collectYoungGeneration() {
    collect?.({ type: 'minor' });
}
/**
 * V8 offers its collector only to code run with `--expose-gc`. Unless the process was
 * started with it (then its own `gc` is used and the flag left alone), the flag is set
 * just long enough to take the function from a fresh context. Taken once, on the main
 * thread, before the download starts any worker: a context made meanwhile would get
 * `gc` too.
 */
function takeCollector() {
    const own = globalThis.gc;
    if (typeof own === 'function')
        return own;
    try {
        external_node_v8_.setFlagsFromString('--expose-gc');
        const gc = external_node_vm_.runInNewContext('gc');
        return typeof gc === 'function' ? gc : null;
    }
    catch {
        return null;
    }
    finally {
        external_node_v8_.setFlagsFromString('--no-expose-gc');
    }
}

;// CONCATENATED MODULE: ./.build/deliver/download.js














const MAX_ERROR_BODY = 64 * 1024;
/** S3 throttles with 503 and the XML error code SlowDown: a rate limit, not an outage. */
const isS3SlowDown = (body) => /<Code>\s*SlowDown\s*<\/Code>/.test(body);
/**
 * The young generation is collected each time this much has been downloaded, so dead
 * chunks never hold much more. A collection takes about half a millisecond; measured, a
 * 256 MB tar.gz got 84 collections in all instead of 70 (57 ms instead of 63 ms of them),
 * and the peak of the whole step on a 1 GiB tar.gz of large files went from 155 MB to
 * 129 MB, of a 256 MB zip from 156 MB to 129 MB. Every 1 MB cut those peaks by a few MB
 * more, for 60 ms more of collections.
 */
const COLLECT_EVERY_BYTES = 4 * 1024 * 1024;
const KEPT_CHANGING = 'The bundle kept changing on the storage while it downloaded, also with fresh links: run again once the export is stable.';
const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** A request of a redirect chain that got no answer, with the address it went to. */
class HopFailed extends Error {
    url;
    cause;
    constructor(url, cause) {
        super(`GET ${(0,net/* withoutQuery */.j$)(url)} failed`, { cause });
        this.url = url;
        this.cause = cause;
    }
}
/**
 * Streams the archive to `file` (never whole in memory), hashing it on the way and
 * feeding `sink`. A cut connection resumes with Range + If-Range on a strong ETag (with
 * a weak one or none, from byte zero); if the archive changed meanwhile, everything
 * starts over from byte zero with a fresh link, so two versions are never spliced. Every
 * link is tried (the storage judges its expiry by its own clock); one it calls expired is
 * exchanged for a fresh one. The received size is always checked against the size the
 * API announced.
 */
async function downloadBundle(options) {
    const { clock, signal, sink } = options;
    const maxRefreshes = options.maxRefreshes ?? 3;
    const verify = options.verifyEtag ?? true;
    const storeTime = new ServerTime(clock);
    const schedule = new RetrySchedule({
        clock,
        random: options.random,
        ...(options.budget ? { budget: options.budget } : {}),
        deadline: () => options.deadline,
        ...(signal ? { signal } : {}),
        // Said before the wait, so a person sees why the log pauses.
        onRetry: (event) => options.onEvent?.(`${event.reason} after ${position()}: ${event.rateLimit ? 'rate limited, ' : ''}${received > 0 && !decoding && isStrong(etag) ? 'resuming' : 'retrying'} in ${(event.delayMs / 1000).toFixed(1)}s.`),
    });
    let fd;
    try {
        fd = external_node_fs_.openSync(options.file, 'w', 0o600);
    }
    catch (err) {
        throw (0,errors/* asLocalFileError */.kH)(err, options.file, 'create the download file') ?? err;
    }
    let source = options.source;
    /**
     * The signed query of every link asked for (fresh ones, redirects' too): whatever the
     * storage says (an error page that echoes the request target, a network error that
     * quotes the URL) reaches a message without it, masked or not.
     */
    const links = new redact/* LinkScrubber */.$F();
    links.add(source.url);
    const classify = (err, request) => {
        const failure = classifyNetworkError(err, request);
        return {
            ...failure,
            summary: links.scrub(failure.summary),
            ...(failure.advice !== undefined ? { advice: links.scrub(failure.advice) } : {}),
        };
    };
    let received = 0;
    let total;
    let etag;
    /** The link whose answer gave `etag`. */
    let etagSource = options.source;
    /** The bytes arrive encoded by a middlebox and are decoded here: offsets are not the storage's. */
    let decoding = false;
    let sha256 = (0,external_node_crypto_.createHash)('sha256');
    let md5 = verify ? (0,external_node_crypto_.createHash)('md5') : undefined;
    let resumes = 0;
    let restarts = 0;
    let refreshes = 0;
    /**
     * Fresh links refused as expired since bytes last arrived: a long download on links
     * that live minutes exchanges many, each of which served its part.
     */
    let expiredInARow = 0;
    /** Fresh links for another version, or another size than announced: over the download. */
    let changedRefreshes = 0;
    /**
     * The furthest byte reached of this link's archive: bytes fetched again after a start
     * over are no progress, or a storage that cuts at the same byte each time is asked forever.
     */
    let reached = 0;
    const position = () => `${(0,duration/* formatBytes */.z3)(received)}${total !== undefined ? ` of ${(0,duration/* formatBytes */.z3)(total)}` : ''}`;
    const startOver = async (why) => {
        options.onEvent?.(`${why}: starting the download over from the first byte.`);
        restarts += 1;
        external_node_fs_.ftruncateSync(fd, 0);
        received = 0;
        total = undefined;
        etag = undefined;
        decoding = false;
        sha256 = (0,external_node_crypto_.createHash)('sha256');
        md5 = verify ? (0,external_node_crypto_.createHash)('md5') : undefined;
        await sink?.restart();
    };
    /**
     * A fresh link: for an expired one (`expired`, counted in a row), or for another version
     * or size (counted over the download). Every one counts in the result.
     */
    const refresh = async (why, giveUp, expired = false) => {
        if ((expired ? expiredInARow : changedRefreshes) >= maxRefreshes) {
            throw new errors/* DownloadError */.nV(giveUp);
        }
        if (expired)
            expiredInARow += 1;
        else
            changedRefreshes += 1;
        refreshes += 1;
        options.onEvent?.(`${why}: requesting a fresh bundle link (the job is reused).`);
        source = await options.refresh(why);
        links.add(source.url);
        // A fresh link may name another version: its bytes are new.
        reached = received;
    };
    const describeStop = (stop) => {
        // A wait asked for past the outage budget or the run's timeout ends the tries at once.
        const asked = stop.retryAfterMs !== undefined
            ? ` (the storage asked to wait ${askedWait(stop.retryAfterMs)} more)`
            : '';
        return stop.why === 'deadline'
            ? `, and the run's timeout leaves no time to try again${asked}`
            : ` over ${(0,duration/* formatDuration */.a3)(stop.elapsedMs)}${asked}`;
    };
    const retryLater = async (what, waitMs, rateLimited = false) => {
        const stop = await schedule.failed({
            reason: what,
            ...(waitMs !== undefined ? { retryAfterMs: waitMs } : {}),
            ...(rateLimited ? RATE_LIMITED : {}),
        });
        if (stop) {
            throw new errors/* DownloadError */.nV(`The bundle download failed ${stop.attempts === 1 ? 'once' : `${stop.attempts} times in a row`}${describeStop(stop)}, at ${position()} (${what}).`);
        }
    };
    const linkRefused = async (detail, headers) => {
        const expiredByStore = source.expiresAt !== undefined && !storeTime.mayBeBefore(source.expiresAt);
        // S3 tells expiry only in words (AccessDenied, "Request has expired"), or by its Date.
        if (!(/expired/i.test(detail) || expiredByStore))
            return false;
        const skew = storeTime.describeSkew('the storage');
        const words = detail || `HTTP 403 at ${header(headers, 'date') ?? 'an unknown time'}`;
        await refresh(`The storage says the link has expired (${words})`, `The storage refused ${expiredInARow + 1} bundle links in a row as expired, none of which served a byte more (its answer: ${words})${skew ? `; ${skew}` : ''}. A link is valid until its expiresAt by the storage's clock: check that the service that signs the links and the storage agree on the time.`, true);
        return true;
    };
    try {
        for (;;) {
            (0,errors/* throwIfAborted */.Te)(signal);
            // A decoded transfer has no byte offsets of the storage's to resume from.
            if (received > 0 && decoding)
                await startOver('The transfer was compressed on the way');
            // If-Range needs a strong ETag (RFC 9110, 13.1.5): with a weak one or none, a 206 may
            // continue another version of the object, and the two would be joined into one file.
            if (received > 0 && !isStrong(etag)) {
                await startOver(etag === undefined
                    ? 'The storage gave the bundle no ETag, so nothing tells that a resumed transfer continues the same version'
                    : 'The storage gave the bundle only a weak ETag (W/…), which does not vouch for the same bytes, so a resumed transfer could join two versions');
            }
            const resuming = received > 0;
            if (resuming)
                resumes += 1;
            let opened;
            try {
                opened = await openFollowingRedirects(source.url, resuming ? { range: `bytes=${received}-`, 'if-range': etag } : {}, options, links);
            }
            catch (err) {
                if (signal?.aborted)
                    throw (0,errors/* abortReason */.Js)(signal);
                if (err instanceof errors/* ActionError */.lZ)
                    throw err;
                // The storage, or the address it redirected to: the host and proxy of that request.
                const hop = err instanceof HopFailed ? err : undefined;
                const target = hop?.url ?? new URL(source.url);
                const proxy = proxyOf(options.dispatcher, target);
                const failure = classify(hop ? hop.cause : err, {
                    host: hostOf(target),
                    ...(proxy ? { proxy, plainHttp: target.protocol === 'http:' } : {}),
                });
                const from = hop ? ` (redirected from ${(0,net/* withoutQuery */.j$)(new URL(source.url))})` : '';
                if (!failure.transient) {
                    throw new errors/* DownloadError */.nV(`Could not download the bundle from ${(0,net/* withoutQuery */.j$)(target)}${from}: ${failure.summary}.${failure.advice ? ` ${failure.advice}` : ''}`);
                }
                await retryLater(`${failure.kind === 'dns' ? 'The storage could not be found' : 'The storage did not answer'} (${failure.summary})`);
                continue;
            }
            const { response, url } = opened;
            const { statusCode, headers } = response;
            storeTime.observe(headers);
            options.debug?.(`GET ${(0,net/* withoutQuery */.j$)(url)}${resuming ? ` (from byte ${received})` : ''} → ${statusCode}`);
            if (statusCode !== 200 && statusCode !== 206) {
                const { text: body } = await readDecodedText(response.body, headers, MAX_ERROR_BODY).catch(() => ({ text: '' }));
                // Before the summary cuts a value in two, and in full after: a JSON string
                // unescaped, a copy cut short, the cut itself.
                const detail = links.scrub((0,api_errors/* summarizeBody */.GV)(links.scrubWhole(body), header(headers, 'content-type')));
                const proxy = proxyOf(options.dispatcher, url);
                if (proxy !== undefined &&
                    (statusCode === 407 || (statusCode >= 400 && answeredByProxy(headers)))) {
                    const refusal = proxyRefusal(statusCode, proxy, hostOf(url));
                    if (!refusal.transient) {
                        throw new errors/* DownloadError */.nV(`Could not download the bundle: ${refusal.summary}. ${refusal.advice ?? ''}`.trim());
                    }
                }
                if (statusCode === 403 && (await linkRefused(detail, headers)))
                    continue;
                if (statusCode === 416 && total !== undefined && received === total)
                    break;
                if (statusCode === 416) {
                    await startOver('The storage refused to resume (HTTP 416): the archive changed size');
                    await refresh('The bundle changed on the storage', KEPT_CHANGING);
                    continue;
                }
                if (statusCode === 408 || statusCode === 429 || statusCode >= 500) {
                    await retryLater(`The storage answered HTTP ${statusCode}${detail ? ` (${detail})` : ''}`, retryAfterMs(headers, clock), statusCode === 429 || (statusCode === 503 && isS3SlowDown(body)));
                    continue;
                }
                throw new errors/* DownloadError */.nV(`The storage refused the bundle link (HTTP ${statusCode}${detail ? `: ${detail}` : ''}).${statusCode === 403
                    ? ` The link may have been altered, or the storage does not accept it from this network${proxy ? ` or through the proxy ${proxy.host}` : ''}.`
                    : ''}`);
            }
            const served = header(headers, 'etag');
            const length = contentLength(headers);
            const encoding = contentEncoding(headers);
            // An object stored compressed is served with its encoding and its stored length: those
            // bytes are the archive. Anything else encoded was compressed on the way.
            const storedEncoded = encoding !== undefined && length !== undefined && length === source.sizeBytes;
            const decoder = encoding !== undefined && !storedEncoded ? decoderFor(encoding) : undefined;
            if (encoding !== undefined && !storedEncoded && decoder === undefined) {
                discard(response.body);
                throw new errors/* DownloadError */.nV(`The storage sent the bundle with Content-Encoding ${encoding}, which this action cannot undo, although the request asked for none (Accept-Encoding: identity): a proxy or CDN between the runner and the storage is re-encoding it. Exempt the storage host from that.`);
            }
            if (statusCode === 206) {
                const range = parseContentRange(header(headers, 'content-range'));
                if (!resuming ||
                    decoder !== undefined ||
                    !range ||
                    range.start !== received ||
                    (etag !== undefined && served !== etag) ||
                    (total !== undefined && range.total !== total)) {
                    discard(response.body);
                    await startOver('The storage resumed from an unexpected place or a different version');
                    // The API announces the size of the version it links to: ask again.
                    await refresh('The bundle changed on the storage', KEPT_CHANGING);
                    continue;
                }
            }
            else {
                if (received > 0) {
                    // Range ignored: the same ETag and length is the same version, whole again from its
                    // first byte. A chunked answer names no length: the API's stands for it, as it
                    // did the first time.
                    const sameVersion = served === etag && (length ?? source.sizeBytes) === total;
                    // A link asked for since these bytes began (an expired one exchanged) names the
                    // version it serves, and the API announced its size: an answer of that size is
                    // that version whole, taken from its first byte rather than exchanged again.
                    const announced = source !== etagSource && length !== undefined && length === source.sizeBytes;
                    if (!sameVersion && !announced) {
                        discard(response.body);
                        await startOver('The bundle changed on the storage since the download began');
                        await refresh('The bundle changed on the storage', KEPT_CHANGING);
                        continue;
                    }
                    await startOver(sameVersion
                        ? 'The storage does not resume transfers'
                        : 'The fresh link serves another version of the bundle');
                }
                decoding = decoder !== undefined;
                if (decoding) {
                    options.onEvent?.(`The storage's answer arrived compressed (Content-Encoding ${encoding}) although none was asked for: decoding it, and checking the size against the API's.`);
                }
                total = decoding ? source.sizeBytes : (length ?? source.sizeBytes);
                etag = served;
                etagSource = source;
                // An object encrypted with a key has an ETag that is no MD5 of its bytes.
                if (encryptedWithKey(headers))
                    md5 = undefined;
                if (!decoding &&
                    length !== undefined &&
                    source.sizeBytes !== undefined &&
                    length !== source.sizeBytes) {
                    discard(response.body);
                    await refresh(`The storage serves ${length} bytes, but the API announced ${source.sizeBytes}`, `The storage serves ${(0,duration/* formatBytes */.z3)(length)} (${length} bytes) but the API announced ${source.sizeBytes} bytes, also with ${refreshes} fresh link${refreshes === 1 ? '' : 's'}: refusing an archive that is not the one the export produced.`);
                    total = undefined;
                    etag = undefined;
                    continue;
                }
            }
            // pipeline, not pipe: a body cut off or timed out must fail the decoder too, where pipe
            // would leave the loop below waiting for bytes that never come.
            const stream = decoder
                ? (0,external_node_stream_.pipeline)(response.body, decoder, () => undefined)
                : response.body;
            let progressed = false;
            try {
                for await (const data of stream) {
                    const chunk = data;
                    if (total !== undefined && received + chunk.length > total) {
                        throw new errors/* DownloadError */.nV(`The storage sent more than the ${total} bytes ${decoding || length === undefined ? 'the API announced' : 'it announced'}: refusing the archive.`);
                    }
                    sha256.update(chunk);
                    md5?.update(chunk);
                    // Synchronous: a chunk into the page cache is quicker than a thread-pool round trip.
                    if (sink?.needsFile?.() !== false) {
                        try {
                            writeAll(fd, chunk, received);
                        }
                        catch (err) {
                            const failure = (0,errors/* asLocalFileError */.kH)(err, options.file, 'write the download to') ?? err;
                            throw await (0,full_disk/* withDiskSpace */.y)(failure, {
                                written: received,
                                ...(total !== undefined ? { needed: total } : {}),
                            });
                        }
                    }
                    try {
                        await sink?.write(chunk);
                    }
                    catch (err) {
                        throw (0,errors/* asLocalFileError */.kH)(err, options.file, 'write the extracted files to') ?? err;
                    }
                    if (md5 !== undefined && sink?.needsChecksum?.() === false)
                        md5 = undefined;
                    // The chunks just copied are garbage: free them every few megabytes, not 50.
                    if (Math.floor(received / COLLECT_EVERY_BYTES) !==
                        Math.floor((received + chunk.length) / COLLECT_EVERY_BYTES)) {
                        collectYoungGeneration();
                    }
                    received += chunk.length;
                    if (!progressed && received > reached) {
                        progressed = true;
                        schedule.succeeded();
                        expiredInARow = 0;
                    }
                    reached = Math.max(reached, received);
                    options.onProgress?.(received, total);
                }
            }
            catch (err) {
                if (err instanceof errors/* ActionError */.lZ)
                    throw err;
                if (signal?.aborted)
                    throw (0,errors/* abortReason */.Js)(signal);
                if (decoder)
                    discard(response.body);
                const failure = classify(err, { host: hostOf(url) });
                await retryLater(`The connection broke (${failure.summary})`);
                continue;
            }
            if (total === undefined) {
                total = received;
                break;
            }
            if (received === total)
                break;
            await retryLater(`The storage ended the transfer early${length === undefined ? ' (a chunked answer without a length)' : ''}`);
        }
    }
    finally {
        external_node_fs_.closeSync(fd);
    }
    const etagVerified = md5 !== undefined && verifyEtag(etag, md5.digest('hex'), received);
    return {
        file: options.file,
        size: received,
        sha256: sha256.digest('hex'),
        etagVerified,
        source,
        resumes,
        restarts,
        refreshes,
    };
}
/**
 * GET `link`, following up to five redirects (S3 region redirects, download front ends),
 * never from https to http and never to a URL the action would not fetch. The request
 * carries no Authorization header, on any hop.
 */
async function openFollowingRedirects(link, headers, options, links) {
    let url = new URL(link);
    for (let hop = 0;; hop += 1) {
        let response;
        try {
            response = await (0,undici/* request */.Em)(url, {
                method: 'GET',
                dispatcher: options.dispatcher,
                headers: { 'accept-encoding': 'identity', ...headers },
                headersTimeout: options.idleTimeoutMs,
                bodyTimeout: options.idleTimeoutMs,
                ...(options.signal ? { signal: options.signal } : {}),
            });
        }
        catch (err) {
            throw hop === 0 ? err : new HopFailed(url, err);
        }
        const location = header(response.headers, 'location');
        if (!REDIRECTS.has(response.statusCode) || location === undefined)
            return { response, url };
        discard(response.body);
        const next = URL.canParse(location, url.href) ? new URL(location, url) : undefined;
        if (next === undefined) {
            throw new errors/* DownloadError */.nV(`The bundle link redirected (HTTP ${response.statusCode} from ${(0,net/* withoutQuery */.j$)(url)}) to an address that is not a URL: the storage or a front end before it is misconfigured.`);
        }
        links.add(next.href);
        options.onRedirect?.(next.href);
        options.debug?.(`GET ${(0,net/* withoutQuery */.j$)(url)} → ${response.statusCode}, to ${(0,net/* withoutQuery */.j$)(next)}`);
        if (hop + 1 > MAX_REDIRECTS) {
            throw new errors/* DownloadError */.nV(`The bundle link redirected more than ${MAX_REDIRECTS} times (last to ${(0,net/* withoutQuery */.j$)(next)}): refusing to follow further.`);
        }
        if (url.protocol === 'https:' && next.protocol !== 'https:') {
            throw new errors/* DownloadError */.nV(`The bundle link redirected from https to ${(0,net/* withoutQuery */.j$)(next)}: refusing to leave https.`);
        }
        const checked = (0,net/* parseServiceUrl */.iO)(next.href);
        if (!(checked instanceof URL)) {
            throw new errors/* DownloadError */.nV(`The bundle link redirected to ${(0,net/* withoutQuery */.j$)(next)}, which this action will not fetch: it ${checked.reason}.`);
        }
        url = checked;
    }
}
/** Drops a body not worth reading; the stream's own abort error is of no interest then. */
function discard(body) {
    body.on('error', () => undefined);
    body.destroy();
}
/**
 * An object encrypted with a KMS key (SSE-KMS, DSSE-KMS) or a customer key (SSE-C): S3
 * then gives an ETag that looks like an MD5 but is not the bytes' (SSE-S3's still is).
 */
function encryptedWithKey(headers) {
    const algorithm = header(headers, 'x-amz-server-side-encryption')?.toLowerCase() ?? '';
    return (algorithm.startsWith('aws:kms') ||
        header(headers, 'x-amz-server-side-encryption-customer-algorithm') !== undefined);
}
/** A strong ETag (`"…"`, not `W/"…"`): the only validator a ranged request may name. */
function isStrong(etag) {
    return etag !== undefined && etag !== '' && !/^w\//i.test(etag);
}
/** An S3 ETag of a single-part upload is the MD5 of the bytes: check it when it is one. */
function verifyEtag(etag, md5, size) {
    const plain = etag?.replace(/^W\//, '').replace(/"/g, '');
    if (plain === undefined || !/^[0-9a-f]{32}$/i.test(plain))
        return false;
    if (plain.toLowerCase() !== md5) {
        throw new errors/* DownloadError */.nV(`The downloaded archive (${size} bytes) does not match the storage's checksum (ETag ${plain}, got MD5 ${md5}): the transfer was corrupted.`);
    }
    return true;
}
function parseContentRange(value) {
    const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(value?.trim() ?? '');
    if (!match)
        return undefined;
    return { start: Number(match[1]), total: match[3] === '*' ? undefined : Number(match[3]) };
}
function contentLength(headers) {
    const value = header(headers, 'content-length');
    return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

// EXTERNAL MODULE: external "node:events"
var external_node_events_ = __webpack_require__(8474);
// EXTERNAL MODULE: external "node:stream/promises"
var external_node_stream_promises_ = __webpack_require__(6466);
;// CONCATENATED MODULE: ./.build/deliver/archive/apple-double.js
/**
 * macOS metadata in archives: an archive made on macOS (Finder's Compress, `ditto`, or
 * tar without `COPYFILE_DISABLE=1`) carries each file's extended attributes and resource
 * fork as an AppleDouble companion, `._name` beside the file (tar) or under a `__MACOSX/`
 * folder at the archive's root (zip). Neither is part of the site.
 */
/** The first bytes of every AppleDouble file (RFC 1740). */
const APPLE_DOUBLE_MAGIC = Buffer.from([0x00, 0x05, 0x16, 0x07]);
/** The folder Finder and `ditto` put the companions of a zip's files in. */
const MACOSX_FOLDER = '__MACOSX';
/**
 * Whether the last component of a file entry's name (a file's never ends in a separator)
 * starts with `._`: its first bytes are read before it is planned, to tell a companion
 * from a page. No regular expression: it runs for every file of the archive.
 */
function mayBeAppleDouble(name) {
    const start = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1;
    return name.startsWith('._', start);
}
/**
 * Whether an entry, its name already normalized into `parts`, is macOS metadata: a file
 * or directory inside `__MACOSX/` at the root, or a `._` file whose content (`head`, its
 * first bytes) is AppleDouble. A real page named `._x.html` stays; links never match.
 */
function isMacMetadata(kind, parts, head) {
    if (parts[0] === MACOSX_FOLDER && (kind === 'directory' || (kind === 'file' && parts.length > 1)))
        return true;
    if (kind !== 'file' || head === undefined)
        return false;
    const leaf = parts[parts.length - 1];
    return (leaf.startsWith('._') &&
        head.length >= APPLE_DOUBLE_MAGIC.length &&
        APPLE_DOUBLE_MAGIC.equals(head.subarray(0, APPLE_DOUBLE_MAGIC.length)));
}
/**
 * Reads the first `bytes` of `chunks` (fewer when it is shorter), and gives back the whole
 * content still to be read from its start: the chunks already read, then the rest.
 */
async function peekHead(chunks, bytes = APPLE_DOUBLE_MAGIC.length) {
    const iterator = chunks[Symbol.asyncIterator]();
    const read = [];
    let length = 0;
    let ended = false;
    while (length < bytes) {
        const next = await iterator.next();
        if (next.done === true) {
            ended = true;
            break;
        }
        read.push(next.value);
        length += next.value.length;
    }
    const head = Buffer.concat(read.map((chunk) => chunk.subarray(0, bytes)), Math.min(length, bytes));
    async function* content() {
        yield* read;
        if (ended)
            return;
        for (let next = await iterator.next(); next.done !== true; next = await iterator.next())
            yield next.value;
    }
    return { head, content: content() };
}

;// CONCATENATED MODULE: ./.build/deliver/archive/entries.js






/**
 * The longest path and name Linux accepts (PATH_MAX, NAME_MAX), in bytes: anything
 * longer cannot be created, so it is refused before any work is spent on it.
 */
const PATH_MAX = 4096;
const entries_NAME_MAX = 255;
/**
 * Symlinks wait in memory until every other entry is written: their targets and names
 * may total this much, in UTF-16 code units. A site's links take a few kilobytes;
 * 500,000 links of 4 KB would take 2 GB.
 */
const MAX_LINK_BYTES = 16 * 1024 * 1024;
/** Where the filesystem itself splits names at `\\` (Windows), every name is read so. */
const BACKSLASH_IS_SEPARATOR = external_node_path_.sep === '\\';
/** Below this, the expansion ratio is not enforced: small archives may compress well. */
const RATIO_FLOOR_BYTES = 1024 ** 3;
/**
 * A directory the archive creates, with what it holds by name (see `treeKey`): a
 * directory, or the slot of a file (`slot`) or of a symlink (`~slot`, below zero). The
 * tree is the only place the entries' paths are kept, one key per component, so an
 * entry costs the same whatever the length of its path or of its names.
 */
class TreeDir {
    children = new Map();
}
/** Names longer than this, in UTF-16 code units, are keyed by a digest. */
const LONG_NAME = 32;
/** The longest tree key: a name of LONG_NAME, or a NUL and a SHA-256 (see `treeKey`). */
const MAX_KEY_LENGTH = LONG_NAME + 1;
/**
 * The key of a name in the tree: the name itself, or for a long one a NUL (which no name
 * holds) and the name's SHA-256, 33 characters however long the name. A long name is
 * read back from the disk when the site is listed (see `visitTree`).
 */
function treeKey(name) {
    if (name.length <= LONG_NAME)
        return name;
    return `\0${(0,external_node_crypto_.hash)('sha256', Buffer.from(name, 'utf16le'), 'binary')}`;
}
/**
 * `text` in a string of its own, to be kept. A part split from an entry's name is, in
 * V8, a view into the whole name: kept as it is, it would keep the entry's full path
 * alive (a 3,900-byte path for a 20-byte name). Measured: 60 bytes per name in the tree
 * instead of 100 for a short name, and a copy costs well under a microsecond.
 */
function detached(text) {
    return /[^\u0000-\u00ff]/.test(text)
        ? Buffer.from(text, 'utf16le').toString('utf16le')
        : Buffer.from(text, 'latin1').toString('latin1');
}
/** Whether a tree key stands for a long name, to be read back from the disk. */
function isDigest(key) {
    return key.charCodeAt(0) === 0;
}
/** What a tree node holds. */
function kindOf(node) {
    return typeof node !== 'number' ? 'directory' : node < 0 ? 'symlink' : 'file';
}
/**
 * Decides, entry by entry, whether an archive may be extracted into `root`, and where.
 * It keeps a tree of everything the archive created (one node per path component, so
 * every check costs the length of the name, never more), and refuses absolute names,
 * `..`, NUL, names no filesystem accepts, devices and fifos, anything written through
 * (or replacing) a symlink, a directory replaced by something else, and archives past
 * the size, ratio or entry ceilings. Symlinks are only recorded here: the writer creates
 * them after every other entry and then resolves them on disk. macOS metadata (`__MACOSX/`,
 * AppleDouble `._` files) passes the same checks of its name, type and size, counts against
 * the ceilings, and is then left out: never written, listed or counted in the site.
 */
class EntryGuard {
    root;
    limits;
    archiveBytes;
    tree = new TreeDir();
    /** The root and a separator: an entry's absolute path is this and its parts. */
    #prefix;
    #entries = 0;
    #bytes = 0;
    #slots = 0;
    #linkBytes = 0;
    #macMetadataFiles = 0;
    #leftOutBytes = 0;
    /** Each symlink's target by slot, for a hard link made to the symlink later. */
    #symlinkTargets = new Map();
    /** `archiveBytes` tells how much of the archive has been read, for the ratio ceiling. */
    constructor(root, limits, archiveBytes = () => 0) {
        this.root = root;
        this.limits = limits;
        this.archiveBytes = archiveBytes;
        this.#prefix = external_node_path_.join(root, external_node_path_.sep);
    }
    get entryCount() {
        return this.#entries;
    }
    /** The bytes of the files planned to be written (macOS metadata left out). */
    get byteCount() {
        return this.#bytes - this.#leftOutBytes;
    }
    /** How many macOS metadata files were left out (see `isMacMetadata`). */
    get macMetadataCount() {
        return this.#macMetadataFiles;
    }
    /**
     * Returns the entry's plan, `undefined` for entries that create nothing (the root, a
     * hard link to itself, macOS metadata), or throws.
     */
    plan(entry) {
        const name = entry.name;
        const refuse = (why) => {
            throw new errors/* UnsafeArchiveError */.td(`Refusing to extract the archive: entry "${printable(name)}" ${why}.`);
        };
        if (entry.kind === 'device')
            refuse('is a device file');
        if (entry.kind === 'fifo')
            refuse('is a named pipe (fifo)');
        if (entry.kind === 'unknown')
            refuse('has an entry type this action does not extract');
        this.#countEntry();
        const bytes = entry.kind === 'file' ? entry.size : 0;
        this.addBytes(bytes);
        const backslashSeparates = entry.backslashSeparates === true || BACKSLASH_IS_SEPARATOR;
        const parts = normalizeName(name, refuse, backslashSeparates);
        if (parts.length === 0) {
            if (entry.kind === 'directory')
                return undefined;
            refuse('has no name');
        }
        // Left out once its name is known to be safe: `__MACOSX/../x` is refused as any `..`.
        if (isMacMetadata(entry.kind, parts, entry.head)) {
            if (entry.kind === 'file')
                this.#macMetadataFiles += 1;
            this.#leftOutBytes += bytes;
            return undefined;
        }
        // Refused at once, not once the whole archive is out: the manifest goes there. In any
        // spelling: on a case-insensitive filesystem (macOS) it names the same file. The
        // length first, so that other entries make no lower-case copy of their first part.
        const first = parts[0];
        if (first.length === deliver_manifest/* MANIFEST_NAME */.ir.length && first.toLowerCase() === deliver_manifest/* MANIFEST_NAME */.ir) {
            refuse(`lies at ${deliver_manifest/* MANIFEST_NAME */.ir} in the site's root, where this action writes its manifest`);
        }
        let kind = entry.kind;
        let symlinkTarget = entry.linkTarget;
        const relative = parts.join('/');
        // A hard link to a symlink (`cp -al` of a tree with links, stored so by GNU tar, bsdtar
        // and Python) is what link(2) makes of it: a second symlink with the same target text.
        // It is planned as that symlink, and every symlink check is made from where it sits: a
        // relative target that stayed inside from the source may lead out from here.
        let hardLink;
        let asSymlink = 'is a symlink';
        if (kind === 'hardlink') {
            const targetParts = normalizeName(entry.linkTarget ?? '', (why) => refuse(`is a hard link whose target ${why}`), backslashSeparates);
            const source = this.#find(targetParts);
            if (typeof source !== 'number') {
                return refuse(`is a hard link to "${printable(entry.linkTarget ?? '')}", which is not a file or symlink extracted before it`);
            }
            const targetRelative = targetParts.join('/');
            // A link to itself (GNU tar writes these for a file listed twice) keeps what is there.
            if (targetRelative === relative)
                return undefined;
            if (source < 0) {
                kind = 'symlink';
                symlinkTarget = this.#symlinkTargets.get(~source);
                asSymlink = `is a hard link to the symlink "${printable(targetRelative)}", so a symlink here,`;
            }
            else {
                hardLink = { parts: targetParts, relative: targetRelative, source };
            }
        }
        // Every parent must be a directory this archive created (or creates now): never a
        // symlink, never a file.
        let node = this.tree;
        let firstNewParent = parts.length - 1;
        for (let i = 0; i < parts.length - 1; i += 1) {
            const key = treeKey(parts[i]);
            let child = node.children.get(key);
            if (child === undefined) {
                if (firstNewParent === parts.length - 1)
                    firstNewParent = i;
                // Directories a name implies count too: one deep name must not make a million.
                this.#countEntry();
                child = new TreeDir();
                node.children.set(detached(key), child);
            }
            else if (typeof child === 'number') {
                refuse(child < 0
                    ? `would be written through the symlink "${printable(parts.slice(0, i + 1).join('/'))}"`
                    : `needs "${printable(parts.slice(0, i + 1).join('/'))}" to be a directory, but it is a file`);
            }
            node = child;
        }
        const leafName = parts[parts.length - 1];
        const siblings = node.children;
        const leafKey = treeKey(leafName);
        const existingNode = siblings.get(leafKey);
        const existing = existingNode === undefined ? undefined : kindOf(existingNode);
        if (existing === 'symlink')
            return refuse('would replace a symlink');
        if (existing === 'directory' && kind !== 'directory')
            refuse('would replace a directory');
        if (existing === 'file' && kind !== 'file' && kind !== 'hardlink')
            refuse('would replace a file with a link or directory');
        const planned = {
            kind,
            relative,
            absolute: this.#absolute(parts, relative),
            parts,
            firstNewParent,
            size: entry.size,
            mode: kind === 'directory' ? 0o755 : (entry.mode ?? 0o644) & 0o111 ? 0o755 : 0o644,
        };
        if (existing !== undefined)
            planned.replaces = existing;
        if (kind === 'symlink') {
            const target = symlinkTarget ?? '';
            if (target === '' || target.includes('\0'))
                refuse(`${asSymlink} without a usable target`);
            if (Buffer.byteLength(target) >= PATH_MAX)
                refuse(`${asSymlink} whose target is longer than ${PATH_MAX - 1} bytes`);
            if (target.startsWith('/') || /^[A-Za-z]:/.test(target) || target.includes('\\')) {
                refuse(`${asSymlink} to the absolute path "${printable(target)}"`);
            }
            if (climbsOut(parts.length - 1, target)) {
                refuse(`${asSymlink} to "${printable(target)}", outside the export`);
            }
            this.#linkBytes += target.length + leafName.length;
            if (this.#linkBytes > MAX_LINK_BYTES) {
                throw new errors/* UnsafeArchiveError */.td(`Refusing to extract the archive: its symlinks' targets and names total more than ${(0,duration/* formatBytes */.z3)(MAX_LINK_BYTES)}, far more than a site holds (each one is kept until the others are written).`);
            }
            planned.linkTarget = target;
        }
        if (hardLink !== undefined) {
            planned.linkSource = this.#absolute(hardLink.parts, hardLink.relative);
            planned.linkSourceRelative = hardLink.relative;
            planned.linkSourceSlot = hardLink.source;
        }
        if (kind === 'directory') {
            if (existingNode === undefined)
                siblings.set(detached(leafKey), new TreeDir());
        }
        else if (typeof existingNode === 'number') {
            planned.slot = existingNode;
        }
        else {
            const slot = this.#slots;
            this.#slots += 1;
            planned.slot = slot;
            siblings.set(detached(leafKey), kind === 'symlink' ? ~slot : slot);
            if (kind === 'symlink')
                this.#symlinkTargets.set(slot, planned.linkTarget);
        }
        return planned;
    }
    /** Counts bytes to be written, so a lying size header cannot slip past the ceilings. */
    addBytes(count) {
        this.#bytes += count;
        checkExpansion(this.limits, this.#bytes, this.archiveBytes());
    }
    /** The absolute path of normalized `parts` (`relative` is them joined by `/`). */
    #absolute(parts, relative) {
        return this.#prefix + (external_node_path_.sep === '/' ? relative : parts.join(external_node_path_.sep));
    }
    #countEntry() {
        this.#entries += 1;
        if (this.#entries > this.limits.maxEntries) {
            throw new errors/* UnsafeArchiveError */.td(`Refusing to extract the archive: it has more than ${this.limits.maxEntries} entries and directories (raise \`max-extract-files\` if this is expected).`);
        }
    }
    #find(parts) {
        let node = this.tree;
        for (const part of parts) {
            if (typeof node === 'number')
                return undefined;
            node = node.children.get(treeKey(part));
            if (node === undefined)
                return undefined;
        }
        return node;
    }
}
/**
 * Refuses `bytes` of extracted content past max-extract-size, or past max-extract-ratio
 * times the archive's size (`archiveBytes`, or what was read of it so far) once over
 * the ratio floor.
 */
function checkExpansion(limits, bytes, archiveBytes) {
    if (bytes > limits.maxBytes) {
        throw new errors/* UnsafeArchiveError */.td(`Refusing to extract the archive: it expands to more than ${(0,duration/* formatBytes */.z3)(limits.maxBytes)} (raise \`max-extract-size\` if this is expected).`);
    }
    const ratio = limits.maxRatio ?? 0;
    if (ratio > 0 &&
        bytes > (limits.ratioFloorBytes ?? RATIO_FLOOR_BYTES) &&
        bytes > ratio * archiveBytes) {
        throw new errors/* UnsafeArchiveError */.td(`Refusing to extract the archive: it expands to more than ${ratio} times its size (${(0,duration/* formatBytes */.z3)(bytes)} from ${(0,duration/* formatBytes */.z3)(archiveBytes)}; raise \`max-extract-ratio\`, or set it to 0, if this is expected).`);
    }
}
/** Whether a symlink `depth` directories below the root, pointing at `target`, leaves it on paper. */
function climbsOut(depth, target) {
    let level = depth;
    for (const part of target.split('/')) {
        if (part === '..')
            level -= 1;
        else if (part !== '' && part !== '.')
            level += 1;
        if (level < 0)
            return true;
    }
    return false;
}
/**
 * `a/./b//c/` -> `[a, b, c]`. With `backslashSeparates` (a zip made on Windows or DOS),
 * backslashes become separators first, as unzip reads them; elsewhere a backslash is a
 * character of the name, as GNU tar and unzip keep it (`back\\slash.html` is one file).
 * Either way a name that `\\` would make absolute, or a `..` between backslashes, is
 * refused: the tree may be read on Windows later. Refuses absolute names, `..`, NUL, and
 * names longer than a filesystem accepts, in time linear in the name.
 */
function normalizeName(name, refuse, backslashSeparates = false) {
    if (name.includes('\0'))
        refuse('contains a NUL character');
    const bytes = Buffer.byteLength(name);
    if (bytes >= PATH_MAX)
        refuse(`has a name of ${bytes} bytes, longer than ${PATH_MAX - 1}`);
    const backslashed = name.includes('\\');
    const slashed = backslashSeparates && backslashed ? name.replaceAll('\\', '/') : name;
    if (/^[/\\]/.test(name) || /^[A-Za-z]:/.test(slashed))
        refuse('has an absolute path');
    const parts = [];
    for (const part of slashed.split('/')) {
        if (part === '' || part === '.')
            continue;
        if (part === '..')
            refuse('contains ".."');
        if (backslashed && part.includes('\\') && part.split('\\').includes('..')) {
            refuse('contains ".." between backslashes');
        }
        if (part.length > entries_NAME_MAX / 4 && Buffer.byteLength(part) > entries_NAME_MAX) {
            refuse(`has a component of ${Buffer.byteLength(part)} bytes, longer than ${entries_NAME_MAX}`);
        }
        parts.push(part);
    }
    return parts;
}
/** A name as it may appear in a log line: control characters escaped, at most 200 characters. */
function printable(text) {
    const short = text.length > 200 ? `${text.slice(0, 199)}…` : text;
    return short.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
/**
 * Calls `visit` for every node under `root` with the `/`-separated path of its directory
 * ('' for the root), its name, the node, its depth (0 at the root) and its key in the tree
 * (see `treeKey`), depth first, in the order of the paths as strings unless `sorted` is
 * false (siblings compare a directory's name followed by `/`). Only a directory's path is
 * made here (its directory's path joined to its name, which V8 keeps as a pair of the
 * two): a walk over 500,000 entries leaves no path per file behind for the collector.
 * With `takeApart`, each directory is emptied once its entries are read, for a walk that
 * is the tree's last: its memory can go while the walk goes on.
 */
function visitTree(root, longNames, visit, { sorted = true, takeApart = false } = {}) {
    const read = (dir, path) => {
        const children = childrenOf(dir, path, longNames, sorted);
        if (takeApart)
            dir.children.clear();
        return children;
    };
    const stack = [{ path: '', children: read(root, ''), next: 0 }];
    while (stack.length > 0) {
        const frame = stack[stack.length - 1];
        const { children } = frame;
        const at = frame.next;
        if (at === children.order.length) {
            stack.pop();
            continue;
        }
        frame.next += 1;
        const index = children.order[at];
        const name = children.names[index];
        const node = children.nodes[index];
        visit(frame.path, name, node, stack.length - 1, children.keys[index]);
        if (typeof node !== 'number') {
            const path = pathIn(frame.path, name);
            stack.push({ path, children: read(node, path), next: 0 });
        }
    }
}
/** The `/`-separated path of `name` in `directory` ('' for the root). */
function pathIn(directory, name) {
    return directory === '' ? name : `${directory}/${name}`;
}
/** A directory's entries by name, long names read back through `longNames`. */
function childrenOf(dir, directory, longNames, sorted) {
    const keys = [...dir.children.keys()];
    const nodes = [...dir.children.values()];
    let names;
    const spelled = keys.map((key) => {
        if (!isDigest(key))
            return key;
        names ??= longNames(directory);
        return longName(names, key, directory);
    });
    const order = keys.map((_, index) => index);
    if (sorted) {
        const sortKeys = spelled.map((name, index) => typeof nodes[index] === 'number' ? name : `${name}/`);
        order.sort((a, b) => {
            const x = sortKeys[a];
            const y = sortKeys[b];
            return x < y ? -1 : x > y ? 1 : 0;
        });
    }
    return { keys, names: spelled, nodes, order };
}
/** The long name of `key` in `directory`, read back through `names`; it must be there. */
function longName(names, key, directory) {
    const name = names(key);
    if (name === undefined) {
        throw new errors/* ActionError */.lZ(`The extracted site could not be listed: an entry of "${printable(directory || '.')}" is no longer on disk under the name the archive gave it.`);
    }
    return name;
}
/** The long names among `names`, by tree key. */
function longNamesOf(names) {
    const byKey = new Map();
    for (const name of names)
        if (name.length > LONG_NAME)
            byKey.set(treeKey(name), name);
    return byKey;
}

;// CONCATENATED MODULE: ./.build/deliver/archive/sparse.js


/** More runs than this in one file is no site a person made: refuse rather than hold them. */
const MAX_RUNS = 1_000_000;
const BLOCK = 512;
/**
 * Reads the sparse map of an entry, in any of the formats GNU tar writes: old GNU ('S'
 * headers with extension blocks), PAX 0.0 (repeated GNU.sparse.offset/numbytes), 0.1
 * (GNU.sparse.map) and 1.0 (the map in the data). `undefined` for an ordinary entry.
 */
function sparseFileOf(header) {
    if (header.gnuSparse) {
        return { realSize: header.gnuSparse.realSize, runs: checkRuns(header, header.gnuSparse.runs) };
    }
    const records = header.paxRecords;
    if (!records?.some(([key]) => key.startsWith('GNU.sparse.')))
        return undefined;
    const value = (key) => records.findLast(([k]) => k === key)?.[1];
    const name = value('GNU.sparse.name');
    const named = name !== undefined ? { name } : {};
    const major = value('GNU.sparse.major');
    if (major !== undefined) {
        if (major !== '1' || value('GNU.sparse.minor') !== '0') {
            throw unsupported(header, `sparse format ${major}.${value('GNU.sparse.minor')}`);
        }
        return { ...named, realSize: number(header, value('GNU.sparse.realsize')) };
    }
    const realSize = number(header, value('GNU.sparse.size'));
    const map = value('GNU.sparse.map');
    const numbers = map !== undefined
        ? map.split(',').map((n) => number(header, n))
        : records
            .filter(([key]) => key === 'GNU.sparse.offset' || key === 'GNU.sparse.numbytes')
            .map(([, n]) => number(header, n));
    return { ...named, realSize, runs: checkRuns(header, pairs(header, numbers)) };
}
/**
 * For PAX 1.0: reads the map from the start of the entry's data (decimal numbers, one a
 * line, padded to a block) and returns the runs and the data that follows.
 */
async function readMapFromData(header, content) {
    const iterator = content[Symbol.asyncIterator]();
    const numbers = [];
    let expected;
    let line = '';
    let consumed = 0;
    let rest;
    while (expected === undefined || numbers.length < expected) {
        const next = await iterator.next();
        if (next.done)
            throw corrupt(header, 'ends inside its sparse map');
        let chunk = next.value;
        let at = 0;
        while (at < chunk.length && (expected === undefined || numbers.length < expected)) {
            const newline = chunk.indexOf(0x0a, at);
            if (newline < 0) {
                line += chunk.toString('latin1', at);
                if (line.length > 20)
                    throw corrupt(header, 'has an unreadable sparse map');
                at = chunk.length;
                break;
            }
            line += chunk.toString('latin1', at, newline);
            numbers.push(number(header, line));
            line = '';
            at = newline + 1;
            if (expected === undefined) {
                const count = numbers.pop();
                if (count > MAX_RUNS)
                    throw unsupported(header, `a sparse map of ${count} runs`);
                expected = count * 2;
            }
        }
        consumed += at;
        chunk = chunk.subarray(at);
        // The map is padded with zeros to the end of its block.
        const padding = (BLOCK - (consumed % BLOCK)) % BLOCK;
        if (expected !== undefined && numbers.length >= expected) {
            rest = await skip(iterator, chunk, padding, header);
            break;
        }
    }
    const runs = checkRuns(header, pairs(header, numbers));
    return {
        runs,
        data: (async function* () {
            if (rest !== undefined && rest.length > 0)
                yield rest;
            for (let next = await iterator.next(); !next.done; next = await iterator.next())
                yield next.value;
        })(),
    };
}
async function skip(iterator, first, count, header) {
    let chunk = first;
    let left = count;
    while (chunk.length < left) {
        left -= chunk.length;
        const next = await iterator.next();
        if (next.done)
            throw corrupt(header, 'ends inside its sparse map');
        chunk = next.value;
    }
    return chunk.subarray(left);
}
function pairs(header, numbers) {
    if (numbers.length % 2 !== 0)
        throw corrupt(header, 'has a sparse map with an odd count');
    if (numbers.length / 2 > MAX_RUNS) {
        throw unsupported(header, `a sparse map of ${numbers.length / 2} runs`);
    }
    const runs = [];
    for (let i = 0; i < numbers.length; i += 2) {
        runs.push({ offset: numbers[i], size: numbers[i + 1] });
    }
    return runs;
}
/** Runs must be in order and must not overlap: each byte is written once. */
function checkRuns(header, runs) {
    let end = 0;
    for (const run of runs) {
        if (run.offset < end)
            throw corrupt(header, 'has a sparse map whose runs overlap');
        end = run.offset + run.size;
    }
    return runs;
}
/** Checks a map against the file's size once both are known. */
function checkRunsFit(header, runs, realSize) {
    const last = runs[runs.length - 1];
    if (last !== undefined && last.offset + last.size > realSize) {
        throw corrupt(header, 'has a sparse map that runs past the end of the file');
    }
}
function number(header, text) {
    const value = text !== undefined && /^\d{1,16}$/.test(text.trim()) ? Number(text.trim()) : NaN;
    if (!Number.isSafeInteger(value))
        throw corrupt(header, 'has an unreadable sparse map');
    return value;
}
function corrupt(header, why) {
    return new errors/* UnsafeArchiveError */.td(`The tar archive is corrupt: the sparse file "${printable(header.name)}" ${why}.`);
}
function unsupported(header, what) {
    return new errors/* UnsafeArchiveError */.td(`Refusing to extract the archive: entry "${printable(header.name)}" uses ${what}, which this action does not read.`);
}

// EXTERNAL MODULE: external "node:buffer"
var external_node_buffer_ = __webpack_require__(4573);
// EXTERNAL MODULE: ./node_modules/tar-stream/index.js
var tar_stream = __webpack_require__(6118);
;// CONCATENATED MODULE: ./.build/deliver/archive/tar-parser.js


const S_TYPEFLAG = 0x53;
const tar_parser_BLOCK = 512;
const Extract = tar_stream.extract().constructor;
class TarParser extends Extract {
    #lastBlock;
    /** The records of the entry's own pax header, read once for the names and for the entry. */
    #paxRecords;
    #ended = false;
    /** An 'S' header whose extension blocks are still to come. */
    #pendingSparse;
    constructor() {
        // Old (v7, pre-POSIX) archives have no ustar magic: tar-stream reads them when asked.
        super({ allowUnknownFormat: true, filenameEncoding: 'latin1' });
        const buffer = this._buffer;
        const shift = buffer.shift.bind(buffer);
        buffer.shift = (size) => {
            const block = shift(size);
            if (size === tar_parser_BLOCK && block !== null)
                this.#lastBlock = block;
            return block;
        };
    }
    _consumeHeader() {
        if (this._locked)
            return false;
        try {
            if (this.#pendingSparse !== undefined)
                return this.#consumeSparseExtension();
            const consumed = super._consumeHeader();
            if (consumed && this._header === null) {
                this.#ended = true;
                while (this._buffer.buffered > 0)
                    this._buffer.shiftFirst(this._buffer.buffered);
            }
            return consumed;
        }
        catch (error) {
            // A malformed sparse map fails the archive, as tar-stream's own header errors do.
            // The entry's stream was never handed out: drop it, so the error is not raised on it.
            this._stream = null;
            this._continueWrite(error);
            return false;
        }
    }
    _decodeLongHeader(buf) {
        const type = this._header?.type;
        super._decodeLongHeader(buf);
        if (type !== 'pax-header' && type !== 'pax-global-header')
            return;
        const records = paxRecords(buf);
        if (type === 'pax-header')
            this.#paxRecords = records;
        // tar-stream reads pax values as UTF-8; bsdtar writes a name that is not UTF-8 as
        // bytes (hdrcharset=BINARY).
        const pax = type === 'pax-header' ? this._pax : this._paxGlobal;
        if (pax) {
            for (const [key, value] of records) {
                if ((key === 'path' || key === 'linkpath') && pax[key] !== undefined)
                    pax[key] = value;
            }
        }
    }
    _write(data, cb) {
        if (this.#ended)
            cb(null);
        else
            super._write(data, cb);
    }
    _final(cb) {
        if (this.#pendingSparse !== undefined)
            return cb(new Error('Unexpected end of data'));
        if (!this.#ended)
            return super._final(cb);
        this._finished = true;
        cb(null);
    }
    emit(event, ...args) {
        if (event !== 'entry')
            return super.emit(event, ...args);
        const header = args[0];
        // tar-stream reads a base-256 size it cannot decode as null, and lets it through.
        if (!Number.isSafeInteger(header.size) || header.size < 0) {
            throw new Error('Invalid tar header: bad number');
        }
        // Names from the header block or a GNU long name came in Latin-1 (their bytes).
        const pax = header.pax;
        if (!pax?.path)
            header.name = fromLatin1(header.name);
        if (header.linkname && !pax?.linkpath)
            header.linkname = fromLatin1(header.linkname);
        const raw = this.#lastBlock;
        header.typeflag = raw[156] === 0 ? '\0' : String.fromCharCode(raw[156]);
        if (this.#paxRecords !== undefined) {
            header.paxRecords = this.#paxRecords;
            this.#paxRecords = undefined;
        }
        if (raw[156] === S_TYPEFLAG) {
            const runs = sparseRuns(raw, 386, 4);
            header.gnuSparse = { realSize: octal(raw, 483, 12), runs };
            if (raw[482] !== 0) {
                // Extension blocks follow: hold the entry back until the last one is read.
                this.#pendingSparse = header;
                this._stream = null;
                this._missing = 0;
                this._locked = false;
                return true;
            }
        }
        return super.emit(event, ...args);
    }
    #consumeSparseExtension() {
        const block = this._buffer.shift(tar_parser_BLOCK);
        const header = this.#pendingSparse;
        header.gnuSparse?.runs.push(...sparseRuns(block, 0, 21));
        if (block[504] !== 0)
            return true;
        this.#pendingSparse = undefined;
        this._locked = true;
        this._header = header;
        const stream = this._createStream();
        if (header.size > 0) {
            this._stream = stream;
            this._missing = header.size;
        }
        super.emit('entry', header, stream, this._unlockBound);
        return true;
    }
}
/** A tar parser that stops at the end-of-archive block and reports what tar-stream omits. */
function createTarParser() {
    return new TarParser();
}
function sparseRuns(block, start, count) {
    const runs = [];
    for (let i = 0; i < count; i += 1) {
        const at = start + i * 24;
        if (block[at] === 0)
            break;
        runs.push({ offset: octal(block, at, 12), size: octal(block, at + 12, 12) });
    }
    return runs;
}
/** A numeric header field: octal digits, or base-256 when the top bit is set. */
function octal(block, at, length) {
    const field = block.subarray(at, at + length);
    if (field[0] & 0x80) {
        let value = 0;
        for (let i = 1; i < field.length; i += 1)
            value = value * 256 + field[i];
        return value;
    }
    const text = field
        .toString('latin1')
        .replace(/[\0 ].*$/s, '')
        .trim();
    const value = text === '' ? 0 : Number.parseInt(text, 8);
    if (!Number.isSafeInteger(value) || value < 0)
        throw new Error('Invalid tar header: bad number');
    return value;
}
/** `len key=value\n` records, in order (the pax format of POSIX.1-2001). */
function paxRecords(data) {
    const records = [];
    let at = 0;
    while (at < data.length) {
        const space = data.indexOf(0x20, at);
        if (space < 0)
            break;
        const length = Number.parseInt(data.toString('latin1', at, space), 10);
        if (!(length > space - at + 1) || at + length > data.length)
            break;
        const equals = data.indexOf(0x3d, space + 1);
        if (equals > space + 1 && equals < at + length - 1) {
            records.push([
                data.toString('utf8', space + 1, equals),
                decodeName(data.subarray(equals + 1, at + length - 1)),
            ]);
        }
        at += length;
    }
    return records;
}
/** A name read in Latin-1, as `decodeName` reads its bytes; ASCII, most names, as it is. */
function fromLatin1(name) {
    return NOT_ASCII.test(name) ? decodeName(Buffer.from(name, 'latin1')) : name;
}
const NOT_ASCII = /[^\x00-\x7f]/;
/**
 * A name's bytes, each `/`-separated part as UTF-8 when it is, else as Latin-1: one
 * character per byte. By part, so that a Latin-1 file in a UTF-8 directory (`über/caf\xe9`)
 * lands in that directory, as GNU tar puts it, not in a second one spelled `Ã¼ber`.
 */
function decodeName(bytes) {
    if ((0,external_node_buffer_.isUtf8)(bytes))
        return bytes.toString('utf8');
    const parts = [];
    let start = 0;
    for (let slash = bytes.indexOf(SLASH);; slash = bytes.indexOf(SLASH, start)) {
        const part = bytes.subarray(start, slash < 0 ? bytes.length : slash);
        parts.push((0,external_node_buffer_.isUtf8)(part) ? part.toString('utf8') : part.toString('latin1'));
        if (slash < 0)
            return parts.join('/');
        start = slash + 1;
    }
}
const SLASH = 0x2f;

;// CONCATENATED MODULE: ./.build/deliver/archive/links.js


/** Links followed in one lookup before the kernel gives up with ELOOP (Linux's limit). */
const MAX_LINK_HOPS = 40;
/** A link that loops, or that needs more than MAX_LINK_HOPS links to resolve. */
class LinkLoopError extends Error {
    name = 'LinkLoopError';
}
/**
 * Resolves symlinks the way the kernel does, through the links that really exist on disk:
 * `lstat` and `readlink` decide what each component is, so a case-insensitive or
 * normalizing filesystem is judged by its own name rules, and `l/..` climbs from where
 * `l` really points, not from where it sits. Each link is resolved once (keyed by its
 * inode) and each path looked up once, so checking every link of a tree costs time
 * linear in the total length of their targets.
 */
class LinkResolver {
    #root;
    #stats = new Map();
    #links = new Map();
    /** `root` must be a directory whose parents, inside it, are real directories. */
    constructor(root) {
        this.#root = external_node_fs_.realpathSync.native(root);
    }
    /** Whether the link at `relative` (`/`-separated, under the root) leads inside the root. */
    leadsInside(relative) {
        return this.#resolveLink(this.#root + external_node_path_.sep + relative.split('/').join(external_node_path_.sep), 0).inside;
    }
    #resolveLink(absolute, depth) {
        const stat = this.#lstat(absolute);
        if (stat === undefined || !stat.isSymbolicLink())
            return { inside: true, path: absolute };
        const key = `${stat.dev}:${stat.ino}`;
        const known = this.#links.get(key);
        if (known === 'resolving' || depth > MAX_LINK_HOPS) {
            throw new LinkLoopError('a loop of symlinks, or a chain longer than the kernel follows');
        }
        if (known !== undefined)
            return known;
        this.#links.set(key, 'resolving');
        const target = external_node_fs_.readlinkSync(absolute);
        const result = external_node_path_.isAbsolute(target)
            ? { inside: false }
            : this.#walk(external_node_path_.dirname(absolute), target, depth);
        this.#links.set(key, result);
        return result;
    }
    #walk(start, target, depth) {
        let current = start;
        const parts = target.split('/');
        for (let i = 0; i < parts.length; i += 1) {
            const part = parts[i];
            if (part === '' || part === '.')
                continue;
            if (part === '..') {
                if (current === this.#root)
                    return { inside: false };
                current = external_node_path_.dirname(current);
                continue;
            }
            const next = current + external_node_path_.sep + part;
            const stat = this.#lstat(next);
            if (stat === undefined) {
                // Nothing there yet: the rest is where a later write through this link would land.
                return this.#lexical(next, parts, i + 1);
            }
            if (stat.isSymbolicLink()) {
                const via = this.#resolveLink(next, depth + 1);
                if (!via.inside)
                    return via;
                current = via.path;
                continue;
            }
            // A file with more components after it leads nowhere (ENOTDIR): harmless.
            if (!stat.isDirectory() && i < parts.length - 1)
                return { inside: true, path: next };
            current = next;
        }
        return { inside: true, path: current };
    }
    #lexical(from, parts, start) {
        let current = from;
        for (let i = start; i < parts.length; i += 1) {
            const part = parts[i];
            if (part === '' || part === '.')
                continue;
            if (part === '..') {
                if (current === this.#root)
                    return { inside: false };
                current = external_node_path_.dirname(current);
            }
            else
                current = current + external_node_path_.sep + part;
        }
        return { inside: true, path: current };
    }
    #lstat(file) {
        if (this.#stats.has(file))
            return this.#stats.get(file);
        let stat;
        try {
            stat = external_node_fs_.lstatSync(file);
        }
        catch {
            stat = undefined;
        }
        this.#stats.set(file, stat);
        return stat;
    }
}

;// CONCATENATED MODULE: ./.build/deliver/archive/listing.js

/** Set on a slot once its file is written. */
const WRITTEN = 1;
const EXECUTABLE = 2;
const SHA256_BYTES = 32;
/** A size from 4 GiB - 1 up: the size itself is kept beside the array. */
const LARGE = 0xffffffff;
/**
 * What the writer knows of each file (size, SHA-256, executable bit), by slot, in
 * arrays that double as they fill: 37 bytes per file (a size of 4 GiB or more costs an
 * entry in a map besides) and no object for the collector to trace, whatever the number
 * of files.
 */
class FileRecords {
    #sha256 = Buffer.alloc(0);
    #sizes = new Uint32Array(0);
    #flags = new Uint8Array(0);
    #large = new Map();
    has(slot) {
        return ((this.#flags[slot] ?? 0) & WRITTEN) !== 0;
    }
    set(slot, size, sha256, executable) {
        this.#reserve(slot);
        sha256.copy(this.#sha256, slot * SHA256_BYTES);
        this.#setSize(slot, size);
        this.#flags[slot] = WRITTEN | (executable ? EXECUTABLE : 0);
    }
    copy(from, to) {
        this.#reserve(to);
        this.#sha256.copy(this.#sha256, to * SHA256_BYTES, from * SHA256_BYTES, (from + 1) * SHA256_BYTES);
        this.#setSize(to, this.size(from));
        this.#flags[to] = this.#flags[from];
    }
    size(slot) {
        const size = this.#sizes[slot];
        return size === LARGE ? (this.#large.get(slot) ?? size) : size;
    }
    /** The record of a written slot, for the file at `relative`. */
    get(slot, relative) {
        return {
            path: relative,
            size: this.size(slot),
            sha256: this.#sha256.toString('hex', slot * SHA256_BYTES, (slot + 1) * SHA256_BYTES),
            executable: (this.#flags[slot] & EXECUTABLE) !== 0,
        };
    }
    #setSize(slot, size) {
        if (size >= LARGE) {
            this.#sizes[slot] = LARGE;
            this.#large.set(slot, size);
        }
        else {
            this.#sizes[slot] = size;
            if (this.#large.size > 0)
                this.#large.delete(slot);
        }
    }
    #reserve(slot) {
        if (slot < this.#flags.length)
            return;
        const capacity = Math.max(1024, slot + 1, this.#flags.length * 2);
        const sha256 = Buffer.alloc(capacity * SHA256_BYTES);
        this.#sha256.copy(sha256);
        this.#sha256 = sha256;
        const sizes = new Uint32Array(capacity);
        sizes.set(this.#sizes);
        this.#sizes = sizes;
        const flags = new Uint8Array(capacity);
        flags.set(this.#flags);
        this.#flags = flags;
    }
}
/** What a listed entry is: a file's slot (0 or more), a symlink's (`~slot`), or this. */
const DIRECTORY = -0x80000000;
/** Names joined into one string at a time: a few dozen KB each, never one string of them all. */
const NAMES_PER_PIECE = 4096;
/**
 * The extracted site in the order of its paths: every entry's name and depth, depth
 * first, so that a pass rebuilds each path from its directory's (one join per entry).
 * Each name is kept as what it adds to the name before it (in that order, neighbours
 * share most of their spelling: `page-1041.html`, `page-1042.html`): how many of the
 * earlier name's characters it starts with, then the rest, packed into strings. With
 * the rest in typed arrays, that is about 8 bytes per entry beyond the characters it
 * adds, where the guard's tree (a map per directory) costs some 100 and an array of
 * paths costs the length of every path. A name over 32 characters is kept as its tree
 * key (its digest) and read back from the disk on each pass, so the listing does not
 * grow with the length of names either. Made once the extraction is over; the tree can
 * then go. Read it before the site is moved.
 */
class SiteListing {
    #longNames;
    /** What each name adds to the one before it, NAMES_PER_PIECE names to a string. */
    #pieces;
    /** How many characters of the name before it each name starts with. */
    #shared;
    /** How many characters each name adds, in its piece. */
    #added;
    #depths;
    #nodes;
    #records;
    #namesAsWritten;
    fileCount;
    fileBytes;
    symlinks;
    /**
     * Lists `tree` (the guard's, which holds every path the plans gave out: every one was
     * written, since any failure ends the extraction), taking it apart as it goes: the
     * tree's memory is free to go while the listing fills. `entries` is how many it may
     * hold (the guard's count); long names are read back through `longNames`;
     * `directoriesListed` is false where names on disk may differ from the archive's
     * spelling.
     */
    constructor(tree, site) {
        const { longNames, records, linkTargets } = site;
        let count = 0;
        let shared = new Uint8Array(site.entries);
        let added = new Uint8Array(site.entries);
        let depths = new Uint16Array(site.entries);
        let nodes = new Int32Array(site.entries);
        const pieces = [];
        let piece = [];
        let previous = '';
        let fileCount = 0;
        let fileBytes = 0;
        const symlinks = [];
        const visit = (directory, name, node, depth, key) => {
            if (count === nodes.length) {
                shared = grown(shared);
                added = grown(added);
                depths = grown(depths);
                nodes = grown(nodes);
            }
            if (key.length > MAX_KEY_LENGTH)
                throw new Error(`a tree key of ${key.length} characters`);
            const same = sharedPrefix(previous, key);
            shared[count] = same;
            added[count] = key.length - same;
            depths[count] = depth;
            if (typeof node !== 'number')
                nodes[count] = DIRECTORY;
            else {
                nodes[count] = node;
                if (node >= 0) {
                    fileCount += 1;
                    fileBytes += records.size(node);
                }
                else {
                    symlinks.push({
                        path: pathIn(directory, name),
                        target: linkTargets.get(~node),
                    });
                }
            }
            count += 1;
            piece.push(same === 0 ? key : key.slice(same));
            previous = key;
            if (piece.length === NAMES_PER_PIECE) {
                pieces.push(piece.join(''));
                piece = [];
            }
        };
        visitTree(tree, longNames, visit, { takeApart: true });
        pieces.push(piece.join(''));
        this.#longNames = longNames;
        this.#pieces = pieces;
        this.#shared = shared.subarray(0, count);
        this.#added = added.subarray(0, count);
        this.#depths = depths.subarray(0, count);
        this.#nodes = nodes.subarray(0, count);
        this.#records = records;
        this.#namesAsWritten = site.directoriesListed;
        this.fileCount = fileCount;
        this.fileBytes = fileBytes;
        this.symlinks = symlinks;
    }
    get files() {
        const records = this.#records;
        return {
            [Symbol.iterator]: () => this.#entries('files', (path, slot) => records.get(slot, path)),
        };
    }
    get filePaths() {
        return { [Symbol.iterator]: () => this.#entries('files', pathOnly) };
    }
    get directories() {
        if (!this.#namesAsWritten)
            return undefined;
        return { [Symbol.iterator]: () => this.#entries('directories', pathOnly) };
    }
    /** Reads the tree keys back in order: `next(i)` for i = 0, 1, 2… gives entry i's key. */
    #keys() {
        const pieces = this.#pieces;
        const shared = this.#shared;
        const added = this.#added;
        let piece = '';
        let offset = 0;
        let key = '';
        return {
            next(i) {
                if (i % NAMES_PER_PIECE === 0) {
                    piece = pieces[i / NAMES_PER_PIECE];
                    offset = 0;
                }
                const end = offset + added[i];
                const rest = piece.slice(offset, end);
                offset = end;
                const same = shared[i];
                key = same === 0 ? rest : key.slice(0, same) + rest;
                return key;
            },
        };
    }
    /**
     * The files or the directories, in order, each as `made` makes it from its path (and a
     * file's slot): one pass, one generator. A directory's path is kept while the entries
     * inside it pass.
     */
    *#entries(wanted, made) {
        const depths = this.#depths;
        const nodes = this.#nodes;
        const keys = this.#keys();
        const directories = [];
        /** The long names of the directory at each depth, read when one is first needed. */
        const longNames = [];
        for (let i = 0; i < nodes.length; i += 1) {
            // Every key is read, in order: each is spelled from the one before it.
            const key = keys.next(i);
            const node = nodes[i];
            if (node < 0 && node !== DIRECTORY)
                continue;
            const depth = depths[i];
            const directory = depth === 0 ? '' : directories[depth - 1];
            const name = isDigest(key)
                ? longName((longNames[depth] ??= this.#longNames(directory)), key, directory)
                : key;
            const path = pathIn(directory, name);
            if (node === DIRECTORY) {
                directories[depth] = path;
                longNames[depth + 1] = undefined;
                if (wanted === 'directories')
                    yield made(path, node);
            }
            else if (wanted === 'files')
                yield made(path, node);
        }
    }
}
/** How many characters `b` starts with of `a`: at most MAX_KEY_LENGTH, as keys are. */
function sharedPrefix(a, b) {
    const most = Math.min(a.length, b.length, MAX_KEY_LENGTH);
    let i = 0;
    while (i < most && a.charCodeAt(i) === b.charCodeAt(i))
        i += 1;
    return i;
}
function pathOnly(path) {
    return path;
}
function grown(array) {
    const larger = new array.constructor(Math.max(1024, array.length * 2));
    larger.set(array);
    return larger;
}

;// CONCATENATED MODULE: ./.build/deliver/archive/writer.js








/** Files up to this size are gathered whole and written in one call. */
const SMALL_FILE_BYTES = 1024 * 1024;
/** Never follow a symlink, never reuse a file that is already there. */
const CREATE_FLAGS = external_node_fs_.constants.O_WRONLY | external_node_fs_.constants.O_CREAT | external_node_fs_.constants.O_EXCL;
/**
 * Writes planned entries under the destination root with synchronous calls: a site is
 * thousands of small files, and one open-write-close in the calling thread costs a
 * fraction of a promise round trip through the thread pool (measured: 20k files in
 * 0.27 s against 0.6 s), while the page cache keeps each call short.
 *
 * Nothing is ever written through a link: files are created with O_EXCL (a name the
 * filesystem already holds under another spelling, differing in case or Unicode
 * normalization, is refused rather than overwritten), and symlinks are only created by
 * `finish`, after every other entry, then resolved on disk.
 *
 * Each file is hashed on this thread as it is written: SHA-256 runs at over 1 GB/s with
 * the CPU's SHA extensions, while a hashing thread costs ~25 MB of memory and competes
 * with decompression for the runner's two cores (measured: slower and larger).
 */
class SiteWriter {
    root;
    onWritten;
    #records = new FileRecords();
    /** Symlink targets by slot: the links are made by `finish`. */
    #linkTargets = new Map();
    /**
     * Long names, by tree key, that the disk may not hold as the archive spells them: those
     * of symlinks, not made until `finish`, of directories the filesystem took for one it
     * already had under another spelling (case, Unicode normalization), and names ending in
     * a dot or a space, which Windows drops.
     */
    #keptNames = new Map();
    /**
     * Whether every name is on disk as the archive spells it. Not on macOS and Windows,
     * whose filesystems may fold case, normalize Unicode or drop a trailing dot, nor once
     * a directory turned out to exist under another spelling: the site is then listed
     * from disk.
     */
    #namesAsWritten = process.platform !== 'darwin' && process.platform !== 'win32';
    #files = 0;
    constructor(root, onWritten) {
        this.root = root;
        this.onWritten = onWritten;
    }
    get fileCount() {
        return this.#files;
    }
    directory(entry) {
        this.#parents(entry);
        if (entry.replaces !== 'directory')
            this.#mkdir(entry.absolute, entry);
    }
    /**
     * What was written, files and links sorted by path: the manifest's file list. `tree`
     * is the guard's, which holds every path the plans gave out, and every one was written
     * (any failure ends the extraction), so it lists the site as it is on disk. Called once
     * the extraction is over, as the tree's last use: the listing takes it apart. `entries`
     * is the guard's count, more than the listing will hold.
     */
    contents(tree, entries) {
        return new SiteListing(tree, {
            entries,
            longNames: this.#longNames,
            records: this.#records,
            linkTargets: this.#linkTargets,
            directoriesListed: this.#namesAsWritten,
        });
    }
    /** Writes a file whose whole content is in memory. */
    file(entry, data) {
        const fd = this.#create(entry);
        try {
            writeAll(fd, data, 0);
        }
        finally {
            external_node_fs_.closeSync(fd);
        }
        this.#record(entry, data.length, (0,external_node_crypto_.hash)('sha256', data, 'buffer'), data);
    }
    /** Streams a large file to disk chunk by chunk, hashing it on the way. */
    async fileFromChunks(entry, content) {
        const fd = this.#create(entry);
        const hash = (0,external_node_crypto_.createHash)('sha256');
        let size = 0;
        try {
            for await (const chunk of content) {
                writeAll(fd, chunk, size);
                hash.update(chunk);
                size += chunk.length;
            }
        }
        finally {
            external_node_fs_.closeSync(fd);
        }
        this.#record(entry, size, hash.digest());
    }
    /**
     * Writes a sparse file: `content` holds the runs' bytes back to back, the gaps between
     * them stay holes on disk. The hash covers the whole file, zeros included.
     */
    async sparseFile(entry, runs, content) {
        const fd = this.#create(entry);
        const hash = (0,external_node_crypto_.createHash)('sha256');
        let run = 0;
        let position = runs[0]?.offset ?? entry.size;
        let left = runs[0]?.size ?? 0;
        let hashed = 0;
        try {
            hashZeros(hash, position - hashed);
            hashed = position;
            for await (let chunk of content) {
                while (chunk.length > 0) {
                    while (left === 0) {
                        run += 1;
                        const next = runs[run];
                        if (next === undefined)
                            throw sparseMismatch(entry, 'holds more data than its map');
                        hashZeros(hash, next.offset - hashed);
                        position = next.offset;
                        hashed = position;
                        left = next.size;
                    }
                    const piece = chunk.subarray(0, Math.min(left, chunk.length));
                    writeAll(fd, piece, position);
                    hash.update(piece);
                    position += piece.length;
                    hashed = position;
                    left -= piece.length;
                    chunk = chunk.subarray(piece.length);
                }
            }
            if (left > 0 || runs.slice(run + 1).some((r) => r.size > 0)) {
                throw sparseMismatch(entry, 'holds less data than its map');
            }
            hashZeros(hash, entry.size - hashed);
            external_node_fs_.ftruncateSync(fd, entry.size);
        }
        finally {
            external_node_fs_.closeSync(fd);
        }
        this.#record(entry, entry.size, hash.digest());
    }
    /** Recorded now, created by `finish` once no other entry can be written through it. */
    symlink(entry) {
        this.#parents(entry);
        this.#linkTargets.set(entry.slot, entry.linkTarget);
        this.#keepLongName(entry.parts[entry.parts.length - 1]);
    }
    /** A directory's long names, read from the disk, and those it does not hold as spelled. */
    #longNames = (directory) => {
        let names = [];
        try {
            names = external_node_fs_.readdirSync(external_node_path_.join(this.root, directory));
        }
        catch (err) {
            if (err.code !== 'ENOENT')
                throw err;
        }
        const onDisk = longNamesOf(names);
        return (key) => onDisk.get(key) ?? this.#keptNames.get(key);
    };
    #keepLongName(name) {
        const key = treeKey(name);
        if (isDigest(key))
            this.#keptNames.set(key, detached(name));
    }
    /**
     * Keeps the long name of what was just made at `made` when the disk holds it without its
     * trailing dots and spaces, as Windows does (`notes.` is stored as `notes`). Elsewhere
     * such a name is on disk as spelled, and kept nowhere: memory does not grow with names.
     */
    #keepIfRenamed(made) {
        const last = made.charCodeAt(made.length - 1);
        if (last !== DOT && last !== SPACE)
            return;
        const name = external_node_path_.basename(made);
        const stripped = name.replace(/[. ]+$/, '');
        if (stripped === '' || !isDigest(treeKey(name)))
            return;
        const other = external_node_fs_.lstatSync(external_node_path_.join(external_node_path_.dirname(made), stripped), { throwIfNoEntry: false });
        if (other === undefined)
            return;
        const self = external_node_fs_.lstatSync(made);
        if (other.ino === self.ino && other.dev === self.dev)
            this.#keepLongName(name);
    }
    /** A hard link shares its source's bytes, so it shares its record too. */
    hardlink(entry) {
        this.#parents(entry);
        if (entry.replaces !== undefined)
            external_node_fs_.unlinkSync(entry.absolute);
        const source = entry.linkSourceSlot;
        if (!this.#records.has(source)) {
            throw new errors/* UnsafeArchiveError */.td(`Refusing to extract the archive: the hard link "${printable(entry.relative)}" points at "${printable(entry.linkSourceRelative)}", which is not a file extracted before it.`);
        }
        try {
            external_node_fs_.linkSync(entry.linkSource, entry.absolute);
        }
        catch (err) {
            throw collisionOr(err, entry);
        }
        this.#keepIfRenamed(entry.absolute);
        this.#files += 1;
        this.#records.copy(source, entry.slot);
        this.onWritten?.(this.#records.get(entry.slot, entry.relative));
    }
    /**
     * Creates the symlinks of `tree` (the guard's), then checks where each really leads,
     * through the links that now exist: every one must stay inside the root.
     */
    finish(tree) {
        if (this.#linkTargets.size === 0)
            return;
        const links = [];
        visitTree(tree, this.#longNames, (directory, name, node) => {
            if (typeof node !== 'number' || node >= 0)
                return;
            const relative = pathIn(directory, name);
            links.push(relative);
            const absolute = external_node_path_.join(this.root, relative);
            try {
                external_node_fs_.symlinkSync(this.#linkTargets.get(~node), absolute);
            }
            catch (err) {
                throw collisionOr(err, relative);
            }
        }, { sorted: false });
        const resolver = new LinkResolver(this.root);
        for (const relative of links) {
            let inside;
            try {
                inside = resolver.leadsInside(relative);
            }
            catch (err) {
                if (!(err instanceof LinkLoopError))
                    throw err;
                throw new errors/* UnsafeArchiveError */.td(`Refusing to extract the archive: the symlink "${printable(relative)}" is ${err.message}.`);
            }
            if (!inside) {
                throw new errors/* UnsafeArchiveError */.td(`Refusing to extract the archive: the symlink "${printable(relative)}" leads outside the export once the links it goes through are followed.`);
            }
        }
    }
    #create(entry) {
        this.#parents(entry);
        // As GNU tar does: a later entry of the same name is a new file, so a hard link made
        // to the earlier one keeps the earlier bytes.
        if (entry.replaces !== undefined)
            external_node_fs_.unlinkSync(entry.absolute);
        let fd;
        try {
            fd = external_node_fs_.openSync(entry.absolute, CREATE_FLAGS, entry.mode);
        }
        catch (err) {
            throw collisionOr(err, entry);
        }
        this.#keepIfRenamed(entry.absolute);
        return fd;
    }
    #record(entry, size, sha256, bytes) {
        this.#files += 1;
        const slot = entry.slot;
        this.#records.set(slot, size, sha256, (entry.mode & 0o111) !== 0);
        this.onWritten?.(this.#records.get(slot, entry.relative), bytes);
    }
    /** Creates the parent directories the entry is the first to need, one level at a time. */
    #parents(entry) {
        const last = entry.parts.length - 1;
        if (entry.firstNewParent >= last)
            return;
        let dir = external_node_path_.join(this.root, ...entry.parts.slice(0, entry.firstNewParent));
        for (let i = entry.firstNewParent; i < last; i += 1) {
            dir = dir + external_node_path_.sep + entry.parts[i];
            this.#mkdir(dir, entry);
        }
    }
    #mkdir(dir, entry) {
        try {
            external_node_fs_.mkdirSync(dir, 0o755);
        }
        catch (err) {
            // The same directory under another spelling (case, normalization) is still a directory.
            if (err.code === 'EEXIST' && external_node_fs_.lstatSync(dir).isDirectory()) {
                this.#namesAsWritten = false;
                // On disk under the other spelling only: the listing cannot read this one back.
                this.#keepLongName(external_node_path_.basename(dir));
                return;
            }
            throw collisionOr(err, entry);
        }
        this.#keepIfRenamed(dir);
    }
}
const DOT = 46;
const SPACE = 32;
const ZEROS = Buffer.alloc(1024 * 1024);
/** Hashes `count` zero bytes: the holes of a sparse file. */
function hashZeros(hash, count) {
    for (let left = count; left > 0; left -= ZEROS.length) {
        hash.update(left >= ZEROS.length ? ZEROS : ZEROS.subarray(0, left));
    }
}
function sparseMismatch(entry, why) {
    return new errors/* UnsafeArchiveError */.td(`The tar archive is corrupt: the sparse file "${printable(entry.relative)}" ${why}.`);
}
/** EEXIST on a name this archive never created means the filesystem folds names together. */
function collisionOr(err, entry) {
    const code = err.code;
    if (code === 'EEXIST' || code === 'ENOTDIR') {
        return new errors/* UnsafeArchiveError */.td(`Refusing to extract the archive: entry "${printable(typeof entry === 'string' ? entry : entry.relative)}" collides with another entry on this filesystem, which treats names differing in case or Unicode normalization as the same.`);
    }
    return err;
}

;// CONCATENATED MODULE: ./.build/deliver/archive/tar.js










/** Larger than zlib's 16 KB default: fewer callbacks per megabyte. */
const GUNZIP_CHUNK_BYTES = 256 * 1024;
/** Input handed to the decompressor at once. */
const BATCH_BYTES = 1024 * 1024;
/** Batches in the ring: the decompressor holds the others while one fills. */
const GZIP_BATCHES = 3;
const KIND = {
    file: 'file',
    'contiguous-file': 'file',
    directory: 'directory',
    symlink: 'symlink',
    link: 'hardlink',
    'character-device': 'device',
    'block-device': 'device',
    fifo: 'fifo',
};
/**
 * Extracts a tar or tar.gz stream as its bytes arrive: `write` each chunk in order
 * (it waits while the extractor is busy), then `end`. Every entry passes the
 * EntryGuard before anything is written; `signal` (the step's deadline or a
 * cancellation) stops it between two chunks.
 */
class TarExtraction {
    #parser = createTarParser();
    /** Plain tar: the parser hands on slices of its input, so the chunks go in as they are. */
    #input;
    /** tar.gz: the decompressor copies what it reads, so its batches are reused. */
    #gunzip;
    #ring;
    #done;
    #signal;
    #settled = false;
    #failure;
    #received = 0;
    constructor(root, format, limits, signal, onWritten) {
        this.#signal = signal;
        if (format === 'tar.gz') {
            this.#gunzip = (0,external_node_zlib_.createGunzip)({ chunkSize: GUNZIP_CHUNK_BYTES });
            this.#ring = new BatchRing(this.#gunzip);
        }
        else
            this.#input = new external_node_stream_.PassThrough({ highWaterMark: 2 * BATCH_BYTES });
        // The parser, not the input: once every byte has arrived, the input has ended and a
        // pipeline no longer listens to it, while the parser may still be writing files.
        const onAbort = () => this.#parser.destroy((0,errors/* abortReason */.Js)(signal));
        signal?.addEventListener('abort', onAbort, { once: true });
        this.#done = this.#run(root, format, limits, onWritten)
            .catch((err) => {
            this.#failure = signal?.aborted ? (0,errors/* abortReason */.Js)(signal) : mapArchiveError(err, format, root);
            throw this.#failure;
        })
            .finally(() => {
            this.#settled = true;
            this.#ring?.release();
            signal?.removeEventListener('abort', onAbort);
        });
        this.#done.catch(() => undefined);
        if (signal?.aborted)
            onAbort();
    }
    async write(chunk) {
        if (this.#failure)
            throw this.#failure;
        this.#received += chunk.length;
        if (this.#ring) {
            await this.#ring.write(chunk, this.#done);
            if (this.#failure)
                throw this.#failure;
            return;
        }
        // Each chunk as it came: a small buffer the parser is done with soon dies young,
        // where one gathered megabyte outlives a collection or two and waits for a full one
        // (measured, 500,000 files: 139 MB and 6.0 s against 179 MB and 8.8 s).
        const input = this.#input;
        if (!input.write(chunk)) {
            await Promise.race([(0,external_node_events_.once)(input, 'drain'), this.#done]);
            if (this.#failure)
                throw this.#failure;
        }
    }
    /** Ends the input and waits until every entry is on disk and checked. */
    async end() {
        if (this.#gunzip) {
            if (!this.#settled) {
                this.#ring?.flush();
                this.#gunzip.end();
            }
        }
        else {
            this.#input?.end();
        }
        return this.#done;
    }
    /** Stops extracting; what was written stays for the caller to remove. */
    async abort() {
        (this.#gunzip ?? this.#input)?.destroy(new errors/* ActionError */.lZ('extraction aborted'));
        await this.#done.catch(() => undefined);
    }
    async #run(root, format, limits, onWritten) {
        const guard = new EntryGuard(root, limits, () => this.#received);
        const writer = new SiteWriter(root, onWritten);
        const extract = this.#parser;
        // The stream machinery reports a refused entry as "premature close": keep the cause.
        let refusal;
        extract.on('entry', (header, content, next) => {
            extractEntry(guard, writer, header, content).then(() => next(), (err) => {
                refusal ??= err;
                content.destroy();
                next(err instanceof Error ? err : new Error(String(err)));
            });
        });
        try {
            await (0,external_node_stream_promises_.pipeline)((this.#gunzip ?? this.#input), extract);
        }
        catch (err) {
            throw refusal ?? err;
        }
        if (this.#signal?.aborted)
            throw (0,errors/* abortReason */.Js)(this.#signal);
        return completeExtraction(guard, writer);
    }
}
/**
 * The download's chunks on their way into the decompressor, copied into a few batches
 * of 1 MB that are used again once the decompressor has read them. Each write into the
 * decompressor is a round trip through the thread pool, so 64 KB network chunks are
 * gathered first; copied at once, each network chunk dies young, and the batches are
 * neither allocated nor faulted in again for every megabyte. A full ring waits for the
 * decompressor: the download runs at most a few batches ahead of it.
 */
class BatchRing {
    gunzip;
    #free = [];
    #filling;
    #filled = 0;
    #returned;
    #released = false;
    constructor(gunzip) {
        this.gunzip = gunzip;
        for (let i = 0; i < GZIP_BATCHES; i += 1)
            this.#free.push(Buffer.allocUnsafeSlow(BATCH_BYTES));
    }
    /** Copies `chunk` into the ring; resolves early once `done` settles (nothing reads on). */
    async write(chunk, done) {
        let offset = 0;
        while (offset < chunk.length) {
            if (this.#filling === undefined) {
                while (this.#free.length === 0) {
                    if (this.#released)
                        return;
                    await Promise.race([new Promise((resolve) => (this.#returned = resolve)), done]);
                }
                this.#filling = this.#free.pop();
            }
            const copied = chunk.copy(this.#filling, this.#filled, offset);
            offset += copied;
            this.#filled += copied;
            if (this.#filled === BATCH_BYTES)
                this.flush();
        }
    }
    /** Hands the batch being filled to the decompressor. */
    flush() {
        const batch = this.#filling;
        if (batch === undefined || this.#filled === 0)
            return;
        this.gunzip.write(batch.subarray(0, this.#filled), () => {
            this.#free.push(batch);
            this.#returned?.();
        });
        this.#filling = undefined;
        this.#filled = 0;
    }
    /** The extraction is over: stop waiting for batches to come back. */
    release() {
        this.#released = true;
        this.#returned?.();
    }
}
/** Creates the links, checks where they lead, and gathers the result of an extraction. */
function completeExtraction(guard, writer) {
    writer.finish(guard.tree);
    return {
        files: writer.fileCount,
        entries: guard.entryCount,
        bytes: guard.byteCount,
        macMetadata: guard.macMetadataCount,
        contents: writer.contents(guard.tree, guard.entryCount),
    };
}
async function drain(content) {
    for await (const _ of content)
        ; // no data to keep; the parser needs it consumed
}
async function gather(content) {
    const chunks = [];
    for await (const chunk of content)
        chunks.push(chunk);
    return chunks;
}
/**
 * The chunks of a small entry, gathered from its events: an async iterator per entry
 * costs more than most entries take to write.
 */
function tar_collect(content) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        let ended = false;
        content.on('data', (chunk) => chunks.push(chunk));
        content.once('end', () => {
            ended = true;
            resolve(chunks);
        });
        content.once('error', reject);
        // Destroyed before its end (the archive stopped mid-entry): never wait for it.
        content.once('close', () => {
            if (!ended)
                reject(new Error('premature close'));
        });
    });
}
async function extractEntry(guard, writer, header, content) {
    const typeflag = header.typeflag;
    // A volume label names the archive (GNU tar skips it); a continuation belongs to a
    // multi-volume set, whose other parts are not here.
    if (typeflag === 'V')
        return drain(content);
    if (typeflag === 'M') {
        throw new errors/* UnsafeArchiveError */.td(`Refusing to extract the archive: entry "${printable(header.name)}" continues a file from another volume of a multi-volume archive.`);
    }
    const sparse = sparseFileOf(header);
    // A dumpdir (GNU incremental archives) is a directory whose data lists its contents; old
    // (pre-POSIX) archives mark a directory as a regular file whose name ends with a slash.
    const kind = typeflag === 'D' || (header.type === 'file' && header.name.endsWith('/'))
        ? 'directory'
        : (KIND[header.type ?? 'file'] ?? 'unknown');
    const described = {
        name: sparse?.name ?? header.name,
        kind,
        size: sparse?.realSize ?? header.size ?? 0,
    };
    if (header.linkname)
        described.linkTarget = header.linkname;
    if (header.mode !== undefined)
        described.mode = header.mode;
    // A `._` file's first bytes tell an AppleDouble companion from a page; what they were
    // read from is the content from here on.
    let peeked;
    if (kind === 'file' && sparse === undefined && mayBeAppleDouble(described.name)) {
        const { head, content: whole } = await peekHead(content);
        described.head = head;
        peeked = whole;
    }
    const planned = guard.plan(described);
    // tar-stream never feeds a directory's size field as data (GNU tar ignores it too), so
    // reading its content would wait forever.
    if (header.type === 'directory') {
        if (planned)
            writer.directory(planned);
        return;
    }
    if (planned === undefined || planned.kind !== 'file') {
        await drain(peeked ?? content);
        if (planned?.kind === 'directory')
            writer.directory(planned);
        else if (planned?.kind === 'symlink')
            writer.symlink(planned);
        else if (planned?.kind === 'hardlink')
            writer.hardlink(planned);
        return;
    }
    if (sparse !== undefined) {
        const { runs, data } = sparse.runs
            ? { runs: sparse.runs, data: content }
            : await readMapFromData(header, content);
        checkRunsFit(header, runs, sparse.realSize);
        await writer.sparseFile(planned, runs, data);
        return;
    }
    if (planned.size <= SMALL_FILE_BYTES) {
        const chunks = peeked ? await gather(peeked) : await tar_collect(content);
        writer.file(planned, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    }
    else {
        await writer.fileFromChunks(planned, peeked ?? content);
    }
}
/**
 * Parser and decompressor errors mean a corrupt or truncated archive: say so plainly. A
 * full disk is named by the directory being written (`root`), as the download's is.
 */
function mapArchiveError(err, format, root) {
    if (err instanceof errors/* ActionError */.lZ)
        return err;
    const error = err;
    const message = printable(error?.message ?? String(err));
    if (error?.code === 'ENOSPC' || error?.code === 'EDQUOT') {
        if (root !== undefined)
            return new errors/* LocalFileError */.QD({
                code: error.code,
                path: root,
                doing: 'write the extracted site into',
                cause: err,
            });
        return new errors/* ActionError */.lZ(`Could not write the extracted site: the disk is full (${message}).`);
    }
    if (error?.code === 'ENAMETOOLONG') {
        return new errors/* UnsafeArchiveError */.td(`Refusing to extract the archive: it holds a path longer than this filesystem accepts under the destination.`);
    }
    if (error?.code?.startsWith('Z_') ||
        /unexpected end|invalid tar header|truncated|incorrect header|corrupt/i.test(message)) {
        return new errors/* UnsafeArchiveError */.td(`The ${format} archive is truncated or corrupt (${message}).`);
    }
    if (error?.code && /^E[A-Z]+$/.test(error.code)) {
        return new errors/* ActionError */.lZ(`Could not write the extracted site (${error.code}: ${message}).`);
    }
    return new errors/* UnsafeArchiveError */.td(`The ${format} archive could not be read (${message}).`);
}

// EXTERNAL MODULE: ./node_modules/yauzl/index.js
var yauzl = __webpack_require__(663);
;// CONCATENATED MODULE: ./.build/deliver/archive/zip.js










const S_IFMT = 0o170000;
const FILE_TYPE = {
    0o100000: 'file',
    0o040000: 'directory',
    0o120000: 'symlink',
    0o020000: 'device',
    0o060000: 'device',
    0o010000: 'fifo',
    0o140000: 'unknown', // socket
};
const MAX_SYMLINK_TARGET = 4096;
const STORED = 0;
const DEFLATED = 8;
/** The methods a zip may name that this action does not extract, for a message that says which. */
const METHOD_NAMES = {
    1: 'Shrink',
    6: 'Implode',
    9: 'Deflate64',
    12: 'bzip2',
    14: 'LZMA',
    93: 'Zstandard',
    95: 'XZ',
    96: 'JPEG',
    97: 'WavPack',
    98: 'PPMd',
    99: 'AES encryption',
};
const EOCD_SIGNATURE = 0x06054b50;
const EOCD_BYTES = 22;
const LOCAL_HEADER_BYTES = 30;
const UTF8_NAMES = 0x800;
const UNICODE_PATH_FIELD = 0x7075;
/** The longest run of entries between two turns of the event loop (see EventLoopTurns). */
const TURN_MS = 20;
/**
 * Reads the zip file with synchronous calls: yauzl parses the directory and the local
 * headers through it, and a site's thousands of small entries each cost a read instead
 * of a thread-pool round trip. `size` may differ from the file's: see `endRecordSize`.
 */
class SyncFileReader extends yauzl.RandomAccessReader {
    fd;
    fileSize;
    visibleSize;
    constructor(fd, fileSize, visibleSize) {
        super();
        this.fd = fd;
        this.fileSize = fileSize;
        this.visibleSize = visibleSize;
    }
    /** Large entries stream; the descriptor stays open (it belongs to extractZip). */
    _readStreamForRange(start, end) {
        const fd = this.fd;
        let position = start;
        return new external_node_stream_.Readable({
            read(size) {
                const length = Math.min(Math.max(size, 64 * 1024), end - position);
                if (length <= 0) {
                    this.push(null);
                    return;
                }
                const buffer = Buffer.allocUnsafe(length);
                external_node_fs_.read(fd, buffer, 0, length, position, (err, bytesRead) => {
                    if (err)
                        return this.destroy(err);
                    position += bytesRead;
                    this.push(bytesRead > 0 ? buffer.subarray(0, bytesRead) : null);
                });
            },
        });
    }
    read(buffer, offset, length, position, callback) {
        let bytesRead;
        try {
            bytesRead = external_node_fs_.readSync(this.fd, buffer, offset, length, position);
        }
        catch (err) {
            callback(err);
            return;
        }
        // An end-record comment declared longer than what is left reads as zeros (as unzip does).
        const pastEnd = position + length > this.fileSize && position + length <= this.visibleSize;
        if (bytesRead < length && pastEnd) {
            buffer.fill(0, offset + bytesRead, offset + length);
            bytesRead = length;
        }
        callback(null, bytesRead);
    }
    close(callback) {
        callback(null);
    }
}
/**
 * Extracts a zip file (its directory is at the end, so it cannot stream). The central
 * directory is read twice: first to refuse, before a byte is written, an archive whose
 * entries overlap (one stream counted many times), exceed the size, ratio or count
 * ceilings, or use a method or encryption this action does not read; then to extract
 * each entry through the same EntryGuard as tar entries, sizes and CRC-32 checked.
 */
async function extractZip(file, root, limits, signal, onWritten) {
    const fd = external_node_fs_.openSync(file, 'r');
    try {
        const fileSize = external_node_fs_.fstatSync(fd).size;
        const size = endRecordSize(fd, fileSize);
        const open = async () => {
            try {
                return await yauzl.fromRandomAccessReaderPromise(new SyncFileReader(fd, fileSize, size), size, {
                    lazyEntries: true,
                    autoClose: false,
                    validateEntrySizes: true,
                    decodeStrings: false,
                });
            }
            catch (err) {
                throw mapZipError(err);
            }
        };
        const survey = await open();
        if (survey.entryCount > limits.maxEntries) {
            throw new errors/* UnsafeArchiveError */.td(`Refusing to extract the archive: it has ${survey.entryCount} entries, more than ${limits.maxEntries} (raise \`max-extract-files\` if this is expected).`);
        }
        await surveyEntries(survey, limits, fileSize);
        (0,errors/* throwIfAborted */.Te)(signal);
        const zip = await open();
        const guard = new EntryGuard(root, limits, () => fileSize);
        const writer = new SiteWriter(root, onWritten);
        try {
            await new Promise((resolve, reject) => {
                zip.on('error', reject);
                zip.on('end', resolve);
                const turns = new EventLoopTurns();
                zip.on('entry', (entry) => {
                    extractZipEntry(zip, fd, entry, guard, writer, signal).then(() => turns.then(() => zip.readEntry()), reject);
                });
                zip.readEntry();
            });
        }
        catch (err) {
            throw mapZipError(err, root);
        }
        return completeExtraction(guard, writer);
    }
    finally {
        external_node_fs_.closeSync(fd);
    }
}
/**
 * Runs the next step of a loop over entries: soon (a microtask), but every few
 * milliseconds on a later turn of the event loop. Small entries are read, inflated and
 * written with synchronous calls, so without these turns a zip of many small files would
 * hold the thread until its end, and neither the step's deadline (a timer) nor a
 * cancellation (a signal) could reach the `signal` checked before each entry.
 */
class EventLoopTurns {
    #since = performance.now();
    then(step) {
        if (performance.now() - this.#since < TURN_MS) {
            queueMicrotask(step);
            return;
        }
        setImmediate(() => {
            this.#since = performance.now();
            step();
        });
    }
}
/**
 * The size yauzl should see. Some tools write an end record whose comment length is off
 * by some bytes (junk after it, or a comment cut short): unzip and bsdtar read those, so
 * the file is presented as ending where the record says it ends.
 */
function endRecordSize(fd, fileSize) {
    const tailLength = Math.min(fileSize, EOCD_BYTES + 0xffff);
    const tail = Buffer.alloc(tailLength);
    external_node_fs_.readSync(fd, tail, 0, tailLength, fileSize - tailLength);
    let last;
    for (let i = tailLength - EOCD_BYTES; i >= 0; i -= 1) {
        if (tail.readUInt32LE(i) !== EOCD_SIGNATURE)
            continue;
        const comment = tail.readUInt16LE(i + 20);
        if (comment === tailLength - i - EOCD_BYTES)
            return fileSize;
        last ??= fileSize - tailLength + i + EOCD_BYTES + comment;
    }
    return last ?? fileSize;
}
/** The first pass over the central directory: nothing is written until it passes. */
async function surveyEntries(zip, limits, archiveSize) {
    const starts = new Float64Array(zip.entryCount);
    const ends = new Float64Array(zip.entryCount);
    let count = 0;
    let total = 0;
    const turns = new EventLoopTurns();
    await new Promise((resolve, reject) => {
        zip.on('error', (err) => reject(mapZipError(err)));
        zip.on('end', resolve);
        zip.on('entry', (entry) => {
            try {
                const name = entryName(entry);
                if (entry.isEncrypted()) {
                    throw new errors/* UnsafeArchiveError */.td(`Refusing to extract the archive: entry "${printable(name)}" is encrypted.`);
                }
                const method = entry.compressionMethod;
                if (method !== STORED && method !== DEFLATED) {
                    const known = METHOD_NAMES[method];
                    throw new errors/* UnsafeArchiveError */.td(`Refusing to extract the archive: entry "${printable(name)}" is compressed with ${known ?? 'an unknown method'} (method ${method}), which this action does not extract; re-create the archive with Deflate, the default of zip, 7-Zip and Windows.`);
                }
                if (count < starts.length) {
                    starts[count] = entry.relativeOffsetOfLocalHeader;
                    ends[count] =
                        entry.relativeOffsetOfLocalHeader +
                            LOCAL_HEADER_BYTES +
                            entry.fileNameLength +
                            entry.compressedSize;
                }
                count += 1;
                if (zip_kindOf(entry, name) === 'file') {
                    total += entry.uncompressedSize;
                    checkExpansion(limits, total, archiveSize);
                }
                // Not from inside the callback: with synchronous reads, that would nest a stack
                // frame per entry.
                turns.then(() => zip.readEntry());
            }
            catch (err) {
                reject(err);
            }
        });
        zip.readEntry();
    });
    checkNoOverlap(starts.subarray(0, count), ends.subarray(0, count));
}
/**
 * Each entry's bytes must be its own: a bomb points many entries at one stream (Info-ZIP
 * refuses these as "overlapped components"). The span counted for an entry is its local
 * header and data, without the local extra field, so an honest archive never trips it.
 */
function checkNoOverlap(starts, ends) {
    let order;
    for (let i = 1; i < starts.length; i += 1) {
        if (starts[i] < starts[i - 1]) {
            order = Uint32Array.from(starts.keys()).sort((a, b) => starts[a] - starts[b]);
            break;
        }
    }
    let previousEnd = 0;
    for (let k = 0; k < starts.length; k += 1) {
        const i = order ? order[k] : k;
        if (starts[i] < previousEnd) {
            throw new errors/* UnsafeArchiveError */.td('Refusing to extract the archive: its entries overlap (several entries share the same compressed bytes, as in a zip bomb).');
        }
        previousEnd = ends[i];
    }
}
/**
 * The entry's name as unzip and bsdtar read it: the Info-ZIP Unicode Path field, or
 * UTF-8 when the flag says so; else UTF-8 when the bytes are valid UTF-8 (Info-ZIP on
 * Unix writes names that way without the flag); else the DOS code page 437.
 */
function entryName(entry) {
    const raw = entry.fileNameRaw;
    const flags = entry.generalPurposeBitFlag;
    if (flags & UTF8_NAMES)
        return raw.toString('utf8');
    if (entry.extraFields.some((field) => field.id === UNICODE_PATH_FIELD)) {
        const withField = yauzl.getFileNameLowLevel(flags, raw, entry.extraFields, true);
        if (withField !== yauzl.getFileNameLowLevel(flags, raw, [], true))
            return withField;
    }
    if ((0,external_node_buffer_.isUtf8)(raw))
        return raw.toString('utf8');
    return yauzl.getFileNameLowLevel(flags, raw, [], true);
}
/**
 * As unzip and bsdtar read it: a name ending in a slash is a directory whatever its mode
 * says, and a named pipe's mode (`… | zip out.zip -` stores the mode of its stdin) is a
 * regular file with the entry's bytes.
 */
function zip_kindOf(entry, name) {
    if (name.endsWith('/') || (name.endsWith('\\') && backslashSeparates(entry, name))) {
        return 'directory';
    }
    const unixMode = (entry.externalFileAttributes >>> 16) & 0xffff;
    const kind = unixMode & S_IFMT ? (FILE_TYPE[unixMode & S_IFMT] ?? 'unknown') : 'file';
    return kind === 'fifo' ? 'file' : kind;
}
/** MS-DOS, NTFS and VFAT: the "version made by" hosts of Windows and DOS tools. */
const WINDOWS_HOSTS = new Set([0, 11, 14]);
/**
 * Whether `\\` separates the components of the entry's name: made on Windows or DOS, by a
 * tool that wrote no `/` in it (old .NET, some Windows zippers). A name that holds a `/`
 * was written with `/` as its separator, and keeps its backslashes as characters, as
 * unzip and bsdtar read both. (unzip splits MS-DOS names only, bsdtar all three hosts.)
 */
function backslashSeparates(entry, name) {
    return WINDOWS_HOSTS.has(entry.versionMadeBy >>> 8) && !name.includes('/');
}
async function extractZipEntry(zip, fd, entry, guard, writer, signal) {
    (0,errors/* throwIfAborted */.Te)(signal);
    const name = entryName(entry);
    const unixMode = (entry.externalFileAttributes >>> 16) & 0xffff;
    const kind = zip_kindOf(entry, name);
    if (kind === 'symlink' && entry.uncompressedSize > MAX_SYMLINK_TARGET) {
        throw new errors/* UnsafeArchiveError */.td(`Refusing to extract the archive: symlink "${printable(name)}" has an oversized target.`);
    }
    const linkTarget = kind === 'symlink' ? (await readWhole(zip, fd, entry, name)).toString('utf8') : undefined;
    // A `._` file's first bytes tell an AppleDouble companion from a page.
    let data;
    let head;
    if (kind === 'file' && mayBeAppleDouble(name)) {
        if (entry.uncompressedSize <= SMALL_FILE_BYTES) {
            data = await readWhole(zip, fd, entry, name);
            head = data;
        }
        else
            head = await readHead(zip, entry);
    }
    const planned = guard.plan({
        name,
        kind,
        size: kind === 'file' ? entry.uncompressedSize : 0,
        ...(linkTarget !== undefined ? { linkTarget } : {}),
        ...(unixMode ? { mode: unixMode & 0o777 } : {}),
        ...(backslashSeparates(entry, name) ? { backslashSeparates: true } : {}),
        ...(head !== undefined ? { head } : {}),
    });
    if (planned === undefined)
        return;
    if (planned.kind === 'directory')
        return writer.directory(planned);
    if (planned.kind === 'symlink')
        return writer.symlink(planned);
    if (planned.size <= SMALL_FILE_BYTES)
        return writer.file(planned, data ?? (await readWhole(zip, fd, entry, name)));
    let crc = 0;
    const content = await openStream(zip, entry);
    await writer.fileFromChunks(planned, (async function* () {
        for await (const chunk of content) {
            (0,errors/* throwIfAborted */.Te)(signal);
            crc = external_node_zlib_.crc32(chunk, crc);
            yield chunk;
        }
    })());
    checkCrc(entry, name, crc);
}
function openStream(zip, entry) {
    return new Promise((resolve, reject) => zip.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream))));
}
/** The first bytes of a large entry, inflated; the rest is not read. */
async function readHead(zip, entry) {
    const stream = await openStream(zip, entry);
    try {
        return (await peekHead(stream)).head;
    }
    finally {
        stream.destroy();
    }
}
/** An entry's content, read and inflated in one go; sizes and CRC-32 checked. */
async function readWhole(zip, fd, entry, name) {
    const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
    const compressed = Buffer.allocUnsafe(entry.compressedSize);
    if (external_node_fs_.readSync(fd, compressed, 0, compressed.length, fileDataStart) !== compressed.length) {
        throw new errors/* UnsafeArchiveError */.td(`The zip archive is truncated or corrupt (entry "${printable(name)}" is cut short).`);
    }
    let data;
    if (entry.compressionMethod === STORED)
        data = compressed;
    else {
        try {
            // One byte of slack, so that content longer than declared is noticed, never written.
            data = external_node_zlib_.inflateRawSync(compressed, { maxOutputLength: entry.uncompressedSize + 1 });
        }
        catch (err) {
            // Past the slack byte: more than the directory said.
            if (err.code === 'ERR_BUFFER_TOO_LARGE') {
                throw new errors/* UnsafeArchiveError */.td(`Refusing to extract the archive: entry "${printable(name)}" holds more bytes than its header declares.`);
            }
            throw new errors/* UnsafeArchiveError */.td(`The zip archive is truncated or corrupt (entry "${printable(name)}": ${err.message}).`);
        }
    }
    if (data.length !== entry.uncompressedSize) {
        throw new errors/* UnsafeArchiveError */.td(`Refusing to extract the archive: entry "${printable(name)}" holds ${data.length > entry.uncompressedSize ? 'more' : 'fewer'} bytes than its header declares.`);
    }
    checkCrc(entry, name, external_node_zlib_.crc32(data));
    return data;
}
function checkCrc(entry, name, crc) {
    if (crc >>> 0 !== entry.crc32 >>> 0) {
        throw new errors/* UnsafeArchiveError */.td(`The zip archive is corrupt: entry "${printable(name)}" does not match its CRC-32.`);
    }
}
function mapZipError(err, root) {
    if (err instanceof errors/* ActionError */.lZ)
        return err;
    return mapArchiveError(err, 'zip', root);
}

;// CONCATENATED MODULE: ./.build/deliver/extract.js








/**
 * Extracts the archive into `stagingDir` while it downloads: the format is read from
 * the first bytes, tar and tar.gz are extracted as they stream in, zip (whose
 * directory sits at the end) once the file is complete. Non-archives are refused as
 * soon as their first bytes arrive.
 */
class ExtractingSink {
    stagingDir;
    limits;
    signal;
    onWritten;
    #head = [];
    #headBytes = 0;
    #format;
    #tar;
    /**
     * `signal` (the step's deadline, a cancellation) interrupts extraction too;
     * `onWritten` is told of each file as soon as it is on disk.
     */
    constructor(stagingDir, limits, signal, onWritten) {
        this.stagingDir = stagingDir;
        this.limits = limits;
        this.signal = signal;
        this.onWritten = onWritten;
    }
    get format() {
        return this.#format;
    }
    /** Only zip (read from its end) and a format not yet known need the file. */
    needsFile() {
        return this.#format === undefined || this.#format === 'zip';
    }
    /** A plain tar has no checksum of its own; gzip (its CRC) and zip (one per entry) do. */
    needsChecksum() {
        return this.#format === undefined || this.#format === 'tar';
    }
    async write(chunk) {
        try {
            if (this.#format === undefined) {
                this.#head.push(chunk);
                this.#headBytes += chunk.length;
                if (this.#headBytes >= SNIFF_BYTES)
                    await this.#begin();
                return;
            }
            await this.#tar?.write(chunk);
        }
        catch (err) {
            throw await this.#withSpace(err);
        }
    }
    async restart() {
        await this.#tar?.abort();
        this.#tar = undefined;
        this.#format = undefined;
        this.#head = [];
        this.#headBytes = 0;
        await promises_.rm(this.stagingDir, { recursive: true, force: true });
        await promises_.mkdir(this.stagingDir, { recursive: true });
    }
    /** Completes extraction once the whole archive is in `file`. */
    async finish(file) {
        try {
            if (this.#format === undefined)
                await this.#begin();
            const format = this.#format;
            const result = format === 'zip'
                ? await extractZip(file, this.stagingDir, this.limits, this.signal, this.onWritten)
                : await this.#tar.end();
            return { format, ...result };
        }
        catch (err) {
            throw await this.#withSpace(err);
        }
    }
    /** A full disk says how much of the site was on it, and what is free there. */
    async #withSpace(err) {
        if (!(0,full_disk/* isFullDisk */.R)(err))
            return err;
        // Added up only now: a run whose disk has room never pays for it.
        return (0,full_disk/* withDiskSpace */.y)(err, { written: await bytesUnder(this.stagingDir) });
    }
    /** Stops any extraction in progress (on failure or cancellation). */
    async abort() {
        await this.#tar?.abort();
    }
    async #begin() {
        const head = Buffer.concat(this.#head);
        this.#head = [];
        const format = detectFormat(head);
        if (format === undefined) {
            throw new errors/* UnsafeArchiveError */.td(refusalOf(head));
        }
        this.#format = format;
        if (format !== 'zip') {
            this.#tar = new TarExtraction(this.stagingDir, format, this.limits, this.signal, this.onWritten);
            await this.#tar.write(head);
        }
    }
}
/** Reads the first bytes of a finished download and names its format, or refuses it. */
async function sniffFile(file) {
    const handle = await promises_.open(file, 'r');
    try {
        const { buffer, bytesRead } = await handle.read(Buffer.alloc(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
        const head = buffer.subarray(0, bytesRead);
        const format = detectFormat(head);
        if (format === undefined) {
            throw new errors/* UnsafeArchiveError */.td(refusalOf(head));
        }
        return format;
    }
    finally {
        await handle.close();
    }
}
/** The bytes of the files below `dir` (what the extraction wrote); 0 where it cannot be read. */
async function bytesUnder(dir) {
    const entries = await (0,tree_walk/* readTree */.Z)(dir).catch(() => []);
    const sizes = await Promise.all(entries
        .filter((entry) => entry.dirent.isFile())
        .map((entry) => promises_.lstat(external_node_path_.join(dir, entry.path)).then((stat) => stat.size, () => 0)));
    return sizes.reduce((sum, size) => sum + size, 0);
}

;// CONCATENATED MODULE: ./.build/deliver/deliver.js













/**
 * Downloads the bundle into a temporary file (extracting as it arrives), verifies it,
 * and only then renames the result into `target`. On any failure or cancellation the
 * temporary file and the staging directory are removed and `target` is left as it was.
 */
async function deliverBundle(options) {
    const { reporter } = options;
    await promises_.mkdir(options.tempDir, { recursive: true });
    const file = (0,place/* temporaryFileName */.Nc)(options.tempDir, '.download');
    (0,place/* trackTemporary */.hN)(file);
    const staging = options.extract ? await (0,place/* createStagingDirectory */.Hn)(options.target) : undefined;
    const pages = staging ? options.describePages?.(staging) : undefined;
    const sink = staging
        ? new ExtractingSink(staging, options.limits, options.signal, pages?.written)
        : undefined;
    const progress = downloadProgress(reporter, options.clock);
    const releaseYoungGeneration = holdYoungGeneration();
    try {
        const download = await downloadBundle({
            source: options.source,
            refresh: options.refresh,
            ...(options.onRedirect ? { onRedirect: options.onRedirect } : {}),
            file,
            dispatcher: options.dispatcher,
            clock: options.clock,
            random: options.random,
            ...(options.deadline !== undefined ? { deadline: options.deadline } : {}),
            idleTimeoutMs: options.idleTimeoutMs,
            ...(options.signal ? { signal: options.signal } : {}),
            ...(sink ? { sink } : {}),
            onProgress: progress,
            onEvent: (message) => reporter.info(message),
            debug: (line) => reporter.debug(line),
        });
        reporter.info(`Downloaded ${(0,duration/* formatBytes */.z3)(download.size)}, sha256 ${download.sha256}${download.etagVerified ? ' (matches the storage ETag)' : ''}.`);
        options.onDownloaded?.(download);
        const facts = (format) => ({
            ...options.export,
            exportedAt: new Date(options.clock.now()),
            archive: { format, sha256: download.sha256, sizeBytes: download.size },
        });
        if (sink && staging) {
            const site = await sink.finish(file);
            reporter.info(`Extracted ${site.files} files (${(0,duration/* formatBytes */.z3)(site.bytes)}) from the ${site.format} archive; every entry passed the safety checks.`);
            if (site.macMetadata > 0) {
                reporter.info(`Left out ${site.macMetadata} macOS metadata ${site.macMetadata === 1 ? 'file' : 'files'} (__MACOSX/, ._*): the archive was made on a Mac, and they are not part of the site.`);
            }
            await options.inspect?.(staging, site.contents);
            // A signal that came while a step went on unaware (the check, the listing) stops here.
            (0,errors/* throwIfAborted */.Te)(options.signal);
            const described = await pages?.finish(site.contents, options.signal);
            const directory = await (0,deliver_protected/* identityOf */.cu)(staging);
            const manifest = (0,deliver_manifest/* buildManifest */.u1)({
                ...facts(site.format),
                contents: site.contents,
                ...(described ? { pages: described } : {}),
                // Renamed into path as it is: the same directory to the file system.
                ...(directory ? { directory } : {}),
            });
            // The review's file is written while the manifest is. Either failing stops the step,
            // once both are done: nothing may still be writing into the staging directory when
            // it is removed.
            const settled = await Promise.allSettled([
                options.review?.(manifest),
                (0,deliver_manifest/* writeManifest */.HN)(staging, manifest),
            ]);
            for (const outcome of settled)
                if (outcome.status === 'rejected')
                    throw outcome.reason;
            const previous = await recheckTarget(options, () => inspectTarget(options.target, options.targetRules, options.targetGiven));
            // The last moment a cancellation or the timeout can leave path as it was.
            (0,errors/* throwIfAborted */.Te)(options.signal);
            const { replaced, leftBehind } = await (0,place/* replaceDirectory */.QY)(staging, options.target);
            if (leftBehind)
                reporter.warning(leftBehind);
            return {
                download,
                directory: options.target,
                site,
                format: site.format,
                ...(replaced ? { replaced: previous } : {}),
                manifestPath: external_node_path_.join(options.target, deliver_manifest/* MANIFEST_NAME */.ir),
            };
        }
        releaseYoungGeneration();
        const format = await sniffFile(file);
        const name = `${options.archiveName}${EXTENSION[format]}`;
        const ours = await recheckTarget(options, () => inspectArchiveTarget(options.target, [name], options.targetRules, options.targetGiven, options.signal));
        (0,errors/* throwIfAborted */.Te)(options.signal);
        const known = facts(format);
        const kept = { ...known, archive: { ...known.archive, file: name } };
        const earlier = ours.get(name);
        const replacing = earlier?.sha256 === download.sha256 ? undefined : earlier;
        const manifestPath = external_node_path_.join(options.target, archiveManifestName(name));
        const before = await keepAside(manifestPath);
        let archivePath;
        try {
            // The manifest goes first and names the archive it replaces: a run killed before the
            // rename leaves that archive beside it, which the next run still knows as its own.
            await (0,place/* writeFileAtomic */.Zf)(manifestPath, (0,deliver_manifest/* serializeManifest */.MZ)((0,deliver_manifest/* buildManifest */.u1)({ ...kept, ...(replacing ? { replacing } : {}) })));
            archivePath = await (0,place/* moveFileInto */.ag)(file, options.target, name);
        }
        catch (err) {
            // Not put in place: the manifest goes back to what it was (the file itself).
            if (before.kind === 'kept')
                await promises_.rename(before.aside, manifestPath).catch(() => { });
            else if (before.kind === 'none')
                await promises_.rm(manifestPath, { force: true }).catch(() => { });
            throw err;
        }
        finally {
            if (before.kind === 'kept')
                await (0,place/* removeTemporary */.cF)(before.aside);
        }
        // In place: the manifest describes it alone (the earlier bytes are no longer ours), and
        // is dated after it, so that the next run knows it by its size without reading it.
        if (replacing)
            await (0,place/* writeFileAtomic */.Zf)(manifestPath, (0,deliver_manifest/* serializeManifest */.MZ)((0,deliver_manifest/* buildManifest */.u1)(kept)));
        await dateAfter(manifestPath, archivePath);
        return { download, directory: options.target, archivePath, format, manifestPath };
    }
    finally {
        releaseYoungGeneration();
        await sink?.abort();
        await pages?.stop();
        await (0,place/* removeTemporary */.cF)(file);
        if (staging)
            await (0,place/* removeTemporary */.cF)(staging);
    }
}
/**
 * A second name for `file` (a hard link: the same bytes, mode and owner; on Linux a symbolic link
 * stays one), to put it back by. `none` when there is no such file; `unknown` when the file
 * system makes no links, and the file cannot be put back.
 */
async function keepAside(file) {
    const aside = (0,place/* siblingPath */.eR)(file, 'previous');
    (0,place/* trackTemporary */.hN)(aside);
    try {
        await promises_.link(file, aside);
        return { kind: 'kept', aside };
    }
    catch (err) {
        await (0,place/* removeTemporary */.cF)(aside);
        return err.code === 'ENOENT'
            ? { kind: 'none' }
            : { kind: 'unknown' };
    }
}
/**
 * Dates the manifest `file` after `earlier`, the file it describes, when a later run would
 * take that file for written since (unchanged.ts): written before the rename, or within
 * the same tick of the file times (4 ms on a Linux tmpfs). One millisecond past both its
 * times is never ahead of the clock by the time a later run reads it.
 */
async function dateAfter(file, earlier) {
    const [written, before] = await Promise.all([promises_.stat(file), promises_.stat(earlier)]);
    if (!touchedSince(before, provenBefore(written)))
        return;
    const after = new Date(Math.max(before.mtimeMs, before.ctimeMs) + 1);
    await promises_.utimes(file, after, after);
}
/**
 * The target is checked again at the last moment: a long export leaves time for changes,
 * and for another run to take the lock on it over.
 */
async function recheckTarget({ confirmLock }, inspect) {
    try {
        await confirmLock?.();
        return await inspect();
    }
    catch (err) {
        const notPlaced = 'The export was not put in place, and `path` was left as it is:';
        if (err instanceof errors/* PathInUseError */.c4)
            throw new errors/* PathInUseError */.c4(`${notPlaced} ${err.message}`);
        if (!(err instanceof TargetRefusal))
            throw err;
        throw new errors/* ActionError */.lZ(`${notPlaced} ${err.message}`);
    }
}
/** One line per quarter of the download, and at most every 15 s in between. */
function downloadProgress(reporter, clock) {
    let nextQuarter = 1;
    let lastLine = clock.now();
    const started = clock.now();
    return (received, total) => {
        reporter.progress?.({
            phase: 'download',
            bytes: received,
            ...(total !== undefined ? { totalBytes: total } : {}),
        });
        const now = clock.now();
        const quarter = total ? Math.floor((received / total) * 4) : 0;
        if (quarter < nextQuarter && now - lastLine < 15_000)
            return;
        if (quarter >= nextQuarter)
            nextQuarter = quarter + 1;
        lastLine = now;
        const seconds = Math.max(0.001, (now - started) / 1000);
        const percent = total ? ` (${Math.floor((received / total) * 100)}%)` : '';
        reporter.info(`  ${(0,duration/* formatBytes */.z3)(received)}${total ? ` of ${(0,duration/* formatBytes */.z3)(total)}` : ''}${percent} at ${(0,duration/* formatBytes */.z3)(received / seconds)}/s`, { progress: true });
    };
}

;// CONCATENATED MODULE: ./.build/deliver/helm.js
/**
 * What YAML 1.1 readers (libyaml, go-yaml, so Helm) do not take as text, where JSON leaves
 * it raw or where it ends a comment: the C0 controls but tab, DEL, the C1 controls and the
 * non-characters U+FFFE and U+FFFF are refused (the whole file with them), and LF, CR,
 * NEL, LS and PS end a line, a comment's too.
 */
const NOT_YAML_TEXT = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\ufffe\uffff]/g;
/** Half of a surrogate pair, alone: no character, and no `\u` escape YAML accepts. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
function escapeForYaml(text) {
    return text.replace(NOT_YAML_TEXT, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
/**
 * A JSON string, which is a YAML double-quoted scalar once what YAML 1.1 reads otherwise is
 * escaped. A lone surrogate (a JSON answer can hold one) becomes U+FFFD, as it does in any
 * UTF-8 file: JSON would write it as an escape that YAML readers refuse.
 */
function quoted(value) {
    return escapeForYaml(JSON.stringify(value.replace(LONE_SURROGATE, '\ufffd')));
}
/**
 * A values file for `helm upgrade -f`. Strings are written as double-quoted scalars and
 * the comments hold no line break, so no value can break out of its field.
 */
function renderHelmValues(values) {
    const expiry = values.expiresAt
        ? `# The bundle link expires at ${values.expiresAt.toISOString()}: roll out before then, or export again.\n`
        : '';
    return (`# Static export ${escapeForYaml(values.jobId)} of ${values.domain}, written by static-export-action.\n` +
        expiry +
        'staticExport:\n' +
        '  enabled: true\n' +
        `  bundleUrl: ${quoted(values.bundleUrl)}\n` +
        `  version: ${quoted(values.version)}\n`);
}

// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 11 modules
var classic_schemas = __webpack_require__(2857);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/iso.js
var iso = __webpack_require__(4377);
// EXTERNAL MODULE: ./.build/deliver/process-identity.js
var process_identity = __webpack_require__(8908);
;// CONCATENATED MODULE: ./.build/deliver/path-lock.js











const LOCK_WAIT = { limitMs: 10 * 60_000, everyMs: 1000, clock: _build_clock/* systemClock */.m };
/** The run holding a lock sets its modification time this often. */
const RENEW_EVERY_MS = 20_000;
/** A lock of another host or container unrenewed for this long has no run left. */
const UNRENEWED_MS = 3 * 60_000;
/** The longest renewal interval a record may name. */
const RENEW_MAX_MS = 10 * 60_000;
/** A lock without a record this young is being written by its run, not left empty. */
const BEING_WRITTEN_MS = 10_000;
/**
 * How long after its run's own time limit (`until`) a lock is still taken as held, where
 * whether its process runs cannot be seen from here: the run's cleanup after its timeout,
 * and the clocks of two hosts, which may disagree.
 */
const PAST_LIMIT_MS = 15 * 60_000;
/** A record is a line of JSON: anything larger is not one. */
const RECORD_MAX_BYTES = 4096;
/** While it waits, a run says so once a minute. */
const STILL_WAITING_EVERY_MS = 60_000;
/** `.site.static-export.lock` beside `site`, the site or the archive's base name. */
function lockFileBeside(target) {
    return external_node_path_.join(external_node_path_.dirname(target), `.${external_node_path_.basename(target)}.static-export.lock`);
}
/** Text of the record the log shows: one line, no control characters. */
const shownText = classic_schemas/* string */.YjP()
    .max(255)
    .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/);
const lockRecord = classic_schemas/* object */.Ikc({
    format: classic_schemas/* literal */.euz('static-export-lock'),
    pid: classic_schemas/* number */.aig().int().positive(),
    /** When the process started (process-identity.ts), where known. */
    start: shownText.optional(),
    pidNamespace: shownText.optional(),
    hostname: shownText,
    /** When the run took the lock. */
    startedAt: iso/* datetime */.w$(),
    /** When the run's `timeout` ends it, and its lock with it. */
    until: iso/* datetime */.w$().optional(),
    /** How often the run renews the lock's modification time (earlier versions did not). */
    renewEveryMs: classic_schemas/* number */.aig().int().positive().max(RENEW_MAX_MS).optional(),
});
/** The lock files this process holds, each with the identity of the file it created. */
const held = new Map();
let exitHookInstalled = false;
/**
 * Takes the lock `file`: at once when it is free, after taking it over when the run that
 * holds it has ended, else once that run has removed it. Throws a PathInUseError when
 * that run still holds it after `wait.limitMs`.
 */
async function lockPath(file, options) {
    const { wait, reporter, signal } = options;
    const began = wait.clock.now();
    let waitingFor;
    let saidAt = began;
    /** The lock file as last seen, and since when this run has seen it unrenewed. */
    let seen;
    for (;;) {
        (0,errors/* throwIfAborted */.Te)(signal);
        const lock = await createLock(file, wait, options.until, options.shown);
        if (lock) {
            if (waitingFor !== undefined)
                options.onWaiting?.(undefined);
            return lock;
        }
        const holder = await readHolder(file);
        // Removed between the two looks: free again.
        if (holder === undefined)
            continue;
        const seenAt = wait.clock.now();
        if (seen === undefined ||
            !sameFile(holder.stat, seen.stat) ||
            holder.stat.mtimeMs !== seen.stat.mtimeMs) {
            seen = { stat: holder.stat, since: seenAt };
        }
        const verdict = judge(file, holder, seenAt, {
            unrenewedForMs: seenAt - seen.since,
            unrenewedMs: wait.unrenewedMs ?? UNRENEWED_MS,
        });
        if (verdict.kind === 'ended') {
            if (await takeOver(file, holder.stat)) {
                reporter.notice(`Took over ${file}, left by a run that ended without removing it ${verdict.run}: ${verdict.why}.`);
            }
            continue;
        }
        const now = wait.clock.now();
        const waited = now - began;
        if (waitingFor !== verdict.run) {
            waitingFor = verdict.run;
            saidAt = now;
            options.onWaiting?.(`the run that holds ${file} ${verdict.run}`);
            reporter.info(`Waiting for the run that holds ${file} ${verdict.run} to end, for up to ${(0,duration/* formatDuration */.a3)(wait.limitMs)}: runs into one \`path\` take turns${verdict.unjudged ? `; ${verdict.unjudged}` : ''}.`);
        }
        else if (now - saidAt >= STILL_WAITING_EVERY_MS) {
            saidAt = now;
            reporter.info(`Still waiting for the run that holds ${file} (${(0,duration/* formatDuration */.a3)(waited)} so far).`);
        }
        if (waited >= wait.limitMs) {
            throw new errors/* PathInUseError */.c4(`Another run is writing ${options.shown}: the run that holds ${file} ${verdict.run} had not ended after ${(0,duration/* formatDuration */.a3)(waited)}${verdict.unjudged ? ` (${verdict.unjudged})` : ''}. Runs into one \`path\` must not overlap: give each its own \`path\`, or have them take turns (one \`concurrency\` group in a workflow). If that run is no longer going on, remove ${file} and run again.`);
        }
        await wait.clock.sleep(Math.min(wait.everyMs, wait.limitMs - waited), signal);
    }
}
/** Creates `file` for this run, or undefined when it exists. */
async function createLock(file, wait, until, shown) {
    const { clock } = wait;
    const renewEveryMs = Math.min(wait.renewEveryMs ?? RENEW_EVERY_MS, RENEW_MAX_MS);
    let handle;
    try {
        handle = await promises_.open(file, 'wx', 0o644);
    }
    catch (err) {
        if (err.code === 'EEXIST')
            return undefined;
        throw (0,errors/* asLocalFileError */.kH)(err, file, 'create the lock file') ?? err;
    }
    let identity;
    try {
        const start = (0,process_identity/* ownStart */.DJ)();
        const pidNamespace = (0,process_identity/* ownPidNamespace */.pP)();
        const record = {
            format: 'static-export-lock',
            pid: process.pid,
            ...(start !== undefined ? { start } : {}),
            ...(pidNamespace !== undefined ? { pidNamespace } : {}),
            hostname: external_node_os_.hostname(),
            startedAt: new Date(clock.now()).toISOString(),
            ...(until !== undefined ? { until: new Date(until).toISOString() } : {}),
            renewEveryMs,
        };
        await handle.writeFile(`${JSON.stringify(record)}\n`);
        const { dev, ino } = await handle.stat();
        identity = { dev, ino };
    }
    catch (err) {
        await promises_.rm(file, { force: true });
        throw (0,errors/* asLocalFileError */.kH)(err, file, 'write the lock file') ?? err;
    }
    finally {
        await handle.close();
    }
    held.set(file, identity);
    if (!exitHookInstalled) {
        exitHookInstalled = true;
        process.once('exit', releaseAllSync);
    }
    let released = false;
    const renewing = renewLock(file, identity, renewEveryMs);
    return {
        file,
        async confirm() {
            // Gone, or another file: taken over. Any other failure is the disk's, said as such.
            const now = await promises_.lstat(file).catch((err) => {
                if (err.code === 'ENOENT')
                    return undefined;
                throw (0,errors/* asLocalFileError */.kH)(err, file, 'read the lock file') ?? err;
            });
            if (now && sameFile(now, identity))
                return;
            renewing.stop();
            throw new errors/* PathInUseError */.c4(`Another run took over the lock on ${shown} (${file}) while this run held it, and may be writing there now: this run takes it for ended when its lock goes unrenewed (a run stopped for minutes, or a clock set back), or when the file is removed. Runs into one \`path\` must not overlap: give each its own \`path\`, or have them take turns (one \`concurrency\` group in a workflow).`);
        },
        async release() {
            if (released)
                return;
            released = true;
            renewing.stop();
            held.delete(file);
            const now = await promises_.lstat(file).catch(() => undefined);
            if (now && sameFile(now, identity))
                await promises_.rm(file, { force: true });
        },
    };
}
/**
 * Sets the lock's modification time every `everyMs` while it is this run's (another host
 * or container judges the run by it), never keeping the process alive.
 */
function renewLock(file, identity, everyMs) {
    let busy = false;
    const timer = setInterval(() => {
        if (busy)
            return;
        busy = true;
        void (async () => {
            try {
                const now = await promises_.lstat(file);
                // Taken over by another run: its lock is left to it.
                if (!sameFile(now, identity)) {
                    clearInterval(timer);
                    return;
                }
                const time = new Date();
                await promises_.utimes(file, time, time);
            }
            catch {
                // Gone, or not writable for a moment: confirm() says so when it matters.
            }
            finally {
                busy = false;
            }
        })();
    }, everyMs);
    timer.unref();
    return { stop: () => clearInterval(timer) };
}
function releaseAllSync() {
    for (const [file, identity] of held) {
        try {
            const now = external_node_fs_.lstatSync(file, { throwIfNoEntry: false });
            if (now && sameFile(now, identity))
                external_node_fs_.rmSync(file, { force: true });
        }
        catch {
            // Nothing more can be done while the process exits; the next run judges it ended.
        }
    }
    held.clear();
}
function sameFile(stat, identity) {
    return stat.dev === identity.dev && stat.ino === identity.ino;
}
/** The lock as it is now, or undefined when it is gone. */
async function readHolder(file) {
    let stat;
    let text;
    try {
        stat = await promises_.lstat(file);
        if (!stat.isFile()) {
            throw new errors/* ActionError */.lZ(`${file} stands where this action keeps the lock on \`path\`, and is not a file: remove it, or choose another \`path\`.`);
        }
        if (stat.size > RECORD_MAX_BYTES)
            return { stat };
        text = await promises_.readFile(file, 'utf8');
    }
    catch (err) {
        if (err.code === 'ENOENT')
            return undefined;
        throw (0,errors/* asLocalFileError */.kH)(err, file, 'read the lock file') ?? err;
    }
    let json;
    try {
        json = JSON.parse(text);
    }
    catch {
        return { stat };
    }
    const parsed = lockRecord.safeParse(json);
    return parsed.success ? { stat, record: parsed.data } : { stat };
}
/**
 * Whether the run that holds the lock is still going on; `now` in real time, as file
 * times are, and how long this run has seen the lock unrenewed.
 */
function judge(file, { stat, record }, now, renewal) {
    if (record === undefined) {
        return now - stat.mtimeMs < BEING_WRITTEN_MS
            ? { kind: 'held', run: '(being created)' }
            : {
                kind: 'ended',
                run: `(written ${stat.mtime.toISOString()})`,
                why: 'it does not say which run holds it',
            };
    }
    const host = external_node_os_.hostname();
    const run = `(pid ${record.pid}${record.hostname === host ? '' : ` on ${record.hostname}`}, started ${record.startedAt})`;
    const namespace = (0,process_identity/* ownPidNamespace */.pP)();
    const elsewhere = record.hostname !== host
        ? 'another host'
        : record.pidNamespace !== undefined &&
            namespace !== undefined &&
            record.pidNamespace !== namespace
            ? 'another process namespace (another container)'
            : undefined;
    if (elsewhere !== undefined) {
        // Its process cannot be seen from here; whether it renews its lock, and its time
        // limit, can.
        if (record.renewEveryMs !== undefined) {
            const unrenewedMs = Math.max(renewal.unrenewedMs, 6 * record.renewEveryMs);
            if (renewal.unrenewedForMs >= unrenewedMs) {
                return {
                    kind: 'ended',
                    run,
                    why: `it runs on ${elsewhere}, and its lock went ${(0,duration/* formatDuration */.a3)(unrenewedMs)} without being renewed (its run renews it every ${(0,duration/* formatDuration */.a3)(record.renewEveryMs)})`,
                };
            }
            // Renewed long ago by the file's time: ended without a wait, the two hosts' clocks
            // allowed to disagree by as much as past a time limit.
            if (now - stat.mtimeMs >= unrenewedMs + PAST_LIMIT_MS) {
                return {
                    kind: 'ended',
                    run,
                    why: `it runs on ${elsewhere}, and its lock was last renewed at ${stat.mtime.toISOString()}, over ${(0,duration/* formatDuration */.a3)(unrenewedMs + PAST_LIMIT_MS)} ago`,
                };
            }
            return {
                kind: 'held',
                run,
                unjudged: `it runs on ${elsewhere}, so it is judged by its lock, which its run renews every ${(0,duration/* formatDuration */.a3)(record.renewEveryMs)}: it is taken as ended once the lock goes ${(0,duration/* formatDuration */.a3)(unrenewedMs)} without being renewed`,
            };
        }
        const limit = record.until === undefined ? undefined : Date.parse(record.until);
        if (limit !== undefined && now > limit + PAST_LIMIT_MS) {
            return {
                kind: 'ended',
                run,
                why: `it runs on ${elsewhere}, and its \`timeout\` ended it at ${record.until}, over ${(0,duration/* formatDuration */.a3)(PAST_LIMIT_MS)} ago`,
            };
        }
        return {
            kind: 'held',
            run,
            unjudged: `it runs on ${elsewhere}, so whether it still runs is not judged from here${limit !== undefined ? `; it is taken over ${(0,duration/* formatDuration */.a3)(PAST_LIMIT_MS)} after its \`timeout\` (${record.until})` : ''}`,
        };
    }
    const state = (0,process_identity/* processState */.LS)(record.pid, record.start);
    if (state === 'gone')
        return { kind: 'ended', run, why: `no process has pid ${record.pid}` };
    if (state === 'reused') {
        return {
            kind: 'ended',
            run,
            why: `the process with pid ${record.pid} now started at another time, so it is another process`,
        };
    }
    // This process holds only the locks it took: in a container each run has the same id.
    const ours = held.get(file);
    if (record.pid === process.pid && !(ours && sameFile(stat, ours))) {
        return { kind: 'ended', run, why: 'an earlier run with the same pid left it' };
    }
    return { kind: 'held', run };
}
/**
 * Removes the lock `judged`, whose run has ended. Renamed aside first, then compared: if
 * another run took it over between the look and the rename, its lock is put back.
 */
async function takeOver(file, judged) {
    const aside = `${file}.ended-${(0,process_identity/* ownNamePart */.vb)()}-${(0,external_node_crypto_.randomBytes)(4).toString('hex')}`;
    (0,place/* trackTemporary */.hN)(aside);
    try {
        try {
            await promises_.rename(file, aside);
        }
        catch (err) {
            if (err.code === 'ENOENT')
                return false;
            throw (0,errors/* asLocalFileError */.kH)(err, file, 'take over the lock file') ?? err;
        }
        if (sameFile(await promises_.lstat(aside), judged))
            return true;
        await promises_.link(aside, file).catch(async (err) => {
            // A file system without hard links: renamed back instead.
            if (err.code !== 'EEXIST')
                await promises_.rename(aside, file).catch(() => undefined);
        });
        return false;
    }
    finally {
        await (0,place/* removeTemporary */.cF)(aside);
    }
}

;// CONCATENATED MODULE: ./.build/export/wait.js




/** `completed` and `failed` are final; any other status, named or not, is waited on. */
function isExportSettled(job) {
    return job.status === 'completed' || job.status === 'failed';
}
/** A status answer that names another job than the one asked about. */
function describeOtherJob(asked, named) {
    return `The status answer for export job ${asked} names job ${named}: following ${asked}, the job this run asked for.`;
}
/**
 * A call about the job that failed for good (an outage past the budget, a key revoked
 * mid-run), told with the way back to the job, which goes on without this run: a rerun
 * without `job-id` would export again. A 404 says the job is gone; a cancel says enough.
 */
function withWayBackToJob(err, jobId, status, signal) {
    return err instanceof api_errors/* ApiError */.hD && err.status !== 404 && !signal?.aborted
        ? (0,api_errors/* withAdvice */.b5)(err, (0,_build_report/* exportJobLivesOn */.yo)(jobId, status))
        : err;
}
const KNOWN_STATUSES = new Set(['queued', 'running', 'completed', 'failed']);
/**
 * Polls the export job until it settles, printing one line whenever its status,
 * progress or page count changes (not one per poll).
 */
async function waitForExport(first, options) {
    const { reporter, clock } = options;
    const started = clock.now();
    let lastLine = '';
    let mismatchTold = false;
    const describe = (job, remainingMs) => {
        if (job.jobId !== first.jobId && !mismatchTold) {
            mismatchTold = true;
            reporter.warning(describeOtherJob(first.jobId, job.jobId));
        }
        options.onJob?.(job);
        const parts = [job.status];
        if (job.progress !== undefined)
            parts.push(`${Math.round(job.progress)}%`);
        if (job.pageCount !== undefined)
            parts.push(`${job.pageCount} page${job.pageCount === 1 ? '' : 's'}`);
        const key = parts.join(' · ');
        if (key === lastLine)
            return;
        lastLine = key;
        const eta = remainingMs !== undefined && !isExportSettled(job)
            ? ` · about ${(0,duration/* formatDuration */.a3)(remainingMs)} left`
            : '';
        const unknown = KNOWN_STATUSES.has(job.status)
            ? ''
            : ' (a status this action does not know: still waiting)';
        reporter.info(`[${(0,duration/* formatDuration */.a3)(clock.now() - started).padStart(7)}] ${key}${eta}${unknown}`, {
            progress: true,
        });
        reporter.progress?.({
            phase: 'export',
            status: job.status,
            ...(job.progress !== undefined ? { percent: job.progress } : {}),
            ...(job.pageCount !== undefined ? { pages: job.pageCount } : {}),
            ...(remainingMs !== undefined ? { etaMs: remainingMs } : {}),
        });
    };
    if (isExportSettled(first)) {
        describe(first, undefined);
        return first;
    }
    return pollUntilSettled({
        read: (signal) => options.api.getExportJob(first.jobId, options.projectId, signal),
        isSettled: isExportSettled,
        progressOf: (job) => job.progress,
        onPoll: describe,
        interval: options.interval,
        limits: EXPORT_SCHEDULE,
        clock,
        deadline: options.deadline,
        onDeadline: options.onDeadline,
        ...(options.signal ? { signal: options.signal } : {}),
    });
}

;// CONCATENATED MODULE: ./.build/export/bundle.js






/**
 * A 409 ("not finished yet") from the bundle call of a job that reported `completed` is a
 * lagging replica, not a long wait: it gets two minutes, not the whole timeout.
 */
const NOT_READY_BUDGET = {
    outageMs: 2 * 60_000,
    baseDelayMs: 1000,
    maxDelayMs: 5000,
};
/**
 * A link to the finished job's archive: the one the job already carries (services that
 * put it on the completed job), or a fresh one from the bundle endpoint. `jobId` is the
 * job this run started or was given, whatever id a status answer named.
 */
async function obtainBundleLink(jobId, finished, options) {
    if (finished.bundleUrl !== undefined)
        return toSource(finished, options.api);
    return requestBundle(jobId, options);
}
/** A fresh link for the same job (the job and its files are reused). */
async function refreshBundleLink(jobId, inline, options) {
    if (inline) {
        const job = await options.api
            .getExportJob(jobId, options.projectId, options.signal)
            .catch((err) => {
            throw withWayBackToJob(err, jobId, 'completed', options.signal);
        });
        if (job.bundleUrl === undefined) {
            throw new api_errors/* ApiError */.hD(`Export job ${jobId} no longer carries a bundle link (status ${job.status}).`, { kind: 'invalid-response' });
        }
        return toSource(job, options.api);
    }
    return requestBundle(jobId, options);
}
async function requestBundle(jobId, options) {
    const { api, clock, reporter } = options;
    const notReady = new RetrySchedule({
        clock,
        random: options.random,
        budget: NOT_READY_BUDGET,
        deadline: () => options.deadline,
        ...(options.signal ? { signal: options.signal } : {}),
        onRetry: (event) => reporter.info(`The bundle is not ready yet (HTTP 409): asking again in ${(0,duration/* formatDuration */.a3)(event.delayMs)}.`),
    });
    for (;;) {
        let link;
        try {
            link = await api.createBundle(jobId, options.projectId, options.signal);
        }
        catch (err) {
            if (!(err instanceof api_errors/* ApiError */.hD) || err.status !== 409) {
                throw withWayBackToJob(err, jobId, 'completed', options.signal);
            }
            const stop = await notReady.failed({ reason: err.detail ?? 'conflict' });
            if (stop?.why === 'deadline') {
                throw new errors/* TimeoutError */.MU(`The bundle of export job ${jobId} was still not ready (HTTP 409: ${err.detail ?? 'conflict'}) when the timeout passed.`);
            }
            if (stop) {
                throw err.withMessage(`Export job ${jobId} reported completed, but its bundle call answered HTTP 409 (${err.detail ?? 'conflict'}) ${stop.attempts} times over ${(0,duration/* formatDuration */.a3)(stop.elapsedMs)}: the service does not agree with itself. Run again later, with \`job-id: ${jobId}\` to reuse the export.`);
            }
            continue;
        }
        if (link.jobId !== undefined && link.jobId !== jobId) {
            reporter.warning(`The bundle answer names export job ${link.jobId}, not ${jobId}, the job this run asked for: check that the link is for this export.`);
        }
        return toSource(link, options.api);
    }
}
function toSource(link, api) {
    const url = link.bundleUrl;
    // A link carries its own credentials; ours would reach the storage host and its logs.
    if (api.holdsKey(url)) {
        throw new api_errors/* ApiError */.hD('The API returned a bundle link that holds the API key: refusing to send the key to the storage host. Report this to the platform.', { kind: 'invalid-response' });
    }
    const parsed = (0,net/* parseServiceUrl */.iO)(url);
    if (!(parsed instanceof URL)) {
        throw new api_errors/* ApiError */.hD(`The API returned a bundle link that this action will not fetch: it ${parsed.reason}.`, { kind: 'invalid-response' });
    }
    return {
        url,
        ...(link.expiresAt !== undefined ? { expiresAt: link.expiresAt } : {}),
        ...(link.sizeBytes !== undefined ? { sizeBytes: link.sizeBytes } : {}),
    };
}

;// CONCATENATED MODULE: ./.build/export/run.js


















/** start → poll → bundle → download/extract → helm values → artifact. */
async function runExport(config, deps) {
    try {
        return await exportSteps(config, deps);
    }
    catch (err) {
        // What fails once the swap is done fails the step, but path holds the new export.
        const placed = deps.record.sitePath ?? deps.record.archivePath;
        if (placed === undefined && deps.record.changes?.kind === 'report') {
            // Its counts are outputs already, and its file stays: what it lists is not live.
            deps.reporter.info('The change report above describes what this export would have changed: it was not put in place.');
        }
        if (placed === undefined || deps.signal?.aborted)
            throw err;
        const values = deps.record.helmValuesFile;
        throw (0,errors/* withSentence */.wt)(err, `The new export was already in place in ${placed}, and stays there${values ? `, its Helm values in ${values}` : ''}.`);
    }
}
async function exportSteps(config, deps) {
    // A wrong path costs milliseconds, not an export: checked before any request.
    const targetRules = {
        ...config.protection,
        overwrite: config.overwrite,
        ...(deps.record.invokedAs ? { invokedAs: deps.record.invokedAs } : {}),
    };
    await checkPlacesBeforeRun(config, targetRules);
    const lock = config.download ? await lockTarget(config, deps) : undefined;
    try {
        return await exportHoldingPath(config, deps, targetRules, lock);
    }
    finally {
        await lock?.release();
    }
}
/** The export, once no other run writes `path` (`lock`, when the run writes it). */
async function exportHoldingPath(config, deps, targetRules, lock) {
    const { api, reporter, record, clock } = deps;
    const signal = deps.signal;
    const withSignal = signal ? { signal } : {};
    const projectScope = config.projectId !== undefined ? { projectId: config.projectId } : {};
    const target = await inspectTargetBeforeRun(config, targetRules, deps);
    const changes = planChangeReview(config, target, deps);
    // A run that makes no report leaves none of an earlier run where a later step reads it.
    if (changes === undefined &&
        config.changesFile !== undefined &&
        (await protectedFileReason(config.changesFile, targetRules)) === undefined &&
        (await removeStaleReport(config.changesFile, reporter))) {
        reporter.info(`Removed ${config.changesFile}, the change report of an earlier run: this run makes none.`);
    }
    const existing = config.jobId;
    const started = await reporter.group(existing !== undefined
        ? `Reusing export job ${existing} of ${config.domain}`
        : `Starting the static export of ${config.domain}`, async () => {
        const answer = existing !== undefined
            ? await api.getExportJob(existing, config.projectId, signal).catch((err) => {
                if (err instanceof api_errors/* ApiError */.hD && err.status === 404) {
                    throw (0,api_errors/* withAdvice */.b5)(err, `Check \`job-id\` (${existing}): it must name an export job of this organization; leave it empty to start a new export.`);
                }
                throw err;
            })
            : await api.startExport({
                domain: config.domain,
                ...(config.docsVersion !== undefined ? { version: config.docsVersion } : {}),
                ...(config.exportPaths !== undefined ? { paths: config.exportPaths } : {}),
                ...projectScope,
            }, signal);
        // A reused job is the one the run was given, whatever id the answer names.
        if (existing !== undefined && answer.jobId !== existing) {
            reporter.warning(describeOtherJob(existing, answer.jobId));
        }
        const job = existing !== undefined ? { ...answer, jobId: existing } : answer;
        record.jobId = job.jobId;
        record.status = job.status;
        reporter.setOutput('job-id', job.jobId);
        reporter.info(`Export job ${job.jobId} is ${job.status}.`);
        if (config.projectId !== undefined)
            reporter.info(describeRoutes(api, config.projectId));
        return job;
    });
    const finished = await reporter.group(`Waiting for export job ${started.jobId}`, () => waitForExport(started, {
        api,
        reporter,
        clock,
        interval: config.pollInterval,
        deadline: deps.deadline,
        onDeadline: () => new errors/* TimeoutError */.MU((0,_build_report/* describeTimeout */.by)(record, config.timeoutMs)),
        onJob: (job) => {
            record.status = job.status;
        },
        ...projectScope,
        ...withSignal,
    }).catch((err) => {
        // The service still does not know the job it named when this run created it.
        if (existing === undefined && err instanceof api_errors/* ApiError */.hD && err.status === 404) {
            throw (0,api_errors/* withAdvice */.b5)(err, `If it shows up later, ${(0,_build_report/* setting */.Pe)('job-id', started.jobId)} picks it up; running again without it starts another export.`);
        }
        throw withWayBackToJob(err, started.jobId, record.status, signal);
    }));
    record.status = finished.status;
    if (finished.pageCount !== undefined) {
        record.pageCount = finished.pageCount;
        reporter.setOutput('page-count', String(finished.pageCount));
    }
    reporter.setOutput('status', finished.status);
    if (finished.status === 'failed') {
        record.error = finished.error;
        throw new errors/* JobFailedError */.dk(`Export job ${started.jobId} failed on the server: ${finished.error ?? 'the API gave no reason'}.`);
    }
    const bundleOptions = {
        api,
        reporter,
        clock,
        random: deps.random,
        deadline: deps.deadline,
        ...projectScope,
        ...withSignal,
    };
    const inline = finished.bundleUrl !== undefined;
    /** Every address the link leads to, hidden from the log when the link is masked. */
    const maskLink = (link) => {
        if (!config.maskBundleUrl)
            return;
        for (const part of (0,redact/* linkParts */.ly)(link, config.baseUrl, config.domain))
            reporter.mask(part, 'log');
    };
    const publishLink = (source) => {
        maskLink(source.url);
        record.bundleUrl = source.url;
        record.bundleUrlMasked = config.maskBundleUrl;
        reporter.setOutput('bundle-url', source.url);
        if (source.expiresAt) {
            record.expiresAt = source.expiresAt;
            reporter.setOutput('expires-at', source.expiresAt.toISOString());
        }
        if (source.sizeBytes !== undefined) {
            record.sizeBytes = source.sizeBytes;
            reporter.setOutput('size-bytes', String(source.sizeBytes));
        }
    };
    let source = await reporter.group('Getting the bundle link', async () => {
        let link = await obtainBundleLink(started.jobId, finished, bundleOptions);
        // Published without a download, the link must still work when someone uses it.
        if (!config.download && link.expiresAt && !api.serverTime.mayBeBefore(link.expiresAt)) {
            reporter.info(`The bundle link expired at ${link.expiresAt.toISOString()} already: requesting a fresh one.`);
            link = await refreshBundleLink(started.jobId, inline, bundleOptions);
            if (link.expiresAt && !api.serverTime.mayBeBefore(link.expiresAt)) {
                const skew = api.serverTime.describeSkew('the API');
                throw new errors/* ActionError */.lZ(`The API hands out bundle links that have already expired (expiresAt ${link.expiresAt.toISOString()}${skew ? `; ${skew}` : ''}): nothing usable to publish. Check the service's clock, or run with \`download: true\` to fetch the archive at once.`);
            }
        }
        publishLink(link);
        const address = config.maskBundleUrl ? 'masked (`mask-bundle-url`)' : (0,net/* withoutQuery */.j$)(link.url);
        reporter.info(`Bundle link ${address}${link.sizeBytes !== undefined ? `, ${(0,duration/* formatBytes */.z3)(link.sizeBytes)}` : ''}${link.expiresAt ? `, valid until ${link.expiresAt.toISOString()}` : ''}.`);
        return link;
    });
    if (config.deploymentType !== 'cloud' && !(config.download && config.extract)) {
        reporter.notice(`${(0,_build_report/* setting */.Pe)('deployment-type', config.deploymentType)}, but the site is not extracted here, so it was not checked for references outside itself.`);
    }
    /** What the download put in path: from then on, path holds this run's export. */
    let delivered;
    if (config.download) {
        const checks = config.extract && (config.deploymentType !== 'cloud' || config.brokenLinks !== 'off');
        // Loaded while the archive downloads: compiling the check's code (about 15 ms) would
        // otherwise come after the extraction, and hold up the step's end by as much.
        const readinessModule = checks ? __webpack_require__.e(/* import() */ 729).then(__webpack_require__.bind(__webpack_require__, 1729)) : undefined;
        readinessModule?.catch(() => undefined); // a failure is met where it is awaited
        delivered = await reporter.group(`Downloading the bundle${config.extract ? ` and extracting it into ${config.path}` : ` into ${config.path}`}`, () => deliverBundle({
            source,
            refresh: async (reason) => {
                reporter.debug(`Refreshing the bundle link: ${reason}`);
                source = await refreshBundleLink(started.jobId, inline, bundleOptions);
                publishLink(source);
                return source;
            },
            onRedirect: maskLink,
            // Known before the extraction ends and the guards run: a failure still reports it.
            onDownloaded: (download) => {
                record.sha256 = download.sha256;
                record.etagVerified = download.etagVerified;
                record.sizeBytes = download.size;
                reporter.setOutput('sha256', download.sha256);
                reporter.setOutput('size-bytes', String(download.size));
            },
            target: config.path,
            extract: config.extract,
            archiveName: config.domain,
            limits: config.limits,
            targetRules,
            ...(lock ? { confirmLock: () => lock.confirm() } : {}),
            targetGiven: config.pathGiven,
            export: {
                domain: config.domain,
                jobId: finished.jobId,
                ...(finished.pageCount !== undefined ? { pageCount: finished.pageCount } : {}),
            },
            tempDir: deps.tempDir,
            dispatcher: deps.dispatcher,
            clock,
            random: deps.random,
            deadline: deps.deadline,
            ...(changes
                ? {
                    ...(changes.reports ? { describePages: changes.describePages } : {}),
                    review: changes.review,
                }
                : {}),
            idleTimeoutMs: deps.idleTimeoutMs,
            reporter,
            ...withSignal,
            ...(readinessModule
                ? {
                    inspect: async (stagingDir, contents) => {
                        const { checkReadiness } = await readinessModule;
                        record.checking = true;
                        await checkReadiness(stagingDir, config, reporter, record, {
                            tempDir: deps.tempDir,
                            ...(deps.stepId !== undefined ? { stepId: deps.stepId } : {}),
                            contents,
                            ...withSignal,
                        });
                    },
                }
                : {}),
        }));
        // The new export is in place and the temporary files are gone: the rest is not in path.
        // A lock file that cannot be removed fails nothing: the next run takes it over.
        await lock?.release().catch((err) => {
            reporter.warning(`Could not remove the lock file ${lock.file} (${(0,errors/* errorMessage */.gJ)(err)}): the export is in place, and the next run into \`path\` takes the lock over once this run has ended.`);
        });
        record.format = delivered.format;
        reporter.setOutput('path', delivered.directory);
        if (delivered.archivePath) {
            record.archivePath = delivered.archivePath;
            reporter.setOutput('archive-path', delivered.archivePath);
            reporter.info(`Archive saved as ${delivered.archivePath}.`);
        }
        else {
            record.sitePath = delivered.directory;
            record.files = delivered.site?.files;
            record.extractedBytes = delivered.site?.bytes;
            reportPlacement(delivered.directory, delivered.replaced, reporter, record);
        }
        record.manifestPath = delivered.manifestPath;
    }
    // Before the upload, which may be cancelled: the values match what path now holds.
    if (config.helmValuesFile !== undefined) {
        await writeHelmValues(config.helmValuesFile, config, started.jobId, source, deps);
    }
    if (delivered !== undefined && config.artifactName !== undefined) {
        await uploadExport(config.artifactName, delivered, deps);
    }
    return record;
}
/** The export in `delivered`, uploaded as the workflow artifact `name`; a signal ends the wait. */
async function uploadExport(name, delivered, deps) {
    const { reporter, record, signal } = deps;
    await reporter.group(`Uploading the artifact ${name}`, async () => {
        if (!deps.uploadArtifact) {
            reporter.warning('`artifact-name` is set, but workflow artifacts can only be uploaded inside GitHub Actions: skipped.');
            return;
        }
        const files = delivered.archivePath
            ? [delivered.archivePath]
            : await listFiles(delivered.directory);
        let uploaded;
        try {
            uploaded = await untilAborted(deps.uploadArtifact(name, delivered.directory, files), signal);
        }
        catch (err) {
            if (signal?.aborted)
                throw err;
            const cause = (0,errors/* errorMessage */.gJ)(err).replace(/\.$/, '');
            const duplicate = /already exists|\(409\)/i.test(cause)
                ? ` An artifact named ${name} already exists in this workflow run: give each job its own artifact-name (e.g. include the matrix values).`
                : '';
            throw new errors/* ActionError */.lZ(`Uploading the export as workflow artifact ${name} failed: ${cause}.${duplicate}`);
        }
        if (uploaded.id !== undefined) {
            record.artifactId = String(uploaded.id);
            reporter.setOutput('artifact-id', String(uploaded.id));
            reporter.info(`Uploaded ${files.length} file(s) as artifact ${name} (id ${uploaded.id}).`);
        }
    });
}
/** The Helm values of the link to `jobId`'s bundle, written to `file`. */
async function writeHelmValues(file, config, jobId, source, { reporter, record }) {
    const version = config.releaseVersion ?? jobId;
    await (0,place/* writeFileAtomic */.Zf)(file, renderHelmValues({
        bundleUrl: source.url,
        version,
        jobId,
        domain: config.domain,
        ...(source.expiresAt ? { expiresAt: source.expiresAt } : {}),
    }), 0o600);
    record.helmValuesFile = file;
    reporter.setOutput('helm-values-file', file);
    reporter.info(`Wrote Helm values to ${file} (staticExport.version ${version}).`);
}
/**
 * Before any request, and before anything is written: where `path` is (what it holds is
 * looked at once the lock is held), and the files the run writes at its end. A refusal is
 * an input error: nothing has been sent.
 */
async function checkPlacesBeforeRun(config, rules) {
    if (config.download) {
        await asInputError(async () => {
            if (config.extract)
                await checkSitePlace(config.path, rules, config.pathGiven);
            else
                await checkArchivePlace(config.path, rules, config.pathGiven);
        });
    }
    // Files the run writes at its end are checked now, before any request.
    const files = [
        ['helm-values-file', config.helmValuesFile, 'static-export-values.yaml'],
        // Only a run that can make a report writes it.
        [
            'changes-file',
            config.download && config.extract && config.compareWith.kind !== 'none'
                ? config.changesFile
                : undefined,
            'reports/changes.json',
        ],
    ];
    for (const [input, file, example] of files) {
        if (file === undefined)
            continue;
        // Not even with overwrite: the machine's files and the checkout's history.
        const forbidden = await protectedFileReason(file, rules);
        if (forbidden) {
            throw new errors/* InputError */.dz([
                {
                    input,
                    message: `${file}: ${forbidden}; choose a file in the workspace, such as ${example}`,
                },
            ]);
        }
        // The inputs were compared as written; a link on the way can still lead into path.
        if (config.download &&
            config.extract &&
            (0,deliver_protected/* contains */.gR)(await realPathOfPlanned(config.path), await realPathOfPlanned(file), rules.platform)) {
            throw new errors/* InputError */.dz([
                {
                    input,
                    message: `${file} leads, through a link, inside \`path\` (${config.path}), which the export replaces as a whole: choose a file outside it, in a directory that is not a link into \`path\``,
                },
            ]);
        }
        const stat = await promises_.lstat(file).catch(() => undefined);
        if (stat && !stat.isFile()) {
            throw new errors/* InputError */.dz([
                {
                    input,
                    message: `${file} exists and is not a regular file: name a file to write, such as ${example}`,
                },
            ]);
        }
        // A file of the user's (a chart's own values.yaml) is never written over unasked.
        if (stat && stat.size > 0 && !rules.overwrite && !(await writtenByThisAction(input, file))) {
            throw new errors/* InputError */.dz([
                {
                    input,
                    message: `${file} exists and was not written by this action: name a new file, such as ${example}, or ${optIn(rules)} to replace it`,
                },
            ]);
        }
    }
}
/**
 * Waits until no other run writes `path`, and makes the others wait: the lock is taken
 * beside what the run replaces, the site (beside `path`) or the archive (in `path`).
 */
async function lockTarget(config, deps) {
    const file = lockFileBeside(config.extract ? config.path : external_node_path_.join(config.path, config.domain));
    const dir = external_node_path_.dirname(file);
    try {
        await promises_.mkdir(dir, { recursive: true });
    }
    catch (err) {
        throw (0,errors/* asLocalFileError */.kH)(err, dir, 'create') ?? err;
    }
    const wait = deps.lockWait ?? LOCK_WAIT;
    return lockPath(file, {
        wait,
        // The run's deadline on the lock's own clock, which another host can judge it by.
        until: wait.clock.now() + Math.max(0, deps.deadline - deps.clock.now()),
        reporter: deps.reporter,
        shown: config.path,
        onWaiting: (holder) => {
            deps.record.pathHeldBy = holder;
        },
        ...(deps.signal ? { signal: deps.signal } : {}),
    });
}
/**
 * With the lock held: whatever killed runs left behind is cleaned up, and what `path`
 * holds is checked. A refusal is an input error: nothing has been sent.
 */
async function inspectTargetBeforeRun(config, rules, deps) {
    if (!config.download)
        return undefined;
    // The site is staged beside path; an archive kept as a file, and its manifest, inside it.
    const archives = Object.values(EXTENSION).map((ext) => `${config.domain}${ext}`);
    const recovery = config.extract
        ? await (0,place/* recoverInterruptedRuns */.Xp)(external_node_path_.dirname(config.path), [external_node_path_.basename(config.path)])
        : await (0,place/* recoverInterruptedRuns */.Xp)(config.path, archives.flatMap((name) => [name, archiveManifestName(name)]));
    for (const line of recovery.done)
        deps.reporter.info(line);
    for (const line of recovery.warnings)
        deps.reporter.warning(line);
    await (0,place/* removeStaleTemporaryFiles */.cL)(deps.tempDir);
    if (!config.extract) {
        await asInputError(() => inspectArchiveTarget(config.path, archives, rules, config.pathGiven, deps.signal));
        return undefined;
    }
    const state = await asInputError(() => inspectTarget(config.path, rules, config.pathGiven));
    if (state.kind === 'foreign') {
        deps.reporter.warning(`${(0,_build_report/* setting */.Pe)('overwrite', 'true')}: \`path\` (${config.path}) ${state.description}; it will be replaced by the export.`);
    }
    return state;
}
/** What `check` returns; a refusal of `path` it throws becomes the input error it is. */
async function asInputError(check) {
    try {
        return await check();
    }
    catch (err) {
        if (!(err instanceof TargetRefusal))
            throw err;
        throw new errors/* InputError */.dz([{ input: 'path', message: err.message }]);
    }
}
/** What this action's own files start with: its Helm values, its change report. */
const OWN_FILE_START = {
    'helm-values-file': /^# Static export \S+ of \S+, written by static-export-action\./,
    'changes-file': /^\s*\{\s*"format"\s*:\s*"static-export-changes"/,
};
/** Whether `file` starts as the action writes the file of `input`. */
async function writtenByThisAction(input, file) {
    const handle = await promises_.open(file, 'r');
    try {
        const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
        return OWN_FILE_START[input].test(buffer.subarray(0, bytesRead).toString('utf8'));
    }
    finally {
        await handle.close();
    }
}
/** The change report, when the site is extracted here and compare-with is not none. */
function planChangeReview(config, target, deps) {
    const explicit = config.compareWith.kind === 'file' || config.compareWith.kind === 'url';
    // The guard is a safety net: a run that cannot apply it says so rather than pass quietly.
    const unguarded = (why) => {
        if (config.maxRemovedPages !== undefined)
            deps.reporter.warning(`\`max-removed-pages\` was not checked: ${why}.`);
    };
    if (!(config.download && config.extract)) {
        if (explicit) {
            deps.reporter.notice('`compare-with` is set, but the site is not extracted here, so there is no change report.');
        }
        unguarded('the site is not extracted here, so no pages are counted');
        return undefined;
    }
    // With compare-with: none there is no report, but the guard still counts removed pages
    // against the earlier export in path (ChangeReview, with nothing to fingerprint).
    if (config.compareWith.kind === 'none' && config.maxRemovedPages === undefined)
        return undefined;
    return new ChangeReview(config, target, {
        reporter: deps.reporter,
        record: deps.record,
        clock: deps.clock,
        dispatcher: deps.dispatcher,
        tempDir: deps.tempDir,
        ...(deps.signal ? { signal: deps.signal } : {}),
    });
}
/** Says what the export replaced; a directory this action did not write, loudly. */
function reportPlacement(directory, replaced, reporter, record) {
    if (replaced?.kind === 'foreign') {
        record.replacedForeign = replaced.description;
        reporter.warning(`Replaced ${directory}, which this action did not write (it ${replaced.description}), because \`overwrite\` is true.`);
    }
    else if (replaced?.kind === 'export') {
        record.replacedExport = replaced.manifest.jobId;
        reporter.info(`Replaced the earlier export in ${directory} (job ${replaced.manifest.jobId}, exported ${replaced.manifest.exportedAt}) with the new one.`);
    }
    else {
        reporter.info(`Put the exported site in ${directory}.`);
    }
}
/** Which export routes answered, for a run given project-id. */
function describeRoutes(api, projectId) {
    return api.exportRoutes === 'project'
        ? `The published export routes (/v1/static-export/jobs) do not exist on this service; the project-scoped ones (/v1/static-export/${projectId}/jobs) answered and are used.`
        : '`project-id` is set, but the published export routes (/v1/static-export/jobs) answered: they are used, and `project-id` is not needed for export.';
}
/**
 * `work`, or the signal's reason as soon as it fires: the upload takes no signal, and a
 * cancelled step must not wait minutes for it to end before saying the site is in place.
 */
function untilAborted(work, signal) {
    if (!signal)
        return work;
    (0,errors/* throwIfAborted */.Te)(signal);
    let onAbort = () => { };
    const aborted = new Promise((_, reject) => {
        onAbort = () => reject((0,errors/* abortReason */.Js)(signal));
        signal.addEventListener('abort', onAbort, { once: true });
    });
    return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}
async function listFiles(root) {
    const entries = await (0,promises_.readdir)(root, { recursive: true, withFileTypes: true });
    return entries
        .filter((entry) => entry.isFile())
        .map((entry) => external_node_path_.join(entry.parentPath, entry.name));
}

;// CONCATENATED MODULE: ./.build/main.js










/**
 * The core of both adapters: parse the inputs (an invalid one stops the run before any
 * network call), then run the command against the API. Never throws: the outcome
 * carries the error, and the record of what happened until then.
 */
async function execute(raw, environment, reporter, options = {}) {
    try {
        return await executeConfigured(raw, environment, reporter, options);
    }
    catch (error) {
        return { error };
    }
}
async function executeConfigured(raw, environment, reporter, options) {
    const clock = options.clock ?? _build_clock/* systemClock */.m;
    const random = options.random ?? Math.random;
    const redactor = options.redactor ?? new redact/* Redactor */.pO();
    // The key is a secret from the start: an error about another input may echo it. The
    // runner is asked to mask it only once it is valid (a refused one is never printed).
    const givenKey = raw['api-key']?.trim();
    redactor.add(givenKey);
    const needsReleaseVersion = (raw['helm-values-file'] ?? '').trim() !== '' && (raw['release-version'] ?? '').trim() === '';
    const config = (0,_build_config.parseConfig)(raw, {
        workspace: environment.workspace,
        ...(environment.home !== undefined ? { home: environment.home } : {}),
        runnerDirs: environment.runnerDirs ?? [environment.tempDir],
        ...(environment.platform !== undefined ? { platform: environment.platform } : {}),
        ...(environment.promptGiven ? { promptGiven: true } : {}),
        ...(needsReleaseVersion && environment.defaultReleaseVersion
            ? { defaultReleaseVersion: await environment.defaultReleaseVersion() }
            : {}),
    });
    redactor.add(config.apiKey);
    reporter.mask(config.apiKey);
    // Before the timer and the record: a proxy variable that is not a URL ends the run here.
    const dispatcher = options.dispatcher ?? new ProxyRoutes();
    const startedAt = clock.now();
    const deadline = startedAt + config.timeoutMs;
    const timeout = new AbortController();
    const invokedAs = environment.invokedAs ?? 'action';
    const record = config.command === 'agent'
        ? {
            command: 'agent',
            projectId: config.projectId,
            ...(config.prompt !== undefined ? { prompt: config.prompt } : {}),
            ...(config.jobId !== undefined ? { jobId: config.jobId } : {}),
            startedAt,
            waited: config.wait,
        }
        : {
            command: 'export',
            domain: config.domain,
            startedAt,
            invokedAs,
            showBundleUrl: config.showBundleUrl,
        };
    const signal = options.signal
        ? AbortSignal.any([options.signal, timeout.signal])
        : timeout.signal;
    const describeRetries = retryDescriber();
    const api = new AdminApi({
        baseUrl: config.baseUrl,
        apiKey: config.apiKey,
        dispatcher,
        clock,
        random,
        deadline,
        redactor,
        requestTimeoutMs: config.requestTimeoutMs,
        onRetry: (event) => {
            record.lastRetry = event.reason;
            reporter.info(describeRetries(event));
        },
        debug: (line) => reporter.debug(line),
    });
    // A create or follow-up cut off before its answer may have been acted on anyway.
    const noteUnanswered = () => {
        if (record.command === 'agent' && api.unanswered !== undefined)
            record.unanswered = true;
    };
    /** The error of a run a signal or the timeout stopped: a cancellation says what it left. */
    const stopped = (reason) => reason instanceof errors/* CancelledError */.cc
        ? new errors/* CancelledError */.cc(`${reason.message} ${(0,_build_report/* describeCancellation */.vk)(record)}`, reason.signal)
        : reason;
    const cancelTimeout = clock.after(config.timeoutMs, () => {
        noteUnanswered();
        timeout.abort(new errors/* TimeoutError */.MU((0,_build_report/* describeTimeout */.by)(record, config.timeoutMs)));
    });
    reporter.debug(`API ${config.baseUrl.origin}${config.baseUrl.pathname}, timeout ${(0,duration/* formatDuration */.a3)(config.timeoutMs)}`);
    try {
        if (config.command === 'agent' && record.command === 'agent') {
            await runAgent(config, { api, reporter, clock, deadline, signal, record });
        }
        else if (config.command === 'export' && record.command === 'export') {
            await runExport(config, {
                api,
                reporter,
                clock,
                random,
                dispatcher,
                deadline,
                tempDir: environment.tempDir,
                ...(environment.stepId ? { stepId: environment.stepId } : {}),
                idleTimeoutMs: config.requestTimeoutMs,
                signal,
                record,
                ...(environment.uploadArtifact ? { uploadArtifact: environment.uploadArtifact } : {}),
                ...(options.lockWait ? { lockWait: options.lockWait } : {}),
            });
            // A signal after the export was put in place stopped nothing, but the run still ends
            // as cancelled, saying so: a script's next command must not take it for done.
            const placed = record.sitePath ?? record.archivePath;
            if (placed !== undefined && options.signal?.aborted) {
                return { config, record, error: stopped((0,errors/* abortReason */.Js)(options.signal)) };
            }
        }
        return { config, record };
    }
    catch (err) {
        // An abort surfaces as whatever the aborted call threw: report the reason instead.
        if (!signal.aborted)
            return { config, record, error: err };
        noteUnanswered();
        return { config, record, error: stopped((0,errors/* abortReason */.Js)(signal)) };
    }
    finally {
        if (record.command === 'export' && record.status === 'completed') {
            record.pageUrl = `https://${record.domain}/`;
            reporter.setOutput('page-url', record.pageUrl);
        }
        record.finishedAt = clock.now();
        cancelTimeout();
        if (!options.dispatcher)
            await dispatcher.destroy().catch(() => undefined);
    }
}
/**
 * The lines announcing the next tries of a run's API calls, and why each waits that long.
 * How waits without Retry-After grow is said once: a long rate limit is hundreds of tries.
 */
function retryDescriber() {
    let explained = false;
    return (event) => {
        const next = `trying again in ${(0,duration/* formatDuration */.a3)(event.delayMs)} (attempt ${event.attempt})`;
        const limit = event.rateLimit;
        let waiting;
        if (limit === undefined)
            waiting = `${next}.`;
        else if ('askedMs' in limit) {
            waiting = `rate limited, ${next}, as the service asked (Retry-After).`;
        }
        else if (explained)
            waiting = `rate limited, ${next} (no Retry-After).`;
        else {
            explained = true;
            waiting = `rate limited, ${next}. The service named no wait (no Retry-After): the waits grow, with jitter, to ${(0,duration/* formatDuration */.a3)(limit.capMs)} at most, until the timeout.`;
        }
        return `Could not ${event.operation} (${event.reason}): ${waiting}${event.note ? ` ${event.note}` : ''}`;
    };
}


/***/ }),

/***/ 9904:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Z: () => (/* binding */ readTree)
/* harmony export */ });
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1455);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6760);


/**
 * Every entry below `root`, each with its path relative to it. The relative path is cut
 * from the entry's parent, which the recursive listing builds from `root`: on a site of
 * 20,000 files this takes a quarter of the time of `path.relative` on each entry.
 */
async function readTree(root) {
    const entries = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readdir)(root, { recursive: true, withFileTypes: true });
    const prefix = root.endsWith(node_path__WEBPACK_IMPORTED_MODULE_1__.sep) ? root : `${root}${node_path__WEBPACK_IMPORTED_MODULE_1__.sep}`;
    // The root as the listing names it for its own entries: with or without the separator.
    const bare = prefix.slice(0, -node_path__WEBPACK_IMPORTED_MODULE_1__.sep.length);
    return entries.map((dirent) => {
        const parent = dirent.parentPath;
        let relative;
        if (parent === root || parent === bare)
            relative = dirent.name;
        else {
            const dir = parent.startsWith(prefix)
                ? parent.slice(prefix.length)
                : node_path__WEBPACK_IMPORTED_MODULE_1__.relative(root, parent);
            relative = `${dir}${node_path__WEBPACK_IMPORTED_MODULE_1__.sep}${dirent.name}`;
        }
        return { path: node_path__WEBPACK_IMPORTED_MODULE_1__.sep === '/' ? relative : relative.split(node_path__WEBPACK_IMPORTED_MODULE_1__.sep).join('/'), dirent };
    });
}


/***/ }),

/***/ 625:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   M: () => (/* binding */ shippedWorkerFile)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_url__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3136);


/**
 * A worker thread's entry as the build ships it: `name` beside the module that starts it
 * (`moduleUrl`, its `import.meta.url`), which is dist/ (or dist/cli/) in the bundles and
 * .build/<dir>/ after tsc. Undefined where it is not (the sources run by tsx, whose tests
 * name the entry themselves).
 */
function shippedWorkerFile(moduleUrl, name) {
    const url = new URL(name, moduleUrl);
    if (url.protocol !== 'file:')
        return undefined;
    const file = (0,node_url__WEBPACK_IMPORTED_MODULE_1__.fileURLToPath)(url);
    return (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.existsSync)(file) ? file : undefined;
}


/***/ })

};

import { tokenizer, tokTypes } from 'acorn';
import { decodeHTML, decodeHTMLAttribute } from 'entities';
import { type Handler, Parser, type ParserOptions, Tokenizer } from 'htmlparser2';
import { isHtmlWhitespace, withoutHtmlWhitespace } from '../html-whitespace.js';
import { urlsInCss } from './css.js';
import {
  DOCUMENT_TYPES,
  dataUrlPayload,
  isDataUrl,
  javascriptUrlCode,
  NOT_SCRIPT_TYPES,
} from './data-urls.js';
import { referencesInFlight } from './flight.js';
import { type ScriptUrl, urlsInScript } from './js.js';
import { urlsInImportMap } from './json-formats.js';
import { againstBase, baseNamesHost, type FoundReference, roleOfAttribute } from './references.js';

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
const CLASSIC_OR_MODULE =
  /^(|module|(?:application|text)\/(?:x-)?(?:java|ecma)script|text\/javascript1\.[0-5]|text\/jscript|text\/livescript)$/i;

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
const READ_ATTRIBUTES_BY_LENGTH: string[][] = [];
for (const name of READ_ATTRIBUTES) (READ_ATTRIBUTES_BY_LENGTH[name.length] ??= []).push(name);

/**
 * The name as READ_ATTRIBUTES spells it, or undefined for an attribute the scan skips. The
 * element's attributes are keyed by it: a key from the list is already in V8's string
 * table, where a fresh copy would be looked up there at every store and read.
 */
function readAttributeName(name: string): string | undefined {
  const names = READ_ATTRIBUTES_BY_LENGTH[name.length];
  if (names !== undefined) for (const known of names) if (known === name) return known;
  return isEventHandler(name) ? name : undefined;
}

/** `onload`, `onerror`, …: a script the browser runs, as an inline `<script>` is. */
function isEventHandler(name: string): boolean {
  return name.length > 2 && name.charCodeAt(0) === 111 && name.charCodeAt(1) === 110;
}

/**
 * htmlparser2's void elements, by length first: the commonest tags (`a`, `p`) and most
 * others are ruled out without comparing or hashing the name (Parser asks for every tag).
 */
function isVoidElement(name: string): boolean {
  switch (name.length) {
    case 2:
      return name === 'br' || name === 'hr';
    case 3:
      return name === 'img' || name === 'col' || name === 'wbr';
    case 4:
      return name === 'link' || name === 'meta' || name === 'base' || name === 'area';
    case 5:
      return (
        name === 'input' ||
        name === 'embed' ||
        name === 'frame' ||
        name === 'param' ||
        name === 'track'
      );
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

/** The Tokenizer's own state that `fastForwardTo` reads and moves. */
interface TokenizerPosition {
  index: number;
  offset: number;
  buffer: string;
}

/**
 * htmlparser2's Tokenizer, skipping ahead to the next `<`, `>` or quote with the engine's
 * string search rather than a loop over each character (most of a page is text between
 * tags). Same contract as the method it replaces: `index` at the character, or at the
 * last one of the buffer when it is not there.
 */
class SearchingTokenizer extends Tokenizer {}

/** The Tokenizer's state that `stateCDATASequence` reads, and what it asks its parser. */
interface CdataState {
  sequenceIndex: number;
  cbs: { cdataAllowed?(): boolean };
}
const CDATA_LAST = 'CDATA['.length - 1;
const OPENING_SQUARE_BRACKET = 0x5b;
const tokenizerCdataSequence = (
  Tokenizer.prototype as unknown as { stateCDATASequence(c: number): void }
).stateCDATASequence;
Object.defineProperty(SearchingTokenizer.prototype, 'stateCDATASequence', {
  /**
   * `<![CDATA[` opens a CDATA section only in an SVG or MathML element. Elsewhere a browser
   * reads it as a bogus comment, which the next `>` ends: in `<![CDATA[ a > <img src=…> ]]>`
   * the image loads. The Tokenizer would hide everything up to `]]>`; it is handed a
   * character that is not the last `[`, and takes the bogus comment's path from there.
   */
  value: function stateCDATASequence(this: CdataState, c: number): void {
    const bogus =
      this.sequenceIndex === CDATA_LAST &&
      c === OPENING_SQUARE_BRACKET &&
      this.cbs.cdataAllowed?.() !== true;
    tokenizerCdataSequence.call(this, bogus ? 0 : c);
  },
});
Object.defineProperty(SearchingTokenizer.prototype, 'fastForwardTo', {
  value: function fastForwardTo(this: TokenizerPosition, c: number): boolean {
    const found = this.buffer.indexOf(String.fromCharCode(c), this.index + 1 - this.offset);
    if (found >= 0) {
      this.index = found + this.offset;
      return true;
    }
    this.index = this.buffer.length + this.offset - 1;
    return false;
  },
});

/** The Parser's state that the flat tag handling below reads and sets. */
interface TagState {
  /** Read as XML (an `.xhtml` or `.svg` document): `/>` closes any element. */
  xml: boolean;
  /** Elements open since the outermost `<svg>` or `<math>`. */
  foreignOpen: ForeignOpen[];
  /** How many of foreignOpen have each name. */
  foreignNames: Map<string, number>;
  /** The element being reported closed is an SVG or MathML one. */
  closingForeign: boolean;
  startIndex: number;
  endIndex: number;
  openTagStart: number;
  tagname: string;
  attribs: Record<string, string> | null;
  cbs: {
    onclosetag?(name: string, isImplied: boolean): void;
    /** Whether an end tag of this name closes an HTML element around the `<svg>` or `<math>`. */
    closesAroundForeign?(name: string): boolean;
  };
  getSlice(start: number, endIndex: number): string;
  readTagName(start: number, endIndex: number): string;
  endOpenTag(isImplied: boolean): void;
  onopentagend(endIndex: number): void;
  closeCurrentTag(isOpenImplied: boolean): void;
  isVoidElement(name: string): boolean;
}

/** The Parser's attribute and position state, for skipping what the scan never reads. */
interface AttributeState {
  attribname: string;
  attribvalue: string;
  attribs: Record<string, string> | null;
  startIndex: number;
  endIndex: number;
}

/**
 * htmlparser2's Parser with the same tree-building rules, minus the copies no one reads:
 * the value of an attribute outside READ_ATTRIBUTES (class, id, data-*: most of them)
 * is neither cut from the text nor stored on the element, and neither are comments and
 * text outside `<script>` and `<style>` (`textWanted`).
 */
class ScanningParser extends Parser {
  #skipping = false;
  /** Read as XML (an `.xhtml` or `.svg` document), where the tokenizer is in XML mode too. */
  readonly xml: boolean;
  constructor(handler: Partial<Handler>, options: ParserOptions) {
    super(handler, options);
    this.xml = options.xmlMode === true;
  }
  foreignOpen: ForeignOpen[] = [];
  foreignNames = new Map<string, number>();
  /** The element being reported closed is an SVG or MathML one (a `<template>` there is none of HTML's). */
  closingForeign = false;

  /** Whether an element named `template` or `noscript` is open since the `<svg>` or `<math>`. */
  holdsInertName(): boolean {
    const names = this.foreignNames;
    return names.size > 0 && ((names.get('template') ?? 0) > 0 || (names.get('noscript') ?? 0) > 0);
  }
  /** Whether text is read: only a raw `<script>` or `<style>`'s, which the scanner asks for. */
  textWanted = false;

  override ontext(start: number, endIndex: number): void {
    if (this.textWanted) {
      super.ontext(start, endIndex);
      return;
    }
    const state = this as unknown as AttributeState;
    state.endIndex = endIndex - 1;
    state.startIndex = endIndex;
  }

  /** Comments are never read (the Parser would cut each one from the page for no one). */
  override oncomment(_start: number, endIndex: number): void {
    const state = this as unknown as AttributeState;
    state.endIndex = endIndex;
    state.startIndex = endIndex + 1;
  }

  protected override isVoidElement(name: string): boolean {
    return isVoidElement(name);
  }

  override onattribname(start: number, endIndex: number): void {
    super.onattribname(start, endIndex);
    const state = this as unknown as AttributeState;
    const known = readAttributeName(state.attribname);
    this.#skipping = known === undefined;
    if (known !== undefined) state.attribname = known;
  }

  override onattribdata(start: number, endIndex: number): void {
    if (!this.#skipping) super.onattribdata(start, endIndex);
  }

  override onattribend(_quote: number, endIndex: number): void {
    const state = this as unknown as AttributeState;
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

/** An element open since the outermost `<svg>` or `<math>`. */
interface ForeignOpen {
  name: string;
  /** The `<svg>` or `<math>` it is in. */
  root: 'svg' | 'math';
  /** Whether its content is foreign (not HTML, as inside an integration point). */
  foreign: boolean;
}

// The scan reads each start tag with its attributes, and the end of `<script>` and
// `<style>`; it never asks which HTML element encloses another. So the Parser's stack of
// open elements (implied end tags, a second <form>, SVG's camel-case names) is not kept:
// a start tag is named in lower case, an end tag reported as written. Only inside
// `<svg>` and `<math>` are open elements followed, because there the tokenizer reads
// `<style>` and `<script>` as markup rather than raw text, as browsers do: it asks
// isInForeignContext at every tag.
Object.defineProperties(ScanningParser.prototype, {
  readTagName: {
    value: function readTagName(this: TagState, start: number, endIndex: number): string {
      const name = this.getSlice(start, endIndex).toLowerCase();
      // HTML's alias, outside SVG: <image> is an <img>.
      return name === 'image' && !foreignNow(this) ? 'img' : name;
    },
  },
  isInForeignContext: {
    value: function isInForeignContext(this: TagState): boolean {
      return foreignNow(this);
    },
  },
  // Asked by the tokenizer at `<![CDATA[` (see SearchingTokenizer).
  cdataAllowed: {
    value: function cdataAllowed(this: TagState): boolean {
      return this.xml || currentNodeForeign(this);
    },
  },
  emitOpenTag: {
    value: function emitOpenTag(this: TagState, name: string): void {
      this.openTagStart = this.startIndex;
      this.tagname = name;
      this.attribs = {};
      const open = this.foreignOpen;
      // `<svg><p>`: a browser leaves foreign content for the HTML element (asked only there:
      // a name looked up in a set is hashed, at every tag).
      if (foreignNow(this) && BREAKOUT.has(name)) leaveForeign(this);
      if (name === 'svg' || name === 'math') pushForeign(this, { name, root: name, foreign: true });
      else if (open.length > 0 && !this.isVoidElement(name)) {
        const { root } = open[open.length - 1] as ForeignOpen;
        const foreign = !HTML_INTEGRATION_POINTS[root].has(name) && foreignNow(this);
        pushForeign(this, { name, root, foreign });
      }
    },
  },
  onclosetag: {
    value: function onclosetag(this: TagState, start: number, endIndex: number): void {
      this.endIndex = endIndex;
      if (this.foreignOpen.length > 0) closeForeign(this, this.readTagName(start, endIndex));
      else if (END_TAG_READ_LENGTHS.has(endIndex - start)) {
        const name = this.readTagName(start, endIndex);
        if (!this.isVoidElement(name)) this.cbs.onclosetag?.(name, false);
      }
      this.startIndex = endIndex + 1;
    },
  },
  onselfclosingtag: {
    value: function onselfclosingtag(this: TagState, endIndex: number): void {
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
    value: function closeCurrentTag(this: TagState, isOpenImplied: boolean): void {
      const name = this.tagname;
      this.endOpenTag(isOpenImplied);
      const open = this.foreignOpen;
      // `<svg><template/>`: an SVG element closes, no HTML one.
      if (open.length > 0 && open[open.length - 1]?.name === name)
        this.closingForeign = popForeign(this).foreign;
      if (!this.isVoidElement(name)) this.cbs.onclosetag?.(name, !isOpenImplied);
      this.closingForeign = false;
    },
  },
});

/** Whether the start tag just read opened an SVG or MathML element (the `<svg>` or `<math>` itself, or an element in foreign content). */
function openedForeign(state: TagState): boolean {
  const open = state.foreignOpen;
  return open[open.length - 1]?.name === state.tagname && currentNodeForeign(state);
}

/**
 * Whether the innermost open element is an SVG or MathML one: an `<svg>` or `<math>`,
 * wherever it is (one inside a `<foreignObject>` or `<mi>` too), or one opened in foreign
 * content (an integration point such as `<foreignObject>` too, though its content is
 * HTML; not an HTML element inside it).
 */
function currentNodeForeign(state: Pick<TagState, 'foreignOpen'>): boolean {
  const open = state.foreignOpen;
  const current = open[open.length - 1];
  if (current === undefined) return false;
  if (current.name === 'svg' || current.name === 'math') return true;
  const parent = open[open.length - 2];
  return parent === undefined || parent.foreign;
}

function pushForeign(state: TagState, element: ForeignOpen): void {
  state.foreignOpen.push(element);
  state.foreignNames.set(element.name, (state.foreignNames.get(element.name) ?? 0) + 1);
}

function popForeign(state: TagState): ForeignOpen {
  const element = state.foreignOpen.pop() as ForeignOpen;
  state.foreignNames.set(element.name, (state.foreignNames.get(element.name) as number) - 1);
  return element;
}

function foreignNow(state: TagState): boolean {
  const open = state.foreignOpen;
  return open.length > 0 && (open[open.length - 1] as ForeignOpen).foreign;
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
function closeForeign(state: TagState, name: string): void {
  const open = state.foreignOpen;
  // A name none of them has is known without walking the stack (one stray end tag each).
  let keep = state.foreignNames.get(name) ? open.length - 1 : -1;
  while (keep >= 0 && open[keep]?.name !== name) keep -= 1;
  if (keep >= 0) {
    popForeignTo(state, keep);
  } else if (name === 'p' || name === 'br') {
    leaveForeign(state);
  } else if (state.cbs.closesAroundForeign?.(name)) {
    // `<template><svg></template>`: the end tag closes the SVG, then its own element.
    popForeignTo(state, 0);
    state.cbs.onclosetag?.(name, false);
  }
}

/** Closes the foreign elements open down to the innermost HTML one or integration point. */
function leaveForeign(state: TagState): void {
  const open = state.foreignOpen;
  let keep = open.length;
  while (keep > 0 && open[keep - 1]?.foreign) keep -= 1;
  popForeignTo(state, keep);
}

function popForeignTo(state: TagState, keep: number): void {
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
export function srcsetUrls(value: string): string[] {
  const urls: string[] = [];
  let at = 0;
  while (at < value.length) {
    while (at < value.length && (isHtmlWhitespace(value.charCodeAt(at)) || value[at] === ','))
      at += 1;
    const start = at;
    while (at < value.length && !isHtmlWhitespace(value.charCodeAt(at))) at += 1;
    if (at === start) break;
    // Its trailing commas cut by a loop: `/,+$/` would retry from every comma of a long run.
    let end = at;
    while (end > start && value.charCodeAt(end - 1) === COMMA) end -= 1;
    const url = value.slice(start, end);
    if (end === at) {
      for (let depth = 0; at < value.length; at += 1) {
        const c = value[at];
        if (c === '(') depth = 1;
        else if (c === ')') depth = 0;
        else if (c === ',' && depth === 0) break;
      }
    }
    if (url !== '') urls.push(url);
  }
  return urls;
}

/**
 * The URL of `<meta http-equiv="refresh" content="5; url=...">`. A quoted URL runs to its
 * closing quote, or to the end when there is none, as browsers read it.
 */
export function refreshUrl(content: string): string | undefined {
  if (!/[^\d\s.;,]/.test(content)) return undefined;
  // ASCII whitespace only, as the HTML standard skips: a no-break space is the URL's own.
  const lead =
    /^[\t\n\f\r ]*\d*(?:\.[\d.]*)?[\t\n\f\r ]*[;,]?[\t\n\f\r ]*(?:url[\t\n\f\r ]*=[\t\n\f\r ]*)?/i.exec(
      content,
    )?.[0] ?? '';
  let url = content.slice(lead.length);
  const quote = url[0];
  if (quote === "'" || quote === '"') {
    const end = url.indexOf(quote, 1);
    url = url.slice(1, end < 0 ? undefined : end);
  }
  url = withoutHtmlWhitespace(url);
  return url === '' ? undefined : url;
}

export interface HtmlReference extends FoundReference {
  /** Held by an attribute of the page (what the internal link check resolves). */
  attribute?: true;
  /**
   * Read against the `<base href>` known when the parser meets it, never under a later
   * one: what Chromium fetches as it parses (a `<script src>` or an SVG one's `href`, a
   * stylesheet, preload or prefetch `<link>`, an `<iframe src>`, a `url()` in a `<style>`
   * or a style attribute), and what an `<iframe srcdoc>` made before the page's base
   * holds. An image, a video's poster or a link a later `<base>` still moves, and so does
   * all a `<template>` holds, fetched once a script puts it in the page.
   */
  parsed?: true;
}

/** The `<link rel>` values fetched as the parser meets them (a lone icon or manifest is not). */
const PARSER_FETCHED_RELS = /(?:^|\s)(?:stylesheet|preload|modulepreload|prefetch)(?:\s|$)/i;

/** Whether `name` of `<tag>` is fetched as the parser meets it (see `HtmlReference.parsed`). */
function fetchedWhenParsed(tag: string, name: string, attributes: Record<string, string>) {
  if (name === 'src') return tag === 'script' || tag === 'iframe';
  // An SVG <script>'s.
  if (tag === 'script') return name === 'href' || name === 'xlink:href';
  // A disabled stylesheet is fetched once a script enables it.
  return (
    tag === 'link' &&
    name === 'href' &&
    attributes.disabled === undefined &&
    PARSER_FETCHED_RELS.test(attributes.rel ?? '')
  );
}

export interface HtmlScanCallbacks {
  reference(reference: HtmlReference): void;
  /** A URL string in an inline script with no evidence that it is requested. */
  unconfirmed?(url: ScriptUrl): void;
  /**
   * An `<iframe srcdoc>` document nested more than MAX_FRAME_DEPTH deep, at the offset of
   * the page's outermost one: not read.
   */
  unreadFrame?(offset: number): void;
}

/**
 * How deep `<iframe srcdoc>` documents are read inside one another. Each one is parsed
 * again from its attribute, where the one inside it is escaped once more: without a bound,
 * 1,000 levels (a 4 MB page, a 9 KB archive) took 1.4 GB and overflowed the call stack.
 * Real pages nest one or two.
 */
export const MAX_FRAME_DEPTH = 8;

/**
 * Reads a page as it streams in, with a real HTML parser, and reports every reference
 * with what the browser does with it: URL attributes by element and `rel`, srcset, meta
 * refresh, inline styles, `<style>`, inline scripts (evidence-based), importmaps and
 * Next.js flight data. JSON-LD is metadata and not read further.
 */
export class HtmlScanner {
  /**
   * `<base href>`, which relative references resolve against: the page's first, once read,
   * or set before reading when an earlier reading found it.
   */
  base: string | undefined;
  /** This reading has met the page's first `<base href>` (the one `base` holds). */
  baseReached = false;
  readonly #callbacks: HtmlScanCallbacks;
  readonly #parser: ScanningParser;
  #raw:
    | {
        tag: 'style' | 'script';
        type: string;
        start: number;
        parts: string[];
        /** Read as markup (SVG's `<style>` and `<script>`): entities mean their characters. */
        decode: boolean;
      }
    | undefined;
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
  readonly #flight: string[] = [];
  readonly #flightStarts: { at: number; offset: number }[] = [];
  #flightLength = 0;
  /** How many `<iframe srcdoc>` documents this one is inside. */
  readonly #depth: number;
  /** Read as XML: the general entities its DOCTYPE declares, and the characters they may still add. */
  readonly #xml: XmlEntities | undefined;
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
  constructor(callbacks: HtmlScanCallbacks, { depth = 0, xml = false } = {}) {
    this.#callbacks = callbacks;
    this.#depth = depth;
    this.#xml = xml
      ? { entities: new Map(), budget: 0, allowance: MAX_ENTITY_EXPANSION }
      : undefined;
    const handler: Partial<Handler> & Pick<TagState['cbs'], 'closesAroundForeign'> = {
      onopentag: (name, attributes) => this.#open(name, attributes),
      ontext: (text) => {
        if (!this.#raw) return;
        if (this.#raw.parts.length === 0) this.#raw.start = this.#parser.startIndex;
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
        if (this.#xml === undefined) return;
        if (name.toLowerCase() === '?xml-stylesheet') this.#readStylesheetInstruction(data);
        else if (data.includes('ENTITY')) this.#declare(data);
      },
      // Outside SVG and MathML, only the end tags in END_TAGS_READ get here.
      onclosetag: (name) => {
        if (this.#raw && name === this.#raw.tag) this.#closeRaw();
        // `<svg><template></template></svg>`: no HTML template was opened, none closes.
        if (this.#parser.closingForeign) return;
        if (name === 'form') this.#inForm = false;
        else if (name === 'noscript') this.#inNoscript = false;
        else if (name === 'template' && this.#templates > 0 && !this.#inNoscript)
          this.#templates -= 1;
      },
      closesAroundForeign: (name) =>
        (name === 'template' && this.#templates > 0) || (name === 'noscript' && this.#inNoscript),
    };
    this.#parser = new ScanningParser(handler, {
      decodeEntities: false,
      lowerCaseAttributeNames: true,
      xmlMode: xml,
      Tokenizer: SearchingTokenizer,
    });
  }

  write(chunk: string): void {
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

  end(): void {
    this.#parser.end();
    // A script or style the page never closes runs to its end.
    if (this.#raw) this.#closeRaw();
    if (this.#flight.length === 0) return;
    const starts = this.#flightStarts;
    for (const reference of referencesInFlight(this.#flight.join(''))) {
      // The row's offset in the joined flight text → the script that pushed it.
      let low = 0;
      for (let high = starts.length - 1; low < high;) {
        const mid = (low + high + 1) >> 1;
        if ((starts[mid] as { at: number }).at <= reference.offset) low = mid;
        else high = mid - 1;
      }
      this.#callbacks.reference({ ...reference, offset: starts[low]?.offset ?? 0 });
    }
  }

  #emit(reference: HtmlReference): void {
    this.#callbacks.reference(reference);
  }

  #open(tag: string, attributes: Record<string, string>): void {
    this.#pastProlog = true;
    if (tag === 'form' && !this.#parser.isInForeignContext()) {
      if (this.#inForm) return;
      this.#inForm = true;
    }
    const offset = this.#parser.startIndex;
    for (const name in attributes) {
      // Entities are decoded here, in the few values read, rather than in all the text.
      const raw = attributes[name] as string;
      const value = raw.includes('&') ? this.#decodeAttribute(raw) : raw;
      if (URL_ATTRIBUTES.has(name)) {
        const role = roleOfAttribute(tag, name, attributes);
        const url = role ? withoutHtmlWhitespace(value) : '';
        if (role?.role === 'load' && isDataUrl(url)) this.#readDataUrl(tag, url, offset, role.via);
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
      } else if (SRCSET_ATTRIBUTES.has(name)) {
        const role = roleOfAttribute(tag, name, attributes);
        for (const url of srcsetUrls(value))
          if (role) this.#emit({ url, offset, role: role.role, via: role.via, attribute: true });
      } else if (name === 'style') {
        for (const css of urlsInCss(value))
          this.#emit({
            url: css.url,
            offset,
            role: 'load',
            via: 'inline style',
            ...(this.#fetchedNow() ? { parsed: true } : {}),
          });
      } else if (isEventHandler(name)) {
        this.#readScript(value, () => offset, name);
      } else if (name === 'srcdoc' && tag === 'iframe') {
        if (this.#depth < MAX_FRAME_DEPTH) this.#readFrame(value, offset);
        else this.#callbacks.unreadFrame?.(offset);
      }
    }
    if (tag === 'template' || tag === 'noscript' || tag === 'base')
      this.#openInert(tag, attributes);
    if (tag === 'meta' && attributes['http-equiv']?.toLowerCase() === 'refresh') {
      const url = refreshUrl(this.#decodeAttribute(attributes.content ?? ''));
      if (url) this.#emit({ url, offset, role: 'load', via: '<meta http-equiv=refresh>' });
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
  #readStylesheetInstruction(data: string): void {
    if (this.#pastProlog) return;
    const href = PSEUDO_ATTRIBUTE_HREF.exec(data);
    const url = withoutHtmlWhitespace(this.#decodeAttribute(href?.[1] ?? href?.[2] ?? ''));
    if (url !== '')
      this.#emit({
        url,
        offset: this.#parser.startIndex,
        role: 'load',
        via: '<?xml-stylesheet href>',
      });
  }

  /** An attribute's value with its entities decoded: the DOCTYPE's own too, in XML. */
  #decodeAttribute(raw: string): string {
    return decodeHTMLAttribute(this.#expandEntities(raw));
  }

  /**
   * `text` with the references to the entities an XML document's DOCTYPE declares replaced
   * by their text, up to ENTITY_EXPANSION_PER_CHARACTER characters for each of the
   * document's and MAX_ENTITY_EXPANSION in all (past it, as written: a browser stops such
   * a document, and the scan stays linear in the page's size).
   */
  #expandEntities(text: string): string {
    const xml = this.#xml;
    if (xml === undefined || xml.entities.size === 0) return text;
    return text.replace(ENTITY_REFERENCE, (reference, name: string) => {
      const value = xml.entities.get(name);
      if (value === undefined || value.length > xml.budget) return reference;
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
  #declare(declaration: string): void {
    const xml = this.#xml as XmlEntities;
    const match = ENTITY_DECLARATION.exec(declaration);
    const name = match?.[1];
    if (match === null || name === undefined || xml.entities.has(name)) return;
    const value = decodeHTML(this.#expandEntities(match[2] ?? match[3] ?? ''));
    if (value.length <= xml.budget) xml.entities.set(name, value);
  }

  /** Follows `<template>` and `<noscript>`, and takes the first `<base href>` of the page's own tree. */
  #openInert(tag: string, attributes: Record<string, string>): void {
    // In an SVG or MathML element these are no HTML elements.
    if (this.#inNoscript || this.#parser.isInForeignContext()) return;
    if (tag === 'template') this.#templates += 1;
    else if (tag === 'noscript') this.#inNoscript = true;
    else if (attributes.href !== undefined && !this.baseReached && this.#templates === 0) {
      this.baseReached = true;
      this.base ??= this.#decodeAttribute(attributes.href);
    }
  }

  #closeRaw(): void {
    const raw = this.#raw;
    this.#raw = undefined;
    this.#parser.textWanted = false;
    if (!raw) return;
    const joined = raw.parts.join('');
    const content =
      raw.decode && joined.includes('&') ? decodeHTML(this.#expandEntities(joined)) : joined;
    if (raw.tag === 'style') {
      for (const css of urlsInCss(content))
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
      for (const url of urlsInImportMap(content))
        this.#emit({ url, offset: raw.start, role: 'load', via: '<script type=importmap>' });
      return;
    }
    if (!CLASSIC_OR_MODULE.test(raw.type)) return; // JSON-LD, templates, speculation rules
    // A script that does more than push flight data is read as a script too.
    if (content.includes('__next_f') && this.#readFlightPush(content, raw.start)) return;
    this.#readScript(content, (at) => raw.start + at, 'inline script');
  }

  /**
   * Whether what the parser meets now is fetched now: not in a `<template>` or a
   * `<noscript>`, nor in one taken for an SVG element's (the SVG may have been closed by
   * markup this parser does not follow: `<div><svg></div><template>`).
   */
  #fetchedNow(): boolean {
    return this.#templates === 0 && !this.#inNoscript && !this.#parser.holdsInertName();
  }

  /** A document of its own, inside the attribute: the frame loads what it references. */
  #readFrame(value: string, offset: number): void {
    const found: { reference: HtmlReference; beforeItsBase: boolean }[] = [];
    const inner: HtmlScanner = new HtmlScanner(
      {
        reference: (reference) => found.push({ reference, beforeItsBase: !inner.baseReached }),
        unconfirmed: (url) => this.#callbacks.unconfirmed?.({ ...url, offset }),
        unreadFrame: () => this.#callbacks.unreadFrame?.(offset),
      },
      { depth: this.#depth + 1 },
    );
    inner.write(value);
    inner.end();
    // The frame's document starts from the page's base as it is when the frame is made:
    // the page's own address when the frame comes before the page's <base href>. What its
    // parser fetches before a base of its own keeps that; the rest goes under that base.
    const madeBeforeBase = !this.baseReached && this.#fetchedNow();
    const atCreation = (reference: HtmlReference): HtmlReference =>
      madeBeforeBase ? { ...reference, parsed: true } : reference;
    const itsBase = inner.baseReached ? inner.base : undefined;
    for (const { reference: whole, beforeItsBase } of found) {
      const { parsed, ...reference } = whole;
      const framed = { ...reference, offset, via: `<iframe srcdoc> ${reference.via}` };
      const underItsBase =
        itsBase === undefined || (parsed && beforeItsBase)
          ? undefined
          : againstBase(framed, itsBase);
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
      if (baseNamesHost(itsBase as string)) this.#emit({ ...underItsBase, parsed: true });
      else this.#emit(atCreation(underItsBase));
    }
  }

  /**
   * What a frame, an `<object>` or `<embed>`, a stylesheet or a script loaded from a
   * `data:` URL loads in turn. A document of its own has no address to resolve a path
   * against: only its URLs with a host are read.
   */
  #readDataUrl(tag: string, url: string, offset: number, via: string): void {
    const payload = dataUrlPayload(url);
    if (payload === undefined) return;
    const inside = `${via} (data:)`;
    if (tag === 'script') {
      if (!NOT_SCRIPT_TYPES.test(payload.type))
        this.#readScript(payload.text, () => offset, inside);
      return;
    }
    if (tag === 'link') {
      if (payload.type !== 'text/css') return;
      for (const css of urlsInCss(payload.text))
        this.#emit({ url: css.url, offset, role: 'load', via: `${inside} ${css.via}` });
      return;
    }
    if (!FRAMING_TAGS.has(tag) || !DOCUMENT_TYPES.has(payload.type)) return;
    this.#readUrlDocument(payload.text, offset, inside, payload.type !== 'text/html');
  }

  /**
   * What a frame navigated to a `javascript:` URL loads: its code runs (`fetch("…")`), and
   * a string it comes to (`javascript:'<img src=…>'`, pieces joined with `+` too) is the
   * frame's document. `<object>` and `<embed>` run none.
   */
  #readJavascriptUrl(url: string, offset: number, via: string): void {
    const code = javascriptUrlCode(url);
    if (code === undefined) return;
    const inside = `${via} (javascript:)`;
    this.#readScript(code, () => offset, inside);
    const document = stringValue(code);
    if (document !== undefined) this.#readUrlDocument(document, offset, inside);
  }

  /**
   * A document a URL holds in itself (`data:`, `javascript:`), which has no address of its
   * own to resolve a path against: only its URLs with a host are read.
   */
  #readUrlDocument(text: string, offset: number, inside: string, xml = false): void {
    if (this.#depth >= MAX_FRAME_DEPTH) {
      this.#callbacks.unreadFrame?.(offset);
      return;
    }
    const inner = new HtmlScanner(
      {
        reference: ({ url: found, role, via: innerVia }) => {
          if (HAS_HOST.test(found))
            this.#emit({ url: found, offset, role, via: `${inside} ${innerVia}` });
        },
        unconfirmed: (script) => this.#callbacks.unconfirmed?.({ ...script, offset }),
        unreadFrame: () => this.#callbacks.unreadFrame?.(offset),
      },
      { depth: this.#depth + 1, xml },
    );
    inner.write(text);
    inner.end();
  }

  /**
   * The URLs in a script's code (`offsetOf` places each in the page): loads when the code
   * loads them, the others unconfirmed.
   */
  #readScript(code: string, offsetOf: (at: number) => number, via: string): void {
    for (const script of urlsInScript(code)) {
      const offset = offsetOf(script.offset);
      if (script.evidence)
        this.#emit({ url: script.url, offset, role: 'load', via: `${via}: ${script.evidence}` });
      else this.#callbacks.unconfirmed?.({ url: script.url, offset });
    }
  }

  /**
   * `self.__next_f.push([1, "…"])`: the string is a piece of the page's flight data.
   * Whether the script does nothing else: no name but those of the push forms Next.js
   * writes (`(self.__next_f=self.__next_f||[]).push([0])`), so no call that requests.
   */
  #readFlightPush(content: string, start: number): boolean {
    let onlyPushes = true;
    try {
      for (const token of tokenizer(content, { ecmaVersion: 'latest' })) {
        const value = (token as { value?: unknown }).value;
        if (token.type !== tokTypes.string) {
          if (!FLIGHT_PUSH_TOKENS.has(token.type.label)) onlyPushes = false;
          else if (token.type === tokTypes.name && !FLIGHT_PUSH_NAMES.has(value as string))
            onlyPushes = false;
          continue;
        }
        if (typeof value !== 'string') continue;
        this.#flightStarts.push({ at: this.#flightLength, offset: start + token.start });
        this.#flight.push(value);
        this.#flightLength += value.length;
      }
    } catch {
      // Not the push form we know: read as any script.
      return false;
    }
    return onlyPushes;
  }
}

/**
 * The string a script's code comes to when it is only string literals, joined with `+`
 * (`'<p>' + "<img …>"`), or undefined: what a frame shows of a `javascript:` URL.
 */
function stringValue(code: string): string | undefined {
  const pieces: string[] = [];
  try {
    for (const token of tokenizer(code, { ecmaVersion: 'latest' })) {
      const { label } = token.type;
      const value = (token as { value?: unknown }).value;
      if (token.type === tokTypes.string || token.type === tokTypes.template) {
        if (typeof value !== 'string') return undefined;
        pieces.push(value);
      } else if (label === '+/-' ? value !== '+' : !STRING_JOINING.has(label)) return undefined;
    }
  } catch {
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

/** The general entities an XML document declares, and the characters they may still add. */
interface XmlEntities {
  entities: Map<string, string>;
  /** Characters granted and not used yet. */
  budget: number;
  /** Characters still to be granted as the document is read, up to MAX_ENTITY_EXPANSION. */
  allowance: number;
}
/** The `href` pseudo-attribute of an `<?xml-stylesheet?>` instruction, in either quotes. */
const PSEUDO_ATTRIBUTE_HREF = /[\t\n\r ]href[\t\n\r ]*=[\t\n\r ]*(?:"([^"]*)"|'([^']*)')/;
/** `&name;`, a reference to a general entity (not `&#…;`, a character's). */
const ENTITY_REFERENCE = /&([^\s&;#<>"']+);/g;
/** `<!ENTITY name "value">` or `'value'`, as the tokenizer reports it: up to its first `>`, after the DOCTYPE's start for the first. */
const ENTITY_DECLARATION =
  /!ENTITY[\t\n\r ]+([^\s%"'>]+)[\t\n\r ]+(?:"([^"]*)"|'([^']*)')[\t\n\r ]*$/;

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
export function referencesInHtml(source: string): HtmlReference[] {
  const found: HtmlReference[] = [];
  const scanner = new HtmlScanner({ reference: (r) => found.push(r) });
  scanner.write(source);
  scanner.end();
  return found;
}

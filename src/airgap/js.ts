import { type Token, tokenizer, tokTypes } from 'acorn';
import { withoutHtmlWhitespace } from '../html-whitespace.js';
import { urlsInCss } from './css.js';
import { externalHost, isRealHost } from './references.js';
import { isSdkUrl } from './sdk-hosts.js';

export interface ScriptUrl {
  url: string;
  offset: number;
  /** Why the browser will request it (`fetch()`, `.src =`, `import`, `SDK host`); undefined: no evidence. */
  evidence?: string;
}

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
  // `el.style = "…"` sets the whole declaration, as `cssText` does.
  'style',
]);

/** Attributes (and the properties that reflect them) whose URL an element fetches: `.src =`, `setAttribute("poster", …)`. */
const LOADING_ATTRIBUTES = new Set(['src', 'poster']);

/**
 * `rel` values that make the `href` beside them a load, whatever the host:
 * `{ rel: "stylesheet", href: "…" }`, `l.setAttribute("rel", "preconnect")`.
 */
const LOADING_RELS = new Set([
  'stylesheet',
  'preconnect',
  'preload',
  'modulepreload',
  'prefetch',
  'dns-prefetch',
  'icon',
  'manifest',
]);

/**
 * `rel` values (and the element name) that make an `href` a load: `l.rel = "stylesheet";
 * l.href = "…"`, `{ rel: "preconnect", href: "…" }` in a head config.
 */
const LOADING_LINK_HINTS = new Set(['link', ...LOADING_RELS]);

/** Keys beside `url` that make an object a link (`{ label: "YouTube", url: "…" }`). */
const LINK_LABEL_KEYS = new Set(['label', 'title', 'text', 'children', 'name', 'icon']);

/**
 * Tokens after a link's URL in which a loading `rel` or a label key still counts: past the
 * end of a statement that sets it, to the next one's `l.setAttribute("rel", "stylesheet")`.
 */
const LINK_LOOKAHEAD = 12;
/** Tokens kept before a string: the calls and `rel` that say how it is used. */
const LOOKBEHIND = 16;

/**
 * `https://host`, `//host`, and the backslashes browsers read as slashes (`'\\\\host/…'`),
 * after the controls and spaces the URL parser drops (not a no-break space: a path).
 */
const LOOKS_LIKE_URL = /^[\0-\x20]*(?:[a-z][a-z0-9+.-]*:)?[/\\]{2}[^/\\\s]/i;

interface Seen {
  /** `name`, `string`, `(`, `=`, … (acorn's token labels). */
  label: string;
  value: string;
}

function seen(token: Token): Seen {
  const value: unknown = (token as { value?: unknown }).value;
  return { label: token.type.label, value: typeof value === 'string' ? value : '' };
}

/** Why the string after these tokens is requested, or undefined (newest token last). */
function evidenceFrom(before: readonly Seen[]): string | undefined {
  const at = (back: number) => before[before.length - back];
  const one = at(1);
  const two = at(2);
  if (!one) return undefined;
  if (one.label === '(' && two && (two.label === 'name' || two.label === 'import')) {
    const callee = two.label === 'import' ? 'import' : two.value;
    if (REQUESTING_CALLS.has(callee)) return `${callee}()`;
  }
  // xhr.open("GET", "…") and el.setAttribute("src", "…"), whose name is read in any case.
  if (one.label === ',' && two?.label === 'string' && at(3)?.label === '(') {
    const callee = at(4)?.value;
    if (callee === 'open') return 'XMLHttpRequest.open()';
    const attribute = two.value.toLowerCase();
    if (callee === 'setAttribute' && LOADING_ATTRIBUTES.has(attribute))
      return `setAttribute("${attribute}")`;
  }
  if (
    one.label === '=' &&
    two?.label === 'name' &&
    LOADING_ATTRIBUTES.has(two.value) &&
    at(3)?.label === '.'
  )
    return `.${two.value} =`;
  if (one.label === ':' && two?.value === 'src' && (two.label === 'name' || two.label === 'string'))
    return '{ src: … }';
  if ((one.label === 'name' && one.value === 'from') || one.label === 'import') return 'import';
  return undefined;
}

/** Where a link's address stands: its kind, and the construct, as the evidence names it. */
interface LinkContext {
  /** `href`: a link unless a loading `rel` stands beside it; `url`: a link only beside a label. */
  kind: 'href' | 'url';
  construct: string;
  /** In an object literal, which its `}` ends; a statement's neighbours count too. */
  inObject: boolean;
}

/**
 * How the string after these tokens is used as a link's address, or undefined: `href`
 * (`{ href: "…" }`, `{ link: "…" }`, `a.href = "…"`, `setAttribute("href", "…")`) or
 * `url` (`{ url: "…" }`, a link only beside a label).
 */
function linkContextFrom(before: readonly Seen[]): LinkContext | undefined {
  const at = (back: number) => before[before.length - back];
  const [one, two, three] = [at(1), at(2), at(3)];
  if (one?.label === ':' && (two?.label === 'name' || two?.label === 'string')) {
    if (two.value === 'href' || two.value === 'link')
      return { kind: 'href', construct: `{ ${two.value}: … }`, inObject: true };
    if (two.value === 'url') return { kind: 'url', construct: '{ url: … }', inObject: true };
  }
  if (one?.label === '=' && two?.value === 'href' && three?.label === '.')
    return { kind: 'href', construct: '.href =', inObject: false };
  if (
    one?.label === ',' &&
    two?.label === 'string' &&
    two.value.toLowerCase() === 'href' &&
    three?.label === '(' &&
    at(4)?.value === 'setAttribute'
  )
    return { kind: 'href', construct: 'setAttribute("href")', inObject: false };
  return undefined;
}

/**
 * A URL in a link's place, decided once the tokens after it are seen: one on the SDK list
 * stays a load unless it is a link; another becomes one with a loading `rel` beside it.
 */
interface PendingLink {
  found: ScriptUrl;
  context: LinkContext;
  sdk: boolean;
  remaining: number;
  loadingHint: boolean;
  /** The loading `rel` beside it (`rel: "stylesheet"`, `setAttribute("rel", "preconnect")`). */
  rel: string | undefined;
  labelled: boolean;
}

/**
 * The loading `rel` value `token` is, after `one` and `two` before it, or undefined:
 * `rel: "…"`, `.rel = "…"`, `setAttribute("rel", "…")`.
 */
function relOf(token: Seen, one: Seen | undefined, two: Seen | undefined): string | undefined {
  if (token.label !== 'string' || !LOADING_RELS.has(token.value.toLowerCase())) return undefined;
  const named =
    two?.value.toLowerCase() === 'rel' && (two.label === 'name' || two.label === 'string');
  const joined = one?.label === ':' || one?.label === '=' || one?.label === ',';
  return named && joined ? token.value.toLowerCase() : undefined;
}

/** Whether a pending link stays a load: a loading `rel` beside it, or a `url` with no label. */
function settle(link: PendingLink): void {
  if (!link.sdk) {
    if (link.rel !== undefined && link.context.kind === 'href')
      link.found.evidence = `${link.context.construct} with rel=${link.rel}`;
    return;
  }
  const isLink = !link.loadingHint && (link.context.kind === 'href' || link.labelled);
  if (isLink) delete link.found.evidence;
}

/**
 * URL strings of a script that name a real host, each with the evidence that the browser
 * requests it: a requesting call or property (`fetch("…")`, `script.src = "…"`, `import`),
 * or a known SDK host. Strings without evidence (error-documentation links, dummy bases
 * such as `http://a.com`, bare `//`) come back without it: they are not loads.
 */
export function urlsInScript(source: string): ScriptUrl[] {
  // `"https:\/\/…"` (JSON written by a server-side encoder) holds its slashes escaped, and
  // `"\\\\host/…"` its backslashes, which browsers read as slashes.
  if (!source.includes('//') && !source.includes('\\/') && !source.includes('\\\\')) return [];
  try {
    return tokenUrls(source, 'module');
  } catch {
    // A classic script may use what a module may not (`"\251"`, `010`): read it as one.
    try {
      return tokenUrls(source, 'script');
    } catch {
      return fallback(source);
    }
  }
}

/**
 * Why the CSS in the string after these tokens is applied, so that its `url()` loads:
 * `el.style.backgroundImage = "url(…)"`, `el.setAttribute("style", "…")`,
 * `new FontFace("…", "url(…)")`; undefined
 * otherwise. CSS shown as text, in a page's data, loads nothing; nor does a custom
 * property a script sets (`style.setProperty("--icon", "url(…)")`) until a style uses it:
 * VitePress's theme sets one to an icon service only when the icon's own CSS is missing.
 */
function cssEvidenceFrom(before: readonly Seen[]): string | undefined {
  const at = (back: number) => before[before.length - back];
  const [one, two, three] = [at(1), at(2), at(3)];
  if (one?.label === '=' && two?.label === 'name' && three?.label === '.')
    return LOADING_STYLE_PROPERTIES.has(two.value) ? `.${two.value} =` : undefined;
  if (one?.label === ',' && two?.label === 'string' && three?.label === '(') {
    const callee = at(4)?.value;
    if (callee === 'FontFace') return 'FontFace()';
    if (callee === 'setAttribute' && two.value.toLowerCase() === 'style')
      return 'setAttribute("style")';
  }
  return undefined;
}

function tokenUrls(source: string, sourceType: 'module' | 'script'): ScriptUrl[] {
  const found: ScriptUrl[] = [];
  const before: Seen[] = [];
  let pending: PendingLink[] = [];
  for (const token of tokenizer(source, {
    ecmaVersion: 'latest',
    sourceType,
    allowHashBang: true,
    allowReturnOutsideFunction: true,
    allowAwaitOutsideFunction: true,
  })) {
    const current = seen(token);
    if (pending.length > 0) pending = watchPending(pending, current, before);
    if (token.type === tokTypes.string || token.type === tokTypes.template) {
      // What comes before a template's text is what comes before its opening backquote.
      const context = before.at(-1)?.label === '`' ? before.slice(0, -1) : before;
      if (LOOKS_LIKE_URL.test(current.value)) {
        const url = withoutHtmlWhitespace(current.value);
        const host = externalHost(url);
        if (host !== undefined && isRealHost(host)) {
          const evidence = evidenceFrom(context);
          const sdk = evidence === undefined && isSdkUrl(url, host);
          const item: ScriptUrl = { url, offset: token.start };
          if (evidence !== undefined || sdk) item.evidence = evidence ?? 'SDK host';
          found.push(item);
          const link = evidence === undefined ? linkContextFrom(context) : undefined;
          if (link !== undefined && (sdk || link.kind === 'href'))
            pending.push(pendingLink(item, link, sdk, context));
        }
      } else if (/url\(/i.test(current.value)) {
        const evidence = cssEvidenceFrom(context);
        for (const { url } of evidence === undefined ? [] : urlsInCss(current.value)) {
          const host = externalHost(url);
          if (host !== undefined && isRealHost(host))
            found.push({ url, offset: token.start, evidence: `${evidence} url()` });
        }
      }
    }
    before.push(current);
    if (before.length > LOOKBEHIND) before.shift();
  }
  for (const link of pending) settle(link);
  return found;
}

function pendingLink(
  found: ScriptUrl,
  context: LinkContext,
  sdk: boolean,
  before: readonly Seen[],
): PendingLink {
  const link: PendingLink = {
    found,
    context,
    sdk,
    remaining: LINK_LOOKAHEAD,
    loadingHint: false,
    rel: undefined,
    labelled: false,
  };
  for (let i = before.length - 1; i >= 0; i -= 1) {
    const token = before[i] as Seen;
    if (token.label === 'string' && LOADING_LINK_HINTS.has(token.value)) link.loadingHint = true;
    link.rel ??= relOf(token, before[i - 1], before[i - 2]);
    // An object's own keys, or the statements of the block a statement is in.
    if (token.label === '{' || (token.label === '}' && !context.inObject)) break;
    if (LINK_LABEL_KEYS.has(token.value)) link.labelled = true;
  }
  return link;
}

/**
 * Notes what a token (`before` holds those before it) says about each pending link;
 * settles those whose object, statement or window ended.
 */
function watchPending(pending: PendingLink[], token: Seen, before: readonly Seen[]): PendingLink[] {
  const rel = relOf(token, before.at(-1), before.at(-2));
  return pending.filter((link) => {
    if (token.label === 'string' && LOADING_LINK_HINTS.has(token.value)) link.loadingHint = true;
    link.rel ??= rel;
    if ((token.label === 'name' || token.label === 'string') && LINK_LABEL_KEYS.has(token.value))
      link.labelled = true;
    link.remaining -= 1;
    const ended =
      link.remaining <= 0 || token.label === '}' || (token.label === ';' && link.context.inObject);
    if (ended) settle(link);
    return !ended;
  });
}

/** A script the tokenizer cannot read: quoted URLs, counted as loads only for SDK hosts. */
function fallback(source: string): ScriptUrl[] {
  const found: ScriptUrl[] = [];
  for (const match of source.matchAll(/(["'`])((?:[a-z][a-z0-9+.-]*:)?\/\/[^"'`\s\\]+)\1/gi)) {
    const url = match[2] as string;
    const host = externalHost(url);
    if (host === undefined || !isRealHost(host)) continue;
    const index = match.index ?? 0;
    const asLink = /\b(?:href|link)["']?\s*[:=]\s*$/.test(
      source.slice(Math.max(0, index - 12), index),
    );
    found.push({
      url,
      offset: index + 1,
      ...(!asLink && isSdkUrl(url, host) ? { evidence: 'SDK host' } : {}),
    });
  }
  return found;
}

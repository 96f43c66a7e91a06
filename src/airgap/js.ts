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
  // xhr.open("GET", "…") and el.setAttribute("src", "…")
  if (one.label === ',' && two?.label === 'string' && at(3)?.label === '(') {
    const callee = at(4)?.value;
    if (callee === 'open') return 'XMLHttpRequest.open()';
    if (callee === 'setAttribute' && two.value === 'src') return 'setAttribute("src")';
  }
  if (one.label === '=' && two?.value === 'src' && at(3)?.label === '.') return '.src =';
  if (one.label === ':' && two?.value === 'src' && (two.label === 'name' || two.label === 'string'))
    return '{ src: … }';
  if ((one.label === 'name' && one.value === 'from') || one.label === 'import') return 'import';
  return undefined;
}

/**
 * How the string after these tokens is used as a link's address, or undefined: `href`
 * (`{ href: "…" }`, `{ link: "…" }`, `a.href = "…"`, `setAttribute("href", "…")`) or
 * `url` (`{ url: "…" }`, a link only beside a label).
 */
function linkContextFrom(before: readonly Seen[]): 'href' | 'url' | undefined {
  const at = (back: number) => before[before.length - back];
  const [one, two, three] = [at(1), at(2), at(3)];
  if (one?.label === ':' && (two?.label === 'name' || two?.label === 'string')) {
    if (two.value === 'href' || two.value === 'link') return 'href';
    if (two.value === 'url') return 'url';
  }
  if (one?.label === '=' && two?.value === 'href' && three?.label === '.') return 'href';
  if (one?.label === ',' && two?.label === 'string' && two.value === 'href' && three?.label === '(')
    return at(4)?.value === 'setAttribute' ? 'href' : undefined;
  return undefined;
}

/** A URL on the SDK list in a link's place, decided once the tokens after it are seen. */
interface PendingLink {
  found: ScriptUrl;
  context: 'href' | 'url';
  remaining: number;
  loadingHint: boolean;
  labelled: boolean;
}

/** Whether a pending link stays a load: a loading `rel` beside it, or a `url` with no label. */
function settle(link: PendingLink): void {
  const isLink = !link.loadingHint && (link.context === 'href' || link.labelled);
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
 * `el.style.backgroundImage = "url(…)"`, `new FontFace("…", "url(…)")`; undefined
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
    if (pending.length > 0) pending = watchPending(pending, current);
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
          const link = sdk ? linkContextFrom(context) : undefined;
          if (link !== undefined) pending.push(pendingLink(item, link, context));
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
    if (before.length > 8) before.shift();
  }
  for (const link of pending) settle(link);
  return found;
}

function pendingLink(found: ScriptUrl, context: 'href' | 'url', before: readonly Seen[]) {
  const link: PendingLink = {
    found,
    context,
    remaining: LINK_LOOKAHEAD,
    loadingHint: false,
    labelled: false,
  };
  for (let i = before.length - 1; i >= 0; i -= 1) {
    const token = before[i] as Seen;
    if (token.label === 'string' && LOADING_LINK_HINTS.has(token.value)) link.loadingHint = true;
    if (token.label === '{') break;
    if (LINK_LABEL_KEYS.has(token.value)) link.labelled = true;
  }
  return link;
}

/** Notes what a token says about each pending link; settles those whose object or window ended. */
function watchPending(pending: PendingLink[], token: Seen): PendingLink[] {
  return pending.filter((link) => {
    if (token.label === 'string' && LOADING_LINK_HINTS.has(token.value)) link.loadingHint = true;
    if ((token.label === 'name' || token.label === 'string') && LINK_LABEL_KEYS.has(token.value))
      link.labelled = true;
    link.remaining -= 1;
    const ended = link.remaining <= 0 || token.label === '}' || token.label === ';';
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

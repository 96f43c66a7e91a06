import { safeDecode } from './net.js';

/** Shorter runs of a secret are too common to be told from ordinary text. */
const FRAGMENT = 10;

/**
 * A credential after `Bearer`: long enough to be one, and not a placeholder such as
 * `Bearer mint_<key>` or `Bearer mint_…`, which servers print as hints.
 */
const BEARER_TOKEN = /(bearer\s+)[A-Za-z0-9_.~+/=-]{12,}(?![A-Za-z0-9_.~+/=<…-])/gi;

/**
 * Removes secrets from text that leaves the process (log lines, error messages,
 * outputs, the summary), including text that came from a server, which may echo a
 * request's Authorization header back, and text cut short somewhere in a secret.
 */
export class Redactor {
  readonly #secrets = new Set<string>();

  add(secret: string | undefined): void {
    if (secret && secret.length >= 4) this.#secrets.add(secret);
  }

  redact(text: string): string {
    let out = text.replace(BEARER_TOKEN, '$1***');
    for (const secret of this.#secrets) out = out.split(secret).join('***');
    for (const secret of this.#secrets) out = withoutFragments(out, secret);
    return out;
  }
}

/** Replaces every run of at least FRAGMENT characters of `secret` (a cut copy of it). */
function withoutFragments(text: string, secret: string): string {
  // Only tokens such as keys: pieces of a masked URL (its host, its path) are not secret.
  if (secret.length < 2 * FRAGMENT || !/^[A-Za-z0-9_.~+=-]+$/.test(secret)) return text;
  return withoutRuns(text, secret, FRAGMENT, '***');
}

/** Replaces every run of at least `run` characters of `secret` with `replacement`. */
function withoutRuns(text: string, secret: string, run: number, replacement: string): string {
  let out = text;
  for (let start = 0; start + run <= secret.length; start += 1) {
    const needle = secret.slice(start, start + run);
    for (
      let at = out.indexOf(needle);
      at !== -1;
      at = out.indexOf(needle, at + replacement.length)
    ) {
      // Grow the match both ways while it follows the secret.
      let from = at;
      let s = start;
      while (from > 0 && s > 0 && out[from - 1] === secret[s - 1]) {
        from -= 1;
        s -= 1;
      }
      let to = at + run;
      let e = start + run;
      while (to < out.length && e < secret.length && out[to] === secret[e]) {
        to += 1;
        e += 1;
      }
      out = `${out.slice(0, from)}${replacement}${out.slice(to)}`;
      at = from;
    }
  }
  return out;
}

/**
 * What a log must not show of a link masked for it: the link, its address without the
 * signed query, its host, which network errors quote alone, and the signed query and its
 * values (see querySecrets), which a storage's error page may echo. Not its path alone:
 * the archive's own name (`docs.example.com.tar.gz`) or a word such as `/download` would
 * be masked out of the paths the log names. The API's own host and the docs' `domain` are
 * named by the workflow, no secret, and stay readable: a storage served under the docs'
 * own host would otherwise take every page address out of the job's log. Longest first:
 * a shorter part replaced first would leave the rest of a longer one.
 */
export function linkParts(link: string, apiBase: URL, domain?: string): string[] {
  const url = new URL(link);
  const parts = [link, `${url.origin}${url.pathname}`];
  const named = (host: string) => host === apiBase.host || host === domain;
  if (!named(url.host)) parts.push(url.host);
  if (!named(url.hostname) && url.hostname !== apiBase.hostname) parts.push(url.hostname);
  // The signed query, and those of its values that look like secrets, as a storage's error
  // page echoes them. Dates and names (`2022-11-02`, `AWS4-HMAC-SHA256`) are left out:
  // masked, they would take every such word out of the rest of the job's log.
  const { queries, values } = querySecrets(link);
  parts.push(...queries, ...values.filter(looksSecret));
  return [...new Set(parts)].filter((part) => part.length >= 4).sort((a, b) => b.length - a.length);
}

/** A query value worth masking for the whole job: long, and not a date or an upper-case name. */
function looksSecret(value: string): boolean {
  return value.length >= 16 && /[a-z+/=%]/.test(value);
}

/**
 * Query values shorter than this are flags of the link (`sr=b`, `sp=r`, `X-Amz-Expires=3600`),
 * not worth hiding: hidden, they would take every such word out of the log.
 */
const QUERY_VALUE = 8;
/** Runs of a query value this long are removed wherever they appear (a cut copy of it). */
const VALUE_FRAGMENT = 12;
/** At a cut, this much of a value's start, or more, is removed. */
const CUT_PREFIX = 4;
/** What stands for a removed query or value. */
const ELIDED = '…';

/**
 * The signed query of a link (without its `?`) and its values of QUERY_VALUE characters or
 * more, each in the forms a server may quote it in: as sent, percent-decoded, percent-
 * encoded again (with upper or lower case escapes), and with its `&` escaped for XML or HTML.
 * A value its path already shows is left out: the path is no secret (an archive's name).
 * Each list longest first.
 */
export function querySecrets(link: string): { queries: string[]; values: string[] } {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return { queries: [], values: [] };
  }
  const query = url.search.slice(1);
  const path = `${url.pathname}\n${safeDecode(url.pathname)}`;
  const values = new Set<string>();
  for (const pair of query.split('&')) {
    const raw = pair.slice(pair.indexOf('=') + 1);
    if (!pair.includes('=') || raw === '') continue;
    const decoded = safeDecode(raw);
    const forms = [
      raw,
      decoded,
      decoded.replace(/\+/g, ' '),
      encodeURIComponent(decoded),
      xmlEscape(decoded),
    ];
    for (const form of [...forms])
      forms.push(escapesInCase(form, 'upper'), escapesInCase(form, 'lower'));
    for (const form of forms) {
      if (form.length >= QUERY_VALUE && !path.includes(form)) values.add(form);
    }
  }
  if (values.size === 0) return { queries: [], values: [] };
  const queries = new Set<string>();
  const decoded = safeDecode(query);
  for (const form of [
    query,
    escapesInCase(query, 'upper'),
    escapesInCase(query, 'lower'),
    decoded,
  ]) {
    queries.add(form);
    queries.add(form.replace(/&/g, '&amp;'));
  }
  return { queries: longestFirst(queries), values: longestFirst(values) };
}

/**
 * Takes presigned links' signed queries out of text that came from the storage (an error
 * page that echoes the request target, a network error that quotes the URL), whatever the
 * masking: the log names a link without its signed query. A query quoted whole becomes `…`
 * (`/exports/a.tar.gz?…`), as does each value of it quoted apart, and any run of
 * VALUE_FRAGMENT characters of one (a copy cut short). Text cut short (`cut`, or ending in
 * the `…` a summary is cut with) also loses the start of a value it ends in.
 */
export class LinkScrubber {
  readonly #queries = new Set<string>();
  readonly #values = new Set<string>();

  /** A link whose query must not be quoted: the bundle link, a fresh one, a redirect's. */
  add(link: string): void {
    const { queries, values } = querySecrets(link);
    for (const query of queries) this.#queries.add(query);
    for (const value of values) this.#values.add(value);
  }

  scrub(text: string, cut = false): string {
    if (this.#values.size === 0 || text === '') return text;
    const values = longestFirst(this.#values);
    let out = this.scrubWhole(text);
    for (const value of values) out = withoutRuns(out, value, VALUE_FRAGMENT, ELIDED);
    if (cut || out.endsWith(ELIDED)) out = withoutCutValue(out, values);
    return out;
  }

  /**
   * Only the query and values quoted whole: quick on a long text (a storage's error body)
   * that is scrubbed in full once it is cut to the part that is shown.
   */
  scrubWhole(text: string): string {
    if (this.#values.size === 0 || text === '') return text;
    let out = text;
    for (const query of longestFirst(this.#queries)) out = out.split(query).join(ELIDED);
    for (const value of longestFirst(this.#values)) out = out.split(value).join(ELIDED);
    return out;
  }
}

/** Removes the start of a value (CUT_PREFIX characters or more) that text cut short ends in. */
function withoutCutValue(text: string, values: string[]): string {
  const tail = text.endsWith(ELIDED) ? ELIDED : '';
  const body = text.slice(0, text.length - tail.length);
  let longest = 0;
  for (const value of values) {
    for (let n = Math.min(value.length - 1, body.length); n >= CUT_PREFIX; n -= 1) {
      if (n > longest && body.endsWith(value.slice(0, n))) {
        longest = n;
        break;
      }
    }
  }
  return longest === 0 ? text : `${body.slice(0, body.length - longest)}${ELIDED}`;
}

function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapesInCase(text: string, letters: 'upper' | 'lower'): string {
  return text.replace(/%[0-9a-f]{2}/gi, (escape) =>
    letters === 'upper' ? escape.toUpperCase() : escape.toLowerCase(),
  );
}

function longestFirst(texts: Iterable<string>): string[] {
  return [...texts].sort((a, b) => b.length - a.length);
}

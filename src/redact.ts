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
  let out = text;
  for (let start = 0; start + FRAGMENT <= secret.length; start += 1) {
    const needle = secret.slice(start, start + FRAGMENT);
    for (let at = out.indexOf(needle); at !== -1; at = out.indexOf(needle, at + 3)) {
      // Grow the match both ways while it follows the secret.
      let from = at;
      let s = start;
      while (from > 0 && s > 0 && out[from - 1] === secret[s - 1]) {
        from -= 1;
        s -= 1;
      }
      let to = at + FRAGMENT;
      let e = start + FRAGMENT;
      while (to < out.length && e < secret.length && out[to] === secret[e]) {
        to += 1;
        e += 1;
      }
      out = `${out.slice(0, from)}***${out.slice(to)}`;
      at = from;
    }
  }
  return out;
}

/**
 * What a log must not show of a link masked for it: the link, its address without the
 * signed query, and its host, which network errors quote alone. Not its path alone: the
 * archive's own name (`docs.example.com.tar.gz`) or a word such as `/download` would be
 * masked out of the paths the log names. The API's own host is named by the workflow, no
 * secret, and stays readable in the API's messages. Longest first: a shorter part
 * replaced first would leave the rest of a longer one.
 */
export function linkParts(link: string, apiBase: URL): string[] {
  const url = new URL(link);
  const parts = [link, `${url.origin}${url.pathname}`];
  if (url.host !== apiBase.host) parts.push(url.host);
  if (url.hostname !== apiBase.hostname) parts.push(url.hostname);
  return [...new Set(parts)].filter((part) => part.length >= 4);
}

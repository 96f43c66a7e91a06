import { isIP } from 'node:net';

/** localhost, 127.0.0.0/8 and ::1: the only hosts that may be reached over plain http. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

/**
 * Parses a URL the action will send requests to: https, or http to loopback only, and
 * no credentials in it. Returns a reason when the URL is not acceptable.
 */
export function parseServiceUrl(text: string): URL | { reason: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { reason: 'is not a URL' };
  }
  if (url.username || url.password) return { reason: 'must not carry credentials' };
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:') {
    return isLoopbackHost(url.hostname)
      ? url
      : { reason: 'uses http: only https is allowed, except for localhost, 127.0.0.0/8 and [::1]' };
  }
  return { reason: `uses ${url.protocol.replace(/:$/, '')}: only https is allowed` };
}

/**
 * The URL without its user name, password, query string and fragment: safe to print for
 * a presigned link, or an address a server redirected to.
 */
export function withoutQuery(url: string | URL): string {
  try {
    const copy = new URL(url);
    const hadQuery = copy.search !== '';
    copy.username = '';
    copy.password = '';
    copy.search = '';
    copy.hash = '';
    return hadQuery ? `${copy.toString()}?…` : copy.toString();
  } catch {
    return '(invalid URL)';
  }
}

/** `text` percent-decoded, or as it is when it is no percent-encoding of UTF-8 (`100%`). */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

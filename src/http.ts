import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import { type Dispatcher, errors } from 'undici';
import type { Clock } from './clock.js';
import { formatDuration } from './duration.js';
import {
  describeProxy,
  PROXY_CONNECTION_FAILED,
  ProxyConnectionFailed,
  ProxyRoutes,
  ProxyTunnelRefused,
} from './proxy.js';

type Body = Dispatcher.ResponseData['body'];
type Headers = Dispatcher.ResponseData['headers'];

/** The first value of a response header. */
export function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Reads at most `limit` bytes of a body and drops the rest: error pages and API answers
 * are small, and an untrusted server must not make the client buffer gigabytes.
 */
async function readBytes(
  body: Readable,
  limit: number,
  destroy: () => void,
): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const data of body) {
    const chunk = data as Buffer;
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
export function decoderFor(encoding: string | undefined): Transform | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return new DeflateDecoder();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

/**
 * `Content-Encoding: deflate` is zlib's format (RFC 9110), but some servers send raw
 * deflate under that name, which browsers and curl read as well: a zlib stream is told by
 * its first two bytes (method 8 in the low four bits, the pair a multiple of 31).
 */
class DeflateDecoder extends Transform {
  #inflate: zlib.Inflate | zlib.InflateRaw | undefined;
  /** The first byte, while the second has not come. */
  #head: Buffer | undefined;
  /** The deflate data has ended: what follows it is dropped, as zlib's own inflater drops it. */
  #ended = false;
  /** Called once the inflater has ended, when this stream is flushed before. */
  #onEnd: (() => void) | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
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
      const wrapped = (data[0]! & 0x0f) === 8 && data.readUInt16BE(0) % 31 === 0;
      this.#inflate = this.#start(wrapped ? zlib.createInflate() : zlib.createInflateRaw());
    }
    this.#inflate.write(data, (err) => done(err ?? undefined));
  }

  override _flush(done: TransformCallback): void {
    // A body of one byte is no stream of either kind: raw inflate says why.
    const inflate =
      this.#inflate ?? (this.#head ? this.#start(zlib.createInflateRaw()) : undefined);
    if (inflate === undefined) {
      done();
      return;
    }
    if (this.#ended) {
      done();
      return;
    }
    if (this.#head) inflate.write(this.#head);
    this.#onEnd = () => done();
    inflate.end();
  }

  /** Asked for more: what the inflater holds back for want of room flows again. */
  override _read(size: number): void {
    this.#inflate?.resume();
    super._read(size);
  }

  override _destroy(err: Error | null, done: (error?: Error | null) => void): void {
    this.#inflate?.destroy();
    done(err);
  }

  #start<T extends zlib.Inflate | zlib.InflateRaw>(inflate: T): T {
    this.#inflate = inflate;
    inflate.on('data', (data: Buffer) => {
      if (!this.push(data)) inflate.pause();
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
export function contentEncoding(headers: Headers): string | undefined {
  const value = header(headers, 'content-encoding')?.trim().toLowerCase();
  return value === undefined || value === '' || value === 'identity' ? undefined : value;
}

/**
 * Reads a small body, undoing a Content-Encoding that arrived although the request asked
 * for identity (a middlebox), within `limit` bytes either way.
 */
export async function readDecodedBytes(
  body: Body,
  headers: Headers,
  limit: number,
): Promise<{ bytes: Buffer; truncated: boolean }> {
  const decoder = decoderFor(contentEncoding(headers));
  if (decoder === undefined) return readBytes(body, limit, () => body.destroy());
  // pipeline, not pipe: a body that fails (a timeout, a cancellation) fails the decoder
  // too, where pipe would leave the loop waiting for bytes that never come.
  const decoded = pipeline(body, decoder, () => undefined);
  return readBytes(decoded, limit, () => {
    body.destroy();
    decoder.destroy();
  });
}

/** The same as UTF-8 text. */
export async function readDecodedText(
  body: Body,
  headers: Headers,
  limit: number,
): Promise<{ text: string; truncated: boolean }> {
  const { bytes, truncated } = await readDecodedBytes(body, headers, limit);
  return { text: bytes.toString('utf8'), truncated };
}

/** The proxy a request to `url` goes through, when the dispatcher routes by the environment. */
export function proxyOf(dispatcher: Dispatcher, url: URL): URL | undefined {
  return dispatcher instanceof ProxyRoutes ? dispatcher.proxyFor(url) : undefined;
}

/**
 * What servers say the time is, from their `Date` headers: the storage judges a link's
 * expiry by its own clock, which may differ from the runner's by minutes.
 */
export class ServerTime {
  #offsetMs: number | undefined;

  constructor(private readonly clock: Clock) {}

  /** Learns the offset from a response's Date header (second resolution: mid-second). */
  observe(headers: Headers): void {
    const at = Date.parse(header(headers, 'date') ?? '');
    if (!Number.isNaN(at)) this.#offsetMs = at + 500 - this.clock.now();
  }

  /** How far the server's clock is ahead of the runner's (negative: behind), once known. */
  get offsetMs(): number | undefined {
    return this.#offsetMs;
  }

  /** The server's time now, when a Date header has been seen. */
  now(): number | undefined {
    return this.#offsetMs === undefined ? undefined : this.clock.now() + this.#offsetMs;
  }

  /**
   * False only when both clocks, the runner's and the server's (when known), say the
   * moment has passed: a link is tried whenever the store may still accept it.
   */
  mayBeBefore(at: Date): boolean {
    const margin = 2000;
    if (this.clock.now() < at.getTime()) return true;
    const server = this.now();
    return server !== undefined && server < at.getTime() + margin;
  }

  /** "the runner's clock is 20m 00s ahead of the server's", when they differ by over a minute. */
  describeSkew(server: string): string | undefined {
    const offset = this.#offsetMs;
    if (offset === undefined || Math.abs(offset) < 60_000) return undefined;
    return `the runner's clock is ${formatDuration(Math.abs(offset))} ${offset < 0 ? 'ahead of' : 'behind'} ${server}'s (from its Date header)`;
  }
}

/**
 * Retry-After as seconds or as an HTTP date, in ms. A date is read against the same
 * response's Date header when there is one, so a runner clock that is off does not
 * stretch or cut the wait.
 */
export function retryAfterMs(headers: Headers, clock: Clock): number | undefined {
  const text = header(headers, 'retry-after')?.trim();
  if (text === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  const now = Date.parse(header(headers, 'date') ?? '');
  return Math.max(0, at - (Number.isNaN(now) ? clock.now() : now));
}

/** What kind of network failure a request met, and whether another try can help. */
export type NetworkFailureKind = 'tls' | 'proxy' | 'dns' | 'refused' | 'timeout' | 'broken';

export interface NetworkFailure {
  kind: NetworkFailureKind;
  /** Worth another try: the same request may well work in a moment. */
  transient: boolean;
  /** The undici or system code, e.g. `SELF_SIGNED_CERT_IN_CHAIN`. */
  code: string | undefined;
  /** What happened, in a few words with the code: `the certificate chain … (CODE)`. */
  summary: string;
  /** What the user can do about it, when it is not simply "wait". */
  advice?: string;
  /** The proxy's status, when a proxy refused the request. */
  status?: number;
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
const PROXY_SCHEME_ADVICE =
  "Check the proxy URL's scheme and port in HTTPS_PROXY (or ALL_PROXY): a proxy that speaks TLS on that port is written https://, a SOCKS5 proxy socks5://.";

/** `err` and its causes, four at most (undici and fetch wrap an error in another). */
function* causeChain(err: unknown): Generator<object> {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

function codesOf(err: unknown): string[] {
  const codes: string[] = [];
  for (const error of causeChain(err)) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
  }
  return codes;
}

/** `err`, or the first error of its causes, that is a `kind`. */
function causeOfKind<T>(err: unknown, kind: abstract new (...args: never[]) => T): T | undefined {
  for (const error of causeChain(err)) if (error instanceof kind) return error;
  return undefined;
}

function messageOf(err: unknown): string {
  const message = (err as { message?: unknown })?.message;
  return typeof message === 'string' ? message : String(err);
}

export interface FailedRequest {
  /** The host the request was for (`api.example.com:443`). */
  host: string;
  /** The proxy it went through, if any. */
  proxy?: URL;
  /** The request's URL is plain http: any TLS on its way was an https:// proxy's. */
  plainHttp?: boolean;
}

/**
 * Classifies a failed request by its error codes (never by its message): TLS, proxy and
 * DNS failures are not transient, since trying again cannot fix a missing CA, refused
 * proxy credentials or a host name that does not resolve.
 */
export function classifyNetworkError(err: unknown, request: FailedRequest): NetworkFailure {
  if (err instanceof ProxyTunnelRefused) return proxyRefusal(err.status, err.proxy, request.host);
  const codes = codesOf(err);
  const socks = codes.find((c) => c.startsWith(SOCKS5_ERROR));
  if (request.proxy !== undefined && socks !== undefined) {
    return socksRefusal(socks, messageOf(err), request.proxy, request.host);
  }
  // The failure's own code, not the wrapper's that says whose it was.
  const own = codes.filter((c) => c !== PROXY_CONNECTION_FAILED);
  const code = own.find((c) => c !== 'UND_ERR_SOCKET') ?? own[0] ?? codes[0];
  const detail = `${code ?? 'error'}: ${messageOf(err)}`;
  const has = (set: Set<string>) => codes.some((c) => set.has(c));
  // The TLS of an https:// proxy itself (before any tunnel, or carrying a plain-http
  // request): the proxy's certificate.
  const proxyTls =
    causeOfKind(err, ProxyConnectionFailed)?.proxy ??
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
      advice:
        code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'UND_ERR_PRX_TLS'
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
  const unparsed =
    causeOfKind(err, errors.HTTPParserError) !== undefined ||
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
      advice:
        "Check the host name in the URL and the runner's DNS; a network that reaches out only through a proxy needs HTTPS_PROXY.",
    };
  }
  if (codes.includes('EAI_AGAIN')) {
    return {
      kind: 'dns',
      transient: true,
      code,
      summary: `the host name ${request.host.replace(/:\d+$/, '')} did not resolve: the runner's DNS failed for now (${code})`,
      advice:
        "Check the runner's DNS resolver: it kept failing to answer for this name, which may well exist.",
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
export function answeredByProxy(headers: Headers): boolean {
  return (
    header(headers, 'x-squid-error') !== undefined ||
    header(headers, 'proxy-status') !== undefined ||
    /^tinyproxy\//i.test(header(headers, 'server') ?? '')
  );
}

/**
 * A proxy's own refusal (a CONNECT answered with an error, or a 407 to a plain request).
 * A 401 from the proxy itself is a refusal of its credentials too: tinyproxy answers wrong
 * ones with 401, not 407.
 */
export function proxyRefusal(status: number, proxy: URL, host: string): NetworkFailure {
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
function credentialsAdvice(proxy: URL, withCredentials: boolean): string {
  const form = `${proxy.protocol === 'socks5:' ? 'socks5' : 'http'}://user:password@host:port`;
  return withCredentials
    ? `The proxy refused the user name and password in the proxy URL: correct them (${form}, percent-encoding special characters).`
    : `Put the proxy credentials in the proxy URL of the variable that names it (HTTPS_PROXY, HTTP_PROXY or ALL_PROXY): ${form} (percent-encode special characters; keep it in a secret).`;
}

/** What to do about a proxy whose rules refuse `host`. */
function accessRulesAdvice(host: string): string {
  return `The proxy's access rules do not allow ${host}: ask its administrators to allow it, or list the host in NO_PROXY if it is reachable directly.`;
}

/** The prefix of undici's codes for a SOCKS5 proxy's refusals and replies. */
const SOCKS5_ERROR = 'UND_ERR_SOCKS5';

/**
 * A SOCKS5 proxy's refusal, by undici's code: of the credentials (not transient, as with
 * an HTTP proxy's 407), of the target by its rules, or of a target it could not reach
 * (its reply codes 3 to 5: tried again, as a connection refused directly would be).
 */
function socksRefusal(code: string, message: string, proxy: URL, host: string): NetworkFailure {
  const name = describeProxy(proxy);
  const withCredentials = proxy.username !== '' || proxy.password !== '';
  const failure = { kind: 'proxy' as const, code };
  if (code === `${SOCKS5_ERROR}_AUTH_FAILED` || code === `${SOCKS5_ERROR}_AUTH_REJECTED`) {
    return {
      ...failure,
      transient: false,
      summary: `the proxy ${name} requires authentication (${code}: ${message})`,
      advice:
        withCredentials && code === `${SOCKS5_ERROR}_AUTH_REJECTED`
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
export function hostOf(url: URL): string {
  return url.port !== '' ? url.host : `${url.host}:${url.protocol === 'https:' ? 443 : 80}`;
}

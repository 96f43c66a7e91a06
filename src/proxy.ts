import { BlockList, isIP } from 'node:net';
import { Agent, Dispatcher, Pool, ProxyAgent } from 'undici';
import { ActionError } from './errors.js';

/**
 * Proxies as curl uses them: `http_proxy`/`HTTP_PROXY` for http targets, `https_proxy`/
 * `HTTPS_PROXY` for https ones, `ALL_PROXY` for both; plain-http targets are sent to the
 * proxy as absolute-form requests (no CONNECT, which proxies refuse for port 80 by
 * default); `NO_PROXY` takes host names (and their subdomains), host:port, IP addresses
 * with or without brackets, and CIDR ranges.
 */

export type ProxyEnvironment = Readonly<Record<string, string | undefined>>;

interface NoProxyRule {
  host?: string;
  addresses?: BlockList;
  port?: number;
}

export interface NoProxy {
  all: boolean;
  rules: NoProxyRule[];
}

const DEFAULT_PORT: Record<string, number> = { 'http:': 80, 'https:': 443 };

function firstSet(env: ProxyEnvironment, names: string[]): string | undefined {
  return firstSetVariable(env, names)?.value;
}

function firstSetVariable(
  env: ProxyEnvironment,
  names: string[],
): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

const PROXY_VARIABLES = {
  'https:': ['https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY'],
  'http:': ['http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY'],
} as const;

/** A proxy variable that names no usable proxy: going direct instead would hide the mistake. */
export class ProxySettingError extends ActionError {
  override name = 'ProxySettingError';
  readonly kind = 'proxy-setting';
  readonly variable: string;
  constructor(variable: string, why: string) {
    // The value is never shown: it may hold the proxy's password.
    super(
      `${variable} is not a proxy URL (${why}; value not shown). Write it as http://proxy.example.com:3128, with user:password@ before the host when the proxy asks for them (percent-encode special characters), or unset it.`,
    );
    this.variable = variable;
  }
}

/** An address or CIDR range as a BlockList, or undefined when it is neither. */
function addressRule(text: string): BlockList | undefined {
  const [address = '', prefix] = text.split('/');
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return undefined;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const list = new BlockList();
  if (prefix === undefined) {
    list.addAddress(bare, type);
    return list;
  }
  const bits = Number(prefix);
  if (!/^\d+$/.test(prefix) || bits > (family === 4 ? 32 : 128)) return undefined;
  list.addSubnet(bare, bits, type);
  return list;
}

/** Parses a NO_PROXY value (commas or whitespace between entries). */
export function parseNoProxy(value: string | undefined): NoProxy {
  const rules: NoProxyRule[] = [];
  let all = false;
  for (const raw of (value ?? '').split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
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
    const host = hostPort ? (hostPort[1] as string) : entry;
    const port = hostPort ? Number(hostPort[2]) : undefined;
    const addresses = addressRule(host);
    if (addresses) rules.push({ addresses, ...(port !== undefined ? { port } : {}) });
    else
      rules.push({
        host: host.replace(/^\*?\./, '').replace(/\.$/, ''),
        ...(port !== undefined ? { port } : {}),
      });
  }
  return { all, rules };
}

/** True when NO_PROXY says `url` is reached directly. */
export function bypassesProxy(url: URL, noProxy: NoProxy): boolean {
  if (noProxy.all) return true;
  // `docs.example.com.` (fully qualified) is the same host as `docs.example.com`.
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  const port = url.port !== '' ? Number(url.port) : DEFAULT_PORT[url.protocol];
  const family = isIP(host);
  return noProxy.rules.some((rule) => {
    if (rule.port !== undefined && rule.port !== port) return false;
    if (rule.addresses) {
      return family !== 0 && rule.addresses.check(host, family === 4 ? 'ipv4' : 'ipv6');
    }
    // A name never matches an address (`0.1` is no suffix of 127.0.0.1), as with curl.
    if (family !== 0) return false;
    const name = rule.host as string;
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
function parseProxyUrl(variable: { name: string; value: string }): URL {
  const { name, value } = variable;
  let proxy: URL;
  try {
    proxy = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    throw new ProxySettingError(name, 'it does not parse as a URL');
  }
  if (proxy.hostname === '') throw new ProxySettingError(name, 'it names no host');
  // Any other scheme fails each request with an argument error that reads like a network one.
  if (!PROXY_SCHEMES.has(proxy.protocol)) {
    throw new ProxySettingError(
      name,
      `its scheme ${proxy.protocol} is not one of http, https, socks5 (socks5h and socks4, or socks as curl reads it, are not supported)`,
    );
  }
  // An unencoded `/`, `?` or `#` in the password ends the host early: the rest, `@` and
  // real host included, is read as a path, and a piece of the password as the host, which
  // every message about the proxy would then print.
  const rest = `${proxy.pathname === '/' ? '' : proxy.pathname}${proxy.search}${proxy.hash}`;
  if (rest !== '') {
    throw new ProxySettingError(
      name,
      rest.includes('@')
        ? 'a /, ? or # comes before its last @, as when a user name or password holds /, @ or : not percent-encoded: write them %2F, %40, %3A'
        : 'it has a path, query or fragment after the host and port, which a proxy URL has not: in a user name or password, write / ? # as %2F %3F %23',
    );
  }
  try {
    decodeURIComponent(proxy.username);
    decodeURIComponent(proxy.password);
  } catch {
    throw new ProxySettingError(name, 'its user name or password holds a % that encodes nothing');
  }
  return proxy;
}

/**
 * Checks every proxy variable that would be used, so that a mistyped one stops the run
 * before its first request instead of being skipped.
 */
export function checkProxyEnvironment(env: ProxyEnvironment = process.env): void {
  for (const names of Object.values(PROXY_VARIABLES)) {
    const variable = firstSetVariable(env, [...names]);
    if (variable) parseProxyUrl(variable);
  }
}

/** The proxy the environment names for `url`, or undefined when it is reached directly. */
export function proxyFor(url: URL, env: ProxyEnvironment = process.env): URL | undefined {
  const variable = firstSetVariable(env, [
    ...PROXY_VARIABLES[url.protocol === 'https:' ? 'https:' : 'http:'],
  ]);
  if (variable === undefined) return undefined;
  if (bypassesProxy(url, parseNoProxy(firstSet(env, ['no_proxy', 'NO_PROXY'])))) return undefined;
  return parseProxyUrl(variable);
}

/** A proxy as it may be printed: scheme, host and port, never its credentials. */
export function describeProxy(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

/** The proxy answered a CONNECT with something other than 200: it refused the tunnel. */
export class ProxyTunnelRefused extends Error {
  override name = 'ProxyTunnelRefused';
  readonly code = 'ERR_PROXY_TUNNEL_REFUSED';
  readonly status: number;
  readonly proxy: URL;
  readonly target: string;
  constructor(options: { status: number; proxy: URL; target: string }) {
    super(
      `The proxy ${describeProxy(options.proxy)} answered HTTP ${options.status} to CONNECT ${options.target}`,
    );
    this.status = options.status;
    this.proxy = options.proxy;
    this.target = options.target;
  }
}

/** The code of a ProxyConnectionFailed, which wraps the failure's own. */
export const PROXY_CONNECTION_FAILED = 'ERR_PROXY_CONNECTION_FAILED';

/**
 * The connection to the proxy itself failed (its TLS, for an `https://` proxy), or it
 * closed or garbled its answer to CONNECT: the failure is the proxy's, whatever host the
 * request was for. Its code is its own, the failure's is in `cause`: undici takes a
 * connect error with its socket code (`UND_ERR_SOCKET`) for one worth reconnecting at
 * once, and a proxy that closes every CONNECT would be tried in a tight loop, forever.
 */
export class ProxyConnectionFailed extends Error {
  override name = 'ProxyConnectionFailed';
  readonly code = PROXY_CONNECTION_FAILED;
  readonly proxy: URL;
  constructor(proxy: URL, cause: unknown) {
    const { message } = (cause ?? {}) as { message?: unknown };
    super(typeof message === 'string' ? message : String(cause), { cause });
    this.proxy = proxy;
  }
}

function proxyAuthorization(proxy: URL): string | undefined {
  if (proxy.username === '' && proxy.password === '') return undefined;
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return `Basic ${Buffer.from(credentials).toString('base64')}`;
}

/** The proxy's URL without its user name and password, which go in a header of their own. */
function withoutCredentials(proxy: URL): string {
  const bare = new URL(proxy.href);
  bare.username = '';
  bare.password = '';
  return bare.href;
}

/** A dispatcher made of others: closing or destroying it does so to each of them. */
abstract class CompositeDispatcher extends Dispatcher {
  protected abstract parts(): Dispatcher[];

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const closing = Promise.all(this.parts().map((d) => d.close())).then(() => undefined);
    if (callback) void closing.then(callback);
    else return closing;
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(
    errOrCallback?: Error | null | (() => void),
    callback?: () => void,
  ): Promise<void> | void {
    const err = typeof errOrCallback === 'function' ? null : (errOrCallback ?? null);
    const done = typeof errOrCallback === 'function' ? errOrCallback : callback;
    const destroying = Promise.all(this.parts().map((d) => d.destroy(err))).then(() => undefined);
    if (done) void destroying.then(done);
    else return destroying;
  }
}

/**
 * Plain-http requests through a proxy, as curl sends them: the whole URL on the request
 * line (absolute form), to a connection with the proxy (over TLS to an https:// one). The
 * proxy's own answers (407, 403) come back as ordinary responses.
 */
class AbsoluteFormProxy extends CompositeDispatcher {
  readonly #pool: Pool;
  readonly #authorization: string | undefined;

  constructor(proxy: URL, options: Agent.Options) {
    super();
    this.#pool = new Pool(proxy.origin, options);
    this.#authorization = proxyAuthorization(proxy);
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) {
    const origin = String(options.origin ?? '');
    const headers = { ...(options.headers as Record<string, string> | undefined) };
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'host')) {
      headers.host = new URL(origin).host;
    }
    if (this.#authorization) headers['proxy-authorization'] = this.#authorization;
    return this.#pool.dispatch({ ...options, path: `${origin}${options.path}`, headers }, handler);
  }

  protected parts(): Dispatcher[] {
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
  (warning: Error) =>
    warning.name === 'ExperimentalWarning' &&
    warning.message.startsWith('SOCKS5 proxy support is experimental'),
  (warning: Error) => (warning as NodeJS.ErrnoException).code === 'DEP0123',
];
let proxyNoticesLeftOut = false;

function leaveOutProxyNotices(): void {
  if (proxyNoticesLeftOut) return;
  proxyNoticesLeftOut = true;
  const emit = process.emitWarning;
  process.emitWarning = function (this: unknown, ...args: unknown[]) {
    const [warning, second, code] = args as [
      string | Error,
      string | { type?: string; code?: string } | undefined,
      string | undefined,
    ];
    // Anything else, a wrong argument too, is Node's to print or refuse.
    const named =
      typeof warning === 'string'
        ? Object.assign(new Error(warning), {
            name: (typeof second === 'string' ? second : second?.type) || 'Warning',
            code: typeof second === 'string' ? code : second?.code,
          })
        : warning instanceof Error
          ? warning
          : undefined;
    if (named !== undefined && PROXY_NOTICES.some((isNotice) => isNotice(named))) return;
    Reflect.apply(emit, this, args);
  } as typeof emit;
}

/** A tunnelling proxy agent whose refused CONNECT fails with the proxy's status as data. */
function tunnellingAgent(proxy: URL, options: Agent.Options): ProxyAgent {
  const namedByAddress = isIP(proxy.hostname.replace(/^\[|\]$/g, '')) !== 0;
  if (proxy.protocol === 'socks5:' || (proxy.protocol === 'https:' && namedByAddress)) {
    leaveOutProxyNotices();
  }
  const authorization = proxyAuthorization(proxy);
  return new ProxyAgent({
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
    clientFactory: (origin: URL, clientOptions: object) => {
      const pool = new Pool(origin, clientOptions);
      const connect = pool.connect.bind(pool) as (
        o: Dispatcher.ConnectOptions,
      ) => Promise<Dispatcher.ConnectData>;
      return Object.assign(pool, {
        connect: async (connectOptions: Dispatcher.ConnectOptions) => {
          let data: Dispatcher.ConnectData;
          try {
            data = await connect(connectOptions);
          } catch (err) {
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
export class ProxyRoutes extends CompositeDispatcher {
  readonly #env: ProxyEnvironment;
  readonly #options: Agent.Options;
  readonly #direct: Agent;
  readonly #viaProxy = new Map<string, Dispatcher>();

  constructor(env: ProxyEnvironment = process.env, options: Agent.Options = {}) {
    super();
    checkProxyEnvironment(env);
    this.#env = { ...env };
    this.#options = options;
    this.#direct = new Agent(options);
  }

  /** The proxy a request to `url` goes through, if any. */
  proxyFor(url: URL): URL | undefined {
    return proxyFor(url, this.#env);
  }

  #route(url: URL): Dispatcher {
    const proxy = this.proxyFor(url);
    if (proxy === undefined) return this.#direct;
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

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) {
    return this.#route(new URL(String(options.origin))).dispatch(options, handler);
  }

  protected parts(): Dispatcher[] {
    return [this.#direct, ...this.#viaProxy.values()];
  }
}

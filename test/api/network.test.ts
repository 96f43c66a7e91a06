import net, { type AddressInfo } from 'node:net';
import { errors, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/clock.js';
import { classifyNetworkError, ServerTime } from '../../src/http.js';
import {
  bypassesProxy,
  checkProxyEnvironment,
  parseNoProxy,
  ProxyConnectionFailed,
  proxyFor,
  ProxyRoutes,
  ProxySettingError,
  ProxyTunnelRefused,
} from '../../src/proxy.js';
import { RATE_LIMITED, type RetryEvent, RetrySchedule } from '../../src/retry.js';

/** A clock whose sleeps pass at once and are recorded. */
function fakeClock(start = Date.UTC(2026, 0, 15, 12, 0, 0)) {
  let t = start;
  const sleeps: number[] = [];
  const clock: Clock = {
    now: () => t,
    async sleep(ms) {
      sleeps.push(ms);
      t += ms;
    },
  };
  return { clock, sleeps, advance: (ms: number) => (t += ms) };
}

describe('NO_PROXY, as curl reads it', () => {
  const bypass = (noProxy: string, url: string) =>
    bypassesProxy(new URL(url), parseNoProxy(noProxy));

  it.each([
    ['::1', 'http://[::1]:8080/x', true],
    ['[::1]', 'http://[::1]:8080/x', true],
    ['0:0:0:0:0:0:0:1', 'http://[::1]/', true],
    ['127.0.0.0/8', 'http://127.4.5.6:9000/', true],
    ['127.0.0.0/8', 'http://128.0.0.1/', false],
    ['10.0.0.0/8,192.168.0.0/16', 'https://192.168.1.20/', true],
    ['fd00::/8', 'https://[fd12::1]/', true],
    ['::1/128', 'http://[::2]/', false],
    ['example.com', 'https://docs.example.com/', true],
    ['.example.com', 'https://docs.example.com/', true],
    ['*.example.com', 'https://example.com/', true],
    ['example.com', 'https://notexample.com/', false],
    // A fully qualified name, as curl reads it.
    ['example.com', 'https://docs.example.com./', true],
    ['docs.example.com', 'https://docs.example.com./', true],
    ['127.0.0.1:4010', 'http://127.0.0.1:4010/', true],
    ['127.0.0.1:4010', 'http://127.0.0.1:4011/', false],
    ['[::1]:4010', 'http://[::1]:4010/', true],
    ['*', 'https://anything.example/', true],
    ['  localhost , 127.0.0.1 ', 'http://127.0.0.1/', true],
    ['', 'http://127.0.0.1/', false],
    ['127.0.0.1', 'http://localhost/', false],
    // Names are not matched against addresses, as curl reads them.
    ['0.1', 'http://127.0.0.1/', false],
    ['.0.0.1', 'http://127.0.0.1/', false],
    ['1', 'http://[::1]/', false],
  ])('NO_PROXY=%j applies to %s: %s', (noProxy, url, expected) => {
    expect(bypass(noProxy, url)).toBe(expected);
  });

  it('http targets use http_proxy, https ones https_proxy, ALL_PROXY both; a missing scheme means http', () => {
    const env = { http_proxy: 'proxy.local:3128', HTTPS_PROXY: 'http://secure.local:8443' };
    expect(proxyFor(new URL('http://127.0.0.1/'), env)?.href).toBe('http://proxy.local:3128/');
    expect(proxyFor(new URL('https://api.example.com/'), env)?.href).toBe(
      'http://secure.local:8443/',
    );
    expect(
      proxyFor(new URL('https://api.example.com/'), { HTTP_PROXY: 'http://p:1' }),
    ).toBeUndefined();
    expect(proxyFor(new URL('https://api.example.com/'), { ALL_PROXY: 'http://p:1' })?.host).toBe(
      'p:1',
    );
    expect(
      proxyFor(new URL('http://[::1]:4010/'), { HTTP_PROXY: 'http://p:1', NO_PROXY: '::1' }),
    ).toBeUndefined();
  });
});

describe('proxy schemes', () => {
  it.each([
    'socks5h://127.0.0.1:1080',
    'socks4://127.0.0.1:1080',
    // curl speaks SOCKS4 to socks://; undici would speak SOCKS5.
    'socks://127.0.0.1:1080',
    'ftp://proxy.local:21',
  ])(
    'ALL_PROXY=%s, a scheme no request can go through, stops the run before its first request',
    (value) => {
      expect(() => checkProxyEnvironment({ ALL_PROXY: value })).toThrow(ProxySettingError);
      expect(() => checkProxyEnvironment({ ALL_PROXY: value })).toThrow(
        /ALL_PROXY is not a proxy URL \(its scheme [a-z0-9]+: is not one of http, https, socks5/,
      );
    },
  );

  it.each(['http://p:3128', 'https://p:443', 'socks5://p:1080', 'p:3128'])(
    'ALL_PROXY=%s is accepted',
    (value) => {
      expect(() => checkProxyEnvironment({ ALL_PROXY: value })).not.toThrow();
    },
  );
});

describe('proxy URLs whose credentials are not percent-encoded', () => {
  it.each([
    [
      'an @ and a / in the password',
      'http://bob:Xy7@Kq9vZr/Tw2@proxy.corp.example:3128',
      /%2F, %40, %3A/,
    ],
    [
      'a port-like password and a /',
      'http://bob:1234/Kq9vZr@proxy.corp.example:3128',
      /%2F, %40, %3A/,
    ],
    ['a ? in the password', 'http://bob:1234?Kq9vZr@proxy.corp.example:3128', /%2F, %40, %3A/],
    ['a # in the password', 'http://bob:1234#Kq9vZr@proxy.corp.example:3128', /%2F, %40, %3A/],
    ['a path', 'http://proxy.corp.example:3128/Kq9vZr', /path, query or fragment/],
  ])('%s: refused before any request, without showing the value', (_, value, why) => {
    const refusal = (() => {
      try {
        checkProxyEnvironment({ HTTPS_PROXY: value });
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(ProxySettingError);
    const message = (refusal as Error).message;
    expect(message).toMatch(/^HTTPS_PROXY is not a proxy URL \(/);
    expect(message).toMatch(why);
    for (const piece of ['bob', 'Xy7', 'kq9vzr', 'Tw2', '1234']) {
      expect(message.toLowerCase()).not.toContain(piece.toLowerCase());
    }
    expect(() => proxyFor(new URL('https://api.example.test/'), { HTTPS_PROXY: value })).toThrow(
      ProxySettingError,
    );
  });

  it.each([
    'http://proxy.corp.example:3128/',
    'http://bob:Xy7%40Kq9vZr%2FTw2@proxy.corp.example:3128',
    'http://bob:Xy7@Kq9vZr@proxy.corp.example:3128',
    'socks5://bob:Xy7%40Kq9@proxy.corp.example:1080',
  ])('%s is accepted, its host the proxy', (value) => {
    expect(proxyFor(new URL('https://api.example.test/'), { HTTPS_PROXY: value })?.hostname).toBe(
      'proxy.corp.example',
    );
  });
});

describe('network failures are classified by their codes', () => {
  const host = 'api.example.com:443';
  const error = (code: string, cause?: object) => Object.assign(new Error('x'), { code, cause });

  it.each([
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'tls', /NODE_EXTRA_CA_CERTS/],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'tls', /NODE_EXTRA_CA_CERTS/],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls', /NODE_EXTRA_CA_CERTS/],
    ['CERT_HAS_EXPIRED', 'tls', /clock/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls', /host name/],
    ['ENOTFOUND', 'dns', /DNS/],
  ])('%s is a %s failure, not worth another try, with advice', (code, kind, advice) => {
    const failure = classifyNetworkError(error(code), { host });
    expect(failure).toMatchObject({ kind, transient: false, code });
    expect(failure.advice).toMatch(advice);
  });

  it.each(['ECONNRESET', 'UND_ERR_SOCKET', 'EAI_AGAIN', 'UND_ERR_HEADERS_TIMEOUT', 'ECONNREFUSED'])(
    '%s is worth another try',
    (code) => {
      expect(classifyNetworkError(error(code), { host }).transient).toBe(true);
    },
  );

  it('a code wrapped in a cause (as fetch and some undici errors do) is found', () => {
    const failure = classifyNetworkError(
      error('UND_ERR_SOCKET', error('SELF_SIGNED_CERT_IN_CHAIN')),
      {
        host,
      },
    );
    expect(failure.kind).toBe('tls');
  });

  it('with a proxy, a refused connection names the proxy (without its password) and is not retried', () => {
    const proxy = new URL('http://user:s3cret@127.0.0.1:3999');
    const failure = classifyNetworkError(error('ECONNREFUSED'), { host, proxy });
    expect(failure).toMatchObject({ kind: 'proxy', transient: false });
    expect(failure.summary).toContain('the proxy http://127.0.0.1:3999 refused the connection');
    expect(JSON.stringify(failure)).not.toContain('s3cret');
  });

  it.each([
    [407, false, /credentials in the proxy URL/],
    [403, false, /access rules/],
    [502, true, undefined],
  ])('a proxy refusing a tunnel with %i: transient %s', (status, transient, advice) => {
    const proxy = new URL('http://127.0.0.1:3128');
    const failure = classifyNetworkError(
      new ProxyTunnelRefused({ status, proxy, target: 'api.example.com:443' }),
      { host, proxy },
    );
    expect(failure).toMatchObject({ kind: 'proxy', transient, status });
    if (advice) expect(failure.advice).toMatch(advice);
  });
});

describe("whose TLS failed: the server's or an https:// proxy's", () => {
  const host = 'storage.example.com:443';
  const untrusted = () =>
    Object.assign(new Error('unable to verify the first certificate'), {
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });

  it('a plain-http request through an http:// proxy (redirected to https) names the server, as no TLS reached the proxy', () => {
    const proxy = new URL('http://127.0.0.1:3128');
    const failure = classifyNetworkError(untrusted(), { host, proxy, plainHttp: true });
    expect(failure.summary).toContain(`the TLS certificate of ${host}`);
    expect(failure.summary).not.toContain('proxy');
  });

  it('a plain-http request through an https:// proxy names the proxy', () => {
    const proxy = new URL('https://127.0.0.1:3129');
    const failure = classifyNetworkError(untrusted(), { host, proxy, plainHttp: true });
    expect(failure.summary).toContain('the TLS certificate of the proxy https://127.0.0.1:3129');
  });

  it("the connection to the proxy failing, however undici wraps it, names the proxy with the failure's own words", () => {
    const proxy = new URL('https://127.0.0.1:3129');
    const altname = Object.assign(new Error("Hostname/IP does not match certificate's altnames"), {
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
    const wrapped = new ProxyConnectionFailed(proxy, altname);
    expect(wrapped.cause).toBe(altname);
    // undici turns such an error into its own, with the error as its cause.
    const byUndici = Object.assign(new Error('Secure Proxy Connection failed'), {
      code: 'UND_ERR_PRX_TLS',
      cause: wrapped,
    });
    for (const err of [wrapped, byUndici]) {
      const failure = classifyNetworkError(err, { host, proxy });
      expect(failure.summary).toContain('the TLS handshake with the proxy https://127.0.0.1:3129');
    }
    expect(classifyNetworkError(wrapped, { host, proxy }).summary).toContain('does not match');
  });
});

describe('a proxy that does not answer CONNECT', () => {
  const host = 'api.example.com:443';
  const proxy = new URL('http://user:s3cret@127.0.0.1:3128');
  const closed = () =>
    new ProxyConnectionFailed(
      proxy,
      Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    );

  it("has a code of its own, not the socket's that undici reconnects on at once", () => {
    const err = closed();
    expect(err.code).toBe('ERR_PROXY_CONNECTION_FAILED');
    expect((err.cause as { code: string }).code).toBe('UND_ERR_SOCKET');
  });

  it('closing the connection names the proxy and its scheme and port, and is not retried', () => {
    const failure = classifyNetworkError(closed(), { host, proxy });
    expect(failure).toMatchObject({ kind: 'proxy', transient: false, code: 'UND_ERR_SOCKET' });
    expect(failure.summary).toBe(
      'the proxy http://127.0.0.1:3128 closed the connection without answering CONNECT (UND_ERR_SOCKET)',
    );
    expect(failure.advice).toMatch(/scheme and port .*https:\/\/.*socks5:\/\//);
    expect(JSON.stringify(failure)).not.toContain('s3cret');
  });

  it.each([
    [
      'an undici parse error',
      new errors.HTTPParserError(
        'Response does not match the HTTP/1.1 protocol (Expected HTTP/, RTSP/ or ICE/)',
      ),
    ],
    [
      'an HPE_ code',
      Object.assign(new Error('Invalid constant'), { code: 'HPE_INVALID_CONSTANT' }),
    ],
  ])(
    'an answer that is not HTTP (%s) says so, asks whether it is SOCKS or TLS, and is not retried',
    (_, parse) => {
      const failure = classifyNetworkError(new ProxyConnectionFailed(proxy, parse), {
        host,
        proxy,
      });
      expect(failure).toMatchObject({ kind: 'proxy', transient: false });
      expect(failure.summary).toBe(
        `the proxy http://127.0.0.1:3128 did not answer CONNECT as an HTTP proxy does (${parse.message})`,
      );
      expect(failure.advice).toMatch(
        /^Is it a SOCKS proxy, or TLS on this port\? .*scheme and port/,
      );
    },
  );

  it("a server's answer that is not HTTP, with no proxy, is not blamed on one", () => {
    const parse = new errors.HTTPParserError('Response does not match the HTTP/1.1 protocol');
    expect(classifyNetworkError(parse, { host }).summary).not.toContain('proxy');
  });

  it('a server closing a direct connection is still a broken connection, tried again', () => {
    const err = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    expect(classifyNetworkError(err, { host })).toMatchObject({ kind: 'broken', transient: true });
  });
});

describe('proxy credentials, as curl sends them', () => {
  // A proxy that records each request's head and answers 407: no tunnel is ever opened.
  const heads: string[] = [];
  let port = 0;
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    let received = '';
    socket.on('data', (data) => {
      received += data.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      heads.push(received.slice(0, end));
      socket.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic realm="p"\r\ncontent-length: 0\r\n\r\n',
      );
    });
  });
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
  beforeAll(() => {
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** The Proxy-Authorization a request to `target` sent through the proxy at `userinfo@`. */
  async function sent(userinfo: string, target: string): Promise<string | undefined> {
    heads.length = 0;
    const proxy = `http://${userinfo}127.0.0.1:${port}`;
    const routes = new ProxyRoutes({ HTTPS_PROXY: proxy, HTTP_PROXY: proxy });
    try {
      await request(target, { dispatcher: routes }).then(
        (answer) => answer.body.dump(),
        () => undefined,
      );
    } finally {
      await routes.destroy();
    }
    expect(heads).toHaveLength(1);
    const line = /^proxy-authorization: *(.*)$/im.exec(heads[0] as string);
    return line?.[1];
  }

  const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;
  it.each([
    ['a user name alone (a token)', 'tok3n@', basic('tok3n:')],
    ['a password alone', ':s3cret@', basic(':s3cret')],
    ['both, percent-encoded', 'u%40corp:p%3Ass%20w@', basic('u@corp:p:ss w')],
    ['none', '', undefined],
  ])('%s: the same header on CONNECT as in absolute form', async (_, userinfo, expected) => {
    expect(await sent(userinfo, 'https://api.example.test/x')).toBe(expected);
    expect(heads[0]).toMatch(/^CONNECT api\.example\.test:443 /);
    expect(await sent(userinfo, 'http://localhost:9/x')).toBe(expected);
    expect(heads[0]).toMatch(/^GET http:\/\/localhost:9\/x /);
  });

  it('a 407 to a user name alone blames the credentials in the URL, which were sent', () => {
    const proxy = new URL('http://tok3n@127.0.0.1:3128');
    const failure = classifyNetworkError(
      new ProxyTunnelRefused({ status: 407, proxy, target: 'api.example.test:443' }),
      { host: 'api.example.test:443', proxy },
    );
    expect(failure.advice).toMatch(/refused the user name and password in the proxy URL/);
    expect(JSON.stringify(failure)).not.toContain('tok3n');
  });
});

describe('the server clock', () => {
  it('a runner clock 20 minutes ahead still tries a link the server considers valid', () => {
    const { clock } = fakeClock();
    const time = new ServerTime(clock);
    const expiresAt = new Date(clock.now() - 10 * 60_000);
    expect(time.mayBeBefore(expiresAt)).toBe(false);
    time.observe({ date: new Date(clock.now() - 20 * 60_000).toUTCString() });
    expect(time.mayBeBefore(expiresAt)).toBe(true);
    expect(time.describeSkew('the storage')).toBe(
      "the runner's clock is 20m 00s ahead of the storage's (from its Date header)",
    );
  });

  it('a link expired by both clocks is known to be expired', () => {
    const { clock } = fakeClock();
    const time = new ServerTime(clock);
    time.observe({ date: new Date(clock.now()).toUTCString() });
    expect(time.mayBeBefore(new Date(clock.now() - 60_000))).toBe(false);
    expect(time.describeSkew('the API')).toBeUndefined();
  });
});

describe('the retry schedule', () => {
  it('gives a run of failures five minutes, then says so; progress starts a new run', async () => {
    const { clock, sleeps } = fakeClock();
    const schedule = new RetrySchedule({ clock, random: () => 0.5 });
    let stop;
    while ((stop = await schedule.failed({ reason: 'HTTP 502' })) === undefined);
    expect(stop).toMatchObject({ why: 'outage', attempts: sleeps.length + 1 });
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(300_000);
    schedule.succeeded();
    expect(await schedule.failed({ reason: 'HTTP 502' })).toBeUndefined();
    expect(sleeps.at(-1)).toBe(250);
  });

  it('never waits past the deadline, and a Retry-After beyond it ends the run at once', async () => {
    const { clock, sleeps } = fakeClock();
    const deadline = clock.now() + 3000;
    const schedule = new RetrySchedule({ clock, random: () => 0.99, deadline: () => deadline });
    expect(await schedule.failed({ reason: 'x', retryAfterMs: 5000 })).toMatchObject({
      why: 'deadline',
      retryAfterMs: 5000,
    });
    expect(sleeps).toEqual([]);
    while ((await schedule.failed({ reason: 'x' })) === undefined);
    expect(clock.now()).toBeLessThanOrEqual(deadline - 250);
  });

  it('a rate limit without Retry-After: a second plus a jittered backoff, capped, each wait announced', async () => {
    const { clock, sleeps } = fakeClock();
    const deadline = clock.now() + 3_600_000;
    let draw = 0;
    // Spread over [0, 1): the same failure count never waits the same in two runs.
    const random = () => ((draw += 0.618034) % 1) as number;
    const events: RetryEvent[] = [];
    const schedule = new RetrySchedule({
      clock,
      random,
      deadline: () => deadline,
      onRetry: (event) => events.push(event),
    });
    for (let i = 0; i < 40; i += 1) {
      expect(await schedule.failed({ reason: 'HTTP 429', ...RATE_LIMITED })).toBeUndefined();
    }
    expect(Math.min(...sleeps)).toBeGreaterThanOrEqual(1050);
    expect(Math.max(...sleeps)).toBeLessThanOrEqual(16_000);
    // Past the first doublings, the waits are spread, not one fixed value.
    expect(new Set(sleeps.slice(10)).size).toBeGreaterThan(20);
    expect(events.map((e) => e.delayMs)).toEqual(sleeps);
    expect(events.every((e) => JSON.stringify(e.rateLimit) === '{"capMs":16000}')).toBe(true);
    await schedule.failed({ reason: 'HTTP 429', retryAfterMs: 30_000, ...RATE_LIMITED });
    expect(events.at(-1)?.rateLimit).toEqual({ askedMs: 30_000 });
  });

  it('a rate limit is waited out past the outage budget, until the deadline', async () => {
    const { clock } = fakeClock();
    const start = clock.now();
    const deadline = start + 3_600_000;
    const schedule = new RetrySchedule({ clock, random: () => 0.5, deadline: () => deadline });
    let stop;
    while ((stop = await schedule.failed({ reason: '429', untilDeadline: true })) === undefined);
    expect(stop.why).toBe('deadline');
    expect(clock.now() - start).toBeGreaterThan(3_500_000);
  });
});

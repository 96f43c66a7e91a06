import { createServer, ServerResponse, STATUS_CODES } from 'node:http';
import type { IncomingMessage, OutgoingHttpHeaders, Server } from 'node:http';
import type { FaultQueue } from './faults.js';
import { answersInstead, PROXY_HTML_502 } from './faults.js';
import type { EmulatorClock, FaultRule, RecordedRequest, RecordedRoute } from './types.js';

/** One request on either server, with its record in `requests` and the fault it drew. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  record: RecordedRequest;
  fault: Readonly<FaultRule> | undefined;
}

/** What both servers share: the clock, the fault queue, the request log and pending sleeps. */
export interface ServerContext {
  clock: EmulatorClock;
  faults: FaultQueue;
  requests: RecordedRequest[];
  log: ((line: string) => void) | false;
  scrub: (text: string) => string;
  sleep: (realMs: number) => Promise<void>;
}

export interface ExchangeServerSpec {
  server: RecordedRequest['server'];
  routeOf: (method: string, path: string) => RecordedRoute;
  handle: (ex: Exchange) => Promise<void>;
  /** Answers a fault rule that replaces the response (status / body / echoAuthorization). */
  answerFault: (ex: Exchange, rule: Readonly<FaultRule>) => void;
  /** Requests it returns true for are handled there and never recorded (control endpoints). */
  intercept?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;
}

/** An HTTP server that records, logs and applies the generic faults to every request. */
export function createExchangeServer(ctx: ServerContext, spec: ExchangeServerSpec): Server {
  return createServer((req, res) => {
    void serveExchange(ctx, spec, req, res);
  });
}

async function serveExchange(
  ctx: ServerContext,
  spec: ExchangeServerSpec,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  // A real server's Date header reads its own clock: clients estimate clock skew from it.
  res.setHeader('date', new Date(ctx.clock.now()).toUTCString());
  if (spec.intercept !== undefined && (await spec.intercept(req, res, url))) return;
  const method = req.method ?? 'GET';
  const route = spec.routeOf(method, url.pathname);
  const fault = ctx.faults.take(route);
  const record: RecordedRequest = {
    server: spec.server,
    method,
    path: ctx.scrub(url.pathname),
    route,
    status: 0,
    hasAuthorization: req.headers.authorization !== undefined,
    at: ctx.clock.now(),
    faulted: fault !== undefined,
  };
  ctx.requests.push(record);
  const ex: Exchange = { req, res, url, record, fault };
  logWhenClosed(ctx, ex);
  try {
    if (fault?.latencyMs !== undefined) await ctx.sleep(fault.latencyMs);
    if (res.destroyed) return;
    if (fault?.reset === true) {
      req.socket.destroy();
      return;
    }
    if (fault !== undefined && answersInstead(fault)) {
      // The server acts on the request; only its answer is lost on the way back.
      if (fault.handledFirst === true) await spec.handle({ ...ex, res: new ServerResponse(req) });
      spec.answerFault(ex, fault);
      return;
    }
    await spec.handle(ex);
  } catch (error) {
    if (ctx.log) ctx.log(ctx.scrub(`[emulator] internal error: ${String(error)}`));
    if (res.headersSent) res.destroy();
    else sendText(ex, 500, 'application/json', JSON.stringify({ error: 'Internal error' }));
  }
}

function logWhenClosed(ctx: ServerContext, ex: Exchange): void {
  const started = performance.now();
  ex.res.on('close', () => {
    if (!ctx.log) return;
    const { record } = ex;
    const where = record.server === 'store' ? 'store ' : '';
    const status = record.status === 0 ? 'no-response' : String(record.status);
    const ms = Math.round(performance.now() - started);
    const fault = record.faulted ? ` fault(${describeFault(ex.fault)})` : '';
    ctx.log(
      ctx.scrub(`[emulator] ${where}${record.method} ${record.path} ${status} ${ms}ms${fault}`),
    );
  });
}

const describeFault = (rule: Readonly<FaultRule> | undefined): string =>
  Object.keys(rule ?? {})
    .filter((k) => k !== 'route' && k !== 'times')
    .join(',');

/** writeHead that also records the status for `requests`. */
export function writeHead(ex: Exchange, status: number, headers: OutgoingHttpHeaders): void {
  ex.record.status = status;
  ex.res.writeHead(status, headers);
}

export function sendText(
  ex: Exchange,
  status: number,
  contentType: string,
  body: string,
  headers: OutgoingHttpHeaders = {},
): void {
  const bytes = Buffer.from(body, 'utf8');
  writeHead(ex, status, {
    'content-type': contentType,
    'content-length': bytes.length,
    ...headers,
  });
  ex.res.end(bytes);
}

export const sendJson = (
  ex: Exchange,
  status: number,
  body: unknown,
  headers: OutgoingHttpHeaders = {},
): void => sendText(ex, status, 'application/json', JSON.stringify(body), headers);

/** Every API error body is {"error": string}. */
export const sendError = (
  ex: Exchange,
  status: number,
  error: string,
  headers: OutgoingHttpHeaders = {},
): void => sendJson(ex, status, { error }, headers);

/** The body of a fault rule for the API: JSON by default, a proxy page, or verbatim text. */
export function apiFaultAnswer(ex: Exchange, rule: Readonly<FaultRule>): void {
  const status = faultStatus(rule);
  const headers: OutgoingHttpHeaders = {};
  if (rule.retryAfter !== undefined) headers['retry-after'] = rule.retryAfter;
  const echoed = rule.echoAuthorization === true ? echoedAuthorization(ex) : '';
  if (rule.body === 'html') {
    sendText(ex, status, 'text/html', proxyPage(status, echoed), headers);
  } else if (rule.body === undefined || rule.body === 'json') {
    const reason = STATUS_CODES[status] ?? 'Error';
    const error = echoed === '' ? `${reason} (emulated fault)` : `${reason}: ${echoed}`;
    sendError(ex, status, error, headers);
  } else {
    const type = looksLikeJson(rule.body) ? 'application/json' : 'text/plain';
    sendText(ex, status, type, rule.body + (echoed === '' ? '' : `\n${echoed}`), headers);
  }
}

export const faultStatus = (rule: Readonly<FaultRule>): number =>
  rule.status ?? (rule.echoAuthorization === true ? 401 : 502);

/** The one place a key may appear: on the wire, when a test asks for it. Never logged. */
export const echoedAuthorization = (ex: Exchange): string =>
  `rejected request with Authorization: ${ex.req.headers.authorization ?? '(none)'}`;

export function proxyPage(status: number, extra = ''): string {
  if (status === 502 && extra === '') return PROXY_HTML_502;
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  const note = extra === '' ? '' : `<p>${extra}</p>\r\n`;
  return (
    `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n` +
    `<center><h1>${title}</h1></center>\r\n${note}<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`
  );
}

const looksLikeJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const MAX_BODY_BYTES = 1024 * 1024;

export type JsonBody = { ok: true; value: unknown } | { ok: false; status: number; error: string };

/** Reads and parses a JSON request body (at most 1 MiB). */
export async function readJsonBody(req: IncomingMessage): Promise<JsonBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Read to the end even past the limit: leaving the loop early destroys the request and
  // with it the kept-alive socket, which the client then reuses and finds reset.
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  if (size > MAX_BODY_BYTES) return { ok: false, status: 413, error: 'Request body too large' };
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return { ok: false, status: 400, error: 'Request body must be JSON' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, status: 400, error: 'Request body is not valid JSON' };
  }
}

/**
 * An API request's JSON body: the vendor describes each body as `application/json`, so a
 * body sent as another type (a form, `text/plain`) is refused before it is read.
 */
export async function readApiJsonBody(req: IncomingMessage): Promise<JsonBody> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'application/json' && !/^application\/[\w.+-]+\+json$/.test(type)) {
    return {
      ok: false,
      status: 400,
      error: `Request body must be sent as application/json (got ${type || 'no Content-Type'})`,
    };
  }
  return readJsonBody(req);
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** decodeURIComponent that leaves malformed escapes as they are. */
export const safeDecode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

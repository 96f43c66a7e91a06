import { ActionError } from '../errors.js';
import { errorBodySchema } from './schemas.js';

export type ApiErrorKind =
  | 'bad-request'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'rate-limited'
  | 'server'
  | 'redirect'
  | 'network'
  | 'tls'
  | 'proxy'
  | 'dns'
  | 'timeout'
  | 'invalid-response'
  | 'unexpected';

export interface ApiErrorOptions {
  kind: ApiErrorKind;
  status?: number;
  /** The server's own words (`error` field or a summary of the body), redacted. */
  detail?: string;
  /** Delay the server asked for with Retry-After, in ms. */
  retryAfterMs?: number;
  /** Worth another try, for network failures (statuses are judged by the call's policy). */
  transient?: boolean;
  /** The undici or system code of a network failure (`ECONNREFUSED`). */
  code?: string;
  /** The body is the API's own error answer (`{ "error": string }`), not a proxy's page. */
  fromApi?: boolean;
  cause?: unknown;
}

/** A request to the admin API that did not succeed; the message says what to do. */
export class ApiError extends ActionError {
  override name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly detail: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly transient: boolean;
  readonly code: string | undefined;
  readonly fromApi: boolean;

  constructor(message: string, options: ApiErrorOptions) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.kind = options.kind;
    this.status = options.status;
    this.detail = options.detail;
    this.retryAfterMs = options.retryAfterMs;
    this.transient = options.transient ?? false;
    this.code = options.code;
    this.fromApi = options.fromApi ?? false;
  }

  /** The same failure told differently (more advice, the attempts made). */
  withMessage(message: string): ApiError {
    return new ApiError(message, {
      kind: this.kind,
      transient: this.transient,
      ...(this.status !== undefined ? { status: this.status } : {}),
      ...(this.detail !== undefined ? { detail: this.detail } : {}),
      ...(this.retryAfterMs !== undefined ? { retryAfterMs: this.retryAfterMs } : {}),
      ...(this.code !== undefined ? { code: this.code } : {}),
      fromApi: this.fromApi,
      cause: this,
    });
  }
}

/** The same API error with advice for this call appended. */
export function withAdvice(error: ApiError, advice: string): ApiError {
  return error.withMessage(`${error.message} ${advice}`);
}

export function kindOfStatus(status: number): ApiErrorKind {
  if (status === 400 || status === 422) return 'bad-request';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'not-found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate-limited';
  if (status === 408 || status >= 500) return 'server';
  return 'unexpected';
}

const CHECK_BASE_URL = 'Check `base-url` (it must point at the admin API of your organization)';

/** The advice on a 404 from a call that names no job: what else it names to check. */
export function notFoundAdvice(what?: string): string {
  return what === undefined ? `${CHECK_BASE_URL}.` : `${CHECK_BASE_URL} and ${what}.`;
}

/** The advice on a 403 from an agent call: static export's plan does not apply there. */
export const AGENT_FORBIDDEN =
  "The key lacks the scope for this call (write scope for anything but reads), or the runner's IP is outside the key's allow-list.";

/** What the user should do about each kind of refusal, after the server's own words. */
const ADVICE: Partial<Record<ApiErrorKind, string>> = {
  unauthorized:
    "The key is missing, mistyped or expired: set `api-key` to a current admin API key (mint_…) from the dashboard's API keys page.",
  forbidden:
    "The key lacks the scope for this call (write scope for anything but reads), the runner's IP is outside the key's allow-list, or static export is not enabled for the organization (Enterprise plan).",
  'not-found': `${CHECK_BASE_URL} and that the job exists there; jobs are not shared across organizations.`,
  conflict:
    'The job is not in a state that allows this yet (still running, or another export is active): wait for it to finish and run again.',
  'rate-limited': 'The service is rate limiting these requests; try again later.',
  server: 'The service or a proxy in front of it is failing; try again later.',
};

/** Whether `body` is the API's own error answer, `{ "error": string }` (extra fields aside). */
export function isApiErrorBody(body: string): boolean {
  try {
    return errorBodySchema.safeParse(JSON.parse(body)).success;
  } catch {
    return false;
  }
}

/**
 * The summary of an error body: the `error` field of a JSON body, the title of an HTML
 * page (proxies answer 502/503/504 with those), or the first line of plain text.
 */
export function summarizeBody(body: string, contentType: string | undefined): string {
  const trimmed = body.trim();
  if (trimmed === '') return '';
  if (contentType?.includes('json') || trimmed.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (parsed && typeof parsed === 'object') {
        const record = parsed as Record<string, unknown>;
        for (const key of ['error', 'message', 'detail']) {
          const value = record[key];
          if (typeof value === 'string') return oneLine(value);
          if (
            value &&
            typeof value === 'object' &&
            typeof (value as { message?: unknown }).message === 'string'
          ) {
            return oneLine((value as { message: string }).message);
          }
        }
      }
    } catch {
      // fall through: not JSON after all
    }
  }
  if (contentType?.includes('html') || /^<(!doctype|html|head|body)/i.test(trimmed)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(trimmed)?.[1]?.trim();
    return title ? `an HTML page titled "${oneLine(title)}"` : 'an HTML page';
  }
  if (
    contentType?.includes('xml') ||
    trimmed.startsWith('<?xml') ||
    trimmed.startsWith('<Error>')
  ) {
    const code = /<Code>([^<]*)<\/Code>/.exec(trimmed)?.[1];
    const message = /<Message>([^<]*)<\/Message>/.exec(trimmed)?.[1];
    if (code || message) return oneLine([code, message].filter(Boolean).join(': '));
  }
  return oneLine(trimmed);
}

/** Server text on one log line: control characters (escapes, NUL) become spaces too. */
function oneLine(text: string, max = 300): string {
  const line = text.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * What an input sent in a request body must be, for a 400 whose words name none: the
 * vendor documents a start's 400 as a domain that is not a reachable hostname or paths
 * that are not page paths, and a prompt of at least one character.
 */
const WHAT_IT_MUST_BE: Readonly<Record<string, string>> = {
  domain: 'the bare hostname the docs are served at, such as docs.example.com',
  'docs-version': 'when set, a version the site publishes',
  'export-paths': 'when set, page paths such as guides/intro',
  prompt: 'an instruction of at least one character',
};

/** The advice on a 400 whose words name none of the call's inputs: all of them to check. */
function checkEveryInput(inputs: readonly string[]): string | undefined {
  if (inputs.length === 0) return undefined;
  const named = inputs.map((input) =>
    WHAT_IT_MUST_BE[input] ? `\`${input}\` (${WHAT_IT_MUST_BE[input]})` : `\`${input}\``,
  );
  const list =
    named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  return `The service does not say which input it refuses: check ${list}.`;
}

/**
 * A message that names the call, the status, the server's words and the fix. For a 400,
 * `inputs` maps the request's fields to the inputs they came from: the advice names the
 * inputs the server's words mention, and all of them when they mention none. `notFound`
 * replaces the advice on a 404 for a call that names no job, `forbidden` the one on a 403.
 */
export function describeStatus(
  operation: string,
  status: number,
  detail: string,
  inputs: Readonly<Record<string, string>> = {},
  notFound?: string,
  forbidden?: string,
): string {
  const kind = kindOfStatus(status);
  const words = detail ? `: ${detail}` : '';
  let advice =
    kind === 'not-found'
      ? (notFound ?? ADVICE[kind])
      : kind === 'forbidden'
        ? (forbidden ?? ADVICE[kind])
        : ADVICE[kind];
  if (kind === 'bad-request') {
    const named = Object.entries(inputs)
      .filter(([field]) => new RegExp(`\\b${field}\\b`, 'i').test(detail))
      .map(([, input]) => input);
    const unique = [...new Set(named)];
    advice =
      unique.length > 0
        ? `Check ${unique.join(' and ')}.`
        : checkEveryInput([...new Set(Object.values(inputs))]);
  }
  return `Could not ${operation} (HTTP ${status}${words}).${advice ? ` ${advice}` : ''}`;
}

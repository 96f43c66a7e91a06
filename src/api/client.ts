import { type Dispatcher, EnvHttpProxyAgent, errors as undiciErrors, request } from 'undici';
import type { z } from 'zod';
import { type Clock, type Random, systemClock } from '../clock.js';
import { abortReason, ActionError, throwIfAborted } from '../errors.js';
import { describeNetworkError, header, readText } from '../http.js';
import { parseServiceUrl } from '../net.js';
import { Redactor } from '../redact.js';
import { ApiError, describeStatus, kindOfStatus, summarizeBody } from './errors.js';
import {
  type Backoff,
  backoffDelay,
  CREATE_ONCE,
  DEFAULT_BACKOFF,
  parseRetryAfter,
  REPEATABLE,
  type RetryPolicy,
  START_EXPORT,
} from './retry.js';
import {
  type AgentJob,
  agentJobSchema,
  type BundleLink,
  bundleLinkSchema,
  type ExportJob,
  exportJobSchema,
} from './schemas.js';

export interface RetryEvent {
  operation: string;
  attempt: number;
  delayMs: number;
  reason: string;
}

export interface AdminApiOptions {
  baseUrl: URL;
  apiKey: string;
  dispatcher?: Dispatcher;
  clock?: Clock;
  random?: Random;
  /** Limit for the response headers, and for each silence while a body streams (ms). */
  requestTimeoutMs?: number;
  backoff?: Backoff;
  /** Clock time after which no retry is attempted (the run's overall deadline). */
  deadline?: number;
  redactor?: Redactor;
  onRetry?: (event: RetryEvent) => void;
  debug?: (line: string) => void;
  userAgent?: string;
}

export interface StartExportRequest {
  domain: string;
  version?: string;
  paths?: string[];
  /** When set, the project-scoped endpoints (/v1/static-export/<projectId>/jobs) are used. */
  projectId?: string;
}

/** A retry needs at least this much time left before the deadline to be worth it. */
const MIN_TRY_MS = 250;

/** Bodies bigger than this are not read: no legitimate answer of this API comes close. */
const MAX_BODY_BYTES = 1024 * 1024;

interface Call<S extends z.ZodType> {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  schema: S;
  operation: string;
  retry: RetryPolicy;
}

/** The admin API: static export and agent jobs, over one undici dispatcher. */
export class AdminApi {
  readonly #options: Required<Omit<AdminApiOptions, 'deadline' | 'onRetry' | 'debug'>> &
    Pick<AdminApiOptions, 'deadline' | 'onRetry' | 'debug'>;

  constructor(options: AdminApiOptions) {
    const checked = parseServiceUrl(options.baseUrl.href);
    if (!(checked instanceof URL)) throw new ActionError(`base-url ${checked.reason}.`);
    const redactor = options.redactor ?? new Redactor();
    redactor.add(options.apiKey);
    this.#options = {
      ...options,
      dispatcher: options.dispatcher ?? new EnvHttpProxyAgent(),
      clock: options.clock ?? systemClock,
      random: options.random ?? Math.random,
      requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
      backoff: options.backoff ?? DEFAULT_BACKOFF,
      userAgent: options.userAgent ?? 'static-export-action',
      redactor,
    };
  }

  /** Later calls stop retrying once this clock time has passed. */
  set deadline(at: number | undefined) {
    this.#options.deadline = at;
  }

  startExport(request: StartExportRequest, signal?: AbortSignal): Promise<ExportJob> {
    const body: Record<string, unknown> = { domain: request.domain };
    if (request.version !== undefined) body.version = request.version;
    if (request.paths !== undefined) body.paths = request.paths;
    return this.#call(
      {
        method: 'POST',
        path: exportJobsPath(request.projectId),
        body,
        schema: exportJobSchema,
        operation: `start the static export of ${request.domain}`,
        retry: START_EXPORT,
      },
      signal,
    );
  }

  getExportJob(jobId: string, projectId?: string, signal?: AbortSignal): Promise<ExportJob> {
    return this.#call(
      {
        method: 'GET',
        path: `${exportJobsPath(projectId)}/${encodeURIComponent(jobId)}`,
        schema: exportJobSchema,
        operation: `read export job ${jobId}`,
        retry: REPEATABLE,
      },
      signal,
    );
  }

  /** Each call hands out a fresh presigned link for the same finished job. */
  createBundle(jobId: string, projectId?: string, signal?: AbortSignal): Promise<BundleLink> {
    return this.#call(
      {
        method: 'POST',
        path: `${exportJobsPath(projectId)}/${encodeURIComponent(jobId)}/bundle`,
        schema: bundleLinkSchema,
        operation: `generate the bundle link of export job ${jobId}`,
        retry: REPEATABLE,
      },
      signal,
    );
  }

  createAgentJob(projectId: string, prompt: string, signal?: AbortSignal): Promise<AgentJob> {
    return this.#call(
      {
        method: 'POST',
        path: `/v2/agent/${encodeURIComponent(projectId)}/job`,
        body: { prompt },
        schema: agentJobSchema,
        operation: `create an agent job in project ${projectId}`,
        retry: CREATE_ONCE,
      },
      signal,
    );
  }

  getAgentJob(projectId: string, id: string, signal?: AbortSignal): Promise<AgentJob> {
    return this.#call(
      {
        method: 'GET',
        path: `/v2/agent/${encodeURIComponent(projectId)}/job/${encodeURIComponent(id)}`,
        schema: agentJobSchema,
        operation: `read agent job ${id}`,
        retry: REPEATABLE,
      },
      signal,
    );
  }

  async #call<S extends z.ZodType>(request: Call<S>, signal?: AbortSignal): Promise<z.output<S>> {
    const { clock, random, backoff, redactor } = this.#options;
    // The operation names ids the caller passed in; a key pasted there must not leak.
    const call = { ...request, operation: redactor.redact(request.operation) };
    for (let attempt = 1; ; attempt += 1) {
      throwIfAborted(signal);
      let failure: ApiError;
      try {
        return await this.#send(call, signal);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        failure = err;
      }
      const retryable =
        failure.status !== undefined
          ? call.retry.statuses.has(failure.status)
          : call.retry.network === 'any'
            ? failure.kind === 'network' || failure.kind === 'timeout'
            : failure.detail?.includes('ECONNREFUSED') === true;
      const rateLimited = failure.status === 429;
      // 429 keeps trying until the deadline; without one it is bounded like the rest.
      const exhausted =
        attempt >= call.retry.maxAttempts && (!rateLimited || this.#options.deadline === undefined);
      if (!retryable || exhausted) {
        throw attempt > 1 ? withAttempts(failure, attempt) : failure;
      }
      const deadline = this.#options.deadline;
      const left = deadline === undefined ? Infinity : deadline - clock.now();
      // A jittered wait is shortened to fit before the deadline; the server's own
      // Retry-After is not, since trying earlier than asked is pointless.
      // Room for a wait that still leaves time for the request itself.
      const room = left - MIN_TRY_MS;
      const delayMs =
        failure.retryAfterMs ?? Math.min(backoffDelay(attempt, backoff, random), room);
      if (delayMs > left || (failure.retryAfterMs === undefined && room < MIN_TRY_MS)) {
        throw new ApiError(
          `${failure.message} The run's timeout leaves no time to try again${
            failure.retryAfterMs !== undefined
              ? ` (the server asked to wait ${Math.ceil(failure.retryAfterMs / 1000)}s)`
              : ''
          }.`,
          failure.kind,
          failure.status,
          failure.detail,
          failure.retryAfterMs,
        );
      }
      this.#options.onRetry?.({
        operation: call.operation,
        attempt: attempt + 1,
        delayMs,
        reason:
          failure.status !== undefined
            ? `HTTP ${failure.status}${failure.detail ? ` (${failure.detail})` : ''}`
            : (failure.detail ?? failure.kind),
      });
      await clock.sleep(delayMs, signal);
    }
  }

  async #send<S extends z.ZodType>(call: Call<S>, signal?: AbortSignal): Promise<z.output<S>> {
    const { baseUrl, apiKey, dispatcher, requestTimeoutMs, redactor, clock } = this.#options;
    const url = new URL(baseUrl);
    url.pathname = `${baseUrl.pathname.replace(/\/+$/, '')}${call.path}`;
    const started = clock.now();
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: call.method,
        dispatcher,
        headers: {
          authorization: `Bearer ${apiKey}`,
          accept: 'application/json',
          'user-agent': this.#options.userAgent,
          ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: call.body !== undefined ? JSON.stringify(call.body) : undefined,
        headersTimeout: requestTimeoutMs,
        bodyTimeout: requestTimeoutMs,
        ...(signal ? { signal } : {}),
      });
    } catch (err) {
      if (signal?.aborted) throw abortReason(signal);
      throw networkError(call, err, redactor);
    }

    let text: string;
    try {
      const read = await readText(response.body, MAX_BODY_BYTES);
      if (read.truncated) throw new Error(`response body larger than ${MAX_BODY_BYTES} bytes`);
      text = read.text;
    } catch (err) {
      if (signal?.aborted) throw abortReason(signal);
      throw networkError(call, err, redactor);
    }
    const { statusCode } = response;
    const contentType = header(response.headers, 'content-type');
    this.#options.debug?.(
      `${call.method} ${url.pathname} → ${statusCode} (${clock.now() - started} ms, ${text.length} bytes)`,
    );

    if (statusCode < 200 || statusCode >= 300) {
      const detail = redactor.redact(summarizeBody(text, contentType));
      const retryAfterMs = parseRetryAfter(header(response.headers, 'retry-after'), clock);
      throw new ApiError(
        redactor.redact(describeStatus(call.operation, statusCode, detail)),
        kindOfStatus(statusCode),
        statusCode,
        detail,
        retryAfterMs,
      );
    }

    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ApiError(
        `Could not ${call.operation}: the API answered HTTP ${statusCode} with a body that is not JSON (${redactor.redact(summarizeBody(text, contentType)) || 'empty'}). Check base-url: it must point at the admin API.`,
        'invalid-response',
        statusCode,
      );
    }
    const parsed = call.schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? issue.path.join('.') : 'the body';
      throw new ApiError(
        `Could not ${call.operation}: the API's answer is not usable (${where} ${issue?.message ?? 'is invalid'}).`,
        'invalid-response',
        statusCode,
      );
    }
    return parsed.data;
  }
}

function exportJobsPath(projectId: string | undefined): string {
  return projectId === undefined
    ? '/v1/static-export/jobs'
    : `/v1/static-export/${encodeURIComponent(projectId)}/jobs`;
}

function withAttempts(error: ApiError, attempts: number): ApiError {
  return new ApiError(
    `${error.message} (gave up after ${attempts} attempts)`,
    error.kind,
    error.status,
    error.detail,
    error.retryAfterMs,
  );
}

function networkError(call: Call<z.ZodType>, err: unknown, redactor: Redactor): ApiError {
  const timedOut =
    err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError;
  const detail = redactor.redact(describeNetworkError(err));
  return new ApiError(
    timedOut
      ? `Could not ${call.operation}: the API did not answer in time (${detail}).`
      : `Could not ${call.operation}: the connection failed (${detail}). Check base-url and the network or proxy settings.`,
    timedOut ? 'timeout' : 'network',
    undefined,
    detail,
  );
}

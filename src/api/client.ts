import { type Dispatcher, request } from 'undici';
import type { z } from 'zod';
import { type Clock, type Random, systemClock } from '../clock.js';
import { abortReason, ActionError, throwIfAborted } from '../errors.js';
import {
  answeredByProxy,
  classifyNetworkError,
  header,
  hostOf,
  proxyOf,
  proxyRefusal,
  readDecodedText,
  retryAfterMs,
  ServerTime,
} from '../http.js';
import { formatDuration } from '../duration.js';
import { parseServiceUrl, withoutQuery } from '../net.js';
import { ProxyRoutes } from '../proxy.js';
import { Redactor } from '../redact.js';
import {
  describeGiveUp,
  RATE_LIMITED,
  type RetryBudget,
  type RetryEvent as ScheduledRetry,
  RetrySchedule,
} from '../retry.js';
import {
  AGENT_FORBIDDEN,
  ApiError,
  type ApiErrorKind,
  describeStatus,
  isApiErrorBody,
  kindOfStatus,
  notFoundAdvice,
  summarizeBody,
} from './errors.js';
import {
  CREATE_ONCE,
  JUST_CREATED_BUDGET,
  REPEATABLE,
  notActedOn,
  type RetryPolicy,
  START_EXPORT,
} from './retry.js';
import {
  type AgentJob,
  agentJobAnswer,
  agentJobSchema,
  type BundleLink,
  bundleLinkSchema,
  type ExportJob,
  exportJobSchema,
  pathSegment,
} from './schemas.js';

export interface RetryEvent extends ScheduledRetry {
  operation: string;
  /** What the failed try may have left behind, though it failed (a sentence). */
  note?: string;
}

export interface AdminApiOptions {
  baseUrl: URL;
  apiKey: string;
  dispatcher?: Dispatcher;
  clock?: Clock;
  random?: Random;
  /** Limit for the response headers, and for each silence while a body streams (ms). */
  requestTimeoutMs?: number;
  /** How long a run of failures is tried again (shared with the download). */
  budget?: RetryBudget;
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
  /**
   * The project, for services that scope export routes by it (a pending change of the
   * API): those routes are tried only when the published ones answer that they do not exist.
   */
  projectId?: string;
}

/** Which export routes answered: the published ones, or the project-scoped ones. */
export type ExportRoutes = 'published' | 'project';

/** Bodies bigger than this are not read: no legitimate answer of this API comes close. */
const MAX_BODY_BYTES = 1024 * 1024;

/** The inputs each request field comes from, for the advice on a 400. */
const START_FIELDS = { domain: 'domain', version: 'docs-version', paths: 'export-paths' };
const AGENT_FIELDS = { prompt: 'prompt', projectId: 'project-id', project: 'project-id' };

interface Call<S extends z.ZodType> {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  schema: S;
  operation: string;
  retry: RetryPolicy;
  inputs?: Readonly<Record<string, string>>;
  /** The advice on a 404, for a call that names no job. */
  notFound?: string;
  /** The advice on a 403, when the export's does not fit. */
  forbidden?: string;
  /** What a success whose body was cut off leaves behind, for a call that makes something. */
  cutOff?: string;
  /** The job the call is about, as `#created` keys it: `export job se_…`. */
  job?: string;
  /**
   * For a call sent again though the server may have acted on it: what that leaves
   * behind, said with the next try.
   */
  actedAnyway?: string;
  /**
   * For a call refused as a second one (409) after a try that may have acted (`earlier`,
   * `HTTP 504`): what the refusal most likely means, and how to follow what that try made.
   */
  refusedAfterActed?: (earlier: string) => string;
}

/** The admin API: static export and agent jobs, over one undici dispatcher. */
export class AdminApi {
  readonly #options: Required<Omit<AdminApiOptions, 'deadline' | 'onRetry' | 'debug' | 'budget'>> &
    Pick<AdminApiOptions, 'deadline' | 'onRetry' | 'debug' | 'budget'>;
  /** The API server's clock, from its Date headers. */
  readonly serverTime: ServerTime;
  /** Decided by the first export call that got an answer other than "no such route". */
  #exportRoutes: ExportRoutes | undefined;
  /** The operation of a call sent at most once whose request is out without an answer. */
  #unanswered: string | undefined;
  /** Whether a call has had a usable answer: the API is where `base-url` says. */
  #answered = false;
  /**
   * Jobs this client created that no call has found yet, with the clock time of their
   * creation: a 404 about one is a replica that has not seen it yet, for a while.
   */
  readonly #created = new Map<string, number>();

  constructor(options: AdminApiOptions) {
    const checked = parseServiceUrl(options.baseUrl.href);
    if (!(checked instanceof URL)) throw new ActionError(`base-url ${checked.reason}.`);
    const redactor = options.redactor ?? new Redactor();
    redactor.add(options.apiKey);
    this.#options = {
      ...options,
      dispatcher: options.dispatcher ?? new ProxyRoutes(),
      clock: options.clock ?? systemClock,
      random: options.random ?? Math.random,
      requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
      userAgent: options.userAgent ?? 'static-export-action',
      redactor,
    };
    this.serverTime = new ServerTime(this.#options.clock);
  }

  /** Whether `text` holds the API key, as it is or percent-encoded: it goes to the API only. */
  holdsKey(text: string): boolean {
    const key = this.#options.apiKey;
    return key !== '' && (text.includes(key) || text.includes(encodeURIComponent(key)));
  }

  /** Later calls stop retrying once this clock time has passed. */
  set deadline(at: number | undefined) {
    this.#options.deadline = at;
  }

  /**
   * The operation of a call that is sent at most once (an agent job creation, a follow-up)
   * whose request went out and was cut off before its answer, by a cancel or the run's
   * timeout: the server may have acted on it.
   */
  get unanswered(): string | undefined {
    return this.#unanswered;
  }

  /** The export routes in use, once an export call has been answered. */
  get exportRoutes(): ExportRoutes | undefined {
    return this.#exportRoutes;
  }

  async startExport(request: StartExportRequest, signal?: AbortSignal): Promise<ExportJob> {
    const body: Record<string, unknown> = { domain: request.domain };
    if (request.version !== undefined) body.version = request.version;
    if (request.paths !== undefined) body.paths = request.paths;
    const job = await this.#exportCall(
      request.projectId,
      (prefix) => ({
        method: 'POST',
        path: prefix,
        body,
        schema: exportJobSchema,
        operation: `start the static export of ${request.domain}`,
        retry: START_EXPORT,
        inputs: START_FIELDS,
        notFound: notFoundAdvice(),
        cutOff:
          'The export job was started all the same, and runs to its end on the server, but its id was in the lost part: running again starts another export.',
        actedAnyway:
          'The failed try may have started an export all the same: that one then runs to its end on the server, unused.',
        refusedAfterActed: (earlier) =>
          `The export it names was probably started by this run's earlier attempt (${earlier}), though its answer was lost. It runs on the server to its end: to use it rather than wait for it and start another, run again with \`job-id\` set to its id (in the service's words above, or on the dashboard).`,
      }),
      signal,
    );
    this.#created.set(exportJob(job.jobId), this.#options.clock.now());
    return job;
  }

  getExportJob(jobId: string, projectId?: string, signal?: AbortSignal): Promise<ExportJob> {
    return this.#exportCall(
      projectId,
      (prefix) => ({
        method: 'GET',
        path: `${prefix}/${segment(jobId, 'export job id')}`,
        schema: exportJobSchema,
        operation: `read export job ${jobId}`,
        retry: REPEATABLE,
        job: exportJob(jobId),
      }),
      signal,
    );
  }

  /** Each call hands out a fresh presigned link for the same finished job. */
  createBundle(jobId: string, projectId?: string, signal?: AbortSignal): Promise<BundleLink> {
    return this.#exportCall(
      projectId,
      (prefix) => ({
        method: 'POST',
        path: `${prefix}/${segment(jobId, 'export job id')}/bundle`,
        schema: bundleLinkSchema,
        operation: `generate the bundle link of export job ${jobId}`,
        retry: REPEATABLE,
        job: exportJob(jobId),
      }),
      signal,
    );
  }

  async createAgentJob(projectId: string, prompt: string, signal?: AbortSignal): Promise<AgentJob> {
    const job = await this.#call(
      {
        method: 'POST',
        path: `/v2/agent/${segment(projectId, 'project id')}/job`,
        body: { prompt },
        schema: agentJobSchema,
        operation: `create an agent job in project ${projectId}`,
        forbidden: AGENT_FORBIDDEN,
        retry: CREATE_ONCE,
        inputs: AGENT_FIELDS,
        notFound: notFoundAdvice('`project-id` (a project of that organization)'),
      },
      signal,
    );
    this.#created.set(agentJob(projectId, job.id), this.#options.clock.now());
    return job;
  }

  getAgentJob(projectId: string, id: string, signal?: AbortSignal): Promise<AgentJob> {
    return this.#call(
      {
        method: 'GET',
        path: `/v2/agent/${segment(projectId, 'project id')}/job/${segment(id, 'agent job id')}`,
        schema: agentJobAnswer(id),
        operation: `read agent job ${id}`,
        forbidden: AGENT_FORBIDDEN,
        retry: REPEATABLE,
        job: agentJob(projectId, id),
      },
      signal,
    );
  }

  /**
   * A follow-up instruction to an existing agent job (200, the job; 400, 404, 429, which
   * shares the hourly limit of creations). Sent at most once, like a creation: a second
   * delivery would have the agent act on it twice.
   */
  sendAgentMessage(
    projectId: string,
    id: string,
    prompt: string,
    signal?: AbortSignal,
  ): Promise<AgentJob> {
    return this.#call(
      {
        method: 'POST',
        path: `/v2/agent/${segment(projectId, 'project id')}/job/${segment(id, 'agent job id')}/message`,
        body: { prompt },
        schema: agentJobAnswer(id),
        operation: `send a follow-up to agent job ${id}`,
        forbidden: AGENT_FORBIDDEN,
        retry: CREATE_ONCE,
        inputs: AGENT_FIELDS,
      },
      signal,
    );
  }

  /**
   * An export call on the published routes; with a project, on the project-scoped ones
   * when the published ones answer that the route does not exist (404 or 405).
   */
  async #exportCall<S extends z.ZodType>(
    projectId: string | undefined,
    callAt: (prefix: string) => Call<S>,
    signal?: AbortSignal,
  ): Promise<z.output<S>> {
    const published = '/v1/static-export/jobs';
    if (this.#exportRoutes === 'project' && projectId !== undefined) {
      return this.#call(
        callAt(`/v1/static-export/${segment(projectId, 'project id')}/jobs`),
        signal,
      );
    }
    try {
      const answer = await this.#call(callAt(published), signal);
      this.#exportRoutes = 'published';
      return answer;
    } catch (err) {
      const noSuchRoute = err instanceof ApiError && (err.status === 404 || err.status === 405);
      if (!noSuchRoute || projectId === undefined || this.#exportRoutes === 'published') throw err;
      let answer: z.output<S>;
      try {
        answer = await this.#call(
          callAt(`/v1/static-export/${segment(projectId, 'project id')}/jobs`),
          signal,
        );
      } catch (scopedErr) {
        // Both 404: the published route's answer is the one to show.
        if (scopedErr instanceof ApiError && scopedErr.status === 404) throw err;
        throw scopedErr;
      }
      this.#exportRoutes = 'project';
      return answer;
    }
  }

  async #call<S extends z.ZodType>(request: Call<S>, signal?: AbortSignal): Promise<z.output<S>> {
    const { clock, random, redactor } = this.#options;
    // The operation names ids the caller passed in; a key pasted there must not leak.
    const call = { ...request, operation: redactor.redact(request.operation) };
    /** The last attempt that failed in a way the server may have acted on anyway. */
    let maybeActed: string | undefined;
    /** Said with the next try: what the failed one may have left behind. */
    let note: string | undefined;
    const retries = (budget: RetryBudget | undefined) =>
      new RetrySchedule({
        clock,
        random,
        ...(budget ? { budget } : {}),
        deadline: () => this.#options.deadline,
        ...(signal ? { signal } : {}),
        onRetry: (event) =>
          this.#options.onRetry?.({
            operation: call.operation,
            ...event,
            ...(note !== undefined ? { note } : {}),
          }),
      });
    const schedule = retries(this.#options.budget);
    /** 404s about a job this run has just created: not seen by every replica yet. */
    const notYetKnown = retries(JUST_CREATED_BUDGET);
    for (;;) {
      throwIfAborted(signal);
      let failure: ApiError;
      try {
        const answer = await this.#send(call, signal);
        if (call.job !== undefined) this.#created.delete(call.job);
        return answer;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        failure = err;
      }
      const { job } = call;
      const createdAt = job !== undefined ? this.#created.get(job) : undefined;
      if (failure.status === 404 && job !== undefined && createdAt !== undefined) {
        const stop = await notYetKnown.failed({
          reason: `HTTP 404${failure.detail ? ` (${failure.detail})` : ''}, just after this run created the job`,
        });
        if (!stop) continue;
        throw failure.withMessage(
          `Could not ${call.operation} (HTTP 404${failure.detail ? `: ${failure.detail}` : ''}): the service does not know ${redactor.redact(call.job ?? '')}, though it gave this run that id when the job was created ${formatDuration(clock.now() - createdAt)} before. ${describeGiveUp(stop)}`,
        );
      }
      if (!isRetryable(call.retry, failure)) {
        if (schedule.failures === 0) throw failure;
        const attempts = `after ${schedule.failures + 1} attempts`;
        // A start refused as a second one is most likely refused for this run's own first:
        // the generic advice (wait, then run again) would start yet another.
        if (failure.status === 409 && maybeActed !== undefined && call.refusedAfterActed) {
          const words = failure.detail ? `: ${failure.detail}` : '';
          throw failure.withMessage(
            `Could not ${call.operation} (HTTP 409${words}) ${attempts}. ${call.refusedAfterActed(maybeActed)}`,
          );
        }
        throw failure.withMessage(`${failure.message} (${attempts})`);
      }
      note = undefined;
      if (!call.retry.afterSuccess && !notActedOn(failure)) {
        maybeActed = failure.status !== undefined ? `HTTP ${failure.status}` : failure.kind;
        note = call.actedAnyway;
      }
      const stop = await schedule.failed({
        reason:
          failure.status !== undefined
            ? `HTTP ${failure.status}${failure.detail ? ` (${failure.detail})` : ''}`
            : (failure.detail ?? failure.kind),
        ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
        ...(failure.status === 429 ? RATE_LIMITED : {}),
      });
      if (stop) throw failure.withMessage(`${failure.message} ${describeGiveUp(stop)}`);
    }
  }

  async #send<S extends z.ZodType>(call: Call<S>, signal?: AbortSignal): Promise<z.output<S>> {
    const { baseUrl, apiKey, dispatcher, requestTimeoutMs, redactor, clock } = this.#options;
    const url = new URL(baseUrl);
    url.pathname = `${baseUrl.pathname.replace(/\/+$/, '')}${call.path}`;
    const proxy = proxyOf(dispatcher, url);
    const started = clock.now();
    const once = call.retry.once;
    if (once) this.#unanswered = call.operation;
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: call.method,
        dispatcher,
        headers: {
          authorization: `Bearer ${apiKey}`,
          accept: 'application/json',
          'accept-encoding': 'identity',
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
      // Not cut off: the failure itself says what it means for a call that must not run twice.
      if (once) this.#unanswered = undefined;
      throw networkError(call, err, redactor, url, proxy);
    }
    this.serverTime.observe(response.headers);

    const { statusCode } = response;
    let text: string;
    let truncated: boolean;
    try {
      ({ text, truncated } = await readDecodedText(
        response.body,
        response.headers,
        MAX_BODY_BYTES,
      ));
    } catch (err) {
      if (signal?.aborted) throw abortReason(signal);
      if (once) this.#unanswered = undefined;
      if (!call.retry.afterSuccess && statusCode >= 200 && statusCode < 300) {
        throw cutOffAnswer(call, statusCode, networkError(call, err, redactor, url, proxy));
      }
      throw networkError(call, err, redactor, url, proxy);
    }
    if (once) this.#unanswered = undefined;
    const contentType = header(response.headers, 'content-type');
    this.#options.debug?.(
      `${call.method} ${url.pathname} → ${statusCode} (${clock.now() - started} ms, ${text.length} bytes)`,
    );

    if (
      proxy !== undefined &&
      (statusCode === 407 || (statusCode >= 400 && answeredByProxy(response.headers)))
    ) {
      const refusal = proxyRefusal(statusCode, proxy, hostOf(url));
      throw new ApiError(
        `Could not ${call.operation}: ${refusal.summary}. ${refusal.advice ?? ''}`.trim(),
        { kind: 'proxy', status: statusCode, transient: refusal.transient },
      );
    }
    if (statusCode >= 300 && statusCode < 400) {
      const location = header(response.headers, 'location');
      const target =
        location === undefined
          ? 'nowhere'
          : URL.canParse(location, url.href)
            ? withoutQuery(new URL(location, url))
            : 'an address that is not a URL';
      throw new ApiError(
        redactor.redact(
          `Could not ${call.operation}: the API answered HTTP ${statusCode}, a redirect to ${target}. The key is never sent to another address: set \`base-url\` to the address the API really answers on.`,
        ),
        { kind: 'redirect', status: statusCode },
      );
    }
    if (statusCode < 200 || statusCode >= 300) {
      const detail = redactor.redact(summarizeBody(text, contentType));
      const waitMs = retryAfterMs(response.headers, clock);
      throw new ApiError(
        redactor.redact(
          describeStatus(
            call.operation,
            statusCode,
            detail,
            call.inputs,
            call.notFound,
            call.forbidden,
          ),
        ),
        {
          kind: kindOfStatus(statusCode),
          status: statusCode,
          detail,
          fromApi: isApiErrorBody(text),
          ...(waitMs !== undefined ? { retryAfterMs: waitMs } : {}),
        },
      );
    }

    // An error page is judged by its status and its start; an answer must be read whole.
    if (truncated) {
      throw new ApiError(
        `Could not ${call.operation}: the API answered HTTP ${statusCode} with a body larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB, far beyond any answer of this API. Check \`base-url\`: it must point at the admin API.`,
        { kind: 'invalid-response', status: statusCode },
      );
    }
    let json: unknown;
    try {
      // RFC 8259 8.1: a parser may ignore a byte order mark, and jq does.
      json = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch {
      // Once the API has answered, a page that is not JSON is something in between (a
      // proxy, a captive portal, a gateway cutting the body): a read asks again.
      const advice = this.#answered
        ? 'The same `base-url` answered before: something between the runner and the API (a proxy, a gateway) answered instead.'
        : 'Check `base-url`: it must point at the admin API.';
      throw new ApiError(
        `Could not ${call.operation}: the API answered HTTP ${statusCode} with a body that is not JSON (${redactor.redact(summarizeBody(text, contentType)) || 'empty'}). ${advice}`,
        { kind: 'invalid-response', status: statusCode, transient: this.#answered },
      );
    }
    const parsed = call.schema.safeParse(json);
    if (!parsed.success) {
      throw new ApiError(
        `Could not ${call.operation}: the API's answer is not usable (${describeIssue(parsed.error.issues[0])}).`,
        { kind: 'invalid-response', status: statusCode },
      );
    }
    this.#answered = true;
    return parsed.data;
  }
}

/** An export job, as `#created` keys it and a message names it. */
const exportJob = (jobId: string) => `export job ${jobId}`;
/** An agent job, as `#created` keys it and a message names it: ids are a project's. */
const agentJob = (projectId: string, id: string) => `agent job ${id} of project ${projectId}`;

/** An id as one path segment, or a refusal when it would change the request's path. */
function segment(id: string, what: string): string {
  const checked = pathSegment(id);
  if (checked === undefined) {
    throw new ApiError(
      `The ${what} ${JSON.stringify(id.slice(0, 80))} would change the request path (it holds a slash, a backslash, control characters or is "." or ".."): refusing to send it.`,
      { kind: 'invalid-response' },
    );
  }
  return encodeURIComponent(checked);
}

function isRetryable(policy: RetryPolicy, failure: ApiError): boolean {
  if (policy.once && !notActedOn(failure)) return false;
  if (failure.status !== undefined) {
    if (failure.kind === 'redirect') return false;
    // A success that is not the API's answer, after the API has answered: a read asks again.
    if (failure.kind === 'invalid-response') return failure.transient && policy.afterSuccess;
    // A proxy's own 5xx (it could not reach the API) is a gateway error like any other.
    if (failure.kind === 'proxy' && !failure.transient) return false;
    return policy.statuses.has(failure.status);
  }
  return failure.transient;
}

/**
 * A call that makes something, answered with a success whose body was cut off: it is not
 * sent again, since the server has acted on it.
 */
function cutOffAnswer(call: Call<z.ZodType>, status: number, cut: ApiError): ApiError {
  return new ApiError(
    `Could not ${call.operation}: the API answered HTTP ${status}, but its answer was cut off (${cut.detail ?? cut.kind}).${call.cutOff ? ` ${call.cutOff}` : ''}`,
    { kind: 'invalid-response', status, ...(cut.detail ? { detail: cut.detail } : {}), cause: cut },
  );
}

const NETWORK_KIND: Record<string, ApiErrorKind> = {
  tls: 'tls',
  proxy: 'proxy',
  dns: 'dns',
  timeout: 'timeout',
  refused: 'network',
  broken: 'network',
};

function networkError(
  call: Call<z.ZodType>,
  err: unknown,
  redactor: Redactor,
  url: URL,
  proxy: URL | undefined,
): ApiError {
  const failure = classifyNetworkError(err, {
    host: hostOf(url),
    ...(proxy ? { proxy, plainHttp: url.protocol === 'http:' } : {}),
  });
  const detail = redactor.redact(failure.summary);
  const advice =
    failure.advice ??
    (failure.kind === 'timeout' ? '' : 'Check `base-url` and the network or proxy settings.');
  const what = failure.kind === 'timeout' ? `the API did not answer in time (${detail})` : detail;
  return new ApiError(
    redactor.redact(`Could not ${call.operation}: ${what}.${advice ? ` ${advice}` : ''}`),
    {
      kind: NETWORK_KIND[failure.kind] ?? 'network',
      detail,
      transient: failure.transient,
      ...(failure.code !== undefined ? { code: failure.code } : {}),
      cause: err,
    },
  );
}

/**
 * The first problem with an answer, readable: `status: expected string, received number`,
 * `id is missing or not valid`, or a schema's own words (`id is not a safe identifier`).
 */
function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  const where = issue?.path.length ? issue.path.join('.') : 'the body';
  const message = issue?.message ?? 'Invalid input';
  if (message === 'Invalid input') return `${where} is missing or not valid`;
  const typed = /^Invalid input: (.+)$/.exec(message);
  return typed ? `${where}: ${typed[1]}` : `${where} ${message}`;
}

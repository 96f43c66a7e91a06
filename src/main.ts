import type { Dispatcher } from 'undici';
import { AdminApi, type RetryEvent } from './api/client.js';
import { runAgent } from './agent/run.js';
import { type Random, systemClock, type TimerClock } from './clock.js';
import { type Config, parseConfig, type RawInputs } from './config.js';
import type { LockWait } from './deliver/path-lock.js';
import { formatDuration } from './duration.js';
import { abortReason, CancelledError, TimeoutError } from './errors.js';
import { type ArtifactUploader, runExport } from './export/run.js';
import { ProxyRoutes } from './proxy.js';
import { Redactor } from './redact.js';
import {
  describeCancellation,
  describeTimeout,
  type InvokedAs,
  type Reporter,
  type RunRecord,
} from './report.js';

/** What the surrounding world provides: the runner or a shell. */
export interface Environment {
  /** Relative paths resolve against this directory. */
  workspace: string;
  /** Temporary files go here (RUNNER_TEMP in a workflow). */
  tempDir: string;
  /** The step's id in a workflow (GITHUB_ACTION), for files two steps of a job may share. */
  stepId?: string;
  /** The home directory: `~/…` expands to it; it is never replaced. */
  home?: string;
  /** Directories never replaced besides the workspace and home: temp and tool caches. */
  runnerDirs?: string[];
  platform?: NodeJS.Platform;
  /** Looked up only when needed: the commit SHA in a workflow. */
  defaultReleaseVersion?: () => Promise<string | undefined>;
  uploadArtifact?: ArtifactUploader;
  /** The adapter: messages name inputs as `job-id: …` (action) or `--job-id …` (cli). */
  invokedAs?: InvokedAs;
  /** `prompt` was given on purpose (a flag), so an empty one is refused, not absent. */
  promptGiven?: boolean;
}

export interface RunOptions {
  /** Drives every wait of the run, the overall timeout included. */
  clock?: TimerClock;
  random?: Random;
  dispatcher?: Dispatcher;
  /** Aborts the run (SIGINT/SIGTERM). */
  signal?: AbortSignal;
  /** Scrubs the key (and anything else added) from every text that leaves the run. */
  redactor?: Redactor;
  /** How long an export waits for another run that writes the same `path` (tests shorten it). */
  lockWait?: LockWait;
}

/** How a run ended: the record is absent when the inputs were refused. */
export interface RunOutcome {
  config?: Config;
  record?: RunRecord;
  error?: unknown;
}

/**
 * The core of both adapters: parse the inputs (an invalid one stops the run before any
 * network call), then run the command against the API. Never throws: the outcome
 * carries the error, and the record of what happened until then.
 */
export async function execute(
  raw: RawInputs,
  environment: Environment,
  reporter: Reporter,
  options: RunOptions = {},
): Promise<RunOutcome> {
  try {
    return await executeConfigured(raw, environment, reporter, options);
  } catch (error) {
    return { error };
  }
}

async function executeConfigured(
  raw: RawInputs,
  environment: Environment,
  reporter: Reporter,
  options: RunOptions,
): Promise<RunOutcome> {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const redactor = options.redactor ?? new Redactor();
  // The key is a secret from the start: an error about another input may echo it. The
  // runner is asked to mask it only once it is valid (a refused one is never printed).
  const givenKey = raw['api-key']?.trim();
  redactor.add(givenKey);
  const needsReleaseVersion =
    (raw['helm-values-file'] ?? '').trim() !== '' && (raw['release-version'] ?? '').trim() === '';
  const config = parseConfig(raw, {
    workspace: environment.workspace,
    ...(environment.home !== undefined ? { home: environment.home } : {}),
    runnerDirs: environment.runnerDirs ?? [environment.tempDir],
    ...(environment.platform !== undefined ? { platform: environment.platform } : {}),
    ...(environment.promptGiven ? { promptGiven: true } : {}),
    ...(needsReleaseVersion && environment.defaultReleaseVersion
      ? { defaultReleaseVersion: await environment.defaultReleaseVersion() }
      : {}),
  });
  redactor.add(config.apiKey);
  reporter.mask(config.apiKey);
  // Before the timer and the record: a proxy variable that is not a URL ends the run here.
  const dispatcher = options.dispatcher ?? new ProxyRoutes();

  const startedAt = clock.now();
  const deadline = startedAt + config.timeoutMs;
  const timeout = new AbortController();
  const invokedAs = environment.invokedAs ?? 'action';
  const record: RunRecord =
    config.command === 'agent'
      ? {
          command: 'agent',
          projectId: config.projectId,
          ...(config.prompt !== undefined ? { prompt: config.prompt } : {}),
          ...(config.jobId !== undefined ? { jobId: config.jobId } : {}),
          startedAt,
          waited: config.wait,
        }
      : {
          command: 'export',
          domain: config.domain,
          startedAt,
          invokedAs,
          showBundleUrl: config.showBundleUrl,
        };
  const signal = options.signal
    ? AbortSignal.any([options.signal, timeout.signal])
    : timeout.signal;
  const describeRetries = retryDescriber();
  const api = new AdminApi({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    dispatcher,
    clock,
    random,
    deadline,
    redactor,
    requestTimeoutMs: config.requestTimeoutMs,
    onRetry: (event) => {
      record.lastRetry = event.reason;
      reporter.info(describeRetries(event));
    },
    debug: (line) => reporter.debug(line),
  });
  // A create or follow-up cut off before its answer may have been acted on anyway.
  const noteUnanswered = () => {
    if (record.command === 'agent' && api.unanswered !== undefined) record.unanswered = true;
  };
  /** The error of a run a signal or the timeout stopped: a cancellation says what it left. */
  const stopped = (reason: Error): Error =>
    reason instanceof CancelledError
      ? new CancelledError(`${reason.message} ${describeCancellation(record)}`, reason.signal)
      : reason;
  const cancelTimeout = clock.after(config.timeoutMs, () => {
    noteUnanswered();
    timeout.abort(new TimeoutError(describeTimeout(record, config.timeoutMs)));
  });
  reporter.debug(
    `API ${config.baseUrl.origin}${config.baseUrl.pathname}, timeout ${formatDuration(config.timeoutMs)}`,
  );

  try {
    if (config.command === 'agent' && record.command === 'agent') {
      await runAgent(config, { api, reporter, clock, deadline, signal, record });
    } else if (config.command === 'export' && record.command === 'export') {
      await runExport(config, {
        api,
        reporter,
        clock,
        random,
        dispatcher,
        deadline,
        tempDir: environment.tempDir,
        ...(environment.stepId ? { stepId: environment.stepId } : {}),
        idleTimeoutMs: config.requestTimeoutMs,
        signal,
        record,
        ...(environment.uploadArtifact ? { uploadArtifact: environment.uploadArtifact } : {}),
        ...(options.lockWait ? { lockWait: options.lockWait } : {}),
      });
      // A signal after the export was put in place stopped nothing, but the run still ends
      // as cancelled, saying so: a script's next command must not take it for done.
      const placed = record.sitePath ?? record.archivePath;
      if (placed !== undefined && options.signal?.aborted) {
        return { config, record, error: stopped(abortReason(options.signal)) };
      }
    }
    return { config, record };
  } catch (err) {
    // An abort surfaces as whatever the aborted call threw: report the reason instead.
    if (!signal.aborted) return { config, record, error: err };
    noteUnanswered();
    return { config, record, error: stopped(abortReason(signal)) };
  } finally {
    if (record.command === 'export' && record.status === 'completed') {
      record.pageUrl = `https://${record.domain}/`;
      reporter.setOutput('page-url', record.pageUrl);
    }
    record.finishedAt = clock.now();
    cancelTimeout();
    if (!options.dispatcher) await dispatcher.destroy().catch(() => undefined);
  }
}

/**
 * The lines announcing the next tries of a run's API calls, and why each waits that long.
 * How waits without Retry-After grow is said once: a long rate limit is hundreds of tries.
 */
export function retryDescriber(): (event: RetryEvent) => string {
  let explained = false;
  return (event) => {
    const next = `trying again in ${formatDuration(event.delayMs)} (attempt ${event.attempt})`;
    const limit = event.rateLimit;
    let waiting: string;
    if (limit === undefined) waiting = `${next}.`;
    else if ('askedMs' in limit) {
      waiting = `rate limited, ${next}, as the service asked (Retry-After).`;
    } else if (explained) waiting = `rate limited, ${next} (no Retry-After).`;
    else {
      explained = true;
      waiting = `rate limited, ${next}. The service named no wait (no Retry-After): the waits grow, with jitter, to ${formatDuration(limit.capMs)} at most, until the timeout.`;
    }
    return `Could not ${event.operation} (${event.reason}): ${waiting}${event.note ? ` ${event.note}` : ''}`;
  };
}

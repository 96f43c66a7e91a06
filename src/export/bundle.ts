import type { AdminApi } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { BundleLink, ExportJob } from '../api/schemas.js';
import type { Clock, Random } from '../clock.js';
import type { BundleSource } from '../deliver/download.js';
import { formatDuration } from '../duration.js';
import { TimeoutError } from '../errors.js';
import { parseServiceUrl } from '../net.js';
import type { Reporter } from '../report.js';
import { type RetryBudget, RetrySchedule } from '../retry.js';
import { withWayBackToJob } from './wait.js';

export interface BundleOptions {
  api: AdminApi;
  reporter: Reporter;
  clock: Clock;
  random: Random;
  deadline: number;
  projectId?: string;
  signal?: AbortSignal;
}

/**
 * A 409 ("not finished yet") from the bundle call of a job that reported `completed` is a
 * lagging replica, not a long wait: it gets two minutes, not the whole timeout.
 */
export const NOT_READY_BUDGET: RetryBudget = {
  outageMs: 2 * 60_000,
  baseDelayMs: 1000,
  maxDelayMs: 5000,
};

/**
 * A link to the finished job's archive: the one the job already carries (services that
 * put it on the completed job), or a fresh one from the bundle endpoint. `jobId` is the
 * job this run started or was given, whatever id a status answer named.
 */
export async function obtainBundleLink(
  jobId: string,
  finished: ExportJob,
  options: BundleOptions,
): Promise<BundleSource> {
  if (finished.bundleUrl !== undefined) return toSource(finished, options.api);
  return requestBundle(jobId, options);
}

/** A fresh link for the same job (the job and its files are reused). */
export async function refreshBundleLink(
  jobId: string,
  inline: boolean,
  options: BundleOptions,
): Promise<BundleSource> {
  if (inline) {
    const job = await options.api
      .getExportJob(jobId, options.projectId, options.signal)
      .catch((err: unknown) => {
        throw withWayBackToJob(err, jobId, 'completed', options.signal);
      });
    if (job.bundleUrl === undefined) {
      throw new ApiError(
        `Export job ${jobId} no longer carries a bundle link (status ${job.status}).`,
        { kind: 'invalid-response' },
      );
    }
    return toSource(job, options.api);
  }
  return requestBundle(jobId, options);
}

async function requestBundle(jobId: string, options: BundleOptions): Promise<BundleSource> {
  const { api, clock, reporter } = options;
  const notReady = new RetrySchedule({
    clock,
    random: options.random,
    budget: NOT_READY_BUDGET,
    deadline: () => options.deadline,
    ...(options.signal ? { signal: options.signal } : {}),
    onRetry: (event) =>
      reporter.info(
        `The bundle is not ready yet (HTTP 409): asking again in ${formatDuration(event.delayMs)}.`,
      ),
  });
  for (;;) {
    let link: BundleLink;
    try {
      link = await api.createBundle(jobId, options.projectId, options.signal);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 409) {
        throw withWayBackToJob(err, jobId, 'completed', options.signal);
      }
      const stop = await notReady.failed({ reason: err.detail ?? 'conflict' });
      if (stop?.why === 'deadline') {
        throw new TimeoutError(
          `The bundle of export job ${jobId} was still not ready (HTTP 409: ${err.detail ?? 'conflict'}) when the timeout passed.`,
        );
      }
      if (stop) {
        throw err.withMessage(
          `Export job ${jobId} reported completed, but its bundle call answered HTTP 409 (${err.detail ?? 'conflict'}) ${stop.attempts} times over ${formatDuration(stop.elapsedMs)}: the service does not agree with itself. Run again later, with \`job-id: ${jobId}\` to reuse the export.`,
        );
      }
      continue;
    }
    if (link.jobId !== undefined && link.jobId !== jobId) {
      reporter.warning(
        `The bundle answer names export job ${link.jobId}, not ${jobId}, the job this run asked for: check that the link is for this export.`,
      );
    }
    return toSource(link, options.api);
  }
}

function toSource(link: BundleLink | ExportJob, api: AdminApi): BundleSource {
  const url = link.bundleUrl as string;
  // A link carries its own credentials; ours would reach the storage host and its logs.
  if (api.holdsKey(url)) {
    throw new ApiError(
      'The API returned a bundle link that holds the API key: refusing to send the key to the storage host. Report this to the platform.',
      { kind: 'invalid-response' },
    );
  }
  const parsed = parseServiceUrl(url);
  if (!(parsed instanceof URL)) {
    throw new ApiError(
      `The API returned a bundle link that this action will not fetch: it ${parsed.reason}.`,
      { kind: 'invalid-response' },
    );
  }
  return {
    url,
    ...(link.expiresAt !== undefined ? { expiresAt: link.expiresAt } : {}),
    ...(link.sizeBytes !== undefined ? { sizeBytes: link.sizeBytes } : {}),
  };
}

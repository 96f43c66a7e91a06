import type { AdminApi } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { BundleLink, ExportJob } from '../api/schemas.js';
import type { Clock } from '../clock.js';
import type { BundleSource } from '../deliver/download.js';
import { formatDuration } from '../duration.js';
import { TimeoutError } from '../errors.js';
import { parseServiceUrl } from '../net.js';
import type { Reporter } from '../report.js';

export interface BundleOptions {
  api: AdminApi;
  reporter: Reporter;
  clock: Clock;
  deadline: number;
  projectId?: string;
  signal?: AbortSignal;
}

/** 409 means "not finished yet": wait this long between tries. */
const NOT_READY_DELAYS_MS = [1000, 2000, 3000, 5000];

/**
 * A link to the finished job's archive: the one the job already carries (services that
 * put it on the completed job), or a fresh one from the bundle endpoint, retried while
 * it answers 409.
 */
export async function obtainBundleLink(
  job: ExportJob,
  options: BundleOptions,
): Promise<BundleSource> {
  if (job.bundleUrl !== undefined) return toSource(job);
  return requestBundle(job.jobId, options);
}

/** A fresh link for the same job (the job and its files are reused). */
export async function refreshBundleLink(
  jobId: string,
  inline: boolean,
  options: BundleOptions,
): Promise<BundleSource> {
  if (inline) {
    const job = await options.api.getExportJob(jobId, options.projectId, options.signal);
    if (job.bundleUrl === undefined) {
      throw new ApiError(
        `Export job ${jobId} no longer carries a bundle link (status ${job.status}).`,
        'invalid-response',
      );
    }
    return toSource(job);
  }
  return requestBundle(jobId, options);
}

async function requestBundle(jobId: string, options: BundleOptions): Promise<BundleSource> {
  const { api, clock, reporter } = options;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return toSource(await api.createBundle(jobId, options.projectId, options.signal));
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 409) throw err;
      const delay = NOT_READY_DELAYS_MS[
        Math.min(attempt, NOT_READY_DELAYS_MS.length - 1)
      ] as number;
      if (clock.now() + delay > options.deadline) {
        throw new TimeoutError(
          `The bundle of export job ${jobId} was still not ready (HTTP 409: ${err.detail ?? 'conflict'}) when the timeout passed.`,
        );
      }
      reporter.info(
        `The bundle is not ready yet (HTTP 409): asking again in ${formatDuration(delay)}.`,
      );
      await clock.sleep(delay, options.signal);
    }
  }
}

function toSource(link: BundleLink | ExportJob): BundleSource {
  const url = link.bundleUrl as string;
  const parsed = parseServiceUrl(url);
  if (!(parsed instanceof URL)) {
    throw new ApiError(
      `The API returned a bundle link that this action will not fetch: it ${parsed.reason}.`,
      'invalid-response',
    );
  }
  return {
    url,
    ...(link.expiresAt !== undefined ? { expiresAt: link.expiresAt } : {}),
    ...(link.sizeBytes !== undefined ? { sizeBytes: link.sizeBytes } : {}),
  };
}

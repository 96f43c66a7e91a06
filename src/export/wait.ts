import type { AdminApi } from '../api/client.js';
import { ApiError, withAdvice } from '../api/errors.js';
import type { ExportJob } from '../api/schemas.js';
import type { Clock } from '../clock.js';
import type { PollInterval } from '../config.js';
import { formatDuration } from '../duration.js';
import { EXPORT_SCHEDULE, pollUntilSettled } from '../poll.js';
import { exportJobLivesOn, type Reporter } from '../report.js';

export interface WaitOptions {
  api: AdminApi;
  reporter: Reporter;
  clock: Clock;
  interval: PollInterval;
  deadline: number;
  /** The error thrown when the deadline passes first. */
  onDeadline: (last: ExportJob) => Error;
  /** Sees every job state read. */
  onJob?: (job: ExportJob) => void;
  projectId?: string;
  signal?: AbortSignal;
}

/** `completed` and `failed` are final; any other status, named or not, is waited on. */
export function isExportSettled(job: ExportJob): boolean {
  return job.status === 'completed' || job.status === 'failed';
}

/** A status answer that names another job than the one asked about. */
export function describeOtherJob(asked: string, named: string): string {
  return `The status answer for export job ${asked} names job ${named}: following ${asked}, the job this run asked for.`;
}

/**
 * A call about the job that failed for good (an outage past the budget, a key revoked
 * mid-run), told with the way back to the job, which goes on without this run: a rerun
 * without `job-id` would export again. A 404 says the job is gone; a cancel says enough.
 */
export function withWayBackToJob(
  err: unknown,
  jobId: string,
  status: string | undefined,
  signal?: AbortSignal,
): unknown {
  return err instanceof ApiError && err.status !== 404 && !signal?.aborted
    ? withAdvice(err, exportJobLivesOn(jobId, status))
    : err;
}

const KNOWN_STATUSES = new Set(['queued', 'running', 'completed', 'failed']);

/**
 * Polls the export job until it settles, printing one line whenever its status,
 * progress or page count changes (not one per poll).
 */
export async function waitForExport(first: ExportJob, options: WaitOptions): Promise<ExportJob> {
  const { reporter, clock } = options;
  const started = clock.now();
  let lastLine = '';
  let mismatchTold = false;
  const describe = (job: ExportJob, remainingMs: number | undefined) => {
    if (job.jobId !== first.jobId && !mismatchTold) {
      mismatchTold = true;
      reporter.warning(describeOtherJob(first.jobId, job.jobId));
    }
    options.onJob?.(job);
    const parts = [job.status];
    if (job.progress !== undefined) parts.push(`${Math.round(job.progress)}%`);
    if (job.pageCount !== undefined)
      parts.push(`${job.pageCount} page${job.pageCount === 1 ? '' : 's'}`);
    const key = parts.join(' · ');
    if (key === lastLine) return;
    lastLine = key;
    const eta =
      remainingMs !== undefined && !isExportSettled(job)
        ? ` · about ${formatDuration(remainingMs)} left`
        : '';
    const unknown = KNOWN_STATUSES.has(job.status)
      ? ''
      : ' (a status this action does not know: still waiting)';
    reporter.info(`[${formatDuration(clock.now() - started).padStart(7)}] ${key}${eta}${unknown}`, {
      progress: true,
    });
    reporter.progress?.({
      phase: 'export',
      status: job.status,
      ...(job.progress !== undefined ? { percent: job.progress } : {}),
      ...(job.pageCount !== undefined ? { pages: job.pageCount } : {}),
      ...(remainingMs !== undefined ? { etaMs: remainingMs } : {}),
    });
  };
  if (isExportSettled(first)) {
    describe(first, undefined);
    return first;
  }
  return pollUntilSettled({
    read: (signal) => options.api.getExportJob(first.jobId, options.projectId, signal),
    isSettled: isExportSettled,
    progressOf: (job) => job.progress,
    onPoll: describe,
    interval: options.interval,
    limits: EXPORT_SCHEDULE,
    clock,
    deadline: options.deadline,
    onDeadline: options.onDeadline,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

import { randomBytes } from 'node:crypto';
import { iso } from './clock.js';
import type {
  ArchiveFormat,
  ExportJobInfo,
  ExportJobView,
  ExportOutcome,
  ExportStatus,
  ExportVariant,
  ProgressProfile,
} from './types.js';

export const DEFAULT_EXPORT_ERROR = 'Rendering failed: page /guides/broken could not be built';

/** A failed job stops this far into its running phase. */
const FAIL_AT_FRACTION = 0.6;

export interface ExportJobRecord extends ExportJobInfo {
  createdAt: number;
  /** Emulator time the job leaves `queued`. */
  runStartsAt: number;
  /** Emulator time a successful job completes. */
  endsAt: number;
  failure: string | null;
}

export interface ExportState {
  status: ExportStatus;
  progress: number;
  pageCount: number;
  updatedAt: number;
  error: string | null;
}

export interface ExportJobsConfig {
  queuedMs: number;
  jobDurationMs: number;
  pageCount: number;
  progressProfile: ProgressProfile;
  archiveFormat: ArchiveFormat;
  outcomeFor?: (
    domain: string,
  ) => ExportOutcome | ExportOutcome['status'] | undefined | null | void;
}

export interface ExportStart {
  domain: string;
  version: string | null;
  paths: string[] | null;
  projectId: string | null;
}

/** Export jobs whose state is a pure function of the emulator clock. */
export class ExportJobs {
  private readonly jobs = new Map<string, ExportJobRecord>();

  constructor(private readonly config: ExportJobsConfig) {}

  start(input: ExportStart, now: number): ExportJobRecord {
    const outcome = this.outcomeFor(input.domain);
    const job: ExportJobRecord = {
      ...input,
      jobId: `se_${randomBytes(8).toString('hex')}`,
      totalPages:
        outcome.status === 'completed'
          ? (outcome.pageCount ?? this.config.pageCount)
          : this.config.pageCount,
      revision: 0,
      format: this.config.archiveFormat,
      createdAt: now,
      runStartsAt: now + Math.min(this.config.queuedMs, this.config.jobDurationMs),
      endsAt: now + this.config.jobDurationMs,
      failure: outcome.status === 'failed' ? (outcome.error ?? DEFAULT_EXPORT_ERROR) : null,
    };
    this.jobs.set(job.jobId, job);
    return job;
  }

  get(jobId: string): ExportJobRecord | undefined {
    return this.jobs.get(jobId);
  }

  list(): ExportJobRecord[] {
    return [...this.jobs.values()];
  }

  /** A job of the organization that is still queued or running, if any. */
  active(now: number): ExportJobRecord | undefined {
    return this.list().find((job) => !isSettled(this.state(job, now).status));
  }

  state(job: ExportJobRecord, now: number): ExportState {
    const settlesAt = job.failure === null ? job.endsAt : this.failsAt(job);
    if (now < job.runStartsAt && now < settlesAt) {
      return { status: 'queued', progress: 0, pageCount: 0, updatedAt: job.createdAt, error: null };
    }
    if (now >= settlesAt) {
      if (job.failure === null) {
        const pages = job.totalPages;
        return {
          status: 'completed',
          progress: 100,
          pageCount: pages,
          updatedAt: settlesAt,
          error: null,
        };
      }
      return { ...this.running(job, settlesAt), status: 'failed', error: job.failure };
    }
    return this.running(job, now);
  }

  private running(job: ExportJobRecord, now: number): ExportState {
    const span = job.endsAt - job.runStartsAt;
    const fraction = span <= 0 ? 1 : (now - job.runStartsAt) / span;
    const progress = Math.round(progressAt(this.config.progressProfile, fraction) * 10) / 10;
    const pageCount = Math.floor((progress / 100) * job.totalPages);
    return { status: 'running', progress, pageCount, updatedAt: now, error: null };
  }

  private failsAt(job: ExportJobRecord): number {
    return job.runStartsAt + Math.floor((job.endsAt - job.runStartsAt) * FAIL_AT_FRACTION);
  }

  private outcomeFor(domain: string): ExportOutcome {
    const chosen = this.config.outcomeFor?.(domain);
    if (typeof chosen === 'string') return { status: chosen };
    if (chosen) return chosen;
    return domain.split('.')[0] === 'fail' ? { status: 'failed' } : { status: 'completed' };
  }
}

export const isSettled = (status: ExportStatus): boolean =>
  status === 'completed' || status === 'failed';

/** Percent done for a fraction of the running phase. */
export function progressAt(profile: ProgressProfile, fraction: number): number {
  const f = Math.min(1, Math.max(0, fraction));
  if (profile === 'linear') return 100 * f;
  // stall-then-jump: reaches ~10% quickly, sits there for 80% of the run, then jumps to 100.
  return f < 0.8 ? 10 * Math.min(1, f / 0.1) : 100;
}

/**
 * The job as the API shows it: the fields of the vendor's StaticExportJob, no others (the
 * start body's domain and version stay on the record). The inline-bundle variant never
 * shows progress or pageCount.
 */
export function exportJobView(
  job: ExportJobRecord,
  state: ExportState,
  variant: ExportVariant,
): ExportJobView {
  const live =
    variant === 'standard' ? { progress: state.progress, pageCount: state.pageCount } : {};
  return {
    jobId: job.jobId,
    status: state.status,
    ...live,
    createdAt: iso(job.createdAt),
    updatedAt: iso(state.updatedAt),
    error: state.error,
  };
}

export function jobInfo(job: ExportJobRecord): ExportJobInfo {
  const { jobId, projectId, domain, version, paths, totalPages, revision, format } = job;
  return { jobId, projectId, domain, version, paths, totalPages, revision, format };
}

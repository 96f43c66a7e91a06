import { randomBytes } from 'node:crypto';
import { iso } from './clock.js';
import type { AgentJobView } from './types.js';

const REPOSITORY = 'https://github.com/example/docs';
const MODEL = 'claude-sonnet-4';
const FIRST_PR_NUMBER = 101;
export const AGENT_FAILURE = 'Agent failed: the requested changes could not be applied';

interface AgentRun {
  startedAt: number;
  prompt: string;
}

export interface AgentJobRecord {
  id: string;
  projectId: string;
  createdAt: number;
  prNumber: number;
  /** The create prompt, then one run per follow-up message. */
  runs: AgentRun[];
  /** Set by archive(); '[archive]' prompts archive on completion without it. */
  archivedAt: number | null;
}

const has = (run: AgentRun, tag: string): boolean => run.prompt.includes(tag);

export interface AgentJobOptions {
  durationMs: number;
  /**
   * Failed jobs carry an `error` text. The vendor's schema has no such field (a failed job
   * carries no reason), so this is a variant, off by default.
   */
  failureReason: boolean;
}

/**
 * Agent jobs whose state is a pure function of the emulator clock. Each job works on a
 * branch of its own (`agent/<id prefix>`: the vendor documents that the agent commits to
 * a new branch, not how it is named). A follow-up message starts a new run that
 * interrupts the one in progress, as the vendor describes for its agent.
 */
export class AgentJobs {
  private readonly jobs = new Map<string, AgentJobRecord>();
  private nextPrNumber = FIRST_PR_NUMBER;

  constructor(private readonly options: AgentJobOptions) {}

  create(projectId: string, prompt: string, now: number): AgentJobRecord {
    const job: AgentJobRecord = {
      id: randomBytes(12).toString('hex'),
      projectId,
      createdAt: now,
      prNumber: this.nextPrNumber++,
      runs: [{ startedAt: now, prompt }],
      archivedAt: null,
    };
    this.jobs.set(job.id, job);
    return job;
  }

  get(id: string): AgentJobRecord | undefined {
    return this.jobs.get(id);
  }

  list(): AgentJobRecord[] {
    return [...this.jobs.values()];
  }

  /** A follow-up message starts a new run of the same job. */
  addMessage(job: AgentJobRecord, prompt: string, now: number): void {
    job.runs.push({ startedAt: now, prompt });
  }

  archive(job: AgentJobRecord, now: number): void {
    const archivedAt = this.view(job, now).archivedAt;
    if (archivedAt === null) job.archivedAt = now;
  }

  view(job: AgentJobRecord, now: number): AgentJobView {
    const { durationMs } = this.options;
    // A run that a later message interrupted before it ended changed nothing.
    const done = job.runs.filter((run, i) => {
      const endsAt = run.startedAt + durationMs;
      const next = job.runs[i + 1];
      return endsAt <= now && (next === undefined || endsAt <= next.startedAt);
    });
    const last = job.runs[job.runs.length - 1] as AgentRun;
    const lastEndsAt = last.startedAt + durationMs;
    const lastDone = lastEndsAt <= now;
    const changedFiles = done.some((run) => !has(run, '[no-changes]') && !has(run, '[fail]'));
    const archivedAt =
      job.archivedAt ??
      (lastDone && has(last, '[archive]') && !has(last, '[fail]') ? lastEndsAt : null);
    const failed = lastDone && has(last, '[fail]');
    const status =
      archivedAt !== null ? 'archived' : !lastDone ? 'active' : failed ? 'failed' : 'completed';
    return {
      id: job.id,
      status,
      source: { repository: REPOSITORY, ref: `agent/${job.id.slice(0, 8)}` },
      model: MODEL,
      // The vendor documents prLink as null while the job is active, a follow-up's run too.
      prLink: changedFiles && status !== 'active' ? `${REPOSITORY}/pull/${job.prNumber}` : null,
      createdAt: iso(job.createdAt),
      archivedAt: archivedAt === null ? null : iso(archivedAt),
      ...(status === 'failed' && this.options.failureReason ? { error: AGENT_FAILURE } : {}),
    };
  }
}

import { ApiError, describeStatus, withAdvice } from '../api/errors.js';
import { notActedOn } from '../api/retry.js';
import type { AgentJob } from '../api/schemas.js';
import type { AgentConfig } from '../config.js';
import { CHECK_BEFORE_RESENDING, promptHeadline } from '../report.js';
import type { AgentDeps } from './run.js';

/** The rate limit of agent jobs, which follow-ups share: what it is and what to do. */
export const AGENT_RATE_LIMIT_ADVICE =
  'Agent jobs are limited per project per rolling hour (the documented limit is 100 creations; follow-up messages count too): wait for older jobs to age out of the hour, or raise `timeout` so the run waits longer.';

/** What to check when the job given as agent-job-id is not found. */
export function jobNotFoundAdvice(config: AgentConfig): string {
  return `Check \`agent-job-id\` and \`project-id\`: the job must exist in project ${config.projectId}.`;
}

/** A call sent at most once (a job creation, a follow-up): what it does if it went through. */
export interface SentOnce {
  /** What the call makes, as a sentence starts: `The job`, `The message`. */
  subject: string;
  /** What happened to it if the server acted: `created`, `delivered`. */
  done: string;
  /** What to check before sending it again. */
  check: string;
}

/**
 * The advice for a failure that leaves a send-once call's outcome unknown: a 2xx answer
 * that could not be used (the server acted), or a broken connection, a timeout or a
 * server error (it may have). Undefined for a failure that says it was not acted on.
 */
export function unknownOutcomeAdvice(error: ApiError, call: SentOnce): string | undefined {
  const { status, kind } = error;
  // What the client tries again (a refused connection, the API's 503) was never acted on.
  if (notActedOn(error)) return undefined;
  if (kind === 'invalid-response' && status !== undefined && status >= 200 && status < 300) {
    return `The API accepted the request (HTTP ${status}), so ${call.subject.toLowerCase()} was probably ${call.done}: ${call.check}`;
  }
  if (kind === 'network' || kind === 'timeout' || kind === 'server') {
    return `${call.subject} may have been ${call.done} anyway: ${call.check}`;
  }
  return undefined;
}

const FOLLOW_UP: SentOnce = {
  subject: 'The message',
  done: 'delivered',
  check: CHECK_BEFORE_RESENDING,
};

/** Sends `prompt` to an existing agent job as a follow-up; returns the job as answered. */
export async function sendFollowUp(
  config: AgentConfig,
  jobId: string,
  prompt: string,
  deps: Pick<AgentDeps, 'api' | 'reporter' | 'signal'>,
): Promise<AgentJob> {
  const { api, reporter, signal } = deps;
  reporter.info(`Follow-up: ${promptHeadline(prompt)}`);
  let job: AgentJob;
  try {
    job = await api.sendAgentMessage(config.projectId, jobId, prompt, signal);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.status === 429) throw withAdvice(err, AGENT_RATE_LIMIT_ADVICE);
    if (err.status === 404) throw withAdvice(err, jobNotFoundAdvice(config));
    // A 400 also answers a bad prompt: the archived advice only when the job is archived.
    if (err.status === 400 && (await isArchived(config, jobId, deps))) {
      // Told afresh: the job, not an input, is what was refused, so no input is to check.
      const refused = describeStatus(
        `send a follow-up to agent job ${jobId}`,
        400,
        err.detail ?? '',
      );
      throw err.withMessage(
        `${refused} An archived job takes no follow-ups: leave \`agent-job-id\` empty to create a new job with this prompt.`,
      );
    }
    const advice = unknownOutcomeAdvice(err, FOLLOW_UP);
    throw advice === undefined ? err : withAdvice(err, advice);
  }
  // An answer without a status says nothing of the job's state: none is claimed then.
  reporter.info(
    `Follow-up sent to agent job ${job.id}${job.statusStated ? `, which is now ${job.status}` : ''}.`,
  );
  return job;
}

/** Whether the job reads as archived; a failed read says nothing either way. */
async function isArchived(
  config: AgentConfig,
  jobId: string,
  { api, signal }: Pick<AgentDeps, 'api' | 'signal'>,
): Promise<boolean> {
  try {
    return (await api.getAgentJob(config.projectId, jobId, signal)).status === 'archived';
  } catch (err) {
    if (signal?.aborted) throw err;
    return false;
  }
}

import type { AdminApi } from '../api/client.js';
import { ApiError, withAdvice } from '../api/errors.js';
import type { AgentJob } from '../api/schemas.js';
import type { Clock } from '../clock.js';
import { type AgentConfig, INPUT_ID } from '../config.js';
import { formatDuration } from '../duration.js';
import { errorMessage, JobFailedError, TimeoutError } from '../errors.js';
import { AGENT_SCHEDULE, pollUntilSettled } from '../poll.js';
import {
  type AgentRecord,
  CHECK_BEFORE_CREATING,
  describeTimeout,
  type OutputName,
  promptHeadline,
  type Reporter,
  setting,
} from '../report.js';
import {
  AGENT_RATE_LIMIT_ADVICE,
  jobNotFoundAdvice,
  type SentOnce,
  sendFollowUp,
  unknownOutcomeAdvice,
} from './follow-up.js';

export interface AgentDeps {
  api: AdminApi;
  reporter: Reporter;
  clock: Clock;
  deadline: number;
  signal?: AbortSignal;
  record: AgentRecord;
}

export function isAgentSettled(job: AgentJob): boolean {
  return job.status === 'completed' || job.status === 'archived' || job.status === 'failed';
}

/**
 * After a follow-up the job may still read as settled (the earlier run) for a moment:
 * until it has been seen active, a settled status counts only after this long.
 */
export const FOLLOW_UP_GRACE_MS = 30_000;

/**
 * An agent job from start to pull request: create one (prompt), follow an existing one
 * (agent-job-id), or send an existing one a follow-up and follow it (both). The outputs
 * are set as soon as each is known.
 */
export async function runAgent(config: AgentConfig, deps: AgentDeps): Promise<AgentRecord> {
  const { api, reporter, record, clock, signal } = deps;
  record.mode =
    config.jobId === undefined ? 'create' : config.prompt !== undefined ? 'follow-up' : 'attach';
  const published = new Map<OutputName, string>();
  const publish = (name: OutputName, value: string | undefined) => {
    if (value === undefined || published.get(name) === value) return;
    published.set(name, value);
    reporter.setOutput(name, value);
  };
  /** The job this run follows: the one it asked for, or the one it created. */
  let followed: string | undefined = config.jobId;
  let otherNamed = false;
  const remember = (job: AgentJob) => {
    followed ??= job.id;
    // An answer naming another job is not followed there: said once, as for an export.
    if (job.id !== followed && !otherNamed) {
      otherNamed = true;
      reporter.warning(
        `An answer about agent job ${followed} names job ${job.id}: following ${followed}, the job this run ${record.mode === 'create' ? 'created' : 'asked for'}.`,
      );
    }
    record.jobId = followed;
    record.status = job.status;
    record.prLink = job.prLink;
    record.prLinkUnusable = job.prLink === undefined && job.prLinkUnusable;
    record.repository = job.source.repository ?? record.repository;
    record.ref = job.source.ref ?? record.ref;
    record.model = job.model ?? record.model;
    record.createdAt = job.createdAt ?? record.createdAt;
    record.archivedAt = job.archivedAt ?? record.archivedAt;
    publish('agent-job-id', followed);
    publish('agent-repository', record.repository);
    publish('agent-branch', record.ref);
    publish('agent-model', record.model);
    // As soon as it is known: a run that times out still names the pull request.
    if (job.prLink) publish('pr-link', job.prLink);
  };

  const started =
    config.jobId === undefined
      ? await createJob(config, deps)
      : config.prompt !== undefined
        ? await reporter.group(`Sending a follow-up to agent job ${config.jobId}`, async () => {
            const job = await sendFollowUp(
              config,
              config.jobId as string,
              config.prompt as string,
              deps,
            );
            record.followUpSent = true;
            return job;
          })
        : await reporter.group(`Reading agent job ${config.jobId}`, async () => {
            const job = await api
              .getAgentJob(config.projectId, config.jobId as string, signal)
              .catch((err: unknown) => {
                if (err instanceof ApiError && err.status === 404) {
                  throw withAdvice(err, jobNotFoundAdvice(config));
                }
                throw err;
              });
            reporter.info(`Agent job ${config.jobId} is ${job.status}${onRepository(job)}.`);
            return job;
          });
  remember(started);

  if (!config.wait) {
    const job = await statusOf(started, config, deps);
    remember(job);
    publish('agent-status', job.status);
    if (job.prLink) publish('pr-link', job.prLink);
    // Right after a follow-up, a settled status may still be the earlier run's.
    if (job.status === 'failed' && record.mode !== 'follow-up') {
      throw failedError(job, record, record.mode === 'attach' ? '' : ' right away');
    }
    reporter.info(`\`wait: false\`: not following the job (${job.status}).`);
    return record;
  }

  const followUp = record.mode === 'follow-up';
  const waitStarted = clock.now();
  // A follow-up's answer without a status proves nothing: the job may read as settled
  // from its earlier run until it is seen active again.
  let seenActive = !followUp || (started.statusStated && started.status === 'active');
  let lastStatus = '';
  const jobId = followed as string;
  // Reading the job failed, not the job: it goes on, and the way back to it is said. A 404
  // ends that for a job given by id, but not for one this run has just created.
  const stillRunning = (err: unknown): never => {
    const notFound = err instanceof ApiError && err.status === 404;
    if (err instanceof ApiError && !signal?.aborted && (!notFound || record.mode === 'create')) {
      throw withAdvice(err, stillRunningAdvice(record.mode, jobId, notFound));
    }
    throw err;
  };
  const finished = await reporter.group(`Waiting for agent job ${jobId}`, () =>
    pollUntilSettled({
      read: (s) => api.getAgentJob(config.projectId, jobId, s),
      isSettled: (job) =>
        isAgentSettled(job) && (seenActive || clock.now() - waitStarted >= FOLLOW_UP_GRACE_MS),
      onPoll: (job) => {
        remember(job);
        if (job.status === 'active') seenActive = true;
        if (job.status === lastStatus) return;
        lastStatus = job.status;
        reporter.info(`[${formatDuration(clock.now() - waitStarted).padStart(7)}] ${job.status}`, {
          progress: true,
        });
        reporter.progress?.({ phase: 'agent', status: job.status });
      },
      interval: config.pollInterval,
      limits: AGENT_SCHEDULE,
      clock,
      deadline: deps.deadline,
      onDeadline: () => new TimeoutError(describeTimeout(record, config.timeoutMs)),
      ...(signal ? { signal } : {}),
    }).catch(stillRunning),
  );

  publish('agent-status', finished.status);
  publish('pr-link', finished.prLink ?? '');
  if (finished.status === 'failed') throw failedError(finished, record);
  if (finished.prLink) reporter.info(`Pull request: ${finished.prLink}`);
  else if (finished.prLinkUnusable)
    reporter.warning(
      `Agent job ${jobId} ended ${finished.status} with a pull request link that is not an http(s) address, so pr-link is empty: look for the pull request on the repository${finished.source.repository ? ` (${finished.source.repository})` : ''}.`,
    );
  else if (finished.status === 'completed')
    reporter.notice(
      `Agent job ${jobId} ended completed without a pull request: the agent changed no files.`,
    );
  // Archiving can stop a job before the agent is done: no pull request proves nothing.
  else
    reporter.warning(
      `Agent job ${jobId} was archived without a pull request, perhaps before the agent finished: whether it changed files is not known. Check the job${record.ref ? `, and its branch ${record.ref}` : ''}${record.repository ? ` on ${record.repository}` : ''}.`,
    );
  return record;
}

/**
 * A created job's own status, for wait: false: the create answer is documented without
 * one, so the job is read once. The read is a courtesy: the job exists either way, so a
 * read that fails is a warning (re-running the step would create a second job). A
 * follow-up is not read: right after it, the job may still show its earlier run.
 */
async function statusOf(
  started: AgentJob,
  config: AgentConfig,
  deps: AgentDeps,
): Promise<AgentJob> {
  const { api, reporter, record, signal } = deps;
  if (started.statusStated || record.mode === 'follow-up') return started;
  try {
    return await api.getAgentJob(config.projectId, started.id, signal);
  } catch (err) {
    if (signal?.aborted) throw err;
    reporter.warning(
      `Agent job ${started.id} was created, but reading its status failed (${errorMessage(err)}): it is taken as active. Follow it with ${setting('agent-job-id', started.id)}; running this step again would create a second job.`,
    );
    return started;
  }
}

function onRepository(job: AgentJob): string {
  if (!job.source.repository) return '';
  return ` on ${job.source.repository}${job.source.ref ? ` (branch ${job.source.ref})` : ''}`;
}

/**
 * What to do when the job could no longer be read while waiting: it keeps running on the
 * server, and this step run again would create it, or send its follow-up, a second time.
 * `notFound`: the service answered 404 about the job this run created.
 */
function stillRunningAdvice(mode: AgentRecord['mode'], jobId: string, notFound = false): string {
  const follow = setting('agent-job-id', jobId);
  if (mode === 'create') {
    // The 404's own message says the service does not know the job this run created.
    const created = notFound
      ? 'It may still show up, and run'
      : `Agent job ${jobId} was created and may still be running`;
    return `${created}: follow it with ${follow} (and no \`prompt\`)${notFound ? ' once the service knows it' : ''}; running this step again as it is would create a second job.`;
  }
  if (mode === 'follow-up') {
    return `The follow-up was sent to agent job ${jobId}, which may still be running: follow it with ${follow} and no \`prompt\`; with the prompt, it would be sent again.`;
  }
  return `Agent job ${jobId} may still be running: follow it again later with ${follow}.`;
}

/** The API documents no reason on a failed job; a server that sends one has it shown. */
function failedError(job: AgentJob, record: AgentRecord, when = ''): JobFailedError {
  record.error = job.error;
  // The job the run follows, whatever id the answer names.
  const id = record.jobId ?? job.id;
  return new JobFailedError(
    `Agent job ${id} failed${when}: ${job.error ?? 'the API gave no reason'}.${job.prLink ? ` Its pull request: ${job.prLink}.` : ''} To try again, send it a follow-up (${setting('agent-job-id', id)} and a \`prompt\` saying what to change), or start a new job.`,
  );
}

/** A job creation, sent at most once: a second job would open a second pull request. */
const CREATE: SentOnce = { subject: 'The job', done: 'created', check: CHECK_BEFORE_CREATING };

async function createJob(config: AgentConfig, deps: AgentDeps): Promise<AgentJob> {
  const { api, reporter, signal } = deps;
  const prompt = config.prompt as string;
  return reporter.group(`Creating an agent job in project ${config.projectId}`, async () => {
    reporter.info(`Prompt: ${promptHeadline(prompt)}`);
    let job: AgentJob;
    try {
      job = await api.createAgentJob(config.projectId, prompt, signal);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.status === 429) throw withAdvice(err, AGENT_RATE_LIMIT_ADVICE);
      const advice = unknownOutcomeAdvice(err, CREATE);
      throw advice === undefined ? err : withAdvice(err, advice);
    }
    reporter.info(
      `Agent job ${job.id} created (${job.status})${job.source.repository ? ` on ${job.source.repository}` : ''}.`,
    );
    if (job.source.ref) reporter.info(`Branch: ${job.source.ref}`);
    // Said now, while this run can still follow it: a later run could not.
    if (!INPUT_ID.test(job.id)) {
      reporter.warning(
        `The API named the job ${JSON.stringify(job.id)}, which \`agent-job-id\` does not take (letters, digits, ".", "_" and "-" only): a later run cannot follow it or send it a follow-up.`,
      );
    }
    return job;
  });
}

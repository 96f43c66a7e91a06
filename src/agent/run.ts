import type { AdminApi } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { AgentJob } from '../api/schemas.js';
import type { Clock } from '../clock.js';
import type { AgentConfig } from '../config.js';
import { formatDuration } from '../duration.js';
import { JobFailedError, TimeoutError } from '../errors.js';
import { AGENT_SCHEDULE, pollUntilSettled } from '../poll.js';
import { type AgentRecord, describeTimeout, promptHeadline, type Reporter } from '../report.js';

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

/** create → poll → pull request link. */
export async function runAgent(config: AgentConfig, deps: AgentDeps): Promise<AgentRecord> {
  const { api, reporter, record, clock, signal } = deps;
  const remember = (job: AgentJob) => {
    record.jobId = job.id;
    record.status = job.status;
    record.prLink = job.prLink;
    record.repository = job.source.repository ?? record.repository;
    record.ref = job.source.ref ?? record.ref;
    record.model = job.model ?? record.model;
    record.createdAt = job.createdAt ?? record.createdAt;
    record.archivedAt = job.archivedAt ?? record.archivedAt;
  };

  const created = await reporter.group(
    `Creating an agent job in project ${config.projectId}`,
    async () => {
      reporter.info(`Prompt: ${promptHeadline(config.prompt)}`);
      let job: AgentJob;
      try {
        job = await api.createAgentJob(config.projectId, config.prompt, signal);
      } catch (err) {
        if (err instanceof ApiError && err.status === 429) {
          throw err.withMessage(
            `${err.message} Agent jobs are limited to 100 creations per project per rolling hour (follow-up messages count too): wait for older jobs to age out of the hour, or raise timeout so the action waits longer.`,
          );
        }
        if (
          err instanceof ApiError &&
          (err.kind === 'network' || err.kind === 'timeout' || err.kind === 'server')
        ) {
          throw err.withMessage(
            `${err.message} The job may have been created anyway: check the project's agent jobs before running again, since a second job would open a second pull request.`,
          );
        }
        throw err;
      }
      remember(job);
      reporter.setOutput('agent-job-id', job.id);
      reporter.info(
        `Agent job ${job.id} created (${job.status})${job.source.repository ? ` on ${job.source.repository}` : ''}.`,
      );
      return job;
    },
  );

  if (!config.wait) {
    reporter.setOutput('agent-status', created.status);
    // Not waiting does not hide a job that has already failed.
    if (created.status === 'failed') {
      record.error = created.error;
      throw new JobFailedError(
        `Agent job ${created.id} failed right away: ${created.error ?? 'the API gave no reason'}.`,
      );
    }
    reporter.info('wait is false: not following the job.');
    return record;
  }

  const started = clock.now();
  let lastStatus = '';
  const finished = await reporter.group(`Waiting for agent job ${created.id}`, () =>
    pollUntilSettled({
      read: (s) => api.getAgentJob(config.projectId, created.id, s),
      isSettled: isAgentSettled,
      onPoll: (job) => {
        remember(job);
        if (job.status === lastStatus) return;
        lastStatus = job.status;
        reporter.info(`[${formatDuration(clock.now() - started).padStart(7)}] ${job.status}`, {
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
    }),
  );

  reporter.setOutput('agent-status', finished.status);
  reporter.setOutput('pr-link', finished.prLink ?? '');
  if (finished.status === 'failed') {
    record.error = finished.error;
    throw new JobFailedError(
      `Agent job ${finished.id} failed: ${finished.error ?? 'the API gave no reason'}.`,
    );
  }
  if (finished.prLink) reporter.info(`Pull request: ${finished.prLink}`);
  else
    reporter.notice(
      `Agent job ${finished.id} ended ${finished.status} without a pull request: the agent changed no files.`,
    );
  return record;
}

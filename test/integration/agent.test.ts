import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../emulator/index.js';
import {
  cancelWhen,
  type CaseRun,
  errorLines,
  type Harness,
  noticeLines,
  startHarness,
} from '../support/in-process.js';

const PROJECT = 'demo-project';
const REPOSITORY = 'https://github.com/example/docs';
const MODEL = 'claude-sonnet-4';
const AGENT_FAILURE = 'Agent failed: the requested changes could not be applied';
/** The agent command with a quick fixed poll, so a 1.5 s job settles at the fourth poll. */
const AGENT = { command: 'agent', 'project-id': PROJECT, 'poll-interval': '0.5s' };

let harness: Harness;
beforeAll(async () => {
  // The failure reason is a variant of the emulator (the vendor's schema has none).
  harness = await startHarness({ agentDurationMs: 1500, agentFailureReason: true });
});
afterAll(async () => {
  await harness.stop();
});

/** The requests `h` received from now on, read when the returned function is called. */
function requestsFrom(h: Harness): (route?: RecordedRequest['route']) => RecordedRequest[] {
  const before = h.emulator.requests.length;
  return (route) => h.emulator.requests.slice(before).filter((r) => !route || r.route === route);
}

/** Milliseconds between consecutive requests, on the clock the action and the jobs share. */
function gaps(requests: RecordedRequest[]): number[] {
  return requests.slice(1).map((r, i) => r.at - (requests[i] as RecordedRequest).at);
}

describe('agent, end to end against the emulator', () => {
  it('follows a job created without status to completed with a pull request (default auto poll)', async () => {
    const seen = requestsFrom(harness);
    const prompt = 'Fix the typos in the quickstart guide';
    const run = await harness.run({ command: 'agent', 'project-id': PROJECT, prompt });
    expect(run.code, run.stdout).toBe(0);
    const id = run.outputs['agent-job-id'] as string;
    const job = harness.emulator.agentJobs.get(id);
    expect(job?.prompts).toEqual([prompt]);
    // The create answer has no status: the job is taken as active.
    expect(run.stdout).toContain(`Agent job ${id} created (active) on ${REPOSITORY}.`);
    // The output the user needs is written before the wait.
    expect(Object.keys(run.outputs)[0]).toBe('agent-job-id');
    expect(run.outputs).toEqual({
      'agent-job-id': id,
      'agent-repository': REPOSITORY,
      'agent-branch': `agent/${id.slice(0, 8)}`,
      'agent-model': MODEL,
      'agent-status': 'completed',
      'pr-link': job?.prLink,
    });
    expect(run.outputs['pr-link']).toMatch(/^https:\/\/github\.com\/example\/docs\/pull\/\d+$/);
    expect(run.stdout).toContain(`Pull request: ${run.outputs['pr-link']}`);
    expect(noticeLines(run)).toEqual([]);
    expect(run.stdout).toContain(`::group::Creating an agent job in project ${PROJECT}`);
    expect(run.stdout).toContain(`::group::Waiting for agent job ${id}`);
    // auto: agent jobs report no progress, so the second poll comes 2 s after the first.
    expect(seen('agent.create')).toHaveLength(1);
    const polls = seen('agent.get');
    expect(gaps(polls)).toEqual([2000]);
    // The job summary: prompt, job, status, pull request, repository @ ref, model, times.
    expect(run.summary).toContain(`### ✅ Agent job in ${PROJECT}`);
    expect(run.summary).toContain(`| Prompt | ${prompt} |`);
    expect(run.summary).toContain(`| Job | \`${id}\` |`);
    expect(run.summary).toContain('| Status | completed |');
    expect(run.summary).toContain(
      `| Pull request | [${run.outputs['pr-link']}](${run.outputs['pr-link']}) |`,
    );
    // What the server sent, as text: no address in it is a link of the summary's.
    expect(run.summary).toContain(
      `| Repository | ${REPOSITORY.replace(':', '\\:')} \\@ agent/${id.slice(0, 8)} |`,
    );
    expect(run.summary).toContain(`| Model | ${MODEL} |`);
    expect(run.summary).toContain(`| Created | ${job?.createdAt} |`);
    expect(run.summary).toMatch(/\| Duration \| [\d.]+m?s \|/);
    expect(run.summary).not.toContain('| Archived |');
  });

  it('ends completed without a pull request: empty pr-link and a notice', async () => {
    const run = await harness.run({ ...AGENT, prompt: '[no-changes] Check the links' });
    expect(run.code, run.stdout).toBe(0);
    const id = run.outputs['agent-job-id'] as string;
    expect(run.outputs['agent-status']).toBe('completed');
    expect(run.outputs).toHaveProperty('pr-link', '');
    expect(noticeLines(run)).toEqual([
      `::notice::Agent job ${id} ended completed without a pull request: the agent changed no files.`,
    ]);
    expect(run.stdout).not.toContain('Pull request:');
    expect(run.summary).toContain('| Pull request | none (the agent changed no files) |');
  });

  it('fails with the API error text when the job fails', async () => {
    const run = await harness.run({ ...AGENT, prompt: '[fail] Rewrite everything' });
    expect(run.code).toBe(1);
    const id = run.outputs['agent-job-id'] as string;
    expect(run.outputs['agent-status']).toBe('failed');
    expect(run.outputs).toHaveProperty('pr-link', '');
    const retry = ` To try again, send it a follow-up (\`agent-job-id: ${id}\` and a \`prompt\` saying what to change), or start a new job.`;
    expect(errorLines(run)).toEqual([`::error::Agent job ${id} failed: ${AGENT_FAILURE}.${retry}`]);
    expect(run.summary).toContain(`### ❌ Agent job in ${PROJECT} failed`);
    expect(run.summary).toContain('| Status | failed |');
    // Shown as text: its colons escaped, so that no address in it becomes a link.
    const shown = (text: string) => text.replace(/:/g, '\\:');
    expect(run.summary).toContain(
      `**Error:** Agent job ${id} failed\\: ${shown(AGENT_FAILURE)}.${retry}`,
    );
  });

  it('succeeds on an archived job and shows the archived time in the summary', async () => {
    const run = await harness.run({ ...AGENT, prompt: '[archive] Update the changelog' });
    expect(run.code, run.stdout).toBe(0);
    const job = harness.emulator.agentJobs.get(run.outputs['agent-job-id'] as string);
    expect(job?.archivedAt).toEqual(expect.any(String));
    expect(run.outputs['agent-status']).toBe('archived');
    expect(run.outputs['pr-link']).toBe(job?.prLink);
    expect(run.summary).toContain('| Status | archived |');
    expect(run.summary).toContain(`| Created | ${job?.createdAt} |`);
    expect(run.summary).toContain(`| Archived | ${job?.archivedAt} |`);
  });

  it('does not claim that a job archived before it finished changed no files', async () => {
    const slow = await startHarness({ agentDurationMs: 10 * 60_000 });
    try {
      let archived = false;
      const run = await slow.run(
        { ...AGENT, prompt: 'Rewrite the quickstart' },
        {
          // Once the run has seen the job active, someone archives it on the dashboard.
          onLine: (line) => {
            if (archived || !/\] active$/.test(line)) return;
            const job = slow.emulator.agentJobs.list()[0];
            slow.emulator.archiveAgentJob(PROJECT, job?.id as string);
            archived = true;
          },
        },
      );
      expect(archived).toBe(true);
      // The documented outcomes fail the step only for failed: archived is not one.
      expect(run.code, run.stdout).toBe(0);
      const id = run.outputs['agent-job-id'] as string;
      expect(run.outputs['agent-status']).toBe('archived');
      expect(run.outputs).toHaveProperty('pr-link', '');
      expect(run.stdout).not.toContain('changed no files');
      expect(noticeLines(run)).toEqual([]);
      expect(run.stdout).toContain(
        `::warning::Agent job ${id} was archived without a pull request, perhaps before the agent finished: whether it changed files is not known. Check the job, and its branch agent/${id.slice(0, 8)} on ${REPOSITORY}.`,
      );
      expect(run.summary).toContain(
        '| Pull request | none (archived, perhaps before the agent finished: see the log) |',
      );
    } finally {
      await slow.stop();
    }
  });

  it('logs a multi-line prompt only as its first line, shortened, but sends all of it', async () => {
    const first = `Rewrite the installation page ${'so that it reads well '.repeat(5)}`.trim();
    const prompt = `${first}\nSECOND-LINE-DETAIL about the table\nthird line`;
    const run = await harness.run({ ...AGENT, prompt, wait: 'false' });
    expect(run.code, run.stdout).toBe(0);
    // Cut at the last word that fits in 79 characters, never inside a word.
    const headline = `${first.slice(0, first.lastIndexOf(' ', 79))}… (+2 more lines)`;
    expect(run.stdout).toContain(`Prompt: ${headline}\n`);
    // As text: the parentheses escaped, as anything Markdown could read.
    expect(run.summary).toContain(`| Prompt | ${headline.replace(/[()]/g, '\\$&')} |`);
    for (const text of [run.stdout, run.summary, ...Object.values(run.outputs)]) {
      expect(text).not.toContain('SECOND-LINE-DETAIL');
      expect(text).not.toContain(first);
    }
    expect(harness.emulator.agentJobs.get(run.outputs['agent-job-id'] as string)?.prompts).toEqual([
      prompt,
    ]);
  });

  it('returns right after creation with wait: false', async () => {
    const seen = requestsFrom(harness);
    const run = await harness.run({ ...AGENT, prompt: 'Add a FAQ page', wait: 'false' });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs).toEqual({
      'agent-job-id': expect.stringMatching(/^[0-9a-f]{24}$/),
      'agent-repository': REPOSITORY,
      'agent-branch': expect.stringMatching(/^agent\/[0-9a-f]{8}$/),
      'agent-model': MODEL,
      'agent-status': 'active',
    });
    expect(run.stdout).toContain('`wait: false`: not following the job (active).');
    // The create answer has no status, as documented: the job is read once for its own.
    expect(seen().map((r) => r.route)).toEqual(['agent.create', 'agent.get']);
    expect(run.summary).toContain('| Status | active |');
    expect(run.summary).not.toContain('| Pull request |');
    expect(run.elapsedMs).toBe(0);
  });

  it('refuses bad inputs before any request', async () => {
    const seen = requestsFrom(harness);
    const missing = await harness.run({ command: 'agent' });
    expect(missing.code).toBe(1);
    expect(errorLines(missing)).toEqual([
      expect.stringMatching(/^::error::Invalid input project-id: is required for command "agent"/),
      expect.stringMatching(/^::error::Invalid input prompt: is required for command "agent"/),
    ]);

    const wrong = await harness.run({
      command: 'agent',
      'project-id': 'demo/project',
      prompt: '  \n  ',
      'poll-interval': '100ms',
      wait: 'maybe',
    });
    expect(wrong.code).toBe(1);
    expect(errorLines(wrong)).toEqual([
      expect.stringMatching(/^::error::Invalid input poll-interval: must be "auto" or a duration/),
      expect.stringMatching(/^::error::Invalid input project-id: must be the project identifier/),
      expect.stringMatching(/^::error::Invalid input prompt: must hold an instruction/),
      expect.stringMatching(/^::error::Invalid input wait: must be true or false, got "maybe"/),
    ]);
    for (const run of [missing, wrong]) {
      expect(run.outputs).toEqual({});
      expect(run.summary).toBe('');
    }
    expect(seen()).toEqual([]);
  });

  it('says a pull request link it cannot use is one, not that the agent changed nothing', async () => {
    const created = await harness.run({ ...AGENT, prompt: 'Fix the links', wait: 'false' });
    const id = created.outputs['agent-job-id'] as string;
    harness.emulator.faults.add({
      route: 'agent.get',
      status: 200,
      times: 20,
      body: JSON.stringify({
        id,
        status: 'completed',
        source: { repository: REPOSITORY },
        prLink: 'github.com/example/docs/pull/7',
      }),
    });
    const run = await harness.run({ ...AGENT, 'agent-job-id': id });
    harness.emulator.faults.clear();
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs['pr-link'], run.stdout).toBe('');
    expect(run.stdout).toContain(
      `Agent job ${id} ended completed with a pull request link that is not an http(s) address, so pr-link is empty: look for the pull request on the repository (${REPOSITORY}).`,
    );
    expect(noticeLines(run).join('\n')).not.toContain('changed no files');
    expect(run.summary).not.toContain('no changes, no pull request');
    expect(run.summary).toContain(
      '| Pull request | its link is not an http(s) address (see the log) |',
    );
  });

  it('warns when the API names a job by an id that agent-job-id cannot take back', async () => {
    harness.emulator.faults.add({
      route: 'agent.create',
      status: 201,
      body: JSON.stringify({ id: 'aj:5e6f+7a8b=', source: {}, prLink: null }),
    });
    const run = await harness.run({ ...AGENT, prompt: 'Fix the links', wait: 'false' });
    expect(run.outputs['agent-job-id']).toBe('aj:5e6f+7a8b=');
    expect(run.stdout).toContain(
      'The API named the job "aj:5e6f+7a8b=", which `agent-job-id` does not take (letters, digits, ".", "_" and "-" only): a later run cannot follow it or send it a follow-up.',
    );
  });

  it('keeps following the job it asked for when an answer names another', async () => {
    const failing = await harness.run({
      ...AGENT,
      prompt: '[fail] Rewrite everything',
      wait: 'false',
    });
    const asked = failing.outputs['agent-job-id'] as string;
    const other = (await harness.run({ ...AGENT, prompt: 'Other', wait: 'false' })).outputs[
      'agent-job-id'
    ] as string;
    const seen = requestsFrom(harness);
    harness.emulator.faults.add({
      route: 'agent.get',
      status: 200,
      times: 1,
      body: JSON.stringify({ id: other, status: 'active', source: {}, prLink: null }),
    });
    const run = await harness.run({ ...AGENT, 'agent-job-id': asked });
    expect(run.code).toBe(1);
    expect(run.outputs['agent-job-id']).toBe(asked);
    expect(run.stdout).toContain(
      `An answer about agent job ${asked} names job ${other}: following ${asked}, the job this run asked for.`,
    );
    expect(errorLines(run)).toEqual([
      expect.stringMatching(new RegExp(`^::error::Agent job ${asked} failed`)),
    ]);
    expect(seen('agent.get').every((r) => r.path.endsWith(`/job/${asked}`))).toBe(true);
  });

  it('reads again a job it created that the service does not know yet (404), and follows it', async () => {
    const seen = requestsFrom(harness);
    harness.emulator.faults.add({
      route: 'agent.get',
      status: 404,
      body: JSON.stringify({ error: 'Job not found' }),
      times: 2,
    });
    const run = await harness.run({ ...AGENT, prompt: 'Fix the sidebar' });
    expect(run.code, run.stdout).toBe(0);
    const id = run.outputs['agent-job-id'] as string;
    expect(run.stdout).toMatch(
      new RegExp(
        `^Could not read agent job ${id} \\(HTTP 404 \\(Job not found\\), just after this run created the job\\): trying again in \\d+ms \\(attempt 2\\)\\.$`,
        'm',
      ),
    );
    expect(
      seen('agent.get')
        .slice(0, 3)
        .map((r) => r.status),
    ).toEqual([404, 404, 200]);
    expect(run.outputs['agent-status']).toBe('completed');
  });

  it('fails when the service still does not know the job it created after a few seconds, and says how to follow it', async () => {
    const seen = requestsFrom(harness);
    harness.emulator.faults.add({
      route: 'agent.get',
      status: 404,
      body: JSON.stringify({ error: 'Job not found' }),
      times: Infinity,
    });
    const startedAt = harness.clock.now();
    let run: CaseRun;
    try {
      run = await harness.run({ ...AGENT, prompt: 'Fix the sidebar' });
    } finally {
      harness.emulator.faults.clear();
    }
    expect(run.code).toBe(1);
    const id = run.outputs['agent-job-id'] as string;
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    // The job exists all the same: a rerun as it is would create a second one.
    expect(errorLines(run)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^::error::Could not read agent job ${id} \\(HTTP 404: Job not found\\): the service does not know agent job ${id} of project demo-project, though it gave this run that id when the job was created [\\d.]+s before\\. Gave up after \\d+ attempts over [\\d.]+s\\. It may still show up, and run: follow it with \`agent-job-id: ${id}\` \\(and no \`prompt\`\\) once the service knows it; running this step again as it is would create a second job\\.$`,
        ),
      ),
    ]);
    // A few seconds, not the run's timeout.
    expect(seen('agent.get').length).toBeGreaterThan(2);
    expect(harness.clock.now() - startedAt).toBeLessThanOrEqual(10_500);
    expect(run.outputs['agent-status']).toBeUndefined();
  });

  it('when the created job can no longer be read, says it may still run and not to run the step again', async () => {
    harness.emulator.faults.add({
      route: 'agent.get',
      status: 429,
      retryAfter: '7200',
      body: JSON.stringify({ error: 'Rate limit exceeded' }),
    });
    const run = await harness.run({ ...AGENT, prompt: 'Add a FAQ' });
    expect(run.code).toBe(1);
    const id = run.outputs['agent-job-id'] as string;
    expect(errorLines(run)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^::error::Could not read agent job ${id} \\(HTTP 429: Rate limit exceeded\\).* Agent job ${id} was created and may still be running: follow it with \`agent-job-id: ${id}\` \\(and no \`prompt\`\\); running this step again as it is would create a second job\\.$`,
        ),
      ),
    ]);
    expect(harness.emulator.agentJobs.list().filter((job) => job.id === id)).toHaveLength(1);
  });

  it('names the inputs to check when a 400 on the create names none of them', async () => {
    harness.emulator.faults.add({
      route: 'agent.create',
      status: 400,
      body: JSON.stringify({ error: 'Invalid request' }),
    });
    const run = await harness.run({ ...AGENT, prompt: 'Fix the typos' });
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual([
      `::error::Could not create an agent job in project ${PROJECT} (HTTP 400: Invalid request). The service does not say which input it refuses: check \`prompt\` (an instruction of at least one character) and \`project-id\`.`,
    ]);
  });

  // A create that may have reached the server must not be repeated: a second agent job
  // would open a second pull request.
  it.each([
    [
      'a proxy 502 (HTML)',
      { status: 502, body: 'html' },
      /HTTP 502: an HTML page titled "502 Bad Gateway"/,
    ],
    ['a 504 (JSON)', { status: 504, body: 'json' }, /HTTP 504: Gateway Timeout \(emulated fault\)/],
    ['a connection reset', { reset: true }, /the connection failed/],
  ] as const)('does not retry the create after %s', async (_name, fault, message) => {
    const seen = requestsFrom(harness);
    const jobsBefore = harness.emulator.agentJobs.list().length;
    harness.emulator.faults.add({ route: 'agent.create', ...fault });
    const run = await harness.run({ ...AGENT, prompt: 'Document the new API' });
    expect(run.code).toBe(1);
    expect(seen('agent.create')).toHaveLength(1);
    expect(seen()).toHaveLength(1);
    expect(harness.emulator.agentJobs.list()).toHaveLength(jobsBefore);
    expect(errorLines(run)).toEqual([
      expect.stringMatching(/^::error::Could not create an agent job in project demo-project/),
    ]);
    expect(errorLines(run)[0]).toMatch(message);
    expect(run.stdout).not.toContain('trying again');
    expect(run.outputs).toEqual({});
  });

  // A 2xx means the server took the request: the job exists even if its answer is unusable.
  it.each([
    ['an HTML page', 'html'],
    ['JSON without the job id', '{"status":"active"}'],
    ['a body over the size limit', `{"id":"x","log":"${'x'.repeat(2 << 20)}"}`],
  ])('says the job was probably created when the 201 holds %s', async (_name, body) => {
    const seen = requestsFrom(harness);
    harness.emulator.faults.add({ route: 'agent.create', status: 201, body });
    const run = await harness.run({ ...AGENT, prompt: 'Document the new API' });
    expect(run.code).toBe(1);
    expect(seen('agent.create')).toHaveLength(1);
    expect(errorLines(run)).toEqual([
      expect.stringMatching(
        /^::error::Could not create an agent job in project demo-project: .* The API accepted the request \(HTTP 201\), so the job was probably created: check the project's agent jobs before running again, since a second job would open a second pull request\.$/,
      ),
    ]);
  });

  it('server text with line breaks or escape sequences cannot forge workflow commands in the log', async () => {
    const forged = (field: string) => `x\n::error::forged by ${field}\r\n::add-mask::x\u001b[2J`;
    harness.emulator.faults.add({
      route: 'agent.create',
      status: 201,
      body: JSON.stringify({
        id: 'job-forged',
        status: `active\n::error::forged by status`,
        source: { repository: forged('repository'), ref: forged('ref') },
        model: forged('model'),
        prLink: `https://github.com/example/docs/pull/1\n::error::forged by prLink`,
      }),
    });
    const run = await harness.run({ ...AGENT, prompt: 'Fix the typos', wait: 'false' });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).not.toMatch(/^::(error::forged|add-mask::x)/m);
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stdout).toContain('Branch: x ::error::forged by ref ::add-mask::x [2J');
    expect(run.outputs['agent-model']).toBe('x ::error::forged by model ::add-mask::x [2J');
    expect(run.outputs['agent-status']).toBe('active ::error::forged by status');
    // A link with a line break in it is no link: it is left out.
    expect(run.outputs['pr-link']).toBeUndefined();
  });

  it('polls at a fixed poll-interval', async () => {
    const seen = requestsFrom(harness);
    const run = await harness.run({ ...AGENT, prompt: 'Tidy the glossary' });
    expect(run.code, run.stdout).toBe(0);
    // 0, 0.5, 1 and 1.5 s: the job (1.5 s) is completed at the fourth poll.
    expect(gaps(seen('agent.get'))).toEqual([500, 500, 500]);
    // One log line per change of status, not per poll.
    const statusLines = run.stdout.split('\n').filter((l) => /^\[ *[\d.]+m?s\] /.test(l));
    expect(statusLines.map((l) => l.replace(/^\[[^\]]*\] /, ''))).toEqual(['active', 'completed']);
  });

  it('works the same when the create answer carries status', async () => {
    const withStatus = await startHarness({ agentDurationMs: 1500, createIncludesStatus: true });
    try {
      const run = await withStatus.run({ ...AGENT, prompt: 'Fix the typos' });
      expect(run.code, run.stdout).toBe(0);
      expect(run.stdout).toMatch(/Agent job [0-9a-f]{24} created \(active\)/);
      expect(run.outputs['agent-status']).toBe('completed');
      expect(run.outputs['pr-link']).toMatch(/\/pull\/\d+$/);
    } finally {
      await withStatus.stop();
    }
  });
});

describe('agent creation rate limit (429)', () => {
  it('honours Retry-After and then succeeds', async () => {
    const limited = await startHarness({ agentRateLimit: 1, agentRetryAfter: true });
    try {
      const earlier = await fetch(`${limited.emulator.baseUrl}/v2/agent/${PROJECT}/job`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${limited.emulator.keys.write}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ prompt: 'an earlier job uses the budget' }),
      });
      expect(earlier.status).toBe(201);
      const seen = requestsFrom(limited);
      const run = await limited.run({ ...AGENT, prompt: 'Fix the typos', timeout: '2h' });
      expect(run.code, run.stdout).toBe(0);
      const creates = seen('agent.create');
      expect(creates.map((r) => r.status)).toEqual([429, 201]);
      // The server's delay (the hour the earlier job holds the budget), not a jittered one.
      expect(gaps(creates)).toEqual([3_600_000]);
      expect(run.stdout).toMatch(
        /^Could not create an agent job in project demo-project \(HTTP 429 \(Rate limit exceeded: 1 agent jobs per project per hour\)\): rate limited, trying again in 1h 00m \(attempt 2\), as the service asked \(Retry-After\)\.$/m,
      );
      expect(run.outputs['agent-status']).toBe('completed');
      expect(Object.keys(run.outputs)[0]).toBe('agent-job-id');
    } finally {
      await limited.stop();
    }
  });

  it('without Retry-After, waits a second and a jittered backoff, and logs when it tries next', async () => {
    const seen = requestsFrom(harness);
    harness.emulator.faults.add({ route: 'agent.create', status: 429, body: 'json' });
    const run = await harness.run({ ...AGENT, prompt: 'Fix the typos' });
    expect(run.code, run.stdout).toBe(0);
    const retry =
      /HTTP 429 \(Too Many Requests \(emulated fault\)\)\): rate limited, trying again in (\d\.\d)s \(attempt 2\)\. The service named no wait \(no Retry-After\): the waits grow, with jitter, to 16s at most, until the timeout\.$/m.exec(
        run.stdout,
      );
    expect(retry, run.stdout).not.toBeNull();
    const delayMs = Number(retry?.[1]) * 1000;
    // A second, then full jitter within the first ceiling (1 s), never zero: a rate limit
    // is not lifted at once.
    expect(delayMs).toBeGreaterThanOrEqual(1000);
    expect(delayMs).toBeLessThanOrEqual(2000);
    const creates = seen('agent.create');
    expect(creates.map((r) => r.status)).toEqual([429, 201]);
    // The wait logged is the wait taken (the log rounds to tenths of a second).
    expect(Math.abs((gaps(creates)[0] as number) - delayMs)).toBeLessThanOrEqual(60);
    expect(run.outputs['agent-status']).toBe('completed');
  });

  it('says how waits without Retry-After grow once, not on every try of a long rate limit', async () => {
    harness.emulator.faults.add({ route: 'agent.create', status: 429, body: 'json', times: 3 });
    const run = await harness.run({ ...AGENT, prompt: 'Fix the typos' });
    expect(run.code, run.stdout).toBe(0);
    const tries = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('Could not create an agent job'));
    expect(tries).toEqual([
      expect.stringMatching(
        /: rate limited, trying again in \S+ \(attempt 2\)\. The service named no wait \(no Retry-After\): the waits grow, with jitter, to 16s at most, until the timeout\.$/,
      ),
      expect.stringMatching(
        /: rate limited, trying again in \S+ \(attempt 3\) \(no Retry-After\)\.$/,
      ),
      expect.stringMatching(
        /: rate limited, trying again in \S+ \(attempt 4\) \(no Retry-After\)\.$/,
      ),
    ]);
  });

  it('fails at the timeout, explaining the hourly limit, when every create answers 429', async () => {
    const exhausted = await startHarness({ agentRateLimit: 0 });
    try {
      const seen = requestsFrom(exhausted);
      const run = await exhausted.run({ ...AGENT, prompt: 'Fix the typos', timeout: '3s' });
      expect(run.code).toBe(1);
      expect(seen('agent.create').length).toBeGreaterThanOrEqual(2);
      expect(seen('agent.create').every((r) => r.status === 429)).toBe(true);
      expect(run.stdout).toMatch(/rate limited, trying again in \d+(ms|\.\ds) \(attempt 2\)/);
      expect(errorLines(run)).toHaveLength(1);
      expect(errorLines(run)[0]).toMatch(/HTTP 429/);
      expect(errorLines(run)[0]).toMatch(
        /limited per project per rolling hour \(the documented limit is 100 creations/,
      );
      expect(run.elapsedMs).toBeLessThanOrEqual(3000);
      expect(run.outputs).toEqual({});
    } finally {
      await exhausted.stop();
    }
  });

  it('fails at once, explaining the hourly limit, when Retry-After goes past the timeout', async () => {
    const exhausted = await startHarness({ agentRateLimit: 0, agentRetryAfter: true });
    try {
      const seen = requestsFrom(exhausted);
      const run = await exhausted.run({ ...AGENT, prompt: 'Fix the typos', timeout: '30s' });
      expect(run.code).toBe(1);
      expect(seen('agent.create')).toHaveLength(1);
      expect(errorLines(run)).toHaveLength(1);
      expect(errorLines(run)[0]).toMatch(/the server asked to wait 3600s/);
      expect(errorLines(run)[0]).toMatch(
        /limited per project per rolling hour \(the documented limit is 100 creations/,
      );
      expect(run.elapsedMs).toBe(0);
    } finally {
      await exhausted.stop();
    }
  });
});

describe('agent cancellation and timeout', () => {
  let slow: Harness;
  beforeAll(async () => {
    slow = await startHarness({ agentDurationMs: 60_000 });
  });
  afterAll(async () => {
    await slow.stop();
  });

  it('stops polling at once on SIGTERM, saying the job keeps running', async () => {
    const seen = requestsFrom(slow);
    // Sent 300 ms after the first "active" line: while the action waits for the next poll.
    const cancel = cancelWhen(slow, /^\[ *[\d.]+m?s\] active$/, 'SIGTERM', { afterMs: 300 });
    const startedAt = slow.clock.now();
    const run = await slow.run(
      { command: 'agent', 'project-id': PROJECT, prompt: 'Fix the typos' },
      cancel.options,
    );
    expect(cancel.sentAt()).toBe(startedAt + 300);
    expect(run.elapsedMs).toBe(300);
    expect(run.code).toBe(1);
    // No poll after the signal.
    expect(seen('agent.get').every((r) => r.at < (cancel.sentAt() as number))).toBe(true);
    const id = run.outputs['agent-job-id'] as string;
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(run.outputs['agent-status']).toBeUndefined();
    expect(errorLines(run)).toEqual([
      `::error::Cancelled (SIGTERM). Agent job ${id} keeps running on the server: the API has no way to cancel it.`,
    ]);
    expect(run.summary).toContain('| Status | active |');
    // The job did not fail: the run stopped following it.
    expect(run.summary).toContain(
      `### ❌ Agent job in ${PROJECT} not followed to its end: still active`,
    );
  });

  const MAY_EXIST =
    "a job may have been created: check the project's agent jobs before running again, since a second job would open a second pull request.";

  it('on SIGTERM while the create request awaits its answer, says a job may exist', async () => {
    slow.emulator.faults.add({ route: 'agent.create', latencyMs: 10_000 });
    const cancel = cancelWhen(slow, /^::group::Creating an agent job/, 'SIGTERM', {
      afterMs: 300,
      realTime: true,
    });
    const run = await slow.run(
      { command: 'agent', 'project-id': PROJECT, prompt: 'Fix the typos' },
      cancel.options,
    );
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual([
      `::error::Cancelled (SIGTERM). The request to create an agent job had been sent but not answered, so ${MAY_EXIST}`,
    ]);
    slow.emulator.faults.clear();
  });

  it('at the timeout while the create request awaits its answer, says a job may exist', async () => {
    slow.emulator.faults.add({ route: 'agent.create', latencyMs: 10_000 });
    let seen = false;
    const run = await slow.run(
      { ...AGENT, prompt: 'Fix the typos', timeout: '2s' },
      {
        // Time passes while the action waits on the network, where it never sleeps.
        onLine: (line) => {
          if (seen || !line.startsWith('::group::Creating an agent job')) return;
          seen = true;
          setTimeout(() => slow.clock.advance(2000), 300);
        },
      },
    );
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual([
      `::error::The request to create an agent job was sent but not answered before the 2.0s timeout passed, so ${MAY_EXIST}`,
    ]);
    slow.emulator.faults.clear();
  });

  it('on SIGTERM while waiting out a 429, still says that no job was created', async () => {
    slow.emulator.faults.add({
      route: 'agent.create',
      status: 429,
      body: 'json',
      retryAfter: '30',
    });
    const cancel = cancelWhen(slow, /trying again in 30/, 'SIGTERM', { afterMs: 200 });
    const run = await slow.run(
      { command: 'agent', 'project-id': PROJECT, prompt: 'Fix the typos' },
      cancel.options,
    );
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual(['::error::Cancelled (SIGTERM). No agent job was created.']);
  });

  it('fails at the timeout while polling, naming the job that keeps running', async () => {
    const run = await slow.run({ ...AGENT, prompt: 'Fix the typos', timeout: '2s' });
    expect(run.code).toBe(1);
    const id = run.outputs['agent-job-id'] as string;
    expect(errorLines(run)).toEqual([
      `::error::Agent job ${id} was still active when the 2.0s timeout passed. It keeps running on the server and may still open a pull request: follow it with \`agent-job-id: ${id}\`.`,
    ]);
    expect(run.elapsedMs).toBe(2000);
  });
});

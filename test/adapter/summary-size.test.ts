import { describe, expect, it } from 'vitest';
import { JobFailedError } from '../../src/errors.js';
import { reportOutcome, type RunnerCommands } from '../../src/github.js';
import { Redactor } from '../../src/redact.js';
import { SUMMARY_MAX_BYTES } from '../../src/report.js';

/** The step summary and the error lines reportOutcome hands the runner. */
async function concluded(error: Error): Promise<{ summary: string; errors: string[] }> {
  let summary = '';
  const errors: string[] = [];
  const commands = {
    writeSummary: (markdown: string) => {
      summary += markdown;
      return Promise.resolve();
    },
    error: (message: string) => errors.push(message),
    debug: () => undefined,
    warning: () => undefined,
  } as unknown as RunnerCommands;
  await reportOutcome(
    {
      record: {
        command: 'export',
        domain: 'docs.example.com',
        startedAt: 0,
        finishedAt: 60_000,
        jobId: 'se_1',
        status: 'failed',
      },
      error,
    },
    new Redactor(),
    commands,
    '/work',
  );
  return { summary, errors };
}

describe('the step summary of a failure with a very long reason', () => {
  it('still says why the step failed, within the size GitHub shows', async () => {
    // A server that puts a whole build log in the job's `error` (its answer may be 1 MiB).
    const log = Array.from({ length: 33_000 }, (_, i) => `step ${i}: building page ${i}`).join(' ');
    const { summary, errors } = await concluded(
      new JobFailedError(`Export job se_1 failed on the server: ${log}.`),
    );
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
    expect(summary).toMatch(/^### ❌ Static export of docs\.example\.com failed/);
    expect(summary).toContain('**Error:** Export job se\\_1 failed on the server');
    expect(summary).toContain('… (cut here\\: the error line of the log holds all of it)');
    // The log keeps the whole message.
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(log);
  });
});

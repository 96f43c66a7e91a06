import { describe, expect, it } from 'vitest';
import { ActionError } from '../../src/errors.js';
import { reportOutcome, type RunnerCommands } from '../../src/github.js';
import { Redactor } from '../../src/redact.js';

/** The debug and error lines reportOutcome gives the runner for a run that threw `error`. */
async function linesFor(error: unknown): Promise<{ debug: string[]; errors: string[] }> {
  const debug: string[] = [];
  const errors: string[] = [];
  const commands = {
    writeSummary: () => Promise.resolve(),
    error: (message: string) => errors.push(message),
    debug: (message: string) => debug.push(message),
    warning: () => undefined,
  } as unknown as RunnerCommands;
  const redactor = new Redactor();
  redactor.add('mint_secretkey0001');
  await reportOutcome({ error }, redactor, commands, '/work');
  return { debug, errors };
}

describe('a failure that is a bug keeps its stack for RUNNER_DEBUG', () => {
  it.each([
    ['RangeError', () => new RangeError('Invalid array length mint_secretkey0001')],
    ['SyntaxError', () => new SyntaxError('Unexpected token < in JSON')],
    ['AggregateError', () => new AggregateError([new Error('a')], 'All promises were rejected')],
    [
      'a library error with a name of its own',
      () => Object.assign(new Error('other side closed'), { name: 'SocketError' }),
    ],
  ])('%s: one error line, and its stack as a debug line, without the key', async (_, make) => {
    const error = make();
    const { debug, errors } = await linesFor(error);
    expect(errors).toEqual([error.message.replace('mint_secretkey0001', '***')]);
    expect(debug).toHaveLength(1);
    expect(debug[0]).toContain(error.message.replace('mint_secretkey0001', '***'));
    expect(debug[0]).toMatch(/\n\s+at /);
    expect(debug[0]).not.toContain('mint_secretkey0001');
  });

  it("an expected failure (one of the action's own errors) prints no stack", async () => {
    const { debug, errors } = await linesFor(new ActionError('The key was refused.'));
    expect(errors).toEqual(['The key was refused.']);
    expect(debug).toEqual([]);
  });
});

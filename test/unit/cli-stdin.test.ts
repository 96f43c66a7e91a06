import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliContext, runCli } from '../../src/cli.js';
import { systemClock } from '../../src/clock.js';

/**
 * `-` reads stdin until it ends: a pipe whose writer never closes it, or is slow to start,
 * would leave the command waiting. Each run is refused after the read (no --project-id, a
 * bad --domain), so nothing is sent anywhere.
 */

let cwd: string;
beforeEach(async () => {
  cwd = await fs.mkdtemp(path.join(os.tmpdir(), 'cli-stdin-'));
});
afterEach(async () => {
  await fs.rm(cwd, { recursive: true, force: true });
});

const KEY = 'mint_stdinkey000000001';

/** Stderr as written, and a stdin that ends only when `end` is called. */
function pipe(whenWritten: (stderr: string, end: (text: string) => void) => void) {
  let stderr = '';
  let end: (text: string) => void = () => undefined;
  const stream = {
    isTTY: false,
    write: (chunk: string | Uint8Array) => {
      stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      whenWritten(stderr, end);
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  /** `write` is what the writer of the pipe does at once: nothing, or send some bytes. */
  const context = (
    write: (onData?: () => void) => void,
    extra: Partial<CliContext> = {},
  ): CliContext => ({
    env: { PATH: process.env.PATH ?? '', HOME: cwd, NO_COLOR: '1', ADMIN_API_KEY: KEY },
    stdout: stream,
    stderr: stream,
    cwd,
    readStdin: (onData) => {
      const read = new Promise<string>((resolve) => (end = resolve));
      write(onData);
      return read;
    },
    clock: systemClock,
    stdinNoticeMs: 20,
    ...extra,
  });
  return { context, stderr: () => stderr };
}

describe('reading stdin for -', () => {
  it('says so when nothing has arrived on a pipe after a while, and goes on reading', async () => {
    const { context, stderr } = pipe((text, end) => {
      if (text.includes('Waiting')) end('Fix the links');
    });
    const code = await runCli(
      ['agent', '--prompt', '-'],
      context(() => undefined),
    );
    expect(code).toBe(2);
    expect(stderr()).toMatch(
      /^Waiting for the prompt on stdin \(--prompt -\): nothing has arrived after 20ms; it is read until the pipe closes\.\n/,
    );
    // The prompt was read, and the run went on to what was wrong with the command.
    expect(stderr()).toMatch(/^error: --project-id: is required/m);
  });

  it('says it is still reading when something arrived and the pipe stays open', async () => {
    const { context, stderr } = pipe((text, end) => {
      if (text.includes('Still')) end(`${KEY}\n`);
    });
    const code = await runCli(
      ['export', '--domain', 'https://docs.example.com', '--api-key', '-'],
      context((onData) => onData?.(), { env: { PATH: '', HOME: cwd, NO_COLOR: '1' } }),
    );
    expect(code).toBe(2);
    const first = stderr().split('\n')[0];
    expect(first).toBe(
      'Still reading the key from stdin (--api-key -): it is read until the pipe closes.',
    );
    expect(stderr()).not.toContain(KEY);
    expect(stderr()).toMatch(/^error: --domain: /m);
  });

  it('says nothing when the pipe closes in time', async () => {
    const { context, stderr } = pipe(() => undefined);
    const code = await runCli(
      ['agent', '--prompt', '-'],
      context(() => undefined, { readStdin: async () => 'Fix the links' }),
    );
    expect(code).toBe(2);
    expect(stderr()).not.toMatch(/Waiting|Still/);
  });
});

describe('an empty stdin for -', () => {
  it('is named as the - that read it, for the prompt as for the key', async () => {
    const flag = pipe(() => undefined);
    const code = await runCli(
      ['agent', '--project-id', 'p', '--prompt', '-'],
      flag.context(() => undefined, { readStdin: async () => '' }),
    );
    expect(code).toBe(2);
    expect(flag.stderr()).toMatch(/^error: --prompt -: must hold an instruction for the agent/m);
    const variable = pipe(() => undefined);
    await runCli(
      ['agent', '--project-id', 'p'],
      variable.context(() => undefined, {
        env: { PATH: '', HOME: cwd, ADMIN_API_KEY: KEY, STATIC_EXPORT_PROMPT: '-' },
        readStdin: async () => '\n',
      }),
    );
    expect(variable.stderr()).toMatch(/^error: STATIC_EXPORT_PROMPT=-: must hold an instruction/m);
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { systemClock } from '../../src/clock.js';

it('--verbose prints the stack of an unexpected error without starting a workflow command', async () => {
  const cwd = await fs.mkdtemp(path.join(os.tmpdir(), 'cli-verbose-'));
  let err = '';
  const stream = {
    isTTY: false,
    write: (chunk: string | Uint8Array) => {
      err += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  // JSON.parse quotes what it could not read: a bug's message may carry a server's text.
  const clock = {
    ...systemClock,
    now: () => {
      throw new SyntaxError('Unexpected token in "x\n::error::injected\u001b[2J"');
    },
  };
  try {
    const code = await runCli(
      [
        'export',
        '--domain',
        'docs.example.com',
        '--base-url',
        'http://127.0.0.1:1',
        '--path',
        path.join(cwd, 'site'),
        '--verbose',
      ],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: cwd,
          ADMIN_API_KEY: 'mint_verbosekey0001',
          NO_COLOR: '1',
        },
        stdout: stream,
        stderr: stream,
        cwd,
        readStdin: async () => '',
        clock,
      },
    );
    expect(code).toBe(1);
  } finally {
    await fs.rm(cwd, { recursive: true, force: true });
  }
  expect(err).toContain('SyntaxError');
  expect(err).toContain('injected');
  expect(err).not.toMatch(/(^|\n)\s*::/);
  expect(err).not.toContain('\u001b');
});

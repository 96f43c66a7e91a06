import { Writable } from 'node:stream';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { inputFlagNames } from '../../src/cli-help.js';
import { runCli as cli } from '../../src/cli.js';
import { listTree, ROOT } from '../support/in-process.js';

/**
 * The command line in-process: runCli (src/cli.ts) with the flags, an environment, a
 * working directory and captured stdout/stderr, against the emulator on loopback. The CLI
 * keeps the system clock, so its jobs are short. The built dist/cli/index.js, started from
 * a shell and from the packed tarball with npx, is in test/smoke/.
 */

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  cwd: string;
}

/** A stream that keeps what is written, as a non-TTY stdout or stderr. */
function capture(): { stream: NodeJS.WriteStream; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

async function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; stdin?: string } = {},
): Promise<CliRun> {
  const cwd = options.cwd ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'sea-cli-')));
  const stdout = capture();
  const stderr = capture();
  const code = await cli(args, {
    env: { ...options.env },
    stdout: stdout.stream,
    stderr: stderr.stream,
    cwd,
    readStdin: async () => options.stdin ?? '',
  });
  return { code, stdout: stdout.text(), stderr: stderr.text(), cwd };
}

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({
    jobDurationMs: 300,
    queuedMs: 50,
    pageCount: 6,
    agentDurationMs: 300,
    log: false,
  });
});
afterAll(async () => {
  await emulator.stop();
});

function expectNoKey(run: CliRun) {
  expect(run.stdout + run.stderr).not.toContain(emulator.keys.write);
}

describe('static-export CLI', () => {
  it('accepts every input of action.yml as a flag of the same name', async () => {
    const action = parse(await fs.readFile(path.join(ROOT, 'action.yml'), 'utf8')) as {
      inputs: Record<string, unknown>;
    };
    const flags = new Set(inputFlagNames());
    expect(
      [...Object.keys(action.inputs)].filter((name) => name !== 'command' && !flags.has(name)),
    ).toEqual([]);
  });

  it('exports a site with the key from ADMIN_API_KEY and prints the outputs', async () => {
    const run = await runCli(
      [
        'export',
        '--base-url',
        emulator.baseUrl,
        '--domain',
        'docs.example.com',
        '--path',
        'site',
        '--poll-interval',
        '0.5s',
      ],
      { env: { ADMIN_API_KEY: emulator.keys.write } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Outputs:$/m);
    expect(run.stdout).toMatch(/^ {2}status +completed$/m);
    expect(
      (await listTree(path.join(run.cwd, 'site'))).filter((f) => f.endsWith('.html')),
    ).toHaveLength(6);
    expectNoKey(run);
  });

  it('prints the outputs as one JSON object on stdout with --json, logs on stderr', async () => {
    const run = await runCli([
      'export',
      '--json',
      '--api-key',
      emulator.keys.write,
      '--base-url',
      emulator.baseUrl,
      '--domain',
      'docs.example.com',
      '--download',
      'false',
      '--poll-interval',
      '0.5s',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const outputs = JSON.parse(run.stdout) as Record<string, string>;
    expect(outputs).toMatchObject({
      status: 'completed',
      'page-count': '6',
      'bundle-url': expect.stringContaining('X-Amz-Signature'),
    });
    expect(run.stderr).toContain('Waiting for export job');
    expectNoKey(run);
  });

  it('runs an agent job and reads the prompt from stdin with --prompt -', async () => {
    const run = await runCli(
      [
        'agent',
        '--json',
        '--base-url',
        emulator.baseUrl,
        '--project-id',
        'demo-project',
        '--prompt',
        '-',
        '--poll-interval',
        '0.5s',
      ],
      {
        env: { ADMIN_API_KEY: emulator.keys.write },
        stdin: 'Update the changelog\nfor the 2.0 release',
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const outputs = JSON.parse(run.stdout) as Record<string, string>;
    expect(outputs).toMatchObject({
      'agent-status': 'completed',
      'pr-link': expect.stringContaining('/pull/'),
    });
    expect(emulator.agentJobs.get(outputs['agent-job-id'] as string)?.prompts).toEqual([
      'Update the changelog\nfor the 2.0 release',
    ]);
    expectNoKey(run);
  });

  it.each([
    [['export', '--domain', 'docs.example.com', '--colour', 'red'], /Unknown option '--colour'/],
    [['deploy'], /unknown command "deploy"/],
    [[], /no command given/],
    [['export', '--domain', 'https://docs.example.com'], /--domain: must be a bare hostname/],
    [['agent', '--project-id', 'p'], /--prompt: is required/],
  ])('exits 2 on bad usage: %j', async (args, message) => {
    const before = emulator.requests.length;
    const run = await runCli(args, { env: { ADMIN_API_KEY: emulator.keys.write } });
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).toMatch(message);
    expect(emulator.requests.length).toBe(before);
  });

  it('exits 1 when the job fails, with the reason on stderr in --json mode', async () => {
    const run = await runCli(
      [
        'export',
        '--json',
        '--base-url',
        emulator.baseUrl,
        '--domain',
        'fail.example.com',
        '--poll-interval',
        '0.5s',
      ],
      { env: { ADMIN_API_KEY: emulator.keys.write } },
    );
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/failed on the server/),
    });
    expect(run.stderr).toMatch(/^error: Export job se_\w+ failed on the server/m);
  });

  it('shows the options of each command with --help', async () => {
    const run = await runCli(['export', '--help']);
    expect(run.code).toBe(0);
    for (const flag of [
      '--domain',
      '--path',
      '--extract',
      '--helm-values-file',
      '--api-key',
      '--json',
    ]) {
      expect(run.stdout).toContain(flag);
    }
    const agent = await runCli(['agent', '--help']);
    expect(agent.stdout).toContain('--prompt');
  });
});

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { inputFlagNames } from '../../src/cli-help.js';
import { ROOT } from '../../scripts/runner.js';
import { listTree } from '../support/action.js';

const CLI = path.join(ROOT, 'dist', 'cli', 'index.js');

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  cwd: string;
}

function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; command?: string[] } = {},
): Promise<CliRun> {
  return (async () => {
    const cwd = options.cwd ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'sea-cli-')));
    const [program, ...prefix] = options.command ?? [process.execPath, CLI];
    const child = spawn(program as string, [...prefix, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? cwd, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code, stdout, stderr, cwd };
  })();
}

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({
    jobDurationMs: 1000,
    queuedMs: 100,
    pageCount: 6,
    agentDurationMs: 1000,
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
      ['export', '--base-url', emulator.baseUrl, '--domain', 'docs.example.com', '--path', 'site'],
      {
        env: { ADMIN_API_KEY: emulator.keys.write },
      },
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
    const child = spawn(
      process.execPath,
      [
        CLI,
        'agent',
        '--json',
        '--base-url',
        emulator.baseUrl,
        '--project-id',
        'demo-project',
        '--prompt',
        '-',
      ],
      {
        env: { PATH: process.env.PATH ?? '', ADMIN_API_KEY: emulator.keys.write },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    child.stdin.end('Update the changelog\nfor the 2.0 release');
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      'agent-status': 'completed',
      'pr-link': expect.stringContaining('/pull/'),
    });
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
      ['export', '--json', '--base-url', emulator.baseUrl, '--domain', 'fail.example.com'],
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

  it('runs from the packed tarball with npx', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-pack-'));
    const packed = spawnSync('npm', ['pack', '--silent', '--pack-destination', dir], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(packed.status, packed.stderr).toBe(0);
    const tarball = `./${packed.stdout.trim().split('\n').at(-1) as string}`;
    const run = await runCli(
      ['export', '--base-url', emulator.baseUrl, '--domain', 'docs.example.com', '--path', 'site'],
      {
        cwd: dir,
        env: {
          ADMIN_API_KEY: emulator.keys.write,
          npm_config_cache: path.join(dir, 'npm-cache'),
          npm_config_update_notifier: 'false',
        },
        command: ['npx', '--yes', tarball],
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(await listTree(path.join(dir, 'site'))).toContain('index.html');
  }, 120_000);
});

import { EventEmitter } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/index.js';
import type { ApiErrorKind } from '../../src/api/errors.js';
import { COMMANDS, inputFlagNames } from '../../src/cli-flags.js';
import { outputsOf } from '../../src/report.js';
import { VERSION } from '../../src/version.js';
import { listTree, writeTree } from '../support/files.js';
import { type CliOptions, type Harness, ROOT, startHarness } from '../support/in-process.js';

/**
 * `static-export` as a shell runs it, in process (support/in-process.ts): runCli with
 * captured stdout and stderr, on the virtual clock the emulator's jobs run on, so a job
 * that takes a second costs none. The packed tarball, stdin from a pipe and real signals
 * are in test/smoke/.
 */

let harness: Harness;
let emulator: Emulator;
beforeAll(async () => {
  harness = await startHarness({
    jobDurationMs: 1000,
    queuedMs: 100,
    pageCount: 6,
    agentDurationMs: 1000,
  });
  emulator = harness.emulator;
});
afterAll(async () => {
  await harness.stop();
});

/** Every run also checks that the write key is in neither stream (support/in-process.ts). */
const runCli = (args: string[], options?: CliOptions) => harness.cli(args, options);

/** An export of docs.example.com from the emulator, then `more`. */
const exportArgs = (...more: string[]) => [
  'export',
  '--base-url',
  emulator.baseUrl,
  '--domain',
  'docs.example.com',
  ...more,
];

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

  it('says in the README that the one input that is no flag, command, is the subcommand', async () => {
    const action = parse(await fs.readFile(path.join(ROOT, 'action.yml'), 'utf8')) as {
      inputs: Record<string, unknown>;
    };
    const flags = new Set(inputFlagNames());
    const readme = await fs.readFile(path.join(ROOT, 'README.md'), 'utf8');
    const bullet = /^- \*\*Flags are the inputs\*\*[^]*?(?=\n- |\n\n)/m.exec(readme)?.[0];
    const noFlags = Object.keys(action.inputs).filter((name) => !flags.has(name));
    expect(noFlags).toEqual(['command']);
    expect(bullet).toMatch(/`command`[^.]*subcommand/);
    const run = await runCli(['export', '--command', 'agent']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^error: unknown flag --command: the command is the first word \(static-export export … or static-export agent …\)$/m,
    );
  });

  it('lists in the README every code a failed call to the API gives in --json', async () => {
    // Each kind of API error, the type's whole list: a kind added to it must be added here.
    const kinds = [
      'bad-request',
      'unauthorized',
      'forbidden',
      'not-found',
      'conflict',
      'rate-limited',
      'server',
      'redirect',
      'network',
      'tls',
      'proxy',
      'dns',
      'timeout',
      'invalid-response',
      'unexpected',
    ] as const satisfies readonly ApiErrorKind[];
    const everyKind: Exclude<ApiErrorKind, (typeof kinds)[number]> extends never ? true : never =
      true;
    expect(everyKind).toBe(true);
    const readme = await fs.readFile(path.join(ROOT, 'README.md'), 'utf8');
    const paragraph = /^`code` is one of [^]*?(?=\n\n)/m.exec(readme)?.[0] ?? '';
    const codes = new Set([...paragraph.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]));
    // A request that timed out is told from the run's own timeout.
    const missing = kinds
      .map((kind) => (kind === 'timeout' ? 'request-timeout' : kind))
      .filter((code) => !codes.has(code));
    expect(missing).toEqual([]);
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
    // stdout is one JSON document, typed: numbers are numbers.
    const outputs = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(outputs).toEqual({
      'job-id': expect.stringMatching(/^se_/),
      status: 'completed',
      'page-count': 6,
      'bundle-url': expect.stringContaining('X-Amz-Signature'),
      'expires-at': expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      'size-bytes': expect.any(Number),
      'page-url': 'https://docs.example.com/',
    });
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('Waiting for export job');
  });

  it('runs an agent job and reads the prompt from stdin with --prompt -', async () => {
    const prompt = 'Update the changelog\nfor the 2.0 release';
    const fromStdin = [
      'agent',
      '--json',
      '--base-url',
      emulator.baseUrl,
      '--project-id',
      'demo-project',
      '--prompt',
      '-',
    ];
    const run = await runCli(fromStdin, {
      env: { ADMIN_API_KEY: emulator.keys.write },
      stdin: prompt,
    });
    expect(run.code, run.stderr).toBe(0);
    const outputs = JSON.parse(run.stdout) as Record<string, string>;
    expect(outputs).toMatchObject({
      'agent-status': 'completed',
      'pr-link': expect.stringContaining('/pull/'),
    });
    expect(emulator.agentJobs.get(outputs['agent-job-id'] as string)?.prompts).toEqual([prompt]);
    expect(run.stderr).not.toMatch(/Ctrl-D/);
    // Typed at a terminal, the prompt is asked for first, and how to end it said.
    const typed = await runCli(fromStdin, {
      env: { ADMIN_API_KEY: emulator.keys.write },
      stdin: prompt,
      stdinIsTerminal: true,
    });
    expect(typed.code, typed.stderr).toBe(0);
    expect(typed.stderr).toMatch(
      /^Type the instruction for the agent, then Ctrl-D on a line of its own:$/m,
    );
    // Not asked for when the command is refused anyway: what was typed would be lost.
    const before = emulator.requests.length;
    let read = false;
    const refused = await runCli(['agent', '--base-url', emulator.baseUrl, '--prompt', '-'], {
      env: {},
      get stdin() {
        read = true;
        return prompt;
      },
      stdinIsTerminal: true,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).not.toMatch(/Ctrl-D/);
    expect(refused.stderr).toMatch(/^error: ADMIN_API_KEY is not set/m);
    expect(refused.stderr).toMatch(/^error: --project-id: is required/m);
    expect(read).toBe(false);
    expect(emulator.requests.length).toBe(before);
  });

  it.each([
    [['export', '--domain', 'docs.example.com', '--colour', 'red'], /unknown flag --colour/],
    [['export', '--domian', 'x'], /unknown flag --domian: did you mean --domain\?/],
    [['exprot', '--domain', 'x'], /unknown command "exprot": did you mean export\?/],
    [
      ['export', '--domain', 'x', '--prompt', 'p'],
      /--prompt is a flag of `agent`, not of `export`/,
    ],
    [['export', '--domain'], /--domain needs a value/],
    [
      ['export', '--domain', 'x', '--download', 'maybe'],
      /--download takes true or false, got "maybe" \(or write --download \/ --no-download\)/,
    ],
    [['export', '--domain', 'x', 'extra'], /unexpected argument "extra": values are given/],
    [
      ['export', '--domain', 'x', '--no-download', 'maybe'],
      /--no-download takes no value, got "maybe"/,
    ],
    [
      ['export', '--domain', 'x', '--no-download=false'],
      /--no-download takes no value, got "false"/,
    ],
    [
      ['export', '--domain', 'x', '--download=maybe'],
      /--download takes true or false, got "maybe"/,
    ],
    [
      ['export', '--domain', 'x', '--output', 'jobid'],
      /"jobid" is not an output: did you mean job-id\?/,
    ],
    [
      ['agent', '--project-id', 'p', '--prompt', 'p', '--output', 'job-id'],
      /--output: job-id is an output of `export`, not of `agent` \(outputs: agent-job-id, agent-status, pr-link/,
    ],
    [
      ['export', '--domain', 'x', '--output', 'pr-link'],
      /--output: pr-link is an output of `agent`, not of `export`/,
    ],
    [
      ['export', '--domain', 'x', '--output', 'job-id,sha265'],
      /--output: "sha265" is not an output: did you mean sha256\?/,
    ],
    [['export', '--domain', 'x', '--output', ' , '], /--output " , " names no output/],
    // `--` ends the flags: what follows is an argument, which the commands do not take.
    [
      ['export', '--domain', 'x', '--', '--json'],
      /^error: unexpected argument "--json": words after -- are arguments, not flags, and export takes none\n/,
    ],
    [
      ['export', '--domain', 'x', '-q', '--verbose'],
      /^error: --quiet and --verbose ask for fewer lines and for more: give one of them\n/,
    ],
    [['help', 'deplyo'], /unknown command "deplyo"/],
    [['help', 'agent', 'export'], /unexpected argument "export": help takes one command/],
    [
      ['export', '--domain', 'x', '--no-download', 'false'],
      /--no-download takes no value, got "false"\n/,
    ],
    [['version', 'now'], /^error: unexpected argument "now": version takes none\n/],
    [['deploy'], /unknown command "deploy"/],
    [[], /no command given/],
    [['export', '--domain', 'https://docs.example.com'], /--domain: must be a bare hostname/],
    [['agent', '--project-id', 'p'], /--prompt: is required/],
    // Given empty on purpose: not taken for a plain re-attach to the job.
    [
      ['agent', '--project-id', 'p', '--agent-job-id', 'j1', '--prompt', ''],
      /--prompt: must hold an instruction for the agent/,
    ],
    // An empty variable in a script (`--agent-job-id "$ID"`) would start a new job, not
    // follow one, or turn a limit off. Loopback port 1: nothing is sent anywhere if taken.
    [
      [
        'agent',
        '--base-url',
        'http://127.0.0.1:1',
        '--project-id',
        'p',
        '--agent-job-id',
        '',
        '--prompt',
        'also fix the footer',
      ],
      /--agent-job-id is empty: give a value \(--agent-job-id <id>\) or leave the flag out/,
    ],
    [
      ['export', '--base-url', 'http://127.0.0.1:1', '--domain', 'x', '--job-id='],
      /--job-id is empty/,
    ],
    [
      ['export', '--base-url', 'http://127.0.0.1:1', '--domain', 'x', '--max-removed-pages', ' '],
      /--max-removed-pages is empty/,
    ],
    [
      ['agent', '--project-id', 'p', '--prompt', '-', '--api-key', '-'],
      /--api-key - and --prompt - cannot both read stdin/,
    ],
  ])('exits 2 on bad usage, the reason on stderr: %j', async (args, message) => {
    const before = emulator.requests.length;
    const run = await runCli(args, { env: { ADMIN_API_KEY: emulator.keys.write } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
    expect(emulator.requests.length).toBe(before);
  });

  it('shows a usage error on stderr as every other line: no escape sequence, no workflow command', async () => {
    const run = await runCli(['export', '--domain', 'x', '\u001b[2Jred\n::error::injected']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unexpected argument "\\x1b[2Jred');
    expect(run.stderr).not.toContain('\u001b');
    expect(run.stderr).not.toMatch(/^::/m);
    // The key quoted by mistake is not shown either (the harness checks every run for it).
    const key = await runCli(['export', '--domain', 'x', '--download', emulator.keys.write], {
      env: { ADMIN_API_KEY: emulator.keys.write },
    });
    expect(key.stderr).toMatch(/^error: --download takes true or false, got "\*\*\*"/m);
  });

  it('refuses --json with --output, which each decide what stdout holds, as JSON', async () => {
    const run = await runCli(['export', '--domain', 'x', '--json', '--output', 'job-id'], {
      env: { ADMIN_API_KEY: emulator.keys.write },
    });
    const message =
      '--json and --output both choose what stdout holds (one JSON object, or bare values): give one of them';
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`error: ${message}`);
    expect(JSON.parse(run.stdout)).toEqual({ error: { code: 'usage', message } });
  });

  it('lets --output on the command line win over STATIC_EXPORT_JSON, and --json over STATIC_EXPORT_OUTPUT', async () => {
    const base = ['export', '--base-url', emulator.baseUrl, '--domain', 'docs.example.com'];
    const outputs = await runCli([...base, '--no-download', '--output', 'job-id'], {
      env: { ADMIN_API_KEY: emulator.keys.write, STATIC_EXPORT_JSON: 'true' },
    });
    expect(outputs.code, outputs.stderr).toBe(0);
    expect(outputs.stdout).toMatch(/^se_\w+\n$/);
    const json = await runCli([...base, '--no-download', '--json'], {
      env: { ADMIN_API_KEY: emulator.keys.write, STATIC_EXPORT_OUTPUT: 'job-id' },
    });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ 'job-id': expect.stringMatching(/^se_/) });
  });

  it('--mask-bundle-url hides the link in the log and the outputs table, not in --output or --json', async () => {
    const base = ['export', '--base-url', emulator.baseUrl, '--domain', 'docs.example.com'];
    const env = { ADMIN_API_KEY: emulator.keys.write };
    const args = [...base, '--no-download', '--mask-bundle-url'];
    const asked = await runCli([...args, '--output', 'bundle-url'], { env });
    expect(asked.code, asked.stderr).toBe(0);
    const link = asked.stdout.trim();
    const signature = new URL(link).searchParams.get('X-Amz-Signature') as string;
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(asked.stderr).not.toContain(signature);
    const json = await runCli([...args, '--json'], { env });
    expect(JSON.parse(json.stdout)['bundle-url']).toMatch(/X-Amz-Signature=[0-9a-f]{64}/);
    expect(json.stderr).not.toContain('X-Amz-Signature=');
    const table = await runCli(args, { env });
    expect(table.stdout).toMatch(/^ {2}bundle-url +\*\*\*$/m);
    expect(`${table.stdout}${table.stderr}`).not.toContain('X-Amz-Signature=');
  });

  it('--mask-bundle-url keeps the address of the link out of every line, verbose ones and errors too', async () => {
    const env = { ADMIN_API_KEY: emulator.keys.write };
    const args = exportArgs('--mask-bundle-url', '--verbose', '--path', 'site');
    const run = await runCli([...args, '--output', 'bundle-url'], { env });
    expect(run.code, run.stderr).toBe(0);
    const link = new URL(run.stdout.trim());
    expect(run.stderr).toMatch(
      /^Bundle link masked \(`--mask-bundle-url`\), [\d.]+ KB, valid until \d{4}-\d\d-\d\dT\S+\.$/m,
    );
    // The storage's host and the object's path say where the export is, signature or not.
    for (const part of [link.host, link.pathname]) expect(run.stderr).not.toContain(part);

    emulator.faults.add({ route: 'store.get', reset: true, times: Infinity });
    let failed;
    try {
      failed = await runCli([...args, '--json'], { env });
    } finally {
      emulator.faults.clear();
    }
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^error: The bundle download failed \d+ times in a row/m);
    const { error } = JSON.parse(failed.stdout) as { error: { message: string } };
    for (const part of [link.host, link.pathname]) {
      expect(failed.stderr).not.toContain(part);
      expect(error.message).not.toContain(part);
    }
    // Unmasked, the log names the link without its signed query, as it always has.
    const named = await runCli(exportArgs('--no-download'), { env });
    expect(named.stderr).toMatch(/^Bundle link http:\/\/127\.0\.0\.1:\d+\/\S+\.tar\.gz\?…, /m);
  });

  it('names the bundle link in the outputs table without its signature, whole with --show-bundle-url', async () => {
    const args = exportArgs('--no-download');
    const env = { ADMIN_API_KEY: emulator.keys.write };
    const table = await runCli(args, { env });
    expect(table.code, table.stderr).toBe(0);
    // Printed at the end of a CI log, the signed link would let any reader download the export.
    expect(`${table.stdout}${table.stderr}`).not.toContain('X-Amz-Signature=');
    expect(table.stdout).toMatch(
      /^ {2}bundle-url +http:\/\/127\.0\.0\.1:\d+\/\S+\.tar\.gz\?… \(whole in --output bundle-url, --json, or here with --show-bundle-url\)$/m,
    );
    const shown = await runCli([...args, '--show-bundle-url'], { env });
    expect(shown.stdout).toMatch(/^ {2}bundle-url +\S+X-Amz-Signature=[0-9a-f]{64}$/m);
  });

  it('exits 1 when the job fails, with the reason on stderr in --json mode', async () => {
    const run = await runCli(
      ['export', '--json', '--base-url', emulator.baseUrl, '--domain', 'fail.example.com'],
      { env: { ADMIN_API_KEY: emulator.keys.write } },
    );
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: 'failed',
      error: {
        code: 'export-failed',
        message: expect.stringMatching(/^Export job se_\w+ failed on the server/),
      },
    });
    expect(run.stderr).toMatch(/^error: Export job se_\w+ failed on the server/m);
  });

  it('warns that a key given with --api-key can be read by others, and not when it comes from ADMIN_API_KEY', async () => {
    const args = ['export', '--base-url', emulator.baseUrl, '--domain', 'docs.example.com'];
    const onCommandLine = await runCli([
      ...args,
      '--no-download',
      '--api-key',
      emulator.keys.write,
    ]);
    expect(onCommandLine.code, onCommandLine.stderr).toBe(0);
    expect(onCommandLine.stderr).toMatch(/^warning: --api-key .*process list.*ADMIN_API_KEY/m);
    const fromEnvironment = await runCli([...args, '--no-download'], {
      env: { ADMIN_API_KEY: emulator.keys.write },
    });
    expect(fromEnvironment.code, fromEnvironment.stderr).toBe(0);
    expect(fromEnvironment.stderr).not.toMatch(/warning/);
  });

  it('reads the key from stdin with --api-key -, out of the process list, without a warning', async () => {
    const before = emulator.requests.length;
    const run = await runCli(
      [
        'export',
        '--base-url',
        emulator.baseUrl,
        '--domain',
        'docs.example.com',
        '--no-download',
        '--api-key',
        '-',
        '--output',
        'status',
      ],
      { stdin: `${emulator.keys.write}\n` },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('completed\n');
    expect(run.stderr).not.toMatch(/warning/);
    expect(`${run.stdout}${run.stderr}`).not.toContain(emulator.keys.write);
    expect(emulator.requests.length).toBeGreaterThan(before);
    // An empty stdin is said to be one, not taken for a key left out of a workflow.
    const empty = await runCli(['export', '--domain', 'docs.example.com', '--api-key', '-'], {
      stdin: '\n',
    });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe(
      'error: --api-key -: stdin held no key: pipe it in, or set ADMIN_API_KEY to it\n' +
        'Run `static-export export --help` for the accepted forms.\n',
    );
    // The other problems of the command are named with it, and in --json.
    const both = await runCli(['export', '--json', '--domain', 'https://x', '--api-key', '-'], {
      env: { ADMIN_API_KEY: '-' },
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^error: --api-key -: stdin held no key: .*\nerror: --domain: /m);
    expect(JSON.parse(both.stdout).error).toMatchObject({
      code: 'invalid-input',
      input: 'api-key',
      message: expect.stringMatching(/^--api-key: stdin held no key: [^;]*; --domain: /),
    });
    const variable = await runCli(['export', '--domain', 'docs.example.com'], {
      env: { ADMIN_API_KEY: '-' },
    });
    expect(variable.stderr).toMatch(/^error: ADMIN_API_KEY=-: stdin held no key: /m);
    // No key at all: the command line's way to give it, not a workflow's.
    const none = await runCli(['export', '--domain', 'docs.example.com']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /^error: ADMIN_API_KEY is not set: the command needs the admin API key \(mint_…\); set it in the environment, or pipe it in with --api-key -$/m,
    );
    expect(none.stderr).not.toContain('secrets.');
  });

  it('refuses --api-key - from a terminal, where the key would show as it is typed', async () => {
    const before = emulator.requests.length;
    const run = await runCli(['export', '--domain', 'docs.example.com', '--api-key', '-'], {
      stdin: `${emulator.keys.write}\n`,
      stdinIsTerminal: true,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^error: --api-key - reads the key from a pipe, and stdin is a terminal, where it would show as it is typed: set ADMIN_API_KEY to the key, or pipe it in \(printf '%s' "\$KEY" \| static-export export … --api-key -\)$/m,
    );
    expect(emulator.requests.length).toBe(before);
    // Set to `-` in the environment, the variable is named as the user set it.
    const fromEnvironment = await runCli(['export', '--domain', 'docs.example.com'], {
      env: { ADMIN_API_KEY: '-' },
      stdinIsTerminal: true,
    });
    expect(fromEnvironment.code).toBe(2);
    expect(fromEnvironment.stderr).toMatch(/^error: ADMIN_API_KEY=- reads the key from a pipe/m);
  });

  it('shows the options of each command with --help', async () => {
    const run = await runCli(['export', '--help']);
    expect(run.code).toBe(0);
    for (const flag of [
      '--domain',
      '--path',
      '--[no-]extract',
      '--helm-values-file',
      '--api-key',
      '--json',
    ]) {
      expect(run.stdout).toContain(flag);
    }
    const agent = await runCli(['agent', '--help']);
    expect(agent.stdout).toContain('--prompt');
  });

  it('shows the help on --help anywhere before --, where a mistake on the line was refused', async () => {
    const help = (await runCli(['export', '--help'])).stdout;
    const run = await runCli(['export', '--domian', 'x', '--help', '--download', 'maybe']);
    expect(run).toMatchObject({ code: 0, stdout: help, stderr: '' });
    const afterTerminator = await runCli(['export', '--domian', 'x', '--', '--help']);
    expect(afterTerminator.code).toBe(2);
    expect(afterTerminator.stderr).toMatch(
      /^error: unknown flag --domian: did you mean --domain\?$/m,
    );
  });

  it.each(COMMANDS)('names only outputs of `%s` after --output in its help', async (command) => {
    const help = (await runCli([command, '--help'])).stdout;
    const named = [...help.matchAll(/--output[ =]([a-z][a-z-]*)/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((name) => !outputsOf(command).some((o) => o === name))).toEqual([]);
  });
});

describe('static-export CLI basics', () => {
  const withKey = { ADMIN_API_KEY: '' };
  const env = (extra: Record<string, string> = {}) => ({
    ...withKey,
    ADMIN_API_KEY: emulator.keys.write,
    ...extra,
  });

  it.each([['--version'], ['-V'], ['version'], ['export', '--version']])(
    '%j prints the version on stdout and exits 0',
    async (...args) => {
      const run = await runCli(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`static-export ${VERSION}\n`);
      expect(run.stderr).toBe('');
    },
  );

  it('has help for each command that fits 80 columns, with examples', async () => {
    for (const args of [
      ['--help'],
      ['help'],
      ['help', 'help'],
      ['help', 'version'],
      ['help', 'export'],
      ['help', 'agent'],
    ]) {
      const run = await runCli(args);
      expect(run.code, args.join(' ')).toBe(0);
      const width = Math.max(...run.stdout.split('\n').map((line) => [...line].length));
      expect(width, args.join(' ')).toBeLessThanOrEqual(80);
      expect(run.stdout).toContain('EXAMPLES');
    }
    expect((await runCli(['help', 'export'])).stdout).toBe(
      (await runCli(['export', '--help'])).stdout,
    );
  });

  it('takes the command after --, and says in the help what -- does', async () => {
    const run = await runCli(['--', 'help', 'export']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}-- +ends the flags: /m);
    expect((await runCli(['help', '--', 'agent'])).stdout).toMatch(/^ {2}-- +ends the flags: /m);
  });

  it('reads every flag from STATIC_EXPORT_<FLAG>, and flags win over the environment', async () => {
    const run = await runCli(['export', '--domain', 'docs.example.com'], {
      env: env({
        STATIC_EXPORT_BASE_URL: emulator.baseUrl,
        STATIC_EXPORT_DOMAIN: 'ignored.example.com',
        STATIC_EXPORT_DOWNLOAD: 'false',
        STATIC_EXPORT_JSON: 'true',
      }),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'completed' });
    expect(JSON.parse(run.stdout)).not.toHaveProperty('path');
    const started = emulator.requests.filter((r) => r.route === 'export.start').at(-1);
    expect(JSON.stringify(started)).not.toContain('ignored.example.com');
  });

  it('names the variable an invalid value came from', async () => {
    const invalid = await runCli(exportArgs(), { env: env({ STATIC_EXPORT_TIMEOUT: 'soon' }) });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/^error: --timeout \(from STATIC_EXPORT_TIMEOUT\): must be/m);
    // A misspelt variable sets nothing: said before what it leaves missing.
    const misspelt = await runCli(['export'], {
      env: env({ STATIC_EXPORT_DOMIAN: 'docs.example.com', STATIC_EXPORT_BROWSER: '/opt/chrome' }),
    });
    // The browser's variable is no flag, yet it is read.
    expect(misspelt.stderr).not.toContain('STATIC_EXPORT_BROWSER');
    expect(misspelt.code).toBe(2);
    expect(misspelt.stderr).toMatch(
      /^warning: STATIC_EXPORT_DOMIAN sets nothing and is ignored: did you mean STATIC_EXPORT_DOMAIN\?\n(.*\n)*error: --domain/m,
    );
    const json = await runCli(exportArgs(), { env: env({ STATIC_EXPORT_JSON: 'maybe' }) });
    expect(json.code).toBe(2);
    expect(json.stderr).toContain('STATIC_EXPORT_JSON must be true or false, got "maybe"');
    const output = await runCli(exportArgs(), { env: env({ STATIC_EXPORT_OUTPUT: 'jobid' }) });
    expect(output.code).toBe(2);
    expect(output.stderr).toMatch(
      /^error: --output \(from STATIC_EXPORT_OUTPUT\): "jobid" is not an output: did you mean job-id\?/m,
    );
  });

  it('takes --no-<flag>, --flag, --flag=false and --flag false for switches', async () => {
    for (const form of [['--no-download'], ['--download=false'], ['--download', 'false']]) {
      const run = await runCli(exportArgs(...form, '--output', 'status', '--output', 'path'), {
        env: env(),
      });
      expect(run.code, run.stderr).toBe(0);
      // --output prints one value per line; an output that was not set prints an empty line.
      expect(run.stdout, form.join(' ')).toBe('completed\n\n');
    }
  });

  it('reads a switch from STATIC_EXPORT_<FLAG> as its flag reads it, 0 and 1 too', async () => {
    const pathWith = async (value: string) => {
      const run = await runCli(exportArgs('--path', 'site', '--output', 'path'), {
        env: env({ STATIC_EXPORT_DOWNLOAD: value }),
      });
      expect(run.code, `${value}: ${run.stderr}`).toBe(0);
      return run.stdout.trim();
    };
    // No download leaves the path output empty; a download sets it.
    expect(await pathWith('0')).toBe('');
    expect(await pathWith('false')).toBe('');
    expect(await pathWith('1')).toMatch(/[/\\]site$/);
    const wrong = await runCli(exportArgs(), { env: env({ STATIC_EXPORT_DOWNLOAD: 'no' }) });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('STATIC_EXPORT_DOWNLOAD must be true or false, got "no"');
  });

  it('--output prints one value, the way `jq -r .jobId` would', async () => {
    const run = await runCli(exportArgs('--no-download', '--output', 'job-id'), { env: env() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^se_[0-9a-f]+\n$/);
  });

  it('--output takes a comma-separated list, as STATIC_EXPORT_OUTPUT does', async () => {
    const run = await runCli(
      exportArgs('--no-download', '--output', 'job-id,status', '--output', 'page-count'),
      { env: env() },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^se_[0-9a-f]+\ncompleted\n6\n$/);
    const fromEnvironment = await runCli(exportArgs('--no-download'), {
      env: env({ STATIC_EXPORT_OUTPUT: 'job-id,status' }),
    });
    expect(fromEnvironment.stdout).toMatch(/^se_[0-9a-f]+\ncompleted\n$/);
  });

  it('--quiet leaves only the result on stdout and nothing but problems on stderr', async () => {
    const run = await runCli(exportArgs('--no-download', '--quiet'), { env: env() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^Outputs:\n {2}job-id +se_/);
  });

  it('sends input errors to stderr, and as JSON on stdout with --json', async () => {
    const text = await runCli(['export', '--domain', 'https://docs.example.com/'], {
      env: env(),
    });
    expect(text.code).toBe(2);
    expect(text.stdout).toBe('');
    expect(text.stderr).toMatch(/^error: --domain: must be a bare hostname/m);

    const json = await runCli(['export', '--json', '--domain', 'https://docs.example.com/'], {
      env: env(),
    });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({
      error: {
        code: 'invalid-input',
        input: 'domain',
        message: expect.stringMatching(/^--domain: must be a bare hostname/),
        problems: [{ input: 'domain', message: expect.stringMatching(/^must be a bare/) }],
      },
    });
    const usage = await runCli(['export', '--json', '--domian', 'x']);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout)).toEqual({
      error: { code: 'usage', message: 'unknown flag --domian: did you mean --domain?' },
    });
  });

  it('leaves a usage error out of stdout when the command line turns --json off', async () => {
    for (const [args, extra] of [
      [['--no-json'], { STATIC_EXPORT_JSON: 'true' }],
      [['--json=false'], {}],
      [['--json', '--json', 'false'], {}],
      // --output on the command line wins over STATIC_EXPORT_JSON: stdout is for bare values.
      [['--output', 'job-id'], { STATIC_EXPORT_JSON: 'true' }],
    ] as const) {
      const run = await runCli(['export', ...args, '--domian', 'x'], { env: env(extra) });
      expect(run.code).toBe(2);
      expect(run.stdout, args.join(' ')).toBe('');
      expect(run.stderr).toContain('unknown flag --domian');
    }
  });

  it('names the opt-in as a flag when it refuses to replace a directory it did not write', async () => {
    const cwd = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-cli-'));
    try {
      await fs.mkdir(path.join(cwd, 'docs'));
      await fs.writeFile(path.join(cwd, 'docs', 'NOTES.md'), 'notes');
      const run = await runCli(exportArgs('--path', 'docs'), { env: env(), cwd });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /^error: --path: "docs" .* or pass --overwrite true to replace it and everything in it\.$/m,
      );
      expect(await fs.readFile(path.join(cwd, 'docs', 'NOTES.md'), 'utf8')).toBe('notes');
    } finally {
      await fs.rm(cwd, { recursive: true, force: true });
    }
  });

  it('gives a refused key its own code in --json', async () => {
    const run = await runCli(exportArgs('--json'), {
      env: { ADMIN_API_KEY: 'mint_notakeyoftheemulator0000' },
    });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      error: { code: 'unauthorized', message: expect.stringContaining('HTTP 401') },
    });
    // Advice names where the CLI takes the key from, not the action's input.
    expect(JSON.parse(run.stdout).error.message).toContain('set `ADMIN_API_KEY` to a current');
  });

  it('names path, overwrite, compare-with and changes-file as flags in its warnings and errors', async () => {
    const cwd = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-cli-'));
    /** Hyphenated input names are no English words: outside a flag, each is a slip. */
    const bare = /(?<![-\w])(?:compare-with|changes-file|max-removed-pages|helm-values-file)\b/;
    try {
      await writeTree(path.join(cwd, 'docs'), { 'NOTES.md': 'notes', 'a.txt': 'a' });
      const replaced = await runCli(exportArgs('--path', 'docs', '--overwrite'), {
        env: env(),
        cwd,
      });
      expect(replaced.code, replaced.stderr).toBe(0);
      expect(replaced.stderr).toMatch(
        /^warning: `--overwrite true`: `--path` \(.+docs\) holds 2 files .*; it will be replaced by the export\.$/m,
      );

      const unchecked = await runCli(
        exportArgs(
          '--path',
          'new',
          '--compare-with',
          '../missing.json',
          '--max-removed-pages',
          '1',
        ),
        { env: env(), cwd },
      );
      expect(unchecked.code, unchecked.stderr).toBe(0);
      expect(unchecked.stderr).toMatch(
        /^warning: No change report: `--compare-with` "\.\.\/missing\.json" \(.+\) does not exist\.$/m,
      );
      expect(unchecked.stderr).toMatch(
        /^warning: `--max-removed-pages` was not checked: .* neither from `--compare-with` nor in `--path`\.$/m,
      );

      await fs.symlink('docs', path.join(cwd, 'linkdir'));
      const link = await runCli(exportArgs('--path', 'linkdir'), { env: env(), cwd });
      expect(link.code).toBe(2);
      expect(link.stderr).toMatch(
        /^error: --path: "linkdir" .* is a symbolic link \(to docs\): give the directory itself as `--path`, /m,
      );

      const inside = await runCli(exportArgs('--path', 'site', '--changes-file', 'site/c.json'), {
        env: env(),
        cwd,
      });
      expect(inside.code).toBe(2);
      expect(inside.stderr).toMatch(
        /^error: --changes-file: .* is inside `--path` \(.+site\), which the export replaces as a whole/m,
      );
      for (const run of [replaced, unchecked, link, inside]) {
        expect(run.stderr.replace(/`--[a-z-]+/g, '').replace(/--[a-z-]+/g, '')).not.toMatch(bare);
        expect(run.stderr).not.toMatch(/(?<![-\w])(?:path|overwrite)`/);
      }
    } finally {
      await fs.rm(cwd, { recursive: true, force: true });
    }
  });

  it('names inputs in its advice as its flags, not as a workflow spells them', async () => {
    const run = await runCli(exportArgs('--max-extract-files', '2'), { env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^error: Refusing to extract the archive: .*\(raise `--max-extract-files` if this is expected\)/m,
    );
    expect(run.stderr).not.toContain('`max-extract-files`');
    const agent = await runCli(
      ['agent', '--base-url', emulator.baseUrl, '--project-id', 'demo-project'].concat([
        '--prompt',
        'Fix the typo',
        '--no-wait',
      ]),
      { env: env() },
    );
    expect(agent.code, agent.stderr).toBe(0);
    expect(agent.stderr).toMatch(/`--wait false`: not following the job \(\w+\)\./);
  });

  it.each([
    [
      'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
      /starts with "sk_live_", not "mint_": it is a key of another service/,
    ],
    [`Bearer ${'mint_'}abcdefghijklmnop`, /starts with "Bearer": drop it and give the key alone/],
  ])('refuses %s before sending anything', async (key, message) => {
    const before = emulator.requests.length;
    const run = await runCli(exportArgs(), { env: { ADMIN_API_KEY: key } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toContain(key.slice(-12));
    expect(emulator.requests.length).toBe(before);
  });

  it('suggests https:// for a base-url without a scheme', async () => {
    const run = await runCli(
      ['export', '--domain', 'x.example.com', '--base-url', 'api.example.com'],
      {
        env: env(),
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--base-url: has no scheme: write https://api.example.com');
  });

  it('after a timeout, says how to pick the job up again with --job-id', async () => {
    emulator.faults.add({ route: 'export.get', latencyMs: 4000, times: 1 });
    try {
      // The first poll hangs: meanwhile the second passes on the clock the timeout runs on.
      let advanced = false;
      const run = await runCli(exportArgs('--timeout', '1s', '--json'), {
        env: env(),
        onStderr: (text) => {
          if (advanced || !text.includes('Waiting for export job')) return;
          advanced = true;
          setTimeout(() => harness.clock.advance(1000), 50);
        },
      });
      expect(run.code).toBe(1);
      const { error } = JSON.parse(run.stdout) as { error: { code: string; message: string } };
      expect(error.code).toBe('timeout');
      expect(error.message).toMatch(
        /^Export job (se_\w+) was still queued when the 1\.0s timeout passed\. It keeps running on the server: rerun with `--job-id \1` to pick it up without exporting again, or raise the limit \(`--timeout 30m`\)\.$/,
      );
    } finally {
      emulator.faults.clear();
    }
  });

  /** An export whose download stalls; `signal` comes once it is under way. */
  async function signalDuringDownload(signal: 'SIGINT' | 'SIGTERM') {
    emulator.faults.add({ route: 'store.get', stallAfterBytes: 512, times: Infinity });
    try {
      // The download waits on the network, where no virtual time passes: the signal
      // comes in real time once it is under way.
      const signals = new EventEmitter();
      let sent = false;
      return await runCli(exportArgs('--path', 'site'), {
        env: env(),
        signals,
        onStderr: (text) => {
          if (sent || !text.includes('▸ Downloading')) return;
          sent = true;
          setTimeout(() => signals.emit(signal), 300);
        },
      });
    } finally {
      emulator.faults.clear();
    }
  }

  it('on Ctrl-C during the download of a completed job, says the job completed and how to fetch it', async () => {
    const run = await signalDuringDownload('SIGINT');
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toMatch(
      /^error: Cancelled \(SIGINT\)\. Export job (se_\w+) had completed; the download was stopped, temporary files were removed and `--path` was left as it was\. Rerun with `--job-id \1` to download it without exporting again\.$/m,
    );
    expect(await fs.readdir(run.cwd)).toEqual([]);
  });

  it('listens for signals until its result is written, so that one then cannot lose it', async () => {
    const signals = new EventEmitter();
    const listening: number[] = [];
    const run = await runCli(exportArgs('--path', 'site', '--json'), {
      env: env(),
      signals,
      onStdout: () => listening.push(signals.listenerCount('SIGTERM')),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'completed' });
    expect(listening).toEqual([1]);
    expect(signals.listenerCount('SIGTERM')).toBe(0);
  });

  it('exits with 143 when a CI system stops it with SIGTERM, as shells report it', async () => {
    const run = await signalDuringDownload('SIGTERM');
    expect(run.code, run.stderr).toBe(143);
    expect(run.stderr).toMatch(/^error: Cancelled \(SIGTERM\)\. Export job se_\w+ had completed/m);
    expect(await fs.readdir(run.cwd)).toEqual([]);
  });
});

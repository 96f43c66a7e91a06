/**
 * The in-process harness: how a test runs the action. One call runs one case:
 *
 *   const harness = await startHarness({ jobDurationMs: 1500 }); // emulator + virtual clock
 *   const run = await harness.run({ domain: 'docs.example.com', path: 'site' });
 *   run.code; run.stdout; run.outputs; run.summary; run.workspace; run.uploads;
 *   harness.emulator.requests; harness.clock.now();
 *
 * A run is what dist/index.js does, minus the process: the inputs get action.yml's defaults
 * and are trimmed as the runner does, then go through execute() (src/main.ts) with the
 * GitHub adapter's reporter and conclusion (src/github.ts), whose workflow commands are
 * printed by @actions/core itself and captured. The emulator is a real HTTP server on
 * loopback, and one virtual clock drives both the action's waits and the emulator's job
 * timelines (virtual-clock.ts): a run that polls for minutes takes milliseconds, and a
 * schedule is asserted exactly. Every run checks that the key is in no output and that the
 * storage never saw an Authorization header.
 *
 * The CLI runs the same way, through runCli (src/cli.ts) with captured stdout and stderr:
 *
 *   const run = await harness.cli(['export', '--domain', 'docs.example.com'], { env });
 *   run.code; run.stdout; run.stderr; run.cwd;
 *
 * What only a process has (INPUT_* variables, GITHUB_OUTPUT, real signals, a terminal,
 * the packed tarball, Node 24) is in test/smoke/, which spawns the built dist/.
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as core from '@actions/core';
import { runCli } from '../../src/cli.js';
import { expect } from 'vitest';
import { type Emulator, type EmulatorOptions, startEmulator } from '../../emulator/index.js';
import type { Random } from '../../src/clock.js';
import { LOCK_WAIT, type LockWait } from '../../src/deliver/path-lock.js';
import { INPUT_NAMES } from '../../src/config.js';
import type { ArtifactUploader } from '../../src/export/run.js';
import { githubReporter, reportOutcome, type RunnerCommands } from '../../src/github.js';
import { execute, type RunOutcome } from '../../src/main.js';
import { Redactor } from '../../src/redact.js';
import { cancelOnSignals } from '../../src/signals.js';
import { ACTION_DEFAULTS } from './action-yml.js';
import { generator } from './random.js';
import { VirtualClock } from './virtual-clock.js';

export { ACTION_DEFAULTS, ROOT } from './action-yml.js';
export { exists, listTree, sha256File, treeDigest } from './files.js';

/** One upload the action asked for, as the artifact adapter would have received it. */
export interface Upload {
  name: string;
  root: string;
  files: string[];
}

export interface CaseRun {
  /** The step's exit code: 0, or 1 when it failed. */
  code: number;
  /** The log as the runner receives it: plain lines and workflow commands (`::error::…`). */
  stdout: string;
  /** Outputs in the order they were first set. */
  outputs: Record<string, string>;
  /** The step summary (markdown); empty when the run had no record. */
  summary: string;
  /** Values the action asked the runner to mask. */
  masked: string[];
  /** Artifact uploads handed to the adapter. */
  uploads: Upload[];
  workspace: string;
  /** RUNNER_TEMP. */
  tempDir: string;
  /** Virtual milliseconds from the start of the run to its end. */
  elapsedMs: number;
  outcome: RunOutcome;
}

export interface CaseOptions {
  /** GITHUB_WORKSPACE (created when missing); a fresh directory by default. */
  workspace?: string;
  /** RUNNER_TEMP; a fresh directory by default. */
  tempDir?: string;
  /** GITHUB_SHA, which the adapter reads for the release version. */
  commitSha?: string;
  /** Replaces the recording uploader (e.g. to make the upload fail). */
  uploadArtifact?: ArtifactUploader;
  /** Emit 'SIGINT' or 'SIGTERM' on it to cancel the run as the runner would. */
  signals?: EventEmitter;
  /** Called with every line of the log as it is printed. */
  onLine?: (line: string) => void;
  /** Seed of the jitter source (runs are reproducible). */
  seed?: number;
  /** The home directory (`~` in path; never replaced). */
  home?: string;
  /** Directories never replaced besides the workspace and home; RUNNER_TEMP by default. */
  runnerDirs?: string[];
  /** How long the run waits for another that writes the same `path` (LOCK_WAIT by default). */
  lockWait?: Partial<LockWait>;
}

/** A command line run as a shell runs it: its exit code, its two streams, its directory. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  cwd: string;
}

export interface CliOptions {
  /** The shell's environment; PATH and HOME are added. */
  env?: Record<string, string>;
  /** The working directory; a fresh one by default. */
  cwd?: string;
  /** What the command reads on stdin. */
  stdin?: string;
  /** Stdin is a terminal, not a pipe. */
  stdinIsTerminal?: boolean;
  /** Emit 'SIGINT', 'SIGTERM' or 'SIGHUP' on it to interrupt the command. */
  signals?: EventEmitter;
  /** Called with every piece of text written to stderr, as it is written. */
  onStderr?: (text: string) => void;
  /** Called with every piece of text written to stdout, as it is written. */
  onStdout?: (text: string) => void;
  /** Seed of the jitter source (runs are reproducible). */
  seed?: number;
  /** How long the command waits for another run that writes the same `--path`. */
  lockWait?: Partial<LockWait>;
}

export interface Harness {
  emulator: Emulator;
  clock: VirtualClock;
  /** Runs the action against the emulator with the write key and the given inputs. */
  run(inputs: Record<string, string>, options?: CaseOptions): Promise<CaseRun>;
  /** Runs `static-export <args>` on the same clock; the key and base URL are the caller's. */
  cli(args: string[], options?: CliOptions): Promise<CliRun>;
  stop(): Promise<void>;
}

/** An emulator on loopback whose clock is frozen and moved only by the action's sleeps. */
export async function startHarness(options: EmulatorOptions = {}): Promise<Harness> {
  const emulator = await startEmulator({
    jobDurationMs: 1500,
    queuedMs: 200,
    log: false,
    ...options,
    timeScale: 0,
  });
  const clock = new VirtualClock(emulator.clock);
  return {
    emulator,
    clock,
    async run(inputs, caseOptions = {}) {
      const run = await runInProcess(
        { 'api-key': emulator.keys.write, 'base-url': emulator.baseUrl, ...inputs },
        clock,
        caseOptions,
      );
      expectNothingLeaked(run, emulator, inputs['api-key']);
      return run;
    },
    async cli(args, cliOptions = {}) {
      const run = await runCliInProcess(args, clock, cliOptions);
      expect(run.stdout + run.stderr).not.toContain(emulator.keys.write);
      const toStorage = emulator.requests.filter((r) => r.server === 'store');
      expect(toStorage.filter((r) => r.hasAuthorization)).toEqual([]);
      return run;
    },
    stop: () => emulator.stop(),
  };
}

async function runInProcess(
  inputs: Record<string, string>,
  clock: VirtualClock,
  options: CaseOptions,
): Promise<CaseRun> {
  const workspace =
    options.workspace ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'sea-workspace-')));
  await fs.mkdir(workspace, { recursive: true });
  const tempDir = options.tempDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'sea-runner-temp-')));
  const commands = new RecordedCommands(options.onLine);
  const uploads: Upload[] = [];
  const redactor = new Redactor();
  const cancel = cancelOnSignals(options.signals ?? new EventEmitter());
  const startedAt = clock.now();
  const outcome = await execute(
    runnerInputs(inputs),
    {
      workspace,
      tempDir,
      ...(options.home !== undefined ? { home: options.home } : {}),
      ...(options.runnerDirs !== undefined ? { runnerDirs: options.runnerDirs } : {}),
      defaultReleaseVersion: async () => options.commitSha,
      uploadArtifact:
        options.uploadArtifact ??
        (async (name, root, files) => {
          uploads.push({ name, root, files });
          return { id: String(uploads.length) };
        }),
    },
    githubReporter(redactor, commands, workspace),
    {
      clock,
      random: seededRandom(options.seed ?? 1),
      signal: cancel.signal,
      redactor,
      ...(options.lockWait ? { lockWait: { ...LOCK_WAIT, ...options.lockWait } } : {}),
    },
  );
  cancel.dispose();
  const succeeded = await reportOutcome(outcome, redactor, commands, workspace);
  return {
    code: succeeded ? 0 : 1,
    stdout: commands.lines.map((line) => `${line}\n`).join(''),
    outputs: commands.outputs,
    summary: commands.summary,
    masked: commands.masked,
    uploads,
    workspace,
    tempDir,
    elapsedMs: clock.now() - startedAt,
    outcome,
  };
}

/** What dist/cli/index.js does, minus the process: runCli with the shell's streams. */
async function runCliInProcess(
  args: string[],
  clock: VirtualClock,
  options: CliOptions,
): Promise<CliRun> {
  const cwd = options.cwd ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'sea-cli-')));
  const stdout = new CapturedStream(options.onStdout);
  const stderr = new CapturedStream(options.onStderr);
  const code = await runCli(args, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? cwd, ...options.env },
    stdout: stdout.asStream(),
    stderr: stderr.asStream(),
    cwd,
    readStdin: async () => options.stdin ?? '',
    ...(options.stdinIsTerminal ? { stdinIsTerminal: true } : {}),
    clock,
    random: seededRandom(options.seed ?? 1),
    signals: options.signals ?? new EventEmitter(),
    ...(options.lockWait ? { lockWait: { ...LOCK_WAIT, ...options.lockWait } } : {}),
  });
  return { code, stdout: stdout.text, stderr: stderr.text, cwd };
}

/** A pipe into a file, as a shell redirects a stream: no terminal, text kept in order. */
class CapturedStream {
  text = '';

  constructor(private readonly onText?: (text: string) => void) {}

  asStream(): NodeJS.WriteStream {
    const write = (chunk: string | Uint8Array) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      this.text += text;
      this.onText?.(text);
      return true;
    };
    return { isTTY: false, write } as unknown as NodeJS.WriteStream;
  }
}

/** What the runner hands the action: every input, defaults applied, trimmed but the prompt. */
function runnerInputs(given: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    INPUT_NAMES.map((name) => {
      const value = given[name] ?? ACTION_DEFAULTS[name] ?? '';
      return [name, name === 'prompt' ? value : value.trim()];
    }),
  );
}

/**
 * The runner's side of @actions/core: each command is printed by @actions/core itself and
 * captured (a synchronous write, so concurrent runs never interleave), outputs and the
 * summary are kept as the runner would store them.
 */
class RecordedCommands implements RunnerCommands {
  readonly lines: string[] = [];
  readonly outputs: Record<string, string> = {};
  readonly masked: string[] = [];
  summary = '';

  constructor(private readonly onLine?: (line: string) => void) {}

  info = (message: string) => this.print(() => core.info(message));
  debug = (message: string) => this.print(() => core.debug(message));
  notice = (message: string, properties?: core.AnnotationProperties) =>
    this.print(() => core.notice(message, properties));
  warning = (message: string, properties?: core.AnnotationProperties) =>
    this.print(() => core.warning(message, properties));
  error = (message: string, properties?: core.AnnotationProperties) =>
    this.print(() => core.error(message, properties));

  async group<T>(name: string, fn: () => Promise<T>): Promise<T> {
    this.print(() => core.startGroup(name));
    try {
      return await fn();
    } finally {
      this.print(() => core.endGroup());
    }
  }

  setOutput(name: string, value: string): void {
    this.outputs[name] = value;
  }

  setSecret(secret: string): void {
    this.masked.push(secret);
    this.print(() => core.setSecret(secret));
  }

  async writeSummary(markdown: string): Promise<void> {
    this.summary += markdown;
  }

  private print(command: () => void): void {
    const stdout = process.stdout;
    const write = stdout.write;
    let text = '';
    stdout.write = ((chunk: string | Uint8Array) => {
      text += String(chunk);
      return true;
    }) as typeof stdout.write;
    try {
      command();
    } finally {
      stdout.write = write;
    }
    for (const line of text.split(os.EOL).slice(0, -1)) {
      this.lines.push(line);
      this.onLine?.(line);
    }
  }
}

/** A reproducible jitter source: the seeded generator the fuzz and digest tests use. */
export function seededRandom(seed: number): Random {
  return generator(seed).next;
}

/** Everything the action wrote where a person or a later step can read it. */
export function visibleText(run: CaseRun): string {
  return [run.stdout, ...Object.values(run.outputs), run.summary].join('\n');
}

/**
 * The key must appear nowhere a person or a later step can read it. The one exception is
 * the runner's own `::add-mask::` command, which the runner consumes (it never reaches
 * the log) and which is what masks the key in later lines and steps.
 */
export function expectNoKey(run: CaseRun, key: string): void {
  const withoutMaskCommands = visibleText(run)
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
  expect(withoutMaskCommands).not.toContain(key);
  expect(withoutMaskCommands).not.toContain(key.slice(5));
}

/** The key is in no output, and the storage never received an Authorization header. */
export function expectNothingLeaked(run: CaseRun, emulator: Emulator, key?: string): void {
  expectNoKey(run, emulator.keys.write);
  if (key !== undefined && key.trim().length >= 8) expectNoKey(run, key.trim());
  // Debug lines were printed (and scrubbed) whenever the run got past its inputs.
  if (run.stdout.includes('::group::')) expect(run.stdout).toMatch(/^::debug::/m);
  const toStorage = emulator.requests.filter((r) => r.server === 'store');
  expect(toStorage.filter((r) => r.hasAuthorization)).toEqual([]);
}

/** The `::error` lines of a run (the lines the runner turns into annotations). */
export function errorLines(run: { stdout: string }): string[] {
  return run.stdout.split('\n').filter((line) => line.startsWith('::error'));
}

/** The `::notice` lines of a run. */
export function noticeLines(run: { stdout: string }): string[] {
  return run.stdout.split('\n').filter((line) => line.startsWith('::notice'));
}

export interface Cancellation {
  /** Pass to harness.run. */
  options: Pick<CaseOptions, 'signals' | 'onLine'>;
  /** Virtual time the signal was sent at (undefined while it was not). */
  sentAt(): number | undefined;
  /** Real time (performance.now) the signal was sent at. */
  sentAtReal(): number | undefined;
}

/**
 * Sends `signal` as the runner does when a job is cancelled, once a log line matches
 * `marker`, then `afterMs` later: on the virtual clock (it fires while the action sleeps),
 * or in real time with `realTime` (a phase that waits on the network, where the virtual
 * clock stands still).
 */
export function cancelWhen(
  harness: Pick<Harness, 'clock'>,
  marker: RegExp,
  signal: 'SIGINT' | 'SIGTERM' | 'SIGHUP',
  { afterMs = 0, realTime = false }: { afterMs?: number; realTime?: boolean } = {},
): Cancellation {
  const signals = new EventEmitter();
  let seen = false;
  let sentAt: number | undefined;
  let sentAtReal: number | undefined;
  const send = () => {
    sentAt = harness.clock.now();
    sentAtReal = performance.now();
    signals.emit(signal);
  };
  return {
    options: {
      signals,
      onLine: (line) => {
        if (seen || !marker.test(line)) return;
        seen = true;
        if (realTime) setTimeout(send, afterMs);
        else harness.clock.after(afterMs, send);
      },
    },
    sentAt: () => sentAt,
    sentAtReal: () => sentAtReal,
  };
}

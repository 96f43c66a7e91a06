import { expect } from 'vitest';
import { type Emulator, type EmulatorOptions, startEmulator } from '../../emulator/index.js';
import { type ActionRun, type RunActionOptions, runAction } from '../../scripts/runner.js';

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

export { exists, listTree, sha256File, treeDigest } from './files.js';

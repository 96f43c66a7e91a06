/**
 * cold-start: what loading dist/ costs before the action does anything. Ours is
 * dist/index.js run as the runner does with an invalid input (it exits before any
 * network call); the baseline is `node -e ''` with the same node binary.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ACTION_ENTRY, runAction } from '../scripts/runner.js';
import {
  ACTION_NODE,
  baselineFirst,
  plainEnv,
  progress,
  removeDir,
  round,
  scratchDir,
  timeCommand,
} from './measure.js';
import type { BenchResult, Machine } from './results.js';
import { series } from './results.js';

const MAX_OVERHEAD_MS = 150;

export async function runColdStartBench(
  runs: number,
  machine: Machine,
  quick: boolean,
): Promise<BenchResult> {
  progress(`cold-start: ${runs} runs each of \`node -e ''\` and dist/index.js (invalid input)`);
  // One untimed run each, so the first timed one does not pay for reading the binary.
  await bareNode();
  await invalidInputRun();
  const baseline: number[] = [];
  const ours: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    if (baselineFirst(run)) {
      baseline.push(await bareNode());
      ours.push(await invalidInputRun());
    } else {
      ours.push(await invalidInputRun());
      baseline.push(await bareNode());
    }
  }
  progress(`cold-start: done`);
  const dist = await distSize();
  const b = series(`node -e '' (spawn -> exit)`, baseline);
  const o = series(
    'node dist/index.js, INPUT_DOMAIN=https://x: refused before the network (spawn -> exit)',
    ours,
  );
  const overhead = round(o.median - b.median);
  return {
    name: 'cold-start',
    runs,
    unit: 'ms',
    baseline: b,
    ours: o,
    ratio: round(o.median / b.median, 3),
    target: `ours - bare node <= ${MAX_OVERHEAD_MS} ms`,
    pass: overhead <= MAX_OVERHEAD_MS,
    headline: `ours - bare node = ${overhead.toFixed(0)} ms; dist/ ${(dist.totalBytes / 1e6).toFixed(2)} MB, index.js ${(dist.indexBytes / 1e6).toFixed(2)} MB (${dist.files} files)`,
    notes: [
      `Both with ${machine.node}, the runtime of runs.using node24 when installed. Ours runs through scripts/runner.ts (INPUT_* variables, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY), timed from spawn to exit; the run must exit 1 with the domain error.`,
      `dist/: ${dist.totalBytes} bytes in ${dist.files} files (licenses.txt included), index.js ${dist.indexBytes} bytes.`,
    ],
    extra: { overheadMs: overhead, dist },
    machine,
    quick,
  };
}

async function bareNode(): Promise<number> {
  const result = await timeCommand(ACTION_NODE, ['-e', ''], { env: plainEnv({}) });
  if (result.code !== 0) throw new Error(`node -e '' failed: ${result.stderr}`);
  return result.ms;
}

async function invalidInputRun(): Promise<number> {
  const workspace = await scratchDir('cold-start');
  const timing = { spawnedAt: 0 };
  try {
    const run = await runAction({
      inputs: {
        'api-key': 'mint_benchkey0001',
        // Nothing listens there: a network call would fail with another message.
        'base-url': 'http://127.0.0.1:9',
        domain: 'https://x',
      },
      workspace,
      node: ACTION_NODE,
      onSpawn: () => {
        timing.spawnedAt = performance.now();
      },
    });
    const ms = performance.now() - timing.spawnedAt;
    if (run.code !== 1 || !/Invalid input domain/.test(run.stdout)) {
      throw new Error(
        `expected the domain to be refused with exit 1, got ${run.code}: ${run.stdout}`,
      );
    }
    await removeDir(path.dirname(run.tempDir));
    return ms;
  } finally {
    await removeDir(workspace);
  }
}

async function distSize(): Promise<{ totalBytes: number; indexBytes: number; files: number }> {
  const entries = await fs.readdir(path.dirname(ACTION_ENTRY), {
    recursive: true,
    withFileTypes: true,
  });
  const files = entries.filter((entry) => entry.isFile());
  let totalBytes = 0;
  for (const file of files)
    totalBytes += (await fs.stat(path.join(file.parentPath, file.name))).size;
  return { totalBytes, indexBytes: (await fs.stat(ACTION_ENTRY)).size, files: files.length };
}

/** The result of one benchmark: printed side by side, then saved as bench/results/<name>.json. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, round } from './measure.js';

export const RESULTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');

export interface Series {
  /** What was run, e.g. `curl -sf -o file && tar -xzf`. */
  label: string;
  median: number;
  samples: number[];
}

export interface BenchResult {
  name: string;
  runs: number;
  /** Unit of the medians and samples. */
  unit: 'ms';
  baseline: Series;
  ours: Series;
  /** ours.median / baseline.median. */
  ratio: number;
  target: string;
  pass: boolean;
  /** One line for the summary table beyond the medians (RSS, request counts…). */
  headline: string;
  notes: string[];
  /** Secondary measurements, each with its own samples. */
  extra: Record<string, unknown>;
  machine: Machine;
  quick: boolean;
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  /** Node that ran the action (the runner's node24 when installed). */
  node: string;
  /** Node that ran the bench and the emulator. */
  benchNode: string;
  tmpfs: boolean;
}

export function machineInfo(actionNode: string, tmpfs: boolean): Machine {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    node: actionNode,
    benchNode: process.version,
    tmpfs,
  };
}

export function series(label: string, samples: readonly number[]): Series {
  return { label, median: round(median(samples)), samples: samples.map((s) => round(s)) };
}

/** Writes the result, overwriting the previous run's (quick runs go to results/quick/). */
export async function saveResult(result: BenchResult): Promise<string> {
  const dir = result.quick ? path.join(RESULTS_DIR, 'quick') : RESULTS_DIR;
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${result.name}.json`);
  // Arrays of numbers on one line: a rerun then changes one line per series.
  const json = JSON.stringify(result, null, 2).replace(
    /\[\s+(-?[\d.]+(?:,\s+-?[\d.]+)*)\s+\]/g,
    (_, items: string) => `[${items.split(/,\s+/).join(', ')}]`,
  );
  await fs.writeFile(file, `${json}\n`);
  return file;
}

export async function loadResult(name: string, quick: boolean): Promise<BenchResult | undefined> {
  const dir = quick ? path.join(RESULTS_DIR, 'quick') : RESULTS_DIR;
  try {
    return JSON.parse(await fs.readFile(path.join(dir, `${name}.json`), 'utf8')) as BenchResult;
  } catch {
    return undefined;
  }
}

/** Formats a value in the benchmark's unit: seconds above 10 s-ish values, else ms. */
export function formatMs(ms: number): string {
  return Math.abs(ms) >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}

/** The side-by-side block printed at the end of each benchmark. */
export function printSideBySide(result: BenchResult): void {
  const rows: [string, Series][] = [
    ['baseline', result.baseline],
    ['ours', result.ours],
  ];
  console.log(`\n  ${result.name}: medians of ${result.runs} runs each, both measured in this run`);
  for (const [side, s] of rows) {
    const samples = s.samples.map(formatMs).join(', ');
    console.log(`    ${side.padEnd(9)} ${formatMs(s.median).padStart(9)}  ${s.label}`);
    console.log(`    ${''.padEnd(9)} ${''.padStart(9)}  samples: ${samples}`);
  }
  console.log(`    ratio     ${result.ratio.toFixed(2).padStart(9)}  (ours / baseline)`);
  console.log(`    ${result.headline}`);
  console.log(`    target: ${result.target} -> ${result.pass ? 'PASS' : 'MISS'}`);
  for (const note of result.notes) console.log(`    note: ${note}`);
  console.log('');
}

export type SummaryRow =
  | { name: string; result: BenchResult }
  | { name: string; status: 'SKIP' | 'ERROR'; reason: string };

export function printSummary(rows: readonly SummaryRow[], totalMs: number): void {
  const table: string[][] = [['benchmark', 'baseline', 'ours', 'ratio', 'target', 'result']];
  for (const row of rows) {
    if ('status' in row) {
      table.push([row.name, '-', '-', '-', row.reason, row.status]);
      continue;
    }
    const r = row.result;
    table.push([
      r.name,
      formatMs(r.baseline.median),
      formatMs(r.ours.median),
      r.ratio.toFixed(2),
      r.target,
      r.pass ? 'pass' : 'MISS',
    ]);
  }
  const widths = table[0]!.map((_, col) => Math.max(...table.map((line) => line[col]!.length)));
  const line = (cells: string[]) =>
    `  ${cells.map((cell, col) => cell.padEnd(widths[col]!)).join('  ')}`.trimEnd();
  console.log('\nSummary');
  console.log(line(table[0]!));
  console.log(`  ${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const cells of table.slice(1)) console.log(line(cells));
  for (const row of rows) {
    if ('result' in row) console.log(`  ${row.name}: ${row.result.headline}`);
  }
  console.log(`\nTotal bench time ${(totalMs / 1000).toFixed(0)} s.`);
}

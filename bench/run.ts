/**
 * `npm run bench`: every benchmark prints the baseline and ours measured in the same run,
 * side by side, then a summary table; each result is saved to bench/results/<name>.json.
 *
 *   npm run bench                          all benchmarks, 5 runs each
 *   npm run bench -- --only polling        one benchmark (repeatable)
 *   npm run bench -- --runs 3 --quick      smaller archives, faster clock: a smoke run
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { ACTION_ENTRY } from '../scripts/runner.js';
import { runChangeReportBench } from './change-report.js';
import { runColdStartBench } from './cold-start.js';
import { runDownloadBench } from './download.js';
import type { DownloadBench } from './download.js';
import { runEndToEndBench } from './end-to-end.js';
import { runExtractScalingBench } from './extract-scaling.js';
import {
  ACTION_NODE,
  ARCHIVE_CACHE_DIR,
  createScratch,
  DEBIAN_PACKAGE,
  elapsedMs,
  MiB,
  missingTools,
  nodeVersion,
  ON_TMPFS,
  progress,
  removeScratch,
  SCRATCH,
} from './measure.js';
import { runPollingBench } from './polling.js';
import { runReadinessBench } from './readiness.js';
import type { BenchResult, Machine, SummaryRow } from './results.js';
import { loadResult, machineInfo, printSideBySide, printSummary, saveResult } from './results.js';

interface Settings {
  runs: number;
  quick: boolean;
  machine: Machine;
  /** Results of this invocation so far (tar-gz-1gb compares its RSS with tar-gz-256mb). */
  done: Map<string, BenchResult>;
}

interface Benchmark {
  name: string;
  tools: string[];
  run: (settings: Settings) => Promise<BenchResult>;
}

const MAX_RSS_BYTES = 150 * MiB;

const download = (
  name: string,
  full: { sizeBytes: number; fileCount: number },
  quick: { sizeBytes: number; fileCount: number },
  rest: Omit<DownloadBench, 'name' | 'sizeBytes' | 'fileCount' | 'runs'>,
  runsFor: (runs: number) => number = (runs) => runs,
) => {
  return async (settings: Settings): Promise<BenchResult> => {
    const size = settings.quick ? quick : full;
    const bench: DownloadBench = { name, ...size, ...rest, runs: runsFor(settings.runs) };
    return runDownloadBench(bench, settings.machine, settings.quick);
  };
};

const BENCHMARKS: Benchmark[] = [
  {
    name: 'cold-start',
    tools: [],
    run: (s) => runColdStartBench(Math.max(10, s.runs), s.machine, s.quick),
  },
  {
    name: 'tar-gz-256mb',
    tools: ['bash', 'curl', 'tar', 'gzip'],
    run: download(
      'tar-gz-256mb',
      { sizeBytes: 256 * MiB, fileCount: 20_000 },
      { sizeBytes: 24 * MiB, fileCount: 2000 },
      {
        format: 'tar.gz',
        maxRatio: 0.9,
        maxRssBytes: MAX_RSS_BYTES,
        referenceBuild: {
          commit: '7dd2e0b',
          label: 'the build before the extraction safety work',
          ratioThen: 0.89,
        },
      },
    ),
  },
  {
    name: 'tar-gz-1gb',
    tools: ['bash', 'curl', 'tar', 'gzip'],
    run: async (s) => {
      const reference = s.done.get('tar-gz-256mb') ?? (await loadResult('tar-gz-256mb', s.quick));
      const rss = (reference?.extra.oursPeakRssBytes as { median?: number } | undefined)?.median;
      if (rss === undefined) progress('tar-gz-1gb: no tar-gz-256mb result to compare RSS with');
      return download(
        'tar-gz-1gb',
        { sizeBytes: 1024 * MiB, fileCount: 20_000 },
        { sizeBytes: 96 * MiB, fileCount: 2000 },
        {
          format: 'tar.gz',
          maxRatio: 1.0,
          maxRssBytes: MAX_RSS_BYTES,
          ...(rss !== undefined ? { rssReference: { name: 'tar-gz-256mb', bytes: rss } } : {}),
        },
        (runs) => Math.min(3, runs),
      )(s);
    },
  },
  {
    name: 'zip-256mb',
    tools: ['bash', 'curl', 'unzip'],
    run: download(
      'zip-256mb',
      { sizeBytes: 256 * MiB, fileCount: 20_000 },
      { sizeBytes: 24 * MiB, fileCount: 2000 },
      { format: 'zip', maxRatio: 1.1, maxRssBytes: MAX_RSS_BYTES },
    ),
  },
  {
    name: 'extract-scaling',
    tools: ['tar'],
    run: (s) => runExtractScalingBench(Math.min(s.runs, 3), s.machine, s.quick),
  },
  {
    name: 'end-to-end',
    tools: ['bash', 'curl', 'jq', 'tar', 'gzip'],
    run: (s) => runEndToEndBench(s.runs, (s.quick ? 16 : 100) * MiB, s.machine, s.quick),
  },
  {
    name: 'change-report',
    tools: [],
    run: (s) => runChangeReportBench(s.runs, s.machine, s.quick),
  },
  {
    name: 'polling',
    tools: ['bash', 'curl', 'jq'],
    run: (s) => runPollingBench(s.runs, s.quick ? 4 : 1, s.machine, s.quick),
  },
  {
    name: 'readiness',
    tools: ['tar', 'gzip'],
    run: (s) => runReadinessBench(s.runs, s.machine, s.quick),
  },
];

const USAGE = `Usage: npm run bench -- [--only <name>]... [--runs N] [--quick]
  --only <name>  run only this benchmark (repeatable): ${BENCHMARKS.map((b) => b.name).join(', ')}
  --runs N       runs per side, medians of these (default 5; 2 with --quick; tar-gz-1gb at most 3, cold-start at least 10)
  --quick        smaller archives and a 4x emulator clock for polling: a smoke run (results go to bench/results/quick/)`;

function parseFlags() {
  const { values } = parseArgs({
    options: {
      only: { type: 'string', multiple: true },
      runs: { type: 'string' },
      quick: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const quick = values.quick ?? false;
  const runs = values.runs === undefined ? (quick ? 2 : 5) : Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`--runs must be an integer >= 1\n${USAGE}`);
  const only = values.only ?? [];
  const unknown = only.filter((name) => !BENCHMARKS.some((b) => b.name === name));
  if (unknown.length > 0) throw new Error(`unknown benchmark ${unknown.join(', ')}\n${USAGE}`);
  const selected = only.length === 0 ? BENCHMARKS : BENCHMARKS.filter((b) => only.includes(b.name));
  return { runs, quick, selected };
}

async function main(): Promise<number> {
  const { runs, quick, selected } = parseFlags();
  if (!existsSync(ACTION_ENTRY)) throw new Error(`${ACTION_ENTRY} is missing: run npm run build`);
  const machine = machineInfo(nodeVersion(ACTION_NODE), ON_TMPFS);
  console.log(
    `static-export-action benchmarks${quick ? ' (quick)' : ''}: ${selected.map((b) => b.name).join(', ')}`,
  );
  console.log(
    `  ${machine.cpus} x ${machine.cpuModel}, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GB RAM; action on node ${machine.node} (${ACTION_NODE}), bench on ${machine.benchNode}`,
  );
  console.log(`  scratch ${SCRATCH}, archive cache ${ARCHIVE_CACHE_DIR}, ${runs} runs per side`);
  if (!ON_TMPFS) console.log('  warning: /dev/shm is missing, file I/O is on disk (noisier)');
  console.log(
    `  load average now: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );

  const settings: Settings = { runs, quick, machine, done: new Map() };
  const rows: SummaryRow[] = [];
  createScratch();
  try {
    for (const bench of selected) {
      const missing = missingTools(bench.tools);
      if (missing.length > 0) {
        const packages = missing.map((tool) => `${tool} (Debian package ${DEBIAN_PACKAGE[tool]})`);
        const reason = `missing ${packages.join(', ')}`;
        progress(`${bench.name}: skipped, ${reason}; CI installs them`);
        rows.push({ name: bench.name, status: 'SKIP', reason });
        continue;
      }
      try {
        const result = await bench.run(settings);
        settings.done.set(bench.name, result);
        printSideBySide(result);
        progress(`${bench.name}: saved ${await saveResult(result)}`);
        rows.push({ name: bench.name, result });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        progress(`${bench.name}: FAILED: ${message}`);
        rows.push({ name: bench.name, status: 'ERROR', reason: message.split('\n')[0] ?? '' });
      }
    }
  } finally {
    removeScratch();
  }
  printSummary(rows, elapsedMs());
  return rows.some((row) => 'status' in row && row.status === 'ERROR') ? 1 : 0;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    removeScratch();
    process.exit(130);
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    removeScratch();
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);

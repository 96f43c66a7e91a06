/**
 * tar-gz-256mb, tar-gz-1gb, zip-256mb: download and extract one archive from the
 * emulator's object store. Baseline: `curl -sf -o file "$URL" && tar -xzf` (or `unzip -q`)
 * on a presigned link to the same bytes. Ours: dist/index.js run as the runner does.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startEmulator } from '../emulator/index.js';
import type { ArchiveFormat } from '../emulator/index.js';
import { runAction } from '../scripts/runner.js';
import { firstAt, mintBundleLink } from './emulator-jobs.js';
import {
  ACTION_NODE,
  ARCHIVE_CACHE_DIR,
  baselineFirst,
  childrenCpuMs,
  countFiles,
  mebibytes,
  median,
  MiB,
  plainEnv,
  progress,
  removeDir,
  round,
  scratchDir,
  seconds,
  timeCommand,
  watchPeakRss,
} from './measure.js';
import type { BenchResult, Machine } from './results.js';
import { series } from './results.js';

export interface DownloadBench {
  name: string;
  format: ArchiveFormat;
  sizeBytes: number;
  fileCount: number;
  runs: number;
  /** Largest acceptable ours/baseline wall-time ratio. */
  maxRatio: number;
  /** Largest acceptable peak RSS of the action, when the issue sets one. */
  maxRssBytes?: number;
  /** Peak RSS measured on a smaller archive: ours must not grow past it (+10 %). */
  rssReference?: { name: string; bytes: number };
}

const DOMAIN = 'docs.example.com';

const BASELINE_COMMAND: Record<ArchiveFormat, string> = {
  'tar.gz': 'curl -sf -o "$ARCHIVE" "$URL" && tar -xzf "$ARCHIVE" -C "$SITE"',
  zip: 'curl -sf -o "$ARCHIVE" "$URL" && unzip -q "$ARCHIVE" -d "$SITE"',
};

interface OursSample {
  /** Bundle call -> exit: the download + extract part, as the baseline does it. */
  fromBundleMs: number;
  /** First byte requested from the store -> exit. */
  fromStoreMs: number;
  /** Spawn -> exit: node start, start call, bundle call, download, extract, outputs. */
  totalMs: number;
  peakRssBytes: number;
  files: number;
  /** CPU time (user + system) of the action's process, from its start. */
  cpuMs: number;
}

export async function runDownloadBench(bench: DownloadBench, machine: Machine, quick: boolean) {
  const emulator = await startEmulator({
    jobDurationMs: 0,
    queuedMs: 0,
    archiveFormat: bench.format,
    archiveSizeBytes: bench.sizeBytes,
    fileCount: bench.fileCount,
    cacheDir: ARCHIVE_CACHE_DIR,
    log: false,
  });
  try {
    const preparing = performance.now();
    progress(
      `${bench.name}: preparing a ${mebibytes(bench.sizeBytes)} ${bench.format} archive with ${bench.fileCount} extra files (cached in ${ARCHIVE_CACHE_DIR})`,
    );
    const { sizeBytes } = await mintBundleLink(emulator, DOMAIN);
    progress(
      `${bench.name}: archive ready, ${sizeBytes} bytes (${seconds(performance.now() - preparing)})`,
    );

    const baseline: number[] = [];
    const baselineCpu: number[] = [];
    const ours: OursSample[] = [];
    let baselineFiles = 0;
    for (let run = 0; run < bench.runs; run += 1) {
      const order = baselineFirst(run) ? ['baseline', 'ours'] : ['ours', 'baseline'];
      for (const side of order) {
        if (side === 'baseline') {
          const sample = await runBaseline(emulator, bench.format, run === 0);
          baseline.push(sample.ms);
          baselineCpu.push(sample.cpuMs);
          if (run === 0) baselineFiles = sample.files;
        } else {
          ours.push(await runOurs(emulator, run === 0));
        }
      }
      const o = ours[ours.length - 1] as OursSample;
      progress(
        `${bench.name}: run ${run + 1}/${bench.runs}  baseline ${seconds(baseline[baseline.length - 1] as number)}  ours ${seconds(o.fromBundleMs)} (total ${seconds(o.totalMs)}, peak RSS ${mebibytes(o.peakRssBytes)})`,
      );
    }
    return summarize(
      bench,
      machine,
      quick,
      sizeBytes,
      { ms: baseline, cpuMs: baselineCpu },
      ours,
      baselineFiles,
    );
  } finally {
    await emulator.stop();
  }
}

async function runBaseline(
  emulator: Awaited<ReturnType<typeof startEmulator>>,
  format: ArchiveFormat,
  countSite: boolean,
): Promise<{ ms: number; cpuMs: number; files: number }> {
  const { url } = await mintBundleLink(emulator, DOMAIN);
  const dir = await scratchDir('baseline');
  const site = path.join(dir, 'site');
  await fs.mkdir(site);
  try {
    const cpuBefore = childrenCpuMs();
    const result = await timeCommand('bash', ['-c', BASELINE_COMMAND[format]], {
      cwd: dir,
      env: plainEnv({ URL: url, ARCHIVE: path.join(dir, `bundle.${format}`), SITE: site }),
    });
    if (result.code !== 0) {
      throw new Error(`the baseline failed (exit ${result.code}): ${result.stderr.slice(-2000)}`);
    }
    const cpuMs = childrenCpuMs() - cpuBefore;
    return { ms: result.ms, cpuMs, files: countSite ? await countFiles(site) : 0 };
  } finally {
    await removeDir(dir);
  }
}

async function runOurs(
  emulator: Awaited<ReturnType<typeof startEmulator>>,
  countSite: boolean,
): Promise<OursSample> {
  const workspace = await scratchDir('ours');
  const from = emulator.requests.length;
  const child: { spawnedAt: number; rss?: { stop(): Promise<number> } } = { spawnedAt: 0 };
  try {
    const cpuBefore = childrenCpuMs();
    const run = await runAction({
      inputs: {
        'api-key': emulator.keys.write,
        'base-url': emulator.baseUrl,
        domain: DOMAIN,
        path: 'site',
      },
      workspace,
      node: ACTION_NODE,
      onSpawn: (pid) => {
        child.spawnedAt = performance.now();
        child.rss = watchPeakRss(pid);
      },
    });
    const exitedAt = emulator.clock.now();
    const cpuMs = childrenCpuMs() - cpuBefore;
    const totalMs = performance.now() - child.spawnedAt;
    const peakRssBytes = (await child.rss?.stop()) ?? 0;
    if (run.code !== 0) {
      throw new Error(
        `the action failed (exit ${run.code}):\n${run.stdout.slice(-3000)}${run.stderr.slice(-2000)}`,
      );
    }
    const sample: OursSample = {
      fromBundleMs: exitedAt - firstAt(emulator, from, 'export.bundle'),
      fromStoreMs: exitedAt - firstAt(emulator, from, 'store.get'),
      totalMs,
      peakRssBytes,
      files: countSite ? await countFiles(path.join(workspace, 'site')) : 0,
      cpuMs,
    };
    await removeDir(path.dirname(run.tempDir));
    return sample;
  } finally {
    await child.rss?.stop();
    await removeDir(workspace);
  }
}

function summarize(
  bench: DownloadBench,
  machine: Machine,
  quick: boolean,
  sizeBytes: number,
  baselineRuns: { ms: number[]; cpuMs: number[] },
  ours: OursSample[],
  baselineFiles: number,
): BenchResult {
  const tool = bench.format === 'zip' ? 'unzip -q' : 'tar -xzf';
  const baseline = series(
    `curl -sf -o file "$URL" && ${tool} file (spawn -> exit)`,
    baselineRuns.ms,
  );
  const baselineCpu = median(baselineRuns.cpuMs);
  const oursCpu = median(ours.map((o) => o.cpuMs));
  const oursSeries = series(
    'dist/index.js: bundle call -> process exit (download + extract + outputs)',
    ours.map((o) => o.fromBundleMs),
  );
  const ratio = round(oursSeries.median / baseline.median, 3);
  const rssSamples = ours.map((o) => o.peakRssBytes);
  const peakRss = median(rssSamples);
  const oursFiles = ours[0]?.files ?? 0;
  const checks: string[] = [`ours/baseline <= ${bench.maxRatio}`];
  let pass = ratio <= bench.maxRatio && oursFiles === baselineFiles;
  if (bench.maxRssBytes !== undefined) {
    checks.push(`peak RSS <= ${mebibytes(bench.maxRssBytes)}`);
    pass &&= peakRss <= bench.maxRssBytes;
  }
  if (bench.rssReference !== undefined) {
    const limit = bench.rssReference.bytes * 1.1;
    checks.push(`RSS not above ${bench.rssReference.name} (${mebibytes(limit)} incl. 10 % noise)`);
    pass &&= peakRss <= limit;
  }
  const notes = [
    'Fair part: the baseline starts with the link in hand, so ours is timed from its bundle call (emulator.requests `at`) to process exit: one loopback POST, the download, the extraction (streamed while downloading, with its SHA-256 and the safety checks; the ETag is checked only for a kept archive or a plain tar), the rename into place and the outputs. Both sides write the archive file and the site to tmpfs.',
    `The baseline gets a fresh presigned link to the same archive bytes (same cache file, same ETag) for every run; runs alternate ABBA.`,
    `Ours in total (spawn -> exit, incl. node start, start call, an already completed job): median ${seconds(median(ours.map((o) => o.totalMs)))}.`,
    `CPU time (user + system, medians): baseline ${seconds(baselineCpu)} (${bench.format === 'zip' ? 'curl and unzip' : 'curl, tar and gzip'}), ours ${seconds(oursCpu)} (the whole process, from its start): the ${machine.cpus} cores are shared with the emulator serving the archive, so CPU time spent anywhere shows in the wall time.`,
    `Files extracted: baseline ${baselineFiles}, ours ${oursFiles}${oursFiles === baselineFiles ? ' (same)' : ' (DIFFERENT: counts as a miss)'}.`,
  ];
  if (quick) notes.push('Quick run: smaller archive than the benchmark name says.');
  return {
    name: bench.name,
    runs: bench.runs,
    unit: 'ms',
    baseline,
    ours: oursSeries,
    ratio,
    target: checks.join(', '),
    pass,
    headline: `ratio ${ratio.toFixed(2)}, ours peak RSS ${mebibytes(peakRss)} (median), ${(sizeBytes / MiB).toFixed(0)} MiB archive, ${baselineFiles} files`,
    notes,
    extra: {
      archive: { format: bench.format, sizeBytes, fileCount: bench.fileCount },
      oursPeakRssBytes: { median: peakRss, samples: rssSamples },
      cpuMs: {
        baseline: { median: baselineCpu, samples: baselineRuns.cpuMs },
        ours: { median: oursCpu, samples: ours.map((o) => o.cpuMs) },
      },
      oursFromStoreGetMs: series(
        'first store GET -> exit',
        ours.map((o) => o.fromStoreMs),
      ),
      oursTotalMs: series(
        'spawn -> exit',
        ours.map((o) => o.totalMs),
      ),
    },
    machine,
    quick,
  };
}

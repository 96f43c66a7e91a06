/**
 * tar-gz-256mb, tar-gz-1gb, zip-256mb: download and extract one archive from the
 * emulator's object store. Baseline: `curl -sf -o file "$URL" && tar -xzf` (or `unzip -q`)
 * on a presigned link to the same bytes. Ours: dist/index.js run as the runner does.
 * Optionally a third side: an earlier build of the action, taken from git history, run
 * the same way on the same bytes, so that a target set on another host can be judged here.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startEmulator } from '../emulator/index.js';
import type { ArchiveFormat } from '../emulator/index.js';
import { ROOT, runAction } from '../scripts/runner.js';
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
import type { Series } from './results.js';
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
  /**
   * An earlier build whose ratio set `maxRatio` on the host of its day. It runs in the same
   * rounds; ours passes on time when its ratio is at most `maxRatio` or at most that
   * build's own ratio here, so a slower host does not turn into a regression.
   */
  referenceBuild?: ReferenceBuild;
}

export interface ReferenceBuild {
  commit: string;
  /** What the build is, for the notes: e.g. "before the extraction safety work". */
  label: string;
  /** The ratio it had when the target was set. */
  ratioThen: number;
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

    const reference = bench.referenceBuild && (await checkOutBuild(bench.referenceBuild.commit));
    if (reference !== undefined && 'missing' in reference) {
      progress(`${bench.name}: no reference build: ${reference.missing}`);
    }
    const referenceEntry =
      reference !== undefined && 'entry' in reference ? reference.entry : undefined;

    const baseline: number[] = [];
    const baselineCpu: number[] = [];
    const ours: OursSample[] = [];
    const earlier: OursSample[] = [];
    let baselineFiles = 0;
    for (let run = 0; run < bench.runs; run += 1) {
      for (const side of sideOrder(run, referenceEntry !== undefined)) {
        if (side === 'baseline') {
          const sample = await runBaseline(emulator, bench.format, run === 0);
          baseline.push(sample.ms);
          baselineCpu.push(sample.cpuMs);
          if (run === 0) baselineFiles = sample.files;
        } else if (side === 'ours') {
          ours.push(await runOurs(emulator, run === 0));
        } else {
          earlier.push(await runOurs(emulator, false, referenceEntry));
        }
      }
      const o = ours[ours.length - 1] as OursSample;
      const e = earlier[earlier.length - 1];
      progress(
        `${bench.name}: run ${run + 1}/${bench.runs}  baseline ${seconds(baseline[baseline.length - 1] as number)}  ours ${seconds(o.fromBundleMs)} (total ${seconds(o.totalMs)}, peak RSS ${mebibytes(o.peakRssBytes)})${e ? `  ${bench.referenceBuild?.commit} ${seconds(e.fromBundleMs)} (peak RSS ${mebibytes(e.peakRssBytes)})` : ''}`,
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
      earlier.length > 0 && bench.referenceBuild
        ? { build: bench.referenceBuild, samples: earlier }
        : reference !== undefined && 'missing' in reference
          ? { missing: reference.missing }
          : undefined,
    );
  } finally {
    await emulator.stop();
  }
}

type Side = 'baseline' | 'ours' | 'reference';

/** Two sides alternate ABBA; with a reference build, the six orders of three take turns. */
function sideOrder(run: number, withReference: boolean): Side[] {
  if (!withReference) return baselineFirst(run) ? ['baseline', 'ours'] : ['ours', 'baseline'];
  const orders: Side[][] = [
    ['baseline', 'ours', 'reference'],
    ['reference', 'ours', 'baseline'],
    ['ours', 'baseline', 'reference'],
    ['reference', 'baseline', 'ours'],
    ['ours', 'reference', 'baseline'],
    ['baseline', 'reference', 'ours'],
  ];
  return orders[run % orders.length] as Side[];
}

/**
 * The dist/ of an earlier commit, from this clone's history, in a scratch directory.
 * A shallow clone or an archive without history has none: the bench then says so.
 */
async function checkOutBuild(commit: string): Promise<{ entry: string } | { missing: string }> {
  const archived = spawnSync('git', ['-C', ROOT, 'archive', '--format=tar', commit, 'dist'], {
    maxBuffer: 256 * MiB,
  });
  if (archived.error !== undefined || archived.status !== 0) {
    const why = archived.error?.message ?? archived.stderr.toString('utf8').trim();
    return { missing: `git archive ${commit} dist: ${why || `exit ${archived.status}`}` };
  }
  const dir = await scratchDir(`build-${commit}`);
  const unpacked = spawnSync('tar', ['-x', '-C', dir], { input: archived.stdout });
  if (unpacked.status !== 0) {
    return { missing: `unpacking ${commit}'s dist/: ${unpacked.stderr.toString('utf8').trim()}` };
  }
  return { entry: path.join(dir, 'dist', 'index.js') };
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
  entry?: string,
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
      ...(entry !== undefined ? { entry } : {}),
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
  earlier?: { build: ReferenceBuild; samples: OursSample[] } | { missing: string },
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
  const reference =
    earlier !== undefined && 'build' in earlier ? compareEarlier(earlier, baseline) : undefined;
  const checks: string[] = [
    reference === undefined
      ? `ours/baseline <= ${bench.maxRatio}`
      : `ours/baseline <= ${bench.maxRatio} or <= ${reference.build.commit}'s ratio in this run (${reference.build.ratioThen} when ${bench.maxRatio} was set)`,
  ];
  let pass =
    (ratio <= bench.maxRatio || (reference !== undefined && ratio <= reference.ratio)) &&
    oursFiles === baselineFiles;
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
    `The baseline gets a fresh presigned link to the same archive bytes (same cache file, same ETag) for every run; ${reference === undefined ? 'runs alternate ABBA' : 'the three sides take turns in all six orders'}.`,
    `Ours in total (spawn -> exit, incl. node start, start call, an already completed job): median ${seconds(median(ours.map((o) => o.totalMs)))}.`,
    `CPU time (user + system, medians): baseline ${seconds(baselineCpu)} (${bench.format === 'zip' ? 'curl and unzip' : 'curl, tar and gzip'}), ours ${seconds(oursCpu)} (the whole process, from its start): the ${machine.cpus} cores are shared with the emulator serving the archive, so CPU time spent anywhere shows in the wall time.`,
    `Files extracted: baseline ${baselineFiles}, ours ${oursFiles}${oursFiles === baselineFiles ? ' (same)' : ' (DIFFERENT: counts as a miss)'}.`,
  ];
  if (reference !== undefined) {
    const { build } = reference;
    const change = (oursSeries.median / reference.series.median - 1) * 100;
    notes.push(
      `Reference build ${build.commit} (${build.label}), ratio ${build.ratioThen} when the target ${bench.maxRatio} was set: here ${seconds(reference.series.median)}, ratio ${reference.ratio.toFixed(3)}, CPU ${seconds(reference.cpuMs)}, peak RSS ${mebibytes(reference.peakRssBytes)}. Ours takes ${Math.abs(change).toFixed(1)} % ${change <= 0 ? 'less' : 'more'} time than it in this run.`,
    );
  } else if (earlier !== undefined && 'missing' in earlier) {
    notes.push(
      `No reference build to compare with (${earlier.missing}): only the ratio is judged.`,
    );
  }
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
    headline: `ratio ${ratio.toFixed(2)}${reference !== undefined ? ` (${reference.build.commit}: ${reference.ratio.toFixed(2)})` : ''}, ours peak RSS ${mebibytes(peakRss)} (median), ${(sizeBytes / MiB).toFixed(0)} MiB archive, ${baselineFiles} files`,
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
      ...(reference !== undefined
        ? {
            referenceBuild: {
              ...reference.build,
              fromBundleMs: reference.series,
              ratio: reference.ratio,
              cpuMs: reference.cpuMs,
              peakRssBytes: reference.peakRssBytes,
            },
          }
        : {}),
    },
    machine,
    quick,
  };
}

/** The earlier build's figures, from the same rounds as ours. */
function compareEarlier(
  earlier: { build: ReferenceBuild; samples: OursSample[] },
  baseline: Series,
) {
  const timed = series(
    `${earlier.build.commit}:dist/index.js: bundle call -> process exit`,
    earlier.samples.map((s) => s.fromBundleMs),
  );
  return {
    build: earlier.build,
    series: timed,
    ratio: round(timed.median / baseline.median, 3),
    cpuMs: median(earlier.samples.map((s) => s.cpuMs)),
    peakRssBytes: median(earlier.samples.map((s) => s.peakRssBytes)),
  };
}

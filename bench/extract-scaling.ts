/**
 * extract-scaling: the extractor alone (src, in a process of its own) on tar archives
 * that grow in one dimension at a time: the entry count, the name length, the file size.
 * Time per archive megabyte must stay flat (linear time) and the peak RSS under 150 MB.
 * Baseline: GNU `tar -xf` on the same archive, timed in the same run.
 *
 * The extractor runs from the compiled sources (.build, made by `npm run build`) in plain
 * node, so the RSS measured is the extraction's, not a TypeScript loader's: the action's
 * runtime (Node 24 when tools/node24 has it), with V8's young generation held as the
 * action holds it while it extracts.
 */
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import tar from 'tar-stream';
import {
  ACTION_NODE,
  median,
  nodeVersion,
  MiB,
  plainEnv,
  progress,
  removeDir,
  round,
  scratchDir,
  timeCommand,
  watchPeakRss,
} from './measure.js';
import type { BenchResult, Machine } from './results.js';
import { series } from './results.js';

const MAX_RSS_BYTES = 150 * MiB;
/** Largest acceptable spread of time per archive MB between the smallest and largest size. */
const MAX_PER_MB_SPREAD = 1.6;

interface Shape {
  name: string;
  /** Entries of an archive at scale `n`. */
  entries: (n: number) => Iterable<{ name: string; size: number }>;
  scales: number[];
}

const SHAPES: Shape[] = [
  {
    name: 'many small files',
    // Up to max-extract-files' default.
    scales: [25_000, 100_000, 200_000, 500_000],
    *entries(n) {
      for (let i = 0; i < n; i += 1) yield { name: `d${i % 1000}/page-${i}.html`, size: 200 };
    },
  },
  {
    name: 'many long file names (245 bytes each)',
    scales: [25_000, 50_000, 100_000, 200_000],
    *entries(n) {
      for (let i = 0; i < n; i += 1) {
        yield { name: `d${i % 1000}/${String(i).padStart(240, 'x')}.html`, size: 10 };
      }
    },
  },
  {
    name: 'long deep names (3900 bytes, 1300 levels)',
    scales: [2_500, 5_000, 10_000, 20_000],
    *entries(n) {
      const deep = 'dd/'.repeat(1300);
      for (let i = 0; i < n; i += 1) yield { name: `${deep}f${i}`, size: 10 };
    },
  },
  {
    name: 'one large file',
    scales: [64, 128, 256],
    *entries(n) {
      yield { name: 'big.bin', size: n * MiB };
    },
  },
];

const BUILT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '.build');
const BUILT_TAR = path.join(BUILT, 'deliver', 'archive', 'tar.js');
const BUILT_YOUNG_GENERATION = path.join(BUILT, 'young-generation.js');

/** Extracts argv[1] into argv[2], fed in 64 KB chunks as a download feeds it, and prints {"ms": …}. */
const WORKER = `
import fs from 'node:fs/promises';
const { TarExtraction } = await import(${JSON.stringify(BUILT_TAR)});
const { holdYoungGeneration } = await import(${JSON.stringify(BUILT_YOUNG_GENERATION)});
holdYoungGeneration();
const [archive, dir] = process.argv.slice(1);
const started = performance.now();
const extraction = new TarExtraction(dir, 'tar', { maxBytes: 1024 ** 4, maxEntries: 1e7, maxRatio: 100 });
const handle = await fs.open(archive);
for await (const chunk of handle.createReadStream({ highWaterMark: 64 * 1024 })) await extraction.write(chunk);
await extraction.end();
console.log(JSON.stringify({ ms: performance.now() - started }));
`;

async function writeArchive(file: string, entries: Iterable<{ name: string; size: number }>) {
  const pack = tar.pack();
  const done = pipeline(pack, createWriteStream(file));
  const block = Buffer.alloc(MiB, 'a');
  for (const entry of entries) {
    await new Promise<void>((resolve, reject) => {
      const sink = pack.entry({ name: entry.name, size: entry.size }, (err) =>
        err ? reject(err) : resolve(),
      );
      for (let left = entry.size; left > 0; left -= block.length) {
        sink.write(left >= block.length ? block : block.subarray(0, left));
      }
      sink.end(null);
    });
  }
  pack.finalize();
  await done;
}

interface Sample {
  archiveBytes: number;
  oursMs: number;
  oursRss: number;
  tarMs: number;
}

async function measure(archive: string, dir: string): Promise<Sample> {
  const archiveBytes = (await fs.stat(archive)).size;
  const env = plainEnv({});
  await removeDir(dir);
  await fs.mkdir(dir, { recursive: true });
  const tarRun = await timeCommand('tar', ['-xf', archive, '-C', dir], { env });
  if (tarRun.code !== 0) throw new Error(`tar -xf failed: ${tarRun.stderr}`);
  await removeDir(dir);
  await fs.mkdir(dir, { recursive: true });
  const started = timeCommand(ACTION_NODE, ['--input-type=module', '-e', WORKER, archive, dir], {
    env,
  });
  const watcher = watchTree(process.pid);
  const ours = await started;
  const rss = await watcher.stop();
  if (ours.code !== 0) throw new Error(`extraction failed: ${ours.stderr || ours.stdout}`);
  await removeDir(dir);
  const { ms } = JSON.parse(ours.stdout.trim().split('\n').pop() as string) as { ms: number };
  return { archiveBytes, oursMs: ms, oursRss: rss, tarMs: tarRun.ms };
}

/** Peak RSS of the largest descendant of `pid` (the extracting node process). */
function watchTree(pid: number): { stop(): Promise<number> } {
  const watchers = new Map<number, ReturnType<typeof watchPeakRss>>();
  const scan = async () => {
    for (const child of await descendants(pid)) {
      if (!watchers.has(child)) watchers.set(child, watchPeakRss(child));
    }
  };
  const timer = setInterval(() => void scan(), 20);
  return {
    async stop() {
      clearInterval(timer);
      const peaks = await Promise.all([...watchers.values()].map((w) => w.stop()));
      return Math.max(0, ...peaks);
    },
  };
}

async function descendants(pid: number): Promise<number[]> {
  const children = await fs
    .readFile(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .then((text) => text.trim().split(/\s+/).filter(Boolean).map(Number))
    .catch(() => [] as number[]);
  const nested = await Promise.all(children.map((child) => descendants(child)));
  return [...children, ...nested.flat()];
}

export async function runExtractScalingBench(
  runs: number,
  machine: Machine,
  quick: boolean,
): Promise<BenchResult> {
  await fs.access(BUILT_TAR).catch(() => {
    throw new Error(`${BUILT_TAR} is missing: run npm run build`);
  });
  const scratch = await scratchDir('extract-scaling');
  const rows: Record<string, unknown>[] = [];
  const perMbOurs: number[] = [];
  const perMbTar: number[] = [];
  let worstSpread = 0;
  let peakRss = 0;
  try {
    for (const shape of SHAPES) {
      const scales = quick ? shape.scales.slice(0, 2) : shape.scales;
      const shapePerMb: number[] = [];
      for (const scale of scales) {
        const archive = path.join(scratch, 'archive.tar');
        await writeArchive(archive, shape.entries(scale));
        const samples: Sample[] = [];
        for (let run = 0; run < runs; run += 1) {
          samples.push(await measure(archive, path.join(scratch, 'site')));
        }
        const mb = (samples[0] as Sample).archiveBytes / MiB;
        const oursMs = median(samples.map((s) => s.oursMs));
        const tarMs = median(samples.map((s) => s.tarMs));
        const rss = Math.max(...samples.map((s) => s.oursRss));
        peakRss = Math.max(peakRss, rss);
        shapePerMb.push(oursMs / mb);
        perMbOurs.push(oursMs / mb);
        perMbTar.push(tarMs / mb);
        rows.push({
          shape: shape.name,
          scale,
          archiveMB: round(mb),
          oursMs: round(oursMs),
          tarMs: round(tarMs),
          oursMsPerMB: round(oursMs / mb, 2),
          peakRssMB: round(rss / MiB),
        });
        progress(
          `extract-scaling: ${shape.name} x${scale}: ${round(mb)} MB, ours ${round(oursMs)} ms (${round(oursMs / mb, 2)} ms/MB, peak RSS ${round(rss / MiB)} MB), tar -xf ${round(tarMs)} ms`,
        );
        await fs.rm(archive, { force: true });
      }
      worstSpread = Math.max(worstSpread, Math.max(...shapePerMb) / Math.min(...shapePerMb));
    }
  } finally {
    await removeDir(scratch);
  }
  const pass = peakRss <= MAX_RSS_BYTES && worstSpread <= MAX_PER_MB_SPREAD;
  const oursTotal = perMbOurs.reduce((a, b) => a + b, 0);
  const tarTotal = perMbTar.reduce((a, b) => a + b, 0);
  return {
    name: 'extract-scaling',
    runs,
    unit: 'ms',
    baseline: series('tar -xf, ms per archive MB, summed over every shape and scale', [tarTotal]),
    ours: series('extractor in its own process, ms per archive MB, summed likewise', [oursTotal]),
    ratio: round(oursTotal / tarTotal, 3),
    target: `ms/MB spread <= ${MAX_PER_MB_SPREAD} within each shape (linear), peak RSS <= 150 MB`,
    pass,
    headline: `worst ms/MB spread ${round(worstSpread, 2)}, peak RSS ${round(peakRss / MiB)} MB`,
    notes: [
      'Each shape grows one dimension (entries, name length, file size); time per archive megabyte stays flat when extraction is linear in the archive size.',
      `Peak RSS is the extracting process (${nodeVersion(ACTION_NODE)} running the compiled sources, young generation held as in the action, the site listed once extracted), sampled from /proc VmHWM.`,
    ],
    extra: { rows },
    machine,
    quick,
  };
}

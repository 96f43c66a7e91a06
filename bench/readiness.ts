/**
 * readiness: the deployment check on a large site. A 3,000-page docs site shaped like
 * VitePress output (~150 KB per page: head with preloads, a sidebar of a few hundred
 * extensionless links, content with outbound links and code, an inline script) is
 * exported through the emulator. Baseline: the step with extraction alone
 * (deployment-type cloud, broken-links off, compare-with none). Ours: the same step with the check on
 * (air-gapped: scan, link check, report files; the browser pass off, timed apart).
 * Targets: peak RSS of the step <= 250 MB; the check adds at most 2x the extraction step.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startEmulator } from '../emulator/index.js';
import type { Emulator } from '../emulator/index.js';
import { runAction } from '../scripts/runner.js';
import {
  ACTION_NODE,
  ARCHIVE_CACHE_DIR,
  baselineFirst,
  MiB,
  mebibytes,
  median,
  progress,
  removeDir,
  round,
  scratchDir,
  seconds,
  watchPeakRss,
} from './measure.js';
import type { BenchResult, Machine } from './results.js';
import { series } from './results.js';

const DOMAIN = 'docs.example.com';
const MAX_RSS_BYTES = 250 * MiB;
const SECTIONS = ['guides', 'reference', 'api', 'concepts', 'tutorials', 'integrations'];

export function pagePath(index: number): string {
  return `${SECTIONS[index % SECTIONS.length]}/page-${index}`;
}

/** One page of the synthetic site, about 150 KB. */
export function page(index: number, pages: number): string {
  const sidebar: string[] = [];
  const section = index % SECTIONS.length;
  for (let i = section; i < pages && sidebar.length < 400; i += SECTIONS.length)
    sidebar.push(
      `<li><a href="/${pagePath(i)}" class="VPLink link">Page ${i} of ${SECTIONS[section]}</a></li>`,
    );
  const paragraphs: string[] = [];
  for (let p = 0; p < 300; p += 1) {
    paragraphs.push(
      `<p>Paragraph ${p} of page ${index} explains <code>option${p}</code> in detail, with a link to <a href="/${pagePath((index + p) % pages)}">a related page</a> and to the <a href="https://github.com/example/docs/blob/main/docs/page-${index}.md">source on GitHub</a>. Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>`,
    );
    if (p % 20 === 0)
      paragraphs.push(
        `<pre><code class="language-js">const client = createClient({ endpoint: '/api/v1', retries: ${p} });\nawait client.fetch('/items/${p}');</code></pre>`,
      );
  }
  const hashMap = Object.fromEntries(
    Array.from({ length: 120 }, (_, i) => [`page_${i}.md`, `h${(i * 7919).toString(36)}`]),
  );
  return `<!DOCTYPE html>
<html lang="en-US" dir="ltr">
  <head>
    <meta charset="utf-8">
    <title>Page ${index} | Example Docs</title>
    <link rel="preload stylesheet" href="/assets/style.css" as="style">
    <script type="module" src="/assets/app.js"></script>
    <link rel="modulepreload" href="/assets/chunks/framework.js">
    <link rel="icon" href="/logo.png">
    <link rel="canonical" href="https://docs.example.com/${pagePath(index)}">
  </head>
  <body>
    <div id="app"><header><a href="/">Example Docs</a> <a href="https://github.com/example/docs">GitHub</a></header>
    <aside><nav><ul>${sidebar.join('\n')}</ul></nav></aside>
    <main><h1>Page ${index}</h1>
${paragraphs.join('\n')}
    </main></div>
    <script>window.__VP_HASH_MAP__=JSON.parse(${JSON.stringify(JSON.stringify(hashMap))});window.__VP_SITE_DATA__={"base":"/","docs":"https://github.com/example/docs"};</script>
  </body>
</html>
`;
}

/** The site as a tar.gz, built once per page count into the archive cache. */
async function siteArchive(pages: number): Promise<{ file: string; htmlBytes: number }> {
  const file = path.join(ARCHIVE_CACHE_DIR, `readiness-${pages}-pages-v3.tar.gz`);
  const sizes = `${file}.html-bytes`;
  if (existsSync(file) && existsSync(sizes))
    return { file, htmlBytes: Number(await fs.readFile(sizes, 'utf8')) };
  progress(`readiness: generating a ${pages}-page site`);
  const dir = await scratchDir('readiness-site');
  let htmlBytes = 0;
  try {
    await fs.mkdir(path.join(dir, 'assets', 'chunks'), { recursive: true });
    await fs.writeFile(path.join(dir, 'assets', 'style.css'), 'body { font-family: sans-serif }\n');
    await fs.writeFile(path.join(dir, 'assets', 'app.js'), 'import "./chunks/framework.js";\n');
    await fs.writeFile(
      path.join(dir, 'assets', 'chunks', 'framework.js'),
      'export const x = "https://vuejs.org/error-reference/";\n',
    );
    await fs.writeFile(path.join(dir, 'logo.png'), Buffer.alloc(64));
    await fs.writeFile(path.join(dir, 'index.html'), page(0, pages));
    for (let i = 0; i < pages; i += 1) {
      const target = path.join(dir, `${pagePath(i)}.html`);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const html = page(i, pages);
      htmlBytes += Buffer.byteLength(html);
      await fs.writeFile(target, html);
    }
    await fs.mkdir(ARCHIVE_CACHE_DIR, { recursive: true });
    const made = spawnSync('sh', [
      '-c',
      `tar -C "${dir}" -cf - . | gzip -1 > "${file}.partial" && mv "${file}.partial" "${file}"`,
    ]);
    if (made.status !== 0) throw new Error(`tar failed: ${made.stderr.toString()}`);
    await fs.writeFile(sizes, String(htmlBytes));
  } finally {
    await removeDir(dir);
  }
  return { file, htmlBytes };
}

interface Sample {
  ms: number;
  peakRssBytes: number;
  /** The check's own duration, from its log line. */
  checkMs?: number;
}

async function runStep(emulator: Emulator, inputs: Record<string, string>): Promise<Sample> {
  const workspace = await scratchDir('readiness-run');
  const child: { spawnedAt: number; rss?: { stop(): Promise<number> } } = { spawnedAt: 0 };
  try {
    const run = await runAction({
      inputs: {
        'api-key': emulator.keys.write,
        'base-url': emulator.baseUrl,
        domain: DOMAIN,
        path: 'site',
        // No change report in any run: its page fingerprints are not the check's cost,
        // and would hide it in a longer baseline (bench change-report measures them).
        'compare-with': 'none',
        ...inputs,
      },
      workspace,
      node: ACTION_NODE,
      onSpawn: (pid) => {
        child.spawnedAt = performance.now();
        child.rss = watchPeakRss(pid);
      },
    });
    const ms = performance.now() - child.spawnedAt;
    const peakRssBytes = (await child.rss?.stop()) ?? 0;
    if (run.code !== 0)
      throw new Error(`the action failed (exit ${run.code}):\n${run.stdout.slice(-3000)}`);
    const took = /check: read .*? in ([\d.]+) ?(ms|s)\b/.exec(run.stdout);
    const checkMs = took ? Number(took[1]) * (took[2] === 's' ? 1000 : 1) : undefined;
    await removeDir(path.dirname(run.tempDir));
    return { ms, peakRssBytes, ...(checkMs !== undefined ? { checkMs } : {}) };
  } finally {
    await child.rss?.stop();
    await removeDir(workspace);
  }
}

export async function runReadinessBench(
  runs: number,
  machine: Machine,
  quick: boolean,
): Promise<BenchResult> {
  const pages = quick ? 300 : 3000;
  const archive = await siteArchive(pages);
  const emulator = await startEmulator({
    jobDurationMs: 0,
    queuedMs: 0,
    log: false,
    archiveFor: () => archive.file,
  });
  const extractOnly = { 'deployment-type': 'cloud', 'broken-links': 'off' };
  const withCheck = {
    'deployment-type': 'air-gapped',
    'browser-check': 'false',
    'allowed-hosts': 'github.com',
  };
  try {
    const baseline: Sample[] = [];
    const ours: Sample[] = [];
    for (let run = 0; run < runs; run += 1) {
      for (const side of baselineFirst(run) ? ['baseline', 'ours'] : ['ours', 'baseline']) {
        if (side === 'baseline') baseline.push(await runStep(emulator, extractOnly));
        else ours.push(await runStep(emulator, withCheck));
      }
      const b = baseline[run] as Sample;
      const o = ours[run] as Sample;
      progress(
        `readiness: run ${run + 1}/${runs}  extraction alone ${seconds(b.ms)} (peak RSS ${mebibytes(b.peakRssBytes)})  with the check ${seconds(o.ms)} (peak RSS ${mebibytes(o.peakRssBytes)}, check ${o.checkMs !== undefined ? seconds(o.checkMs) : '?'})`,
      );
    }
    progress('readiness: one more run with the browser pass on');
    const browser = await runStep(emulator, { ...withCheck, 'browser-check': 'auto' });
    const b = series(
      'dist/index.js, deployment-type cloud, broken-links off: download + extract (spawn -> exit)',
      baseline.map((s) => s.ms),
    );
    const o = series(
      'dist/index.js, deployment-type air-gapped, browser-check false: + scan and link check',
      ours.map((s) => s.ms),
    );
    const ratio = round(o.median / b.median, 3);
    const added = (o.median - b.median) / b.median;
    const rss = median(ours.map((s) => s.peakRssBytes));
    const baselineRss = median(baseline.map((s) => s.peakRssBytes));
    const pass = rss <= MAX_RSS_BYTES && added <= 2;
    return {
      name: 'readiness',
      runs,
      unit: 'ms',
      baseline: b,
      ours: o,
      ratio,
      target: 'check adds <= 2x the extraction step; peak RSS <= 250 MB',
      pass,
      headline: `${pages} pages, ${mebibytes(archive.htmlBytes)} HTML: check adds ${added.toFixed(2)}x; peak RSS ${mebibytes(rss)} (extraction alone ${mebibytes(baselineRss)})`,
      notes: [
        `${pages} pages of ~${Math.round(archive.htmlBytes / pages / 1024)} KB HTML each (${mebibytes(archive.htmlBytes)} of HTML), ${SECTIONS.length} sections, a sidebar of up to 400 extensionless links per page, outbound GitHub links (allowed), a canonical link and an inline script per page.`,
        'The ratio compares whole steps (spawn -> exit, a job of 0 s): the baseline is the extraction step, so ratio - 1 is what the check adds in units of it.',
        `Check duration from its own log line: median ${seconds(median(ours.flatMap((s) => (s.checkMs !== undefined ? [s.checkMs] : []))))}.`,
        `With the browser pass (8 pages in headless Chromium) as well: ${seconds(browser.ms)}, peak RSS of the action's process ${mebibytes(browser.peakRssBytes)} (Chromium runs in its own processes).`,
      ],
      extra: {
        pages,
        htmlBytes: archive.htmlBytes,
        oursPeakRssBytes: { median: rss, samples: ours.map((s) => s.peakRssBytes) },
        baselinePeakRssBytes: { median: baselineRss, samples: baseline.map((s) => s.peakRssBytes) },
        checkMs: ours.map((s) => s.checkMs),
        withBrowser: browser,
      },
      machine,
      quick,
    };
  } finally {
    await emulator.stop();
  }
}

import { watch } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, listTree, startHarness } from '../support/in-process.js';
import { row, runCase } from './support.js';

/**
 * A matrix of 8 exports on one machine: 8 runs at once against one emulator, sharing one
 * workspace and one RUNNER_TEMP, each exporting its own domain into its own path. While
 * they run, the shared directories are watched: every run must use temporary names of its
 * own (they come from random bytes, not from the process), and leave none behind.
 */

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({
    jobDurationMs: 1500,
    queuedMs: 200,
    pageCount: 7,
    archiveSizeBytes: 256 * 1024,
  });
});
afterAll(async () => {
  await harness.stop();
});

/** Every name created in `dirs` until the returned function is called (inotify, no polling). */
function watchNames(dirs: string[]) {
  const names = new Set<string>();
  const watchers = dirs.map((dir) =>
    watch(dir, (_event, name) => {
      if (name) names.add(name);
    }),
  );
  return () => {
    for (const watcher of watchers) watcher.close();
    return names;
  };
}

describe('concurrency', () => {
  it(
    '8 runs export 8 domains in parallel',
    row('8 × success, each its own site and temp names, shared temp left empty'),
    async () => {
      const runnerTemp = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-shared-temp-'));
      const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-matrix-'));
      await fs.mkdir(path.join(workspace, 'site'));
      const domains = Array.from({ length: 8 }, (_, i) => `docs${i}.example.com`);
      const stopWatching = watchNames([runnerTemp, path.join(workspace, 'site')]);
      const spans: [number, number][] = [];
      const runs = await Promise.all(
        domains.map(async (domain) => {
          const started = performance.now();
          const run = await runCase(
            harness,
            {
              domain,
              path: `site/${domain}`,
              'poll-interval': '0.5s',
              'helm-values-file': `values/${domain}.yaml`,
            },
            { workspace, tempDir: runnerTemp },
          );
          spans.push([started, performance.now()]);
          return run;
        }),
      );
      const seen = stopWatching();

      // They really ran at the same time.
      expect(Math.max(...spans.map(([start]) => start))).toBeLessThan(
        Math.min(...spans.map(([, end]) => end)),
      );
      const jobIds = new Set<string>();
      for (const [i, run] of runs.entries()) {
        const domain = domains[i] as string;
        expect(run.code, run.stdout).toBe(0);
        const site = path.join(workspace, 'site', domain);
        expect(run.outputs.path).toBe(site);
        const pages = (await listTree(site)).filter((f) => f.endsWith('.html'));
        expect(pages).toHaveLength(7);
        // Its own export, not a neighbour's.
        expect(await fs.readFile(path.join(site, 'index.html'), 'utf8')).toContain(domain);
        for (const other of domains.filter((d) => d !== domain)) {
          expect(await fs.readFile(path.join(site, 'index.html'), 'utf8')).not.toContain(other);
        }
        expect(
          await fs.readFile(path.join(workspace, 'values', `${domain}.yaml`), 'utf8'),
        ).toContain(run.outputs['bundle-url'] as string);
        jobIds.add(run.outputs['job-id'] as string);
      }
      expect(jobIds.size).toBe(8);

      // Each run had temporary names of its own: 8 downloads, 8 staging directories.
      const downloads = [...seen].filter((name) => name.endsWith('.download'));
      const staging = [...seen].filter((name) => name.includes('.partial-'));
      expect(new Set(downloads).size).toBeGreaterThanOrEqual(8);
      expect(domains.every((d) => staging.some((name) => name.startsWith(`.${d}.partial-`)))).toBe(
        true,
      );
      // And left none behind.
      expect(await fs.readdir(runnerTemp)).toEqual([]);
      expect((await fs.readdir(path.join(workspace, 'site'))).sort()).toEqual([...domains].sort());
      expect((await fs.readdir(workspace)).sort()).toEqual(['site', 'values']);
    },
  );
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, listTree, startHarness } from '../support/action.js';
import { DEBUG } from './support.js';

/** A matrix of 8 exports on one machine, sharing one emulator and one RUNNER_TEMP. */

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

describe('concurrency', () => {
  it('8 action processes export 8 domains in parallel: all succeed, nothing collides', async ({
    task,
  }) => {
    task.meta.expected = '8 × success, own site, shared temp left empty';
    const runnerTemp = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-shared-temp-'));
    const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-matrix-'));
    const domains = Array.from({ length: 8 }, (_, i) => `docs${i}.example.com`);
    const runs = await Promise.all(
      domains.map((domain) =>
        harness.run(
          {
            domain,
            path: `site/${domain}`,
            'poll-interval': '0.5s',
            'helm-values-file': `values/${domain}.yaml`,
          },
          { workspace, env: { ...DEBUG, RUNNER_TEMP: runnerTemp } },
        ),
      ),
    );
    const jobIds = new Set<string>();
    for (const [i, run] of runs.entries()) {
      const domain = domains[i] as string;
      expect(run.code, run.stdout).toBe(0);
      expect(run.outputs.path).toBe(path.join(workspace, 'site', domain));
      expect(
        (await listTree(path.join(workspace, 'site', domain))).filter((f) => f.endsWith('.html')),
      ).toHaveLength(7);
      expect(await fs.readFile(path.join(workspace, 'values', `${domain}.yaml`), 'utf8')).toContain(
        run.outputs['bundle-url'] as string,
      );
      jobIds.add(run.outputs['job-id'] as string);
    }
    expect(jobIds.size).toBe(8);
    expect((await fs.readdir(path.join(workspace, 'site'))).sort()).toEqual([...domains].sort());
    expect(await fs.readdir(runnerTemp)).toEqual([]);
    // Nothing half-written was left beside the sites either.
    expect((await fs.readdir(workspace)).sort()).toEqual(['site', 'values']);
  }, 60_000);
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorLines, type Harness, listTree, startHarness } from '../support/action.js';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ jobDurationMs: 60_000, archiveSizeBytes: 4 * 1024 * 1024 });
});
afterAll(async () => {
  await harness.stop();
});

/** Runs the action and sends `signal` once stdout shows `marker`; returns the run and the exit delay. */
async function cancelWhen(marker: RegExp, signal: NodeJS.Signals, inputs: Record<string, string>) {
  const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-cancel-'));
  await fs.mkdir(path.join(workspace, 'site'));
  await fs.writeFile(path.join(workspace, 'site', 'previous.html'), 'previous export');
  let sentAt = 0;
  const run = await harness.run(inputs, {
    workspace,
    killAfterMs: 20_000,
    onSpawn: (pid, stdout) => {
      const timer = setInterval(() => {
        if (marker.test(stdout())) {
          clearInterval(timer);
          sentAt = Date.now();
          process.kill(pid, signal);
        }
      }, 20);
    },
  });
  const exitDelayMs = Date.now() - sentAt;
  return { run, exitDelayMs, workspace };
}

describe('cancellation', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('stops polling within a second on %s', async (signal) => {
    const { run, exitDelayMs, workspace } = await cancelWhen(/running/, signal, {
      domain: 'docs.example.com',
      path: 'site',
    });
    expect(run.signal).toBeNull();
    expect(run.code).toBe(1);
    expect(exitDelayMs).toBeLessThan(1000);
    expect(errorLines(run)[0]).toMatch(new RegExp(`Cancelled \\(${signal}\\)`));
    expect(await listTree(path.join(workspace, 'site'))).toEqual(['previous.html']);
  });

  it('stops a stalled download within a second, removing temporary files', async () => {
    const quick = await startHarness({ archiveSizeBytes: 4 * 1024 * 1024 });
    try {
      quick.emulator.faults.add({ route: 'store.get', stallAfterBytes: 1024 * 1024 });
      const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-cancel-'));
      let sentAt = 0;
      const run = await quick.run(
        { domain: 'docs.example.com', path: 'site' },
        {
          workspace,
          killAfterMs: 20_000,
          onSpawn: (pid, stdout) => {
            const timer = setInterval(() => {
              if (/Downloading the bundle/.test(stdout())) {
                clearInterval(timer);
                // Let the first megabyte arrive and the stall begin.
                setTimeout(() => {
                  sentAt = Date.now();
                  process.kill(pid, 'SIGTERM');
                }, 500);
              }
            }, 20);
          },
        },
      );
      expect(run.code).toBe(1);
      expect(Date.now() - sentAt).toBeLessThan(1000);
      expect(errorLines(run)[0]).toMatch(/Cancelled \(SIGTERM\)/);
      expect(await fs.readdir(run.tempDir)).toEqual([]);
      expect(await fs.readdir(workspace)).toEqual([]);
    } finally {
      await quick.stop();
    }
  });
});

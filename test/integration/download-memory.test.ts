import { constants, PerformanceObserver } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startHarness } from '../support/in-process.js';

/** Counts the young-generation collections asked for (forced), not those V8 makes itself. */
async function forcedMinorCollections<T>(work: () => Promise<T>): Promise<[T, number]> {
  let count = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { kind, flags } = (entry as unknown as { detail: { kind: number; flags: number } })
        .detail;
      if (
        kind === constants.NODE_PERFORMANCE_GC_MINOR &&
        flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED
      ) {
        count += 1;
      }
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  try {
    const result = await work();
    await sleep(50); // the entries arrive after the collections
    return [result, count];
  } finally {
    observer.disconnect();
  }
}

describe('download memory', () => {
  it.each(['tar.gz', 'zip'] as const)(
    'a %s download frees the chunks it has copied every 4 MB',
    async (archiveFormat) => {
      const harness = await startHarness({
        archiveFormat,
        archiveSizeBytes: 24 * 1024 * 1024,
        fileCount: 200,
      });
      try {
        const [run, collections] = await forcedMinorCollections(() =>
          harness.run({ domain: 'docs.example.com', path: 'site' }),
        );
        expect(run.code, run.stdout).toBe(0);
        const downloaded = Number(run.outputs['size-bytes']);
        expect(downloaded).toBeGreaterThan(24 * 1024 * 1024);
        // One at every 4 MB boundary the download passes, and no more.
        expect(collections).toBe(Math.floor(downloaded / (4 * 1024 * 1024)));
      } finally {
        await harness.stop();
      }
    },
  );
});

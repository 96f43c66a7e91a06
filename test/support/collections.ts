import { constants, PerformanceObserver } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs `work` and counts the young-generation collections asked for during it (V8 marks
 * them forced), not those V8 makes on its own.
 */
export async function forcedMinorCollections<T>(work: () => T | Promise<T>): Promise<[T, number]> {
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

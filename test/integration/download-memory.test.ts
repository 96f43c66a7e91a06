import { describe, expect, it } from 'vitest';
import { forcedMinorCollections } from '../support/collections.js';
import { startHarness } from '../support/in-process.js';

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

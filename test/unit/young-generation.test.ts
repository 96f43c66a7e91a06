import { execFileSync } from 'node:child_process';
import vm from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { collectYoungGeneration, holdYoungGeneration } from '../../src/young-generation.js';
import { forcedMinorCollections } from '../support/collections.js';

const arrayBufferMb = () => process.memoryUsage().arrayBuffers / 2 ** 20;

/** 25 MB of chunks that die at once, as a download's do once copied. */
function deadChunks(): void {
  for (let i = 0; i < 400; i += 1) Buffer.allocUnsafeSlow(64 * 1024).fill(1);
}

describe('collectYoungGeneration', () => {
  it('collects the young generation at once, each time it is called', async () => {
    const release = holdYoungGeneration();
    try {
      const [, collections] = await forcedMinorCollections(() => {
        collectYoungGeneration();
        collectYoungGeneration();
      });
      expect(collections).toBe(2);
    } finally {
      release();
    }
  });

  it('frees the memory of chunks that died since the last collection', async () => {
    const release = holdYoungGeneration();
    try {
      // An empty young generation first, so that the allocations below do not fill it.
      collectYoungGeneration();
      deadChunks();
      const dead = arrayBufferMb();
      collectYoungGeneration();
      // The memory is handed back as the collection's sweep ends, within milliseconds.
      await vi.waitFor(() => expect(dead - arrayBufferMb()).toBeGreaterThan(10), {
        timeout: 1000,
        interval: 10,
      });
    } finally {
      release();
    }
  });

  it('leaves no gc function exposed to code run later', () => {
    holdYoungGeneration()();
    collectYoungGeneration();
    expect(vm.runInNewContext('typeof gc')).toBe('undefined');
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined');
  });

  it('leaves a process started with --expose-gc its own gc, in every context', () => {
    const script = `
      import vm from 'node:vm';
      import { collectYoungGeneration, holdYoungGeneration } from './src/young-generation.ts';
      holdYoungGeneration()();
      collectYoungGeneration();
      console.log(typeof globalThis.gc, vm.runInNewContext('typeof gc'));
    `;
    const seen = execFileSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    expect(seen.trim()).toBe('function function');
  });
});

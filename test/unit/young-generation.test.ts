import { setTimeout as sleep } from 'node:timers/promises';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectYoungGeneration } from '../../src/young-generation.js';

const arrayBufferMb = () => process.memoryUsage().arrayBuffers / 2 ** 20;

/** 25 MB of chunks that die at once, as a download's do once copied. */
function deadChunks(): void {
  for (let i = 0; i < 400; i += 1) Buffer.allocUnsafeSlow(64 * 1024).fill(1);
}

describe('collectYoungGeneration', () => {
  it('frees the memory of chunks that died since the last collection', async () => {
    const before = arrayBufferMb();
    deadChunks();
    await sleep(20);
    // Left alone, nothing collects them: the allocations made no young objects to speak of.
    expect(arrayBufferMb() - before).toBeGreaterThan(20);
    collectYoungGeneration();
    // The memory is handed back as the collection's sweep ends, within a few milliseconds.
    await sleep(20);
    expect(arrayBufferMb() - before).toBeLessThan(5);
  });

  it('leaves no gc function exposed to code run later', () => {
    collectYoungGeneration();
    expect(vm.runInNewContext('typeof gc')).toBe('undefined');
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined');
  });
});

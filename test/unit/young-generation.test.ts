import { execFileSync } from 'node:child_process';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectYoungGeneration, holdYoungGeneration } from '../../src/young-generation.js';
import { forcedMinorCollections } from '../support/collections.js';

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

  it('frees the memory of chunks that died since the last collection', () => {
    // In a process of its own: in a worker shared with other test files, their memory
    // (and the collections it sets off) moves the figures this test reads.
    const script = `
      import { collectYoungGeneration, holdYoungGeneration } from './src/young-generation.ts';
      const arrayBufferMb = () => process.memoryUsage().arrayBuffers / 2 ** 20;
      holdYoungGeneration();
      collectYoungGeneration(); // an empty young generation, so the chunks do not fill it
      // 25 MB of chunks that die at once, as a download's do once copied.
      for (let i = 0; i < 400; i += 1) Buffer.allocUnsafeSlow(64 * 1024).fill(1);
      const dead = arrayBufferMb();
      collectYoungGeneration();
      // The memory is handed back as the collection's sweep ends, within milliseconds.
      const until = Date.now() + 1000;
      const poll = () => {
        const freed = dead - arrayBufferMb();
        if (freed > 20 || Date.now() > until) console.log(freed.toFixed(1));
        else setTimeout(poll, 10);
      };
      poll();
    `;
    const freedMb = execFileSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    expect(Number(freedMb)).toBeGreaterThan(20);
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

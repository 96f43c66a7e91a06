import { describe, expect, it } from 'vitest';
import { createClock } from '../../emulator/clock.js';
import { progressAt } from '../../emulator/export-jobs.js';
import { resolveOptions } from '../../emulator/options.js';
import { parseRange } from '../../emulator/store.js';
import { completedBundle, rawGet, startTestEmulator } from './helpers.js';

describe('emulator clock', () => {
  it('runs at `scale` times real speed plus every advance', () => {
    let real = 1000;
    const clock = createClock(10, 5_000_000, () => real);
    expect(clock.now()).toBe(5_000_000);
    real += 50;
    expect(clock.now()).toBe(5_000_500);
    clock.advance(1000);
    expect(clock.now()).toBe(5_001_500);
    expect(() => clock.advance(-1)).toThrow();
  });

  it('stands still with scale 0 until advanced', () => {
    let real = 0;
    const clock = createClock(0, 0, () => real);
    real += 10_000;
    expect(clock.now()).toBe(0);
    clock.advance(5);
    expect(clock.now()).toBe(5);
  });
});

describe('progress profiles', () => {
  it('is linear from 0 to 100', () => {
    expect([0, 0.25, 0.5, 1].map((f) => progressAt('linear', f))).toEqual([0, 25, 50, 100]);
  });

  it('stalls at 10 until 80% of the run, then jumps to 100', () => {
    expect(
      [0, 0.05, 0.1, 0.5, 0.79, 0.8, 0.95].map((f) => progressAt('stall-then-jump', f)),
    ).toEqual([0, 5, 10, 10, 10, 100, 100]);
  });
});

describe('range parsing', () => {
  it.each([
    [undefined, { kind: 'all' }],
    ['bytes=0-', { kind: 'part', start: 0, end: 999 }],
    ['bytes=10-20', { kind: 'part', start: 10, end: 20 }],
    ['bytes=990-5000', { kind: 'part', start: 990, end: 999 }],
    ['bytes=-100', { kind: 'part', start: 900, end: 999 }],
    ['bytes=-5000', { kind: 'part', start: 0, end: 999 }],
    ['bytes=1000-', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=20-10', { kind: 'all' }],
    ['bytes=0-1,5-6', { kind: 'all' }],
    ['items=0-1', { kind: 'all' }],
  ])('%s of 1000 bytes -> %j', (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });
});

describe('stop()', () => {
  it('closes stalled downloads and both servers promptly', async () => {
    const emulator = await startTestEmulator();
    const bundle = await completedBundle(emulator);
    emulator.faults.add({ route: 'store.get', stallAfterBytes: 10 });
    const stalled = rawGet(bundle.bundleUrl, 5000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    await emulator.stop();
    expect(performance.now() - started).toBeLessThan(1000);
    const raw = await stalled;
    expect(raw.closedByServer).toBe(true);
    expect(raw.body.length).toBe(10);
    await expect(fetch(`${emulator.baseUrl}/v1/static-export/jobs/x`)).rejects.toThrow();
    await expect(fetch(bundle.bundleUrl)).rejects.toThrow();
  });
});

describe('host', () => {
  it('is loopback unless other machines are explicitly allowed in', async () => {
    // Refused before any port is taken. An address of no interface first: were the check
    // gone, that start fails and the test ends before any server listens on every interface.
    for (const host of ['192.0.2.10', '0.0.0.0', '::']) {
      await expect(startTestEmulator({ host })).rejects.toThrow(
        new RegExp(
          `^Invalid emulator options: host ${host} is not a loopback address .*allowNonLoopbackHost: true`,
        ),
      );
    }
    expect(resolveOptions({ host: '0.0.0.0', allowNonLoopbackHost: true }).host).toBe('0.0.0.0');
    for (const [host, origin] of [
      ['127.0.0.2', 'http://127.0.0.2:'],
      ['::1', 'http://[::1]:'],
    ] as const) {
      const emulator = await startTestEmulator({ host });
      try {
        expect(emulator.baseUrl.startsWith(origin)).toBe(true);
        const bundle = await completedBundle(emulator);
        expect((await fetch(bundle.bundleUrl)).status).toBe(200);
      } finally {
        await emulator.stop();
      }
    }
  });
});

import type { EmulatorClock } from './types.js';

/**
 * Emulator time: the real time the emulator started, plus real elapsed time times `scale`,
 * plus every manual `advance`. Job states are derived from it, so no timers are needed.
 */
export function createClock(
  scale: number,
  startMs: number = Date.now(),
  realNow: () => number = () => performance.now(),
): EmulatorClock {
  const realStart = realNow();
  let advancedMs = 0;
  return {
    scale,
    now: () => Math.floor(startMs + (realNow() - realStart) * scale + advancedMs),
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new Error('clock.advance needs a finite ms >= 0');
      advancedMs += ms;
    },
  };
}

export const iso = (ms: number): string => new Date(ms).toISOString();

export const HOUR_MS = 3_600_000;

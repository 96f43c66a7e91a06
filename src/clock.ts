import { setTimeout as delay } from 'node:timers/promises';
import { abortReason } from './errors.js';

/** Time is passed in, so polling and retries are tested in milliseconds. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A clock that also runs a callback later: the run's overall timeout lives on it. */
export interface TimerClock extends Clock {
  /** Calls `callback` once `ms` have passed; the returned function cancels it. */
  after(ms: number, callback: () => void): () => void;
}

/** A number in [0, 1), like Math.random; injected for jitter. */
export type Random = () => number;

export const systemClock: TimerClock = {
  now: () => Date.now(),
  async sleep(ms, signal) {
    try {
      await delay(Math.max(0, ms), undefined, signal ? { signal } : undefined);
    } catch (err) {
      if (signal?.aborted) throw abortReason(signal);
      throw err;
    }
  },
  after(ms, callback) {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
};

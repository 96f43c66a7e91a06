import type { TimerClock } from '../../src/clock.js';
import { abortReason } from '../../src/errors.js';

/** The time source the virtual clock moves: the emulator's clock, frozen (`timeScale: 0`). */
export interface AdvanceableTime {
  now(): number;
  advance(ms: number): void;
}

interface Timer {
  due: number;
  order: number;
  fire: () => void;
}

/**
 * One clock for the action and the emulator. Time passes only when the action sleeps: a
 * sleep moves the clock straight to its end, firing on the way, in order, every timer due
 * earlier (the run's timeout, a cancellation a test scheduled). While the action waits on
 * real I/O no virtual time passes, so job timelines, backoffs and timeouts are exact and a
 * run that polls for minutes takes milliseconds.
 */
export class VirtualClock implements TimerClock {
  readonly #time: AdvanceableTime;
  readonly #timers = new Set<Timer>();
  #order = 0;
  /** Every sleep, in ms, in the order the action asked for them. */
  readonly sleeps: number[] = [];

  constructor(time: AdvanceableTime) {
    this.#time = time;
  }

  now(): number {
    return this.#time.now();
  }

  after(ms: number, callback: () => void): () => void {
    const timer = this.#add(ms, callback);
    return () => this.#timers.delete(timer);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.#timers.delete(timer);
        reject(abortReason(signal as AbortSignal));
      };
      const timer = this.#add(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#runUntilFired(timer);
    });
  }

  /**
   * Moves time forward from outside the action, firing the timers due on the way: time
   * passing while the action waits on the network (where it never sleeps).
   */
  advance(ms: number): void {
    this.#runUntilFired(this.#add(ms, () => undefined));
  }

  #add(ms: number, fire: () => void): Timer {
    if (!Number.isFinite(ms)) throw new Error(`VirtualClock: cannot wait ${ms} ms`);
    // Whole milliseconds: the emulator's clock floors, and both must read the same time.
    const timer = { due: this.now() + Math.max(0, Math.ceil(ms)), order: this.#order++, fire };
    this.#timers.add(timer);
    return timer;
  }

  /** Fires timers in due order until `target` has fired or was cancelled by an earlier one. */
  #runUntilFired(target: Timer): void {
    while (this.#timers.has(target)) {
      let next = target;
      for (const timer of this.#timers) {
        if (timer.due < next.due || (timer.due === next.due && timer.order < next.order))
          next = timer;
      }
      this.#timers.delete(next);
      const ahead = next.due - this.now();
      if (ahead > 0) this.#time.advance(ahead);
      next.fire();
    }
  }
}

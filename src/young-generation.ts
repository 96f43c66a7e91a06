import v8 from 'node:v8';
import vm from 'node:vm';
import { isMainThread } from 'node:worker_threads';

/** V8's own default: each scavenge that finds the young generation full may double it. */
const DEFAULT_GROWTH_FACTOR = 2;
let holders = 0;

/**
 * Keeps V8's young generation at the size it has now until the returned function is
 * called. Streaming an archive allocates a buffer or two per entry that dies at once;
 * left to grow (up to 48 MB on 64-bit), the young generation collects them rarely, so
 * the decompressor's freed chunks pile up as external memory and are reused cold.
 * Measured on a 256 MB tar.gz of 20,000 files: the whole step peaks at 164 MB instead of
 * 197-215 MB, and takes less time. The growth factor is read by V8 each time it
 * considers growing, so changing it at run time takes effect (unlike the semi-space
 * size, which is fixed at start-up); it is process-wide, so worker threads started
 * meanwhile keep their young generation too (no slower in the change-report and
 * readiness benchmarks). The default is put back when the last holder releases. The
 * first hold on the main thread also takes V8's collector for `collectYoungGeneration`.
 */
export function holdYoungGeneration(): () => void {
  if (collect === undefined && isMainThread) collect = takeCollector();
  if (holders === 0) v8.setFlagsFromString('--semi-space-growth-factor=1');
  holders += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders -= 1;
    if (holders === 0) v8.setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH_FACTOR}`);
  };
}

type Collect = (options: { type: 'minor' }) => void;
/** V8's collector, once taken (null: not offered); see `collectYoungGeneration`. */
let collect: Collect | null | undefined;

/**
 * Collects the young generation now, when `holdYoungGeneration` has been called once on
 * the main thread (otherwise this does nothing). A network chunk dies as soon as it is
 * copied, but its memory (outside V8's heap) is only freed when the young generation is
 * next collected, and a download allocates too few objects to fill it often: on a 1 GiB
 * tar.gz of large files, or while a zip is saved whole, about 4,000 dead chunks (50 MB)
 * piled up between two collections.
 */
export function collectYoungGeneration(): void {
  collect?.({ type: 'minor' });
}

/**
 * V8 offers its collector only to code run with `--expose-gc`. Unless the process was
 * started with it (then its own `gc` is used and the flag left alone), the flag is set
 * just long enough to take the function from a fresh context. Taken once, on the main
 * thread, before the download starts any worker: a context made meanwhile would get
 * `gc` too.
 */
function takeCollector(): Collect | null {
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === 'function') return own as Collect;
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('gc');
    return typeof gc === 'function' ? (gc as Collect) : null;
  } catch {
    return null;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}

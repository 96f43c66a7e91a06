import { constants } from 'node:os';
import { CancelledError } from './errors.js';

const CANCELLING = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** The exit code of a process ended by `signal`, as shells report it: 128 + its number (130 for Ctrl-C). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + constants.signals[signal];
}

/**
 * An AbortSignal that fires on SIGINT, SIGTERM (what a CI system sends when a job is
 * cancelled) or SIGHUP (a closed terminal), so every request, wait and write of the run
 * stops promptly and cleans up. A second signal ends the process at once; the exit hook
 * of deliver/place.ts still removes the temporary files.
 */
export function cancelOnSignals(source: Pick<NodeJS.EventEmitter, 'on' | 'off'> = process): {
  signal: AbortSignal;
  dispose: () => void;
} {
  const controller = new AbortController();
  const handlers = CANCELLING.map((name) => {
    const handler = () => {
      if (!controller.signal.aborted) {
        controller.abort(new CancelledError(`Cancelled (${name}).`, name));
      } else if (source === process) {
        process.stderr.write(
          `${name} while stopping: ending at once, without waiting for the run to end.\n`,
        );
        process.exit(signalExitCode(name));
      }
    };
    source.on(name, handler);
    return [name, handler] as const;
  });
  return {
    signal: controller.signal,
    dispose: () => {
      for (const [name, handler] of handlers) source.off(name, handler);
    },
  };
}

/**
 * A reader that goes away (`static-export … | head`) is not a failure of the export:
 * writes to the closed pipe are dropped, without a stack trace, and the run goes on.
 */
export function ignoreClosedPipe(stream: NodeJS.WritableStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
    stream.write = (() => true) as typeof stream.write;
  });
}

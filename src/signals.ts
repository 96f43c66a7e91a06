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
 * Ends the process with `code` once what it wrote to stdout and stderr is out. A run a
 * signal cancelled may leave work that takes no signal (the artifact upload's requests,
 * which @actions/artifact cannot abort): once the run's report is written, nothing of it
 * is wanted, and it would otherwise keep the process alive until it ends.
 */
export async function exitOnceFlushed(code: number): Promise<never> {
  const flushed = (stream: NodeJS.WriteStream) =>
    new Promise<void>((resolve) => {
      if (stream.destroyed || !stream.writable) resolve();
      else stream.write('', () => resolve());
    });
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
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

/** Node's exit code when the event loop empties while the entry point still awaits. */
const UNSETTLED_TOP_LEVEL_AWAIT = 13;

/**
 * Runs `main` as the entry point does, and when the process ends before it settles (it
 * awaited something no event could ever settle, so the event loop ran empty), says so
 * on `write` in one line and exits 1, instead of Node's bare exit code 13 and warning.
 */
export async function runToTheEnd(
  main: () => Promise<void>,
  write: (line: string) => void,
): Promise<void> {
  let settled = false;
  const onExit = (code: number) => {
    // Node 20 sets the code on process.exitCode and emits 'exit' with 0.
    const unsettled =
      code === UNSETTLED_TOP_LEVEL_AWAIT || process.exitCode === UNSETTLED_TOP_LEVEL_AWAIT;
    if (settled || !unsettled) return;
    write(
      'The run ended without finishing: it was left waiting for something that never came. This is a bug in the action: rerun the step, and report it with this log.',
    );
    process.exitCode = 1;
  };
  process.once('exit', onExit);
  try {
    await main();
  } finally {
    settled = true;
    process.off('exit', onExit);
  }
}

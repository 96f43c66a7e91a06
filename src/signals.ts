import { CancelledError } from './errors.js';

/**
 * An AbortSignal that fires on SIGINT or SIGTERM (what a CI system sends when a job is
 * cancelled), so every request, wait and write of the run stops promptly and cleans up.
 */
export function cancelOnSignals(source: Pick<NodeJS.EventEmitter, 'once' | 'off'> = process): {
  signal: AbortSignal;
  dispose: () => void;
} {
  const controller = new AbortController();
  const handlers = (['SIGINT', 'SIGTERM'] as const).map((name) => {
    const handler = () => controller.abort(new CancelledError(`Cancelled (${name}).`));
    source.once(name, handler);
    return [name, handler] as const;
  });
  return {
    signal: controller.signal,
    dispose: () => {
      for (const [name, handler] of handlers) source.off(name, handler);
    },
  };
}

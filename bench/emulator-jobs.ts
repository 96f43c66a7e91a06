/** Talking to the emulator from the bench itself: presigned links for the baselines, timings. */
import type { Emulator, RecordedRequest, RecordedRoute } from '../emulator/index.js';

export { mintBundleLink } from '../scripts/emulator-link.js';

/** The requests recorded from index `from` on, optionally only one route. */
export function requestsSince(
  emulator: Emulator,
  from: number,
  route?: RecordedRoute,
): RecordedRequest[] {
  const recorded = emulator.requests.slice(from);
  return route === undefined ? recorded : recorded.filter((r) => r.route === route);
}

/** Emulator time (ms) of the first request on `route` since index `from`. */
export function firstAt(emulator: Emulator, from: number, route: RecordedRoute): number {
  const request = requestsSince(emulator, from, route)[0];
  if (request === undefined) throw new Error(`no ${route} request was recorded`);
  return request.at;
}

/**
 * Emulator time the job completed: createdAt + jobDurationMs on the emulator clock,
 * as the emulator computes it (`endsAt`).
 */
export function completedAt(emulator: Emulator, jobDurationMs: number): number {
  const jobs = emulator.exportJobs.list();
  if (jobs.length !== 1) throw new Error(`expected one export job, found ${jobs.length}`);
  return Date.parse((jobs[0] as (typeof jobs)[number]).view.createdAt) + jobDurationMs;
}

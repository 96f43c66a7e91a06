/** Talking to the emulator from the bench itself: presigned links for the baselines, timings. */
import type { Emulator, RecordedRequest, RecordedRoute } from '../emulator/index.js';

/**
 * Starts an export on the emulator and returns a fresh presigned link to its archive
 * (the job must complete at once: jobDurationMs 0). The bundle call waits for the archive,
 * so this also generates it, or finds it in the cache.
 */
export async function mintBundleLink(
  emulator: Emulator,
  domain: string,
): Promise<{ url: string; sizeBytes: number }> {
  const headers = {
    authorization: `Bearer ${emulator.keys.write}`,
    'content-type': 'application/json',
  };
  const started = await fetch(`${emulator.baseUrl}/v1/static-export/jobs`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ domain }),
  });
  const job = (await started.json()) as { jobId?: string; status?: string };
  if (started.status !== 202 || job.jobId === undefined || job.status !== 'completed') {
    throw new Error(`the emulator did not complete the export at once: ${JSON.stringify(job)}`);
  }
  const bundle = await fetch(`${emulator.baseUrl}/v1/static-export/jobs/${job.jobId}/bundle`, {
    method: 'POST',
    headers,
  });
  const link = (await bundle.json()) as { bundleUrl?: string; sizeBytes?: number };
  if (bundle.status !== 200 || link.bundleUrl === undefined) {
    throw new Error(`the bundle call failed (${bundle.status}): ${JSON.stringify(link)}`);
  }
  return { url: link.bundleUrl, sizeBytes: link.sizeBytes ?? 0 };
}

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

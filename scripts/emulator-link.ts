/** Talking to the emulator directly, for benchmarks and tests that need a bare link. */
import type { Emulator } from '../emulator/index.js';

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

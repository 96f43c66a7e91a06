import { parentPort, workerData } from 'node:worker_threads';
import { type EarlierPage, PageFingerprintJob, type WrittenPage } from './page-fingerprints.js';

/**
 * The worker thread that fingerprints pages while the main thread extracts the site
 * (built as its own entry, dist/fingerprint-worker.js). It receives batches of written
 * pages, then the site's full file list, answers with the fingerprints and exits.
 */

export interface FingerprintWorkerData {
  root: string;
  earlier?: Map<string, EarlierPage>;
}

export type ToFingerprintWorker =
  { kind: 'written'; pages: WrittenPage[] } | { kind: 'finish'; files: WrittenPage[] };

const data = workerData as FingerprintWorkerData;
const job = new PageFingerprintJob(data.root, data.earlier);
const port = parentPort;
port?.on('message', (message: ToFingerprintWorker) => {
  if (message.kind === 'written') {
    for (const page of message.pages) job.add(page);
    return;
  }
  // The files themselves are the main thread's already: only the fingerprints go back.
  port.postMessage({ ...job.finish(message.files), pageFiles: [], otherFiles: [] });
  port.close();
});

import { parentPort, workerData } from 'node:worker_threads';
import {
  type EarlierPage,
  type Outcome,
  PageFingerprintJob,
  type WrittenPage,
} from './page-fingerprints.js';

/**
 * The worker thread that fingerprints pages while the main thread extracts the site
 * (built as its own entry, dist/fingerprint-worker.js). It takes one batch of written
 * pages at a time, says when each is done so that it is given the next, and once told
 * the site is complete hands back what it looked at and exits: the main thread, which
 * scans the last batches beside it, finishes the fingerprints.
 */

export interface FingerprintWorkerData {
  root: string;
  earlier?: Map<string, EarlierPage>;
}

export type ToFingerprintWorker = { kind: 'written'; pages: WrittenPage[] } | { kind: 'finish' };

export type FromFingerprintWorker =
  { kind: 'scanned' } | { kind: 'outcomes'; outcomes: Map<string, Outcome> };

const data = workerData as FingerprintWorkerData;
const job = new PageFingerprintJob(data.root, data.earlier);
const port = parentPort;
const answer = (message: FromFingerprintWorker) => port?.postMessage(message);
port?.on('message', (message: ToFingerprintWorker) => {
  if (message.kind === 'written') {
    for (const page of message.pages) job.add(page);
    answer({ kind: 'scanned' });
    return;
  }
  answer({ kind: 'outcomes', outcomes: job.outcomes() });
  port.close();
});

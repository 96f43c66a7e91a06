/**
 * A worker thread of the readiness scan: reads the files it is handed and answers with
 * each one's part of the scan (see scanOnWorkers in scan.ts). Built as its own bundle.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { FileScanner, type ScanReply, type ScanRequest, type WorkerSetup } from './scan.js';
import { SiteTree } from './site-tree.js';

const setup = workerData as WorkerSetup;
const scanner = new FileScanner(
  SiteTree.of(setup.root, setup.files, setup.directories),
  setup.options,
);
const port = parentPort;
if (port === null) throw new Error('scan-worker runs as a worker thread');

port.on('message', (request: ScanRequest) => {
  scanner.scan(request.file, request.kind).then(
    (scan) => port.postMessage({ index: request.index, scan } satisfies ScanReply),
    (err: unknown) => {
      const { code, path } = (err ?? {}) as { code?: unknown; path?: unknown };
      port.postMessage({
        index: request.index,
        failure: {
          message: err instanceof Error ? err.message : String(err),
          ...(err instanceof Error && err.stack !== undefined ? { stack: err.stack } : {}),
          ...(typeof code === 'string' ? { code } : {}),
          ...(typeof path === 'string' ? { path } : {}),
        },
      } satisfies ScanReply);
    },
  );
});

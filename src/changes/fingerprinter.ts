import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { shippedWorkerFile } from '../worker-file.js';
import type { ToFingerprintWorker } from './fingerprint-worker.js';
import {
  type EarlierPage,
  PageFingerprintJob,
  type PageFingerprints,
  type WrittenPage,
} from './page-fingerprints.js';

/**
 * Page fingerprints made while the site is extracted. With the worker file beside this
 * module (dist/fingerprint-worker.js, and .build/ after tsc), a worker thread reads and
 * fingerprints each page as soon as it is written, on the runner's second core, so that
 * the pages are done by the time the extraction is. Without it (the sources run by tsx
 * in tests), the same job runs in this thread.
 */
export interface PageFingerprinter {
  /** Where pages were scanned: a worker thread, or this one (no worker, or no page needed it). */
  readonly where: 'worker' | 'inline';
  /** A file was written in full (every file of the site goes through here), with its bytes when in memory. */
  written(file: WrittenPage, bytes?: Buffer): void;
  /** Fingerprints of every page of the complete site. */
  finish(files: Iterable<WrittenPage>): Promise<PageFingerprints>;
  /** Stops any work in progress (a failed or cancelled extraction). */
  stop(): Promise<void>;
}

/** The worker's entry, as the build places it beside the module that starts it. */
export const WORKER_FILE = 'fingerprint-worker.js';

/**
 * Pages are handed to the worker in batches: one message per page costs more than its
 * scan. The worker starts with the first full batch: fewer pages (an export that edits a
 * few) are scanned here at the end in less time than a thread takes to start.
 */
const BATCH_PAGES = 128;

export interface FingerprinterOptions {
  /** Where the worker's entry is; defaults to WORKER_FILE beside this module. */
  workerFile?: string;
  /** Why the worker could not be used, for the debug log. */
  debug?: (line: string) => void;
  /** Pages to scan in one message to the worker; BATCH_PAGES by default. */
  batchPages?: number;
}

export function startPageFingerprinter(
  root: string,
  earlier: ReadonlyMap<string, EarlierPage> | undefined,
  options: FingerprinterOptions = {},
): PageFingerprinter {
  const workerFile = options.workerFile ?? shippedWorkerFile(import.meta.url, WORKER_FILE);
  if (workerFile !== undefined && existsSync(workerFile)) {
    try {
      return new WorkerFingerprinter(root, earlier, workerFile, options);
    } catch (err) {
      options.debug?.(`No fingerprint worker (${String(err)}): pages are fingerprinted inline.`);
    }
  }
  return inlineFingerprinter(root, earlier);
}

function inlineFingerprinter(
  root: string,
  earlier: ReadonlyMap<string, EarlierPage> | undefined,
): PageFingerprinter {
  const job = new PageFingerprintJob(root, earlier);
  return {
    where: 'inline',
    written: (file, bytes) => {
      const rest = job.triage(file, bytes);
      if (rest !== undefined) job.add(rest, bytes);
    },
    finish: (files) => Promise.resolve(job.finish(files)),
    stop: () => Promise.resolve(),
  };
}

/**
 * Pages with the earlier export's bytes or markup are settled here, as they are written
 * (a CRC of bytes in memory); the worker scans the rest, and is started once there is a
 * batch of them: an export that changes a few pages, or a site without pages, never
 * starts it.
 */
class WorkerFingerprinter implements PageFingerprinter {
  readonly #local: PageFingerprintJob;
  #worker: Worker | undefined;
  #result: Promise<PageFingerprints> | undefined;
  #batch: WrittenPage[] = [];
  #failed: unknown;

  constructor(
    private readonly root: string,
    private readonly earlier: ReadonlyMap<string, EarlierPage> | undefined,
    private readonly workerFile: string,
    private readonly options: FingerprinterOptions,
  ) {
    this.#local = new PageFingerprintJob(root, earlier);
  }

  get where(): 'worker' | 'inline' {
    return this.#worker === undefined ? 'inline' : 'worker';
  }

  #start(): Worker | undefined {
    if (this.#worker !== undefined || this.#failed !== undefined) return this.#worker;
    let worker: Worker;
    try {
      worker = new Worker(this.workerFile, {
        workerData: { root: this.root, ...(this.earlier ? { earlier: this.earlier } : {}) },
      });
    } catch (err) {
      this.#failed = err;
      return undefined;
    }
    // The worker never keeps the step alive: a failed run ends without waiting for it.
    worker.unref();
    this.#result = new Promise<PageFingerprints>((resolve, reject) => {
      worker.once('message', (result: PageFingerprints) => resolve(result));
      worker.once('error', reject);
      worker.once('exit', (code) =>
        reject(new Error(`the fingerprint worker exited (code ${code}) before answering`)),
      );
    });
    // Awaited by finish; meanwhile a failure is only remembered, never unhandled.
    this.#result.catch((err: unknown) => {
      this.#failed = err;
    });
    this.#worker = worker;
    return worker;
  }

  written(file: WrittenPage, bytes?: Buffer): void {
    const rest = this.#local.triage(file, bytes);
    if (rest === undefined || this.#failed !== undefined) return;
    this.#batch.push(rest);
    if (this.#batch.length >= (this.options.batchPages ?? BATCH_PAGES))
      this.#post({ kind: 'written', pages: this.#batch });
  }

  async finish(files: Iterable<WrittenPage>): Promise<PageFingerprints> {
    // Nothing was left to the worker: what remains is looked at here.
    if (this.#worker === undefined && this.#failed === undefined) {
      return this.#local.finish(files);
    }
    const { done, rest } = this.#local.partition(files);
    if (this.#batch.length > 0) this.#post({ kind: 'written', pages: this.#batch });
    const list = rest.map((f) => ({ path: f.path, size: f.size, sha256: f.sha256 }));
    this.#post({ kind: 'finish', files: list });
    try {
      if (this.#result === undefined) throw this.#failed;
      const scanned = await this.#result;
      for (const [file, page] of scanned.byPath) done.byPath.set(file, page);
      return {
        ...done,
        carriedOver: done.carriedOver + scanned.carriedOver,
        unreadable: scanned.unreadable,
      };
    } catch (err) {
      // A broken worker costs time, never the report: the pages are fingerprinted here.
      this.options.debug?.(
        `The fingerprint worker failed (${String(err)}): pages are fingerprinted inline.`,
      );
      return this.#local.finish(files);
    } finally {
      await this.stop();
    }
  }

  async stop(): Promise<void> {
    await this.#worker?.terminate();
  }

  #post(message: ToFingerprintWorker): void {
    this.#batch = [];
    if (this.#failed === undefined) this.#start()?.postMessage(message);
  }
}

import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { throwIfAborted } from '../errors.js';
import { shippedWorkerFile } from '../worker-file.js';
import { setImmediate } from 'node:timers/promises';
import type { FromFingerprintWorker, ToFingerprintWorker } from './fingerprint-worker.js';
import {
  type EarlierPage,
  type Outcome,
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
  /** Pages this thread scanned once the site was written, beside the worker. */
  readonly scannedBeside: number;
  /** A file was written in full (every file of the site goes through here), with its bytes when in memory. */
  written(file: WrittenPage, bytes?: Buffer): void;
  /** Fingerprints of every page of the complete site; `signal` stops a worker's share of it. */
  finish(files: Iterable<WrittenPage>, signal?: AbortSignal): Promise<PageFingerprints>;
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
    scannedBeside: 0,
    written: (file, bytes) => {
      const rest = job.triage(file, bytes);
      if (rest !== undefined) job.add(rest, bytes);
    },
    finish: (files) => Promise.resolve(job.finish(files)),
    stop: () => Promise.resolve(),
  };
}

/**
 * Batches handed to the worker ahead of its answers, so that it never waits for the next
 * one while this thread is busy; the rest wait here, for whichever thread is free first.
 */
const IN_FLIGHT = 2;

/**
 * Pages with the earlier export's bytes or markup are settled here, as they are written
 * (a CRC of bytes in memory); the worker scans the rest, and is started once there is a
 * batch of them: an export that changes a few pages, or a site without pages, never
 * starts it. Once the site is written, this thread scans the batches the worker has not
 * reached yet beside it, from the other end of the queue: a first export, or a sidebar
 * changed on every page, leaves most of the scanning after the extraction.
 */
class WorkerFingerprinter implements PageFingerprinter {
  readonly #local: PageFingerprintJob;
  #worker: Worker | undefined;
  #outcomes: Promise<Map<string, Outcome>> | undefined;
  #batch: WrittenPage[] = [];
  /** Full batches not handed to the worker yet. */
  readonly #queue: WrittenPage[][] = [];
  /** Batches the worker has and has not said it scanned. */
  #inFlight = 0;
  /** Called when the worker has scanned a batch, or failed. */
  #progress: (() => void) | undefined;
  #failed: unknown;
  #stopped = false;
  #scannedBeside = 0;

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

  get scannedBeside(): number {
    return this.#scannedBeside;
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
    this.#outcomes = new Promise<Map<string, Outcome>>((resolve, reject) => {
      worker.on('message', (message: FromFingerprintWorker) => {
        if (message.kind === 'outcomes') {
          resolve(message.outcomes);
          return;
        }
        this.#inFlight -= 1;
        this.#pump();
        this.#progress?.();
      });
      worker.once('error', reject);
      worker.once('exit', (code) =>
        reject(new Error(`the fingerprint worker exited (code ${code}) before answering`)),
      );
    });
    // Awaited by finish; meanwhile a failure is only remembered, never unhandled.
    this.#outcomes.catch((err: unknown) => {
      this.#failed = err;
      this.#progress?.();
    });
    this.#worker = worker;
    return worker;
  }

  written(file: WrittenPage, bytes?: Buffer): void {
    const rest = this.#local.triage(file, bytes);
    if (rest === undefined || this.#failed !== undefined) return;
    this.#batch.push(rest);
    if (this.#batch.length >= (this.options.batchPages ?? BATCH_PAGES)) {
      this.#queue.push(this.#batch);
      this.#batch = [];
      this.#start();
      this.#pump();
    }
  }

  /** Hands the worker the oldest batches, up to IN_FLIGHT of them. */
  #pump(): void {
    const worker = this.#worker;
    if (worker === undefined) return;
    while (this.#inFlight < IN_FLIGHT && this.#failed === undefined) {
      const pages = this.#queue.shift();
      if (pages === undefined) return;
      worker.postMessage({ kind: 'written', pages } satisfies ToFingerprintWorker);
      this.#inFlight += 1;
    }
  }

  async finish(files: Iterable<WrittenPage>, signal?: AbortSignal): Promise<PageFingerprints> {
    // Nothing was left to the worker: what remains is looked at here.
    if (this.#worker === undefined && this.#failed === undefined) {
      return this.#local.finish(files);
    }
    if (this.#batch.length > 0) this.#queue.push(this.#batch);
    this.#batch = [];
    const stop = () => void this.stop();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      this.#pump();
      // The worker takes batches from the front of the queue, this thread from the back.
      for (let pages = this.#queue.pop(); pages !== undefined; pages = this.#queue.pop()) {
        for (const page of pages) this.#local.add(page);
        this.#scannedBeside += pages.length;
        if (this.#stopped) throw new Error('the page fingerprints were stopped');
        // The worker's answers come in here, each handing it the next batch.
        await setImmediate();
      }
      while (this.#inFlight > 0 && this.#failed === undefined) {
        await new Promise<void>((resolve) => (this.#progress = resolve));
      }
      if (this.#failed !== undefined || this.#worker === undefined || !this.#outcomes) {
        throw this.#failed;
      }
      this.#worker.postMessage({ kind: 'finish' } satisfies ToFingerprintWorker);
      this.#local.adopt(await this.#outcomes);
    } catch (err) {
      throwIfAborted(signal);
      if (this.#stopped) throw err;
      // A broken worker costs time, never the report: what it had is looked at here.
      this.options.debug?.(
        `The fingerprint worker failed (${String(err)}): pages are fingerprinted inline.`,
      );
    } finally {
      signal?.removeEventListener('abort', stop);
      this.#progress = undefined;
      await this.stop();
    }
    return this.#local.finish(files);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#progress?.();
    await this.#worker?.terminate();
  }
}

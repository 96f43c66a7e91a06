import { createHash, type Hash } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/** Past this many bytes hashed, the rest is hashed on a worker thread. */
export const OFF_THREAD_AFTER_BYTES = 16 * 1024 * 1024;
/** Bytes sent at once, and the most copied bytes waiting for the worker. */
const BATCH_BYTES = 1024 * 1024;
const MAX_IN_FLIGHT_BYTES = 24 * 1024 * 1024;

type Op = [id: number, data: Uint8Array | number | null];

/** Runs in the worker: one SHA-256 per id; `null` ends an id, a number hashes that many zeros. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const zeros = Buffer.alloc(1024 * 1024);
const open = new Map();
parentPort.on('message', ({ ops, bytes }) => {
  const done = [];
  for (const [id, data] of ops) {
    let hash = open.get(id);
    if (hash === undefined) open.set(id, (hash = createHash('sha256')));
    if (data === null) {
      done.push([id, hash.digest('hex')]);
      open.delete(id);
    } else if (typeof data === 'number') {
      for (let left = data; left > 0; left -= zeros.length)
        hash.update(left >= zeros.length ? zeros : zeros.subarray(0, left));
    } else hash.update(data);
  }
  parentPort.postMessage({ done, bytes });
});
`;

/** A SHA-256 being computed for one file; `end` gives the id its digest is filed under. */
export interface FileHash {
  update(data: Uint8Array): void;
  zeros(count: number): void;
  end(): number;
}

/**
 * SHA-256 of every extracted file, computed while the bytes pass through. Small sites are
 * hashed on the calling thread; past OFF_THREAD_AFTER_BYTES the hashing moves to one
 * worker thread, so it runs beside parsing and writing instead of after them. The bytes
 * are copied to the worker in 1 MB batches, and no more than MAX_IN_FLIGHT_BYTES wait
 * for it: `room()` holds the extractor back until the worker catches up.
 */
export class SiteHasher {
  readonly #digests = new Map<number, string>();
  readonly #threshold: number;
  #nextId = 0;
  #hashed = 0;
  #worker: Worker | undefined;
  #failure: Error | undefined;
  #batch: Op[] = [];
  #batchBytes = 0;
  #inFlight = 0;
  #waiting: (() => void)[] = [];

  constructor(offThreadAfterBytes = OFF_THREAD_AFTER_BYTES) {
    this.#threshold = offThreadAfterBytes;
  }

  begin(): FileHash {
    const id = (this.#nextId += 1);
    if (this.#worker === undefined && this.#hashed < this.#threshold) {
      const hash = createHash('sha256');
      return this.#local(id, hash);
    }
    return this.#remote(id);
  }

  /** The digest filed under `id`, once `settle` has resolved. */
  digest(id: number): string {
    const digest = this.#digests.get(id);
    if (digest === undefined) throw new Error(`no SHA-256 for file ${id}`);
    return digest;
  }

  /** Resolves when the worker has room for more bytes (at once when hashing locally). */
  room(): Promise<void> | undefined {
    if (this.#failure) throw this.#failure;
    if (this.#inFlight <= MAX_IN_FLIGHT_BYTES) return undefined;
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Waits for every digest, then stops the worker. */
  async settle(): Promise<void> {
    this.#send();
    while (this.#inFlight > 0 && !this.#failure) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    await this.close();
    if (this.#failure) throw this.#failure;
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) await worker.terminate();
  }

  #local(id: number, hash: Hash): FileHash {
    return {
      update: (data) => {
        this.#hashed += data.length;
        hash.update(data);
      },
      zeros: (count) => {
        this.#hashed += count;
        hashZeros(hash, count);
      },
      end: () => {
        this.#digests.set(id, hash.digest('hex'));
        return id;
      },
    };
  }

  #remote(id: number): FileHash {
    this.#start();
    return {
      // A copy: the caller's buffer may be reused once this returns.
      update: (data) => this.#queue([id, Buffer.from(data)], data.length),
      zeros: (count) => this.#queue([id, count], 0),
      end: () => {
        this.#queue([id, null], 0);
        return id;
      },
    };
  }

  #queue(op: Op, bytes: number): void {
    this.#batch.push(op);
    this.#batchBytes += bytes;
    if (this.#batchBytes >= BATCH_BYTES || this.#batch.length >= 4096) this.#send();
  }

  #send(): void {
    if (this.#batch.length === 0 || this.#worker === undefined) return;
    const bytes = this.#batchBytes;
    this.#inFlight += bytes + 1;
    this.#worker.postMessage({ ops: this.#batch, bytes: bytes + 1 });
    this.#batch = [];
    this.#batchBytes = 0;
  }

  #start(): void {
    if (this.#worker !== undefined) return;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    worker.on('message', ({ done, bytes }: { done: [number, string][]; bytes: number }) => {
      for (const [id, digest] of done) this.#digests.set(id, digest);
      this.#inFlight -= bytes;
      this.#wake();
    });
    worker.on('error', (err) => {
      this.#failure = err;
      this.#wake();
    });
    this.#worker = worker;
  }

  #wake(): void {
    if (this.#inFlight > MAX_IN_FLIGHT_BYTES && !this.#failure) return;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }
}

const ZEROS = Buffer.alloc(1024 * 1024);

function hashZeros(hash: Hash, count: number): void {
  for (let left = count; left > 0; left -= ZEROS.length) {
    hash.update(left >= ZEROS.length ? ZEROS : ZEROS.subarray(0, left));
  }
}

import { createHash, type Hash } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/** Past this many bytes hashed, the rest is hashed on a worker thread. */
export const OFF_THREAD_AFTER_BYTES = 16 * 1024 * 1024;
/** Bytes copied into one batch buffer, and the most bytes waiting for the worker. */
const BATCH_BYTES = 1024 * 1024;
const MAX_IN_FLIGHT_BYTES = 4 * 1024 * 1024;

/** [id, offset, length] of bytes in the batch buffer; [id, -1, n]: n zeros; [id, -2, 0]: end. */
type Op = [id: number, offset: number, length: number];
const ZEROS_OP = -1;
const END_OP = -2;

/**
 * Runs in the worker: one SHA-256 per id, over bytes of the batch buffer (handed over,
 * not copied, and handed back for reuse), zeros, or the end of the file.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const zeros = Buffer.alloc(1024 * 1024);
const open = new Map();
parentPort.on('message', ({ ops, buffer, bytes }) => {
  const done = [];
  for (const [id, offset, length] of ops) {
    let hash = open.get(id);
    if (hash === undefined) open.set(id, (hash = createHash('sha256')));
    if (offset === ${END_OP}) {
      done.push([id, hash.digest('hex')]);
      open.delete(id);
    } else if (offset === ${ZEROS_OP}) {
      for (let left = length; left > 0; left -= zeros.length)
        hash.update(left >= zeros.length ? zeros : zeros.subarray(0, left));
    } else hash.update(new Uint8Array(buffer, offset, length));
  }
  parentPort.postMessage({ done, bytes, buffer }, buffer ? [buffer] : []);
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
 * are copied once, into 1 MB batch buffers whose memory is handed to the worker, and no
 * more than MAX_IN_FLIGHT_BYTES wait for it: `room()` holds the extractor back until the
 * worker catches up.
 */
export class SiteHasher {
  readonly #digests = new Map<number, string>();
  readonly #threshold: number;
  #nextId = 0;
  #hashed = 0;
  #worker: Worker | undefined;
  #failure: Error | undefined;
  #batch: Op[] = [];
  #buffer: Buffer | undefined;
  /** Batch buffers back from the worker: reused, so memory stays at a few megabytes. */
  readonly #spare: ArrayBuffer[] = [];
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
      update: (data) => this.#copy(id, data),
      zeros: (count) => this.#queue([id, ZEROS_OP, count]),
      end: () => {
        this.#queue([id, END_OP, 0]);
        return id;
      },
    };
  }

  #copy(id: number, data: Uint8Array): void {
    for (let at = 0; at < data.length;) {
      if (this.#batchBytes === BATCH_BYTES) this.#send();
      this.#buffer ??= Buffer.from(this.#spare.pop() ?? new ArrayBuffer(BATCH_BYTES));
      const length = Math.min(data.length - at, BATCH_BYTES - this.#batchBytes);
      this.#buffer.set(data.subarray(at, at + length), this.#batchBytes);
      this.#batch.push([id, this.#batchBytes, length]);
      this.#batchBytes += length;
      at += length;
    }
  }

  #queue(op: Op): void {
    this.#batch.push(op);
    if (this.#batch.length >= 4096) this.#send();
  }

  #send(): void {
    if (this.#batch.length === 0 || this.#worker === undefined) return;
    const bytes = this.#batchBytes + 1;
    const buffer = this.#buffer?.buffer as ArrayBuffer | undefined;
    this.#inFlight += bytes;
    this.#worker.postMessage({ ops: this.#batch, buffer, bytes }, buffer ? [buffer] : []);
    this.#batch = [];
    this.#buffer = undefined;
    this.#batchBytes = 0;
  }

  #start(): void {
    if (this.#worker !== undefined) return;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    type Reply = { done: [number, string][]; bytes: number; buffer?: ArrayBuffer };
    worker.on('message', ({ done, bytes, buffer }: Reply) => {
      for (const [id, digest] of done) this.#digests.set(id, digest);
      if (buffer) this.#spare.push(buffer);
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

/**
 * SHA-256 on a worker thread, where Node runs: a gate that snapshots hashes every complete line
 * of the journal as it audits, and on a thread of its own that costs the audit nothing on a
 * machine with a second core (a 300 MB journal took a third longer to audit with the hash on the
 * audit's thread). Bytes go to the thread in batches of a few megabytes; `hex()` waits for it
 * (`Atomics.wait`) so a digest is taken as synchronously as Node's own hash gives one. Elsewhere
 * — a browser — `threadedSha256` answers null and the caller hashes on its own thread.
 */

import { hexOfDigest, type Sha256 } from "./sha256.js";

/** Bytes a batch holds before it goes to the thread. */
const BATCH_BYTES = 4 << 20;
/**
 * Batches sent and not yet hashed, at most: past this the sender waits for the thread (a journal
 * read faster than it hashes would otherwise queue up in memory whole).
 */
const BATCHES_IN_FLIGHT_MAX = 4;
/** How long the thread may take to answer, beyond hashing the batches ahead at a slow 10 MB/s. */
const WAIT_MS = 10_000;
const SLOW_BYTES_PER_MS = 10_000;

type Request =
  | { readonly op: "start"; readonly hashed: SharedArrayBuffer; readonly slots: SharedArrayBuffer }
  | { readonly op: "new"; readonly id: number }
  | { readonly op: "update"; readonly id: number; readonly slot: number; readonly length: number }
  | { readonly op: "copy"; readonly id: number; readonly to: number }
  | { readonly op: "hex"; readonly id: number; readonly reply: SharedArrayBuffer };

/**
 * The worker: Node's hashes by id. Batches lie in shared slots, taken in turn; it counts the
 * batches it hashed in a shared word (a slot is free again once its batch is counted), and writes
 * a digest into the request's shared reply.
 */
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const hashes = new Map();
let hashed;
let slots;
parentPort.on("message", (request) => {
  switch (request.op) {
    case "start":
      hashed = new Int32Array(request.hashed);
      slots = new Uint8Array(request.slots);
      break;
    case "new": hashes.set(request.id, createHash("sha256")); break;
    case "update":
      const start = request.slot * ${BATCH_BYTES};
      hashes.get(request.id).update(slots.subarray(start, start + request.length));
      Atomics.add(hashed, 0, 1);
      Atomics.notify(hashed, 0);
      break;
    case "copy": hashes.set(request.to, hashes.get(request.id).copy()); break;
    case "hex": {
      const reply = new Int32Array(request.reply);
      const digest = hashes.get(request.id).digest();
      hashes.delete(request.id);
      new Uint8Array(request.reply, 4).set(digest);
      Atomics.store(reply, 0, 1);
      Atomics.notify(reply, 0);
      break;
    }
  }
});
`;

interface NodeWorker {
  postMessage(message: Request): void;
  unref(): void;
}

interface WorkerThreads {
  Worker: new (source: string, options: { eval: true; execArgv: string[] }) => NodeWorker;
}

const workerThreads = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.("node:worker_threads") as WorkerThreads | undefined;

/** The one hashing thread of the process, started when first needed; it never keeps it alive. */
class HashThread {
  private readonly worker: NodeWorker;
  private nextId = 0;
  /** How many batches the thread has hashed (it counts them), and how many were sent. */
  private readonly hashed = new Int32Array(new SharedArrayBuffer(4));
  private sent = 0;
  private readonly slots = new Uint8Array(
    new SharedArrayBuffer(BATCHES_IN_FLIGHT_MAX * BATCH_BYTES),
  );

  constructor(threads: WorkerThreads) {
    // Not the process's flags: a preloaded module (`node -r`) or a profiler is for the program,
    // not for a thread that only hashes.
    this.worker = new threads.Worker(WORKER_SOURCE, { eval: true, execArgv: [] });
    this.worker.unref();
    this.worker.postMessage({
      op: "start",
      hashed: this.hashed.buffer as SharedArrayBuffer,
      slots: this.slots.buffer as SharedArrayBuffer,
    });
  }

  newHash(): number {
    const id = this.nextId++;
    this.worker.postMessage({ op: "new", id });
    return id;
  }

  /** Hands the thread `batch` (at most BATCH_BYTES) to hash into hash `id`, once a slot is free. */
  update(id: number, batch: Uint8Array): void {
    for (;;) {
      const hashed = Atomics.load(this.hashed, 0);
      if (this.sent - hashed < BATCHES_IN_FLIGHT_MAX) break;
      this.wait(this.hashed, hashed, BATCHES_IN_FLIGHT_MAX);
    }
    const slot = this.sent % BATCHES_IN_FLIGHT_MAX;
    this.slots.set(batch, slot * BATCH_BYTES);
    this.sent += 1;
    this.worker.postMessage({ op: "update", id, slot, length: batch.length });
  }

  copy(id: number): number {
    const to = this.nextId++;
    this.worker.postMessage({ op: "copy", id, to });
    return to;
  }

  digest(id: number): Uint8Array {
    const reply = new SharedArrayBuffer(4 + 32);
    const state = new Int32Array(reply, 0, 1);
    this.worker.postMessage({ op: "hex", id, reply });
    this.wait(state, 0, BATCHES_IN_FLIGHT_MAX + 1);
    return new Uint8Array(reply, 4, 32).slice();
  }

  /**
   * Waits until `word` is no longer `value`, as long as hashing the batches ahead of it could
   * take on a slow machine; then the thread is taken for dead, and that is an error, not a hang.
   */
  private wait(word: Int32Array, value: number, batchesAhead: number): void {
    const waitMs = WAIT_MS + (batchesAhead * BATCH_BYTES) / SLOW_BYTES_PER_MS;
    if (Atomics.wait(word, 0, value, waitMs) === "timed-out") {
      throw new Error(`statefold: the hashing thread did not answer in ${Math.round(waitMs)} ms`);
    }
  }
}

let thread: HashThread | null | undefined;

function hashThread(): HashThread | null {
  if (thread === undefined) {
    try {
      thread = workerThreads === undefined ? null : new HashThread(workerThreads);
    } catch {
      thread = null; // no threads here (a sandbox): the caller hashes on its own
    }
  }
  return thread;
}

/** A SHA-256 that hashes on the process's hashing thread; null where there is none. */
export function threadedSha256(): Sha256 | null {
  const worker = hashThread();
  return worker === null ? null : new ThreadedSha256(worker, worker.newHash());
}

class ThreadedSha256 implements Sha256 {
  private batch = new Uint8Array(BATCH_BYTES);
  private filled = 0;

  constructor(
    private readonly thread: HashThread,
    private readonly id: number,
  ) {}

  update(bytes: Uint8Array): this {
    for (let at = 0; at < bytes.length; ) {
      const part = Math.min(bytes.length - at, this.batch.length - this.filled);
      this.batch.set(bytes.subarray(at, at + part), this.filled);
      this.filled += part;
      at += part;
      if (this.filled === this.batch.length) this.send();
    }
    return this;
  }

  copy(): Sha256 {
    this.send();
    return new ThreadedSha256(this.thread, this.thread.copy(this.id));
  }

  hex(): string {
    this.send();
    return hexOfDigest(this.thread.digest(this.id));
  }

  /** Sends the bytes batched so far, and starts the next batch. */
  private send(): void {
    if (this.filled === 0) return;
    this.thread.update(this.id, this.batch.subarray(0, this.filled));
    this.filled = 0;
  }
}

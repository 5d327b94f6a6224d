/**
 * `AuditPool`: journal files audited on worker threads (src/cli/audit-worker.ts), each worker with
 * its own engine, and on this thread, each taking the next queued journal when it is done with
 * one. A journal is audited whole by one engine, so its report is the one a single engine gives.
 *
 * This thread audits too, rather than only wait on the workers: a worker takes 0.1–0.3 s to start
 * and load its engine, as long as auditing hundreds of small journals, and this thread starts at
 * once (with two workers, `--jobs 2` over 10 000 small journals was slower than `--jobs 1`). It
 * takes one journal at a time from the queue, so the replies of the workers are handled between
 * them (and between the chunks of a large one, whose reads are awaited).
 *
 * Small journals are sent in batches, answered for in one reply, and each worker is sent its next
 * batch before it has answered for the one it audits: a small journal audits in tens of
 * microseconds, about what a message's round trip through this thread takes, so a worker sent one
 * path at a time would spend half its time idle. One batch waits behind each running one, so a
 * long journal holds back a batch at most.
 */
import { Worker } from "node:worker_threads";
import type { JournalProgress } from "./audit-tally.js";
import type { AuditReply, AuditRequest, AuditWorkerData } from "./audit-worker-protocol.js";
import type {
  FileAuditor,
  FileAuditorOptions,
  InProcessAuditor,
  ProgressListener,
} from "./file-auditor.js";
import type { JournalOutcome } from "./journal-outcome.js";

interface Task {
  readonly path: string;
  readonly bytes: number | null;
  readonly onProgress: ProgressListener | undefined;
  readonly resolve: (outcome: JournalOutcome) => void;
  readonly reject: (error: Error) => void;
}

/** Batches sent to a worker beyond the one it audits. */
const BATCHES_SENT_AHEAD = 1;
/**
 * Journals of known size travel together up to these bounds: a reply per journal of a few
 * kilobytes costs as much as auditing it, and a batch is small enough that the workers finish
 * close together.
 */
const BATCH_BYTES_MAX = 1 << 20;
const BATCH_JOURNALS_MAX = 64;
/** How long this thread audits before the event loop gets a turn (a batch takes a few ms). */
const EVENT_LOOP_TURN_MS = 2;

export class AuditPool implements FileAuditor {
  private readonly workers: Worker[] = [];
  /** Per worker, the batches sent to it and not yet answered for, oldest first. */
  private readonly sent = new Map<Worker, Task[][]>();
  private readonly queue: Task[] = [];
  private queueStart = 0;
  private hereBusy = false;

  /** `workers` threads beside this one, which audits with `here`. */
  constructor(
    workers: number,
    options: FileAuditorOptions,
    private readonly here: InProcessAuditor,
  ) {
    const workerData: AuditWorkerData = options;
    for (let i = 0; i < workers; i++) {
      const worker = new Worker(workerUrl(), { workerData });
      worker.on("message", (reply: AuditReply) => this.onReply(worker, reply));
      worker.on("error", (error) => this.onCrash(worker, error));
      this.workers.push(worker);
      this.sent.set(worker, []);
    }
  }

  audit(
    path: string,
    bytes: number | null,
    onProgress?: ProgressListener,
  ): Promise<JournalOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ path, bytes, onProgress, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  private dispatch(): void {
    if (!this.hereBusy && this.queueStart < this.queue.length) void this.auditHere();
    for (let window = 1; window <= BATCHES_SENT_AHEAD + 1; window++) {
      for (const worker of this.workers) {
        const sent = this.sent.get(worker) as Task[][];
        if (sent.length >= window || this.queueStart >= this.queue.length) continue;
        const batch = this.nextBatch();
        sent.push(batch);
        const request: AuditRequest = {
          journals: batch.map(({ path, bytes }) => ({ path, bytes })),
          progress: batch.some((task) => task.onProgress !== undefined),
        };
        worker.postMessage(request);
      }
    }
  }

  /**
   * Audits queued journals on this thread, one at a time, until none is left. A small journal is
   * read and audited without a turn of the event loop (its promises settle as microtasks), so the
   * loop is given one every few milliseconds: the workers' replies wait for it, and a worker
   * whose reply waits has nothing more to audit.
   */
  private async auditHere(): Promise<void> {
    this.hereBusy = true;
    let turnAt = performance.now();
    while (this.queueStart < this.queue.length) {
      const task = this.queue[this.queueStart] as Task;
      this.taken();
      try {
        task.resolve(await this.here.audit(task.path, task.bytes, task.onProgress));
      } catch (error) {
        task.reject(error as Error);
      }
      if (performance.now() - turnAt >= EVENT_LOOP_TURN_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        turnAt = performance.now();
      }
    }
    this.hereBusy = false;
  }

  /** The next queued journals: small ones together, up to a batch's bytes; any other alone. */
  private nextBatch(): Task[] {
    const batch: Task[] = [];
    let bytes = 0;
    while (this.queueStart < this.queue.length && batch.length < BATCH_JOURNALS_MAX) {
      const task = this.queue[this.queueStart] as Task;
      const size = task.bytes ?? Number.POSITIVE_INFINITY;
      if (batch.length > 0 && bytes + size > BATCH_BYTES_MAX) break;
      batch.push(task);
      bytes += size;
      this.taken();
    }
    return batch;
  }

  /** The first queued journal is taken; an emptied queue starts over. */
  private taken(): void {
    this.queueStart += 1;
    if (this.queueStart === this.queue.length) {
      this.queue.length = 0;
      this.queueStart = 0;
    }
  }

  private onReply(worker: Worker, reply: AuditReply): void {
    const sent = this.sent.get(worker) as Task[][];
    const task = sent[0]?.[0];
    if (task === undefined) return;
    switch (reply.kind) {
      case "progress": {
        const progress: JournalProgress = { bytes: reply.bytes, events: reply.events };
        task.onProgress?.(progress);
        return;
      }
      case "done":
        for (const outcome of reply.outcomes) this.answered(sent)?.resolve(outcome);
        this.dispatch();
        return;
      case "failed":
        this.answered(sent)?.reject(new Error(reply.message));
        this.dispatch();
        return;
      default: {
        const unreachable: never = reply;
        throw new Error(`statefold: a worker sent ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /** The oldest journal sent to the worker, now answered for. */
  private answered(sent: Task[][]): Task | undefined {
    const batch = sent[0];
    const task = batch?.shift();
    if (batch?.length === 0) sent.shift();
    return task;
  }

  /** A worker that dies takes its journal with it; the run is failing, so nothing more starts. */
  private onCrash(worker: Worker, error: Error): void {
    for (const task of (this.sent.get(worker) ?? []).flat()) task.reject(error);
    this.sent.set(worker, []);
    for (const task of this.queue.slice(this.queueStart)) task.reject(error);
    this.queue.length = 0;
    this.queueStart = 0;
  }
}

/**
 * The worker's entry, beside this module once built. Under vitest this module runs from its
 * TypeScript source, which a worker thread cannot load, so the build's copy stands in (the CLI
 * tests check that dist/ is not older than the sources).
 */
function workerUrl(): URL {
  const here = import.meta.url;
  return here.endsWith(".ts")
    ? new URL("../../dist/src/cli/audit-worker.js", here)
    : new URL("./audit-worker.js", here);
}

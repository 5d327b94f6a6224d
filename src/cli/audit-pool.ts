/**
 * `AuditPool`: journal files audited on worker threads (src/cli/audit-worker.ts), each worker with
 * its own engine, each taking the next queued journal when it is done with one. A journal is
 * audited whole by one worker, so its report is the one a single engine gives.
 */
import { Worker } from "node:worker_threads";
import type { AuditReply, AuditRequest, AuditWorkerData } from "./audit-worker-protocol.js";
import type {
  FileAuditor,
  FileAuditorOptions,
  JournalProgress,
  ProgressListener,
} from "./file-auditor.js";
import type { JournalOutcome } from "./journal-outcome.js";

interface Task {
  readonly path: string;
  readonly onProgress: ProgressListener | undefined;
  readonly resolve: (outcome: JournalOutcome) => void;
  readonly reject: (error: Error) => void;
}

export class AuditPool implements FileAuditor {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly running = new Map<Worker, Task>();
  private readonly queue: Task[] = [];
  private queueStart = 0;

  constructor(size: number, options: FileAuditorOptions) {
    const workerData: AuditWorkerData = options;
    for (let i = 0; i < size; i++) {
      const worker = new Worker(workerUrl(), { workerData });
      worker.on("message", (reply: AuditReply) => this.onReply(worker, reply));
      worker.on("error", (error) => this.onCrash(worker, error));
      this.workers.push(worker);
      this.idle.push(worker);
    }
  }

  audit(path: string, onProgress?: ProgressListener): Promise<JournalOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ path, onProgress, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queueStart < this.queue.length) {
      const worker = this.idle.pop() as Worker;
      const task = this.queue[this.queueStart] as Task;
      this.queueStart += 1;
      if (this.queueStart === this.queue.length) {
        this.queue.length = 0;
        this.queueStart = 0;
      }
      this.running.set(worker, task);
      const request: AuditRequest = { path: task.path, progress: task.onProgress !== undefined };
      worker.postMessage(request);
    }
  }

  private onReply(worker: Worker, reply: AuditReply): void {
    const task = this.running.get(worker);
    if (task === undefined) return;
    switch (reply.kind) {
      case "progress": {
        const progress: JournalProgress = { bytes: reply.bytes, events: reply.events };
        task.onProgress?.(progress);
        return;
      }
      case "done":
        this.finish(worker);
        task.resolve(reply.outcome);
        return;
      case "failed":
        this.finish(worker);
        task.reject(new Error(reply.message));
        return;
      default: {
        const unreachable: never = reply;
        throw new Error(`statefold: a worker sent ${JSON.stringify(unreachable)}`);
      }
    }
  }

  private finish(worker: Worker): void {
    this.running.delete(worker);
    this.idle.push(worker);
    this.dispatch();
  }

  /** A worker that dies takes its journal with it; the run is failing, so nothing more starts. */
  private onCrash(worker: Worker, error: Error): void {
    this.running.get(worker)?.reject(error);
    this.running.delete(worker);
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

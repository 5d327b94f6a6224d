/**
 * `statefold worker`'s loop, on one thread: take a job (a dead worker's first, once its lease is
 * over), hold its lease by heartbeats and snapshot commits, audit its journal, and publish the
 * verdict in the step that acknowledges the job (docs/scale-out.md, "Bulk").
 */
import { statSync } from "node:fs";
import { hostname } from "node:os";
import { threadId } from "node:worker_threads";
import { renderJournalOutput } from "../cli/audit-printer.js";
import type { EngineName } from "../cli/engine.js";
import { journalInputs } from "../cli/journal-inputs.js";
import type { ModelFlagValues } from "../cli/model-flags.js";
import { JournalError } from "../journal/errors.js";
import { type ModelName, modelNamed } from "../models/registry.js";
import { connectRedis } from "./connect.js";
import { auditJob, type JobAuditOptions } from "./job-audit.js";
import { modelForJob } from "./job-model.js";
import { type Delivery, JobQueue } from "./job-queue.js";
import { SnapshotStore } from "./snapshot-store.js";

export interface WorkerOptions {
  readonly redisUrl: string;
  readonly queue: string;
  readonly leaseMs: number;
  readonly maxDeliveries: number;
  readonly snapshotEveryBytes: number;
  readonly snapshotDirectory: string | null;
  readonly engine: EngineName;
  /** The model flags given (`--dag FILE`), for the journals of their models. */
  readonly modelFlags: ModelFlagValues;
  /** The model of the jobs that name none (`--model`); undefined: each journal's header's. */
  readonly model: ModelName | undefined;
  /** The model file `--model` named, for a worker thread to load too. */
  readonly modelFile: string | undefined;
  readonly strict: boolean;
  /** Stop once no job is waiting or held by any worker (else wait for more, for ever). */
  readonly drain: boolean;
}

/** What a worker tells as it goes: a line for its log, and its figures for a progress line. */
export interface WorkerReport {
  line(text: string): void;
  figures(figures: WorkerFigures): void;
}

export interface WorkerFigures {
  readonly jobs: number;
  readonly bytes: number;
  /** The job being audited and how far, or null between jobs. */
  readonly current: { readonly location: string; readonly bytes: number } | null;
}

/** Thrown into an audit whose lease was lost: it stops, and nothing more is committed. */
class LeaseLost extends Error {}

export async function runWorker(options: WorkerOptions, report: WorkerReport): Promise<void> {
  const redis = await connectRedis(options.redisUrl, "worker");
  const consumer = `${hostname()}/${process.pid}/${threadId}`;
  const queue = new JobQueue(redis, options.queue, consumer);
  const figures = { jobs: 0, bytes: 0, current: null as WorkerFigures["current"] };
  try {
    await queue.ensureGroup();
    // A draining worker asks again soon: its last wait is the time it takes to notice the end.
    const blockMs = options.drain ? 100 : Math.max(50, Math.min(1000, options.leaseMs / 2));
    while (true) {
      const delivery = await queue.next(options.leaseMs, blockMs);
      if (delivery === null) {
        if (options.drain && (await queue.drained())) return;
        continue;
      }
      const bytes = await runJob(queue, delivery, options, report, (current) => {
        figures.current = current;
        report.figures(figures);
      });
      figures.jobs += bytes === null ? 0 : 1;
      figures.bytes += bytes ?? 0;
      figures.current = null;
      report.figures(figures);
    }
  } finally {
    redis.disconnect();
  }
}

/** Runs one job; the bytes it audited when this worker published its verdict, else null. */
async function runJob(
  queue: JobQueue,
  { id, location, model: jobModel }: Delivery,
  options: WorkerOptions,
  report: WorkerReport,
  onRead: (current: WorkerFigures["current"]) => void,
): Promise<number | null> {
  const store = new SnapshotStore(options.snapshotDirectory);
  const taken = await queue.take(id, options.maxDeliveries);
  if (taken.kind === "lost") return null;
  if (taken.kind === "dead") {
    store.discard(taken.snapshotFile);
    report.line(`${location}: delivered over ${options.maxDeliveries} times: to the dead letters`);
    return null;
  }
  const { epoch } = taken;
  const lease = new Lease(queue, id, epoch, options.leaseMs);
  let commits = 0;
  try {
    const model = modelForJob(jobModel, options.model);
    if (isDirectory(location)) {
      const extensions = model === undefined ? [] : modelNamed(model).commandLine.journalExtensions;
      const inputs = journalInputs([location], extensions);
      const unlisted = inputs.find(
        (input) => input.kind === "unreadable" && input.path === location,
      );
      if (unlisted?.kind === "unreadable") {
        // Its verdict is the error audit gives it: queued again, it would be listed again, for ever.
        const verdict = JSON.stringify({ file: location, error: unlisted.message });
        if (!(await queue.finish(id, epoch, location, verdict)).done) throw new LeaseLost();
        return 0;
      }
      const journals = inputs.map((input) => input.path);
      if (!(await queue.expand(id, epoch, jobModel, journals))) throw new LeaseLost();
      report.line(`${location}: ${journals.length} journals queued`);
      return null;
    }
    const snapshot = taken.snapshot === null ? null : store.load(taken.snapshot);
    if (snapshot !== null) {
      report.line(`${location}: resuming from its snapshot (${taken.offset} bytes read)`);
    }
    const commit = async (bytes: Uint8Array, bytesRead: number) => {
      if (lease.lost) throw new LeaseLost();
      commits += 1;
      const pointer = store.store(bytes, `${queue.keys.job(id)}.${epoch}.${commits}`);
      const committed = await queue.commit(id, epoch, bytesRead, pointer);
      if (!committed.done) {
        if (pointer.kind === "file") store.discard(pointer.path);
        throw new LeaseLost();
      }
      store.discard(committed.obsoleteFile);
    };
    const result = await verdictOf(location, snapshot, { ...options, model }, commit, {
      onRead: (bytes) => onRead({ location, bytes }),
      notice: (message) => report.line(message),
    });
    if (lease.lost) throw new LeaseLost();
    const finished = await queue.finish(id, epoch, location, result.text);
    if (!finished.done) throw new LeaseLost();
    store.discard(finished.obsoleteFile);
    return result.bytes;
  } catch (error) {
    if (error instanceof LeaseLost) {
      report.line(`${location}: lost its lease (another worker took it over): committed nothing`);
      return null;
    }
    const message = error instanceof Error ? error.message : String(error);
    await queue.recordError(id, epoch, message);
    report.line(`${location}: ${message} (left for another delivery)`);
    return null;
  } finally {
    lease.stop();
  }
}

/** The line published for a job: `audit --format ndjson`'s line, or the journal's error. */
async function verdictOf(
  location: string,
  snapshot: Uint8Array | null,
  options: WorkerOptions,
  commit: (bytes: Uint8Array, bytesRead: number) => Promise<void>,
  told: Pick<JobAuditOptions, "onRead" | "notice">,
): Promise<{ readonly text: string; readonly bytes: number }> {
  const { engine, modelFlags, model, strict, snapshotEveryBytes } = options;
  try {
    const run = await auditJob(
      location,
      snapshot,
      { engine, modelFlags, model, snapshotEveryBytes, ...told },
      commit,
    );
    const printer = { format: "ndjson", single: false, strict, colour: false } as const;
    return { text: renderJournalOutput(run, printer).trimEnd(), bytes: run.bytesRead };
  } catch (error) {
    if (!(error instanceof JournalError)) throw error;
    return { text: JSON.stringify({ file: location, error: error.message }), bytes: 0 };
  }
}

function isDirectory(location: string): boolean {
  return statSync(location, { throwIfNoEntry: false })?.isDirectory() === true;
}

/**
 * Keeps a job's entry fresh in the pending-entry list (its idle time is the lease), three
 * heartbeats per lease; the first one fenced marks the lease lost.
 */
export class Lease {
  lost = false;
  private readonly timer: NodeJS.Timeout;

  constructor(queue: JobQueue, id: string, epoch: number, leaseMs: number) {
    this.timer = setInterval(
      () => {
        queue.heartbeat(id, epoch).then(
          (held) => {
            if (!held) this.lost = true;
          },
          () => {}, // Redis unreachable: the next heartbeat or commit tells
        );
      },
      Math.max(10, leaseMs / 3),
    );
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/**
 * Engines measured side by side, interleaved: each engine runs in its own worker process (its
 * peak memory is then its own), and the workers take turns, one timed run each per round, the
 * order rotating from round to round — so a noisy neighbour on a shared machine slows every
 * engine alike instead of the one that happened to be running. Times are medians (p50).
 */
import { type ChildProcess, fork } from "node:child_process";
import type { EngineName, Finding } from "./engines.js";
import type { WorkerReply, WorkerRequest } from "./worker.js";

export interface Job {
  readonly engine: EngineName;
  /** The journal it reads (a prefix of the scale's journal, for an engine that needs one). */
  readonly path: string;
  /** Options for its Node process (a larger heap for parsed events). */
  readonly execArgv?: readonly string[];
}

export interface Measurement {
  readonly job: Job;
  /** Wall time of each timed run. */
  readonly samplesMs: readonly number[];
  /** CPU time of each timed run, every thread of the worker process (bench/worker.ts). */
  readonly cpuSamplesMs: readonly number[];
  readonly p50Ms: number;
  /** The worker process's resident set high-water mark: preparation, runs and Node itself. */
  readonly maxRssBytes: number;
  readonly finding: Finding;
}

export interface Schedule {
  readonly warmupRounds: number;
  readonly rounds: number;
  /** Told after each round (for progress output). */
  readonly onRound?: (round: number) => void;
}

export async function measureInterleaved(
  jobs: readonly Job[],
  schedule: Schedule,
): Promise<Measurement[]> {
  const workers = jobs.map((job) => new Worker(job));
  try {
    await Promise.all(workers.map((worker) => worker.ready));
    const samples: number[][] = jobs.map(() => []);
    const cpuSamples: number[][] = jobs.map(() => []);
    const findings: (Finding | null)[] = jobs.map(() => null);
    for (let round = 0; round < schedule.warmupRounds + schedule.rounds; round++) {
      for (let turn = 0; turn < workers.length; turn++) {
        const at = (round + turn) % workers.length;
        const reply = await (workers[at] as Worker).request({ run: 1 });
        if (!("samplesMs" in reply)) throw new Error(`${jobs[at]?.engine}: no samples`);
        findings[at] = reply.finding;
        if (round >= schedule.warmupRounds) {
          samples[at]?.push(...reply.samplesMs);
          cpuSamples[at]?.push(...reply.cpuSamplesMs);
        }
      }
      schedule.onRound?.(round - schedule.warmupRounds);
    }
    const measurements: Measurement[] = [];
    for (const [at, worker] of workers.entries()) {
      const reply = await worker.request({ exit: true });
      if (!("maxRssBytes" in reply)) throw new Error(`${worker.job.engine}: no memory figure`);
      measurements.push({
        job: worker.job,
        samplesMs: samples[at] as number[],
        cpuSamplesMs: cpuSamples[at] as number[],
        p50Ms: median(samples[at] as number[]),
        maxRssBytes: reply.maxRssBytes,
        finding: findings[at] as Finding,
      });
    }
    return measurements;
  } finally {
    for (const worker of workers) worker.kill();
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const WORKER = new URL("./worker.js", import.meta.url);

/** A worker process and its replies, one request at a time. */
class Worker {
  private readonly child: ChildProcess;
  private pending: { resolve: (reply: WorkerReply) => void; reject: (e: Error) => void } | null =
    null;
  readonly ready: Promise<WorkerReply>;

  constructor(readonly job: Job) {
    this.child = fork(WORKER, [job.engine, job.path], {
      execArgv: ["--expose-gc", ...(job.execArgv ?? [])],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    this.ready = this.next();
    this.child.on("message", (reply: WorkerReply) => {
      const pending = this.pending;
      this.pending = null;
      if ("error" in reply) pending?.reject(new Error(`${job.engine}: ${reply.error}`));
      else pending?.resolve(reply);
    });
    this.child.on("exit", (code, signal) => {
      this.pending?.reject(new Error(`${job.engine}: the worker exited (${code ?? signal})`));
      this.pending = null;
    });
  }

  request(request: WorkerRequest): Promise<WorkerReply> {
    const reply = this.next();
    this.child.send(request);
    return reply;
  }

  private next(): Promise<WorkerReply> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
    });
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill();
  }
}

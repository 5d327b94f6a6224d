/**
 * `statefold watch`'s loop: take a live journal (an announcement on the live stream, held by a
 * lease as a bulk job is), read what its runtime appended since the last checkpoint, commit each
 * checkpoint with the findings it brought, and at the journal's end publish its verdict in the
 * step that lets the journal go (docs/scale-out.md, "Live").
 */
import { hostname } from "node:os";
import { threadId } from "node:worker_threads";
import type { Redis } from "ioredis";
import type { ModelFlagValues } from "../cli/model-flags.js";
import { JournalError } from "../journal/errors.js";
import type { ModelName } from "../models/registry.js";
import { journalReports } from "../models/report-frame.js";
import { connectRedis } from "./connect.js";
import { type Delivery, JobQueue } from "./job-queue.js";
import { LiveAudit } from "./live-audit.js";
import { Lease, type WorkerReport } from "./worker-loop.js";

export interface WatchOptions {
  readonly redisUrl: string;
  readonly queue: string;
  readonly leaseMs: number;
  readonly maxDeliveries: number;
  /** The model flags given (`--dag FILE`), for the journals of their models. */
  readonly modelFlags: ModelFlagValues;
  readonly model: ModelName | undefined;
  /** Stop once no live journal is announced or held by any watcher. */
  readonly drain: boolean;
}

/** Entries read from a journal's stream per round trip. */
const ENTRIES_PER_READ = 1000;

type StreamEntry = [Buffer, Buffer[]];

export async function runWatcher(options: WatchOptions, report: WorkerReport): Promise<void> {
  const redis = await connectRedis(options.redisUrl, "watch");
  const queue = new JobQueue(
    redis,
    options.queue,
    `${hostname()}/${process.pid}/${threadId}`,
    "live",
  );
  const figures = {
    jobs: 0,
    bytes: 0,
    current: null as { location: string; bytes: number } | null,
  };
  try {
    await queue.ensureGroup();
    const blockMs = Math.max(50, Math.min(1000, options.leaseMs / 2));
    while (true) {
      const delivery = await queue.next(options.leaseMs, blockMs);
      if (delivery === null) {
        if (options.drain && (await queue.drained())) return;
        continue;
      }
      if (await watchJournal(queue, delivery, options, report, blockMs)) figures.jobs += 1;
      report.figures(figures);
    }
  } finally {
    redis.disconnect();
  }
}

/** Watches one journal to its end; whether this watcher published its verdict. */
async function watchJournal(
  queue: JobQueue,
  { id, location: journal }: Delivery,
  options: WatchOptions,
  report: WorkerReport,
  blockMs: number,
): Promise<boolean> {
  const taken = await queue.take(id, options.maxDeliveries);
  if (taken.kind === "lost") return false;
  if (taken.kind === "dead") {
    report.line(`${journal}: delivered over ${options.maxDeliveries} times: to the dead letters`);
    return false;
  }
  const { epoch } = taken;
  const stream = queue.keys.journal(journal);
  const lease = new Lease(queue, id, epoch, options.leaseMs);
  try {
    const state = await queue.liveState(id);
    const snapshot = taken.snapshot?.kind === "inline" ? taken.snapshot.bytes : null;
    const live = await LiveAudit.open(
      journal,
      {
        modelFlags: options.modelFlags,
        model: options.model,
        firstLine: () => firstChunks(queue.redis, stream),
      },
      { snapshot, tail: state.tail, published: state.published },
    );
    let after = taken.snapshots > 0 ? taken.offset : "0-0";
    if (taken.snapshots > 0) report.line(`${journal}: resuming after entry ${after}`);
    while (!lease.lost) {
      const entries = await readAfter(queue.redis, stream, after, blockMs);
      if (entries.length === 0) continue;
      after = String(entries.at(-1)?.[0]);
      let ended = false;
      for (const [, fields] of entries) {
        const chunk = fieldOf(fields, "chunk");
        if (chunk !== null) await live.append(chunk);
        ended ||= fieldOf(fields, "end") !== null;
      }
      if (ended) {
        const { report: verdict, findings } = await live.finish();
        // A stream split into journals is told a line per journal, as `audit --format ndjson` does.
        const result = journalReports(verdict)
          .map((one) => JSON.stringify({ file: journal, report: one }))
          .join("\n");
        const finished = await queue.finish(id, epoch, journal, result, { findings });
        return finished.done || lost(report, journal);
      }
      const checkpoint = await live.checkpoint();
      if (!(await queue.commitLive(id, epoch, { journal, streamId: after, ...checkpoint }))) {
        return lost(report, journal);
      }
    }
    return lost(report, journal);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof JournalError) {
      const verdict = JSON.stringify({ file: journal, error: message });
      const finished = await queue.finish(id, epoch, journal, verdict, { findings: [] });
      return finished.done;
    }
    await queue.recordError(id, epoch, message);
    report.line(`${journal}: ${message} (left for another watcher)`);
    return false;
  } finally {
    lease.stop();
  }
}

function lost(report: WorkerReport, journal: string): false {
  report.line(`${journal}: lost its lease (another watcher took it over): committed nothing`);
  return false;
}

async function readAfter(
  redis: Redis,
  stream: string,
  after: string,
  blockMs: number,
): Promise<StreamEntry[]> {
  const reply = (await redis.callBuffer(
    "XREAD",
    "COUNT",
    ENTRIES_PER_READ,
    "BLOCK",
    blockMs,
    "STREAMS",
    stream,
    after,
  )) as [Buffer, StreamEntry[]][] | null;
  return reply?.[0]?.[1] ?? [];
}

/** The journal's chunks from its start, read as far as its first line feed. */
async function* firstChunks(redis: Redis, stream: string): AsyncGenerator<Uint8Array> {
  let after = "-";
  while (true) {
    const entries = (await redis.callBuffer(
      "XRANGE",
      stream,
      after,
      "+",
      "COUNT",
      100,
    )) as StreamEntry[];
    for (const [, fields] of entries) {
      const chunk = fieldOf(fields, "chunk");
      if (chunk === null) continue;
      yield chunk;
      if (chunk.includes(0x0a)) return;
    }
    const last = entries.at(-1);
    if (last === undefined) return;
    after = `(${last[0].toString()}`;
  }
}

function fieldOf(fields: Buffer[], name: string): Uint8Array | null {
  for (let at = 0; at + 1 < fields.length; at += 2) {
    if (fields[at]?.toString() === name) return new Uint8Array(fields[at + 1] as Buffer);
  }
  return null;
}

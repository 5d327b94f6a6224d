/**
 * The bulk queue as one worker (or `enqueue`) sees it: jobs in, the next job out (a dead
 * worker's first, by XAUTOCLAIM once its lease is over), and the fenced steps of job-scripts.ts.
 */
import type { Redis } from "ioredis";
import { COMMIT, EXPAND, FINISH, HEARTBEAT, RECORD_ERROR, TAKE } from "./job-scripts.js";
import { type QueueKeys, queueKeys, WORKERS_GROUP } from "./keys.js";

/** A job delivered to this consumer: its entry id and where its journal (or directory) is. */
export interface Delivery {
  readonly id: string;
  readonly location: string;
}

/** Where a job's last committed snapshot is: inline, or in a file beside Redis. */
export type SnapshotPointer =
  | { readonly kind: "inline"; readonly bytes: Uint8Array }
  | { readonly kind: "file"; readonly path: string };

export type TakeOutcome =
  | {
      readonly kind: "taken";
      readonly epoch: number;
      readonly deliveries: number;
      /** Null when no snapshot was committed. */
      readonly snapshot: SnapshotPointer | null;
      /** How far the journal had been read when it was taken. */
      readonly offset: number;
    }
  | { readonly kind: "dead"; readonly snapshotFile: string | null }
  | { readonly kind: "lost" };

/** What a fenced step came to: done, and the snapshot file it made obsolete, if any. */
export interface Fenced {
  readonly done: boolean;
  readonly obsoleteFile: string | null;
}

export class JobQueue {
  readonly keys: QueueKeys;

  constructor(
    readonly redis: Redis,
    queue: string,
    readonly consumer: string,
  ) {
    this.keys = queueKeys(queue);
  }

  /** Creates the stream and its group where they are missing. */
  async ensureGroup(): Promise<void> {
    try {
      await this.redis.call("XGROUP", "CREATE", this.keys.jobs, WORKERS_GROUP, "0", "MKSTREAM");
    } catch (error) {
      if (!String((error as Error).message).startsWith("BUSYGROUP")) throw error;
    }
  }

  async enqueue(locations: readonly string[]): Promise<void> {
    const batch = this.redis.pipeline();
    for (const location of locations) batch.call("XADD", this.keys.jobs, "*", "location", location);
    for (const [error] of (await batch.exec()) ?? []) if (error !== null) throw error;
  }

  /** A job whose worker has been silent for `leaseMs` first, else a new one (waiting `blockMs`). */
  async next(leaseMs: number, blockMs: number): Promise<Delivery | null> {
    const claimed = (await this.redis.call(
      "XAUTOCLAIM",
      this.keys.jobs,
      WORKERS_GROUP,
      this.consumer,
      leaseMs,
      "0-0",
      "COUNT",
      1,
    )) as [string, EntryReply[]];
    const taken = claimed[1].find((entry) => entry !== null);
    if (taken !== undefined) return deliveryOf(taken);
    const read = (await this.redis.call(
      "XREADGROUP",
      "GROUP",
      WORKERS_GROUP,
      this.consumer,
      "COUNT",
      1,
      "BLOCK",
      blockMs,
      "STREAMS",
      this.keys.jobs,
      ">",
    )) as [string, EntryReply[]][] | null;
    const entry = read?.[0]?.[1][0];
    return entry === undefined || entry === null ? null : deliveryOf(entry);
  }

  /** Whether no job is waiting or held by any worker. */
  async drained(): Promise<boolean> {
    const [pending] = (await this.redis.call("XPENDING", this.keys.jobs, WORKERS_GROUP)) as [
      number,
    ];
    if (pending > 0) return false;
    const groups = (await this.redis.call("XINFO", "GROUPS", this.keys.jobs)) as unknown[][];
    const ours = groups.map(fieldsOf).find((group) => group.get("name") === WORKERS_GROUP);
    const lastDelivered = String(ours?.get("last-delivered-id") ?? "0-0");
    const newer = (await this.redis.call(
      "XRANGE",
      this.keys.jobs,
      `(${lastDelivered}`,
      "+",
      "COUNT",
      1,
    )) as unknown[];
    return newer.length === 0;
  }

  async take(id: string, maxDeliveries: number): Promise<TakeOutcome> {
    const reply = (await TAKE.run(
      this.redis,
      [this.keys.jobs, this.keys.job(id), this.keys.dead],
      [id, this.consumer, maxDeliveries, WORKERS_GROUP],
    )) as (Buffer | number)[];
    const kind = String(reply[0]);
    if (kind === "lost") return { kind };
    if (kind === "dead") return { kind, snapshotFile: nonEmpty(reply[1]) };
    const [, epoch, deliveries, inline, file, offset] = reply as [
      Buffer,
      number,
      number,
      Buffer,
      Buffer,
      Buffer,
    ];
    const snapshot: SnapshotPointer | null =
      file.length > 0
        ? { kind: "file", path: file.toString() }
        : inline.length > 0
          ? { kind: "inline", bytes: new Uint8Array(inline) }
          : null;
    return { kind: "taken", epoch, deliveries, snapshot, offset: Number(offset.toString()) };
  }

  async heartbeat(id: string, epoch: number): Promise<boolean> {
    const reply = await HEARTBEAT.run(
      this.redis,
      [this.keys.jobs, this.keys.job(id)],
      [id, epoch, WORKERS_GROUP, this.consumer],
    );
    return fenced(reply).done;
  }

  async commit(
    id: string,
    epoch: number,
    offset: number,
    snapshot: SnapshotPointer,
  ): Promise<Fenced> {
    const inline = snapshot.kind === "inline" ? snapshot.bytes : "";
    const file = snapshot.kind === "file" ? snapshot.path : "";
    const reply = await COMMIT.run(
      this.redis,
      [this.keys.jobs, this.keys.job(id)],
      [id, epoch, WORKERS_GROUP, this.consumer, offset, inline, file],
    );
    return fenced(reply);
  }

  async finish(id: string, epoch: number, location: string, result: string): Promise<Fenced> {
    const reply = await FINISH.run(
      this.redis,
      [this.keys.jobs, this.keys.job(id), this.keys.results],
      [id, epoch, WORKERS_GROUP, location, result],
    );
    return fenced(reply);
  }

  async expand(id: string, epoch: number, locations: readonly string[]): Promise<boolean> {
    const reply = await EXPAND.run(
      this.redis,
      [this.keys.jobs, this.keys.job(id)],
      [id, epoch, WORKERS_GROUP, ...locations],
    );
    return fenced(reply).done;
  }

  async recordError(id: string, epoch: number, message: string): Promise<void> {
    await RECORD_ERROR.run(this.redis, [this.keys.jobs, this.keys.job(id)], [id, epoch, message]);
  }
}

/** A stream entry as Redis answers it: its id and its fields, name and value in turn. */
type EntryReply = [string, string[]] | null;

function deliveryOf([id, fields]: [string, string[]]): Delivery {
  const at = fields.indexOf("location");
  return { id, location: at >= 0 ? String(fields[at + 1]) : "" };
}

function fieldsOf(flat: unknown[]): Map<string, unknown> {
  const fields = new Map<string, unknown>();
  for (let at = 0; at + 1 < flat.length; at += 2) fields.set(String(flat[at]), flat[at + 1]);
  return fields;
}

function fenced(reply: unknown): Fenced {
  const [done, file] = reply as [number, Buffer | undefined];
  return { done: done === 1, obsoleteFile: nonEmpty(file) };
}

function nonEmpty(value: Buffer | number | undefined): string | null {
  if (value === undefined) return null;
  const text = String(value);
  return text === "" ? null : text;
}

/**
 * The bulk queue as one worker (or `enqueue`) sees it: jobs in, the next job out (a dead
 * worker's first, by XAUTOCLAIM once its lease is over), and the fenced steps of job-scripts.ts.
 */
import type { Redis } from "ioredis";
import type { JobModel } from "./job-model.js";
import {
  COMMIT,
  EXPAND,
  FINISH,
  HEARTBEAT,
  LIVE_COMMIT,
  RECORD_ERROR,
  TAKE,
} from "./job-scripts.js";
import { type QueueKeys, queueKeys, WATCHERS_GROUP, WORKERS_GROUP } from "./keys.js";

/**
 * A job delivered to this consumer: its entry id, where its journal (or directory) is, and the
 * model it names (`enqueue --model`; null when it names none).
 */
export interface Delivery {
  readonly id: string;
  readonly location: string;
  readonly model: JobModel | null;
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
      /** How far the journal had been read at the last snapshot: bytes, or a live stream's entry id. */
      readonly offset: string;
      /** How many snapshots were committed. */
      readonly snapshots: number;
    }
  | { readonly kind: "dead"; readonly snapshotFile: string | null }
  | { readonly kind: "lost" };

/** What a fenced step came to: done, and the snapshot file it made obsolete, if any. */
export interface Fenced {
  readonly done: boolean;
  readonly obsoleteFile: string | null;
}

/** Which stream a queue's jobs are on: bulk jobs (workers), or live journals (watchers). */
export type JobKind = "bulk" | "live";

export class JobQueue {
  readonly keys: QueueKeys;
  private readonly stream: string;
  private readonly group: string;

  constructor(
    readonly redis: Redis,
    queue: string,
    readonly consumer: string,
    kind: JobKind = "bulk",
  ) {
    this.keys = queueKeys(queue);
    this.stream = kind === "bulk" ? this.keys.jobs : this.keys.live;
    this.group = kind === "bulk" ? WORKERS_GROUP : WATCHERS_GROUP;
  }

  /** Creates the stream and its group where they are missing. */
  async ensureGroup(): Promise<void> {
    try {
      await this.redis.call("XGROUP", "CREATE", this.stream, this.group, "0", "MKSTREAM");
    } catch (error) {
      if (!String((error as Error).message).startsWith("BUSYGROUP")) throw error;
    }
  }

  async enqueue(locations: readonly string[], model: JobModel | null = null): Promise<void> {
    const batch = this.redis.pipeline();
    const named = modelFields(model);
    for (const location of locations)
      batch.call("XADD", this.stream, "*", "location", location, ...named);
    for (const [error] of (await batch.exec()) ?? []) if (error !== null) throw error;
  }

  /** A job whose worker has been silent for `leaseMs` first, else a new one (waiting `blockMs`). */
  async next(leaseMs: number, blockMs: number): Promise<Delivery | null> {
    const claimed = (await this.redis.call(
      "XAUTOCLAIM",
      this.stream,
      this.group,
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
      this.group,
      this.consumer,
      "COUNT",
      1,
      "BLOCK",
      blockMs,
      "STREAMS",
      this.stream,
      ">",
    )) as [string, EntryReply[]][] | null;
    const entry = read?.[0]?.[1][0];
    return entry === undefined || entry === null ? null : deliveryOf(entry);
  }

  /** Whether no job is waiting or held by any worker. */
  async drained(): Promise<boolean> {
    const [pending] = (await this.redis.call("XPENDING", this.stream, this.group)) as [number];
    if (pending > 0) return false;
    const groups = (await this.redis.call("XINFO", "GROUPS", this.stream)) as unknown[][];
    const ours = groups.map(fieldsOf).find((entry) => entry.get("name") === this.group);
    const lastDelivered = String(ours?.get("last-delivered-id") ?? "0-0");
    const newer = (await this.redis.call(
      "XRANGE",
      this.stream,
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
      [this.stream, this.keys.job(id), this.keys.dead],
      [id, this.consumer, maxDeliveries, this.group],
    )) as (Buffer | number)[];
    const kind = String(reply[0]);
    if (kind === "lost") return { kind };
    if (kind === "dead") return { kind, snapshotFile: nonEmpty(reply[1]) };
    const [, epoch, deliveries, inline, file, offset, snapshots] = reply as [
      Buffer,
      number,
      number,
      Buffer,
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
    return {
      kind: "taken",
      epoch,
      deliveries,
      snapshot,
      offset: offset.toString(),
      snapshots: Number(snapshots.toString()),
    };
  }

  async heartbeat(id: string, epoch: number): Promise<boolean> {
    const reply = await HEARTBEAT.run(
      this.redis,
      [this.stream, this.keys.job(id)],
      [id, epoch, this.group, this.consumer],
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
      [this.stream, this.keys.job(id)],
      [id, epoch, this.group, this.consumer, offset, inline, file],
    );
    return fenced(reply);
  }

  /**
   * Publishes the verdict — on the results, or for a live journal on the findings after its last
   * `findings` — and acknowledges the job.
   */
  async finish(
    id: string,
    epoch: number,
    location: string,
    result: string,
    live: { readonly findings: readonly string[] } | null = null,
  ): Promise<Fenced> {
    const published = live === null ? this.keys.results : this.keys.findings;
    const findings = (live?.findings ?? []).flatMap((finding) => [location, finding]);
    const reply = await FINISH.run(
      this.redis,
      [this.stream, this.keys.job(id), published],
      [id, epoch, this.group, location, result, ...findings],
    );
    return fenced(reply);
  }

  /** Replaces a directory's job by a job per journal, each naming the directory job's model. */
  async expand(
    id: string,
    epoch: number,
    model: JobModel | null,
    locations: readonly string[],
  ): Promise<boolean> {
    const reply = await EXPAND.run(
      this.redis,
      [this.stream, this.keys.job(id)],
      [id, epoch, this.group, model?.name ?? "", model?.digest ?? "", ...locations],
    );
    return fenced(reply).done;
  }

  /** A live journal's checkpoint (job-scripts.ts, LIVE_COMMIT); false when fenced. */
  async commitLive(id: string, epoch: number, checkpoint: LiveCheckpoint): Promise<boolean> {
    const { streamId, snapshot, tail, published, findings } = checkpoint;
    const reply = await LIVE_COMMIT.run(
      this.redis,
      [this.stream, this.keys.job(id), this.keys.findings],
      [
        id,
        epoch,
        this.group,
        this.consumer,
        streamId,
        snapshot,
        tail,
        JSON.stringify(published),
        ...findings.flatMap((finding) => [checkpoint.journal, finding]),
      ],
    );
    return fenced(reply).done;
  }

  /** What a live job's hash holds beside the snapshot: the unfinished line and the rules published. */
  async liveState(id: string): Promise<{ tail: Uint8Array; published: string[] }> {
    const [tail, published] = await this.redis.hmgetBuffer(this.keys.job(id), "tail", "published");
    return {
      tail: new Uint8Array(tail ?? Buffer.alloc(0)),
      published:
        published == null || published.length === 0 ? [] : JSON.parse(published.toString()),
    };
  }

  async recordError(id: string, epoch: number, message: string): Promise<void> {
    await RECORD_ERROR.run(this.redis, [this.stream, this.keys.job(id)], [id, epoch, message]);
  }
}

/** A live journal's checkpoint, committed with the findings it brought. */
export interface LiveCheckpoint {
  readonly journal: string;
  readonly streamId: string;
  readonly snapshot: Uint8Array;
  readonly tail: Uint8Array;
  readonly published: readonly string[];
  /** New findings, each a JSON object. */
  readonly findings: readonly string[];
}

/** A stream entry as Redis answers it: its id and its fields, name and value in turn. */
type EntryReply = [string, string[]] | null;

function deliveryOf([id, fields]: [string, string[]]): Delivery {
  const named = fieldsOf(fields);
  // A bulk job names its journal's location, a live announcement the journal's stream.
  const location = String(named.get("location") ?? named.get("journal") ?? "");
  const model = named.get("model");
  const digest = named.get("modelDigest");
  return {
    id,
    location,
    model:
      model === undefined
        ? null
        : { name: String(model), digest: digest === undefined ? null : String(digest) },
  };
}

/** A job's fields that name its model (docs/scale-out.md, "Keys"). */
function modelFields(model: JobModel | null): string[] {
  if (model === null) return [];
  return model.digest === null
    ? ["model", model.name]
    : ["model", model.name, "modelDigest", model.digest];
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

/**
 * The object API's path into the kernel: events (any JavaScript values, as a reader or a live
 * runtime produced them) are encoded into the record format of assembly/dag/records.ts, then folded
 * batch by batch. The host does the integrity checks that need no state, exactly as the
 * reference's `locate` does and in its order, and marks them as fault kinds; the kernel does the
 * rest.
 */
import type { Dag } from "../../src/models/dag/dag.js";
import type { MalformedProblem } from "../../src/models/dag/events.js";
import { isStringArray } from "../../src/models/dag/state.js";
import { UnparseableLine } from "../../src/models/journal-source.js";
import type { KernelExports } from "../kernel.js";
import { EVENT_KINDS, Kind, Limit, MALFORMED_PROBLEMS, Result, SurfaceShape } from "./codes.js";

/**
 * Records are folded in batches of about this many words (a single larger record alone): the
 * encoder's buffer is reused batch after batch, so encoding allocates nothing per event and holds
 * no copy of the whole journal — ten million events stay ten million events, not a second heap.
 */
const BATCH_WORDS = 1 << 16;

/**
 * The buffer starts this small and doubles as records need (to a little over a batch): an audit
 * of a few events — explore audits hundreds of thousands — then costs no half-megabyte buffer.
 */
const FIRST_WORDS = 1 << 10;

/** Events encoded beforehand (the benchmark of the kernel alone): batches of whole records. */
export interface EncodedEvents {
  readonly batches: readonly Uint32Array[];
  /** Distinct surface paths; the records name them 0 .. pathCount - 1. */
  readonly pathCount: number;
}

/** Each node's last surface payload, verbatim, for the replayed state; undefined when untouched. */
export type Surfaces = readonly unknown[];

/**
 * Encodes and folds the events as one journal, batch by batch. Returns a Limit code and the
 * surfaces; after a limit the rest is not encoded.
 */
export function foldEvents(
  kernel: KernelExports,
  dag: Dag,
  events: readonly unknown[],
): { limit: number; surfaces: Surfaces } {
  let limit = kernel.beginRecords();
  const encoder = new RecordEncoder(dag, (batch, pathCount) => {
    if (limit === Limit.NONE) limit = foldBatch(kernel, batch, pathCount);
  });
  for (const event of events) {
    if (limit !== Limit.NONE) break;
    encoder.encode(event);
  }
  encoder.flush();
  kernel.finishRecords();
  return { limit, surfaces: encoder.surfaces };
}

export function encodeEvents(dag: Dag, events: readonly unknown[]): EncodedEvents {
  const batches: Uint32Array[] = [];
  const encoder = new RecordEncoder(dag, (batch) => batches.push(batch.slice()));
  for (const event of events) encoder.encode(event);
  encoder.flush();
  return { batches, pathCount: encoder.pathIds.size };
}

/** Folds events encoded beforehand as one journal; returns a Limit code. */
export function foldEncoded(kernel: KernelExports, encoded: EncodedEvents): number {
  let limit = kernel.beginRecords();
  for (const batch of encoded.batches) {
    if (limit !== Limit.NONE) break;
    limit = foldBatch(kernel, batch, encoded.pathCount);
  }
  kernel.finishRecords();
  return limit;
}

function foldBatch(kernel: KernelExports, batch: Uint32Array, pathCount: number): number {
  const pointer = kernel.recordRoom(batch.length * 4);
  if (pointer === 0) return Limit.MEMORY;
  new Uint32Array(kernel.memory.buffer, pointer, batch.length).set(batch);
  return kernel.foldRecords(batch.length * 4, pathCount);
}

/** Writes events as records into one reused buffer, handing each full batch to `emit`. */
class RecordEncoder {
  private words = new Uint32Array(FIRST_WORDS);
  private length = 0;
  readonly pathIds = new Map<string, number>();
  readonly surfaces: unknown[];

  /** `emit` gets a view of the buffer, valid until it returns, and the paths named so far. */
  constructor(
    private readonly dag: Dag,
    private readonly emit: (batch: Uint32Array, pathCount: number) => void,
  ) {
    this.surfaces = new Array(dag.nodes.length);
  }

  encode(event: unknown): void {
    this.reserve(2);
    if (this.writeHead(event) === PATH_LIST_HEAD) {
      const paths = (event as { surface: readonly string[] }).surface;
      this.reserve(1 + paths.length);
      this.words[this.length++] = paths.length;
      for (const path of paths) this.words[this.length++] = this.pathId(path);
    }
    if (this.length >= BATCH_WORDS) this.flush();
  }

  flush(): void {
    if (this.length > 0) this.emit(this.words.subarray(0, this.length), this.pathIds.size);
    this.length = 0;
  }

  /**
   * The record's first two words: the reference's integrity checks, in its order, then the event.
   * Returns the head word.
   */
  private writeHead(event: unknown): number {
    if (event instanceof UnparseableLine) return this.writeMalformed(event.problem);
    if (typeof event !== "object" || event === null || Array.isArray(event)) {
      return this.writeMalformed("not-an-object");
    }
    const { kind, id, result, surface } = event as Record<string, unknown>;
    if (typeof kind !== "string") return this.writeMalformed("kind-not-a-string");
    if (typeof id !== "string") return this.writeMalformed("id-not-a-string");
    const node = this.dag.positionById.get(id);
    if (node === undefined) return this.write(Kind.FAULT_UNKNOWN_NODE, 0);
    const kindCode = (EVENT_KINDS as readonly string[]).indexOf(kind);
    if (kindCode < 0) return this.write(Kind.FAULT_UNKNOWN_KIND, 0);
    if (kindCode !== Kind.SURFACE_WIDENED) {
      return this.write(kindCode | (resultCode(result) << 8), node);
    }
    this.surfaces[node] = surface ?? [];
    if (surface === undefined || surface === null) {
      return this.write(kindCode | (SurfaceShape.ABSENT << 16), node);
    }
    const head = isStringArray(surface) ? PATH_LIST_HEAD : kindCode | (SurfaceShape.OTHER << 16);
    return this.write(head, node);
  }

  private writeMalformed(problem: MalformedProblem): number {
    return this.write(Kind.FAULT_MALFORMED, MALFORMED_PROBLEMS.indexOf(problem));
  }

  private write(head: number, second: number): number {
    this.words[this.length++] = head;
    this.words[this.length++] = second;
    return head;
  }

  /** Room for `count` more words; only a record longer than a batch grows the buffer. */
  private reserve(count: number): void {
    if (this.length + count <= this.words.length) return;
    const grown = new Uint32Array(Math.max(this.words.length * 2, this.length + count));
    grown.set(this.words.subarray(0, this.length));
    this.words = grown;
  }

  private pathId(path: string): number {
    let pathId = this.pathIds.get(path);
    if (pathId === undefined) {
      pathId = this.pathIds.size;
      this.pathIds.set(path, pathId);
    }
    return pathId;
  }
}

const PATH_LIST_HEAD = Kind.SURFACE_WIDENED | (SurfaceShape.STRINGS << 16);

function resultCode(result: unknown): number {
  if (result === "pass") return Result.PASS;
  if (result === "fail") return Result.FAIL;
  return result === "timeout" ? Result.TIMEOUT : Result.MISSING_OR_OTHER;
}

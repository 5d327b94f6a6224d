/**
 * The object API's path into the kernel: events (any JavaScript values, as a reader or a live
 * runtime produced them) are encoded into the record format of assembly/records.ts, then folded
 * batch by batch. The host does the integrity checks that need no state, exactly as the
 * reference's `locate` does and in its order, and marks them as fault kinds; the kernel does the
 * rest.
 */
import type { Dag } from "../src/model/dag.js";
import { isEventKind, type MalformedProblem, UnparseableLine } from "../src/model/events.js";
import { isStringArray } from "../src/model/state.js";
import { EVENT_KINDS, Kind, Limit, MALFORMED_PROBLEMS, Result, SurfaceShape } from "./codes.js";
import type { KernelExports } from "./kernel.js";

/** Records are copied into the kernel at most this many words at a time (one larger record alone). */
const BATCH_WORDS = 1 << 16;

export interface EncodedEvents {
  readonly words: Uint32Array;
  /** Where each batch of whole records ends in `words`; the last is `words.length`. */
  readonly batchEnds: readonly number[];
  /** Distinct surface paths; the records name them 0 .. pathCount - 1. */
  readonly pathCount: number;
  /** Each node's last surface payload, verbatim, for the replayed state; undefined when untouched. */
  readonly surfaces: readonly unknown[];
}

export function encodeEvents(dag: Dag, events: readonly unknown[]): EncodedEvents {
  const encoder = new RecordEncoder(dag);
  for (const event of events) encoder.encode(event);
  return {
    words: encoder.words.subarray(0, encoder.length),
    batchEnds: [...encoder.batchEnds, encoder.length],
    pathCount: encoder.pathIds.size,
    surfaces: encoder.surfaces,
  };
}

/** Folds encoded events as one journal; returns a Limit code. */
export function foldEncoded(kernel: KernelExports, encoded: EncodedEvents): number {
  let limit = kernel.beginRecords(encoded.pathCount);
  let start = 0;
  for (const end of encoded.batchEnds) {
    if (limit !== Limit.NONE || end === start) break;
    const pointer = kernel.recordRoom((end - start) * 4);
    if (pointer === 0) return Limit.MEMORY;
    new Uint32Array(kernel.memory.buffer, pointer, end - start).set(
      encoded.words.subarray(start, end),
    );
    limit = kernel.foldRecords((end - start) * 4);
    start = end;
  }
  kernel.finishRecords();
  return limit;
}

class RecordEncoder {
  words = new Uint32Array(1024);
  length = 0;
  readonly pathIds = new Map<string, number>();
  readonly surfaces: unknown[];
  readonly batchEnds: number[] = [];
  private batchStart = 0;

  constructor(private readonly dag: Dag) {
    this.surfaces = new Array(dag.nodes.length);
  }

  encode(event: unknown): void {
    const recordStart = this.length;
    const [head, node] = this.recordHead(event);
    this.push(head, node);
    if (head === PATH_LIST_HEAD) {
      const paths = (event as { surface: readonly string[] }).surface;
      this.reserve(1 + paths.length);
      this.words[this.length++] = paths.length;
      for (const path of paths) this.words[this.length++] = this.pathId(path);
    }
    if (this.length - this.batchStart > BATCH_WORDS && recordStart > this.batchStart) {
      this.batchEnds.push(recordStart);
      this.batchStart = recordStart;
    }
  }

  /** The record's first two words: the reference's integrity checks, in its order, then the event. */
  private recordHead(event: unknown): [number, number] {
    if (event instanceof UnparseableLine) return malformedHead(event.problem);
    if (typeof event !== "object" || event === null || Array.isArray(event)) {
      return malformedHead("not-an-object");
    }
    const { kind, id, result, surface } = event as Record<string, unknown>;
    if (typeof kind !== "string") return malformedHead("kind-not-a-string");
    if (typeof id !== "string") return malformedHead("id-not-a-string");
    const node = this.dag.positionById.get(id);
    if (node === undefined) return [Kind.FAULT_UNKNOWN_NODE, 0];
    if (!isEventKind(kind)) return [Kind.FAULT_UNKNOWN_KIND, 0];
    const kindCode = EVENT_KINDS.indexOf(kind);
    if (kindCode !== Kind.SURFACE_WIDENED) return [kindCode | (resultCode(result) << 8), node];
    this.surfaces[node] = surface ?? [];
    if (surface === undefined || surface === null)
      return [kindCode | (SurfaceShape.ABSENT << 16), node];
    return [isStringArray(surface) ? PATH_LIST_HEAD : kindCode | (SurfaceShape.OTHER << 16), node];
  }

  private push(head: number, second: number): void {
    this.reserve(2);
    this.words[this.length++] = head;
    this.words[this.length++] = second;
  }

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

function malformedHead(problem: MalformedProblem): [number, number] {
  return [Kind.FAULT_MALFORMED, MALFORMED_PROBLEMS.indexOf(problem)];
}

function resultCode(result: unknown): number {
  if (result === "pass") return Result.PASS;
  if (result === "fail") return Result.FAIL;
  return result === "timeout" ? Result.TIMEOUT : Result.MISSING_OR_OTHER;
}

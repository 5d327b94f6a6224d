/**
 * The object API's path into the kernel: events (any JavaScript values, as a reader or a live
 * runtime produced them) are encoded into the record format of assembly/records.ts in batches and
 * folded. The host does the integrity checks that need no state, exactly as the reference's
 * `locate` does and in its order, and marks them as fault kinds; the kernel does the rest.
 */
import type { Dag } from "../src/model/dag.js";
import { isEventKind, UnparseableLine } from "../src/model/events.js";
import { isStringArray } from "../src/model/state.js";
import { EVENT_KINDS, Kind, Limit, MALFORMED_PROBLEMS, Result, SurfaceShape } from "./codes.js";
import type { KernelExports } from "./kernel.js";

/** Words per batch; a larger single record (a huge surface) gets a batch of its own. */
const BATCH_WORDS = 1 << 16;

export interface FoldedRecords {
  /** A Limit code (0 when none was reached). */
  readonly limit: number;
  /** Each node's last surface payload, verbatim, for the replayed state; undefined when untouched. */
  readonly surfaces: unknown[];
}

export function foldRecords(
  kernel: KernelExports,
  dag: Dag,
  events: readonly unknown[],
): FoldedRecords {
  const pathIds = new Map<string, number>();
  const surfaces: unknown[] = new Array(dag.nodes.length);
  const encoded: number[][] = [];
  for (const event of events) encoded.push(encodeEvent(event, dag, pathIds, surfaces));
  let limit = kernel.beginRecords(pathIds.size);
  let batch: number[][] = [];
  let batchWords = 0;
  const flush = (): number => {
    if (batchWords === 0) return Limit.NONE;
    const pointer = kernel.recordRoom(batchWords * 4);
    if (pointer === 0) return Limit.MEMORY;
    const words = new Uint32Array(kernel.memory.buffer, pointer, batchWords);
    let at = 0;
    for (const record of batch) {
      words.set(record, at);
      at += record.length;
    }
    const folded = kernel.foldRecords(batchWords * 4);
    batch = [];
    batchWords = 0;
    return folded;
  };
  for (const record of encoded) {
    if (limit !== Limit.NONE) break;
    if (batchWords + record.length > BATCH_WORDS) limit = flush();
    batch.push(record);
    batchWords += record.length;
  }
  if (limit === Limit.NONE) limit = flush();
  kernel.finishRecords();
  return { limit, surfaces };
}

function encodeEvent(
  event: unknown,
  dag: Dag,
  pathIds: Map<string, number>,
  surfaces: unknown[],
): number[] {
  if (event instanceof UnparseableLine) return malformed(event.problem);
  if (typeof event !== "object" || event === null || Array.isArray(event))
    return malformed("not-an-object");
  const { kind, id, result, surface } = event as Record<string, unknown>;
  if (typeof kind !== "string") return malformed("kind-not-a-string");
  if (typeof id !== "string") return malformed("id-not-a-string");
  const node = dag.positionById.get(id);
  if (node === undefined) return [Kind.FAULT_UNKNOWN_NODE, 0];
  if (!isEventKind(kind)) return [Kind.FAULT_UNKNOWN_KIND, 0];
  const kindCode = EVENT_KINDS.indexOf(kind);
  const resultCode =
    result === "pass"
      ? Result.PASS
      : result === "fail"
        ? Result.FAIL
        : result === "timeout"
          ? Result.TIMEOUT
          : Result.MISSING_OR_OTHER;
  if (kindCode !== Kind.SURFACE_WIDENED) return [kindCode | (resultCode << 8), node];
  surfaces[node] = surface ?? [];
  if (surface === undefined || surface === null)
    return [kindCode | (SurfaceShape.ABSENT << 16), node];
  if (!isStringArray(surface)) return [kindCode | (SurfaceShape.OTHER << 16), node];
  const record = [kindCode | (SurfaceShape.STRINGS << 16), node, surface.length];
  for (const path of surface) {
    let pathId = pathIds.get(path);
    if (pathId === undefined) {
      pathId = pathIds.size;
      pathIds.set(path, pathId);
    }
    record.push(pathId);
  }
  return record;
}

function malformed(problem: (typeof MALFORMED_PROBLEMS)[number]): number[] {
  return [Kind.FAULT_MALFORMED, MALFORMED_PROBLEMS.indexOf(problem)];
}

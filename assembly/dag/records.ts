/**
 * The record format: events the host has already decoded (the object API), folded by the same
 * `auditEvent`. The host resolves ids, kinds and surface paths itself and marks the integrity
 * faults it can see as fault kinds, so a record is little-endian u32 words:
 *
 *   0  kind | result << 8 | surfaceShape << 16       (Kind, Result, SurfaceShape)
 *   4  node index; for FAULT_MALFORMED the Malformed problem
 *   8  path count c, then c path ids                 (only SURFACE_WIDENED with STRINGS)
 *
 * Records never span two calls of `foldRecords`.
 */
import {
  auditEvent,
  beginJournal,
  countEvent,
  countStatuses,
  Limit,
  limitReached,
  stopAtIntegrityFault,
  stopAtLimit,
  stopped,
} from "./audit";
import { Integrity, Kind, SurfaceShape } from "./events";
import { abandon, reserve } from "../memory";
import { collectPayloadIds, usePathIdSpace } from "./surface";

const INITIAL_RECORD_BUFFER_BYTES: usize = 1 << 20;

let recordBuffer: usize = 0;
let recordBufferCapacity: usize = 0;

export function beginRecords(): i32 {
  if (!beginJournal()) return Limit.MEMORY;
  recordBufferCapacity = 0;
  return recordRoom(INITIAL_RECORD_BUFFER_BYTES) == 0 ? Limit.MEMORY : Limit.NONE;
}

/** Where the host writes the next `bytes` of records; 0 when memory is exhausted. */
export function recordRoom(bytes: usize): usize {
  if (bytes > recordBufferCapacity) {
    let capacity = max<usize>(recordBufferCapacity << 1, INITIAL_RECORD_BUFFER_BYTES);
    while (capacity < bytes) capacity <<= 1;
    if (recordBufferCapacity > 0) abandon(recordBuffer, recordBufferCapacity);
    recordBuffer = reserve(capacity);
    recordBufferCapacity = recordBuffer == 0 ? 0 : capacity;
  }
  return recordBuffer;
}

/**
 * Folds the records in the first `bytes` of the record buffer, whose path ids are below
 * `pathCount` (the host's distinct paths so far). Returns a Limit code.
 */
export function foldRecords(bytes: usize, pathCount: u32): i32 {
  if (!usePathIdSpace(pathCount)) {
    stopAtLimit(Limit.MEMORY);
    return Limit.MEMORY;
  }
  let at = recordBuffer;
  const end = recordBuffer + bytes;
  while (at < end) {
    const head = load<u32>(at);
    const kind = <u8>(head & 0xff);
    const result = <u8>((head >> 8) & 0xff);
    const surfaceShape = <u8>((head >> 16) & 0xff);
    const node = load<u32>(at, 4);
    at += 8;
    let pathCount: u32 = 0;
    if (kind == Kind.SURFACE_WIDENED && surfaceShape == SurfaceShape.STRINGS) {
      pathCount = load<u32>(at);
      at += 4;
    }
    const paths = at;
    at += (<usize>pathCount) << 2;
    const index = countEvent();
    if (stopped) continue;
    if (kind >= Kind.FAULT_MALFORMED) {
      stopAtIntegrityFault(index, 0, faultReason(kind), <i32>node, 0, 0);
      continue;
    }
    if (kind == Kind.SURFACE_WIDENED && !collectPayloadIds(paths, pathCount)) {
      stopAtLimit(Limit.MEMORY);
      return limitReached();
    }
    auditEvent(index, 0, <i32>node, kind, result, surfaceShape);
  }
  return limitReached();
}

function faultReason(kind: u8): i32 {
  if (kind == Kind.FAULT_MALFORMED) return Integrity.MALFORMED_EVENT;
  return kind == Kind.FAULT_UNKNOWN_NODE ? Integrity.UNKNOWN_NODE : Integrity.UNKNOWN_KIND;
}

export function finishRecords(): void {
  countStatuses();
}

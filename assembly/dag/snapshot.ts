/**
 * What a snapshot needs beyond plain memory reads: restoring the interned paths and each node's
 * surface after `beginJsonl` laid out an empty journal. Paths are interned again in id order, so
 * they get the ids they had, and node surfaces name them by id. (Node records and the report
 * block are plain bytes; the host copies them in both directions.)
 */
import { reserve } from "../memory";
import { collectPayloadIds, internPath, storeMalformed, storePayload } from "./surface";

/** A block the host fills with restore data; 0 when memory is exhausted. */
export function restoreRoom(bytes: usize): usize {
  return reserve(bytes);
}

/** Interns the next path; returns its id, or -1 when memory is exhausted. */
export function restorePath(pointer: usize, length: usize): i64 {
  return internPath(pointer, length);
}

/** Sets the node's surface to `count` path ids at `ids`; false when memory is exhausted. */
export function restoreSurface(node: i32, ids: usize, count: u32): bool {
  return collectPayloadIds(ids, count) && storePayload(node);
}

/** Sets the node's surface to a malformed payload's mark (surface.ts). */
export function restoreMalformedSurface(node: i32): void {
  storeMalformed(node);
}

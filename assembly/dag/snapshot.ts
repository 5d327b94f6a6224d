/**
 * What a snapshot needs beyond plain memory reads: restoring the interned paths and each node's
 * surface after `beginJsonl` laid out an empty journal. Paths are interned again in id order, so
 * they get the ids they had, and node surfaces name them by id. (Node records and the report
 * block are plain bytes; the host copies them in both directions.)
 */
import { reserve } from "../memory";
import { nodeCount } from "./dag";
import {
  collectPayloadIds,
  internPath,
  reservePathRoom,
  storeMalformed,
  storePayload,
} from "./surface";

/** A block the host fills with restore data; 0 when memory is exhausted. */
export function restoreRoom(bytes: usize): usize {
  return reserve(bytes);
}

/** What `restorePaths` and `restoreSurfaces` return. */
export const RESTORED: i32 = 0;
export const RESTORE_MEMORY: i32 = -1;
export const RESTORE_DUPLICATE_PATH: i32 = -2;

/**
 * Interns `count` paths in id order, so that they get the ids they had: their bytes lie one after
 * another at `bytes`, and where each ends (u32, counted from `bytes`) at `ends`. The host checked
 * that the ends run forwards. The table and the byte area are sized for all of them first, rather
 * than doubled as they come (10⁵ nodes' paths: several rehashes of every path).
 */
export function restorePaths(bytes: usize, ends: usize, count: u32): i32 {
  const total: usize = count == 0 ? 0 : <usize>load<u32>(ends + ((<usize>count - 1) << 2));
  if (!reservePathRoom(count, total)) return RESTORE_MEMORY;
  let start: u32 = 0;
  for (let path: u32 = 0; path < count; path++) {
    const end = load<u32>(ends + ((<usize>path) << 2));
    const id = internPath(bytes + start, end - start);
    if (id == -1) return RESTORE_MEMORY;
    if (id != <i64>path) return RESTORE_DUPLICATE_PATH;
    start = end;
  }
  return RESTORED;
}

/**
 * Sets every node's surface: `lengths` holds a u32 per node, its surface's count of path ids (or
 * `malformedMark` for a malformed payload's mark), and the ids follow one another at `ids`. The
 * host checked that they name interned paths and that their count is the lengths' sum.
 */
export function restoreSurfaces(lengths: usize, ids: usize, malformedMark: u32): i32 {
  let at = ids;
  for (let node = 0; node < nodeCount; node++) {
    const length = load<u32>(lengths + ((<usize>node) << 2));
    if (length == malformedMark) {
      storeMalformed(node);
      continue;
    }
    if (length == 0) continue;
    if (!collectPayloadIds(at, length) || !storePayload(node)) return RESTORE_MEMORY;
    at += (<usize>length) << 2;
  }
  return RESTORED;
}

/**
 * Where a committed snapshot lives. Small ones inline in the job's hash; with a snapshot
 * directory, bigger ones in a file there, Redis holding its path: a dag snapshot over 10⁵ nodes is
 * ~13 MB, and a write that size blocks a single-threaded Redis for every other client for tens of
 * milliseconds (and is kept again in its append-only file). The directory must be one every
 * worker sees at the same path (shared storage), as the journals are.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SnapshotPointer } from "./job-queue.js";

/** Snapshots up to this size stay in Redis even with a snapshot directory. */
export const INLINE_SNAPSHOT_BYTES_MAX = 256 * 1024;

export class SnapshotStore {
  constructor(private readonly directory: string | null) {}

  /** Puts the snapshot where it belongs; `name` is unique to the job, its epoch and its count. */
  store(snapshot: Uint8Array, name: string): SnapshotPointer {
    if (this.directory === null || snapshot.length <= INLINE_SNAPSHOT_BYTES_MAX) {
      return { kind: "inline", bytes: snapshot };
    }
    const path = join(this.directory, `${name}.snapshot`);
    writeFileSync(`${path}.partial`, snapshot);
    renameSync(`${path}.partial`, path);
    return { kind: "file", path };
  }

  /** The snapshot's bytes; null when its file is gone (the job is then audited from the start). */
  load(pointer: SnapshotPointer): Uint8Array | null {
    if (pointer.kind === "inline") return pointer.bytes;
    try {
      return new Uint8Array(readFileSync(pointer.path));
    } catch {
      return null;
    }
  }

  /** Removes a snapshot file no job points to any more. */
  discard(path: string | null): void {
    if (path !== null) rmSync(path, { force: true });
  }
}

/**
 * A journal file to resume on: what lets `resume` check the prefix its snapshot covers on a
 * reading thread, straight from the file, while it lays the snapshot's state into the kernel —
 * the two overlap, and no byte of the prefix crosses to the audit's thread (a 300 MB journal with
 * nothing appended spent most of its resume hashing the prefix first and restoring after). Where
 * Node runs, `resumableFile` (read-descriptor.ts) makes one; anything else streams its chunks.
 */
import type { JournalDigests } from "../digest/journal-digests.js";

export interface ResumableFile {
  /**
   * The journal from its start: read only as far as its first line (a dag header's DAG) when the
   * prefix is skipped, else whole. Called once at most.
   */
  fromStart(): AsyncIterable<Uint8Array>;
  /**
   * The journal after its first `bytes`, which a thread hashes first; null where it cannot (then
   * `fromStart` is read whole). Called once at most.
   */
  afterPrefix(bytes: number): SkippedPrefix | null;
  /** Ends the thread, if any, whether or not the prefix was skipped. */
  close(): void;
}

/** A journal past a prefix: its chunks, and the digests of its complete lines from its start. */
export interface SkippedPrefix {
  readonly chunks: AsyncIterable<Uint8Array>;
  readonly digests: JournalDigests;
  /** The prefix as the thread found it; null when reading it failed (`chunks` says why). */
  prefix(): Promise<HashedPrefix | null>;
  /** Ends the thread (the chunks may not have been read to their end). */
  stop(): void;
}

/** How many bytes of the prefix the file had (fewer when it is shorter), and their SHA-256. */
export interface HashedPrefix {
  readonly bytes: number;
  readonly sha256: string;
}

export function isResumableFile(journal: unknown): journal is ResumableFile {
  return typeof (journal as Partial<ResumableFile> | null)?.afterPrefix === "function";
}

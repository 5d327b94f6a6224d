/**
 * The journal prefix a snapshot covers, hashed: while a journal streams (`PrefixHash`, the
 * complete lines so far) and when it is read again to resume (`resumeAfterPrefix`: its first
 * bytes, as they stream or on a thread reading the file). Every model's sessions use both.
 */
import type { JournalDigests } from "./digest/journal-digests.js";
import { type Sha256, sha256 } from "./digest/sha256.js";
import { threadedSha256 } from "./digest/threaded-sha256.js";
import { chunksOf, type ResumeJournal } from "./engine.js";
import { JournalError } from "./journal/errors.js";
import type { FirstLineHold } from "./journal/first-line.js";
import {
  type HashedPrefix,
  isResumableFile,
  type SkippedPrefix,
} from "./journal/resumable-file.js";

/** A hash of a journal prefix: on the hashing thread where there is one, off the audit's way. */
export function prefixSha256(): Sha256 {
  return threadedSha256() ?? sha256();
}

/** What a session of any model is told about its snapshots. */
export interface SnapshotOptions {
  /** Hash the journal as it streams, so `snapshot()` can be taken (costs a SHA-256 pass). */
  readonly snapshots?: boolean;
  /**
   * With `snapshots`: the journal's reader hashes the complete lines it reads (`readFileHashed`),
   * and snapshots take their digests from it instead of hashing the lines again. Every chunk
   * written must be the reader's, in order.
   */
  readonly digests?: JournalDigests;
  /** Names the snapshot in errors about it. */
  readonly snapshotFile?: string;
}

/**
 * The SHA-256 of the journal prefix a session's snapshots cover — its complete lines — however it
 * comes: hashed by the session as the lines are fed (`PrefixHash`), or by the journal's reader.
 */
export interface PrefixDigest {
  /** `fed` was just given to the kernel; the journal's first `completeBytes` are complete lines. */
  advance(fed: Uint8Array, completeBytes: number): void;
  /** The hex SHA-256 of the journal's first `bytes`, the complete lines so far. */
  hex(bytes: number): string;
}

/** A session's prefix digest: the reader's when it hashes what it reads, else the session's own. */
export function prefixDigest(readerDigests: JournalDigests | undefined): PrefixDigest {
  return readerDigests === undefined
    ? new PrefixHash(prefixSha256(), 0)
    : { advance() {}, hex: (bytes) => readerDigests.hex(bytes) };
}

/**
 * The SHA-256 of the journal's complete lines. Bytes fed past the last line feed are kept until
 * the kernel says their line is complete.
 */
export class PrefixHash implements PrefixDigest {
  /** Copies of bytes fed after the last complete line (one partial line at most). */
  private pending: Uint8Array[] = [];

  constructor(
    readonly hash: Sha256,
    private bytes: number,
  ) {}

  advance(fed: Uint8Array, completeBytes: number): void {
    let owed = completeBytes - this.bytes;
    while (owed > 0 && this.pending.length > 0) {
      const chunk = this.pending[0] as Uint8Array;
      const part = chunk.subarray(0, Math.min(owed, chunk.length));
      this.hash.update(part);
      owed -= part.length;
      if (part.length === chunk.length) this.pending.shift();
      else this.pending[0] = chunk.subarray(part.length);
    }
    const part = fed.subarray(0, Math.max(0, owed));
    this.hash.update(part);
    if (part.length < fed.length) this.pending.push(fed.slice(part.length));
    this.bytes = completeBytes;
  }

  hex(bytes: number): string {
    if (bytes !== this.bytes) {
      throw new Error(`statefold: the prefix hashed is ${this.bytes} bytes long, not ${bytes}`);
    }
    return this.hash.copy().hex();
  }
}

/** What a session resumes from and with (`resumeAfterPrefix`). */
export interface Resuming {
  readonly journal: ResumeJournal;
  /** The prefix the snapshot covers. */
  readonly covered: { readonly bytes: number; readonly sha256: string };
  /** Names the journal in errors. */
  readonly file: string;
  /** Filled with the journal's first line, for a session that reads its DAG from the header. */
  readonly firstLine: FirstLineHold | null;
  /** The session's prefix digest before it resumes. */
  readonly digest: PrefixDigest | null;
  /** Lays the snapshot's state into the kernel; the session's prefix digest goes on as `digest`. */
  restore(digest: PrefixDigest | null): void;
  /** Audits bytes after the prefix. */
  write(chunk: Uint8Array): void;
}

/**
 * Resumes a journal from a snapshot covering its first bytes: calls `restore` once (even when
 * nothing follows), and `write` with every byte after the prefix. The prefix must hash as the
 * snapshot says, else — or when the journal is shorter than it — the snapshot is refused, naming
 * the journal, whatever else went wrong.
 *
 * A journal file has its prefix hashed by a reading thread while the state is restored here: the
 * prefix is then checked last, once what was appended is audited (the report is not read before
 * this returns). Any other journal is hashed as it streams, and restored once the prefix checks.
 */
export async function resumeAfterPrefix(resuming: Resuming): Promise<void> {
  const { journal } = resuming;
  if (!isResumableFile(journal)) return resumeStreamed(resuming, chunksOf(journal));
  const skipped = journal.afterPrefix(resuming.covered.bytes);
  if (skipped === null) return resumeStreamed(resuming, journal.fromStart());
  try {
    await resumeSkipping(resuming, journal.fromStart, skipped);
  } finally {
    skipped.stop();
  }
}

async function resumeSkipping(
  resuming: Resuming,
  fromStart: () => AsyncIterable<Uint8Array>,
  skipped: SkippedPrefix,
): Promise<void> {
  let failure: { readonly error: unknown } | null = null;
  try {
    const { firstLine } = resuming;
    if (firstLine !== null) {
      for await (const chunk of fromStart()) if (firstLine.hold(chunk)) break;
    }
    resuming.restore(prefixDigest(skipped.digests));
    for await (const chunk of skipped.chunks) resuming.write(chunk);
  } catch (error) {
    // A changed prefix can fail its restore; it is refused as changed, which is what it is.
    failure = { error };
  }
  const prefix = await skipped.prefix();
  if (prefix !== null) checkPrefix(prefix, resuming.covered, resuming.file);
  if (failure !== null) throw failure.error;
}

async function resumeStreamed(
  resuming: Resuming,
  chunks: AsyncIterable<Uint8Array>,
): Promise<void> {
  const { covered, firstLine } = resuming;
  const verifier = new PrefixVerifier(covered.bytes);
  let restored = false;
  const restore = () => {
    checkPrefix(
      { bytes: covered.bytes, sha256: verifier.hash.copy().hex() },
      covered,
      resuming.file,
    );
    const own = resuming.digest;
    resuming.restore(
      own instanceof PrefixHash ? new PrefixHash(verifier.hash, covered.bytes) : own,
    );
    restored = true;
  };
  for await (const chunk of chunks) {
    if (firstLine !== null && !firstLine.complete) firstLine.hold(chunk);
    const rest = verifier.take(chunk);
    if (rest === null) continue;
    if (!restored) restore();
    if (rest.length > 0) resuming.write(rest);
  }
  if (!verifier.done) throw truncated(covered.bytes, verifier.seen, resuming.file);
  if (!restored) restore();
}

/** Refuses the snapshot, naming `file`, unless the journal's prefix is the one it covers. */
export function checkPrefix(found: HashedPrefix, covered: Resuming["covered"], file: string): void {
  if (found.bytes < covered.bytes) throw truncated(covered.bytes, found.bytes, file);
  if (found.sha256 !== covered.sha256) {
    throw new JournalError(
      file,
      `refusing the snapshot: the journal's first ${covered.bytes} bytes are not the ones it covers (changed since, or another journal)`,
    );
  }
}

function truncated(coveredBytes: number, journalBytes: number, file: string): JournalError {
  return new JournalError(
    file,
    `refusing the snapshot: it covers the journal's first ${coveredBytes} bytes, but the journal has only ${journalBytes}: truncated, or another journal`,
  );
}

/** Hashes the first `bytes` of a stream and hands back what follows. */
class PrefixVerifier {
  readonly hash = prefixSha256();
  seen = 0;

  constructor(private readonly bytes: number) {}

  get done(): boolean {
    return this.seen >= this.bytes;
  }

  /** The part of `chunk` after the prefix, or null while the prefix is not yet complete. */
  take(chunk: Uint8Array): Uint8Array | null {
    const wanted = Math.max(0, Math.min(chunk.length, this.bytes - this.seen));
    this.hash.update(chunk.subarray(0, wanted));
    this.seen += chunk.length;
    return this.seen >= this.bytes ? chunk.subarray(wanted) : null;
  }
}

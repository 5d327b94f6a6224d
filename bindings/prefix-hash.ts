/**
 * The journal prefix a snapshot covers, hashed: while a journal streams (`PrefixHash`, the
 * complete lines so far) and when it is read again to resume (`PrefixVerifier`, its first bytes).
 * Every model's sessions use both.
 */
import type { JournalDigests } from "../src/digest/journal-digests.js";
import { type Sha256, sha256 } from "../src/digest/sha256.js";
import { threadedSha256 } from "../src/digest/threaded-sha256.js";
import { JournalError } from "../src/journal/errors.js";

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

/**
 * The prefix digest a resuming session goes on with, once the journal's first bytes hash to what
 * its snapshot says they do (else the snapshot is refused, naming `file`): the session's own hash
 * carries on from the prefix it checked; a reader's digests cover the prefix already.
 */
export function continuedPrefix(
  prefix: PrefixDigest | null,
  prefixHash: Sha256,
  covered: { readonly bytes: number; readonly sha256: string },
  file: string,
): PrefixDigest | null {
  if (prefixHash.copy().hex() !== covered.sha256) {
    throw new JournalError(
      file,
      `refusing the snapshot: the journal's first ${covered.bytes} bytes are not the ones it covers (changed since, or another journal)`,
    );
  }
  return prefix instanceof PrefixHash ? new PrefixHash(prefixHash, covered.bytes) : prefix;
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

/**
 * Resumes a journal from a snapshot covering its first `prefixBytes`: hashes them, then calls
 * `restore` with their hash once (even when nothing follows), and `write` with every byte after
 * them. A journal shorter than the prefix is refused, naming `file`.
 */
export async function resumeAfterPrefix(
  prefixBytes: number,
  chunks: AsyncIterable<Uint8Array>,
  file: string,
  restore: (prefixHash: Sha256) => void,
  write: (chunk: Uint8Array) => void,
): Promise<void> {
  const verifier = new PrefixVerifier(prefixBytes);
  let restored = false;
  for await (const chunk of chunks) {
    const rest = verifier.take(chunk);
    if (rest === null) continue;
    if (!restored) restore(verifier.hash);
    restored = true;
    if (rest.length > 0) write(rest);
  }
  if (!verifier.done) {
    throw new JournalError(
      file,
      `refusing the snapshot: it covers the journal's first ${prefixBytes} bytes, but the journal has only ${verifier.seen}: truncated, or another journal`,
    );
  }
  if (!restored) restore(verifier.hash);
}

/**
 * The first chunks of a JSONL stream, held until its first non-blank line is complete: what an
 * engine reads the header from before its kernel starts, and what routing by model peeks at. The
 * chunks are copied (a writer may reuse its buffer) unless handed on (`handOn`); the blank-line
 * rule is the reader's (jsonl.ts).
 */
import { concatBytes, indexOfByte } from "./bytes.js";
import { isBlankLine } from "./jsonl.js";

const LF = 0x0a;

/**
 * Chunks their maker hands on for good, never to write them again: a holder keeps them as they
 * are. A journal whose model was peeked at (peek-model.ts) arrives with its first line already
 * held and joined in one such chunk, and copying it again would cost a header of megabytes twice.
 */
const handedOn = new WeakSet<Uint8Array>();

export function handOn(chunk: Uint8Array): Uint8Array {
  handedOn.add(chunk);
  return chunk;
}

export class FirstLineHold {
  readonly chunks: Uint8Array[] = [];
  /** Bytes held. */
  bytes = 0;
  /** Just past the first non-blank line's line feed, once it is held; -1 before. */
  private end = -1;
  /**
   * The line feeds held so far up to that end: the blank lines' and the first line's own, so the
   * line after it is line `lineFeeds + 1` (counted here, where each line feed is found anyway).
   */
  lineFeeds = 0;
  private lineHasContent = false;

  /** Holds `chunk`; true once the first non-blank line is complete. */
  hold(chunk: Uint8Array): boolean {
    if (this.end < 0) this.end = this.lineEndIn(chunk);
    this.chunks.push(handedOn.has(chunk) ? chunk : chunk.slice());
    this.bytes += chunk.length;
    return this.complete;
  }

  /** Whether the first non-blank line is held with its line feed. */
  get complete(): boolean {
    return this.end >= 0;
  }

  /** The bytes up to the end of the first non-blank line; all of them when the stream ended first. */
  firstLine(): Uint8Array {
    return this.firstLineOf(concatBytes(this.chunks));
  }

  /** `firstLine()` of `joined`, the held chunks joined. */
  firstLineOf(joined: Uint8Array): Uint8Array {
    return joined.subarray(0, this.end < 0 ? this.bytes : this.end);
  }

  private lineEndIn(chunk: Uint8Array): number {
    for (let at = 0; at < chunk.length; ) {
      const lineFeed = indexOfByte(chunk, LF, at);
      const end = lineFeed < 0 ? chunk.length : lineFeed;
      if (lineFeed >= 0) this.lineFeeds += 1;
      this.lineHasContent ||= !isBlankLine(chunk.subarray(at, end));
      if (lineFeed >= 0 && this.lineHasContent) return this.bytes + lineFeed + 1;
      at = end + 1;
    }
    return -1;
  }
}

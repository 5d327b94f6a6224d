/**
 * The first chunks of a JSONL stream, held until its line 1 is complete: what an engine reads
 * the header from before its kernel starts, and what routing by model peeks at. Only line 1 can
 * be the header (docs/journals.md, "The header"), so nothing past its line feed is waited for.
 * The chunks are copied (a writer may reuse its buffer) unless handed on (`handOn`).
 */
import { concatBytes, indexOfByte } from "./bytes.js";

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
  /** Just past line 1's line feed, once it is held; -1 before. */
  private end = -1;

  /** Holds `chunk`; true once line 1 is complete. */
  hold(chunk: Uint8Array): boolean {
    if (this.end < 0) {
      const lineFeed = indexOfByte(chunk, LF, 0);
      if (lineFeed >= 0) this.end = this.bytes + lineFeed + 1;
    }
    this.chunks.push(handedOn.has(chunk) ? chunk : chunk.slice());
    this.bytes += chunk.length;
    return this.complete;
  }

  /** Whether line 1 is held with its line feed. */
  get complete(): boolean {
    return this.end >= 0;
  }

  /** The bytes of line 1 with its line feed; all of them when the stream ended first. */
  firstLine(): Uint8Array {
    return this.firstLineOf(concatBytes(this.chunks));
  }

  /** `firstLine()` of `joined`, the held chunks joined. */
  firstLineOf(joined: Uint8Array): Uint8Array {
    return joined.subarray(0, this.end < 0 ? this.bytes : this.end);
  }
}

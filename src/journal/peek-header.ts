/**
 * The header of a JSONL journal that arrives as a stream of chunks, read before the journal is
 * handed on, so that the journal can go to the engine of the model it names. Only the chunks up
 * to the end of the first non-blank line are held (copied: a reader may reuse its buffers), and
 * the stream handed on yields every byte exactly once, in order.
 */
import { concatBytes } from "./bytes.js";
import type { JournalHeader } from "./journal.js";
import { isBlankByte, readJsonlHeader } from "./jsonl.js";

const LF = 0x0a;

export interface PeekedJournal {
  readonly header: JournalHeader | null;
  readonly chunks: AsyncIterable<Uint8Array>;
}

export async function peekHeader(
  chunks: AsyncIterable<Uint8Array>,
  file: string,
): Promise<PeekedJournal> {
  const iterator = chunks[Symbol.asyncIterator]();
  const held: Uint8Array[] = [];
  const firstLine = new FirstLineSearch();
  let done = false;
  while (!firstLine.found) {
    const next = await iterator.next();
    if (next.done === true) {
      done = true;
      break;
    }
    held.push(next.value.slice());
    firstLine.scan(next.value);
  }
  const header = readJsonlHeader(concatBytes(held), file);
  return { header, chunks: replay(held, done ? null : iterator) };
}

/** Looks, chunk by chunk, for the end of the first line that is not blank (jsonl.ts's rule). */
class FirstLineSearch {
  found = false;
  private lineHasContent = false;

  scan(chunk: Uint8Array): void {
    for (const byte of chunk) {
      if (byte === LF) {
        if (this.lineHasContent) {
          this.found = true;
          return;
        }
      } else if (!isBlankByte(byte)) {
        this.lineHasContent = true;
      }
    }
  }
}

async function* replay(
  held: readonly Uint8Array[],
  rest: AsyncIterator<Uint8Array> | null,
): AsyncGenerator<Uint8Array> {
  yield* held;
  if (rest === null) return;
  for (let next = await rest.next(); next.done !== true; next = await rest.next()) {
    yield next.value;
  }
}

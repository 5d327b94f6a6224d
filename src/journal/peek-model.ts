/**
 * The model a JSONL journal's header names, when the journal arrives as a stream of chunks: read
 * before the journal is handed on, so that the journal can go to the engine of that model (which
 * reads the header whole: a DAG is parsed once, by the engine that keeps it). Only the chunks up
 * to the end of line 1, the only line that can be the header, are held (copied: a reader may reuse its buffers), and
 * the stream handed on yields every byte exactly once, in order.
 */

import type { ModelName } from "../models/registry.js";
import { concatBytes } from "./bytes.js";
import { FirstLineHold, handOn } from "./first-line.js";
import { readJsonlHeaderModel } from "./jsonl.js";

export interface PeekedJournal {
  /** The model the header names; null when the journal has no header. */
  readonly model: ModelName | null;
  readonly chunks: AsyncIterable<Uint8Array>;
}

/** Reads the model off a first line: `readJsonlHeaderModel`, or a faster reader that answers as it does. */
export type HeaderModelReader = (
  firstLine: Uint8Array,
  file: string,
) => ModelName | null | Promise<ModelName | null>;

export async function peekModel(
  chunks: AsyncIterable<Uint8Array>,
  file: string,
  readModel: HeaderModelReader = readJsonlHeaderModel,
): Promise<PeekedJournal> {
  const iterator = chunks[Symbol.asyncIterator]();
  const held = new FirstLineHold();
  let done = false;
  for (let complete = false; !complete; ) {
    const next = await iterator.next();
    if (next.done === true) {
      done = true;
      break;
    }
    complete = held.hold(next.value);
  }
  // Handed on joined, as one chunk: what holds the first line downstream (an engine reading the
  // header) then finds it whole in its first chunk, instead of holding and joining it again.
  const joined = concatBytes(held.chunks);
  const model = await readModel(held.firstLineOf(joined), file);
  return { model, chunks: replay([joined], done ? null : iterator) };
}

/**
 * The held bytes, let go once handed on, then the rest. Closing it early — a resume reads only the
 * header of a journal it skips — closes the rest, started or not: a file read by the rest would
 * otherwise stay open until the garbage collector closed it (with a warning on stderr).
 */
function replay(
  held: Uint8Array[],
  rest: AsyncIterator<Uint8Array> | null,
): AsyncIterableIterator<Uint8Array> {
  const ended: IteratorReturnResult<undefined> = { done: true, value: undefined };
  const replayed: AsyncIterableIterator<Uint8Array> = {
    [Symbol.asyncIterator]: () => replayed,
    async next() {
      // Not kept once handed on: downstream holds the first line as long as it needs.
      const first = held.pop();
      if (first !== undefined && first.length > 0) return { done: false, value: handOn(first) };
      return rest === null ? ended : rest.next();
    },
    async return() {
      held.length = 0;
      await rest?.return?.();
      return ended;
    },
  };
  return replayed;
}

/**
 * The model a JSONL journal's header names, when the journal arrives as a stream of chunks: read
 * before the journal is handed on, so that the journal can go to the engine of that model (which
 * reads the header whole: a DAG is parsed once, by the engine that keeps it). Only the chunks up
 * to the end of the first non-blank line are held (copied: a reader may reuse its buffers), and
 * the stream handed on yields every byte exactly once, in order.
 */

import type { ModelName } from "../models/registry.js";
import { FirstLineHold } from "./first-line.js";
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
  const model = await readModel(held.firstLine(), file);
  return { model, chunks: replay(held.chunks, done ? null : iterator) };
}

/** The held chunks, each let go once handed on (a 5 MB header is held a second time downstream). */
async function* replay(
  held: Uint8Array[],
  rest: AsyncIterator<Uint8Array> | null,
): AsyncGenerator<Uint8Array> {
  for (let chunk = held.shift(); chunk !== undefined; chunk = held.shift()) yield chunk;
  if (rest === null) return;
  for (let next = await rest.next(); next.done !== true; next = await rest.next()) {
    yield next.value;
  }
}

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { peekModel } from "../../src/journal/peek-model.js";
import { concatBytes } from "../support/bytes.js";

const encoder = new TextEncoder();
const HEADER = '{"statefold":"journal","version":1,"model":"operations","fencing":false}\n';

/** The bytes in chunks of `size`, and whether the stream was closed and how far it was read. */
function source(bytes: Uint8Array, size: number) {
  const seen = { closed: false, chunksRead: 0 };
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      for (let at = 0; at < bytes.length; at += size) {
        seen.chunksRead += 1;
        yield bytes.subarray(at, at + size);
      }
    } finally {
      seen.closed = true;
    }
  }
  return { chunks: chunks(), seen };
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const all: Uint8Array[] = [];
  for await (const chunk of chunks) all.push(chunk.slice());
  return concatBytes(...all);
}

describe("peekModel", () => {
  it("reads the header's model and hands on every byte once, in order, however it is chunked", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 200 }),
        fc.integer({ min: 1, max: 100 }),
        async (rest, size) => {
          const bytes = encoder.encode(`${HEADER}${rest}`);
          const { chunks, seen } = source(bytes, size);
          const peeked = await peekModel(chunks, "j.jsonl");
          expect(peeked.model).toBe("operations");
          expect(await collect(peeked.chunks)).toEqual(bytes);
          expect(seen.closed).toBe(true);
        },
      ),
    );
  });

  it("closes the stream it read from when the journal is left unread, started or not", async () => {
    const bytes = encoder.encode(`${HEADER}${'{"kind":"x"}\n'.repeat(100)}`);
    const untouched = source(bytes, 16);
    const peeked = await peekModel(untouched.chunks, "j.jsonl");
    await peeked.chunks[Symbol.asyncIterator]().return?.();
    expect(untouched.seen.closed).toBe(true);

    const started = source(bytes, 16);
    for await (const _chunk of (await peekModel(started.chunks, "j.jsonl")).chunks) break;
    expect(started.seen.closed).toBe(true);
    expect(started.seen.chunksRead).toBeLessThan(bytes.length / 16);
  });
});

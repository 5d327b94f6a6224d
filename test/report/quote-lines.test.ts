import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { QUOTED_LINE_BYTES_MAX, quoteLines } from "../../src/report/quote-lines.js";
import { encode } from "../support/bytes.js";

/** The bytes in pieces cut at the given offsets, through one reused buffer as a file stream is. */
function* reusedChunks(bytes: Uint8Array, cuts: readonly number[]): Generator<Uint8Array> {
  const buffer = new Uint8Array(bytes.length);
  const ends = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  let start = 0;
  for (const end of [...ends, bytes.length]) {
    if (end <= start) continue;
    buffer.set(bytes.subarray(start, end));
    yield buffer.subarray(0, end - start);
    start = end;
  }
}

describe("quoteLines", () => {
  it("quotes the wanted lines as the JSONL reader splits them, however the bytes are chunked", async () => {
    const line = fc
      .string({ unit: "grapheme", maxLength: 30 })
      .map((text) => text.replace(/[\r\n]/g, ""));
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 5 }),
        async (lines, crlf, cuts, picks) => {
          const bytes = encode(lines.map((text) => `${text}${crlf ? "\r\n" : "\n"}`).join(""));
          const wanted = [...new Set(picks.map((pick) => (pick % lines.length) + 1))];
          const quoted = await quoteLines(reusedChunks(bytes, cuts), wanted);
          const expected = new Map(
            wanted.map((number) => [number, { text: lines[number - 1], cut: false }]),
          );
          expect(quoted).toEqual(expected);
        },
      ),
    );
  });

  it("keeps a carriage return that does not end the line", async () => {
    const quoted = await quoteLines([encode('{"a":"x\ry"}\r\n')], [1]);
    expect(quoted.get(1)).toEqual({ text: '{"a":"x\ry"}', cut: false });
  });

  it("quotes an unterminated last line (a torn tail) up to the end of the input", async () => {
    const quoted = await quoteLines([encode('{"kind":"landed"}\n{"kind":"lan')], [2]);
    expect(quoted.get(2)).toEqual({ text: '{"kind":"lan', cut: false });
  });

  it("cuts a long line at the byte bound, without half a character at the cut", async () => {
    const long = `${"a".repeat(QUOTED_LINE_BYTES_MAX - 1)}é and more`;
    const quoted = await quoteLines([encode(`${long}\nnext\n`)], [1, 2]);
    expect(quoted.get(1)).toEqual({
      text: "a".repeat(QUOTED_LINE_BYTES_MAX - 1),
      cut: true,
      bytes: encode(long).length,
    });
    expect(quoted.get(2)).toEqual({ text: "next", cut: false });
  });

  it("says how long a cut line is, holding no more of it than the bound, whatever its chunks", async () => {
    const lineBytes = 5_000_000;
    function* chunks(): Generator<Uint8Array> {
      yield encode('{"kind":"dispatched","id":"A"}\r\n{"note":"');
      const piece = encode("x".repeat(65_536));
      for (let sent = 9; sent < lineBytes - 2; sent += piece.length) {
        yield piece.subarray(0, Math.min(piece.length, lineBytes - 2 - sent));
      }
      yield encode('"}\r\n{"kind":"landed","id":"A"}');
    }
    const quoted = await quoteLines(chunks(), [2, 3]);
    expect(quoted.get(2)).toEqual({
      text: `{"note":"${"x".repeat(QUOTED_LINE_BYTES_MAX - 9)}`,
      cut: true,
      bytes: lineBytes,
    });
    expect(quoted.get(3)).toEqual({ text: '{"kind":"landed","id":"A"}', cut: false });
  });

  it("does not cut a line of exactly the bound that ends in \\r\\n", async () => {
    const line = "y".repeat(QUOTED_LINE_BYTES_MAX);
    const quoted = await quoteLines([encode(`${line}\r\n`)], [1]);
    expect(quoted.get(1)).toEqual({ text: line, cut: false });
  });

  it("shows bytes that are not UTF-8 as replacement characters", async () => {
    const quoted = await quoteLines([new Uint8Array([0x7b, 0xff, 0x7d, 0x0a])], [1]);
    expect(quoted.get(1)).toEqual({ text: "{\uFFFD}", cut: false });
  });

  it("stops reading after the last wanted line", async () => {
    function* chunks(): Generator<Uint8Array> {
      yield encode("one\ntwo\n");
      throw new Error("read past the last wanted line");
    }
    expect(await quoteLines(chunks(), [1])).toEqual(new Map([[1, { text: "one", cut: false }]]));
  });
});

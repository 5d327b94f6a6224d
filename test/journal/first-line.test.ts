/**
 * The hold of a stream's first chunks (src/journal/first-line.ts): complete once line 1 and its
 * line feed are held, in any chunking — blank or not, since only line 1 can be the header.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FirstLineHold, handOn } from "../../src/journal/first-line.js";
import { encode } from "../support/bytes.js";

const blankLine = fc.constantFrom("", " ", "\t", "\r", " \t\r");

describe("FirstLineHold", () => {
  it("holds up to line 1's line feed, blank or not, in any chunking", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          blankLine,
          fc.string({ maxLength: 20 }).map((text) => `{${text.replace(/\n/g, "")}}`),
        ),
        fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 20 }),
        (line, after, cuts) => {
          const bytes = encode(`${line}\n${after.join("\n")}`);
          const held = new FirstLineHold();
          let at = 0;
          for (let i = 0; !held.complete && at < bytes.length; i++) {
            const size = cuts[i % cuts.length] as number;
            held.hold(bytes.slice(at, at + size));
            at += size;
          }
          expect(held.complete).toBe(true);
          expect(new TextDecoder().decode(held.firstLine())).toBe(`${line}\n`);
        },
      ),
    );
  });

  it("holds everything when the stream ends before line 1 does", () => {
    const held = new FirstLineHold();
    held.hold(encode('  {"statefold"'));
    expect(held.complete).toBe(false);
    expect(held.firstLine()).toEqual(encode('  {"statefold"'));
  });
});

describe("handOn", () => {
  it("a chunk handed on is held as it is; any other is copied, so its writer may reuse it", () => {
    const reused = encode('{"statefold":');
    const handed = handOn(encode('"journal"}\n'));
    const held = new FirstLineHold();
    held.hold(reused);
    reused.fill(0x20);
    held.hold(handed);
    expect(held.chunks[0]).not.toBe(reused);
    expect(held.chunks[1]).toBe(handed);
    expect(new TextDecoder().decode(held.firstLine())).toBe('{"statefold":"journal"}\n');
  });
});

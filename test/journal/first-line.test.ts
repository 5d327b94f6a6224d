/**
 * The hold of a stream's first chunks (src/journal/first-line.ts): complete once the first
 * non-blank line and its line feed are held, in any chunking, and counting the line feeds up to
 * there — the line after the first line is numbered from that count.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FirstLineHold, handOn } from "../../src/journal/first-line.js";
import { encode } from "../support/bytes.js";

const blankLine = fc.constantFrom("", " ", "\t", "\r", " \t\r");

describe("FirstLineHold", () => {
  it("holds up to the first non-blank line's line feed, counting the line feeds, in any chunking", () => {
    fc.assert(
      fc.property(
        fc.array(blankLine, { maxLength: 4 }),
        fc.string({ maxLength: 20 }).map((text) => `{${text.replace(/\n/g, "")}}`),
        fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 20 }),
        (blanks, line, after, cuts) => {
          const prefix = blanks.map((blank) => `${blank}\n`).join("");
          const bytes = encode(`${prefix}${line}\n${after.join("\n")}`);
          const held = new FirstLineHold();
          let at = 0;
          for (let i = 0; !held.complete && at < bytes.length; i++) {
            const size = cuts[i % cuts.length] as number;
            held.hold(bytes.slice(at, at + size));
            at += size;
          }
          const firstLine = held.firstLine();
          expect(held.complete).toBe(true);
          expect(new TextDecoder().decode(firstLine)).toBe(`${prefix}${line}\n`);
          expect(held.lineFeeds).toBe(blanks.length + 1);
        },
      ),
    );
  });

  it("counts the line feeds of blank lines only when the stream ends before a line does", () => {
    const held = new FirstLineHold();
    held.hold(encode(" \n\t\r\n  "));
    expect(held.complete).toBe(false);
    expect(held.lineFeeds).toBe(2);
    expect(held.firstLine()).toEqual(encode(" \n\t\r\n  "));
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

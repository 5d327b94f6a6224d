/**
 * The byte helpers of src/journal/bytes.ts: a search for one byte answers as the array's own
 * `indexOf` does, near and far (far ahead it goes through Node's Buffer), in any view.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { indexOfByte } from "../../src/journal/bytes.js";

describe("indexOfByte", () => {
  it("answers as Uint8Array.prototype.indexOf, for any view, byte and start", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300_000 }),
        fc.array(fc.integer({ min: 0, max: 299_999 }), { maxLength: 4 }),
        fc.integer({ min: 0, max: 64 }),
        fc.integer({ min: 0, max: 310_000 }),
        fc.constantFrom(0x0a, 0x00, 0xff),
        (length, marks, offset, from, byte) => {
          const backing = new Uint8Array(length + offset).fill(0x61);
          const bytes = backing.subarray(offset);
          for (const mark of marks) if (mark < length) bytes[mark] = byte;
          expect(indexOfByte(bytes, byte, from)).toBe(bytes.indexOf(byte, from));
        },
      ),
      { numRuns: 300 },
    );
  });
});

/**
 * The snapshot file's base64 (bindings/snapshot-format.ts): RFC 4648 with padding, equal to
 * Node's for any bytes, and back; text that is not base64 is refused, never decoded to garbage.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromBase64, toBase64 } from "../../bindings/snapshot-format.js";

describe("toBase64 and fromBase64", () => {
  it("equal Node's base64 for any bytes, and give the bytes back", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const text = toBase64(bytes);
        expect(text).toBe(Buffer.from(bytes).toString("base64"));
        expect(fromBase64(text)).toEqual(bytes);
      }),
      { numRuns: 1000 },
    );
  });

  it("refuse text that is not padded base64", () => {
    for (const text of ["a", "abc", "ab=c", "a===", "ab\u00e9d", "ab cd", "=abc", "ab-_"]) {
      expect(() => fromBase64(text), text).toThrow();
    }
  });
});

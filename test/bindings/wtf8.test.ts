/**
 * WTF-8 decoding of what the kernel hands back (ids, paths, fault subjects): the native decoder
 * for UTF-8, a code-unit array for bytes that hold a lone surrogate; either way the very string
 * that was encoded.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeWtf8, encodeWtf8 } from "../../bindings/wtf8.js";

describe("decodeWtf8", () => {
  it("gives back any string encodeWtf8 encoded, lone surrogates and a leading BOM included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 64 }), (text) => {
        expect(decodeWtf8(encodeWtf8(text))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps what the native decoder would drop or replace", () => {
    for (const text of ["\ufeffA", "\ud800", "a\udc00b", "\ud83d\ude00", "\ud83d", "é\u0301"]) {
      expect(decodeWtf8(encodeWtf8(text))).toBe(text);
    }
  });

  it("decodes a long subject with lone surrogates across its pieces", () => {
    const text = `${"x".repeat(20_000)}\ud800${"\ud83d\ude00".repeat(10_000)}\udfff`;
    expect(decodeWtf8(encodeWtf8(text))).toBe(text);
  });
});

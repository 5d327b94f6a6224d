/**
 * The snapshot file's base64 (bindings/snapshot-format.ts): RFC 4648 with padding, equal to
 * Node's for any bytes, and back; text that is not base64 is refused, never decoded to garbage.
 * Under Node it is Buffer's native code behind a check of the text; in a browser, the portable
 * typed-array code: the two must agree on every text, refusals included.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  fromBase64,
  fromBase64Portable,
  toBase64,
  toBase64Portable,
} from "../../bindings/snapshot-format.js";

const CODECS = [
  { name: "native (Node)", encode: toBase64, decode: fromBase64 },
  { name: "portable (browser)", encode: toBase64Portable, decode: fromBase64Portable },
];

/** Text near base64: its alphabet, padding in any place, and characters outside it. */
const nearBase64 = fc
  .array(fc.constantFrom(..."AZaz09+/==-_ \u00e9\n"), { maxLength: 24 })
  .map((chars) => chars.join(""));

function outcome(decode: (text: string) => Uint8Array, text: string): Uint8Array | "refused" {
  try {
    return decode(text);
  } catch {
    return "refused";
  }
}

describe.each(CODECS)("base64, $name", ({ encode, decode }) => {
  it("equals Node's base64 for any bytes, at any offset, and gives the bytes back", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(8), (bytes, cut) => {
        const view = bytes.subarray(Math.min(cut, bytes.length));
        const text = encode(view);
        expect(text).toBe(Buffer.from(view).toString("base64"));
        const decoded = decode(text);
        expect(decoded).toEqual(view);
        // The bytes are the array's own, whatever a caller views them through.
        expect(decoded.byteOffset).toBe(0);
        expect(decoded.buffer.byteLength).toBe(decoded.length);
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses text that is not padded base64", () => {
    for (const text of ["a", "abc", "ab=c", "a===", "ab\u00e9d", "ab cd", "=abc", "ab-_"]) {
      expect(() => decode(text), text).toThrow();
    }
  });
});

describe("the native and the portable base64", () => {
  it("decode and refuse alike, whatever the text", () => {
    let accepted = 0;
    fc.assert(
      fc.property(nearBase64, (text) => {
        const native = outcome(fromBase64, text);
        expect(native).toEqual(outcome(fromBase64Portable, text));
        if (native !== "refused") accepted += 1;
      }),
      { numRuns: 3000 },
    );
    // Not vacuous: some texts decode, the rest are refused by both.
    expect(accepted).toBeGreaterThan(50);
  });
});

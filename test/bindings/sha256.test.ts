import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Sha256 } from "../../bindings/sha256.js";

describe("Sha256", () => {
  it("gives the FIPS 180-4 digests of the standard messages", () => {
    expect(new Sha256().hex()).toBe(
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    expect(new Sha256().update(new TextEncoder().encode("abc")).hex()).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("equals node:crypto for any bytes fed in any chunks", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 700 }),
        fc.array(fc.nat(200), { maxLength: 8 }),
        (bytes, cuts) => {
          const hash = new Sha256();
          let at = 0;
          for (const cut of cuts) {
            hash.update(bytes.subarray(at, Math.min(bytes.length, at + cut)));
            at = Math.min(bytes.length, at + cut);
          }
          hash.update(bytes.subarray(at));
          expect(hash.hex()).toBe(createHash("sha256").update(bytes).digest("hex"));
        },
      ),
      { numRuns: 500 },
    );
  });
});

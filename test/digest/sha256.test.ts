import { createHash, createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hmacSha256Hex } from "../../src/digest/hmac-sha256.js";
import { PortableSha256, type Sha256, sha256 } from "../../src/digest/sha256.js";
import { threadedSha256 } from "../../src/digest/threaded-sha256.js";

describe("Sha256", () => {
  it("gives the FIPS 180-4 digests of the standard messages", () => {
    expect(new PortableSha256().hex()).toBe(
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    expect(new PortableSha256().update(new TextEncoder().encode("abc")).hex()).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("equals node:crypto for any bytes fed in any chunks", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 700 }),
        fc.array(fc.nat(200), { maxLength: 8 }),
        (bytes, cuts) => {
          const hash = new PortableSha256();
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

describe("sha256()", () => {
  it("is Node's native hash here, and agrees with the portable one, copies included", () => {
    expect(sha256()).not.toBeInstanceOf(PortableSha256);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), (a, b) => {
        const native = sha256().update(a);
        const portable = new PortableSha256().update(a);
        expect(native.copy().hex()).toBe(portable.copy().hex());
        expect(native.update(b).hex()).toBe(portable.update(b).hex());
      }),
      { numRuns: 200 },
    );
  });
});

describe("hmacSha256Hex", () => {
  it("gives RFC 4231's test vectors", () => {
    const text = (s: string) => new TextEncoder().encode(s);
    expect(hmacSha256Hex(new Uint8Array(20).fill(0x0b), text("Hi There"))).toBe(
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
    );
    expect(hmacSha256Hex(text("Jefe"), text("what do ya want for nothing?"))).toBe(
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    );
    // A key longer than the block is hashed first.
    expect(
      hmacSha256Hex(
        new Uint8Array(131).fill(0xaa),
        text("Test Using Larger Than Block-Size Key - Hash Key First"),
      ),
    ).toBe("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  });

  it("equals node:crypto for any key and message", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200 }),
        fc.uint8Array({ maxLength: 300 }),
        (key, message) => {
          expect(hmacSha256Hex(key, message)).toBe(
            createHmac("sha256", key).update(message).digest("hex"),
          );
        },
      ),
    );
  });
});

describe("threadedSha256()", () => {
  const nodeHex = (...parts: Uint8Array[]) => {
    const hash = createHash("sha256");
    for (const part of parts) hash.update(part);
    return hash.digest("hex");
  };

  it("hashes on a thread here, as node:crypto does, for any bytes in any chunks, copies included", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 2000 }),
        fc.array(fc.nat(300), { maxLength: 8 }),
        fc.nat(2000),
        (bytes, cuts, copyAt) => {
          const hash = threadedSha256();
          if (hash === null) throw new Error("no hashing thread under Node");
          let at = 0;
          let copied: { readonly at: number; readonly hash: Sha256 } | null = null;
          for (const cut of [...cuts, bytes.length]) {
            const end = Math.min(bytes.length, at + cut);
            hash.update(bytes.subarray(at, end));
            at = end;
            if (copied === null && at >= Math.min(copyAt, bytes.length))
              copied = { at, hash: hash.copy() };
          }
          expect(hash.hex()).toBe(nodeHex(bytes));
          if (copied !== null)
            expect(copied.hash.hex()).toBe(nodeHex(bytes.subarray(0, copied.at)));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("takes more than its shared slots hold, waiting for the thread, and hashes them all", () => {
    const block = new Uint8Array(3 << 20).map((_, i) => (i * 2654435761) >>> 24);
    const hash = threadedSha256() as Sha256;
    const other = threadedSha256() as Sha256;
    for (let i = 0; i < 12; i++) {
      hash.update(block);
      other.update(block.subarray(i));
    }
    const blocks = Array.from({ length: 12 }, () => block);
    expect(hash.hex()).toBe(nodeHex(...blocks));
    expect(other.hex()).toBe(nodeHex(...blocks.map((b, i) => b.subarray(i))));
  });
});

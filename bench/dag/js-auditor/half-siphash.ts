/**
 * HalfSipHash-1-3 (Aumasson, the 32-bit SipHash variant of the reference `halfsiphash.c`), keyed
 * with 64 random bits per table. The auditor's tables are filled from input (ids, paths), and a
 * keyed PRF is what keeps a crafted journal from colliding them into long probe chains — the
 * guarantee the kernel's SipHash-1-3 gives, with 32-bit words, which JavaScript computes natively.
 */

export class HalfSipHash {
  private readonly k0: number;
  private readonly k1: number;

  constructor() {
    const key = new Uint32Array(2);
    globalThis.crypto.getRandomValues(key);
    this.k0 = key[0] as number;
    this.k1 = key[1] as number;
  }

  /** The 32-bit hash of bytes[start .. start + length). */
  hash(bytes: Uint8Array, start: number, length: number): number {
    let v0 = this.k0;
    let v1 = this.k1;
    let v2 = 0x6c796765 ^ this.k0;
    let v3 = 0x74656462 ^ this.k1;
    const wordsEnd = start + (length & ~3);
    for (let at = start; at < wordsEnd; at += 4) {
      const m =
        (bytes[at] as number) |
        ((bytes[at + 1] as number) << 8) |
        ((bytes[at + 2] as number) << 16) |
        ((bytes[at + 3] as number) << 24);
      v3 ^= m;
      // One compression round.
      v0 = (v0 + v1) | 0;
      v1 = (v1 << 5) | (v1 >>> 27);
      v1 ^= v0;
      v0 = (v0 << 16) | (v0 >>> 16);
      v2 = (v2 + v3) | 0;
      v3 = (v3 << 8) | (v3 >>> 24);
      v3 ^= v2;
      v0 = (v0 + v3) | 0;
      v3 = (v3 << 7) | (v3 >>> 25);
      v3 ^= v0;
      v2 = (v2 + v1) | 0;
      v1 = (v1 << 13) | (v1 >>> 19);
      v1 ^= v2;
      v2 = (v2 << 16) | (v2 >>> 16);
      v0 ^= m;
    }
    let b = length << 24;
    const tail = start + length - wordsEnd;
    if (tail >= 3) b |= (bytes[wordsEnd + 2] as number) << 16;
    if (tail >= 2) b |= (bytes[wordsEnd + 1] as number) << 8;
    if (tail >= 1) b |= bytes[wordsEnd] as number;
    v3 ^= b;
    for (let round = 0; round < 4; round++) {
      // Round 0 compresses the last word; rounds 1-3 finalise.
      if (round === 1) {
        v0 ^= b;
        v2 ^= 0xff;
      }
      v0 = (v0 + v1) | 0;
      v1 = (v1 << 5) | (v1 >>> 27);
      v1 ^= v0;
      v0 = (v0 << 16) | (v0 >>> 16);
      v2 = (v2 + v3) | 0;
      v3 = (v3 << 8) | (v3 >>> 24);
      v3 ^= v2;
      v0 = (v0 + v3) | 0;
      v3 = (v3 << 7) | (v3 >>> 25);
      v3 ^= v0;
      v2 = (v2 + v1) | 0;
      v1 = (v1 << 13) | (v1 >>> 19);
      v1 ^= v2;
      v2 = (v2 << 16) | (v2 >>> 16);
    }
    return (v1 ^ v3) >>> 0;
  }
}

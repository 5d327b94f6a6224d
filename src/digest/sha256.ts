/**
 * SHA-256 (FIPS 180-4), streaming: `sha256()` gives Node's native hash where it runs on Node
 * (about 1–2 GB/s: a resumed gate hashes the whole journal prefix it skips), and
 * `PortableSha256`, in plain TypeScript (about 50 MB/s), elsewhere — in a browser, WebCrypto's
 * digest takes only whole buffers, and a journal prefix can be gigabytes. Both give the same
 * digests; the tests hold the portable one to Node's.
 */

/** A streaming SHA-256. */
export interface Sha256 {
  update(bytes: Uint8Array): this;
  /** An independent hash of the same bytes so far (to take a digest and keep hashing). */
  copy(): Sha256;
  /** The digest as lowercase hex. The hash cannot be updated after this. */
  hex(): string;
}

interface NodeHash {
  update(bytes: Uint8Array): NodeHash;
  copy(): NodeHash;
  digest(encoding: "hex"): string;
}

/** Node's crypto module, found without importing it (this file is bundled for browsers too). */
const nodeCrypto = (
  globalThis as {
    process?: { getBuiltinModule?: (id: string) => unknown };
  }
).process?.getBuiltinModule?.("node:crypto") as
  | { createHash(algorithm: "sha256"): NodeHash }
  | undefined;

/** A digest's bytes as lowercase hex, as `hex()` gives it (for digests taken on another thread). */
export function hexOfDigest(digest: Uint8Array): string {
  let text = "";
  for (const byte of digest) text += byte.toString(16).padStart(2, "0");
  return text;
}

/** A new SHA-256: Node's own where there is one. */
export function sha256(): Sha256 {
  return nodeCrypto === undefined
    ? new PortableSha256()
    : new NativeSha256(nodeCrypto.createHash("sha256"));
}

class NativeSha256 implements Sha256 {
  constructor(private readonly hash: NodeHash) {}

  update(bytes: Uint8Array): this {
    this.hash.update(bytes);
    return this;
  }

  copy(): Sha256 {
    return new NativeSha256(this.hash.copy());
  }

  hex(): string {
    return this.hash.digest("hex");
  }
}

const ROUND_CONSTANTS = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const INITIAL_STATE = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

export class PortableSha256 implements Sha256 {
  private readonly state = new Uint32Array(INITIAL_STATE);
  private readonly block = new Uint8Array(64);
  private readonly schedule = new Uint32Array(64);
  private blockLength = 0;
  private totalBytes = 0;

  update(bytes: Uint8Array): this {
    this.totalBytes += bytes.length;
    let at = 0;
    if (this.blockLength > 0) {
      const taken = Math.min(64 - this.blockLength, bytes.length);
      this.block.set(bytes.subarray(0, taken), this.blockLength);
      this.blockLength += taken;
      at = taken;
      if (this.blockLength < 64) return this;
      this.compress(this.block, 0);
      this.blockLength = 0;
    }
    for (; at + 64 <= bytes.length; at += 64) this.compress(bytes, at);
    this.block.set(bytes.subarray(at), 0);
    this.blockLength = bytes.length - at;
    return this;
  }

  copy(): PortableSha256 {
    const copy = new PortableSha256();
    copy.state.set(this.state);
    copy.block.set(this.block);
    copy.blockLength = this.blockLength;
    copy.totalBytes = this.totalBytes;
    return copy;
  }

  hex(): string {
    const bitLength = this.totalBytes * 8;
    const padding = new Uint8Array((this.blockLength < 56 ? 56 : 120) - this.blockLength + 8);
    padding[0] = 0x80;
    const view = new DataView(padding.buffer);
    view.setUint32(padding.length - 8, Math.floor(bitLength / 2 ** 32));
    view.setUint32(padding.length - 4, bitLength >>> 0);
    this.update(padding);
    return Array.from(this.state, (word) => word.toString(16).padStart(8, "0")).join("");
  }

  private compress(bytes: Uint8Array, at: number): void {
    const w = this.schedule;
    const view = new DataView(bytes.buffer, bytes.byteOffset + at, 64);
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(i * 4);
    for (let i = 16; i < 64; i++) {
      const w15 = word(w, i - 15);
      const w2 = word(w, i - 2);
      const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3);
      const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10);
      w[i] = word(w, i - 16) + s0 + word(w, i - 7) + s1;
    }
    const state = this.state;
    let a = word(state, 0);
    let b = word(state, 1);
    let c = word(state, 2);
    let d = word(state, 3);
    let e = word(state, 4);
    let f = word(state, 5);
    let g = word(state, 6);
    let h = word(state, 7);
    for (let i = 0; i < 64; i++) {
      const sum1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const choice = (e & f) ^ (~e & g);
      const t1 = (h + sum1 + choice + word(ROUND_CONSTANTS, i) + word(w, i)) | 0;
      const sum0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const majority = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (sum0 + majority) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    for (const [i, value] of [a, b, c, d, e, f, g, h].entries()) state[i] = word(state, i) + value;
  }
}

function word(words: Uint32Array, index: number): number {
  return words[index] as number;
}

function rotr(word: number, bits: number): number {
  return (word >>> bits) | (word << (32 - bits));
}

/**
 * SipHash-1-3 (Aumasson & Bernstein, "SipHash: a fast short-input PRF", 2012; the variant Rust's
 * standard HashMap uses) keyed with 128 random bits chosen by the host at load time. Both hash
 * tables of the kernel — DAG ids and surface paths — are filled from input, and a keyed PRF is
 * what keeps crafted inputs from colliding into long probe chains.
 *
 * The SipRound is written out twice (compression, finalisation) so the four lanes stay in locals.
 */

let key0: u64 = 0x0706050403020100;
let key1: u64 = 0x0f0e0d0c0b0a0908;

export function setHashKey(k0: u64, k1: u64): void {
  key0 = k0;
  key1 = k1;
}

export function hashBytes(pointer: usize, length: usize): u64 {
  let v0: u64 = key0 ^ 0x736f6d6570736575;
  let v1: u64 = key1 ^ 0x646f72616e646f6d;
  let v2: u64 = key0 ^ 0x6c7967656e657261;
  let v3: u64 = key1 ^ 0x7465646279746573;
  const wholeWords = length >> 3;
  // The last few bytes, read as a word and masked: the bytes past them are kernel memory (every
  // region has overread room after it), and a loop over them would mispredict its exit whenever
  // the length changes.
  const tailBytes = <u64>(length & 7);
  let tail: u64 = (<u64>length) << 56;
  if (tailBytes != 0) tail |= load<u64>(pointer + (wholeWords << 3)) & ((<u64>1 << (tailBytes << 3)) - 1);
  for (let w: usize = 0; w <= wholeWords; w++) {
    const m = w < wholeWords ? load<u64>(pointer + (w << 3)) : tail;
    v3 ^= m;
    v0 += v1;
    v1 = rotl<u64>(v1, 13);
    v1 ^= v0;
    v0 = rotl<u64>(v0, 32);
    v2 += v3;
    v3 = rotl<u64>(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = rotl<u64>(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = rotl<u64>(v1, 17);
    v1 ^= v2;
    v2 = rotl<u64>(v2, 32);
    v0 ^= m;
  }
  v2 ^= 0xff;
  for (let round = 0; round < 3; round++) {
    v0 += v1;
    v1 = rotl<u64>(v1, 13);
    v1 ^= v0;
    v0 = rotl<u64>(v0, 32);
    v2 += v3;
    v3 = rotl<u64>(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = rotl<u64>(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = rotl<u64>(v1, 17);
    v1 ^= v2;
    v2 = rotl<u64>(v2, 32);
  }
  return v0 ^ v1 ^ v2 ^ v3;
}

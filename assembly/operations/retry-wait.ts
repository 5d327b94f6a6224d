/**
 * The retry ladder (docs/models/operations.md, "The retry ladder"; mirrors
 * src/models/operations/retry-wait.ts), in exact integer arithmetic — no floating point:
 *
 *   e = min(max(n − 1, 0), 20); d = min(base · 2^e, maxDelay); half = floor(d / 2)
 *   draw = n · 2654435761, then draw = (draw · 31 + c) mod 2147483647 for each code point c
 *   wait = half + (draw mod (d − half + 1)); the result is max(wait, hint)
 *
 * n, base and maxDelay are safe integers (|x| ≤ 2^53 − 1), so: `base · 2^e ≤ maxDelay` is
 * decided as `base ≤ maxDelay >> e` (the product, up to 2^73, is never formed); the draw is
 * reduced mod 2147483647 before its first fold (n mod P < 2^31 times 2654435761 < 2^32 stays
 * below 2^63), and for an empty id — when `n · 2654435761` itself (up to 2^85) is the draw —
 * its residue mod d − half + 1 is a modular product. `mod` is the non-negative remainder.
 */

const MAX_EXPONENT: i64 = 20;
const DRAW_MULTIPLIER: i64 = 2654435761;
const DRAW_MODULUS: i64 = 2147483647;
const CODE_POINT_FACTOR: i64 = 31;

// @ts-expect-error: decorator
@inline
function nonNegativeMod(value: i64, modulus: i64): i64 {
  const remainder = value % modulus;
  return remainder < 0 ? remainder + modulus : remainder;
}

/** a · b mod m for 0 ≤ a, b < m ≤ 2^62, by doubling (no product wider than 64 bits). */
function mulMod(a: u64, b: u64, m: u64): u64 {
  let result: u64 = 0;
  a %= m;
  while (b != 0) {
    if (b & 1) {
      result += a;
      if (result >= m) result -= m;
    }
    a <<= 1;
    if (a >= m) a -= m;
    b >>= 1;
  }
  return result;
}

/** The next code point of the WTF-8 bytes at `at` (a lone surrogate is its own 3-byte form). */
let codePointBytes: usize = 1;

function codePointAt(at: usize): i64 {
  const lead = <u32>load<u8>(at);
  if (lead < 0x80) {
    codePointBytes = 1;
    return <i64>lead;
  }
  if (lead < 0xe0) {
    codePointBytes = 2;
    return <i64>(((lead & 0x1f) << 6) | (<u32>load<u8>(at + 1) & 0x3f));
  }
  if (lead < 0xf0) {
    codePointBytes = 3;
    return <i64>(((lead & 0x0f) << 12) | ((<u32>load<u8>(at + 1) & 0x3f) << 6) | (<u32>load<u8>(at + 2) & 0x3f));
  }
  codePointBytes = 4;
  return <i64>(
    ((lead & 0x07) << 18) |
    ((<u32>load<u8>(at + 1) & 0x3f) << 12) |
    ((<u32>load<u8>(at + 2) & 0x3f) << 6) |
    (<u32>load<u8>(at + 3) & 0x3f)
  );
}

/**
 * The wait before the retry of attempt `attempt` under effect id [id, id + idLength) (decoded
 * WTF-8), for a policy of `base` and `maxDelay`; `hint` is the provider's (−1: none).
 */
export function retryWait(base: i64, maxDelay: i64, attempt: i64, id: usize, idLength: usize, hint: i64): i64 {
  let exponent = attempt - 1;
  if (exponent < 0) exponent = 0;
  if (exponent > MAX_EXPONENT) exponent = MAX_EXPONENT;
  const ceiling = base <= maxDelay >> exponent ? base << exponent : maxDelay;
  const floor = ceiling / 2;
  const span = ceiling - floor + 1;
  let jitter: i64;
  if (idLength == 0) {
    jitter = <i64>mulMod(<u64>nonNegativeMod(attempt, span), <u64>(DRAW_MULTIPLIER % span), <u64>span);
  } else {
    let draw = <i64>((<u64>nonNegativeMod(attempt, DRAW_MODULUS) * <u64>DRAW_MULTIPLIER) % <u64>DRAW_MODULUS);
    for (let at = id; at < id + idLength; at += codePointBytes) {
      draw = (draw * CODE_POINT_FACTOR + codePointAt(at)) % DRAW_MODULUS;
    }
    jitter = draw % span;
  }
  const wait = floor + jitter;
  return wait > hint ? wait : hint;
}

/**
 * Which JSON numbers are integers, exactly as `Number.isSafeInteger(JSON.parse(text))` says
 * (docs/models/operations.md, "Records": "a JSON number whose value is a safe integer, as
 * `JSON.parse` reads it"). `JSON.parse` rounds the number's exact decimal value to the nearest
 * double (ties to even); that double is a safe integer when it is an integer of magnitude at
 * most 2^53 − 1. The decision is made on the decimal digits themselves — never by parsing to
 * f64 — so `3.0`, `1e3`, `-0`, `30000e-1`, `1.0000000000000001` (which rounds onto 1) and
 * `1e-400` (onto 0) are integers, and `9007199254740993` (onto 2^53) and `1.5` are not.
 *
 * For v = I + f (I the integer part, 0 < f < 1) below 2^52, the double nearest v is an integer
 * N exactly when v is within half a unit in the last place of N: |v − N| ≤ 2^p, where
 * 2^p = ulp(N) / 2 on the side v lies (a power of two N has half the ulp below it), and a tie
 * goes to N, whose mantissa is even. From 2^52 up the doubles are all integers, and from
 * 2^53 − 0.5 on they round to 2^53 or more. |v − N| and 2^p are compared digit by digit: 2^p
 * = 5^−p / 10^−p has exactly −p decimals.
 */

const MINUS: u32 = 0x2d;
const DOT: u32 = 0x2e;
const ZERO: u32 = 0x30;
const PLUS: u32 = 0x2b;

const SAFE_MAX: u64 = (1 << 53) - 1;
const TWO_52: u64 = 1 << 52;
/** Exponents saturate here: far beyond any digit count a line can hold. */
const EXPONENT_CAP: i64 = 1_000_000_000_000_000;
/** Half the smallest subnormal, 2^−1075: the largest |v| JSON.parse reads as (−)0. */
const ZERO_HALF_ULP_EXPONENT: i32 = 1075;
/** 2^−1075 ≈ 2.47e−324: its first nonzero decimal is the 324th. */
const ZERO_HALF_ULP_LEADING_ZEROS: i64 = 323;

/** Set by `isSafeIntegerNumber` when it answers true: the integer JSON.parse reads. */
export let integerValue: i64 = 0;

/** The number's digits: integer part then fraction, as one sequence (the point dropped). */
let intStart: usize = 0;
let intDigits: i64 = 0;
let fracStart: usize = 0;

// @ts-expect-error: decorator
@inline
function digitAt(i: i64): u32 {
  return i < intDigits
    ? <u32>load<u8>(intStart + <usize>i) - ZERO
    : <u32>load<u8>(fracStart + <usize>(i - intDigits)) - ZERO;
}

/** The fraction's digits: `leadingZeros` zeros, then the digits from `fracFirst` to `last`. */
let leadingZeros: i64 = 0;
let fracFirst: i64 = 0;
let lastDigit: i64 = 0;
let fracLength: i64 = 0;

/** Decimal j (0-based) after the point of f. */
function fractionDigit(j: i64): u32 {
  if (j < leadingZeros) return 0;
  const i = fracFirst + (j - leadingZeros);
  return i <= lastDigit ? digitAt(i) : 0;
}

/** Decimal j after the point of 1 − f (f has a nonzero last decimal, at fracLength − 1). */
function complementDigit(j: i64): u32 {
  if (j >= fracLength) return 0;
  const d = fractionDigit(j);
  return j == fracLength - 1 ? 10 - d : 9 - d;
}

/** The decimals of 2^−k = 5^k / 10^k, most significant first, k of them. */
const POWER_DIGITS_MAX: i32 = ZERO_HALF_ULP_EXPONENT;
const powerDigits = memory.data(POWER_DIGITS_MAX);
let powerDigitsOf: i32 = -1;

function computePowerDigits(k: i32): void {
  if (powerDigitsOf == k) return;
  // 5^k, little-endian decimal digits in the top of the block, then moved into place.
  memory.fill(powerDigits, 0, <usize>POWER_DIGITS_MAX);
  store<u8>(powerDigits, 1);
  let length = 1;
  for (let round = 0; round < k; round++) {
    let carry: u32 = 0;
    for (let i = 0; i < length; i++) {
      const product = <u32>load<u8>(powerDigits + <usize>i) * 5 + carry;
      store<u8>(powerDigits + <usize>i, <u8>(product % 10));
      carry = product / 10;
    }
    if (carry != 0) {
      store<u8>(powerDigits + <usize>length, <u8>carry);
      length++;
    }
  }
  // Reverse into most-significant-first order, right-aligned in k decimals.
  for (let i = 0, j = length - 1; i < j; i++, j--) {
    const t = load<u8>(powerDigits + <usize>i);
    store<u8>(powerDigits + <usize>i, load<u8>(powerDigits + <usize>j));
    store<u8>(powerDigits + <usize>j, t);
  }
  if (length < k) {
    memory.copy(powerDigits + <usize>(k - length), powerDigits, <usize>length);
    memory.fill(powerDigits, 0, <usize>(k - length));
  }
  powerDigitsOf = k;
}

/** Whether the distance (f, or 1 − f when `complement`) is at most 2^−k. */
function distanceAtMostPower(k: i32, complement: bool): bool {
  computePowerDigits(k);
  for (let j: i64 = 0; j < <i64>k; j++) {
    const g = complement ? complementDigit(j) : fractionDigit(j);
    const t = <u32>load<u8>(powerDigits + <usize>j);
    if (g != t) return g < t;
  }
  // Equal over 2^−k's decimals: a tie (rounds to N) unless the distance has more.
  return fracLength <= <i64>k;
}

/** floor(log2 n), n ≥ 1. */
// @ts-expect-error: decorator
@inline
function log2Floor(n: u64): i32 {
  return 63 - <i32>clz<u64>(n);
}

/**
 * The value of the `length` (1 to 8) bytes at `at` when they are all digits, else -1. The word
 * is shifted so the digits fill its top bytes — the bytes below read as leading zeros — and
 * combined pairwise (Lemire's eight-digit SWAR conversion). A carry out of a non-digit byte only
 * reaches bytes above it, and that byte alone fails the check.
 */
// @ts-expect-error: decorator
@inline
function eightDigits(at: usize, length: usize): i64 {
  const shift = <u64>(8 - length) << 3;
  const digits = load<u64>(at) << shift;
  const HIGH_NIBBLES: u64 = 0xf0f0f0f0f0f0f0f0;
  const THREES: u64 = 0x3030303030303030;
  const notDigits = ((digits & HIGH_NIBBLES) ^ THREES) | (((digits + 0x0606060606060606) & HIGH_NIBBLES) ^ THREES);
  if ((notDigits & (<u64>-1 << shift)) != 0) return -1;
  let v = ((digits & 0x0f0f0f0f0f0f0f0f) * 2561) >> 8;
  v = ((v & 0x00ff00ff00ff00ff) * 6553601) >> 16;
  return <i64>(((v & 0x0000ffff0000ffff) * 42949672960001) >> 32);
}

/**
 * Whether the JSON number [start, end) — already validated by json.ts — reads as a safe
 * integer; its value is then in `integerValue`.
 */
export function isSafeIntegerNumber(start: usize, end: usize): bool {
  let at = start;
  const negative = load<u8>(at) == MINUS;
  if (negative) at++;
  // The common case, at most eight plain digits: one word, checked and converted without a
  // branch per digit (a loop's exit mispredicts with every change of length).
  if (end - at - 1 < 8) {
    const plain = eightDigits(at, end - at);
    if (plain >= 0) {
      integerValue = negative ? -plain : plain;
      return true;
    }
  }
  // Plain digits below 10^15 (so below 2^53): read as they are.
  if (end - at <= 15) {
    let plain: i64 = 0;
    let digit = at;
    while (digit < end && <u32>load<u8>(digit) - ZERO <= 9) {
      plain = plain * 10 + <i64>(<u32>load<u8>(digit) - ZERO);
      digit++;
    }
    if (digit == end) {
      integerValue = negative ? -plain : plain;
      return true;
    }
  }
  intStart = at;
  while (at < end && <u32>load<u8>(at) - ZERO <= 9) at++;
  intDigits = <i64>(at - intStart);
  fracStart = at;
  let fracDigits: i64 = 0;
  if (at < end && load<u8>(at) == DOT) {
    at++;
    fracStart = at;
    while (at < end && <u32>load<u8>(at) - ZERO <= 9) at++;
    fracDigits = <i64>(at - fracStart);
  }
  let exponent: i64 = 0;
  if (at < end) {
    at++; // e or E
    let exponentNegative = false;
    const sign = <u32>load<u8>(at);
    if (sign == MINUS || sign == PLUS) {
      exponentNegative = sign == MINUS;
      at++;
    }
    while (at < end) {
      exponent = exponent * 10 + <i64>(<u32>load<u8>(at) - ZERO);
      if (exponent > EXPONENT_CAP) exponent = EXPONENT_CAP;
      at++;
    }
    if (exponentNegative) exponent = -exponent;
  }
  const digits = intDigits + fracDigits;
  let first: i64 = 0;
  while (first < digits && digitAt(first) == 0) first++;
  if (first == digits) {
    integerValue = 0; // 0 and −0 alike
    return true;
  }
  let last = digits - 1;
  while (digitAt(last) == 0) last--;
  const significant = last - first + 1;
  // Digits of the significant part before the decimal point (may be ≤ 0 or beyond them).
  const point = intDigits + exponent - first;
  if (point > 16) return false; // ≥ 10^16 > 2^53
  let whole: u64 = 0;
  const wholeDigits = point > 0 ? point : 0;
  for (let i: i64 = 0; i < wholeDigits; i++) {
    whole = whole * 10 + (first + i <= last ? <u64>digitAt(first + i) : 0);
  }
  if (point >= significant) {
    if (whole > SAFE_MAX) return false;
    integerValue = negative ? -<i64>whole : <i64>whole;
    return true;
  }
  // Not an integer: v = whole + f.
  leadingZeros = point < 0 ? -point : 0;
  fracFirst = first + wholeDigits;
  lastDigit = last;
  fracLength = leadingZeros + (last - fracFirst + 1);
  const head = fractionDigit(0);
  const below = head < 5; // f < 1/2
  const half = head == 5 && fracLength == 1;
  let nearest: u64;
  if (whole >= SAFE_MAX) {
    if (whole > SAFE_MAX || !below) return false;
    nearest = whole;
  } else if (whole >= TWO_52) {
    // Every double here is an integer: the nearest one, a tie to the even.
    nearest = below ? whole : half ? whole + (whole & 1) : whole + 1;
  } else {
    if (half) return false; // whole + 1/2 is itself a double
    if (below) {
      if (whole == 0) {
        if (leadingZeros < ZERO_HALF_ULP_LEADING_ZEROS) return false;
        if (!distanceAtMostPower(ZERO_HALF_ULP_EXPONENT, false)) return false;
      } else if (!distanceAtMostPower(53 - log2Floor(whole), false)) {
        return false;
      }
      nearest = whole;
    } else {
      nearest = whole + 1;
      const powerOfTwo = (nearest & (nearest - 1)) == 0;
      if (!distanceAtMostPower(53 - log2Floor(nearest) + (powerOfTwo ? 1 : 0), true)) return false;
    }
  }
  integerValue = negative ? -<i64>nearest : <i64>nearest;
  return true;
}

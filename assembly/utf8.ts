/**
 * Strict UTF-8 validation, exactly what a fatal TextDecoder accepts (Unicode 15, table 3-7):
 * no overlong forms, no encoded surrogates, nothing above U+10FFFF, no truncated sequence.
 * Only lines holding a byte ≥ 0x80 come here; ASCII lines skip it.
 */
export function isValidUtf8(start: usize, end: usize): bool {
  return isUtf8Form(start, end, false);
}

/**
 * Whether the bytes are WTF-8 as the kernel writes decoded ids: UTF-8 that may also hold lone
 * surrogates in their 3-byte form. For bytes that come from outside a line (a snapshot).
 */
export function isWtf8(start: usize, end: usize): bool {
  return isUtf8Form(start, end, true);
}

// @ts-expect-error: decorator
@inline
function isUtf8Form(start: usize, end: usize, surrogates: bool): bool {
  let at = start;
  while (at < end) {
    const lead = <u32>load<u8>(at);
    if (lead < 0x80) {
      at += 1;
      continue;
    }
    let length: usize;
    let low: u32 = 0x80; // the second byte's allowed range; later bytes are always 80..BF
    let high: u32 = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) {
      length = 2;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead == 0xe0) low = 0xa0;
      else if (lead == 0xed && !surrogates) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead == 0xf0) low = 0x90;
      else if (lead == 0xf4) high = 0x8f;
    } else {
      return false;
    }
    if (at + length > end) return false;
    const second = <u32>load<u8>(at + 1);
    if (second < low || second > high) return false;
    for (let i: usize = 2; i < length; i++) {
      if ((<u32>load<u8>(at + i) & 0xc0) != 0x80) return false;
    }
    at += length;
  }
  return true;
}

/**
 * Strict UTF-8 validation: exactly what a fatal `TextDecoder` accepts (Unicode 15, table 3-7) —
 * no overlong forms, no encoded surrogates, nothing above U+10FFFF, no truncated sequence. The
 * auditor runs it only on lines that hold a byte ≥ 0x80 or that are not JSON.
 */

export function isValidUtf8(bytes: Uint8Array, start: number, end: number): boolean {
  let at = start;
  while (at < end) {
    const lead = bytes[at] as number;
    if (lead < 0x80) {
      at += 1;
      continue;
    }
    let length: number;
    let low = 0x80; // the second byte's range; later bytes are always 80..BF
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) {
      length = 2;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      else if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      else if (lead === 0xf4) high = 0x8f;
    } else {
      return false;
    }
    if (at + length > end) return false;
    const second = bytes[at + 1] as number;
    if (second < low || second > high) return false;
    for (let i = 2; i < length; i++) {
      if (((bytes[at + i] as number) & 0xc0) !== 0x80) return false;
    }
    at += length;
  }
  return true;
}

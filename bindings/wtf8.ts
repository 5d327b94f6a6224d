/**
 * WTF-8: UTF-8 extended to lone surrogates, the kernel's encoding of ids and paths. A JavaScript
 * string is a sequence of UTF-16 code units and JSON can spell a lone surrogate (`"\ud800"`), so
 * ids must survive one; TextEncoder would replace it with U+FFFD and merge distinct ids.
 */

export function encodeWtf8(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length * 3);
  return bytes.subarray(0, encodeWtf8Into(text, bytes, 0));
}

/**
 * Writes `text` as WTF-8 into `bytes` from `at`, which must have room for 3 bytes per UTF-16 code
 * unit; returns where it ends.
 */
export function encodeWtf8Into(text: string, bytes: Uint8Array, at: number): number {
  for (let i = 0; i < text.length; i++) {
    let unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit < 0xdc00 && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low < 0xe000) {
        unit = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        i += 1;
      }
    }
    if (unit < 0x80) {
      bytes[at++] = unit;
    } else if (unit < 0x800) {
      bytes[at++] = 0xc0 | (unit >> 6);
      bytes[at++] = 0x80 | (unit & 0x3f);
    } else if (unit < 0x10000) {
      bytes[at++] = 0xe0 | (unit >> 12);
      bytes[at++] = 0x80 | ((unit >> 6) & 0x3f);
      bytes[at++] = 0x80 | (unit & 0x3f);
    } else {
      bytes[at++] = 0xf0 | (unit >> 18);
      bytes[at++] = 0x80 | ((unit >> 12) & 0x3f);
      bytes[at++] = 0x80 | ((unit >> 6) & 0x3f);
      bytes[at++] = 0x80 | (unit & 0x3f);
    }
  }
  return at;
}

/** Strict: bytes that are not UTF-8 (a lone surrogate's WTF-8 among them) throw; a BOM is kept. */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Code units turned into a string at a time: `String.fromCharCode` takes them as arguments. */
const UNITS_PER_PIECE = 8192;

/**
 * Decodes bytes the kernel produced (valid WTF-8 by construction). They are UTF-8 unless they hold
 * a lone surrogate, and the native decoder reads those; a string built one code point at a time
 * would be a rope of as many pieces (a 50 MB id took 2 GB and 20 s so).
 */
export function decodeWtf8(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return decodeWithLoneSurrogates(bytes);
  }
}

function decodeWithLoneSurrogates(bytes: Uint8Array): string {
  const units = new Uint16Array(bytes.length);
  let count = 0;
  for (let at = 0; at < bytes.length; ) {
    const lead = bytes[at] as number;
    const length = lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
    let codePoint = length === 1 ? lead : lead & (0xff >> (length + 1));
    for (let i = 1; i < length; i++)
      codePoint = (codePoint << 6) | ((bytes[at + i] as number) & 0x3f);
    if (codePoint < 0x10000) {
      units[count++] = codePoint;
    } else {
      units[count++] = 0xd800 + ((codePoint - 0x10000) >> 10);
      units[count++] = 0xdc00 + ((codePoint - 0x10000) & 0x3ff);
    }
    at += length;
  }
  let text = "";
  for (let from = 0; from < count; from += UNITS_PER_PIECE) {
    text += String.fromCharCode(...units.subarray(from, Math.min(count, from + UNITS_PER_PIECE)));
  }
  return text;
}

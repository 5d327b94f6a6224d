/**
 * WTF-8: UTF-8 extended to lone surrogates. A DAG id is a JavaScript string, and JSON can spell
 * a lone surrogate (`"\ud800"`), so ids are compared as WTF-8 bytes — what the scanner decodes a
 * JSON string to — which `TextEncoder` (it writes U+FFFD for a lone surrogate) cannot give.
 */

export function encodeWtf8(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length * 3);
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i) as number; // a lone surrogate comes back as itself
    if (cp > 0xffff) i += 1;
    if (cp < 0x80) {
      bytes[at++] = cp;
    } else if (cp < 0x800) {
      bytes[at++] = 0xc0 | (cp >> 6);
      bytes[at++] = 0x80 | (cp & 0x3f);
    } else if (cp < 0x10000) {
      bytes[at++] = 0xe0 | (cp >> 12);
      bytes[at++] = 0x80 | ((cp >> 6) & 0x3f);
      bytes[at++] = 0x80 | (cp & 0x3f);
    } else {
      bytes[at++] = 0xf0 | (cp >> 18);
      bytes[at++] = 0x80 | ((cp >> 12) & 0x3f);
      bytes[at++] = 0x80 | ((cp >> 6) & 0x3f);
      bytes[at++] = 0x80 | (cp & 0x3f);
    }
  }
  return bytes.subarray(0, at);
}

/** Bytes for tests: text as UTF-8, and several byte runs joined into one. */

const utf8 = new TextEncoder();

/** `text` as UTF-8 bytes (one parameter, so `strings.map(encode)` works). */
export function encode(text: string): Uint8Array {
  return utf8.encode(text);
}

/** The parts, one after another, in a new array. */
export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

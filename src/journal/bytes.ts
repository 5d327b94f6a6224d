/** The pieces joined into one array; a single piece is returned as it is, not copied. */
export function concatBytes(pieces: readonly Uint8Array[]): Uint8Array {
  if (pieces.length === 1) return pieces[0] as Uint8Array;
  const joined = new Uint8Array(pieces.reduce((length, piece) => length + piece.length, 0));
  let offset = 0;
  for (const piece of pieces) {
    joined.set(piece, offset);
    offset += piece.length;
  }
  return joined;
}

/**
 * Node's Buffer, where there is one (a browser has none): native byte work — `equals` is the C
 * library's memcmp, `indexOf` its memchr — where JavaScript's loops would run a one-shot pass over
 * megabytes before they are optimized, several times slower.
 */
export const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

/** Searches this far ahead and more go through Node's Buffer (memchr), fewer through the array's own search. */
const NATIVE_SEARCH_BYTES = 1 << 16;

/**
 * Where `byte` next occurs in `bytes` from `from` on, or -1. A header's line feed is megabytes
 * ahead: the typed array's own `indexOf` walks there at ~3 GB/s, Node's Buffer (the C library's
 * memchr) at ~25 GB/s, which a 5 MB header reads twice before it is audited.
 */
export function indexOfByte(bytes: Uint8Array, byte: number, from: number): number {
  if (NodeBuffer === undefined || bytes.length - from < NATIVE_SEARCH_BYTES) {
    return bytes.indexOf(byte, from);
  }
  return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(byte, from);
}

/** Whether the two hold the same bytes (headers are megabytes). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  if (NodeBuffer !== undefined) {
    const bufferOf = (bytes: Uint8Array) =>
      NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return bufferOf(a).equals(bufferOf(b));
  }
  let from = 0;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = a.length >>> 2;
    const wordsOfA = new Int32Array(a.buffer, a.byteOffset, words);
    const wordsOfB = new Int32Array(b.buffer, b.byteOffset, words);
    for (let i = 0; i < words; i++) if (wordsOfA[i] !== wordsOfB[i]) return false;
    from = words * 4;
  }
  for (let i = from; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

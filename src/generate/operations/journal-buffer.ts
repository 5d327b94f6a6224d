/**
 * A generated journal's bytes as its runtime writes them: each record goes straight into one
 * reused buffer — its fixed parts from templates made once, its integers two digits at a time —
 * and leaves it in pieces of whole lines. A string per record, joined into pieces that were then
 * encoded for the output, spent most of `gen`'s time concatenating, flattening, collecting and
 * encoding.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Writes a fixed part of a record at the buffer's end and moves the end past it. It may write
 * up to three bytes of padding beyond, which whatever comes next writes over.
 */
export type Template = (out: JournalBuffer) => void;

/**
 * A fixed part of a record, stored four bytes at a time. `Uint8Array.set` from a copy of the bytes
 * costs some 15 ns a call however short the part, and a loop over single bytes about a nanosecond
 * a byte: either made `gen` a fifth slower.
 */
export function template(text: string): Template {
  const bytes = encoder.encode(text);
  const padded = new DataView(new ArrayBuffer(Math.ceil(bytes.length / 4) * 4));
  new Uint8Array(padded.buffer).set(bytes);
  const words = Uint32Array.from({ length: padded.byteLength / 4 }, (_, i) =>
    padded.getUint32(i * 4, true),
  );
  return (out) => {
    const view = out.view;
    const at = out.length;
    for (let i = 0; i < words.length; i++) view.setUint32(at + i * 4, words[i] as number, true);
    out.length = at + bytes.length;
  };
}

/** The room each record is given before it is written: several times the longest one. */
const RECORD_ROOM = 4096;

/** A buffer this long at most is allocated at first; a longer piece grows it as it fills. */
const PIECE_BYTES_ALLOCATED_MAX = 1024 * 1024;

const ZERO = 48;

/** 00 to 99, each as the little-endian 16-bit word of its two digits. */
const DIGIT_PAIRS = Uint16Array.from(
  { length: 100 },
  (_, pair) => ZERO + Math.floor(pair / 10) + (ZERO + (pair % 10)) * 256,
);

export class JournalBuffer {
  private bytes: Uint8Array;
  /** A view of the buffer, for templates. */
  view: DataView;
  /** The bytes written since the last piece left. */
  length = 0;

  /** `pieceBytes`: a piece is ready to leave once it holds at least this many bytes. */
  constructor(private readonly pieceBytes: number) {
    this.bytes = new Uint8Array(Math.min(pieceBytes, PIECE_BYTES_ALLOCATED_MAX) + RECORD_ROOM);
    this.view = new DataView(this.bytes.buffer);
  }

  get full(): boolean {
    return this.length >= this.pieceBytes;
  }

  /** Called before each record, so that the writes within one need no check. */
  reserve(): void {
    if (this.bytes.length - this.length >= RECORD_ROOM) return;
    const grown = new Uint8Array(this.bytes.length * 2);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }

  putBytes(bytes: Uint8Array): void {
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** An integer in decimal, as `String` writes it. */
  int(value: number): void {
    let rest = value | 0;
    // Int32 arithmetic is several times faster than double's; the rare rest takes the long way.
    if (rest !== value || rest < 0) {
      this.putBytes(encoder.encode(String(value)));
      return;
    }
    const view = this.view;
    let end = this.length + digitCount(rest);
    this.length = end;
    while (rest >= 100) {
      const quotient = (rest / 100) | 0;
      end -= 2;
      view.setUint16(end, DIGIT_PAIRS[rest - quotient * 100] as number, true);
      rest = quotient;
    }
    if (rest >= 10) view.setUint16(end - 2, DIGIT_PAIRS[rest] as number, true);
    else view.setUint8(end - 1, ZERO + rest);
  }

  /** A copy of the bytes written from `start` on. */
  copyFrom(start: number): Uint8Array {
    return this.bytes.slice(start, this.length);
  }

  /** The text written from `start` on. */
  textFrom(start: number): string {
    return decoder.decode(this.bytes.subarray(start, this.length));
  }

  /** The piece, as a view of the buffer: the next piece is written over it. */
  take(): Uint8Array {
    const piece = this.bytes.subarray(0, this.length);
    this.length = 0;
    return piece;
  }

  /** The piece as text. */
  takeText(): string {
    const text = this.textFrom(0);
    this.length = 0;
    return text;
  }

  /** Drops the piece. */
  clear(): void {
    this.length = 0;
  }
}

function digitCount(value: number): number {
  if (value < 100_000)
    return value < 10 ? 1 : value < 100 ? 2 : value < 1000 ? 3 : value < 10_000 ? 4 : 5;
  return value < 1_000_000
    ? 6
    : value < 10_000_000
      ? 7
      : value < 100_000_000
        ? 8
        : value < 1_000_000_000
          ? 9
          : 10;
}

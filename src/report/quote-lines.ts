/**
 * `quoteLines`: picks some lines out of a journal's bytes, as written, in one streaming pass —
 * so quoting the context of a finding near the end of a large journal keeps no more than the
 * quoted bytes. Pure (a stream of chunks in, no file system), so a browser can feed it
 * `File.stream()`.
 *
 * Lines are split as the JSONL reader splits them (docs/journals.md): on `\n`, with a `\r` just before
 * it belonging to the line end. A `.lisp-expr` entry's line is the one it starts on, which is
 * what is quoted of it.
 */

/** Events quoted before the one a finding is about. */
export const CONTEXT_EVENTS_BEFORE = 3;
/** Bytes quoted of one journal line; a longer line is cut and marked so. */
export const QUOTED_LINE_BYTES_MAX = 1024;

/**
 * A journal line as written, cut at `QUOTED_LINE_BYTES_MAX` bytes; a cut line says how long it
 * is (in bytes, its line end aside), so that the page can say what it left out.
 */
export type QuotedLine =
  | { readonly text: string; readonly cut: false }
  | { readonly text: string; readonly cut: true; readonly bytes: number };

/** A journal line as written (cut at `QUOTED_LINE_BYTES_MAX`), or the event as JSON without one. */
export type QuotedEvent = QuotedLine & {
  /** The event's index; null for a torn tail, which is not an event. */
  readonly index: number | null;
  readonly line?: number;
};

const LF = 0x0a;
const CR = 0x0d;

/**
 * The 1-based lines `wanted` of the journal, each cut at `QUOTED_LINE_BYTES_MAX` bytes. Reading
 * stops after the last wanted line. Chunks may share one reused buffer.
 */
export async function quoteLines(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  wanted: readonly number[],
): Promise<Map<number, QuotedLine>> {
  const quoted = new Map<number, QuotedLine>();
  const want = new Set(wanted);
  const lastWanted = wanted.reduce((last, line) => Math.max(last, line), 0);
  const capture = new LineCapture();
  let line = 1;
  for await (const chunk of chunks) {
    for (let at = 0; at < chunk.length; ) {
      if (line > lastWanted) return quoted;
      const lineFeed = chunk.indexOf(LF, at);
      const end = lineFeed < 0 ? chunk.length : lineFeed;
      if (want.has(line)) capture.append(chunk.subarray(at, end));
      if (lineFeed < 0) break;
      if (want.has(line)) quoted.set(line, capture.take(true));
      line += 1;
      at = lineFeed + 1;
    }
  }
  // An unterminated last line (a torn tail) ends with the input.
  if (want.has(line) && !quoted.has(line)) quoted.set(line, capture.take(false));
  return quoted;
}

/**
 * The first `QUOTED_LINE_BYTES_MAX` bytes of one line, gathered across chunks, and the length of
 * the whole line: a line of 50 MB costs its count, not its bytes.
 */
class LineCapture {
  private readonly bytes = new Uint8Array(QUOTED_LINE_BYTES_MAX);
  private length = 0;
  private lineBytes = 0;
  private lastByte = -1;

  append(part: Uint8Array): void {
    if (part.length === 0) return;
    const kept = part.subarray(0, QUOTED_LINE_BYTES_MAX - this.length);
    this.bytes.set(kept, this.length);
    this.length += kept.length;
    this.lineBytes += part.length;
    this.lastByte = part[part.length - 1] as number;
  }

  /** The line so far, decoded, and a fresh capture for the next. */
  take(endedByLineFeed: boolean): QuotedLine {
    // A `\r` before the line feed belongs to the line end (docs/journals.md, "Lines").
    const lineBytes = this.lineBytes - (endedByLineFeed && this.lastByte === CR ? 1 : 0);
    const cut = lineBytes > QUOTED_LINE_BYTES_MAX;
    const length = Math.min(this.length, lineBytes);
    // Invalid UTF-8 shows as U+FFFD; a sequence split by the cut is held back by `stream`, not
    // shown as a replacement character that is not in the journal.
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(
      this.bytes.subarray(0, length),
      { stream: cut },
    );
    this.length = 0;
    this.lineBytes = 0;
    this.lastByte = -1;
    return cut ? { text, cut, bytes: lineBytes } : { text, cut };
  }
}

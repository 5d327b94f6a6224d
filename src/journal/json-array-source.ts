/**
 * The records of a journal that is one JSON document (docs/journals.md, "Journals that are JSON
 * documents"): the elements of the first array, in document order, that one of the model's paths
 * leads to — `{"events": [...]}`, `{"history": {"events": [...]}}`, a bare `[...]`. A Temporal or
 * Step Functions export may be gigabytes, so the document is read as a stream of chunks and
 * never held whole: what is kept is the container stack, the element being read (memory is
 * bounded by the largest element) and, before the array is found, the key being read.
 *
 * Contract:
 * - The whole document, inside the array and out, must be what `JSON.parse` accepts over strict
 *   UTF-8 (a BOM is not stripped: it is a character where a value was expected). The first break
 *   throws a `JournalError` naming the file, the line and column (in code points) and the byte
 *   offset, and what was expected and found. Elements handed over before a break was found are
 *   no less refused with the document: the caller refuses the journal as a whole.
 * - A path walks objects only (a `{suffix}` step is the first member, in the object's document
 *   order, whose key ends with the suffix; the path `[]` is the document itself). A document
 *   that is valid JSON but where no path leads to an array is refused on `end()`.
 * - **A repeated key.** `JSON.parse` keeps a repeated key's last value, which a stream can only
 *   know at the object's end. Here every occurrence of a member a path names is followed, and
 *   the first array reached wins: `{"events": [1], "events": [2]}` gives the elements of `[1]`
 *   (where `JSON.parse` would give `[2]`), and `{"events": 5, "events": [1]}` those of `[1]`. A
 *   suffix step's member is the first key that ends with the suffix; every occurrence of that
 *   key is followed, and no other key's.
 * - **Chunk boundaries** change nothing: a chunk may end anywhere, inside a UTF-8 sequence, an
 *   escape, a number or a key; the elements, their offsets and lines, and any error are the same.
 *
 * Not `walkJson` (json-walk.ts): that walker reads a whole UTF-16 string and looks ahead freely
 * (an escape's four hex digits, a literal's letters), where this reader must stop at any byte
 * and go on with the next chunk, count byte offsets and check UTF-8 itself; its grammar is
 * written here as a byte state machine instead, with the same words for what was expected.
 */
import type { Path } from "../models/data/compiled.js";
import { JournalError } from "./errors.js";
import { describeCharacterAt } from "./json-walk.js";

/** One element of the records array. */
export interface ArrayElement {
  /** Byte offset of its first byte in the document. */
  readonly start: number;
  /** Byte offset just past its last byte. */
  readonly end: number;
  /** The 1-based line of the document it starts on. */
  readonly line: number;
  /**
   * Its bytes (`end - start` of them): a view of the chunk when it lies in one, valid until the
   * next `push` (a reader of files reuses its buffers); a copy when it spans chunks.
   */
  readonly bytes: Uint8Array;
}

/**
 * The elements of the records array of a document given as a stream of chunks.
 * `push` each chunk in order, then `end()`: each call returns the elements it completed.
 */
export class JsonArraySource {
  private readonly scanner: Scanner;

  constructor(paths: readonly Path[], file: string) {
    this.scanner = new Scanner(paths, file);
  }

  /** The elements completed in `chunk`; a `JournalError` when the document breaks in it. */
  push(chunk: Uint8Array): readonly ArrayElement[] {
    return this.scanner.push(chunk);
  }

  /** Checks that the document ended where it may, and that the records array was found. */
  end(): void {
    this.scanner.end();
  }
}

/**
 * The elements of the records array of the document `chunks` make, as they complete. An
 * element's `bytes` stay valid until the next element is asked for (the next chunk is not read
 * before), whatever the chunks' reader does with its buffers.
 */
export async function* jsonArrayElements(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  paths: readonly Path[],
  file: string,
): AsyncGenerator<ArrayElement> {
  const source = new JsonArraySource(paths, file);
  for await (const chunk of chunks) yield* source.push(chunk);
  source.end();
}

/** How a path is written in a model file, and so in messages: `history.events`, `*Attributes`. */
export function formatPath(path: Path): string {
  if (path.length === 0) return "the document itself";
  return path.map((step) => ("member" in step ? step.member : `*${step.suffix}`)).join(".");
}

// The scanner's states: what the next byte may be.
const VALUE = 0;
const ARRAY_FIRST = 1;
const OBJECT_FIRST = 2;
const KEY = 3;
const COLON = 4;
const AFTER_VALUE = 5;
const STRING = 6;
const ESCAPE = 7;
const UNICODE_ESCAPE = 8;
const UTF8_CONTINUATION = 9;
const NUMBER_MINUS = 10;
const NUMBER_ZERO = 11;
const NUMBER_INTEGER = 12;
const NUMBER_POINT = 13;
const NUMBER_FRACTION = 14;
const NUMBER_EXPONENT = 15;
const NUMBER_EXPONENT_SIGN = 16;
const NUMBER_EXPONENT_DIGITS = 17;
const LITERAL = 18;

const OBJECT = 0;
const ARRAY = 1;

/** `recordsDepth` before the records array is found, and after it closed. */
const LOOKING = -1;
const FOUND = -2;

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const COMMA = 0x2c;
const MINUS = 0x2d;
const POINT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const COLON_CHAR = 0x3a;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

const ESCAPED = new Set([...'"\\/bfnrt'].map((char) => char.charCodeAt(0)));
const LITERALS: Readonly<Record<number, string>> = { 116: "true", 102: "false", 110: "null" };

/** Keys are decoded only once the scanner has checked their UTF-8. */
const UTF8 = new TextDecoder();

const A_KEY = "a key (a string in double quotes)";
const AN_ESCAPE = 'an escape: one of " \\ / b f n r t or uXXXX';

/**
 * What a reader of documents expected where one broke, in the order the data kernel numbers them
 * (assembly/data/document.ts, `Expected`): the kernel's reader and this one word a break alike.
 */
export const DOCUMENT_EXPECTATIONS: readonly string[] = [
  "a value",
  "a value or ']'",
  `${A_KEY} or '}'`,
  A_KEY,
  "':'",
  "',' or '}'",
  "',' or ']'",
  "'\"' to close the string",
  AN_ESCAPE,
  "a UTF-8 continuation byte",
  "'true'",
  "'false'",
  "'null'",
  "a digit",
  "the end of the text",
  "a character (control characters must be escaped)",
  "UTF-8",
];

/** A document that breaks at byte `offset` (on `line`, at `column` in code points). */
export function documentBreak(
  file: string,
  expected: string,
  found: string,
  offset: number,
  line: number,
  column: number,
): JournalError {
  return new JournalError(
    file,
    `expected ${expected}, found ${found} at byte ${offset}`,
    line,
    column,
  );
}

/** A byte that is no UTF-8 where it stands, as a break names it. */
export function describeByte(byte: number): string {
  return `byte 0x${byte.toString(16).toUpperCase().padStart(2, "0")}`;
}

/** A document, valid JSON, where none of `paths` leads to an array. */
export function noRecordsArray(paths: readonly Path[], file: string): JournalError {
  const looked = paths.map((path) => formatPath(path));
  const where = looked.length === 1 ? looked[0] : `one of: ${looked.join(", ")}`;
  return new JournalError(file, `expected an array of records at ${where}; found none`);
}

/** A path and how many of its steps lead to the value at hand. */
interface PathMatch {
  readonly path: Path;
  readonly steps: number;
}

/** An object some paths lead into: for each, the key its suffix step chose, once one did. */
interface ObjectMatches {
  readonly matches: readonly PathMatch[];
  readonly suffixKeys: (string | undefined)[];
}

/** Bytes from a mark to a later point, kept across chunks. */
class Capture {
  private readonly parts: Uint8Array[] = [];
  /** Where the capture starts in the current chunk; -1 when nothing is captured. */
  private from = -1;

  begin(index: number): void {
    this.from = index;
    this.parts.length = 0;
  }

  chunkEnded(chunk: Uint8Array): void {
    if (this.from < 0) return;
    this.parts.push(chunk.slice(this.from));
    this.from = 0;
  }

  finish(chunk: Uint8Array, end: number): Uint8Array {
    const last = chunk.subarray(this.from, end);
    this.from = -1;
    if (this.parts.length === 0) return last;
    this.parts.push(last);
    const whole = new Uint8Array(this.parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of this.parts) {
      whole.set(part, at);
      at += part.length;
    }
    this.parts.length = 0;
    return whole;
  }
}

/** Where a character out of place starts, while its UTF-8 sequence is read to name it. */
interface Stray {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  readonly expected: string;
}

class Scanner {
  private state = VALUE;
  /** The open containers, outermost first. */
  private readonly containers: number[] = [];
  /** Per open container, the paths that lead into it (objects only, while looking). */
  private readonly objectMatches: (ObjectMatches | null)[] = [];
  /** The paths that lead to the value about to start; the document itself at first. */
  private matchesAhead: readonly PathMatch[] | null;
  /** The depth of the records array's elements while inside it; LOOKING before, FOUND after. */
  private recordsDepth = LOOKING;

  /** Bytes of the document before the current chunk. */
  private base = 0;
  private chunk: Uint8Array = new Uint8Array(0);
  private elements: ArrayElement[] = [];

  private line = 1;
  /** Where the current line starts, and how many UTF-8 continuation bytes it has had so far. */
  private lineStart = 0;
  private continuations = 0;

  private readonly element = new Capture();
  private elementStart = 0;
  private elementLine = 0;
  private readonly key = new Capture();
  private inKey = false;
  private capturingKey = false;

  /** Hex digits an `\u` escape still needs. */
  private hexDigitsLeft = 0;
  /** Continuation bytes a UTF-8 sequence still needs, the range the next one must be in. */
  private continuationsLeft = 0;
  private continuationLow = 0x80;
  private continuationHigh = 0xbf;
  private codePoint = 0;
  /** The column of the UTF-8 sequence being read: where a break inside it is reported. */
  private sequenceColumn = 0;
  private stray: Stray | null = null;
  private literal = "";
  private literalIndex = 0;

  constructor(
    private readonly paths: readonly Path[],
    private readonly file: string,
  ) {
    this.matchesAhead = paths.map((path) => ({ path, steps: 0 }));
  }

  push(chunk: Uint8Array): ArrayElement[] {
    this.chunk = chunk;
    this.elements = [];
    let i = 0;
    while (i < chunk.length) i = this.step(chunk, i);
    this.element.chunkEnded(chunk);
    this.key.chunkEnded(chunk);
    this.base += chunk.length;
    return this.elements;
  }

  end(): void {
    this.chunk = new Uint8Array(0);
    const expected = this.expectedAtEnd();
    if (expected !== null) this.fail(0, expected, "the end of the text");
    if (this.recordsDepth === LOOKING) throw noRecordsArray(this.paths, this.file);
  }

  /** What the document still needed when it ended; null when it may end there. */
  private expectedAtEnd(): string | null {
    if (this.state >= NUMBER_MINUS && this.state <= NUMBER_EXPONENT_DIGITS) {
      if (this.endsNumber()) this.state = AFTER_VALUE;
    }
    if (this.state === AFTER_VALUE && this.containers.length === 0) return null;
    return this.expected();
  }

  private expected(): string {
    switch (this.state) {
      case VALUE:
        return "a value";
      case ARRAY_FIRST:
        return "a value or ']'";
      case OBJECT_FIRST:
        return `${A_KEY} or '}'`;
      case KEY:
        return A_KEY;
      case COLON:
        return "':'";
      case AFTER_VALUE:
        return this.containers.at(-1) === OBJECT ? "',' or '}'" : "',' or ']'";
      case STRING:
        return "'\"' to close the string";
      case ESCAPE:
      case UNICODE_ESCAPE:
        return AN_ESCAPE;
      case UTF8_CONTINUATION:
        return "a UTF-8 continuation byte";
      case LITERAL:
        return `'${this.literal}'`;
      default:
        return "a digit";
    }
  }

  /** Reads from `i` on; returns where to go on. */
  private step(chunk: Uint8Array, i: number): number {
    switch (this.state) {
      case STRING:
        return this.scanString(chunk, i);
      case ESCAPE:
        return this.escape(chunk[i] as number, i);
      case UNICODE_ESCAPE:
        return this.hexDigit(chunk[i] as number, i);
      case UTF8_CONTINUATION:
        return this.continuation(chunk[i] as number, i);
      case LITERAL:
        return this.literalByte(chunk[i] as number, i);
      default:
        if (this.state >= NUMBER_MINUS) return this.numberByte(chunk[i] as number, i);
        return this.structural(chunk, i);
    }
  }

  /** A byte between tokens. */
  private structural(chunk: Uint8Array, from: number): number {
    const i = this.skipWhitespace(chunk, from);
    if (i === chunk.length) return i;
    const byte = chunk[i] as number;
    if (byte >= 0x80) return this.beginStray(byte, i);
    switch (this.state) {
      case VALUE:
        return this.beginValue(byte, i);
      case ARRAY_FIRST:
        return byte === CLOSE_ARRAY ? this.close(i) : this.beginValue(byte, i);
      case OBJECT_FIRST:
        if (byte === CLOSE_OBJECT) return this.close(i);
        return this.beginKey(byte, i, `${A_KEY} or '}'`);
      case KEY:
        return this.beginKey(byte, i, A_KEY);
      case COLON:
        if (byte !== COLON_CHAR) this.fail(i, "':'");
        this.state = VALUE;
        return i + 1;
      default:
        return this.afterValue(byte, i);
    }
  }

  /** Where the run of white space from `from` ends (a pretty-printed export is much of it). */
  private skipWhitespace(chunk: Uint8Array, from: number): number {
    let i = from;
    for (; i < chunk.length; i += 1) {
      const byte = chunk[i];
      if (byte === LF) {
        this.line += 1;
        this.lineStart = this.base + i + 1;
        this.continuations = 0;
      } else if (byte !== SPACE && byte !== TAB && byte !== CR) {
        break;
      }
    }
    return i;
  }

  private afterValue(byte: number, i: number): number {
    const container = this.containers.at(-1);
    if (container === undefined) this.fail(i, "the end of the text");
    const closer = container === OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
    if (byte === closer) return this.close(i);
    if (byte !== COMMA) this.fail(i, `',' or '${String.fromCharCode(closer)}'`);
    this.state = container === OBJECT ? KEY : VALUE;
    return i + 1;
  }

  private beginValue(byte: number, i: number): number {
    if (this.containers.length === this.recordsDepth) {
      this.element.begin(i);
      this.elementStart = this.base + i;
      this.elementLine = this.line;
    }
    const ahead = this.matchesAhead;
    this.matchesAhead = null;
    if (byte === OPEN_OBJECT) return this.open(OBJECT, ahead, i);
    if (byte === OPEN_ARRAY) {
      const records = ahead?.some((match) => match.steps === match.path.length) === true;
      this.open(ARRAY, null, i);
      if (records && this.recordsDepth === LOOKING) this.recordsDepth = this.containers.length;
      return i + 1;
    }
    if (byte === QUOTE) {
      this.inKey = false;
      this.state = STRING;
      return i + 1;
    }
    if (byte === MINUS) this.state = NUMBER_MINUS;
    else if (byte === ZERO) this.state = NUMBER_ZERO;
    else if (byte > ZERO && byte <= NINE) this.state = NUMBER_INTEGER;
    else return this.beginLiteral(byte, i);
    return i + 1;
  }

  private beginLiteral(byte: number, i: number): number {
    const literal = LITERALS[byte];
    if (literal === undefined) this.fail(i, "a value");
    this.literal = literal;
    this.literalIndex = 1;
    this.state = LITERAL;
    return i + 1;
  }

  private literalByte(byte: number, i: number): number {
    if (byte >= 0x80) return this.beginStray(byte, i);
    if (byte !== this.literal.charCodeAt(this.literalIndex)) this.fail(i, `'${this.literal}'`);
    this.literalIndex += 1;
    if (this.literalIndex === this.literal.length) this.valueEnded(i + 1);
    return i + 1;
  }

  private open(container: number, ahead: readonly PathMatch[] | null, i: number): number {
    this.containers.push(container);
    const inner = ahead?.filter((match) => match.steps < match.path.length) ?? [];
    const looking = container === OBJECT && inner.length > 0 && this.recordsDepth === LOOKING;
    this.objectMatches.push(looking ? { matches: inner, suffixKeys: [] } : null);
    this.state = container === OBJECT ? OBJECT_FIRST : ARRAY_FIRST;
    return i + 1;
  }

  private close(i: number): number {
    this.containers.pop();
    this.objectMatches.pop();
    if (this.containers.length + 1 === this.recordsDepth) this.recordsDepth = FOUND;
    this.valueEnded(i + 1);
    return i + 1;
  }

  /** A value ended just before `end` (an index in the chunk). */
  private valueEnded(end: number): void {
    this.state = AFTER_VALUE;
    if (this.containers.length !== this.recordsDepth) return;
    this.elements.push({
      start: this.elementStart,
      end: this.base + end,
      line: this.elementLine,
      bytes: this.element.finish(this.chunk, end),
    });
  }

  private beginKey(byte: number, i: number, expected: string): number {
    if (byte !== QUOTE) this.fail(i, expected);
    this.inKey = true;
    this.capturingKey = this.objectMatches.at(-1) != null && this.recordsDepth === LOOKING;
    if (this.capturingKey) this.key.begin(i);
    this.state = STRING;
    return i + 1;
  }

  /** Inside a string: the plain run of it in one loop, the rest a byte at a time. */
  private scanString(chunk: Uint8Array, from: number): number {
    for (let i = from; i < chunk.length; i += 1) {
      const byte = chunk[i] as number;
      if (byte === QUOTE) return this.endString(i);
      if (byte === BACKSLASH) {
        this.state = ESCAPE;
        return i + 1;
      }
      if (byte < SPACE) this.fail(i, "a character (control characters must be escaped)");
      if (byte >= 0x80) return this.beginUtf8(byte, i);
    }
    return chunk.length;
  }

  private endString(i: number): number {
    if (!this.inKey) {
      this.valueEnded(i + 1);
      return i + 1;
    }
    if (this.capturingKey) this.keyEnded(this.key.finish(this.chunk, i + 1));
    this.state = COLON;
    return i + 1;
  }

  /** The paths that lead on through the key just read, to the value after it. */
  private keyEnded(quoted: Uint8Array): void {
    const key = JSON.parse(UTF8.decode(quoted)) as string;
    const object = this.objectMatches.at(-1) as ObjectMatches;
    const ahead: PathMatch[] = [];
    object.matches.forEach(({ path, steps }, index) => {
      const step = path[steps] as Path[number];
      if ("member" in step) {
        if (key === step.member) ahead.push({ path, steps: steps + 1 });
        return;
      }
      if (object.suffixKeys[index] === undefined && key.endsWith(step.suffix)) {
        object.suffixKeys[index] = key;
      }
      if (object.suffixKeys[index] === key) ahead.push({ path, steps: steps + 1 });
    });
    this.matchesAhead = ahead.length > 0 ? ahead : null;
  }

  private escape(byte: number, i: number): number {
    if (byte >= 0x80) return this.beginStray(byte, i);
    if (byte === 0x75) {
      this.hexDigitsLeft = 4;
      this.state = UNICODE_ESCAPE;
    } else if (ESCAPED.has(byte)) {
      this.state = STRING;
    } else {
      this.fail(i, AN_ESCAPE);
    }
    return i + 1;
  }

  private hexDigit(byte: number, i: number): number {
    if (byte >= 0x80) return this.beginStray(byte, i);
    const hex = (byte >= ZERO && byte <= NINE) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66);
    if (!hex) this.fail(i, AN_ESCAPE);
    this.hexDigitsLeft -= 1;
    if (this.hexDigitsLeft === 0) this.state = STRING;
    return i + 1;
  }

  /**
   * A lead byte of a multi-byte UTF-8 sequence: what the continuation bytes must be (RFC 3629
   * §4: no overlong form, no surrogate, nothing past U+10FFFF).
   */
  private beginUtf8(byte: number, i: number): number {
    this.continuationLow = 0x80;
    this.continuationHigh = 0xbf;
    if (byte >= 0xc2 && byte <= 0xdf) this.continuationsLeft = 1;
    else if (byte >= 0xe0 && byte <= 0xef) this.continuationsLeft = 2;
    else if (byte >= 0xf0 && byte <= 0xf4) this.continuationsLeft = 3;
    else this.fail(i, "UTF-8", describeByte(byte));
    if (byte === 0xe0) this.continuationLow = 0xa0;
    else if (byte === 0xed) this.continuationHigh = 0x9f;
    else if (byte === 0xf0) this.continuationLow = 0x90;
    else if (byte === 0xf4) this.continuationHigh = 0x8f;
    this.codePoint = byte & (0x3f >> this.continuationsLeft);
    this.sequenceColumn = this.columnAt(this.base + i);
    this.state = UTF8_CONTINUATION;
    return i + 1;
  }

  private continuation(byte: number, i: number): number {
    if (byte < this.continuationLow || byte > this.continuationHigh) {
      this.fail(i, "a UTF-8 continuation byte", describeByte(byte));
    }
    this.continuations += 1;
    this.codePoint = (this.codePoint << 6) | (byte & 0x3f);
    this.continuationLow = 0x80;
    this.continuationHigh = 0xbf;
    this.continuationsLeft -= 1;
    if (this.continuationsLeft > 0) return i + 1;
    if (this.stray !== null) this.strayEnded();
    this.state = STRING;
    return i + 1;
  }

  /**
   * A non-ASCII byte where a token was expected: the character is read whole first, so that the
   * message names it however the chunks fall.
   */
  private beginStray(byte: number, i: number): number {
    const offset = this.base + i;
    this.stray = {
      offset,
      line: this.line,
      column: this.columnAt(offset),
      expected: this.expected(),
    };
    return this.beginUtf8(byte, i);
  }

  private strayEnded(): never {
    const { offset, line, column, expected } = this.stray as Stray;
    const found = describeCharacterAt(String.fromCodePoint(this.codePoint), 0);
    throw documentBreak(this.file, expected, found, offset, line, column);
  }

  private numberByte(byte: number, i: number): number {
    if (byte >= 0x80 && !this.endsNumber()) return this.beginStray(byte, i);
    const digit = byte >= ZERO && byte <= NINE;
    switch (this.state) {
      case NUMBER_MINUS:
        if (!digit) this.fail(i, "a digit");
        this.state = byte === ZERO ? NUMBER_ZERO : NUMBER_INTEGER;
        return i + 1;
      case NUMBER_POINT:
      case NUMBER_EXPONENT_SIGN:
        if (!digit) this.fail(i, "a digit");
        this.state = this.state === NUMBER_POINT ? NUMBER_FRACTION : NUMBER_EXPONENT_DIGITS;
        return i + 1;
      case NUMBER_EXPONENT:
        if (byte === 0x2b || byte === MINUS) this.state = NUMBER_EXPONENT_SIGN;
        else if (digit) this.state = NUMBER_EXPONENT_DIGITS;
        else this.fail(i, "a digit");
        return i + 1;
      default:
        return this.numberGoesOn(byte, digit, i);
    }
  }

  /** In a number that could end here: the byte continues it, or ends it and is read anew. */
  private numberGoesOn(byte: number, digit: boolean, i: number): number {
    if (digit && this.state !== NUMBER_ZERO) return i + 1;
    const exponentMayStart = this.state !== NUMBER_EXPONENT_DIGITS;
    if (byte === POINT && (this.state === NUMBER_ZERO || this.state === NUMBER_INTEGER)) {
      this.state = NUMBER_POINT;
      return i + 1;
    }
    if ((byte | 0x20) === 0x65 && exponentMayStart) {
      this.state = NUMBER_EXPONENT;
      return i + 1;
    }
    this.valueEnded(i);
    return i;
  }

  /** Whether the number being read is complete (at the end of the document). */
  private endsNumber(): boolean {
    const state = this.state;
    return (
      state === NUMBER_ZERO ||
      state === NUMBER_INTEGER ||
      state === NUMBER_FRACTION ||
      state === NUMBER_EXPONENT_DIGITS
    );
  }

  /** The document breaks at `i` of the current chunk (its end, after the last one). */
  private fail(i: number, expected: string, found?: string): never {
    const offset = this.base + i;
    const byte = this.chunk[i];
    const what =
      found ??
      (byte === undefined
        ? "the end of the text"
        : describeCharacterAt(String.fromCharCode(byte), 0));
    // A break inside a UTF-8 sequence is in the character it began.
    const column = this.state === UTF8_CONTINUATION ? this.sequenceColumn : this.columnAt(offset);
    throw documentBreak(this.file, expected, what, offset, this.line, column);
  }

  /** The 1-based column, in code points, of a byte offset on the current line. */
  private columnAt(offset: number): number {
    return offset - this.lineStart - this.continuations + 1;
  }
}

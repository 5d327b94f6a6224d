/**
 * A small S-expression reader, enough for the librecode runtime journal: lists; strings, where a
 * backslash escapes the next character as the Common Lisp reader has it (so `\"` and `\\`);
 * symbols and keywords, upcased because the Lisp reader is case-insensitive by default;
 * integers and decimals; NIL, read as the empty list it is, and T; `;` comments to the end of
 * the line. Anything else that is not a delimiter is part of an atom (no reader macros).
 *
 * It reads bytes rather than a decoded string so that a torn final form keeps its exact byte
 * offset, and it keeps open lists on an explicit stack so that nesting cannot overflow the call
 * stack.
 */
import { concatBytes } from "../bytes.js";
import { JournalError } from "../errors.js";

export type Sexpr =
  | { readonly type: "list"; readonly items: readonly Sexpr[] }
  | { readonly type: "string"; readonly value: string }
  | { readonly type: "symbol"; readonly name: string }
  | { readonly type: "number"; readonly value: number };

export interface TopLevelForm {
  readonly form: Sexpr;
  /** The 1-based line the form starts on. */
  readonly line: number;
  /** False when a string or atom in the form is not valid UTF-8. */
  readonly validUtf8: boolean;
}

export interface SexprDocument {
  readonly forms: readonly TopLevelForm[];
  /**
   * An unfinished final form in a file that does not end with a line feed: a crash mid-write.
   * `offset` is the byte offset of its first byte.
   */
  readonly tornForm: { readonly line: number; readonly offset: number } | null;
}

/**
 * Reads every top-level form. Throws `JournalError` for a `)` that closes nothing, and for an
 * unfinished final form that cannot be a torn write: the file ends with a line feed, or the
 * form has swallowed a later entry (a `(` at column 1: the Lisp printer indents continuation
 * lines, so only a missing `)` puts an entry's start inside an open form).
 */
export function readSexprs(bytes: Uint8Array, file: string): SexprDocument {
  return new SexprReader(bytes, file).read();
}

const LF = 0x0a;
const OPEN = 0x28;
const CLOSE = 0x29;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SEMICOLON = 0x3b;
/** Space, tab, LF, CR and form feed separate tokens. */
const WHITESPACE: ReadonlySet<number> = new Set([0x20, 0x09, LF, 0x0d, 0x0c]);

const INTEGER = /^[+-]?\d+$/;
/** Lisp floats may mark the exponent with d, f, s or l instead of e. */
const DECIMAL = /^[+-]?(?:\d+\.\d*|\d*\.\d+)(?:[eEdDfFsSlL][+-]?\d+)?$/;

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** Where a token starts, for top-level forms and error messages. */
interface Mark {
  readonly line: number;
  readonly lineStart: number;
  readonly offset: number;
}

interface OpenList extends Mark {
  readonly items: Sexpr[];
}

class SexprReader {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private readonly openLists: OpenList[] = [];
  private readonly forms: TopLevelForm[] = [];
  private formStart: Mark = this.mark();
  private formValidUtf8 = true;
  /** The first `(` at column 1 inside an open top-level form. */
  private swallowedEntry: Mark | null = null;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly file: string,
  ) {}

  read(): SexprDocument {
    for (;;) {
      this.skipWhitespaceAndComments();
      if (this.pos >= this.bytes.length) return this.endOfFile(null);
      if (this.openLists.length === 0) this.beginForm();
      const byte = this.bytes[this.pos];
      if (byte === OPEN) this.openList();
      else if (byte === CLOSE) this.closeList();
      else if (byte === QUOTE) {
        const start = this.mark();
        const value = this.readString();
        if (value === null) return this.endOfFile(start);
        this.add({ type: "string", value });
      } else this.add(this.readAtom());
    }
  }

  private beginForm(): void {
    this.formStart = this.mark();
    this.formValidUtf8 = true;
    this.swallowedEntry = null;
  }

  private openList(): void {
    if (this.openLists.length > 0 && this.pos === this.lineStart) {
      this.swallowedEntry ??= this.mark();
    }
    this.openLists.push({ ...this.mark(), items: [] });
    this.pos += 1;
  }

  private closeList(): void {
    const list = this.openLists.pop();
    if (list === undefined) {
      throw this.error(this.mark(), "expected '(' or an atom, found ')' that closes no form");
    }
    this.pos += 1;
    this.add({ type: "list", items: list.items });
  }

  private add(sexpr: Sexpr): void {
    const parent = this.openLists.at(-1);
    if (parent !== undefined) parent.items.push(sexpr);
    else this.forms.push({ form: sexpr, line: this.formStart.line, validUtf8: this.formValidUtf8 });
  }

  /** The string's value, or null when the file ends inside it. */
  private readString(): string | null {
    const pieces: Uint8Array[] = [];
    let pieceStart = this.pos + 1;
    for (this.pos += 1; this.pos < this.bytes.length; this.pos += 1) {
      const byte = this.bytes[this.pos];
      if (byte === QUOTE) {
        pieces.push(this.bytes.subarray(pieceStart, this.pos));
        this.pos += 1;
        return this.decode(concatBytes(pieces));
      }
      if (byte === BACKSLASH) {
        pieces.push(this.bytes.subarray(pieceStart, this.pos));
        this.pos += 1;
        pieceStart = this.pos;
      }
      if (this.bytes[this.pos] === LF) this.newLine();
    }
    return null;
  }

  private readAtom(): Sexpr {
    const start = this.pos;
    while (this.pos < this.bytes.length && !isDelimiter(this.bytes[this.pos] as number)) {
      this.pos += 1;
    }
    const text = this.decode(this.bytes.subarray(start, this.pos));
    if (INTEGER.test(text)) return { type: "number", value: Number.parseInt(text, 10) };
    if (DECIMAL.test(text)) {
      return { type: "number", value: Number.parseFloat(text.replace(/[dDfFsSlL]/, "e")) };
    }
    const name = text.toUpperCase();
    return name === "NIL" ? { type: "list", items: [] } : { type: "symbol", name };
  }

  private decode(bytes: Uint8Array): string {
    try {
      return strictUtf8.decode(bytes);
    } catch {
      this.formValidUtf8 = false;
      return lenientUtf8.decode(bytes);
    }
  }

  private skipWhitespaceAndComments(): void {
    while (this.pos < this.bytes.length) {
      const byte = this.bytes[this.pos] as number;
      if (byte === SEMICOLON) {
        const lf = this.bytes.indexOf(LF, this.pos);
        this.pos = lf === -1 ? this.bytes.length : lf;
      } else if (WHITESPACE.has(byte)) {
        if (byte === LF) this.newLine();
        this.pos += 1;
      } else return;
    }
  }

  /** At the end of the file: done, or a torn final form, or an unbalanced one. */
  private endOfFile(unfinishedString: Mark | null): SexprDocument {
    const unfinished = this.openLists[0] ?? unfinishedString;
    if (unfinished === null) {
      return { forms: this.forms, tornForm: null };
    }
    const terminated = this.bytes[this.bytes.length - 1] === LF;
    if (!terminated && this.swallowedEntry === null) {
      return { forms: this.forms, tornForm: { line: unfinished.line, offset: unfinished.offset } };
    }
    if (unfinishedString !== null) {
      const detail =
        "expected '\"' to close the string that starts here, found the end of the file";
      throw this.error(unfinishedString, detail);
    }
    const swallowed =
      this.swallowedEntry === null
        ? ""
        : ` (the entry at line ${this.swallowedEntry.line} is inside it)`;
    const detail = `expected ')' to close the form that starts here, found the end of the file${swallowed}`;
    throw this.error(unfinished, detail);
  }

  private newLine(): void {
    this.line += 1;
    this.lineStart = this.pos + 1;
  }

  private mark(): Mark {
    return { line: this.line, lineStart: this.lineStart, offset: this.pos };
  }

  private error(at: Mark, detail: string): JournalError {
    let column = 1;
    for (const _ of lenientUtf8.decode(this.bytes.subarray(at.lineStart, at.offset))) column += 1;
    return new JournalError(this.file, detail, at.line, column);
  }
}

function isDelimiter(byte: number): boolean {
  return (
    WHITESPACE.has(byte) || byte === OPEN || byte === CLOSE || byte === QUOTE || byte === SEMICOLON
  );
}

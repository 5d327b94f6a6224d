/**
 * A JSONL journal's lines as the framing rules of src/journal/jsonl.ts read them (rules 1–3 and 5
 * and which line may be the header), before any model looks at them: every model's reader
 * starts here, and nothing here knows the models.
 */
import type { TornTail } from "../models/journal-source.js";
import { UnparseableLine } from "../models/journal-source.js";

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

interface RawLine {
  /** 1-based. */
  readonly number: number;
  /** Byte offset of the line's first byte in the file. */
  readonly offset: number;
  /** The line without its line end. */
  readonly bytes: Uint8Array;
  readonly terminated: boolean;
}

export type ParsedLine = { readonly value: unknown; readonly text: string } | UnparseableLine;

/** A JSONL journal's lines as rules 1–3 and 5 read them, before any model looks at them. */
export interface JsonlLines {
  /** Line 1 when it parses to an object with an own `statefold` property (rule 4). */
  readonly header: { readonly value: Record<string, unknown>; readonly text: string } | null;
  /** Every other line that is neither blank nor the torn tail, parsed, with its 1-based number. */
  readonly entries: readonly { readonly parsed: ParsedLine; readonly line: number }[];
  readonly tornTail: TornTail | null;
}

export function readJsonlLines(bytes: Uint8Array): JsonlLines {
  const entries: { parsed: ParsedLine; line: number }[] = [];
  let header: JsonlLines["header"] = null;
  let tornTail: TornTail | null = null;
  for (const line of splitLines(bytes)) {
    if (isBlankLine(line.bytes)) continue;
    const parsed = parseLine(line.bytes);
    if (line.number === 1 && !(parsed instanceof UnparseableLine) && isHeader(parsed.value)) {
      header = { value: parsed.value, text: parsed.text };
    } else if (parsed instanceof UnparseableLine && !line.terminated) {
      tornTail = { line: line.number, offset: line.offset };
    } else {
      entries.push({ parsed, line: line.number });
    }
  }
  return { header, entries, tornTail };
}

export function* splitLines(bytes: Uint8Array): Generator<RawLine> {
  let number = 1;
  let offset = 0;
  for (;;) {
    const lf = bytes.indexOf(LF, offset);
    if (lf === -1) break;
    const end = lf > offset && bytes[lf - 1] === CR ? lf - 1 : lf;
    yield { number, offset, bytes: bytes.subarray(offset, end), terminated: true };
    number += 1;
    offset = lf + 1;
  }
  if (offset < bytes.length) {
    yield { number, offset, bytes: bytes.subarray(offset), terminated: false };
  }
}

/** A blank line holds only spaces, tabs and carriage returns; it is no event (docs/journals.md). */
export function isBlankLine(line: Uint8Array): boolean {
  return line.every(isBlankByte);
}

function isBlankByte(byte: number): boolean {
  return byte === SPACE || byte === TAB || byte === CR;
}

export function parseLine(line: Uint8Array): ParsedLine {
  let text: string;
  try {
    text = strictUtf8.decode(line);
  } catch {
    return new UnparseableLine("invalid-utf8");
  }
  try {
    return { value: JSON.parse(text), text };
  } catch {
    return new UnparseableLine("invalid-json");
  }
}

export function isHeader(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.hasOwn(value, "statefold")
  );
}

/**
 * A file holding one JSON value (a DAG file, an executive spec or budget): decoded as strict
 * UTF-8 (a byte-order mark allowed) and parsed, every error naming the file and, for text that
 * is not UTF-8 or not JSON, the line and column where it goes wrong.
 */
import { JournalError } from "./errors.js";
import type { JsonOrigin } from "./json-value-error.js";
import { walkJson } from "./json-walk.js";
import { textPosition } from "./text-position.js";

/** The file's value, and where it came from (for errors about the value: `jsonValueError`). */
export function parseJsonFile(
  bytes: Uint8Array,
  file: string,
  expected: string,
): { readonly value: unknown; readonly origin: JsonOrigin } {
  const origin: JsonOrigin = { file, text: decodeUtf8(bytes, file), firstLine: 1 };
  return { value: parseJson(origin, expected), origin };
}

function decodeUtf8(bytes: Uint8Array, file: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // Line by line finds the offending line: no UTF-8 sequence contains the byte 0x0A.
    const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    let line = 1;
    for (let start = 0; start <= bytes.length; line += 1) {
      const lf = bytes.indexOf(0x0a, start);
      const end = lf === -1 ? bytes.length : lf;
      try {
        strict.decode(bytes.subarray(start, end));
      } catch {
        break;
      }
      start = end + 1;
    }
    throw new JournalError(file, "expected UTF-8 text, found bytes that are not UTF-8", line);
  }
}

function parseJson(origin: JsonOrigin, expected: string): unknown {
  if (origin.text.trim() === "") {
    throw new JournalError(origin.file, `expected ${expected}, found an empty file`);
  }
  try {
    return JSON.parse(origin.text);
  } catch {
    const problem = walkJson(origin.text);
    if (problem === null) throw new JournalError(origin.file, "expected JSON, found invalid JSON");
    const { line, column } = textPosition(origin.text, problem.offset);
    const detail = `expected ${problem.expected}, found ${problem.found}`;
    throw new JournalError(origin.file, detail, origin.firstLine + line - 1, column);
  }
}

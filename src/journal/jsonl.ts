/**
 * The JSONL journal reader (docs/journals.md). The WASM kernel's scanner is held to these rules byte
 * for byte:
 *
 * 1. Lines. The bytes are split on LF (0x0A); a CR (0x0D) just before an LF belongs to the line
 *    end. Lines are numbered from 1. The text after the last LF is the final line; it is
 *    "unterminated" unless it is empty.
 * 2. Blank lines — every byte a space (0x20), tab (0x09) or CR — are skipped: no event.
 * 3. Every other line is decoded as strict UTF-8 with a byte-order mark kept (so a BOM makes
 *    the line invalid JSON, as `JSON.parse` says), then parsed with `JSON.parse`. Invalid UTF-8
 *    gives `UnparseableLine("invalid-utf8")`, invalid JSON `UnparseableLine("invalid-json")`;
 *    any JSON value is otherwise the event as parsed — the fold, not the reader, judges it.
 * 4. Header. Line 1, if it parses to an object with an own `statefold` property, is the
 *    header and not an event (a blank line 1 is no header: the journal has none). It must read `{"statefold":"journal",
 *    "version":1}` with an optional `"model"` and that model's own fields, which the model reads
 *    (`Model.readHeaderFields`) — extra fields allowed —, or the journal is rejected with a
 *    `JournalError` at that line. A header naming no model is read as the model chosen for the
 *    journal (`--model`, the API), the default model when none was. No later line is ever a header.
 * 5. Torn tail. An unterminated final line that is not blank and does not parse is a crash
 *    mid-write: it is reported as `tornTail` (its line and the byte offset of its first byte)
 *    and is not an event. An unterminated final line that parses is an ordinary event.
 */

import { UnparseableLine } from "../models/journal-source.js";
import {
  DEFAULT_MODEL,
  isModelName,
  MODEL_NAMES,
  type ModelName,
  modelNamed,
} from "../models/registry.js";
import { sameBytes } from "./bytes.js";
import type { Journal, JournalHeader } from "./journal.js";
import { describeJsonValue, type JsonOrigin, jsonValueError } from "./json-value-error.js";
import {
  isBlankLine,
  isHeader,
  type ParsedLine,
  parseLine,
  readJsonlLines,
  splitLines,
} from "./jsonl-lines.js";
import { missingHeader } from "./missing-header.js";

const JOURNAL_VERSION = 1;

/**
 * `model`: the model chosen for the journal (`--model`, the API, an engine of one model): a
 * header that names none is read as that model's.
 */
export function readJsonlJournal(
  bytes: Uint8Array,
  file: string,
  model: ModelName = DEFAULT_MODEL,
): Journal {
  const read = readJsonlLines(bytes);
  const header =
    read.header === null
      ? null
      : readHeader(read.header.value, { file, text: read.header.text, firstLine: 1 }, model);
  const events = read.entries.map(({ parsed }) =>
    parsed instanceof UnparseableLine ? parsed : parsed.value,
  );
  const lines = read.entries.map(({ line }) => line);
  const missing = header === null ? missingHeader(bytes) : null;
  return { header, events, lines, tornTail: read.tornTail, missingHeader: missing };
}

/**
 * The journal's header (rule 4), reading no line past line 1; null when line 1 is no header.
 * Header errors are `readJsonlJournal`'s.
 */
export function readJsonlHeader(
  bytes: Uint8Array,
  file: string,
  model: ModelName = DEFAULT_MODEL,
): JournalHeader | null {
  return readFirstLineAsHeader(bytes, file, (header, origin) => readHeader(header, origin, model));
}

/**
 * The last first line parsed, kept: a journal's header is read twice — for its model, which picks
 * the engine, then whole by that engine — and a 10⁵-node DAG's header costs ~50 ms to parse.
 * Nothing mutates a parsed header: its readers copy what they keep.
 */
let lastFirstLine: { readonly bytes: Uint8Array; readonly parsed: ParsedLine } | null = null;

function parseFirstLine(line: Uint8Array): ParsedLine {
  if (lastFirstLine !== null && sameBytes(lastFirstLine.bytes, line)) return lastFirstLine.parsed;
  const parsed = parseLine(line);
  lastFirstLine = { bytes: line.slice(), parsed };
  return parsed;
}

/**
 * The model a journal's header names (rule 4), reading no line past line 1 and leaving the
 * model's own fields unread; null when that line is no header or names no model
 * (the choice is then `--model`'s or the API's). What routes a journal to its model's engine,
 * which then reads the header whole.
 */
export function readJsonlHeaderModel(bytes: Uint8Array, file: string): ModelName | null {
  return readFirstLineAsHeader(bytes, file, headerModel);
}

/** `read` of line 1 when it is a header; null when it is none. */
function readFirstLineAsHeader<T>(
  bytes: Uint8Array,
  file: string,
  read: (header: Record<string, unknown>, origin: JsonOrigin) => T,
): T | null {
  const line = firstLineOf(bytes);
  if (isBlankLine(line)) return null;
  const parsed = parseFirstLine(line);
  if (parsed instanceof UnparseableLine || !isHeader(parsed.value)) return null;
  return read(parsed.value, { file, text: parsed.text, firstLine: 1 });
}

/** Line 1 of `bytes`, without its line end. */
function firstLineOf(bytes: Uint8Array): Uint8Array {
  const { value } = splitLines(bytes).next();
  return value === undefined ? bytes.subarray(0, 0) : value.bytes;
}

/** The model the header names; null when it names none. */
function headerModel(header: Record<string, unknown>, origin: JsonOrigin): ModelName | null {
  const refuse = (field: string, expected: string): never => {
    const found = Object.hasOwn(header, field) ? describeJsonValue(header[field]) : "none";
    const at = Object.hasOwn(header, field) ? [field] : [];
    throw jsonValueError(origin, at, `expected "${field}": ${expected}, found ${found}`, "header");
  };
  if (header.statefold !== "journal") refuse("statefold", '"journal"');
  if (header.version !== JOURNAL_VERSION) refuse("version", String(JOURNAL_VERSION));
  if (!Object.hasOwn(header, "model")) return null;
  if (!isModelName(header.model)) {
    refuse("model", `one of ${MODEL_NAMES.map((name) => JSON.stringify(name)).join(", ")}`);
  }
  return header.model as ModelName;
}

/** The header, its model's own fields read by the model (`chosen`'s when it names none). */
function readHeader(
  header: Record<string, unknown>,
  origin: JsonOrigin,
  chosen: ModelName,
): JournalHeader {
  const named = headerModel(header, origin);
  return { model: named, fields: modelNamed(named ?? chosen).readHeaderFields(header, origin) };
}

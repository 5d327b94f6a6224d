/**
 * Why a journal has no header, told when a refusal needs what a header gives (docs/journals.md,
 * "Journals without a header"): a `dag` journal with no DAG, an `executive` journal with no spec
 * and budget. Only line 1 can be the header, so what line 1 holds instead is the reason — not
 * JSON (where, and what was found), blank, a record (and which model's records it looks like),
 * or nothing at all — and a user who has a header with a typo is told so, not asked to add one.
 */
import { MODELS, type ModelName } from "../models/registry.js";
import { JournalError } from "./errors.js";
import { walkJson } from "./json-walk.js";
import { textPosition } from "./text-position.js";

export interface MissingHeader {
  /** What line 1 is instead of a header, as a sentence's clause ("line 1 is blank"). */
  readonly why: string;
  /** Where on line 1 it stops being JSON, when it does. */
  readonly column?: number;
  /** The model whose records line 1 looks like, when it is a record and not the dag's. */
  readonly lookalike?: ModelName;
}

/** A .lisp-expr journal: the librecode runtime's, which never carries a header. */
export const LISP_EXPR_MISSING_HEADER: MissingHeader = {
  why: "a .lisp-expr journal carries none",
};

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** When nothing more is known: the journal has no header. */
export const NO_HEADER: MissingHeader = { why: "the journal has no header" };

/** What line 1 of the journal starting with `bytes` is instead of a header. */
export function missingHeader(bytes: Uint8Array): MissingHeader {
  if (bytes.length === 0) return { why: "the journal is empty" };
  const lineFeed = bytes.indexOf(0x0a);
  const line = lineFeed < 0 ? bytes : bytes.subarray(0, lineFeed);
  if (line.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d)) {
    return { why: "line 1 is blank, and a journal header is only read on the first line" };
  }
  let text: string;
  try {
    text = strictUtf8.decode(line);
  } catch {
    const at = firstInvalidUtf8(line);
    const column = [...strictUtf8.decode(line.subarray(0, at))].length + 1;
    return { why: "line 1 is not UTF-8 text, so it is no header", column };
  }
  const problem = walkJson(text);
  if (problem !== null) {
    const { column } = textPosition(text, problem.offset);
    const found = `expected ${problem.expected}, found ${problem.found}`;
    return { why: `line 1 is not JSON (${found}), so it is no header`, column };
  }
  const lookalike = modelOfRecord(JSON.parse(text));
  return lookalike === null
    ? { why: "line 1 is a record, not a header" }
    : { why: "line 1 is a record, not a header", lookalike };
}

/**
 * The refusal of a journal of `model` that needs a header and has none: what is missing, why
 * line 1 is no header (and where it stops being JSON), then the remedy — or, when line 1 is a
 * record of another model, the question whether that model was meant.
 */
export function missingHeaderError(
  file: string,
  model: ModelName,
  what: string,
  missing: MissingHeader,
  remedy: string,
): JournalError {
  const { lookalike, column } = missing;
  // Line 1 that is not JSON is most often a header with a typo: say so, and only that — a remedy
  // for a journal without a header (a DAG file, a model) would push it onto one that has it.
  if (column !== undefined) {
    return new JournalError(file, `${missing.why}: correct it if it is the header`, 1, column);
  }
  const next =
    lookalike !== undefined && lookalike !== model
      ? `; it looks like a journal of the ${lookalike} model: did you mean --model ${lookalike}?`
      : `: ${remedy}`;
  return new JournalError(file, `${what}: ${missing.why}${next}`);
}

/** The first registered model that recognises `value` as one of its records, or null. */
function modelOfRecord(value: unknown): ModelName | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const model = MODELS.find((candidate) => candidate.recognisesRecord?.(value) === true);
  return model?.name ?? null;
}

/** The offset of the first byte that starts no valid UTF-8 sequence (the line has one). */
function firstInvalidUtf8(line: Uint8Array): number {
  for (let at = 0; at < line.length; ) {
    const length = sequenceLength(line[at] as number);
    if (length === 0) return at;
    try {
      strictUtf8.decode(line.subarray(at, at + length));
    } catch {
      return at;
    }
    at += length;
  }
  return line.length;
}

/** The length of the UTF-8 sequence `lead` starts; 0 when no sequence starts with it. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

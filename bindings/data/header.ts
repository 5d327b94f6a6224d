/**
 * The header of a journal audited with a model defined by data (docs/models/data.md, "The
 * file"; docs/journals.md, "The header"): line 1, when it is a JSON object with a `statefold`
 * member, is the header; it must be `"statefold": "journal"`, `"version": 1`, and its `model`,
 * when it has one, must be the model file's `name` (anything else is two different models). It
 * needs no other field, and others are ignored.
 */
import { describeJsonValue, jsonValueError } from "../../src/journal/json-value-error.js";

const LF = 0x0a;
const CR = 0x0d;
const JOURNAL_VERSION = 1;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Whether line 1 (with its line end, if any) is a header; a `JournalError` when it is a wrong one. */
export function isDataHeader(firstLine: Uint8Array, file: string, modelName: string): boolean {
  let end = firstLine.length;
  if (end > 0 && firstLine[end - 1] === LF) end--;
  if (end > 0 && firstLine[end - 1] === CR) end--;
  let text: string;
  let value: unknown;
  try {
    text = strictUtf8.decode(firstLine.subarray(0, end));
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  if (!Object.hasOwn(value, "statefold")) return false;
  const header = value as Record<string, unknown>;
  const origin = { file, text, firstLine: 1 };
  // The reference's words (src/models/data/engine.ts, checkHeader).
  const refuse = (member: string, detail: string): never => {
    throw jsonValueError(origin, [member], detail, "header");
  };
  if (header.statefold !== "journal")
    refuse(
      "statefold",
      `expected "statefold": "journal", found ${describeJsonValue(header.statefold)}`,
    );
  if (header.version !== JOURNAL_VERSION)
    refuse("version", `expected "version": 1, found ${describeJsonValue(header.version)}`);
  if (Object.hasOwn(header, "model") && header.model !== modelName)
    refuse(
      "model",
      `the journal names the model ${describeJsonValue(header.model)}, but it is being audited with the model file's "${modelName}"`,
    );
  return true;
}

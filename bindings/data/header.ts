/**
 * The header of a journal audited with a model defined by data (docs/models/data.md, "The
 * file"; docs/journals.md, "The header"): line 1, when it is a JSON object with a `statefold`
 * member, is the header; it must be `"statefold": "journal"`, `"version": 1`, and its `model`,
 * when it has one, must be the model file's `name` (anything else is two different models). It
 * needs no other field, and others are ignored.
 */
import { checkDataHeader } from "../../src/journal/data/read.js";

const LF = 0x0a;
const CR = 0x0d;
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
  checkDataHeader(value as Record<string, unknown>, text, file, modelName);
  return true;
}

/**
 * The reference engine of a model defined by data (docs/models/data.md): a journal's bytes read
 * as the model's `records.source` says, and folded by the interpreter (audit.ts).
 */
import { JournalError } from "../../journal/errors.js";
import { describeJsonValue, jsonValueError } from "../../journal/json-value-error.js";
import { readJsonlLines } from "../../journal/jsonl.js";
import { auditDataEntries } from "./audit.js";
import type { CompiledModel } from "./compiled.js";
import type { DataReport } from "./report.js";

export interface DataAuditOptions {
  /** Names the journal in errors. */
  readonly file?: string;
}

const UNNAMED = "<journal>";

/** The reports of a journal: one, or one per journal when the model splits a stream by `journal.key`. */
export function auditDataJournals(
  model: CompiledModel,
  bytes: Uint8Array,
  options: DataAuditOptions = {},
): DataReport[] {
  const file = options.file ?? UNNAMED;
  if (!("lines" in model.source))
    throw new JournalError(file, "documents whose records are an array are not read yet");
  const read = readJsonlLines(bytes);
  if (read.header !== null) checkHeader(model, read.header, file);
  return auditDataEntries(model, read.entries, read.tornTail);
}

/** The report of a journal of a model that does not split streams. */
export function auditDataBytes(
  model: CompiledModel,
  bytes: Uint8Array,
  options: DataAuditOptions = {},
): DataReport {
  if (model.journal.key !== null)
    throw new JournalError(
      options.file ?? UNNAMED,
      `the model ${model.name} splits a stream into journals by a key: audit it with auditDataJournals`,
    );
  return auditDataJournals(model, bytes, options)[0] as DataReport;
}

/**
 * A header of a journal audited with a model file says no more than that it is a journal, and
 * may name the model — by the file's `name`, never another (docs/models/data.md, "Journals").
 */
function checkHeader(
  model: CompiledModel,
  header: { readonly value: Record<string, unknown>; readonly text: string },
  file: string,
): void {
  const origin = { file, text: header.text, firstLine: 1 };
  const { statefold, version } = header.value;
  if (statefold !== "journal")
    throw jsonValueError(
      origin,
      ["statefold"],
      `expected "statefold": "journal", found ${describeJsonValue(statefold)}`,
      "header",
    );
  if (version !== 1)
    throw jsonValueError(
      origin,
      ["version"],
      `expected "version": 1, found ${describeJsonValue(version)}`,
      "header",
    );
  if (Object.hasOwn(header.value, "model") && header.value.model !== model.name)
    throw jsonValueError(
      origin,
      ["model"],
      `the journal names the model ${describeJsonValue(header.value.model)}, but it is being audited with the model file's "${model.name}"`,
      "header",
    );
}

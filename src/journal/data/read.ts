/**
 * A journal of a model defined by data, read whole (docs/models/data.md, "Journals"): JSONL, or a
 * JSON document whose records are an array, as the model's `records.source` says. Each record
 * keeps its text beside its value: the interpreter reads member order and exact numbers from it.
 */
import type { CompiledModel, Path } from "../../models/data/compiled.js";
import type { Journal } from "../journal.js";
import { JsonArraySource } from "../json-array-source.js";
import { describeJsonValue, jsonValueError } from "../json-value-error.js";
import { readJsonlLines } from "../jsonl-lines.js";

/** The journal's records, each a `DataEntry` (src/models/data/audit.ts); its header's model, if named. */
export function readDataJournal(model: CompiledModel, bytes: Uint8Array, file: string): Journal {
  if (!("lines" in model.source)) return readArrayDocument(model.source.arrays, bytes, file);
  const read = readJsonlLines(bytes);
  if (read.header !== null) checkDataHeader(read.header.value, read.header.text, file, model.name);
  return {
    header: read.header === null ? null : { model: null, fields: null },
    events: [...read.entries],
    lines: read.entries.map(({ line }) => line),
    tornTail: read.tornTail,
    missingHeader: null,
  };
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A document's records: no header, no torn tail; each element's line is the one it starts on. */
function readArrayDocument(paths: readonly Path[], bytes: Uint8Array, file: string): Journal {
  const source = new JsonArraySource(paths, file);
  const entries = source.push(bytes).map(({ bytes: element, line }) => {
    const text = utf8.decode(element);
    return { parsed: { value: JSON.parse(text) as unknown, text }, line };
  });
  source.end();
  return {
    header: null,
    events: entries,
    lines: entries.map(({ line }) => line),
    tornTail: null,
    missingHeader: null,
  };
}

/**
 * A header of a journal audited with a model file says no more than that it is a journal, and
 * may name the model — by the file's `name`, never another (docs/models/data.md, "Journals").
 */
/**
 * A data journal's header (docs/journals.md, "The header"): `"statefold": "journal"`, version 1,
 * and a `model`, when it names one, that is the model file's name. Both engines check it here.
 */
export function checkDataHeader(
  header: Readonly<Record<string, unknown>>,
  text: string,
  file: string,
  modelName: string,
): void {
  const refuse = (member: string, detail: string): never => {
    throw jsonValueError({ file, text, firstLine: 1 }, [member], detail, "header");
  };
  const { statefold, version } = header;
  if (statefold !== "journal")
    refuse("statefold", `expected "statefold": "journal", found ${describeJsonValue(statefold)}`);
  if (version !== 1)
    refuse("version", `expected "version": 1, found ${describeJsonValue(version)}`);
  if (Object.hasOwn(header, "model") && header.model !== modelName)
    refuse(
      "model",
      `the journal names the model ${describeJsonValue(header.model)}, but it is being audited with the model file's "${modelName}"`,
    );
}

/**
 * The dag model's own field of a journal header (docs/journals.md, "The header"): `"dag"`, the
 * DAG the journal runs over, required.
 */
import type { Dag } from "../../models/dag/dag.js";
import type { JournalHeader } from "../journal.js";
import { type JsonOrigin, jsonValueError } from "../json-value-error.js";
import { dagFromJson } from "./dag-file.js";

export function readDagHeaderField(
  header: Readonly<Record<string, unknown>>,
  origin: JsonOrigin,
): Dag {
  if (!Object.hasOwn(header, "dag")) {
    const detail = 'expected a field "dag" {"nodes": [...]}, found none';
    throw jsonValueError(origin, [], detail, "header");
  }
  return dagFromJson(header.dag, origin, ["dag"]);
}

/** The DAG a header read as a dag journal's carries; null for no header. */
export function dagOfHeader(header: JournalHeader | null): Dag | null {
  return header === null ? null : (header.fields as Dag);
}

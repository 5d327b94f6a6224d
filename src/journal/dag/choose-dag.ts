import type { Dag } from "../../models/dag/dag.js";
import { JournalError } from "../errors.js";
import {
  LISP_EXPR_MISSING_HEADER,
  type MissingHeader,
  missingHeaderError,
  NO_HEADER,
} from "../missing-header.js";
import { dagDifference } from "./dag-difference.js";

/** A DAG given beside the journal (a --dag file, or an argument of the API), and how to name it. */
export interface GivenDag {
  readonly dag: Dag;
  readonly name: string;
}

/**
 * The DAG a journal is audited against: the one given, or else the header's. Both present must be
 * the same DAG; neither is an error that says why the journal has no header (`missing`, the
 * journal's `missingHeader`) and how to supply a DAG.
 */
export function chooseDag(
  file: string,
  headerDag: Dag | null,
  given: GivenDag | null,
  missing: MissingHeader | null = null,
): Dag {
  if (given === null) {
    if (headerDag !== null) return headerDag;
    throw noDagError(file, missing ?? NO_HEADER);
  }
  if (headerDag === null) return given.dag;
  const difference = dagDifference(headerDag, given.dag, { dag: "the header", other: given.name });
  if (difference === null) return given.dag;
  throw new JournalError(
    file,
    `expected the header's DAG to be ${given.name}'s, found ${difference}`,
  );
}

function noDagError(file: string, missing: MissingHeader): JournalError {
  let remedy =
    'add a header line {"statefold":"journal","version":1,"dag":{"nodes":[...]}} or pass --dag FILE';
  if (missing === LISP_EXPR_MISSING_HEADER) remedy = "pass --dag FILE";
  return missingHeaderError(file, "dag", "no DAG", missing, remedy);
}

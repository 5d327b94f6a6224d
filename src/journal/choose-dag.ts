import type { Dag } from "../models/dag/dag.js";
import { dagDifference } from "./dag-difference.js";
import { JournalError } from "./errors.js";

/** A DAG given beside the journal (a --dag file, or an argument of the API), and how to name it. */
export interface GivenDag {
  readonly dag: Dag;
  readonly name: string;
}

/**
 * The DAG a journal is audited against: the one given, or else the header's. Both present must be
 * the same DAG; neither is an error that says how to supply one.
 */
export function chooseDag(
  file: string,
  headerDag: Dag | null,
  given: GivenDag | null,
  lispExpr = false,
): Dag {
  if (given === null) {
    if (headerDag !== null) return headerDag;
    const remedy = lispExpr
      ? "a .lisp-expr journal carries none: pass --dag FILE"
      : 'add a header line {"statefold":"journal","version":1,"dag":{"nodes":[...]}} or pass --dag FILE';
    throw new JournalError(file, `no DAG: ${remedy}`);
  }
  if (headerDag === null) return given.dag;
  const difference = dagDifference(headerDag, given.dag, { dag: "the header", other: given.name });
  if (difference === null) return given.dag;
  throw new JournalError(
    file,
    `expected the header's DAG to be ${given.name}'s, found ${difference}`,
  );
}

/**
 * The dag engines' own options and arguments (docs/api.md): the DAG a journal is audited against,
 * and its name; both engines read them here.
 */
import {
  ArgumentError,
  AUDIT_OPTIONS,
  describeValue,
  isString,
  type OptionRules,
  withSnapshotOptions,
} from "../../engine-arguments.js";
import type { Dag } from "./dag.js";
import { madeByMakeDag } from "./reverse-edges.js";

export function dagArgument(call: string, value: unknown): Dag {
  if (madeByMakeDag(value)) return value as Dag;
  throw new ArgumentError(call, "dag", "a DAG (makeDag(nodes).dag)", describeValue(value));
}

/** The options of the dag engines' `auditBytes`; their auditors take the snapshot options too. */
export const DAG_AUDIT_OPTIONS: OptionRules = {
  rules: {
    ...AUDIT_OPTIONS.rules,
    dag: {
      expected: "a DAG (makeDag(nodes).dag) or null",
      accepts: (value) => value === null || madeByMakeDag(value),
    },
    dagName: { expected: "a string", accepts: isString },
  },
  hint: (value) => (madeByMakeDag(value) ? " (pass it as { dag })" : ""),
};

export const DAG_AUDITOR_OPTIONS: OptionRules = withSnapshotOptions(DAG_AUDIT_OPTIONS);

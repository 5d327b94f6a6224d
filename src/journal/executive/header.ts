/**
 * The executive model's own fields of a journal header (docs/models/executive.md, "The journal
 * and its audit"): the run's spec and budget, both required, accepted as `initialState` accepts
 * them; a refusal names the field from the header down (`header.budget.steps`).
 */
import type { ExecutiveRun } from "../../models/executive/audit.js";
import { readParsedSpec } from "../../models/executive/spec.js";
import {
  describeJsonPath,
  describeJsonValue,
  type JsonOrigin,
  jsonValueError,
} from "../json-value-error.js";

/** An executive journal's spec and budget: required, and accepted as `initialState` accepts them. */
export function readExecutiveRun(
  header: Readonly<Record<string, unknown>>,
  origin: JsonOrigin,
): ExecutiveRun {
  for (const field of ["spec", "budget"]) {
    if (!Object.hasOwn(header, field)) {
      throw jsonValueError(origin, [], `expected a field "${field}", found none`, "header");
    }
  }
  const read = readParsedSpec(header.spec, header.budget);
  if (read.ok) return { spec: read.spec, budget: read.budget };
  const { reason, path } = read.rejection;
  const at = path[0] === "budget" ? path : ["spec", ...path];
  // Named from the header down (docs/models/executive.md, "The journal and its audit"):
  // `header.budget.steps`, `header.spec.plan.steps` for a cycle.
  throw jsonValueError(
    origin,
    at,
    `expected a spec and budget the executive accepts, found ${describeJsonValue(valueAt(header, at))} (${reason})`,
    `header.${describeJsonPath(at)}`,
  );
}

/** The value at `path` under `value`; undefined where the path leads nowhere. */
function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let at = value;
  for (const step of path) {
    if (typeof at !== "object" || at === null || !Object.hasOwn(at, step)) return undefined;
    at = (at as Record<string | number, unknown>)[step];
  }
  return at;
}

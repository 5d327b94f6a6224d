/**
 * Counterexamples of the dag model (docs/explore.md, "Counterexamples"): the rule a journal
 * breaks first, the rules each of its records breaks, and its shrinking — records removed, and
 * a widen's surface given fewer paths, while the same rule still fails first at the same kind
 * of record.
 */

import { audit } from "../../models/dag/audit.js";
import type { Dag } from "../../models/dag/dag.js";
import type { Engine } from "../../models/dag/engine.js";
import type { Report } from "../../models/dag/report.js";
import { isStringArray } from "../../models/dag/state.js";
import { shrinkKeepingFailure } from "../shrink.js";

/** A rule broken, and the record that first breaks it. */
export interface Failure {
  readonly rule: string;
  readonly index: number;
  /** The kind of that record, as the journal spells it. */
  readonly kind: unknown;
}

/** Rules named as explore's step checks name them: `legality (reason)`, an invariant's name. */
export const ENGINES_DIFFER = "engines differ";

/**
 * The first rule `report` says its journal broke, by the record that broke it: the earliest
 * record wins, and at one record integrity, then the invariants in the report's order, then
 * legality. tamperEvident is a property of the whole journal, so its record is the last.
 */
export function firstBroken(report: Report, events: readonly unknown[]): Failure | null {
  let first: Failure | null = null;
  const consider = (rule: string, index: number) => {
    if (first === null || index < first.index) first = { rule, index, kind: kindAt(events, index) };
  };
  if (report.integrity !== null)
    consider(`integrity (${report.integrity.reason})`, report.integrity.index);
  for (const [name, verdict] of Object.entries(report.invariants)) {
    if (verdict.holds) continue;
    consider(name, "index" in verdict ? verdict.index : events.length - 1);
  }
  const illegal = report.legality.first[0];
  if (illegal !== undefined) consider(`legality (${illegal.reason})`, illegal.index);
  return first;
}

/**
 * The first failure of a journal: the first rule the reference's audit says it breaks, or —
 * when it breaks none and a WebAssembly engine is given — that engine's report differing, at
 * the last record.
 */
export function failureOf(dag: Dag, events: readonly unknown[], wasm?: Engine): Failure | null {
  const report = audit(dag, events);
  const broken = firstBroken(report, events);
  if (broken !== null || wasm === undefined) return broken;
  return JSON.stringify(wasm.audit(dag, events)) === JSON.stringify(report)
    ? null
    : { rule: ENGINES_DIFFER, index: events.length - 1, kind: kindAt(events, events.length - 1) };
}

/** The rules each record breaks by `report`: integrity, the invariants, each listed illegal event. */
export function rulesByRecord(report: Report, events: readonly unknown[]): string[][] {
  const rules = events.map((): string[] => []);
  const at = (index: number, rule: string) => rules[Math.min(index, rules.length - 1)]?.push(rule);
  if (report.integrity !== null)
    at(report.integrity.index, `integrity (${report.integrity.reason})`);
  for (const [name, verdict] of Object.entries(report.invariants)) {
    if (verdict.holds) continue;
    if ("index" in verdict) at(verdict.index, `${name} (${verdict.node})`);
    else at(events.length - 1, `${name} (${verdict.nodes.join(", ")})`);
  }
  for (const illegal of report.legality.first) at(illegal.index, `legality (${illegal.reason})`);
  return rules;
}

/** The finding's journal shrunk while it fails first by the same rule at the same kind of record. */
export function shrinkFailure(
  dag: Dag,
  events: readonly unknown[],
  wasm?: Engine,
): Promise<unknown[]> {
  return shrinkKeepingFailure(
    events,
    (candidate) => failureOf(dag, candidate, wasm),
    simplerRecord,
  );
}

/** A widen with one path fewer in its surface, each way; no other record has a simpler form. */
function simplerRecord(record: unknown): unknown[] {
  if (typeof record !== "object" || record === null) return [];
  const { kind, surface } = record as { kind?: unknown; surface?: unknown };
  if (kind !== "surface-widened" || !isStringArray(surface)) return [];
  return surface.map((_, i) => ({ ...record, surface: surface.filter((_, j) => j !== i) }));
}

function kindAt(events: readonly unknown[], index: number): unknown {
  const event = events[index];
  return typeof event === "object" && event !== null
    ? (event as { kind?: unknown }).kind
    : undefined;
}

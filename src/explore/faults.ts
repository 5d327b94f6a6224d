/**
 * Fault injection, shared by every model explore runs (docs/explore.md, "Faults"): each explored
 * journal mutated by each fault operator at every place it applies, and every mutant audited. A
 * mutant the audit flags is caught, by the rules it names; one its audit still finds strictly
 * conformant is masked — the fault left a journal the model allows — and the smallest masked
 * mutant of each class is kept as its example. A restart is no fault to detect but a metamorphic
 * check: the journal audited by the WebAssembly engine in two sessions, split at every line by a
 * snapshot and a resume, must give the report of one. A model adds its own operators.
 */

import type { StreamedAuditor } from "../../bindings/streamed-session.js";
import type { ReportFrame } from "../models/report-frame.js";

/** The operators every model's journals get: a record twice, a record lost, two swapped, the last write torn. */
export const COMMON_FAULTS = ["duplicate", "lost", "swapped", "torn-write"] as const;

export interface FaultTally {
  made: number;
  caught: number;
  /** How many mutants each rule caught (a mutant may break several). */
  readonly byRule: Record<string, number>;
  masked: number;
  /** The smallest masked mutant: its journal. */
  smallestMasked: readonly unknown[] | null;
}

export interface Sensitivity<Fault extends string = string> {
  readonly faults: Readonly<Record<Fault, FaultTally>>;
  /** Restarts checked (one per split point), and those whose report differed from the whole audit's. */
  readonly restarts: {
    checked: number;
    differing: number;
    firstDiffering: readonly unknown[] | null;
  };
}

export function emptySensitivity<Fault extends string>(
  faults: readonly Fault[],
): Sensitivity<Fault> {
  const tally = (): FaultTally => ({
    made: 0,
    caught: 0,
    byRule: {},
    masked: 0,
    smallestMasked: null,
  });
  return {
    faults: Object.fromEntries(faults.map((fault) => [fault, tally()])) as Record<
      Fault,
      FaultTally
    >,
    restarts: { checked: 0, differing: 0, firstDiffering: null },
  };
}

/** Any model's report, as far as fault injection reads it. */
type AnyReport = ReportFrame<
  string,
  { readonly reason: string } | null,
  object,
  { readonly reason: string },
  unknown
>;

/** The rules a report says were broken: its integrity reason, broken invariants, illegal reasons, a torn tail. */
export function brokenRules(report: AnyReport): string[] {
  const rules: string[] = [];
  if (report.integrity !== null) rules.push(`integrity (${report.integrity.reason})`);
  for (const [name, verdict] of Object.entries(report.invariants) as [string, { holds: boolean }][])
    if (!verdict.holds) rules.push(name);
  for (const reason of new Set(report.legality.first.map((finding) => finding.reason))) {
    rules.push(`legality (${reason})`);
  }
  if (report.tornTail !== null) rules.push("torn tail");
  return rules;
}

/** Counts a mutant in its class's tally, with the rules its audit says it broke. */
export function tally(
  tally: FaultTally,
  rules: readonly string[],
  journal: readonly unknown[],
): void {
  tally.made += 1;
  if (rules.length === 0) {
    tally.masked += 1;
    if (tally.smallestMasked === null || journal.length < tally.smallestMasked.length) {
      tally.smallestMasked = journal;
    }
    return;
  }
  tally.caught += 1;
  for (const rule of rules) tally.byRule[rule] = (tally.byRule[rule] ?? 0) + 1;
}

/** Every duplicate, lost and swapped mutant of the journal, each with its fault class. */
export function* commonMutants(
  events: readonly unknown[],
): Generator<["duplicate" | "lost" | "swapped", unknown[]]> {
  for (let i = 0; i < events.length; i++) {
    yield ["duplicate", [...events.slice(0, i + 1), events[i], ...events.slice(i + 1)]];
    yield ["lost", [...events.slice(0, i), ...events.slice(i + 1)]];
    if (i + 1 < events.length) {
      yield ["swapped", [...events.slice(0, i), events[i + 1], events[i], ...events.slice(i + 2)]];
    }
  }
}

/** The journal's bytes with the final write torn: the last line cut in half, as a crash mid-write leaves it. */
export function tornFinalWrite(bytes: Uint8Array, events: readonly unknown[]): Uint8Array {
  const last = JSON.stringify(events.at(-1));
  return bytes.subarray(0, bytes.length - 1 - Math.ceil(last.length / 2));
}

/** How a model's WebAssembly engine audits a journal in one session, or in two split by a snapshot. */
export interface RestartableEngine {
  open(snapshots: boolean): StreamedAuditor<unknown>;
  resume(snapshot: Uint8Array, bytes: Uint8Array): Promise<StreamedAuditor<unknown>>;
}

/** The journal audited whole, then split at every line by a snapshot and resumed: the same report each time. */
export async function checkRestarts(
  sensitivity: Sensitivity,
  engine: RestartableEngine,
  bytes: Uint8Array,
  events: readonly unknown[],
): Promise<void> {
  const once = engine.open(false);
  once.write(bytes);
  const whole = JSON.stringify(once.finish());
  for (
    let at = bytes.indexOf(0x0a) + 1;
    at > 0 && at < bytes.length;
    at = bytes.indexOf(0x0a, at) + 1
  ) {
    const first = engine.open(true);
    first.write(bytes.subarray(0, at));
    const resumed = await engine.resume(first.snapshot(), bytes);
    sensitivity.restarts.checked += 1;
    if (JSON.stringify(resumed.finish()) !== whole) {
      sensitivity.restarts.differing += 1;
      sensitivity.restarts.firstDiffering ??= events;
    }
  }
}

/**
 * Fault injection on the dag model's explored journals (docs/explore.md, "Faults"): each journal
 * of a distinct state, mutated by each fault operator at every place it applies — a record
 * delivered twice, a record lost, two adjacent records swapped, the final write torn — and every
 * mutant audited by the reference. A mutant the audit flags is caught, by the rules it names; one
 * still strictly conformant is masked (the fault left a journal the model allows, such as a
 * repeated widen), and the smallest masked mutant of each class is kept as its example. A restart
 * is not a fault to detect but a metamorphic check: the journal audited by the WebAssembly engine
 * in two sessions, split at every line by a snapshot and a resume, must give the report of one.
 */
import type { WasmEngine } from "../../../bindings/engine.js";
import { readJsonlJournal } from "../../journal/jsonl.js";
import { audit } from "../../models/dag/audit.js";
import type { Dag } from "../../models/dag/dag.js";
import type { Report } from "../../models/dag/report.js";

export const FAULT_CLASSES = ["duplicate", "lost", "swapped", "torn-write"] as const;
export type FaultClass = (typeof FAULT_CLASSES)[number];

export interface FaultTally {
  made: number;
  caught: number;
  /** How many mutants each rule caught (a mutant may break several). */
  readonly byRule: Record<string, number>;
  masked: number;
  /** The smallest masked mutant: its journal. */
  smallestMasked: readonly unknown[] | null;
}

export interface Sensitivity {
  readonly faults: Readonly<Record<FaultClass, FaultTally>>;
  /** Restarts checked (one per split point), and those whose report differed from the whole audit's. */
  readonly restarts: {
    checked: number;
    differing: number;
    firstDiffering: readonly unknown[] | null;
  };
}

export function emptySensitivity(): Sensitivity {
  const tally = (): FaultTally => ({
    made: 0,
    caught: 0,
    byRule: {},
    masked: 0,
    smallestMasked: null,
  });
  return {
    faults: { duplicate: tally(), lost: tally(), swapped: tally(), "torn-write": tally() },
    restarts: { checked: 0, differing: 0, firstDiffering: null },
  };
}

/** Every mutant of the journal, each with its fault class. */
function* mutants(events: readonly unknown[]): Generator<[FaultClass, unknown[]]> {
  for (let i = 0; i < events.length; i++) {
    yield ["duplicate", [...events.slice(0, i + 1), events[i], ...events.slice(i + 1)]];
    yield ["lost", [...events.slice(0, i), ...events.slice(i + 1)]];
    if (i + 1 < events.length) {
      yield ["swapped", [...events.slice(0, i), events[i + 1], events[i], ...events.slice(i + 2)]];
    }
  }
}

/** The rules a report says were broken: its integrity reason, broken invariants, illegal reasons, a torn tail. */
export function brokenRules(report: Report): string[] {
  const rules: string[] = [];
  if (report.integrity !== null) rules.push(`integrity (${report.integrity.reason})`);
  for (const [name, verdict] of Object.entries(report.invariants))
    if (!verdict.holds) rules.push(name);
  for (const reason of new Set(report.legality.first.map((event) => event.reason))) {
    rules.push(`legality (${reason})`);
  }
  if (report.tornTail !== null) rules.push("torn tail");
  return rules;
}

function judge(tally: FaultTally, report: Report, journal: readonly unknown[]): void {
  tally.made += 1;
  const rules = brokenRules(report);
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

const encoder = new TextEncoder();

/** A journal as JSONL bytes: its header with the DAG, a line per event. */
export function journalBytes(dag: Dag, events: readonly unknown[]): Uint8Array {
  const header = JSON.stringify({ statefold: "journal", version: 1, dag: { nodes: dag.nodes } });
  return encoder.encode(
    `${[header, ...events.map((event) => JSON.stringify(event))].join("\n")}\n`,
  );
}

/** Injects every fault into the journal and tallies what the audit made of each mutant. */
export function injectFaults(sensitivity: Sensitivity, dag: Dag, events: readonly unknown[]): void {
  for (const [fault, mutant] of mutants(events))
    judge(sensitivity.faults[fault], audit(dag, mutant), mutant);
  if (events.length === 0) return;
  // The final write torn: the last line cut in half, as a crash mid-write leaves it.
  const bytes = journalBytes(dag, events);
  const last = JSON.stringify(events.at(-1));
  const torn = bytes.subarray(0, bytes.length - 1 - Math.ceil(last.length / 2));
  const read = readJsonlJournal(torn, "torn");
  judge(
    sensitivity.faults["torn-write"],
    audit(dag, read.events, { tornTail: read.tornTail }),
    events,
  );
}

/** The journal audited whole, then split at every line by a snapshot and resumed: the same report each time. */
export async function checkRestarts(
  sensitivity: Sensitivity,
  wasm: WasmEngine,
  dag: Dag,
  events: readonly unknown[],
): Promise<void> {
  const bytes = journalBytes(dag, events);
  const whole = JSON.stringify(await wasm.auditBytes(null, bytes));
  for (
    let at = bytes.indexOf(0x0a) + 1;
    at > 0 && at < bytes.length;
    at = bytes.indexOf(0x0a, at) + 1
  ) {
    const first = wasm.openAuditor(null, { snapshots: true });
    first.write(bytes.subarray(0, at));
    const resumed = await wasm.resume(first.snapshot(), [bytes]);
    sensitivity.restarts.checked += 1;
    if (JSON.stringify(resumed.finish()) !== whole) {
      sensitivity.restarts.differing += 1;
      sensitivity.restarts.firstDiffering ??= events;
    }
  }
}

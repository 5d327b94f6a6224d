/**
 * Fault injection on the dag model's explored journals (docs/explore.md, "Faults"): the common
 * operators of src/explore/faults.ts — a record delivered twice, a record lost, two adjacent
 * records swapped, the final write torn — each mutant audited by the reference, and the restart
 * check on the WebAssembly engine. A mutant still strictly conformant is masked (a repeated
 * widen, say).
 */
import type { WasmEngine } from "../../../bindings/dag/engine.js";
import { readJsonlJournal } from "../../journal/jsonl.js";
import { audit } from "../../models/dag/audit.js";
import type { Dag } from "../../models/dag/dag.js";
import {
  brokenRules,
  COMMON_FAULTS,
  checkRestarts as checkRestartsOn,
  commonMutants,
  type Sensitivity,
  tally,
  tornFinalWrite,
} from "../faults.js";

export const FAULT_CLASSES = COMMON_FAULTS;
export type FaultClass = (typeof FAULT_CLASSES)[number];

const encoder = new TextEncoder();

/** A journal as JSONL bytes: its header with the DAG, a line per event. */
export function journalBytes(dag: Dag, events: readonly unknown[]): Uint8Array {
  const header = JSON.stringify({ statefold: "journal", version: 1, dag: { nodes: dag.nodes } });
  return encoder.encode(
    `${[header, ...events.map((event) => JSON.stringify(event))].join("\n")}\n`,
  );
}

/** Injects every fault into the journal and tallies what the audit made of each mutant. */
export function injectFaults(
  sensitivity: Sensitivity<FaultClass>,
  dag: Dag,
  events: readonly unknown[],
): void {
  for (const [fault, mutant] of commonMutants(events))
    tally(sensitivity.faults[fault], brokenRules(audit(dag, mutant)), mutant);
  if (events.length === 0) return;
  const read = readJsonlJournal(tornFinalWrite(journalBytes(dag, events), events), "torn");
  tally(
    sensitivity.faults["torn-write"],
    brokenRules(audit(dag, read.events, { tornTail: read.tornTail })),
    events,
  );
}

/** The journal audited whole, then split at every line by a snapshot and resumed: the same report each time. */
export function checkRestarts(
  sensitivity: Sensitivity,
  wasm: WasmEngine,
  dag: Dag,
  events: readonly unknown[],
): Promise<void> {
  const engine = {
    open: (snapshots: boolean) => wasm.openAuditor(null, { snapshots }),
    resume: (snapshot: Uint8Array, bytes: Uint8Array) => wasm.resume(snapshot, [bytes]),
  };
  return checkRestartsOn(sensitivity, engine, journalBytes(dag, events), events);
}

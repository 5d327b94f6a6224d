/**
 * Fault injection on the executive model's explored journals (docs/explore.md, "Faults"): the
 * common operators — a line delivered twice, a line lost, two swapped, the final write torn —
 * each mutant audited by the reference, and the restart check on the WebAssembly engine.
 */
import type { WasmExecutiveEngine } from "../../../bindings/executive/engine.js";
import { readJsonlJournal } from "../../journal/jsonl.js";
import { auditExecutive, type ExecutiveRun } from "../../models/executive/audit.js";
import {
  brokenRules,
  COMMON_FAULTS,
  checkRestarts as checkRestartsOn,
  commonMutants,
  type Sensitivity,
  tally,
  tornFinalWrite,
} from "../faults.js";
import { executiveJournalBytes } from "./subject.js";

export const EXECUTIVE_FAULTS = COMMON_FAULTS;
export type ExecutiveFault = (typeof EXECUTIVE_FAULTS)[number];

export function injectExecutiveFaults(
  sensitivity: Sensitivity<ExecutiveFault>,
  run: ExecutiveRun,
  lines: readonly unknown[],
): void {
  for (const [fault, mutant] of commonMutants(lines)) {
    tally(sensitivity.faults[fault], brokenRules(auditExecutive(run, mutant)), mutant);
  }
  if (lines.length === 0) return;
  const torn = readJsonlJournal(tornFinalWrite(executiveJournalBytes(run, lines), lines), "torn");
  const report = auditExecutive(run, torn.events, { tornTail: torn.tornTail });
  tally(sensitivity.faults["torn-write"], brokenRules(report), lines);
}

/** The journal audited whole, then split at every line by a snapshot and resumed: the same report each time. */
export function checkExecutiveRestarts(
  sensitivity: Sensitivity,
  wasm: WasmExecutiveEngine,
  run: ExecutiveRun,
  lines: readonly unknown[],
): Promise<void> {
  const engine = {
    open: (snapshots: boolean) => wasm.openAuditor({ snapshots }),
    resume: (snapshot: Uint8Array, bytes: Uint8Array) => wasm.resume(snapshot, [bytes]),
  };
  return checkRestartsOn(sensitivity, engine, executiveJournalBytes(run, lines), lines);
}

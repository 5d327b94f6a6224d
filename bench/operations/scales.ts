/**
 * The operations journals the benchmarks read: 10⁵, 10⁶ and 10⁷ records of the simulated runtime
 * of `statefold gen --model operations` (src/generate/operations/) on its default 8 strands, with
 * one illegal record in a thousand as in the dag's mix: every fault kind the generator knows, each
 * once per 10 000 records. The runtime keeps only its live ops, so the journals differ in length,
 * not in shape — what grows with them is the effect ids the audit must remember
 * (`freshIdentity`).
 */
import type { ScaleBase } from "../bench-model.js";

/** What an operations journal of the benchmarks is made of; its file is named by these. */
export interface OperationsMix {
  /** Records after the header, faults included. */
  readonly events: number;
  readonly seed: number;
  /** Strands running ops at once; the generator's default (8) when absent. */
  readonly strands?: number;
  /** Faults injected of every kind src/generate/operations/fault-kinds.ts knows. */
  readonly faultsOfEachKind: number;
}

export interface OperationsScale extends ScaleBase<"operations"> {
  readonly operations: OperationsMix;
}

/** Ten fault kinds, each once per 10 000 records: one illegal record in a thousand. */
function operationsMix(events: number): OperationsMix {
  return { events, seed: 42, faultsOfEachKind: events / 10_000 };
}

export const OPERATIONS_SCALES: readonly OperationsScale[] = [
  {
    name: "operations-1e5-records-8-strands",
    model: "operations",
    operations: operationsMix(100_000),
    rounds: 9,
    warmupRounds: 1,
    finishSecondsMax: 60,
    prefixRunSeconds: 10,
  },
  {
    name: "operations-1e6-records-8-strands",
    model: "operations",
    operations: operationsMix(1_000_000),
    rounds: 5,
    warmupRounds: 1,
    finishSecondsMax: 120,
    prefixRunSeconds: 20,
  },
  {
    name: "operations-1e7-records-8-strands",
    model: "operations",
    operations: operationsMix(10_000_000),
    rounds: 3,
    warmupRounds: 1,
    // Lower than the dag's 180 s: the reference reads the whole journal into memory and parses
    // every record before it folds, so its memory grows with the journal (530 MiB of peak RSS at
    // 10⁶ records on 2026-12-01) and a run over all 10⁷ — ~170–180 s by the probes' projection,
    // four runs — would take 12 minutes and ~5 GB, near Node's default heap (4 GiB here). With
    // 60 s it runs on a prefix (10⁶ records on that day).
    finishSecondsMax: 60,
    prefixRunSeconds: 30,
  },
];

/**
 * bench:check's operations journal: the operations mix at 10⁵ records (12 MB, the same file as
 * the suite's smallest operations scale). The operations kernel reads ~60–130 MB/s, so its run
 * lasts 0.1–0.2 s, and parse-only's about as long: 30 rounds in ~15 s here.
 */
export const OPERATIONS_CHECK_SCALE: OperationsScale = {
  name: "check-operations-1e5-records-8-strands",
  model: "operations",
  operations: operationsMix(100_000),
  rounds: 30,
  warmupRounds: 2,
  finishSecondsMax: 60,
  prefixRunSeconds: 10,
};

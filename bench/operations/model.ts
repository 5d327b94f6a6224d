/**
 * The operations model as the benchmarks measure it (bench/bench-model.ts): the simulated
 * runtime's journals of 10⁵ to 10⁷ records, and the engines that read them.
 */
import { OPERATIONS_FAULT_KINDS } from "../../src/generate/operations/fault-kinds.js";
import { OPERATIONS_STRANDS_DEFAULT } from "../../src/generate/operations/journal.js";
import type { BenchModel } from "../bench-model.js";
import { count } from "../format.js";
import { OPERATIONS_ENGINES, type OperationsEngineName } from "./engines.js";
import { OPERATIONS_PARSE_ONLY_RATIO_MIN } from "./gates.js";
import { operationsJournal } from "./journals.js";
import { OPERATIONS_CHECK_SCALE, OPERATIONS_SCALES, type OperationsScale } from "./scales.js";

export const operationsBench: BenchModel<OperationsScale, OperationsEngineName> = {
  scales: OPERATIONS_SCALES,
  engines: OPERATIONS_ENGINES,
  wasmJsonl: "operations-wasm-jsonl",
  check: {
    scale: OPERATIONS_CHECK_SCALE,
    gates: [{ against: "parse-only", min: OPERATIONS_PARSE_ONLY_RATIO_MIN }],
  },
  eventsOf: (scale) => scale.operations.events,
  journal: (scale, folder) => operationsJournal(scale.operations, folder),
  journalHeading: ({ operations }) => {
    const { events, strands, faultsOfEachKind } = operations;
    const faults = faultsOfEachKind * OPERATIONS_FAULT_KINDS.length;
    return `${count(events)} records, ${count(strands ?? OPERATIONS_STRANDS_DEFAULT)} strands, ${count(faults)} injected faults`;
  },
  markdown: {
    summaryEngines: ["parse-only", "operations-reference"],
    summaryHeading: "## Summary: the operations model",
    summaryText: `How many times the WASM operations engine's throughput on JSONL is each engine's (bench:check requires at least ${OPERATIONS_PARSE_ONLY_RATIO_MIN}× the parse-only floor's, in CPU time). The reference ran on a prefix where marked.`,
    chartAlt: "Throughput of the operations model against journal size",
    unit: "events",
  },
  chart: {
    file: "throughput-operations.svg",
    title: "statefold, operations model: audit throughput against journal size (median run)",
    xLabel: "journal size (records; 8 strands)",
    yLabel: "events per second",
  },
  parseOnlyBefore: "2.3–2.6× (2026-12-01)",
};

/**
 * The shipped `temporal` model as the benchmarks measure it (bench/bench-model.ts): a gigabyte
 * history of Temporal-shaped events as JSONL and as a `{"events": [...]}` document, and the
 * engines that read them — the table-driven data kernel, the parse-only floor and the reference
 * interpreter.
 */
import type { BenchModel } from "../bench-model.js";
import { count } from "../format.js";
import { all, rangeOf } from "../target-line.js";
import { TEMPORAL_ENGINES, type TemporalEngineName } from "./engines.js";
import { TEMPORAL_DOCUMENT_PARSE_ONLY_RATIO_MIN, TEMPORAL_PARSE_ONLY_RATIO_MIN } from "./gates.js";
import { temporalJournalFile } from "./journals.js";
import {
  TEMPORAL_CHECK_SCALE,
  TEMPORAL_DOCUMENT_CHECK_SCALE,
  TEMPORAL_SCALES,
  type TemporalScale,
} from "./scales.js";

export const temporalBench: BenchModel<TemporalScale, TemporalEngineName> = {
  scales: TEMPORAL_SCALES,
  engines: TEMPORAL_ENGINES,
  wasmJsonl: "temporal-wasm",
  check: {
    scale: TEMPORAL_CHECK_SCALE,
    gates: [{ against: "parse-only", min: TEMPORAL_PARSE_ONLY_RATIO_MIN }],
  },
  moreChecks: [
    {
      scale: TEMPORAL_DOCUMENT_CHECK_SCALE,
      gates: [{ against: "parse-only", min: TEMPORAL_DOCUMENT_PARSE_ONLY_RATIO_MIN }],
    },
  ],
  eventsOf: (scale) => scale.temporal.events,
  journal: (scale, folder) => temporalJournalFile(scale.temporal, folder),
  journalHeading: ({ temporal }) =>
    `${count(temporal.events)} events of one workflow run, ${temporal.form === "jsonl" ? "JSONL" : 'a `{"events": [...]}` document'}, conformant`,
  markdown: {
    summaryEngines: ["parse-only", "temporal-reference"],
    summaryHeading: "## Summary: the temporal model (defined by data)",
    summaryText: `How many times the WASM data engine's throughput with the shipped \`temporal\` model is each engine's, on the same history as JSONL and as a document (bench:check requires at least ${TEMPORAL_PARSE_ONLY_RATIO_MIN}× the parse-only floor's on JSONL and ${TEMPORAL_DOCUMENT_PARSE_ONLY_RATIO_MIN}× on a document, in CPU time). On a document the parse-only floor parses each record alone, the document written one record a line (bench/parse-only.ts). The reference ran on a prefix where marked.`,
    chartAlt: "Throughput of the temporal model against journal form",
    unit: "events",
  },
  chart: {
    file: "throughput-temporal.svg",
    title: "statefold, temporal model: audit throughput (median run)",
    xLabel: "history size (events)",
    yLabel: "events per second",
  },
  parseOnlyBefore: "— (new, 2026-12-06)",
  parseOnlyGoal: 3,
  targets: ({ rows }) => {
    const values = rows
      .filter((row) => row.engine === "temporal-wasm")
      .map((row) => row.megabytesPerSecond ?? 0);
    return [
      {
        target: "temporal: WASM data engine's throughput, JSONL and document",
        goal: "≥ 300 MB/s",
        before: "— (new, 2026-12-06)",
        after: rangeOf(values, (value) => `${value.toFixed(0)} MB/s`),
        met: all(values, (value) => value >= 300),
      },
    ];
  },
};

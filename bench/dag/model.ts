/**
 * The dag model as the benchmarks measure it (bench/bench-model.ts): campaigns over DAGs of 10,
 * 10³ and 10⁵ nodes, every engine that reads them, and the targets set on them.
 */
import type { BenchModel } from "../bench-model.js";
import { count } from "../format.js";
import { DAG_ENGINES, type DagEngineName } from "./engines.js";
import { JS_AUDITOR_RATIO_MIN, PARSE_ONLY_RATIO_MIN } from "./gates.js";
import { campaignJournal } from "./journals.js";
import { DAG_CHECK_SCALE, DAG_SCALES, type DagScale } from "./scales.js";
import { dagTargets } from "./targets.js";

export const dagBench: BenchModel<DagScale, DagEngineName> = {
  scales: DAG_SCALES,
  engines: DAG_ENGINES,
  wasmJsonl: "wasm-jsonl",
  check: {
    scale: DAG_CHECK_SCALE,
    gates: [
      { against: "js-auditor", min: JS_AUDITOR_RATIO_MIN },
      { against: "parse-only", min: PARSE_ONLY_RATIO_MIN },
    ],
  },
  eventsOf: (scale) => scale.campaign.events,
  journal: (scale, folder) => campaignJournal(scale.campaign, folder),
  journalHeading: ({ campaign }) =>
    `${count(campaign.events)} events, DAG of ${count(campaign.nodes)} nodes`,
  markdown: {
    summaryEngines: ["parse-only", "js-auditor", "xstate", "reference"],
    summaryHeading: "## Summary",
    summaryText: `How many times the WASM engine's throughput on JSONL is each engine's (bench:check requires at least ${PARSE_ONLY_RATIO_MIN}× the parse-only floor's and ${JS_AUDITOR_RATIO_MIN}× the plain-JS auditor's, in CPU time). XState folds only; the reference and, where marked, XState ran on a prefix.`,
    chartAlt: "Throughput against journal size",
    unit: "events",
  },
  chart: {
    file: "throughput.svg",
    title: "statefold: audit throughput against journal size (median run)",
    xLabel: "journal size (events; DAGs of 10, 10³ and 10⁵ nodes)",
    yLabel: "events per second",
  },
  parseOnlyBefore: "6.97–11×",
  targets: dagTargets,
};

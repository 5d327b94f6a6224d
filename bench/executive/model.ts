/**
 * The executive model as the benchmarks measure it (bench/bench-model.ts): the faithful host's
 * journals of 10⁵ and 10⁶ steps, and the engines that read them.
 */
import { EXECUTIVE_FAULT_KINDS } from "../../src/generate/executive/journal.js";
import type { BenchModel } from "../bench-model.js";
import { count } from "../format.js";
import { EXECUTIVE_ENGINES, type ExecutiveEngineName } from "./engines.js";
import { EXECUTIVE_PARSE_ONLY_RATIO_MIN } from "./gates.js";
import { executiveJournalFile } from "./journals.js";
import { EXECUTIVE_CHECK_SCALE, EXECUTIVE_SCALES, type ExecutiveScale } from "./scales.js";

export const executiveBench: BenchModel<ExecutiveScale, ExecutiveEngineName> = {
  scales: EXECUTIVE_SCALES,
  engines: EXECUTIVE_ENGINES,
  wasmJsonl: "executive-wasm-jsonl",
  check: {
    scale: EXECUTIVE_CHECK_SCALE,
    gates: [{ against: "parse-only", min: EXECUTIVE_PARSE_ONLY_RATIO_MIN }],
  },
  eventsOf: (scale) => scale.executive.events,
  journal: (scale, folder) => executiveJournalFile(scale.executive, folder),
  journalHeading: ({ executive }) => {
    const { events, faults } = executive;
    const injected = EXECUTIVE_FAULT_KINDS.filter((kind) => (faults[kind] ?? 0) > 0);
    const total = injected.reduce((sum, kind) => sum + (faults[kind] ?? 0), 0);
    const kinds =
      injected.length === EXECUTIVE_FAULT_KINDS.length
        ? "of every kind"
        : `(${injected.map((kind) => `\`${kind}\``).join(", ")})`;
    return `${count(events)} steps, ${count(total)} injected faults ${kinds}`;
  },
  markdown: {
    summaryEngines: ["parse-only", "executive-reference"],
    summaryHeading: "## Summary: the executive model",
    summaryText: `How many times the WASM executive engine's throughput on JSONL is each engine's (bench:check requires at least ${EXECUTIVE_PARSE_ONLY_RATIO_MIN}× the parse-only floor's, in CPU time). Its tables count **steps**: a step is one line after the header — an observation replayed through the machine and its recorded decision judged — so steps/s is observations per second. Every run reads and checks the header's spec first (its plan, megabytes of JSON), the WASM engine on a fresh instance each run (an engine keeps the spec of the last header it read). The journals are generated runs that last about as long as their journal: past the spec's bound of 10⁵ plan steps the host ticks more often while it waits (bench/executive/scales.ts).`,
    chartAlt: "Throughput of the executive model against journal size",
    unit: "steps",
  },
  chart: {
    file: "throughput-executive.svg",
    title: "statefold, executive model: replay throughput against journal size (median run)",
    xLabel: "journal size (steps: observations and their decisions)",
    yLabel: "steps (observations) per second",
  },
  parseOnlyBefore: "0.5–1.4× (2026-12-02)",
};

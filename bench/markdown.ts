/** BENCHMARKS.md: what was measured, on what, by which command, the chart and the tables. */
import { ENGINES, type EngineName } from "./engines.js";
import type { Machine } from "./machine.js";
import { type Row, ratioToWasm } from "./rows.js";
import type { Scale } from "./scales.js";

export interface BenchmarkRun {
  readonly command: string;
  readonly date: string;
  readonly machine: Machine;
  readonly loadAtEnd: number;
  readonly idleNodeRssBytes: number;
  readonly scales: readonly Scale[];
  readonly journalBytes: ReadonlyMap<string, number>;
  readonly rows: readonly Row[];
  readonly chartFile: string;
}

export function benchmarksMarkdown(run: BenchmarkRun): string {
  const m = run.machine;
  return [
    "# Benchmarks",
    "",
    `Written by \`${run.command}\` (bench/suite.ts) on ${run.date}. Do not edit by hand: run it again.`,
    "",
    "## Machine",
    "",
    `- CPU: ${m.cpu}, ${m.cores} cores available, ${m.memoryGiB} GiB memory`,
    `- Node ${m.node}, ${m.os}`,
    `- load average (1 min): ${m.loadAtStart.toFixed(2)} at the start, ${run.loadAtEnd.toFixed(2)} at the end — the machine is shared, so compare engines within a run (every engine below ran interleaved with the others), not across runs`,
    "",
    "## How it is measured",
    "",
    "- Each engine runs in a worker process of its own; the workers take turns, one timed run each per round, the order rotating from round to round, after a warmup round. A run is one whole audit (or fold, or parse) of the journal file; tinybench times it; the figures are the **median** run (p50).",
    "- Journals come from `campaignLines` (src/generate/campaign.ts) and live in the OS temp folder, in the page cache after the first read. MB = 10⁶ bytes of JSONL.",
    `- Peak memory is the worker's resident-set high-water mark (\`process.resourceUsage().maxRSS\`), Node itself included: an idle Node process reaches ${mib(run.idleNodeRssBytes)}. For the object API and the kernel alone it includes the events parsed before the timed runs (the object API needs them in memory).`,
    "- Before a figure is reported the run checks that the engines agree: the auditors' reports deep-equal the WASM engine's on the same span of the journal, XState's and the kernel's final counts match, the parse-only loop parsed every line.",
    "- An engine that cannot finish a scale within a few minutes runs on a prefix of the journal (the header and the first events), marked below with how far it got.",
    "",
    "## Engines",
    "",
    "| engine | reads | checks |",
    "|---|---|---|",
    ...engineNames(run.rows).map((name) => {
      const spec = ENGINES[name];
      return `| ${spec.label} | ${spec.input} | ${spec.checks} |`;
    }),
    "",
    `![Throughput against journal size](${run.chartFile})`,
    "",
    ...summary(run),
    ...run.scales.flatMap((scale) => scaleTable(scale, run)),
  ].join("\n");
}

function scaleTable(scale: Scale, run: BenchmarkRun): string[] {
  const rows = run.rows.filter((row) => row.scale === scale.name);
  if (rows.length === 0) return [];
  const { nodes, events } = scale.campaign;
  const bytes = run.journalBytes.get(scale.name) ?? 0;
  return [
    `## \`${scale.name}\`: ${count(events)} events, DAG of ${count(nodes)} nodes, ${(bytes / 1e6).toFixed(0)} MB`,
    "",
    "| engine | events per run | events/s | MB/s | p50 run | runs | peak RSS | × WASM JSONL |",
    "|---|---|--:|--:|--:|--:|--:|--:|",
    ...rows.map((row) => {
      const spec = ENGINES[row.engine];
      const name =
        row.engine === "xstate" ? `${spec.label} (fold only, no invariants)` : spec.label;
      const span =
        row.span.events === row.span.of
          ? count(row.span.events)
          : `**prefix**: first ${count(row.span.events)} of ${count(row.span.of)} (${percent(row.span.events / row.span.of)})`;
      return `| ${name} | ${span} | ${count(Math.round(row.eventsPerSecond))} | ${row.megabytesPerSecond === null ? "—" : row.megabytesPerSecond.toFixed(1)} | ${seconds(row.p50Ms)} | ${row.runs} | ${mib(row.maxRssBytes)} | ${ratio(ratioToWasm(row, rows))} |`;
    }),
    "",
  ];
}

/** The ratios bench:check holds, and the other headline ratios, per scale. */
function summary(run: BenchmarkRun): string[] {
  const lines = run.scales.flatMap((scale) => {
    const rows = run.rows.filter((row) => row.scale === scale.name);
    const over = (engine: EngineName) => {
      const row = rows.find((candidate) => candidate.engine === engine);
      return row === undefined ? "—" : ratio(1 / ratioToWasm(row, rows));
    };
    if (rows.length === 0) return [];
    return [
      `| \`${scale.name}\` | ${over("parse-only")} | ${over("js-auditor")} | ${over("xstate")} | ${over("reference")} |`,
    ];
  });
  return [
    "## Summary",
    "",
    "How many times the WASM engine's throughput on JSONL is each engine's (bench:check requires at least 6× the parse-only floor and more than 1× the plain-JS auditor). XState folds only; the reference and, where marked, XState ran on a prefix.",
    "",
    "| scale | parse-only floor | plain-JS auditor | XState 5 | reference model |",
    "|---|--:|--:|--:|--:|",
    ...lines,
    "",
  ];
}

function engineNames(rows: readonly Row[]): EngineName[] {
  return [...new Set(rows.map((row) => row.engine))];
}

export function count(value: number): string {
  return value.toLocaleString("en-US").replace(/,/g, " ");
}

function percent(share: number): string {
  return share >= 0.01 ? `${(share * 100).toFixed(0)} %` : `${(share * 100).toPrecision(1)} %`;
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

export function mib(bytes: number): string {
  return `${Math.round(bytes / 2 ** 20)} MiB`;
}

export function ratio(value: number): string {
  return value >= 10
    ? `${value.toFixed(0)}×`
    : value >= 0.1
      ? `${value.toFixed(2)}×`
      : `${value.toPrecision(2)}×`;
}

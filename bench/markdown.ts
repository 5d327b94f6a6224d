/**
 * BENCHMARKS.md: what was measured, on what, by which command, then for each model measured, in
 * the scales' order (the dag's first), its chart, its summary and its scales' tables.
 */
import { type BenchedModel, ENGINES, type EngineName } from "./engines.js";
import type { ExploreRow } from "./explore.js";
import { count, mib, percent, ratio, seconds } from "./format.js";
import type { Machine } from "./machine.js";
import { median } from "./measure.js";
import { BENCH_MODELS, benchOf, type Scale } from "./models.js";
import { type Row, ratioToWasm } from "./rows.js";
import type { TargetLine } from "./targets.js";
import { SHORT_COMMAND_RUNS, type WholePath } from "./whole-path.js";

export interface BenchmarkRun {
  readonly command: string;
  readonly date: string;
  readonly machine: Machine;
  readonly loadAtEnd: number;
  readonly idleNodeRssBytes: number;
  readonly scales: readonly Scale[];
  readonly journalBytes: ReadonlyMap<string, number>;
  readonly rows: readonly Row[];
  /** Each measured model's chart, relative to the markdown file. */
  readonly chartFiles: ReadonlyMap<BenchedModel, string>;
  /** Explore's rows, when the run measured them. */
  readonly explore?: readonly ExploreRow[];
  /** The whole path's commands, when the run measured them. */
  readonly wholePath?: WholePath | null;
  /** The targets, before and after, when the run measured any. */
  readonly targets?: readonly TargetLine[];
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
    '- Journals come from `campaignLines` (src/generate/dag/campaign.ts), for the operations model `operationsJournalChunks` (src/generate/operations/journal.ts) and for the executive model `executiveJournal` (src/generate/executive/journal.ts), for the temporal model `temporalHistory` (bench/temporal/history.ts; JSONL, and a `{"events": [...]}` document of the same records, one a line), and live in the OS temp folder, in the page cache after the first read. MB = 10⁶ bytes of the file.',
    `- Peak memory is the worker's resident-set high-water mark (VmHWM of /proc/self/status on Linux: \`ru_maxrss\` there includes the parent's resident set at the fork; bench/peak-rss.ts), Node itself included: an idle Node process reaches ${mib(run.idleNodeRssBytes)}. For the object API and the kernel alone it includes the events parsed before the timed runs (the object API needs them in memory).`,
    "- Before a figure is reported the run checks that the engines agree: the auditors' reports deep-equal the WASM engine's (of the journal's model) on the same span of the journal, XState's and the kernel's final counts match, the parse-only loop parsed every line.",
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
    ...targetsTable(run.targets ?? [], run.wholePath?.earlier?.cli ?? null),
    ...modelsOf(run.scales).flatMap((model) => modelPart(model, run)),
    ...wholePathTable(run.wholePath ?? null),
    ...exploreTable(run.explore ?? []),
  ].join("\n");
}

/** Each target, before and after. */
function targetsTable(lines: readonly TargetLine[], earlierCli: string | null): string[] {
  if (lines.length === 0) return [];
  return [
    "## Targets: before and after",
    "",
    "Each target with the figure measured before the work on the whole path (2026-11-30, this kind of two-core machine) and the figure of this run. A range is the lowest and highest over the scales.",
    "",
    "| target | goal | before | this run | met |",
    "|---|---|---|---|:-:|",
    ...lines.map(
      (line) =>
        `| ${line.target} | ${line.goal} | ${line.before} | ${line.after ?? "not measured by this run"} | ${line.met === null ? "—" : line.met ? "yes" : "**no**"} |`,
    ),
    "",
    ...(earlierCli === null
      ? []
      : [
          `¹ Measured in this run, in the same rounds as this build's commands, with an earlier build's CLI (${earlierCli}).`,
          "",
        ]),
  ];
}

/** The whole path's commands (bench/whole-path.ts): each as a user runs it, its own process. */
function wholePathTable(whole: WholePath | null): string[] {
  if (whole === null) return [];
  const p50 = (values: readonly number[]) => seconds(median(values));
  return [
    "## The whole path, as a user runs it",
    "",
    `Each command in a process of its own, process start included, the commands taking turns (${whole.rounds} rounds after a warmup round, the order rotating; the two HEADER commands, a tenth of a second each, ${SHORT_COMMAND_RUNS} times a round, their median run kept); BIG is a strictly conformant campaign of ${(whole.bigJournalBytes / 1e6).toFixed(0)} MB over a DAG of 10⁵ tasks, BIG+1MB the same campaign ${(whole.appendedBytes / 1e6).toFixed(1)} MB longer, S a snapshot. CPU time is every thread of the command (worker threads included); peak RSS its resident-set high-water mark. The machine's two-thread ceiling (a busy loop on two threads against one) was ${ratio(whole.ceiling)} (median of the rounds).`,
    "",
    "| command | p50 wall | p50 CPU | peak RSS |",
    "|---|--:|--:|--:|",
    ...[
      ...whole.commands,
      ...(whole.earlier?.commands ?? []).filter((command) => command.name !== "parse-only-big"),
    ].map(
      (command) =>
        `| \`statefold ${command.shown}\` | ${p50(command.wallMs)} | ${p50(command.cpuMs)} | ${mib(command.maxRssBytes)} |`,
    ),
    "",
  ];
}

/** Explore's distinct states per second on one core (bench/explore.ts), beside the fold's floor. */
function exploreTable(rows: readonly ExploreRow[]): string[] {
  if (rows.length === 0) return [];
  const perSecond = (n: number, seconds: number) => count(Math.round(n / seconds));
  return [
    "## `statefold explore`",
    "",
    "One process, one core: each exploration timed whole, five rounds taking turns, the median. *Steps only* checks every step (legality, invariants) and audits no journal; *both engines* is `statefold explore` as it runs, every distinct state's journal audited by the reference and the WebAssembly engine; the *reference fold* replays every explored journal — one fold step is the least a transition costs.",
    "",
    "| model | configuration | distinct states | transitions | steps only: distinct states/s | transitions/s | both engines: distinct states/s | reference fold: events/s |",
    "|---|---|--:|--:|--:|--:|--:|--:|",
    ...rows.map(
      (row) =>
        `| ${row.model} | ${row.configuration} | ${count(row.distinctStates)} | ${count(row.transitions)} | ${perSecond(row.distinctStates, row.stepsOnlySeconds)} | ${perSecond(row.transitions, row.stepsOnlySeconds)} | ${perSecond(row.distinctStates, row.bothEnginesSeconds)} | ${perSecond(row.foldEvents, row.foldSeconds)} |`,
    ),
    "",
  ];
}

function modelsOf(scales: readonly Scale[]): BenchedModel[] {
  return [...new Set(scales.map((scale) => scale.model))];
}

/** The model's chart, summary and scales' tables. */
function modelPart(model: BenchedModel, run: BenchmarkRun): string[] {
  const scales = run.scales.filter((scale) => scale.model === model);
  const chartFile = run.chartFiles.get(model);
  return [
    ...(chartFile === undefined
      ? []
      : [`![${BENCH_MODELS[model].markdown.chartAlt}](${chartFile})`, ""]),
    ...summary(model, scales, run.rows),
    ...scales.flatMap((scale) => scaleTable(scale, run)),
  ];
}

function scaleTable(scale: Scale, run: BenchmarkRun): string[] {
  const rows = run.rows.filter((row) => row.scale === scale.name);
  if (rows.length === 0) return [];
  const bytes = run.journalBytes.get(scale.name) ?? 0;
  const { unit } = BENCH_MODELS[scale.model].markdown;
  return [
    `## \`${scale.name}\`: ${benchOf(scale).journalHeading(scale)}, ${(bytes / 1e6).toFixed(0)} MB`,
    "",
    `| engine | ${unit} per run | ${unit}/s | MB/s | p50 run | runs | peak RSS | × WASM JSONL |`,
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

/** The ratios bench:check holds, and the other headline ratios, per scale of the model. */
function summary(model: BenchedModel, scales: readonly Scale[], all: readonly Row[]): string[] {
  const part = BENCH_MODELS[model].markdown;
  const lines = scales.flatMap((scale) => {
    const rows = all.filter((row) => row.scale === scale.name);
    const over = (engine: EngineName) => {
      const row = rows.find((candidate) => candidate.engine === engine);
      return row === undefined ? "—" : ratio(1 / ratioToWasm(row, rows));
    };
    if (rows.length === 0) return [];
    return [`| \`${scale.name}\` | ${part.summaryEngines.map(over).join(" | ")} |`];
  });
  if (lines.length === 0) return [];
  return [
    part.summaryHeading,
    "",
    part.summaryText,
    "",
    `| scale | ${part.summaryEngines.map((engine) => ENGINES[engine].label).join(" | ")} |`,
    `|---|${part.summaryEngines.map(() => "--:").join("|")}|`,
    ...lines,
    "",
  ];
}

function engineNames(rows: readonly Row[]): EngineName[] {
  return [...new Set(rows.map((row) => row.engine))];
}

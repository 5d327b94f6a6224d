/**
 * `npm run bench`: every engine side by side at three scales of the dag and operations models, two
 * of the executive and a gigabyte Temporal history as JSONL and as a document for the shipped
 * `temporal` model (bench/<model>/scales.ts) —
 * at a scale, the engines that read its model's journals — measured interleaved in worker
 * processes (bench/measure.ts), checked to agree (bench/verify.ts), and written to BENCHMARKS.md
 * with a chart per model of throughput against journal size.
 *
 * Back of the envelope: the largest journal is 1.4 GB of ~140-byte lines; at the 1 GB/s a
 * vectorised scanner can reach on one core that is 1.4 s and 7 M lines/s (~140 ns, ~400 cycles a
 * line), while `JSON.parse` of a line alone costs about a microsecond — the 6× the kernel must keep
 * over the parse-only floor (bench:check) leaves it ~170 ns a line for scanning, folding and every
 * check.
 *
 * Usage: npm run bench [-- --scales audit-1e5-events-10-nodes,... --engines wasm-jsonl,... --explore --whole-path
 *                          --earlier-cli OTHER/dist/src/cli/main.js --out FILE]
 * (a run of some scales or engines writes BENCHMARKS.md only when --out names it; the charts go
 * to bench/ beside the file it names). Each scale measures its model's WASM engine on JSONL
 * whatever --engines says: every ratio is to it. A complete run (or --explore) also measures
 * explore's distinct states per second (bench/explore.ts), and (or --whole-path) the commands a
 * user runs, each in its own process (bench/whole-path.ts); BENCHMARKS.md sets every target
 * against its figure from before the work on the whole path (bench/targets.ts) — or, with
 * --earlier-cli, against an earlier build's commands measured in the same rounds.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { basename, dirname, join } from "node:path";
import { parseArgs } from "node:util";
import type { ModelReport } from "../src/models/registry.js";
import {
  type BenchedModel,
  ENGINE_NAMES,
  ENGINES,
  type EngineName,
  enginesOfModel,
  isEngineName,
} from "./engines.js";
import { type ExploreRow, measureExplore } from "./explore.js";
import { count, mib, ratio } from "./format.js";
import { describeMachine } from "./machine.js";
import { benchmarksMarkdown } from "./markdown.js";
import { measureInterleaved, median } from "./measure.js";
import { BENCH_MODELS } from "./models.js";
import type { JournalSpan } from "./prefix.js";
import { type Row, ratioToWasm, rowOf } from "./rows.js";
import { eventsOf, SCALES, type Scale, scaleJournal } from "./scales.js";
import { spanFor } from "./span.js";
import { lineChartSvg, type Series } from "./svg-chart.js";
import { targetLines } from "./targets.js";
import { expectedReport, verifyFindings } from "./verify.js";
import { measureWholePath, type WholePath } from "./whole-path.js";

const { values } = parseArgs({
  options: {
    scales: { type: "string" },
    engines: { type: "string" },
    out: { type: "string" },
    explore: { type: "boolean" },
    "whole-path": { type: "boolean" },
    "earlier-cli": { type: "string" },
  },
});

const scales = values.scales === undefined ? SCALES : pick(values.scales, SCALES);
const chosenEngines =
  values.engines === undefined
    ? ENGINE_NAMES
    : values.engines.split(",").map((name) => {
        if (!isEngineName(name)) throw new Error(`no engine ${name}: ${ENGINE_NAMES.join(", ")}`);
        return name;
      });
const complete = scales.length === SCALES.length && chosenEngines.length === ENGINE_NAMES.length;
/** Explore's rows: in a complete run, or when asked for. */
const withExplore = complete || values.explore === true;
const EXPLORE_ROUNDS = 5;
/** The whole path's commands (bench/whole-path.ts): in a complete run, or when asked for. */
const withWholePath = complete || values["whole-path"] === true;
const WHOLE_PATH_ROUNDS = 5;
/** The models of the scales run, in the scales' order: a chart each. */
const models = [...new Set(scales.map((scale) => scale.model))];
const out = values.out ?? (complete ? "BENCHMARKS.md" : null);

/** Parsed events for the object API need more than Node's default heap at 10⁷ events. */
const LARGE_HEAP = ["--max-old-space-size=16384"];

const machine = describeMachine();
const log = (text: string) => console.log(text);
const journalBytes = new Map<string, number>();

async function main(): Promise<void> {
  log(`statefold bench: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}`);
  const rows: Row[] = [];
  for (const scale of scales) rows.push(...(await runScale(scale)));
  const exploreRows = withExplore ? await runExplore() : [];
  const wholePath = withWholePath ? await runWholePath() : null;
  const targets = targetLines(rows, wholePath);
  log("\ntargets:");
  for (const line of targets) {
    log(
      `  ${line.met === null ? "-" : line.met ? "✓" : "✗"} ${line.target}: ${line.after ?? "not measured"} (goal ${line.goal}; before ${line.before})`,
    );
  }

  if (out !== null) {
    /** Each chart's path relative to the markdown file, as the markdown links it. */
    const chartFiles = new Map<BenchedModel, string>();
    const written: string[] = [];
    for (const model of models) {
      const chartFile = join(dirname(out), "bench", BENCH_MODELS[model].chart.file);
      mkdirSync(dirname(chartFile), { recursive: true }); // an --out elsewhere than the repository
      writeFileSync(chartFile, chart(model, rows));
      chartFiles.set(model, `bench/${basename(chartFile)}`);
      written.push(chartFile);
    }
    writeFileSync(
      out,
      benchmarksMarkdown({
        command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`,
        date: `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
        machine,
        loadAtEnd: os.loadavg()[0] as number,
        idleNodeRssBytes: idleNodeRss(),
        scales,
        journalBytes,
        rows,
        chartFiles,
        explore: exploreRows,
        wholePath,
        targets,
      }),
    );
    log(`wrote ${out} and ${written.join(", ")}`);
  }
}

async function runScale(scale: Scale): Promise<Row[]> {
  log(`\n${scale.name}: writing or reusing the journal…`);
  const journal = await scaleJournal(scale);
  journalBytes.set(scale.name, journal.bytes);
  const full: JournalSpan = { ...journal, events: eventsOf(scale), of: eventsOf(scale) };
  const audit = (path: string) => expectedReport(scale.model, path);
  const expected = new Map<string, ModelReport>([[journal.path, await audit(journal.path)]]);
  const found = expected.get(journal.path)?.events;
  if (found !== full.events) {
    // A dag campaign ends early when every task is proven (the pass rates are set against it).
    throw new Error(`${scale.name}: the journal has ${found} events, not ${full.events}`);
  }
  const engines = enginesOfModel(scale.model, chosenEngines);
  const spans = new Map<EngineName, JournalSpan>();
  for (const engine of engines) {
    spans.set(
      engine,
      ENGINES[engine].mayNeedPrefix ? await spanFor(engine, journal, scale, log) : full,
    );
  }
  for (const span of spans.values()) {
    if (!expected.has(span.path)) expected.set(span.path, await audit(span.path));
  }
  log(
    `  measuring ${engines.length} engines, ${scale.rounds} rounds after ${scale.warmupRounds} warmup…`,
  );
  const measurements = await measureInterleaved(
    engines.map((engine) => ({
      engine,
      path: (spans.get(engine) as JournalSpan).path,
      execArgv: ENGINES[engine].holdsParsedEvents ? LARGE_HEAP : [],
    })),
    { ...scale, onRound: (round) => round >= 0 && log(`  round ${round + 1} done`) },
  );
  verifyFindings(
    scale.name,
    measurements.map((m) => ({
      engine: m.job.engine,
      finding: m.finding,
      expected: expected.get(m.job.path) as ModelReport,
      events: (spans.get(m.job.engine) as JournalSpan).events,
    })),
  );
  const scaleRows = measurements.map((m) =>
    rowOf(scale.name, m, spans.get(m.job.engine) as JournalSpan, readsBytes(m.job.engine)),
  );
  for (const row of scaleRows) {
    log(
      `  ${ENGINES[row.engine].label.padEnd(30)} ${count(Math.round(row.eventsPerSecond)).padStart(12)} events/s  ${row.megabytesPerSecond?.toFixed(1) ?? "—"} MB/s  ${mib(row.maxRssBytes)}  ${ratio(ratioToWasm(row, scaleRows))}`,
    );
  }
  return scaleRows;
}

async function runExplore(): Promise<ExploreRow[]> {
  log(`\nexplore: ${EXPLORE_ROUNDS} rounds in this process…`);
  const exploreRows = await measureExplore(EXPLORE_ROUNDS);
  for (const row of exploreRows) {
    log(
      `  ${row.model} (${row.configuration}): ${count(row.distinctStates)} distinct states; steps only ${count(Math.round(row.distinctStates / row.stepsOnlySeconds))}/s, both engines ${count(Math.round(row.distinctStates / row.bothEnginesSeconds))}/s; reference fold ${count(Math.round(row.foldEvents / row.foldSeconds))} events/s`,
    );
  }
  return exploreRows;
}

async function runWholePath(): Promise<WholePath> {
  log(`\nthe whole path: ${WHOLE_PATH_ROUNDS} rounds of commands…`);
  const whole = await measureWholePath(WHOLE_PATH_ROUNDS, log, values["earlier-cli"] ?? null);
  for (const command of [...whole.commands, ...(whole.earlier?.commands ?? [])]) {
    log(
      `  ${command.shown.padEnd(44)} wall ${median(command.wallMs).toFixed(0).padStart(6)} ms  cpu ${median(command.cpuMs).toFixed(0).padStart(6)} ms  ${mib(command.maxRssBytes)}`,
    );
  }
  return whole;
}

function readsBytes(engine: EngineName): boolean {
  return !ENGINES[engine].holdsParsedEvents;
}

function chart(model: BenchedModel, all: readonly Row[]): string {
  const ofModel = new Set(scales.filter((s) => s.model === model).map((s) => s.name));
  const modelRows = all.filter((row) => ofModel.has(row.scale));
  const series: Series[] = enginesOfModel(model, chosenEngines).map((engine) => ({
    name: ENGINES[engine].label,
    color: ENGINES[engine].color,
    points: modelRows
      .filter((row) => row.engine === engine)
      .map((row) => ({
        x: row.span.of,
        y: row.eventsPerSecond,
        partial: row.span.events < row.span.of,
      })),
  }));
  const { title, xLabel, yLabel } = BENCH_MODELS[model].chart;
  return lineChartSvg(series, {
    title,
    xLabel,
    yLabel,
    note: "hollow: measured on a prefix of the journal (the engine could not finish it within a few minutes)",
  });
}

/** The resident set of a Node process that does nothing: the floor under every peak RSS figure. */
function idleNodeRss(): number {
  const output = execFileSync(process.execPath, [join(import.meta.dirname, "peak-rss-command.js")]);
  return Number(output.toString().trim());
}

function pick(names: string, from: readonly Scale[]): Scale[] {
  return names.split(",").map((name) => {
    const scale = from.find((candidate) => candidate.name === name);
    if (scale === undefined)
      throw new Error(`no scale ${name}: ${from.map((s) => s.name).join(", ")}`);
    return scale;
  });
}

await main();

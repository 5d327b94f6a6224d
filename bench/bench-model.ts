/**
 * What the benchmarks must know of a model, beside what the model contract gives
 * (src/models/model.ts): its journals and their sizes, the engines that read them, the gates
 * bench:check holds its WASM engine to, its parts of BENCHMARKS.md and its targets. Each model
 * describes itself in its folder (bench/<model>/model.ts) and is listed once in bench/models.ts,
 * whose record a model of the registry (src/models/registry.ts) must fill to compile. The bench
 * lives outside src/, so this is no field of `Model`.
 */
import type { ModelReport, ProgramModelName } from "../src/models/registry.js";
import type { JournalFile } from "./journal-files.js";
import type { Row } from "./rows.js";
import type { TargetLine } from "./target-line.js";
import type { WholePath } from "./whole-path.js";

/**
 * The models the benchmarks measure: every model written as a program, and of the models defined
 * by data the shipped `temporal` (bench/models.ts says why that one).
 */
export type BenchedModel = ProgramModelName | "temporal";

/** A journal the benchmarks measure, of one model; what it is made of is the model's. */
export interface ScaleBase<Name extends BenchedModel = BenchedModel> {
  /** Named by workload and size, as the house names benchmarks. */
  readonly name: string;
  readonly model: Name;
  /** Timed rounds (one run of every engine each), after the warmup rounds. */
  readonly rounds: number;
  readonly warmupRounds: number;
  /**
   * An engine whose run over the whole journal would take longer than this cannot finish the
   * scale "within a few minutes": it runs on a prefix sized for runs of `prefixRunSeconds`.
   */
  readonly finishSecondsMax: number;
  readonly prefixRunSeconds: number;
}

/**
 * What one run found: an auditor's report (of the journal's model), a fold's final counts (its
 * report's `final.counts`), or how many lines parsed.
 */
export type Finding =
  | { readonly report: ModelReport }
  | { readonly counts: Readonly<Record<string, number>>; readonly illegal?: number }
  | { readonly parsed: number };

export type Run = () => Promise<Finding>;

/**
 * An engine measured: a function that audits (or folds, or parses) one journal file and returns
 * what it found, so that every run can check the engines agree.
 */
export interface EngineSpec {
  /** The table's name for it. */
  readonly label: string;
  /** What it reads. */
  readonly input: string;
  /** What it checks. */
  readonly checks: string;
  /** Whether it may need a prefix to finish a scale within the time budget. */
  readonly mayNeedPrefix: boolean;
  /** Whether its peak memory includes events parsed before the timed runs. */
  readonly holdsParsedEvents: boolean;
  /** Its line in the model's chart. */
  readonly color: string;
  /**
   * Does the work a caller does once (loading the kernel, parsing events for the object API);
   * the function it returns is what is timed.
   */
  prepare(path: string): Promise<Run>;
}

/** A ratio bench:check holds a model's WASM engine to, in CPU time. */
export interface Gate<Engine extends string = string> {
  /** The engine the model's WASM engine is measured against. */
  readonly against: Engine;
  /** The least ratio of that engine's time over the WASM engine's. */
  readonly min: number;
}

/** The figures of one model measured by a run, for its targets. */
export interface MeasuredModel {
  /** The rows of the model's scales. */
  readonly rows: readonly Row[];
  /** At each of its scales measured, the WASM engine's throughput over that engine's. */
  wasmOver(engine: string): number[];
}

export interface BenchModel<Scale extends ScaleBase = ScaleBase, Engine extends string = string> {
  /** Its journals, in the order they are measured: smallest first. */
  readonly scales: readonly Scale[];
  /**
   * The engines that read its journals, by the names `--engines` and the tables know them, in
   * the order they are measured and tabled.
   */
  readonly engines: Readonly<Record<Engine, EngineSpec>>;
  /**
   * Its WASM engine on JSONL: measured at every scale of the model, the engine every other is
   * compared with (the tables' ratios), and whose report is what the measured engines must find.
   */
  readonly wasmJsonl: Engine;
  /** bench:check's journal of the model, and the gates its WASM engine must pass on it. */
  readonly check: { readonly scale: Scale; readonly gates: readonly Gate<Engine>[] };
  /** bench:check's further journals of the model (another form of it), each with its gates. */
  readonly moreChecks?: readonly {
    readonly scale: Scale;
    readonly gates: readonly Gate<Engine>[];
  }[];
  /** The lines after the header of the scale's whole journal. */
  eventsOf(scale: Scale): number;
  /** The scale's whole journal, written once to `folder` and reused. */
  journal(scale: Scale, folder: string): Promise<JournalFile>;
  /** The scale's journal, for its table's heading: "100 000 steps, 51 injected faults …". */
  journalHeading(scale: Scale): string;
  /** What BENCHMARKS.md says of the model. */
  readonly markdown: {
    /** The engines whose throughput the summary sets the model's WASM engine against. */
    readonly summaryEngines: readonly Engine[];
    readonly summaryHeading: string;
    readonly summaryText: string;
    readonly chartAlt: string;
    /** The tables' word for a line after the header: "events per run", "events/s". */
    readonly unit: string;
  };
  /** Its chart of throughput against journal size. */
  readonly chart: {
    /** Its file, written beside BENCHMARKS.md under bench/. */
    readonly file: string;
    readonly title: string;
    readonly xLabel: string;
    readonly yLabel: string;
  };
  /** Its WASM engine's throughput over the parse-only loop's before the work on the whole path. */
  readonly parseOnlyBefore: string;
  /** The least throughput over the parse-only loop's its WASM engine aims at; 6× when absent. */
  readonly parseOnlyGoal?: number;
  /** Its own targets, before the targets every model shares. */
  targets?(measured: MeasuredModel, whole: WholePath | null): TargetLine[];
}

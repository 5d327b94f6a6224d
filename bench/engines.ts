/**
 * The engines measured side by side, each a function that audits (or folds, or parses) one
 * journal file and returns what it found, so that every run can check the engines agree.
 * `prepareEngine` does the work a caller does once (loading the kernel, parsing events for the
 * object API); the function it returns is what is timed.
 *
 * Each engine reads the journals of the models it names: most are of the dag model (their names
 * say none), two audit operations journals (named `operations-…`), two executive journals
 * (`executive-…`), and the parse-only floor parses any JSONL. A scale measures the engines of its
 * journal's model.
 */

import { type EncodedEvents, encodeEvents, foldEncoded } from "../bindings/dag/fold-records.js";
import { nodeIdsOf } from "../bindings/dag/header-dag.js";
import { packDag } from "../bindings/dag/pack-dag.js";
import { readReport } from "../bindings/dag/read-report.js";
import { loadExecutiveEngine, type WasmExecutiveEngine } from "../bindings/executive/index.js";
import { loadEngine } from "../bindings/index.js";
import { instantiateKernel } from "../bindings/kernel.js";
import { loadOperationsEngine } from "../bindings/operations/index.js";
import { readFileChunks } from "../src/journal/read-file-bytes.js";
import { referenceEngine } from "../src/models/dag/engine.js";
import type { Status } from "../src/models/dag/state.js";
import { referenceExecutiveEngine } from "../src/models/executive/engine.js";
import { referenceOperationsEngine } from "../src/models/operations/engine.js";
import type { ModelName, ModelReport } from "../src/models/registry.js";
import { JsAuditor } from "./dag/js-auditor/index.js";
import { readParsedJournal } from "./dag/parsed-journal.js";
import { xstateFold } from "./dag/xstate-fold.js";
import { parseOnly } from "./parse-only.js";

/** The models the benchmarks measure: every model statefold knows. */
export type BenchedModel = ModelName;

export interface EngineSpec {
  /** The table's name for it. */
  readonly label: string;
  /** What it reads. */
  readonly input: string;
  /** What it checks. */
  readonly checks: string;
  /** The models whose journals it reads. */
  readonly models: readonly BenchedModel[];
  /** Whether it may need a prefix to finish a scale within the time budget. */
  readonly mayNeedPrefix: boolean;
  /** Whether its peak memory includes events parsed before the timed runs. */
  readonly holdsParsedEvents: boolean;
}

export const ENGINES = {
  "wasm-jsonl": {
    label: "WASM engine, JSONL",
    input: "JSONL bytes streamed from the file (`auditBytes`)",
    checks: "everything",
    models: ["dag"],
    mayNeedPrefix: false,
    holdsParsedEvents: false,
  },
  "wasm-objects": {
    label: "WASM engine, object API",
    input: "events parsed beforehand (`audit(dag, events)`)",
    checks: "everything",
    models: ["dag"],
    mayNeedPrefix: false,
    holdsParsedEvents: true,
  },
  "wasm-records": {
    label: "WASM kernel alone",
    input: "events encoded as records beforehand (`foldEncoded`)",
    checks: "everything",
    models: ["dag"],
    mayNeedPrefix: false,
    holdsParsedEvents: true,
  },
  "js-auditor": {
    label: "plain-JS auditor",
    input: "JSONL bytes streamed from the file",
    checks: "everything",
    models: ["dag"],
    mayNeedPrefix: false,
    holdsParsedEvents: false,
  },
  reference: {
    label: "reference model",
    input: "JSONL bytes from the file (`referenceEngine.auditBytes`)",
    checks: "everything",
    models: ["dag"],
    mayNeedPrefix: true,
    holdsParsedEvents: false,
  },
  xstate: {
    label: "XState 5",
    input: "`readline` + `JSON.parse`, one actor per node",
    checks: "fold only: no integrity, legality or invariants",
    models: ["dag"],
    mayNeedPrefix: true,
    holdsParsedEvents: false,
  },
  "parse-only": {
    label: "parse-only floor",
    input: "`readline` + `JSON.parse`",
    checks: "none",
    models: ["dag", "operations", "executive"],
    mayNeedPrefix: false,
    holdsParsedEvents: false,
  },
  "operations-wasm-jsonl": {
    label: "WASM operations engine, JSONL",
    input: "JSONL bytes streamed from the file (`loadOperationsEngine().auditBytes`)",
    checks: "everything",
    models: ["operations"],
    mayNeedPrefix: false,
    holdsParsedEvents: false,
  },
  "operations-reference": {
    label: "operations reference model",
    input: "JSONL bytes from the file, read whole (`referenceOperationsEngine.auditBytes`)",
    checks: "everything",
    models: ["operations"],
    mayNeedPrefix: true,
    holdsParsedEvents: false,
  },
  "executive-wasm-jsonl": {
    label: "WASM executive engine, JSONL",
    input:
      "JSONL bytes streamed from the file (`loadExecutiveEngine().auditBytes`), the header's spec loaded every run",
    checks: "everything",
    models: ["executive"],
    mayNeedPrefix: false,
    holdsParsedEvents: false,
  },
  "executive-reference": {
    label: "executive reference model",
    input: "JSONL bytes from the file, read whole (`referenceExecutiveEngine.auditBytes`)",
    checks: "everything",
    models: ["executive"],
    mayNeedPrefix: true,
    holdsParsedEvents: false,
  },
} as const satisfies Record<string, EngineSpec>;

export type EngineName = keyof typeof ENGINES;
export const ENGINE_NAMES = Object.keys(ENGINES) as EngineName[];

export function isEngineName(name: string): name is EngineName {
  return Object.hasOwn(ENGINES, name);
}

/**
 * Each model's WASM engine on JSONL: measured at every scale of the model, the engine every other
 * is compared with (the tables' ratios), and whose report in the bench's own process is what the
 * measured engines must find (bench/verify.ts).
 */
export const WASM_JSONL_ENGINES = {
  dag: "wasm-jsonl",
  operations: "operations-wasm-jsonl",
  executive: "executive-wasm-jsonl",
} as const satisfies Record<BenchedModel, EngineName>;

/** The engines of `chosen` that read the model's journals, its WASM engine on JSONL first. */
export function enginesOfModel(model: BenchedModel, chosen: readonly EngineName[]): EngineName[] {
  const wasm = WASM_JSONL_ENGINES[model];
  const others = chosen.filter(
    (engine) =>
      engine !== wasm && (ENGINES[engine].models as readonly BenchedModel[]).includes(model),
  );
  return [wasm, ...others];
}

/**
 * What one run found: an auditor's report (of the journal's model), a fold's final counts, or how
 * many lines parsed.
 */
export type Finding =
  | { readonly report: ModelReport }
  | { readonly counts: Readonly<Record<Status, number>>; readonly illegal?: number }
  | { readonly parsed: number };

export type Run = () => Promise<Finding>;

export async function prepareEngine(name: EngineName, path: string): Promise<Run> {
  switch (name) {
    case "wasm-jsonl": {
      const engine = await loadEngine();
      return async () => ({ report: await engine.auditBytes(null, readFileChunks(path)) });
    }
    case "wasm-objects": {
      const engine = await loadEngine();
      const { dag, events, lines } = await readParsedJournal(path);
      return async () => ({ report: engine.audit(dag, events, { lines }) });
    }
    case "wasm-records":
      return prepareRecords(path);
    case "js-auditor": {
      const auditor = new JsAuditor();
      return async () => ({ report: await auditor.auditBytes(null, readFileChunks(path)) });
    }
    case "reference":
      return async () => ({ report: await referenceEngine.auditBytes(null, readFileChunks(path)) });
    case "xstate":
      return async () => ({ counts: await xstateFold(path) });
    case "parse-only":
      return async () => ({ parsed: await parseOnly(path) });
    case "operations-wasm-jsonl": {
      const engine = await loadOperationsEngine();
      return async () => ({ report: await engine.auditBytes(readFileChunks(path)) });
    }
    case "operations-reference":
      return async () => ({
        report: await referenceOperationsEngine.auditBytes(readFileChunks(path)),
      });
    case "executive-wasm-jsonl":
      return prepareExecutiveKernel(path);
    case "executive-reference":
      return async () => ({
        report: await referenceExecutiveEngine.auditBytes(readFileChunks(path), { file: path }),
      });
    default: {
      const unreachable: never = name;
      return unreachable;
    }
  }
}

/** The kernel folding records the host encoded beforehand: its speed without any JSON. */
async function prepareRecords(path: string): Promise<Run> {
  const engine = await loadEngine();
  const kernel = await instantiateKernel(undefined, engine.flavour);
  const { dag, events } = await readParsedJournal(path);
  if (!packDag(kernel, dag)) throw new Error("the DAG does not fit the kernel");
  const encoded: EncodedEvents = encodeEvents(dag, events);
  events.length = 0; // the records are all the kernel reads
  return async () => {
    if (foldEncoded(kernel, encoded) !== 0) throw new Error("kernel limit");
    const report = readReport(kernel, { ids: nodeIdsOf(dag), lines: undefined });
    return { counts: report.final.counts, illegal: report.legality.illegal };
  };
}

/**
 * The executive kernel on the file, a fresh engine each run. An engine keeps the spec it packed
 * from the last header it read and skips the header's spec when the next journal's header is the
 * same bytes (a fleet's journals of one spec load it once), so a second run of one engine over the
 * same file would measure the body alone — yet the header of a generated journal holds its whole
 * plan (megabytes of JSON: 2.7 MB at 10⁵ lines), and reading, checking and packing it is most of
 * a 10⁵-line audit. Each run audits the file as a one-off audit does, its header included, as the
 * reference does every run; the next engine is loaded after each run, as the other engines load
 * theirs once, before it is timed.
 */
function prepareExecutiveKernel(path: string): Run {
  let next: Promise<WasmExecutiveEngine> = loadExecutiveEngine();
  return async () => {
    const engine = await next;
    const report = await engine.auditBytes(readFileChunks(path), { file: path });
    next = loadExecutiveEngine();
    // Awaited by the next run; a rejection after the last run is no failure of this one.
    next.catch(() => undefined);
    return { report };
  };
}

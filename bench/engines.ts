/**
 * The engines measured side by side, each a function that audits (or folds, or parses) one
 * journal file and returns what it found, so that every run can check the engines agree.
 * `prepareEngine` does the work a caller does once (loading the kernel, parsing events for the
 * object API); the function it returns is what is timed.
 */
import { type EncodedEvents, encodeEvents, foldEncoded } from "../bindings/fold-records.js";
import { loadEngine } from "../bindings/index.js";
import { instantiateKernel } from "../bindings/kernel.js";
import { packDag } from "../bindings/pack-dag.js";
import { readReport } from "../bindings/read-report.js";
import { referenceEngine } from "../src/engine.js";
import { readFileChunks } from "../src/journal/read-file-bytes.js";
import type { Report } from "../src/models/dag/report.js";
import type { Status } from "../src/models/dag/state.js";
import { JsAuditor } from "./js-auditor/index.js";
import { parseOnly } from "./parse-only.js";
import { readParsedJournal } from "./parsed-journal.js";
import { xstateFold } from "./xstate-fold.js";

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
}

export const ENGINES = {
  "wasm-jsonl": {
    label: "WASM engine, JSONL",
    input: "JSONL bytes streamed from the file (`auditBytes`)",
    checks: "everything",
    mayNeedPrefix: false,
    holdsParsedEvents: false,
  },
  "wasm-objects": {
    label: "WASM engine, object API",
    input: "events parsed beforehand (`audit(dag, events)`)",
    checks: "everything",
    mayNeedPrefix: false,
    holdsParsedEvents: true,
  },
  "wasm-records": {
    label: "WASM kernel alone",
    input: "events encoded as records beforehand (`foldEncoded`)",
    checks: "everything",
    mayNeedPrefix: false,
    holdsParsedEvents: true,
  },
  "js-auditor": {
    label: "plain-JS auditor",
    input: "JSONL bytes streamed from the file",
    checks: "everything",
    mayNeedPrefix: false,
    holdsParsedEvents: false,
  },
  reference: {
    label: "reference model",
    input: "JSONL bytes from the file (`referenceEngine.auditBytes`)",
    checks: "everything",
    mayNeedPrefix: true,
    holdsParsedEvents: false,
  },
  xstate: {
    label: "XState 5",
    input: "`readline` + `JSON.parse`, one actor per node",
    checks: "fold only: no integrity, legality or invariants",
    mayNeedPrefix: true,
    holdsParsedEvents: false,
  },
  "parse-only": {
    label: "parse-only floor",
    input: "`readline` + `JSON.parse`",
    checks: "none",
    mayNeedPrefix: false,
    holdsParsedEvents: false,
  },
} as const satisfies Record<string, EngineSpec>;

export type EngineName = keyof typeof ENGINES;
export const ENGINE_NAMES = Object.keys(ENGINES) as EngineName[];

export function isEngineName(name: string): name is EngineName {
  return Object.hasOwn(ENGINES, name);
}

/** What one run found: an auditor's report, a fold's final counts, or how many lines parsed. */
export type Finding =
  | { readonly report: Report }
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
    const report = readReport(kernel, { dag, lines: undefined });
    return { counts: report.final.counts, illegal: report.legality.illegal };
  };
}

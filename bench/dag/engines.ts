/**
 * The engines that read the dag's journals: the WASM engine on JSONL, through its object API and
 * its kernel alone on records encoded beforehand; the plain-JS auditor, the reference, XState's
 * fold and the parse-only floor.
 */

import { loadEngine } from "../../bindings/dag/engine.js";
import { type EncodedEvents, encodeEvents, foldEncoded } from "../../bindings/dag/fold-records.js";
import { nodeIdsOf } from "../../bindings/dag/header-dag.js";
import { packDag } from "../../bindings/dag/pack-dag.js";
import { readReport } from "../../bindings/dag/read-report.js";
import { instantiateKernel } from "../../bindings/kernel.js";
import { readFileChunks } from "../../src/journal/read-file-bytes.js";
import type { EngineSpec, Run } from "../bench-model.js";
import { kernelRun, REFERENCE_COLOR, referenceRun, WASM_COLOR } from "../model-engines.js";
import { PARSE_ONLY_ENGINE } from "../parse-only.js";
import { JsAuditor } from "./js-auditor/index.js";
import { readParsedJournal } from "./parsed-journal.js";
import { xstateFold } from "./xstate-fold.js";

export const DAG_ENGINES = {
  "wasm-jsonl": {
    label: "WASM engine, JSONL",
    input: "JSONL bytes streamed from the file (`auditBytes`)",
    checks: "everything",
    mayNeedPrefix: false,
    holdsParsedEvents: false,
    color: WASM_COLOR,
    prepare: (path) => kernelRun("dag", path),
  },
  "wasm-objects": {
    label: "WASM engine, object API",
    input: "events parsed beforehand (`audit(dag, events)`)",
    checks: "everything",
    mayNeedPrefix: false,
    holdsParsedEvents: true,
    color: "#ff7f0e",
    prepare: prepareObjects,
  },
  "wasm-records": {
    label: "WASM kernel alone",
    input: "events encoded as records beforehand (`foldEncoded`)",
    checks: "everything",
    mayNeedPrefix: false,
    holdsParsedEvents: true,
    color: "#8c564b",
    prepare: prepareRecords,
  },
  "js-auditor": {
    label: "plain-JS auditor",
    input: "JSONL bytes streamed from the file",
    checks: "everything",
    mayNeedPrefix: false,
    holdsParsedEvents: false,
    color: "#1f77b4",
    prepare: async (path) => {
      const auditor = new JsAuditor();
      return async () => ({ report: await auditor.auditBytes(null, readFileChunks(path)) });
    },
  },
  reference: {
    label: "reference model",
    input: "JSONL bytes from the file (`referenceEngine.auditBytes`)",
    checks: "everything",
    mayNeedPrefix: true,
    holdsParsedEvents: false,
    color: REFERENCE_COLOR,
    prepare: (path) => referenceRun("dag", path),
  },
  xstate: {
    label: "XState 5",
    input: "`readline` + `JSON.parse`, one actor per node",
    checks: "fold only: no integrity, legality or invariants",
    mayNeedPrefix: true,
    holdsParsedEvents: false,
    color: "#9467bd",
    prepare: async (path) => async () => ({ counts: await xstateFold(path) }),
  },
  ...PARSE_ONLY_ENGINE,
} as const satisfies Record<string, EngineSpec>;

export type DagEngineName = keyof typeof DAG_ENGINES;

/** The object API on events parsed beforehand (the DAG and each line as `JSON.parse` gives it). */
async function prepareObjects(path: string): Promise<Run> {
  const engine = await loadEngine();
  const { dag, events, lines } = await readParsedJournal(path);
  return async () => ({ report: engine.audit(dag, events, { lines }) });
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

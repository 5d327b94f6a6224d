/**
 * The engines that read the benchmarks' Temporal histories, in either form (./journals.ts): the
 * data kernel, the parse-only floor and the reference interpreter. Each reads a `.json` file as
 * the shipped model's document and any other as JSONL (./models.ts), so that one scale's engines
 * all read its one file.
 */
import { loadDataEngine } from "../../bindings/data/engine.js";
import { readFileChunks } from "../../src/journal/read-file-bytes.js";
import { referenceDataEngine } from "../../src/models/data/engine.js";
import type { DataAnswer, DataReport } from "../../src/models/data/report.js";
import type { EngineSpec, Finding, Run } from "../bench-model.js";
import { REFERENCE_COLOR, WASM_COLOR } from "../model-engines.js";
import { PARSE_ONLY_ENGINE } from "../parse-only.js";
import { temporalModelFor } from "./models.js";

export const TEMPORAL_ENGINES = {
  "temporal-wasm": {
    label: "WASM data engine, temporal",
    input:
      "JSONL bytes, or the `events` of a JSON document, streamed from the file (`loadDataEngine(model).auditBytes`)",
    checks: "everything",
    mayNeedPrefix: false,
    holdsParsedEvents: false,
    color: WASM_COLOR,
    prepare: kernelRun,
  },
  ...PARSE_ONLY_ENGINE,
  "temporal-reference": {
    label: "temporal reference interpreter",
    input:
      "JSONL bytes or a JSON document from the file, read whole (`referenceDataEngine(model).auditBytes`)",
    checks: "everything",
    mayNeedPrefix: true,
    holdsParsedEvents: false,
    color: REFERENCE_COLOR,
    prepare: referenceRun,
  },
} as const satisfies Record<string, EngineSpec>;

export type TemporalEngineName = keyof typeof TEMPORAL_ENGINES;

/** The data kernel, loaded once with the model the file's form needs. */
async function kernelRun(path: string): Promise<Run> {
  const engine = await loadDataEngine(temporalModelFor(path));
  return async () => temporalFinding(await engine.auditBytes(readFileChunks(path), { file: path }));
}

async function referenceRun(path: string): Promise<Run> {
  const engine = referenceDataEngine(temporalModelFor(path), "temporal");
  return async () => temporalFinding(await engine.auditBytes(readFileChunks(path), { file: path }));
}

/** Both forms of the model keep the shipped name (./models.ts) and split no stream: their answers are a temporal report. */
function temporalFinding(report: DataAnswer): Finding {
  return { report: report as DataReport<"temporal"> };
}

/** The engines that read operations journals: the WASM engine, parse-only floor and reference. */
import type { EngineSpec } from "../bench-model.js";
import { kernelRun, REFERENCE_COLOR, referenceRun, WASM_COLOR } from "../model-engines.js";
import { PARSE_ONLY_ENGINE } from "../parse-only.js";

export const OPERATIONS_ENGINES = {
  "operations-wasm-jsonl": {
    label: "WASM operations engine, JSONL",
    input: "JSONL bytes streamed from the file (`loadOperationsEngine().auditBytes`)",
    checks: "everything",
    mayNeedPrefix: false,
    holdsParsedEvents: false,
    color: WASM_COLOR,
    prepare: (path) => kernelRun("operations", path),
  },
  ...PARSE_ONLY_ENGINE,
  "operations-reference": {
    label: "operations reference model",
    input: "JSONL bytes from the file, read whole (`referenceOperationsEngine.auditBytes`)",
    checks: "everything",
    mayNeedPrefix: true,
    holdsParsedEvents: false,
    color: REFERENCE_COLOR,
    prepare: (path) => referenceRun("operations", path),
  },
} as const satisfies Record<string, EngineSpec>;

export type OperationsEngineName = keyof typeof OPERATIONS_ENGINES;

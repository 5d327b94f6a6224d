/** The engines that read executive journals: the WASM engine, parse-only floor and reference. */
import type { EngineSpec } from "../bench-model.js";
import { freshKernelRun, REFERENCE_COLOR, referenceRun, WASM_COLOR } from "../model-engines.js";
import { PARSE_ONLY_ENGINE } from "../parse-only.js";

export const EXECUTIVE_ENGINES = {
  "executive-wasm-jsonl": {
    label: "WASM executive engine, JSONL",
    input:
      "JSONL bytes streamed from the file (`loadExecutiveEngine().auditBytes`), the header's spec loaded every run",
    checks: "everything",
    mayNeedPrefix: false,
    holdsParsedEvents: false,
    color: WASM_COLOR,
    // A fresh engine each run. An engine keeps the spec it packed from the last header it read
    // and skips the header's spec when the next journal's header is the same bytes (a fleet's
    // journals of one spec load it once), so a second run of one engine over the same file would
    // measure the body alone — yet the header of a generated journal holds its whole plan
    // (megabytes of JSON: 2.7 MB at 10⁵ lines), and reading, checking and packing it is most of
    // a 10⁵-line audit. Each run audits the file as a one-off audit does, its header included,
    // as the reference does every run.
    prepare: async (path) => freshKernelRun("executive", path),
  },
  ...PARSE_ONLY_ENGINE,
  "executive-reference": {
    label: "executive reference model",
    input: "JSONL bytes from the file, read whole (`referenceExecutiveEngine.auditBytes`)",
    checks: "everything",
    mayNeedPrefix: true,
    holdsParsedEvents: false,
    color: REFERENCE_COLOR,
    prepare: (path) => referenceRun("executive", path),
  },
} as const satisfies Record<string, EngineSpec>;

export type ExecutiveEngineName = keyof typeof EXECUTIVE_ENGINES;

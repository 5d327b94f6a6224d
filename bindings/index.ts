/**
 * The bindings' entry: `loadEngine` gives the WebAssembly engine of a model — the `dag` engine by
 * default, `{ model: "operations" }` or `{ model: "executive" }` for the others. Another model's
 * bindings are imported when asked for, so a page that loads this file without a bundler, for the
 * dag engine, fetches only the dag's modules (the executive's import a package, `immutable`).
 */
import {
  ArgumentError,
  choiceArgument,
  closedObjectArgument,
  describeValue,
} from "../src/engine-arguments.js";
import { MODEL_NAMES, type ModelName } from "../src/models/registry.js";
import {
  type LoadEngineOptions,
  loadEngine as loadDagEngine,
  type WasmEngine,
} from "./dag/engine.js";
import type { LoadExecutiveEngineOptions, WasmExecutiveEngine } from "./executive/index.js";
import type { LoadOperationsEngineOptions, WasmOperationsEngine } from "./operations/index.js";

export type { EngineName, JournalBytes } from "../src/engine.js";
export type { AuditBytesOptions, Engine } from "../src/models/dag/engine.js";
export type { LoadEngineOptions, WasmEngine } from "./dag/engine.js";
export type { AuditorOptions, JournalAuditor } from "./dag/jsonl-session.js";
export type {
  ExecutiveAuditorOptions,
  ExecutiveJournalAuditor,
  KernelExecutiveState,
  LoadExecutiveEngineOptions,
  WasmExecutiveEngine,
} from "./executive/index.js";

import type { KernelFlavour } from "./kernel.js";

export { type KernelFlavour, type KernelSource, supportsSimd } from "./kernel.js";
export type {
  LoadOperationsEngineOptions,
  OperationsJournalAuditor,
  WasmOperationsEngine,
} from "./operations/index.js";

export function loadEngine(
  options: LoadExecutiveEngineOptions & { readonly model: "executive" },
): Promise<WasmExecutiveEngine>;
export function loadEngine(
  options: LoadOperationsEngineOptions & { readonly model: "operations" },
): Promise<WasmOperationsEngine>;
export function loadEngine(
  options?: LoadEngineOptions & { readonly model?: "dag" },
): Promise<WasmEngine>;
export async function loadEngine(
  options: unknown = {},
): Promise<WasmEngine | WasmOperationsEngine | WasmExecutiveEngine> {
  const { model = "dag", ...rest } = loadEngineArgument(options);
  switch (model) {
    case "executive":
      return (await import("./executive/index.js")).loadExecutiveEngine(rest);
    case "operations":
      return (await import("./operations/index.js")).loadOperationsEngine(rest);
    case "dag":
      return loadDagEngine(rest);
  }
}

type AnyLoadEngineOptions = (
  | LoadEngineOptions
  | LoadOperationsEngineOptions
  | LoadExecutiveEngineOptions
) & { readonly model?: ModelName };

/** `loadEngine`'s options, checked: a model it ships, a build it has, no option it ignores. */
function loadEngineArgument(options: unknown): AnyLoadEngineOptions {
  const call = "loadEngine(options)";
  const checked = closedObjectArgument(call, "options", options, LOAD_OPTIONS) as {
    readonly model?: unknown;
    readonly flavour?: unknown;
    readonly memoryLimitBytes?: unknown;
  };
  const model = choiceArgument(call, "options.model", checked.model, MODEL_NAMES);
  choiceArgument(call, "options.flavour", checked.flavour, KERNEL_FLAVOURS);
  const limit = checked.memoryLimitBytes;
  if (limit !== undefined && (model ?? "dag") === "dag") {
    throw new ArgumentError(
      call,
      "options.memoryLimitBytes",
      'absent for the dag engine (it is the "operations" and "executive" engines\' option)',
      describeValue(limit),
    );
  }
  if (limit !== undefined && !(typeof limit === "number" && limit >= 0)) {
    throw new ArgumentError(
      call,
      "options.memoryLimitBytes",
      "a number of bytes",
      describeValue(limit),
    );
  }
  return checked as AnyLoadEngineOptions;
}

const LOAD_OPTIONS = ["model", "wasm", "flavour", "memoryLimitBytes"];
const KERNEL_FLAVOURS: readonly KernelFlavour[] = ["simd", "scalar"];

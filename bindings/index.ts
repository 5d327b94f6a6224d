/**
 * The bindings' entry: `loadEngine` gives the WebAssembly engine of a registered model — the
 * default model's, or the one `{ model }` names (docs/api.md). Each model's bindings are imported
 * when asked for, so a page that loads this file without a bundler fetches only the modules of
 * the models it loads (the executive's import a package, `immutable`).
 */
import {
  ArgumentError,
  choiceArgument,
  closedObjectArgument,
  describeValue,
} from "../src/engine-arguments.js";
import type { KernelOptions, Model } from "../src/models/model.js";
import {
  DEFAULT_MODEL,
  MODEL_NAMES,
  MODELS,
  type ModelName,
  modelNamed,
  type ShippedDataModelName,
} from "../src/models/registry.js";
import type { LoadEngineOptions, WasmEngine } from "./dag/engine.js";
import type { WasmDataEngine } from "./data/engine.js";
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
  options: KernelOptions & { readonly model: ShippedDataModelName },
): Promise<WasmDataEngine>;
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
): Promise<WasmEngine | WasmOperationsEngine | WasmExecutiveEngine | WasmDataEngine> {
  const { model = DEFAULT_MODEL, ...rest } = loadEngineArgument(options);
  const kernel = await modelNamed(model).kernel(rest);
  return kernel as WasmEngine | WasmOperationsEngine | WasmExecutiveEngine | WasmDataEngine;
}

/** `loadEngine`'s options, checked: a model it ships, a build it has, no option it ignores. */
function loadEngineArgument(options: unknown): KernelOptions & { readonly model?: ModelName } {
  const call = "loadEngine(options)";
  const checked = closedObjectArgument(call, "options", options, LOAD_OPTIONS) as {
    readonly model?: unknown;
    readonly flavour?: unknown;
    readonly memoryLimitBytes?: unknown;
  };
  const model = choiceArgument(call, "options.model", checked.model, MODEL_NAMES);
  choiceArgument(call, "options.flavour", checked.flavour, KERNEL_FLAVOURS);
  refuseOptionsOfOtherKernels(call, modelNamed(model ?? DEFAULT_MODEL), checked);
  const limit = checked.memoryLimitBytes;
  if (limit !== undefined && !(typeof limit === "number" && limit >= 0)) {
    throw new ArgumentError(
      call,
      "options.memoryLimitBytes",
      "a number of bytes",
      describeValue(limit),
    );
  }
  return checked as KernelOptions & { readonly model?: ModelName };
}

/** An option some models' kernels take, given for a model whose kernel does not, is refused. */
function refuseOptionsOfOtherKernels(call: string, model: Model, options: object): void {
  for (const [name, value] of Object.entries(options)) {
    const option = name as keyof KernelOptions;
    if (name === "model" || value === undefined || model.kernelOptions.includes(option)) continue;
    const takers = (MODELS as readonly Model[])
      .filter((other) => other.kernelOptions.includes(option))
      .map((other) => JSON.stringify(other.name));
    throw new ArgumentError(
      call,
      `options.${name}`,
      `absent for the ${model.name} engine (it is the ${takers.join(" and ")} engines' option)`,
      describeValue(value),
    );
  }
}

const LOAD_OPTIONS = ["model", "wasm", "flavour", "memoryLimitBytes"];
const KERNEL_FLAVOURS: readonly KernelFlavour[] = ["simd", "scalar"];

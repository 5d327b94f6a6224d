/**
 * The bindings' entry: `loadEngine` gives the WebAssembly engine of a model — the `dag` engine by
 * default, `{ model: "operations" }` or `{ model: "executive" }` for the others. Another model's
 * bindings are imported when asked for, so a page that loads this file without a bundler, for the
 * dag engine, fetches only the dag's modules (the executive's import a package, `immutable`).
 */
import { type LoadEngineOptions, loadEngine as loadDagEngine, type WasmEngine } from "./engine.js";
import type { LoadExecutiveEngineOptions, WasmExecutiveEngine } from "./executive/index.js";
import type { LoadOperationsEngineOptions, WasmOperationsEngine } from "./operations/index.js";

export type { AuditBytesOptions, Engine, EngineName, JournalBytes } from "../src/engine.js";
export type { LoadEngineOptions, WasmEngine } from "./engine.js";
export type {
  ExecutiveAuditorOptions,
  ExecutiveJournalAuditor,
  KernelExecutiveState,
  LoadExecutiveEngineOptions,
  WasmExecutiveEngine,
} from "./executive/index.js";
export type { AuditorOptions, JournalAuditor } from "./jsonl-session.js";
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
  options: (LoadEngineOptions | LoadOperationsEngineOptions | LoadExecutiveEngineOptions) & {
    readonly model?: "dag" | "operations" | "executive";
  } = {},
): Promise<WasmEngine | WasmOperationsEngine | WasmExecutiveEngine> {
  const { model = "dag", ...rest } = options;
  switch (model) {
    case "executive":
      return (await import("./executive/index.js")).loadExecutiveEngine(rest);
    case "operations":
      return (await import("./operations/index.js")).loadOperationsEngine(rest);
    case "dag":
      return loadDagEngine(rest);
  }
}

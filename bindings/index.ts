/**
 * The bindings' entry: `loadEngine` gives the WebAssembly engine of a model — the `dag` engine by
 * default, `{ model: "operations" }` or `{ model: "executive" }` for the others.
 */
import { type LoadEngineOptions, loadEngine as loadDagEngine, type WasmEngine } from "./engine.js";
import {
  type LoadExecutiveEngineOptions,
  loadExecutiveEngine,
  type WasmExecutiveEngine,
} from "./executive/index.js";
import {
  type LoadOperationsEngineOptions,
  loadOperationsEngine,
  type WasmOperationsEngine,
} from "./operations/index.js";

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
export function loadEngine(
  options: (LoadEngineOptions | LoadOperationsEngineOptions | LoadExecutiveEngineOptions) & {
    readonly model?: "dag" | "operations" | "executive";
  } = {},
): Promise<WasmEngine | WasmOperationsEngine | WasmExecutiveEngine> {
  const { model = "dag", ...rest } = options;
  switch (model) {
    case "executive":
      return loadExecutiveEngine(rest);
    case "operations":
      return loadOperationsEngine(rest);
    case "dag":
      return loadDagEngine(rest);
  }
}

/**
 * The engines measured side by side, each a function that audits (or folds, or parses) one
 * journal file and returns what it found, so that every run can check the engines agree.
 * `prepareEngine` does the work a caller does once (loading the kernel, parsing events for the
 * object API); the function it returns is what is timed.
 *
 * Each model names the engines that read its journals (bench/<model>/engines.ts); the parse-only
 * floor parses any JSONL, so every model names it. A scale measures the engines of its journal's
 * model.
 */

import type { EngineSpec, Run } from "./bench-model.js";
import { BENCH_MODELS, BENCHED_MODELS, type BenchedModel, type EngineName } from "./models.js";

export type { Finding, Run } from "./bench-model.js";
export type { BenchedModel, EngineName } from "./models.js";

/** Every model's engines, in the order of models measured, each engine once. */
export const ENGINES: Readonly<Record<EngineName, EngineSpec>> = Object.assign(
  {},
  ...BENCHED_MODELS.map((model) => BENCH_MODELS[model].engines),
);

export const ENGINE_NAMES = Object.keys(ENGINES) as EngineName[];

export function isEngineName(name: string): name is EngineName {
  return Object.hasOwn(ENGINES, name);
}

/** Each model's WASM engine on JSONL (bench/bench-model.ts, `wasmJsonl`). */
export const WASM_JSONL_ENGINES = Object.fromEntries(
  BENCHED_MODELS.map((model) => [model, BENCH_MODELS[model].wasmJsonl]),
) as Readonly<Record<BenchedModel, EngineName>>;

/** The engines of `chosen` that read the model's journals, its WASM engine on JSONL first. */
export function enginesOfModel(model: BenchedModel, chosen: readonly EngineName[]): EngineName[] {
  const wasm = WASM_JSONL_ENGINES[model];
  const engines = BENCH_MODELS[model].engines;
  const others = chosen.filter((engine) => engine !== wasm && Object.hasOwn(engines, engine));
  return [wasm, ...others];
}

/** The model whose journals the engine reads, the first of those measured that names it. */
export function modelOfEngine(engine: EngineName): BenchedModel | undefined {
  return BENCHED_MODELS.find((model) => Object.hasOwn(BENCH_MODELS[model].engines, engine));
}

export function prepareEngine(name: EngineName, path: string): Promise<Run> {
  return ENGINES[name].prepare(path);
}

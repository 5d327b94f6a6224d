/**
 * The models the benchmarks measure: every model of the registry (src/models/registry.ts), each
 * described once by its folder here (bench/<model>/model.ts). A model added to the registry does
 * not compile until it is described here; every list of scales, engines, gates and charts is
 * derived from this record, in the registry's order.
 */
import { PROGRAM_MODEL_NAMES, type ProgramModelName } from "../src/models/registry.js";
import type { BenchModel, ScaleBase } from "./bench-model.js";
import { dagBench } from "./dag/model.js";
import { executiveBench } from "./executive/model.js";
import { operationsBench } from "./operations/model.js";

export const BENCH_MODELS = {
  dag: dagBench,
  operations: operationsBench,
  executive: executiveBench,
} as const satisfies { readonly [Name in ProgramModelName]: BenchModel<ScaleBase<Name>> };

type Described = (typeof BENCH_MODELS)[ProgramModelName];

/** A journal the benchmarks measure, of any model; `model` tells which. */
export type Scale = Described["scales"][number];

/** The engines of every model, by the names `--engines` and the tables know them. */
export type EngineName = {
  [Name in ProgramModelName]: keyof (typeof BENCH_MODELS)[Name]["engines"];
}[ProgramModelName];

/**
 * The bench's description of the scale's model, typed for that scale: each model's entry
 * describes its own scales, which a record indexed by a union of names cannot tell the compiler.
 */
export function benchOf<S extends Scale>(scale: S): BenchModel<S> {
  return BENCH_MODELS[scale.model] as unknown as BenchModel<S>;
}

/** Every scale the suite measures, model by model. */
export const SCALES: readonly Scale[] = PROGRAM_MODEL_NAMES.flatMap(
  (model): readonly Scale[] => BENCH_MODELS[model].scales,
);

/** The model of the suite's scale of that name; undefined for others (bench:check's, a test's). */
export function modelOfScale(name: string): ProgramModelName | undefined {
  return SCALES.find((scale) => scale.name === name)?.model;
}

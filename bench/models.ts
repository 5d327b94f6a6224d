/**
 * The models the benchmarks measure, each described once by its folder here
 * (bench/<model>/model.ts): every model of the registry written as a program
 * (src/models/registry.ts, `PROGRAM_MODELS`) — a model added there does not compile until it is
 * described here — and, of the models defined by data, the shipped `temporal`. Every list of
 * scales, engines, gates and charts is derived from this record, in its order.
 *
 * One model defined by data, not all three shipped: `temporal`, `cadence` and `stepfunctions` are
 * tables for one interpreter (the data kernel, bindings/data/), so a second and a third would
 * measure the same code on other tables — at a gigabyte each, ten minutes more of a suite of
 * 25–55. `temporal` has the most clauses per record (a step, a put or check of a slot, a
 * register, a counter, the sequence and the monotone taskId) and real exports of every size, so
 * its figures bound the others'; a slower model file would show in its own measurements, not here.
 */
import { PROGRAM_MODEL_NAMES } from "../src/models/registry.js";
import type { BenchedModel, BenchModel, ScaleBase } from "./bench-model.js";
import { dagBench } from "./dag/model.js";
import { executiveBench } from "./executive/model.js";
import { operationsBench } from "./operations/model.js";
import { temporalBench } from "./temporal/model.js";

export type { BenchedModel } from "./bench-model.js";

export const BENCH_MODELS = {
  dag: dagBench,
  operations: operationsBench,
  executive: executiveBench,
  temporal: temporalBench,
} as const satisfies { readonly [Name in BenchedModel]: BenchModel<ScaleBase<Name>> };

/** The models measured, in the order they are measured and tabled: the program models first. */
export const BENCHED_MODELS: readonly BenchedModel[] = [...PROGRAM_MODEL_NAMES, "temporal"];

type Described = (typeof BENCH_MODELS)[BenchedModel];

/** A journal the benchmarks measure, of any model; `model` tells which. */
export type Scale = Described["scales"][number];

/** The engines of every model, by the names `--engines` and the tables know them. */
export type EngineName = {
  [Name in BenchedModel]: keyof (typeof BENCH_MODELS)[Name]["engines"];
}[BenchedModel];

/**
 * The bench's description of the scale's model, typed for that scale: each model's entry
 * describes its own scales, which a record indexed by a union of names cannot tell the compiler.
 */
export function benchOf<S extends Scale>(scale: S): BenchModel<S> {
  return BENCH_MODELS[scale.model] as unknown as BenchModel<S>;
}

/** Every scale the suite measures, model by model. */
export const SCALES: readonly Scale[] = BENCHED_MODELS.flatMap(
  (model): readonly Scale[] => BENCH_MODELS[model].scales,
);

/** The model of the suite's scale of that name; undefined for others (bench:check's, a test's). */
export function modelOfScale(name: string): BenchedModel | undefined {
  return SCALES.find((scale) => scale.name === name)?.model;
}

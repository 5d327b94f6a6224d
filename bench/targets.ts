/**
 * The performance targets statefold holds itself to, each with the figure measured before the
 * work on the whole path began (2026-11-30, the same kind of two-core machine: BENCHMARKS.md as
 * it was then, and the measurements its targets were set from) and the figure this run measured:
 * each model's own (bench/<model>/), then, for every model, its WASM engine over the parse-only
 * loop.
 */

import type { MeasuredModel } from "./bench-model.js";
import { ratio } from "./format.js";
import { BENCH_MODELS, BENCHED_MODELS, modelOfScale } from "./models.js";
import { type Row, ratioToWasm } from "./rows.js";
import { all, rangeOf, type TargetLine } from "./target-line.js";
import type { WholePath } from "./whole-path.js";

export type { TargetLine } from "./target-line.js";

/** The targets, with this run's figures where it measured them. */
export function targetLines(rows: readonly Row[], whole: WholePath | null): TargetLine[] {
  const measured = BENCHED_MODELS.map((model) => ({
    model,
    measured: measuredModel(rows.filter((row) => modelOfScale(row.scale) === model)),
  }));
  return [
    ...measured.flatMap(
      ({ model, measured }) => BENCH_MODELS[model].targets?.(measured, whole) ?? [],
    ),
    ...measured.map(({ model, measured }) => {
      const values = measured.wasmOver("parse-only");
      const goal = BENCH_MODELS[model].parseOnlyGoal ?? 6;
      return {
        target: `${model}: WASM engine over the parse-only loop, every scale`,
        goal: `≥ ${goal}×`,
        before: BENCH_MODELS[model].parseOnlyBefore,
        after: rangeOf(values, ratio),
        met: all(values, (v) => v >= goal),
      };
    }),
  ];
}

function measuredModel(rows: readonly Row[]): MeasuredModel {
  return {
    rows,
    wasmOver: (engine) =>
      [...new Set(rows.map((row) => row.scale))].flatMap((scale) => {
        const atScale = rows.filter((row) => row.scale === scale);
        const other = atScale.find((row) => row.engine === engine);
        return other === undefined ? [] : [1 / ratioToWasm(other, atScale)];
      }),
  };
}

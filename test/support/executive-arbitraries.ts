/**
 * Random runs of the executive machine (docs/models/executive.md): a random spec and budget, and
 * a host that mostly answers what the machine decided — results ok or failed, retryable or not,
 * checkpoints confirmed, ticks — and now and then sends something stale, early,
 * clock-regressed, malformed or a cancel.
 */
import fc from "fast-check";
import type { Decision } from "../../src/models/executive/index.js";

export interface StepSpec {
  id: string;
  deps: string[];
  effect?: string;
  plan?: { steps: StepSpec[] };
  budget?: Record<string, number>;
}

/** A plan of up to five steps, each depending on some earlier ones; sub-plans down to `depth`. */
export function planArbitrary(depth: number): fc.Arbitrary<{ steps: StepSpec[] }> {
  const step = (index: number): fc.Arbitrary<StepSpec> =>
    fc
      .record({
        deps: fc.subarray(
          Array.from({ length: index }, (_, i) => `s${i}`),
          { maxLength: Math.min(2, index) },
        ),
        sub: depth > 0 ? fc.boolean() : fc.constant(false),
        effect: fc.constantFrom("model", "tool", "context"),
        budget: fc.option(
          fc.record(
            { steps: fc.nat(30), toolCalls: fc.nat(6), retries: fc.nat(4), deadline: fc.nat(400) },
            { requiredKeys: [] },
          ),
          { nil: undefined },
        ),
      })
      .chain(({ deps, sub, effect, budget }) =>
        sub
          ? planArbitrary(depth - 1).map(
              (plan): StepSpec => ({
                id: `s${index}`,
                deps,
                plan,
                ...(budget === undefined ? {} : { budget }),
              }),
            )
          : fc.constant<StepSpec>({ id: `s${index}`, deps, effect }),
      );
  return fc
    .integer({ min: 0, max: 5 })
    .chain((length) => fc.tuple(...Array.from({ length }, (_, i) => step(i))))
    .map((steps) => ({ steps }));
}

export const budgetArbitrary = fc.record({
  steps: fc.integer({ min: 0, max: 40 }),
  depth: fc.integer({ min: 0, max: 3 }),
  modelCalls: fc.integer({ min: 0, max: 8 }),
  toolCalls: fc.integer({ min: 0, max: 8 }),
  contextOps: fc.integer({ min: 0, max: 8 }),
  retries: fc.integer({ min: 0, max: 5 }),
  outputBytes: fc.integer({ min: 0, max: 400 }),
  deadline: fc.integer({ min: 0, max: 600 }),
});

/** What the host does at each turn, read against the decision it last got. */
export const moveArbitrary = fc.record({
  kind: fc.oneof(
    { weight: 8, arbitrary: fc.constant("answer" as const) },
    fc.constantFrom("tick", "stale", "regress", "cancel", "junk"),
  ),
  ok: fc.integer({ min: 0, max: 9 }),
  retryable: fc.boolean(),
  bytes: fc.nat(60),
  advance: fc.nat(15),
  detail: fc.option(
    fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.constant("lone \ud800")),
    {
      nil: undefined,
    },
  ),
});

export const runArbitrary = fc.record({
  spec: fc.record({
    task: fc.constant("t"),
    plan: planArbitrary(2),
    checkpointEvery: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  }),
  budget: budgetArbitrary,
  moves: fc.array(moveArbitrary, { maxLength: 40 }),
});

export type Move = typeof moveArbitrary extends fc.Arbitrary<infer T> ? T : never;

export function observationFor(move: Move, last: Decision | null, now: number): unknown {
  const pending = last?.tag === "execute" || last?.tag === "checkpoint" ? last : null;
  switch (move.kind) {
    case "tick":
      return { tag: "tick", now };
    case "cancel":
      return { tag: "cancel", now };
    case "regress":
      return { tag: "tick", now: Math.max(0, now - 1 - move.advance) };
    case "stale":
      return { tag: "result", seq: (pending?.seq ?? 0) - 1, outcome: "ok", bytes: 0, now };
    case "junk":
      return [{ tag: "tick", now }, { tag: "launch", now }, { now }, null][move.ok % 4];
    default:
      if (last === null) return { tag: "start", now };
      if (pending?.tag === "checkpoint") return { tag: "checkpointed", seq: pending.seq, now };
      if (pending?.tag === "execute") {
        return move.ok < 5
          ? {
              tag: "result",
              seq: pending.seq,
              outcome: "ok",
              bytes: move.bytes,
              now,
              ...(move.detail === undefined ? {} : { detail: move.detail }),
            }
          : {
              tag: "result",
              seq: pending.seq,
              outcome: "error",
              retryable: move.retryable,
              bytes: move.bytes,
              now,
            };
      }
      return { tag: "tick", now };
  }
}

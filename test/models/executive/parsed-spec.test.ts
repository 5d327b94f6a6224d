/**
 * `readParsedSpec`, the spec reader for values JSON.parse made (a journal's header, a spec file),
 * reads them without the property descriptors `readSpec` takes for a caller's values — and must
 * give the same answer: the same spec and budget, or the same rejection at the same path. Held
 * to that on random specs, each bent at one place in a way `readSpec` refuses or not.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readParsedSpec, readSpec } from "../../../src/models/executive/spec.js";
import { budgetArbitrary, planArbitrary } from "../../support/executive-arbitraries.js";

const KEYS = [
  "__proto__",
  "id",
  "deps",
  "effect",
  "plan",
  "budget",
  "steps",
  "task",
  "depth",
  "x",
  "0",
];

const valueArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom("s0", "s1", "s2", "model", "tool", -1, 0, 1, 2 ** 53, 0.5, [], {}, ["s0"]),
);

type Bend =
  | { readonly kind: "set"; readonly key: string; readonly value: unknown }
  | { readonly kind: "delete"; readonly key: string }
  /** On a step: its id, or its deps (to itself, a later step, a missing one). */
  | { readonly kind: "step"; readonly key: "id" | "deps"; readonly value: unknown };

const bendArbitrary: fc.Arbitrary<{ at: number; bend: Bend }> = fc.record({
  at: fc.nat(),
  bend: fc.oneof(
    fc.record({
      kind: fc.constant("set" as const),
      key: fc.constantFrom(...KEYS),
      value: valueArbitrary,
    }),
    fc.record({ kind: fc.constant("delete" as const), key: fc.constantFrom(...KEYS) }),
    fc.oneof(
      fc.record({
        kind: fc.constant("step" as const),
        key: fc.constant("id" as const),
        value: fc.constantFrom("s0", "s1", "s2"),
      }),
      fc.record({
        kind: fc.constant("step" as const),
        key: fc.constant("deps" as const),
        value: fc.constantFrom(["s0"], ["s1"], ["s4", "s0"], ["ghost"], ["s1", "s1"]),
      }),
    ),
  ),
});

/** Every object and array in the value, the value first. */
function containers(value: unknown, found: object[] = []): object[] {
  if (typeof value !== "object" || value === null) return found;
  found.push(value);
  for (const item of Object.values(value)) containers(item, found);
  return found;
}

/** The JSON text of `value` with one container bent (an own "__proto__" key included). */
function bentText(value: unknown, at: number, bend: Bend): string {
  const copy = JSON.parse(JSON.stringify(value)) as unknown;
  const all = containers(copy).filter((container) => bend.kind !== "step" || "id" in container);
  if (all.length === 0) return JSON.stringify(copy);
  const target = all[at % all.length] as Record<string, unknown>;
  if (bend.kind === "delete") delete target[bend.key];
  else
    Object.defineProperty(target, bend.key, {
      value: bend.value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return JSON.stringify(copy);
}

describe("readParsedSpec", () => {
  it("gives readSpec's answer on every JSON spec and budget, bent or not", () => {
    const answers = new Map<string, number>();
    fc.assert(
      fc.property(
        planArbitrary(2),
        budgetArbitrary,
        fc.option(bendArbitrary, { nil: undefined }),
        (plan, budget, bent) => {
          const run = { spec: { task: "t", plan }, budget };
          const text = bent === undefined ? JSON.stringify(run) : bentText(run, bent.at, bent.bend);
          const caller = JSON.parse(text) as { spec: unknown; budget: unknown };
          const parsed = JSON.parse(text) as { spec: unknown; budget: unknown };
          const expected = readSpec(caller.spec, caller.budget);
          const actual = readParsedSpec(parsed.spec, parsed.budget);
          expect(actual).toStrictEqual(expected);
          const answer = actual.ok ? "accepted" : actual.rejection.reason;
          answers.set(answer, (answers.get(answer) ?? 0) + 1);
          if (actual.ok)
            expect(Object.isFrozen(actual.spec.plan.steps[0] ?? actual.spec)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
    // Not vacuous: the bends reach acceptance and every kind of refusal, each many times.
    const reasons = ["accepted", "invalid-spec", "duplicate-id", "dangling-dependency", "cycle"];
    for (const reason of [...reasons, "invalid-budget"])
      expect(answers.get(reason)).toBeGreaterThan(20);
  });

  it("reads an own __proto__ key as the unknown key it is, not as the prototype", () => {
    const text =
      '{"task":"t","plan":{"steps":[{"id":"a","deps":[],"effect":"tool","__proto__":{}}]}}';
    const budget = JSON.parse(
      '{"steps":1,"depth":1,"modelCalls":1,"toolCalls":1,"contextOps":1,"retries":0,"outputBytes":1,"deadline":1}',
    ) as unknown;
    const read = readParsedSpec(JSON.parse(text), budget);
    expect(read).toStrictEqual({
      ok: false,
      rejection: { reason: "invalid-spec", path: ["plan", "steps", 0, "__proto__"] },
    });
    expect(read).toStrictEqual(readSpec(JSON.parse(text), budget));
  });
});

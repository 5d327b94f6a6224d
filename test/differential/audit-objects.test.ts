/**
 * The object API: audit and replay of raw logs (any values, as a runtime or a reader produced
 * them), WASM (both builds) against the reference.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { WasmEngine } from "../../bindings/index.js";
import { referenceEngine } from "../../src/models/dag/engine.js";
import { LogIntegrityError } from "../../src/models/dag/index.js";
import { UnparseableLine } from "../../src/models/journal-source.js";
import { dagWithRawLogArbitrary } from "../support/arbitraries.js";
import { loadFlavours } from "../support/engines.js";
import { dagOf } from "../support/fixtures.js";
import { outcomeOf } from "../support/outcome.js";
import { dagWithLooseLogArbitrary } from "../support/raw-log-variants.js";

let engines: readonly WasmEngine[];
beforeAll(async () => {
  engines = await loadFlavours();
});

describe("audit, WASM vs reference", () => {
  it("deep-equals the reference on raw logs, with and without lines and a torn tail", () => {
    let faults = 0;
    let sparse = 0;
    fc.assert(
      fc.property(dagWithLooseLogArbitrary(), ({ dag, events, source }) => {
        const bare = outcomeOf(() => referenceEngine.audit(dag, events));
        const located = outcomeOf(() => referenceEngine.audit(dag, events, source));
        if ("returned" in bare && bare.returned.integrity !== null) faults += 1;
        if (Object.keys(events).length < events.length) sparse += 1;
        for (const engine of engines) {
          expect(
            outcomeOf(() => engine.audit(dag, events)),
            engine.flavour,
          ).toEqual(bare);
          expect(
            outcomeOf(() => engine.audit(dag, events, source)),
            engine.flavour,
          ).toEqual(located);
        }
      }),
      { numRuns: 1000 },
    );
    expect(faults).toBeGreaterThan(100);
    expect(sparse).toBeGreaterThan(100);
  });

  it("reports each malformed entry the way the reference does, wherever it stands", () => {
    const dag = dagOf(["A"], ["B", "A"]);
    const entries: unknown[] = [
      undefined,
      null,
      0,
      "dispatched",
      [],
      [{ kind: "dispatched", id: "A" }],
      {},
      { kind: "dispatched" },
      { id: "A" },
      { kind: 1, id: "A" },
      { kind: "dispatched", id: 1 },
      { kind: "dispatched", id: "C" },
      { kind: "Dispatched", id: "A" },
      { kind: "discharged", id: "A", result: "pass" },
      new UnparseableLine("invalid-json"),
      new UnparseableLine("invalid-utf8"),
      Object.create(null),
      new Date(0),
    ];
    const legal = [
      { kind: "dispatched", id: "A" },
      { kind: "landed", id: "A" },
    ];
    for (const [i, entry] of entries.entries()) {
      for (let at = 0; at <= legal.length; at++) {
        const events = [...legal.slice(0, at), entry, ...legal.slice(at)];
        const audited = outcomeOf(() => referenceEngine.audit(dag, events));
        const replayed = outcomeOf(() => referenceEngine.replay(dag, events));
        for (const engine of engines) {
          const label = `${engine.flavour}, entry ${i} at ${at}`;
          expect(
            outcomeOf(() => engine.audit(dag, events)),
            label,
          ).toEqual(audited);
          expect(
            outcomeOf(() => engine.replay(dag, events)),
            label,
          ).toEqual(replayed);
        }
      }
    }
  });
});

describe("replay, WASM vs reference", () => {
  it("folds to the same state, or throws the same LogIntegrityError", () => {
    let thrown = 0;
    fc.assert(
      fc.property(dagWithLooseLogArbitrary(), ({ dag, events }) => {
        const expected = outcomeOf(() => referenceEngine.replay(dag, events));
        if ("threw" in expected) thrown += 1;
        for (const engine of engines) {
          expect(
            outcomeOf(() => engine.replay(dag, events)),
            engine.flavour,
          ).toEqual(expected);
        }
      }),
      { numRuns: 600 },
    );
    expect(thrown).toBeGreaterThan(60);
  });

  it("throws a LogIntegrityError with the reference's index, reason, fault and message", () => {
    fc.assert(
      fc.property(dagWithRawLogArbitrary({}, { maxInsertions: 30 }), ({ dag, events }) => {
        let expected: unknown = null;
        try {
          referenceEngine.replay(dag, events);
        } catch (error) {
          expected = error;
        }
        fc.pre(expected instanceof LogIntegrityError);
        const reference = expected as LogIntegrityError;
        for (const engine of engines) {
          let thrown: unknown = null;
          try {
            engine.replay(dag, events);
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(LogIntegrityError);
          const error = thrown as LogIntegrityError;
          expect(error.index).toBe(reference.index);
          expect(error.reason).toBe(reference.reason);
          expect(error.fault).toEqual(reference.fault);
          expect(error.message).toBe(reference.message);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("replays the same state whatever was audited or replayed before on the same engine", () => {
    fc.assert(
      fc.property(fc.array(dagWithLooseLogArbitrary(), { minLength: 2, maxLength: 4 }), (runs) => {
        for (const engine of engines) {
          for (const { dag, events } of runs) {
            expect(outcomeOf(() => engine.audit(dag, events))).toEqual(
              outcomeOf(() => referenceEngine.audit(dag, events)),
            );
            expect(outcomeOf(() => engine.replay(dag, events))).toEqual(
              outcomeOf(() => referenceEngine.replay(dag, events)),
            );
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});

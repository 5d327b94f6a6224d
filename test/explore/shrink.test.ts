/**
 * Shrinking counterexamples (docs/explore.md, "Counterexamples"): a failing journal shrinks to
 * one that fails first by the same rule at the same kind of record, and from which no single
 * record can be removed — nor a widen's surface cut by a path — without losing that failure;
 * an exploration finding shrinks to the records that cause it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { failureOf, shrinkFailure } from "../../src/explore/dag/counterexample.js";
import { DAG_MUTANTS } from "../../src/explore/dag/mutants.js";
import { dagSubject } from "../../src/explore/dag/subject.js";
import { explore } from "../../src/explore/explore.js";
import { shrink } from "../../src/explore/shrink.js";
import { EVENT_KINDS } from "../../src/models/dag/events.js";
import { initialState, loggedEvents } from "../../src/models/dag/state.js";
import { dagOf } from "../support/fixtures.js";

const dag = dagOf(["A"], ["B", "A"], ["C", "A", "B"]);

const recordArbitrary = fc.record({
  kind: fc.constantFrom(...EVENT_KINDS),
  id: fc.constantFrom("A", "B", "C"),
  result: fc.constantFrom("pass", "fail", "timeout"),
  surface: fc.subarray(["p", "q", "r"]),
});

const sameFailure = (a: ReturnType<typeof failureOf>, b: ReturnType<typeof failureOf>) =>
  a !== null && b !== null && a.rule === b.rule && a.kind === b.kind;

describe("shrink", () => {
  it("keeps removing until no single removal keeps the failure", async () => {
    // Fails while it holds a 3 somewhere after a 1: the shrunk list is exactly [1, 3].
    const fails = (list: readonly number[]) => {
      const one = list.indexOf(1);
      return one >= 0 && list.indexOf(3, one) > one;
    };
    expect(await shrink([5, 1, 2, 1, 3, 4, 3], fails)).toEqual([1, 3]);
    expect(await shrink([3, 1], fails)).toEqual([3, 1]);
  });

  it("shrinks any failing journal to a 1-minimal one that fails first by the same rule at the same kind of record", async () => {
    let shrunk = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(recordArbitrary, { maxLength: 14 }), async (events) => {
        const original = failureOf(dag, events);
        if (original === null) return;
        shrunk += 1;
        const journal = await shrinkFailure(dag, events);
        expect(journal.length).toBeLessThanOrEqual(events.length);
        expect(sameFailure(failureOf(dag, journal), original)).toBe(true);
        for (let i = 0; i < journal.length; i++) {
          const without = [...journal.slice(0, i), ...journal.slice(i + 1)];
          expect(sameFailure(failureOf(dag, without), original), `without record ${i}`).toBe(false);
          const record = journal[i] as { kind: string; surface: string[] };
          if (record.kind !== "surface-widened") continue;
          for (const path of record.surface) {
            const cut = { ...record, surface: record.surface.filter((p) => p !== path) };
            const simpler = [...journal.slice(0, i), cut, ...journal.slice(i + 1)];
            expect(sameFailure(failureOf(dag, simpler), original)).toBe(false);
          }
        }
      }),
      { numRuns: 300 },
    );
    // Not vacuous: most random journals break a rule.
    expect(shrunk).toBeGreaterThan(200);
  });

  it("shrinks an exploration finding to the records that cause it", async () => {
    // Explored with a mutant's actions, the reference's audit finds the dispatch of B before A
    // was proven; the journal that first showed it is shrunk to that one dispatch.
    const mutant = DAG_MUTANTS.find(({ name }) => name === "dispatch-ignores-dependencies");
    const subject = dagSubject({ nodes: 2, paths: 0 });
    const result = explore(
      {
        ...subject,
        *initialStates() {
          for (const { name, state } of subject.initialStates()) {
            yield { name, state: initialState(state.dag, mutant?.semantics) };
          }
        },
      },
      6,
    );
    const finding = result.findings.find(({ rule }) => rule === "scheduleCorrect");
    expect(finding?.from).toBe("a; b<-a");
    const events = loggedEvents(finding?.state as never);
    const journal = await shrinkFailure(finding?.state.dag as never, events);
    expect(journal).toEqual([{ kind: "dispatched", id: "b" }]);
  });
});

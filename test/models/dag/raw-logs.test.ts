/**
 * `audit` over raw logs — legal, illegal and malformed entries mixed — holds to the literal
 * predicates it is built from: every verdict is re-derived here from the exported predicates on
 * the same prefix, and legality is recounted independently by calling the public transition
 * each event stands for on the state just before it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  audit,
  type Dag,
  dagPreserved,
  ILLEGAL_EVENTS_LISTED_MAX,
  type IllegalEvent,
  type IllegalityReason,
  INVARIANT_NAMES,
  type KnownEvent,
  LogIntegrityError,
  loggedEvents,
  type ModelState,
  nodeState,
  noPendingProven,
  phaseMonotonic,
  type Report,
  replay,
  STATUSES,
  scheduleCorrect,
  surfaceMonotonic,
  trajectory,
  unjustifiedProvenNodes,
} from "../../../src/models/dag/index.js";
import { type DagWithRawLog, dagWithRawLogArbitrary } from "../../support/arbitraries.js";
import { applyOp, type Op, type TransitionName } from "../../support/run-ops.js";

const PROPERTY_RUNS = 500;

type Predicate = (dag: Dag, events: Iterable<unknown>) => boolean;

const STEP_PREDICATES = {
  phaseMonotonic,
  noPendingProven,
  dagPreserved,
  scheduleCorrect,
  surfaceMonotonic,
} satisfies Record<string, Predicate>;

const TRANSITION_OF_KIND: Record<KnownEvent["kind"], TransitionName> = {
  dispatched: "dispatch",
  landed: "land",
  "gate-checked": "gateCheck",
  quarantined: "quarantine",
  discharged: "discharge",
  skipped: "skip",
  escalated: "escalate",
  "surface-widened": "widenSurface",
};

/** The events before the first integrity fault, found by replaying ever longer prefixes. */
function validPrefixLength(dag: Dag, events: readonly unknown[]): number {
  for (let k = 0; k < events.length; k += 1) {
    try {
      replay(dag, events.slice(0, k + 1));
    } catch (error) {
      if (error instanceof LogIntegrityError) return k;
      throw error;
    }
  }
  return events.length;
}

function sameSet(a: readonly unknown[], b: readonly unknown[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
}

/**
 * Why the public API could not have logged `event` from `before`, or null: call the transition
 * with the event's arguments; it must accept and log the same event (surfaces compared as sets,
 * a missing or null surface as the empty list, extra fields ignored).
 *
 * A node whose stored surface is not an array of strings is in a state only a raw log makes, and
 * the API has no say there: by the model's rule no valid payload keeps such a surface, so a
 * widening of it is surface-shrinks once the API's own checks pass.
 */
function illegalityByTheApi(before: ModelState, event: KnownEvent): IllegalityReason | null {
  const rejected = illegalityByTheApiCall(before, event);
  const stored = nodeState(before, event.id)?.surface;
  const malformedBefore = !Array.isArray(stored) || stored.some((p) => typeof p !== "string");
  if (event.kind === "surface-widened" && rejected === null && malformedBefore) {
    return "surface-shrinks";
  }
  return rejected;
}

function illegalityByTheApiCall(before: ModelState, event: KnownEvent): IllegalityReason | null {
  const transition = TRANSITION_OF_KIND[event.kind];
  const arg = transition === "widenSurface" ? event.surface : event.result;
  const op: Op = { transition, node: event.id, arg };
  const { state, outcome } = applyOp(before, op);
  if (outcome !== "ok") {
    if (outcome.rejected === "unknown-node") throw new Error("a known node was called unknown");
    return outcome.rejected;
  }
  const logged = loggedEvents(state).at(-1) as KnownEvent;
  expect([logged.kind, logged.id]).toEqual([event.kind, event.id]);
  if (event.kind === "gate-checked" || event.kind === "discharged") {
    expect(logged.result).toBe(event.result);
  }
  if (event.kind !== "surface-widened") return null;
  return sameSet(logged.surface as unknown[], (event.surface ?? []) as unknown[])
    ? null
    : "surface-shrinks";
}

function recountIllegal(dag: Dag, valid: readonly unknown[]): IllegalEvent[] {
  const illegal: IllegalEvent[] = [];
  for (const { index, event, before } of trajectory(dag, valid)) {
    const reason = illegalityByTheApi(before, event);
    if (reason !== null) illegal.push({ index, kind: event.kind, node: event.id, reason });
  }
  return illegal;
}

function auditWithoutThrowing(dag: Dag, events: readonly unknown[]): Report {
  let report: Report | undefined;
  expect(() => {
    report = audit(dag, events);
  }).not.toThrow();
  return report as Report;
}

function forEveryRawLog(check: (input: DagWithRawLog, report: Report, valid: unknown[]) => void) {
  fc.assert(
    fc.property(dagWithRawLogArbitrary(), (input) => {
      const report = auditWithoutThrowing(input.dag, input.events);
      const valid = input.events.slice(0, validPrefixLength(input.dag, input.events));
      check(input, report, valid);
    }),
    { numRuns: PROPERTY_RUNS },
  );
}

describe("audit over raw logs", () => {
  it("never throws, and reports integrity where replay first throws", () => {
    forEveryRawLog(({ dag, events }, report, valid) => {
      const k = valid.length;
      if (k === events.length) {
        expect(report.integrity).toBeNull();
        expect(() => replay(dag, events)).not.toThrow();
        return;
      }
      expect(report.integrity?.index).toBe(k);
      expect(() => replay(dag, events.slice(0, k))).not.toThrow();
      let thrown: unknown;
      try {
        replay(dag, events.slice(0, k + 1));
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(LogIntegrityError);
      expect((thrown as LogIntegrityError).index).toBe(k);
      expect((thrown as LogIntegrityError).reason).toBe(report.integrity?.reason);
    });
  });

  it("gives each step invariant the index where its literal predicate turns false", () => {
    forEveryRawLog(({ dag }, report, valid) => {
      for (const [name, predicate] of Object.entries(STEP_PREDICATES)) {
        const verdict = report.invariants[name as keyof typeof STEP_PREDICATES];
        if (verdict.holds) {
          expect(predicate(dag, valid)).toBe(true);
          continue;
        }
        const k = verdict.index;
        expect(k).toBeLessThan(valid.length);
        expect(predicate(dag, valid.slice(0, k))).toBe(true);
        expect(predicate(dag, valid.slice(0, k + 1))).toBe(false);
        expect(dag.positionById.has(verdict.node)).toBe(true);
      }
    });
  });

  it("lists for tamperEvident exactly the unjustified proven nodes", () => {
    forEveryRawLog(({ dag }, report, valid) => {
      const nodes = unjustifiedProvenNodes(dag, valid);
      expect(report.invariants.tamperEvident).toEqual(
        nodes.length === 0 ? { holds: true } : { holds: false, nodes },
      );
    });
  });

  it("counts illegal events as the public transitions judge them", () => {
    forEveryRawLog(({ dag }, report, valid) => {
      const recount = recountIllegal(dag, valid);
      expect(report.legality.illegal).toBe(recount.length);
      expect(report.legality.first).toEqual(recount.slice(0, report.legality.first.length));
      expect(report.legality.first.length).toBe(
        Math.min(recount.length, ILLEGAL_EVENTS_LISTED_MAX),
      );
    });
  });

  it("derives conformance, the event count and the final counts from the rest of the report", () => {
    forEveryRawLog(({ dag, events }, report, valid) => {
      const allHold = INVARIANT_NAMES.every((name) => report.invariants[name].holds);
      expect(report.conformant).toBe(report.integrity === null && allHold);
      expect(report.strictlyConformant).toBe(report.conformant && report.legality.illegal === 0);
      expect(report.events).toBe(events.length);
      const final = replay(dag, valid);
      for (const status of STATUSES) {
        expect(report.final.counts[status]).toBe(
          final.nodes.filter((node) => node.status === status).length,
        );
      }
    });
  });

  it("gives every index a line when lines are given, and the line of that index", () => {
    fc.assert(
      fc.property(dagWithRawLogArbitrary(), ({ dag, events }) => {
        const lines = events.map((_, i) => 2 * i + 3);
        const report = audit(dag, events, { lines });
        const indexed = [
          ...(report.integrity === null ? [] : [report.integrity]),
          ...Object.values(report.invariants).filter((v) => "index" in v),
          ...report.legality.first,
        ] as { index: number; line?: number }[];
        for (const entry of indexed) expect(entry.line).toBe(2 * entry.index + 3);
        const plain = audit(dag, events);
        expect(JSON.stringify(plain)).not.toContain('"line"');
      }),
      { numRuns: 200 },
    );
  });
});

describe("the raw-log generator", () => {
  it("covers every verdict: faults, both breakable invariants, illegal events, clean logs", () => {
    const samples = fc.sample(dagWithRawLogArbitrary(), { numRuns: 1000, seed: 41967 });
    const reports = samples.map(({ dag, events }) => audit(dag, events));
    const share = (pick: (r: Report) => boolean) => reports.filter(pick).length / reports.length;
    const reasons = new Set(reports.flatMap((r) => (r.integrity ? [r.integrity.reason] : [])));
    const illegalReasons = new Set(reports.flatMap((r) => r.legality.first.map((e) => e.reason)));
    expect(share((r) => r.integrity !== null)).toBeGreaterThan(0.2);
    expect(share((r) => r.integrity === null)).toBeGreaterThan(0.3);
    expect(share((r) => !r.invariants.scheduleCorrect.holds)).toBeGreaterThan(0.1);
    expect(share((r) => !r.invariants.surfaceMonotonic.holds)).toBeGreaterThan(0.05);
    expect(share((r) => r.legality.illegal > 0)).toBeGreaterThan(0.5);
    expect(share((r) => r.strictlyConformant)).toBeGreaterThan(0.03);
    expect(share((r) => r.final.counts.proven > 0)).toBeGreaterThan(0.3);
    expect([...reasons].sort()).toEqual([
      "discharge-without-deposit",
      "malformed-event",
      "unknown-kind",
      "unknown-node",
    ]);
    expect([...illegalReasons].sort()).toEqual([
      "already-terminal",
      "dependencies-not-proven",
      "invalid-result",
      "invalid-surface",
      "surface-shrinks",
      "wrong-status",
    ]);
  });
});

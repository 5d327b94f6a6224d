import { describe, expect, it } from "vitest";
import {
  audit,
  ILLEGAL_EVENTS_LISTED_MAX,
  INVARIANT_NAMES,
  loggedEvents,
  STATUSES,
} from "../../../src/models/dag/index.js";
import { UnparseableLine } from "../../../src/models/journal-source.js";
import { dagOf, ev, PROVE_A, stateWith } from "../../support/fixtures.js";

const dag = dagOf(["A"], ["B", "A"], ["C"]);

const ALL_HOLD = Object.fromEntries(INVARIANT_NAMES.map((name) => [name, { holds: true }]));
const zeroCounts = (counts: Record<string, number> = {}) => ({
  ...Object.fromEntries(STATUSES.map((status) => [status, 0])),
  ...counts,
});

describe("audit", () => {
  it("reports a live run's log as strictly conformant, in the shape of docs/models/dag.md", () => {
    const state = stateWith(dag, [
      ["A", "proven"],
      ["B", "quarantined"],
      ["C", "skipped"],
    ]);
    const events = loggedEvents(state);
    expect(audit(dag, events)).toStrictEqual({
      model: "dag",
      conformant: true,
      strictlyConformant: true,
      events: events.length,
      integrity: null,
      tornTail: null,
      invariants: ALL_HOLD,
      legality: { illegal: 0, first: [] },
      final: { counts: zeroCounts({ proven: 1, quarantined: 1, skipped: 1 }) },
    });
  });

  it("lists the report keys and the six invariants of docs/models/dag.md in order", () => {
    const report = audit(dag, []);
    expect(Object.keys(report)).toEqual([
      "model",
      "conformant",
      "strictlyConformant",
      "events",
      "integrity",
      "tornTail",
      "invariants",
      "legality",
      "final",
    ]);
    expect(Object.keys(report.invariants)).toEqual([
      "phaseMonotonic",
      "noPendingProven",
      "tamperEvident",
      "dagPreserved",
      "scheduleCorrect",
      "surfaceMonotonic",
    ]);
    expect(report.final.counts).toEqual(zeroCounts({ queued: 3 }));
  });

  it("is plain JSON: it survives a JSON round trip unchanged", () => {
    const events = [ev("dispatched", "B"), ev("bogus", "C")];
    const report = audit(dag, events, { lines: [2, 3] });
    expect(JSON.parse(JSON.stringify(report))).toStrictEqual(report);
  });

  it("is conformant but not strictly conformant for an illegal event that breaks no invariant", () => {
    const events = [ev("gate-checked", "C", { result: "timeout" })];
    const report = audit(dag, events);
    expect(report.conformant).toBe(true);
    expect(report.strictlyConformant).toBe(false);
    expect(report.legality).toStrictEqual({
      illegal: 1,
      first: [{ index: 0, kind: "gate-checked", node: "C", reason: "wrong-status" }],
    });
    expect(report.final.counts).toEqual(zeroCounts({ queued: 2, rework: 1 }));
  });

  it("gives a failing step invariant's index and node, and its line only when lines are given", () => {
    const events = [ev("dispatched"), ev("landed"), ev("dispatched", "B")];
    const bare = audit(dag, events);
    expect(bare.invariants.scheduleCorrect).toStrictEqual({ holds: false, index: 2, node: "B" });
    expect(bare.conformant).toBe(false);
    const lined = audit(dag, events, { lines: [2, 3, 5] });
    expect(lined.invariants.scheduleCorrect).toStrictEqual({
      holds: false,
      index: 2,
      line: 5,
      node: "B",
    });
    expect(lined.legality.first).toStrictEqual([
      { index: 2, line: 5, kind: "dispatched", node: "B", reason: "dependencies-not-proven" },
    ]);
  });

  it("reports a shrinking surface as a surfaceMonotonic failure and a surface-shrinks event", () => {
    const events = [
      ev("surface-widened", "C", { surface: ["p", "q"] }),
      ev("surface-widened", "C", { surface: ["q"] }),
      ev("surface-widened", "C", { surface: "q" }),
    ];
    const report = audit(dag, events);
    expect(report.invariants.surfaceMonotonic).toStrictEqual({ holds: false, index: 1, node: "C" });
    expect(report.legality.first.map((e) => [e.index, e.reason])).toEqual([
      [1, "surface-shrinks"],
      [2, "invalid-surface"],
    ]);
  });

  it("stops at an integrity error, judging the predicates and legality on the prefix before it", () => {
    const events = [
      ev("dispatched"),
      ev("dispatched", "B"), // schedule violation before the fault: reported
      { kind: "landed", id: "ghost" }, // the fault, at index 2
      ev("surface-widened", "C", { surface: "junk" }), // after the fault: not judged
      ev("land", "A"),
    ];
    const report = audit(dag, events, { lines: [3, 4, 6, 7, 8] });
    expect(report.integrity).toStrictEqual({
      index: 2,
      line: 6,
      reason: "unknown-node",
      message: 'no node "ghost" in the DAG',
    });
    expect(report.events).toBe(5);
    expect(report.conformant).toBe(false);
    expect(report.strictlyConformant).toBe(false);
    expect(report.invariants.scheduleCorrect).toStrictEqual({
      holds: false,
      index: 1,
      line: 4,
      node: "B",
    });
    expect(report.invariants.surfaceMonotonic).toStrictEqual({ holds: true });
    expect(report.legality.illegal).toBe(1);
    expect(report.final.counts).toEqual(zeroCounts({ dispatched: 2, queued: 1 }));
  });

  it("is not conformant with an integrity error even when every invariant holds on the prefix", () => {
    const report = audit(dag, [...PROVE_A, new UnparseableLine("invalid-json")]);
    expect(report.integrity).toStrictEqual({
      index: 3,
      reason: "malformed-event",
      message: "the line is not valid JSON",
    });
    expect(report.invariants).toStrictEqual(ALL_HOLD);
    expect(report.conformant).toBe(false);
    expect(report.final.counts).toEqual(zeroCounts({ proven: 1, queued: 2 }));
  });

  it.each([
    ["a non-object", 3, "malformed-event"],
    ["a missing kind", { id: "A" }, "malformed-event"],
    ["a missing id", { kind: "landed" }, "malformed-event"],
    ["an unknown kind", { kind: "node-landed", id: "A" }, "unknown-kind"],
    [
      "a discharge without deposit",
      ev("discharged", "C", { result: "pass" }),
      "discharge-without-deposit",
    ],
  ])("reports %s as an integrity error at its index", (_, bad, reason) => {
    const report = audit(dag, [ev("dispatched"), bad, ev("landed")]);
    expect(report.integrity).toMatchObject({ index: 1, reason });
    expect(report.integrity).not.toHaveProperty("line");
  });

  it("reports an integrity error at index 0 with every invariant holding on the empty prefix", () => {
    const report = audit(dag, [null]);
    expect(report.integrity).toMatchObject({ index: 0, reason: "malformed-event" });
    expect(report.invariants).toStrictEqual(ALL_HOLD);
    expect(report.final.counts).toEqual(zeroCounts({ queued: 3 }));
  });

  it(`lists the first ${ILLEGAL_EVENTS_LISTED_MAX} illegal events and keeps counting`, () => {
    const illegal = 25;
    const events = Array.from({ length: illegal }, () => ev("landed", "C"));
    const report = audit(dag, [ev("skipped", "A"), ...events]);
    expect(report.legality.illegal).toBe(illegal);
    expect(report.legality.first).toHaveLength(ILLEGAL_EVENTS_LISTED_MAX);
    expect(report.legality.first.map((e) => e.index)).toEqual(
      Array.from({ length: ILLEGAL_EVENTS_LISTED_MAX }, (_, i) => i + 1),
    );
    expect(report.legality.first.every((e) => e.reason === "wrong-status")).toBe(true);
  });

  it("passes the torn tail of its source through", () => {
    const tornTail = { line: 9, offset: 321 };
    expect(audit(dag, PROVE_A, { tornTail }).tornTail).toStrictEqual(tornTail);
    expect(audit(dag, PROVE_A, { tornTail }).conformant).toBe(true);
  });

  it("counts every event, the ones after a fault included", () => {
    expect(audit(dag, [ev("dispatched"), "x", "y", "z"]).events).toBe(4);
  });
});

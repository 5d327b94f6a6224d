import { describe, expect, it } from "vitest";
import {
  audit,
  type IntegrityReason,
  initialState,
  LogIntegrityError,
  loggedEvents,
  type ModelState,
  type NodeState,
  nodeState,
  replay,
  transitionEvent,
} from "../../../src/models/dag/index.js";
import { UnparseableLine } from "../../../src/models/journal-source.js";
import { dagOf, ev } from "../../support/fixtures.js";
import { errorThrownBy } from "../../support/outcome.js";
import { type Op, runOps } from "../../support/run-ops.js";

const dag = dagOf(["A"], ["B", "A"]);

function nodeAfter(events: readonly unknown[], id = "A"): NodeState {
  return nodeState(replay(dag, events), id) as NodeState;
}

const integrityFault = (run: () => unknown): LogIntegrityError =>
  errorThrownBy(LogIntegrityError, run);

/** A: dispatched, landed, failed the gate (phase 1), re-dispatched, landed again. */
const LANDED_AT_PHASE_1 = [
  ev("dispatched"),
  ev("landed"),
  ev("gate-checked", "A", { result: "fail" }),
  ev("dispatched"),
  ev("landed"),
];

describe("transitionEvent", () => {
  it("dispatched: sets the status and nothing else", () => {
    const before = nodeAfter(LANDED_AT_PHASE_1);
    const after = nodeAfter([...LANDED_AT_PHASE_1, ev("dispatched")]);
    expect(after).toEqual({ ...before, status: "dispatched" });
  });

  it("landed: deposits {pending, gated} stamped with the current phase", () => {
    expect(nodeAfter(LANDED_AT_PHASE_1)).toEqual({
      status: "landed",
      phase: 1,
      deposit: { validation: "pending", mode: "gated", phase: 1 },
      surface: [],
    });
  });

  it("gate-checked pass: phase+1, proven, deposit {proven, gated, new phase}", () => {
    expect(nodeAfter([...LANDED_AT_PHASE_1, ev("gate-checked", "A", { result: "pass" })])).toEqual({
      status: "proven",
      phase: 2,
      deposit: { validation: "proven", mode: "gated", phase: 2 },
      surface: [],
    });
  });

  it.each([
    ["fail", "fail"],
    ["timeout", "timeout"],
    ["an unknown string", "PASS"],
    ["a number", 1],
    ["null", null],
    ["an object", { pass: true }],
  ])(
    "gate-checked with %s as result folds like fail: phase+1, rework, deposit failed",
    (_, result) => {
      expect(nodeAfter([...LANDED_AT_PHASE_1, ev("gate-checked", "A", { result })])).toEqual({
        status: "rework",
        phase: 2,
        deposit: { validation: "failed", mode: "gated", phase: 2 },
        surface: [],
      });
    },
  );

  it("gate-checked with no result at all folds like fail", () => {
    expect(nodeAfter([...LANDED_AT_PHASE_1, ev("gate-checked")])).toMatchObject({
      status: "rework",
      deposit: { validation: "failed", mode: "gated", phase: 2 },
    });
  });

  it("quarantined increments the phase (docs/models/dag.md) and deposits {pending, degraded}", () => {
    expect(nodeAfter([...LANDED_AT_PHASE_1, ev("quarantined")])).toEqual({
      status: "quarantined",
      phase: 2,
      deposit: { validation: "pending", mode: "degraded", phase: 2 },
      surface: [],
    });
  });

  it("discharged pass after quarantine: phase+1, proven, keeps the degraded mode", () => {
    const events = [
      ...LANDED_AT_PHASE_1,
      ev("quarantined"),
      ev("discharged", "A", { result: "pass" }),
    ];
    expect(nodeAfter(events)).toEqual({
      status: "proven",
      phase: 3,
      deposit: { validation: "proven", mode: "degraded", phase: 3 },
      surface: [],
    });
  });

  it.each([["fail"], ["timeout"], [undefined], [0]])(
    "discharged %s after quarantine: phase+1, rework, deposit failed, degraded",
    (result) => {
      const events = [...LANDED_AT_PHASE_1, ev("quarantined"), ev("discharged", "A", { result })];
      expect(nodeAfter(events)).toEqual({
        status: "rework",
        phase: 3,
        deposit: { validation: "failed", mode: "degraded", phase: 3 },
        surface: [],
      });
    },
  );

  it("discharged takes its mode from the current deposit, gated included", () => {
    const events = [...LANDED_AT_PHASE_1, ev("discharged", "A", { result: "pass" })];
    expect(nodeAfter(events).deposit).toEqual({ validation: "proven", mode: "gated", phase: 2 });
  });

  it("skipped and escalated set the status and nothing else", () => {
    const before = nodeAfter(LANDED_AT_PHASE_1);
    expect(nodeAfter([...LANDED_AT_PHASE_1, ev("skipped")])).toEqual({
      ...before,
      status: "skipped",
    });
    expect(nodeAfter([...LANDED_AT_PHASE_1, ev("escalated")])).toEqual({
      ...before,
      status: "escalated",
    });
  });

  it("surface-widened stores the payload verbatim: no union, no validation", () => {
    const widened = [ev("surface-widened", "A", { surface: ["src/a.ts", "src/b.ts"] })];
    expect(nodeAfter([...widened, ev("surface-widened", "A", { surface: ["c"] })]).surface).toEqual(
      ["c"],
    );
    expect(
      nodeAfter([...widened, ev("surface-widened", "A", { surface: "src/a.ts" })]).surface,
    ).toBe("src/a.ts");
    expect(
      nodeAfter([...widened, ev("surface-widened", "A", { surface: [1, null] })]).surface,
    ).toEqual([1, null]);
  });

  it("surface-widened with a missing or null surface stores the empty surface", () => {
    const widened = [ev("surface-widened", "A", { surface: ["src/a.ts"] })];
    expect(nodeAfter([...widened, ev("surface-widened")]).surface).toEqual([]);
    expect(nodeAfter([...widened, ev("surface-widened", "A", { surface: null })]).surface).toEqual(
      [],
    );
  });

  it("applies a well-formed event with no legality check", () => {
    // A gate pass on a node that was never dispatched: illegal, but the fold applies it.
    expect(nodeAfter([ev("gate-checked", "B", { result: "pass" })], "B")).toMatchObject({
      status: "proven",
      phase: 1,
    });
    // Dispatching B while A is queued: the fold does not look at deps.
    expect(nodeAfter([ev("dispatched", "B")], "B").status).toBe("dispatched");
  });

  it("ignores extra fields", () => {
    const plain = replay(dag, [ev("dispatched"), ev("landed")]);
    const noisy = replay(dag, [
      ev("dispatched", "A", { ts: 1, seq: 2, result: "pass", surface: ["x"] }),
      ev("landed", "A", { note: "hello" }),
    ]);
    expect(noisy.nodes).toEqual(plain.nodes);
  });

  it("logs the event itself and leaves the state it started from untouched", () => {
    const before = replay(dag, [ev("dispatched"), ev("landed")]);
    const snapshot = structuredClone({ nodes: before.nodes, log: loggedEvents(before) });
    const event = ev("gate-checked", "A", { result: "pass" });
    const after = transitionEvent(before, event);
    expect(loggedEvents(after).at(-1)).toBe(event);
    expect(loggedEvents(after)).toHaveLength(3);
    expect({ nodes: before.nodes, log: loggedEvents(before) }).toEqual(snapshot);
    expect(after.dag).toBe(before.dag);
    expect(after.nodes[1]).toBe(before.nodes[1]); // B untouched: the very same object
  });

  it("returns a frozen state", () => {
    const after = transitionEvent(initialState(dag), ev("dispatched"));
    expect(Object.isFrozen(after)).toBe(true);
    expect(Object.isFrozen(after.nodes)).toBe(true);
    expect(Object.isFrozen(after.nodes[0])).toBe(true);
  });

  describe("log-integrity errors", () => {
    const cases: [string, unknown, IntegrityReason, string][] = [
      [
        "an unparseable line (bad JSON)",
        new UnparseableLine("invalid-json"),
        "malformed-event",
        "invalid-json",
      ],
      [
        "an unparseable line (bad UTF-8)",
        new UnparseableLine("invalid-utf8"),
        "malformed-event",
        "invalid-utf8",
      ],
      ["null", null, "malformed-event", "not-an-object"],
      ["a number", 42, "malformed-event", "not-an-object"],
      ["a string", '{"kind":"dispatched","id":"A"}', "malformed-event", "not-an-object"],
      ["an array", [{ kind: "dispatched", id: "A" }], "malformed-event", "not-an-object"],
      ["an event with no kind", { id: "A" }, "malformed-event", "kind-not-a-string"],
      [
        "an event with a numeric kind",
        { kind: 1, id: "A" },
        "malformed-event",
        "kind-not-a-string",
      ],
      ["an event with no id", { kind: "dispatched" }, "malformed-event", "id-not-a-string"],
      [
        "an event with an array id",
        { kind: "dispatched", id: ["A"] },
        "malformed-event",
        "id-not-a-string",
      ],
      [
        "a bad kind and an unknown node (malformed first)",
        { kind: null, id: "ghost" },
        "malformed-event",
        "kind-not-a-string",
      ],
      ["an unknown node", { kind: "dispatched", id: "ghost" }, "unknown-node", "ghost"],
      [
        "an unknown node with an unknown kind (node first)",
        { kind: "bogus", id: "a" },
        "unknown-node",
        "a",
      ],
      ["an unknown kind", { kind: "node-dispatched", id: "A" }, "unknown-kind", "node-dispatched"],
      [
        "a kind that is an Object.prototype key",
        { kind: "constructor", id: "A" },
        "unknown-kind",
        "constructor",
      ],
      [
        "a discharge without deposit",
        { kind: "discharged", id: "B", result: "pass" },
        "discharge-without-deposit",
        "B",
      ],
    ];

    it.each(cases)("%s: reason and subject", (_, event, reason, subject) => {
      const state = replay(dag, [ev("dispatched"), ev("landed")]);
      const error = integrityFault(() => transitionEvent(state, event));
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe("LogIntegrityError");
      expect(error.index).toBe(2); // the log length of the state it was applied to
      expect(error.reason).toBe(reason);
      expect(error.fault).toEqual({ reason, subject });
    });

    it("a discharge on a node with a deposit but quarantined without landing is no fault", () => {
      // The check is on the deposit (docs/models/dag.md: discharged reads its mode), which quarantine makes.
      const state = replay(dag, [
        ev("quarantined", "B"),
        ev("discharged", "B", { result: "pass" }),
      ]);
      expect(nodeState(state, "B")?.status).toBe("proven");
    });
  });
});

describe("replay", () => {
  it("of the empty log is the initial state", () => {
    expect(replay(dag, [])).toEqual(initialState(dag));
  });

  it("stops at a log-integrity fault and names its index in the log", () => {
    const events = [ev("dispatched"), ev("landed"), { kind: "landed", id: "ghost" }, ev("skipped")];
    const error = integrityFault(() => replay(dag, events));
    expect(error.index).toBe(2);
    expect(error.reason).toBe("unknown-node");
    expect(error.message).toContain("event 2");
  });

  it("reports the first fault when several follow one another", () => {
    const events = [
      ev("dispatched"),
      new UnparseableLine("invalid-json"),
      { kind: "bogus", id: "A" },
    ];
    expect(integrityFault(() => replay(dag, events))).toMatchObject({
      index: 1,
      reason: "malformed-event",
    });
  });

  it("treats a hole in a sparse events array as a malformed event at its index, as audit does", () => {
    // docs/models/dag.md: an entry that is not an object is malformed-event, and the fold stops there.
    // A hole reads as undefined; iterating the array (trajectory, audit) yields it as such.
    const events: unknown[] = [ev("dispatched")];
    events[2] = ev("landed"); // events[1] is a hole
    events[3] = { kind: "bogus", id: "A" };
    expect(audit(dag, events).integrity).toMatchObject({ index: 1, reason: "malformed-event" });
    expect(integrityFault(() => replay(dag, events))).toMatchObject({
      index: 1,
      reason: "malformed-event",
    });
  });

  it("reports a discharge without deposit at its index", () => {
    const events = [ev("dispatched"), ev("discharged", "A", { result: "fail" })];
    expect(integrityFault(() => replay(dag, events))).toMatchObject({
      index: 1,
      reason: "discharge-without-deposit",
    });
  });

  it("of a live run's own log reproduces its final state exactly", () => {
    const big = dagOf(
      ["lib"],
      ["api", "lib"],
      ["ui", "api", "lib"],
      ["docs"],
      ["e2e", "ui", "docs"],
    );
    const ops: Op[] = [
      { transition: "widenSurface", node: "lib", arg: ["src/lib.ts"] },
      { transition: "dispatch", node: "api" }, // rejected: lib not proven
      { transition: "dispatch", node: "lib" },
      { transition: "land", node: "lib" },
      { transition: "gateCheck", node: "lib", arg: "timeout" }, // rework
      { transition: "widenSurface", node: "lib", arg: ["src/lib.ts", "src/util.ts"] },
      { transition: "dispatch", node: "lib" },
      { transition: "land", node: "lib" },
      { transition: "gateCheck", node: "lib", arg: "pass" },
      { transition: "dispatch", node: "docs" },
      { transition: "land", node: "docs" },
      { transition: "quarantine", node: "docs" },
      { transition: "dispatch", node: "e2e" }, // rejected: docs quarantined
      { transition: "discharge", node: "docs", arg: "fail" }, // rework, degraded
      { transition: "dispatch", node: "docs" },
      { transition: "land", node: "docs" },
      { transition: "quarantine", node: "docs" },
      { transition: "discharge", node: "docs", arg: "pass" },
      { transition: "dispatch", node: "api" },
      { transition: "widenSurface", node: "api", arg: ["src/api.ts"] },
      { transition: "land", node: "api" },
      { transition: "gateCheck", node: "api", arg: "fail" },
      { transition: "widenSurface", node: "api", arg: ["src/api/v2.ts"] },
      { transition: "dispatch", node: "api" },
      { transition: "land", node: "api" },
      { transition: "gateCheck", node: "api", arg: "pass" },
      { transition: "dispatch", node: "ui" },
      { transition: "land", node: "ui" },
      { transition: "gateCheck", node: "ui", arg: "bogus" }, // rejected: invalid result
      { transition: "escalate", node: "ui" },
      { transition: "widenSurface", node: "ui", arg: ["x"] }, // rejected: terminal
      { transition: "skip", node: "e2e" },
    ];
    const { final, steps } = runOps(big, ops);
    expect(steps.filter((s) => s.outcome !== "ok")).toHaveLength(4);
    const replayed = replay(big, loggedEvents(final));
    expect(replayed).toEqual(final);
    expect(replayed.nodes.map((n) => n.status)).toEqual([
      "proven",
      "proven",
      "escalated",
      "proven",
      "skipped",
    ]);
    expect(nodeState(replayed, "docs")).toEqual({
      status: "proven",
      phase: 4,
      deposit: { validation: "proven", mode: "degraded", phase: 4 },
      surface: [],
    });
    expect(nodeState(replayed, "api")?.surface).toEqual(["src/api.ts", "src/api/v2.ts"]);
    expect(nodeState(replayed, "lib")?.phase).toBe(2);
  });

  it("reaches the same state as applying the events one by one", () => {
    const events = [
      ev("dispatched"),
      ev("landed"),
      ev("quarantined"),
      ev("discharged", "A", { result: "pass" }),
    ];
    const stepwise = events.reduce<ModelState>(
      (state, event) => transitionEvent(state, event),
      initialState(dag),
    );
    expect(replay(dag, events)).toEqual(stepwise);
  });
});

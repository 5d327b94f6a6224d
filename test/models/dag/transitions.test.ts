import { describe, expect, it } from "vitest";
import {
  audit,
  DISCHARGE_RESULTS,
  dependenciesProven,
  discharge,
  dispatch,
  escalate,
  eventLegality,
  GATE_RESULTS,
  gateCheck,
  initialState,
  type KnownEvent,
  keepsSurface,
  land,
  loggedEvents,
  type ModelState,
  nodeState,
  quarantine,
  type RejectionReason,
  replay,
  STATUSES,
  type Status,
  skip,
  type TransitionResult,
  widenSurface,
} from "../../../src/models/dag/index.js";
import { dagOf, reach, stateWith } from "../../support/fixtures.js";
import { applyOp, TRANSITION_NAMES, type TransitionName } from "../../support/run-ops.js";

const dag = dagOf(["A"], ["B", "A"], ["C", "A", "B"]);

/** The statuses each transition starts from, straight from the transitions table of docs/models/dag.md. */
const STARTS_FROM: Record<TransitionName, readonly Status[]> = {
  dispatch: ["queued", "rework"],
  land: ["dispatched"],
  gateCheck: ["landed"],
  quarantine: ["landed"],
  discharge: ["quarantined"],
  skip: ["queued", "dispatched", "landed", "quarantined", "rework"],
  escalate: ["queued", "dispatched", "landed", "quarantined", "rework"],
  widenSurface: ["queued", "dispatched", "landed", "quarantined", "rework"],
};

/** The status-check rejection of each transition (docs/models/dag.md, "Transitions": the first check after unknown-node). */
const STATUS_REJECTION: Record<TransitionName, RejectionReason> = {
  dispatch: "wrong-status",
  land: "wrong-status",
  gateCheck: "wrong-status",
  quarantine: "wrong-status",
  discharge: "wrong-status",
  skip: "already-terminal",
  escalate: "already-terminal",
  widenSurface: "already-terminal",
};

const VALID_ARG: Record<TransitionName, unknown> = {
  dispatch: undefined,
  land: undefined,
  gateCheck: "pass",
  quarantine: undefined,
  discharge: "pass",
  skip: undefined,
  escalate: undefined,
  widenSurface: ["src/a.ts"],
};

/** An argument that fails the transition's argument check, for the two-check transitions. */
const INVALID_ARG: Partial<Record<TransitionName, unknown>> = {
  gateCheck: "PASS",
  discharge: "timeout",
  widenSurface: "src/a.ts",
};

/** A rejected call gives back the very same state object and logs nothing. */
function expectRejected(state: ModelState, result: TransitionResult, reason: RejectionReason) {
  expect(result.outcome).toEqual({ rejected: reason });
  expect(result.state).toBe(state);
}

/** An accepted call logs exactly one event, as the last one. */
function expectAccepted(state: ModelState, result: TransitionResult): KnownEvent {
  expect(result.outcome).toBe("ok");
  const before = loggedEvents(state);
  const after = loggedEvents(result.state);
  expect(after.slice(0, -1)).toEqual(before);
  expect(after).toHaveLength(before.length + 1);
  return after.at(-1) as KnownEvent;
}

describe("the transitions table of docs/models/dag.md, every transition from every status", () => {
  const cases = TRANSITION_NAMES.flatMap((transition) =>
    STATUSES.map((status) => [transition, status] as const),
  );

  it.each(cases)("%s from %s", (transition, status) => {
    const state = stateWith(dag, [["A", status]]);
    const result = applyOp(state, { transition, node: "A", arg: VALID_ARG[transition] });
    if (STARTS_FROM[transition].includes(status)) {
      expectAccepted(state, result);
    } else {
      expectRejected(state, result, STATUS_REJECTION[transition]);
    }
  });

  it.each(TRANSITION_NAMES)(
    "%s checks unknown-node first, even with an invalid argument",
    (transition) => {
      const state = stateWith(dag, [["A", "proven"]]);
      for (const arg of [VALID_ARG[transition], INVALID_ARG[transition], 42]) {
        expectRejected(state, applyOp(state, { transition, node: "ghost", arg }), "unknown-node");
      }
      // ids are compared exactly: "a" is not "A"
      expectRejected(state, applyOp(state, { transition, node: "a" }), "unknown-node");
    },
  );

  it.each(Object.keys(INVALID_ARG) as TransitionName[])(
    "%s checks the status before the argument",
    (transition) => {
      const state = initialState(dag);
      const terminal = transition === "widenSurface" ? reach(state, "A", "skipped") : state;
      const result = applyOp(terminal, { transition, node: "A", arg: INVALID_ARG[transition] });
      expectRejected(terminal, result, STATUS_REJECTION[transition]);
    },
  );
});

describe("dispatch", () => {
  it("logs dispatched and moves queued to dispatched", () => {
    const state = initialState(dag);
    const result = dispatch(state, "A");
    expect(expectAccepted(state, result)).toEqual({ kind: "dispatched", id: "A" });
    expect(nodeState(result.state, "A")?.status).toBe("dispatched");
  });

  it("re-dispatches a node in rework", () => {
    const state = stateWith(dag, [["A", "rework"]]);
    expect(expectAccepted(state, dispatch(state, "A"))).toEqual({ kind: "dispatched", id: "A" });
  });

  it.each(STATUSES.filter((s) => s !== "proven"))(
    "rejects dependencies-not-proven while a dep is %s",
    (status) => {
      const state = stateWith(dag, [["A", status]]);
      expectRejected(state, dispatch(state, "B"), "dependencies-not-proven");
    },
  );

  it("requires every dep proven, not just one", () => {
    const state = stateWith(dag, [["A", "proven"]]);
    expectRejected(state, dispatch(state, "C"), "dependencies-not-proven");
    const both = reach(state, "B", "proven");
    expectAccepted(both, dispatch(both, "C"));
  });

  it("decided edge case 3: a quarantined dependency blocks its dependent", () => {
    const quarantined = stateWith(dag, [["A", "quarantined"]]);
    expect(nodeState(quarantined, "A")?.deposit).toMatchObject({
      validation: "pending",
      mode: "degraded",
    });
    expectRejected(quarantined, dispatch(quarantined, "B"), "dependencies-not-proven");
    const discharged = discharge(quarantined, "A", "pass").state;
    expectAccepted(discharged, dispatch(discharged, "B"));
  });

  it("checks the status before the deps", () => {
    // Only a raw log puts B past queued with A unproven; dispatch must then say wrong-status.
    const state = replay(dag, [
      { kind: "dispatched", id: "B" },
      { kind: "landed", id: "B" },
    ]);
    expectRejected(state, dispatch(state, "B"), "wrong-status");
  });
});

describe("land", () => {
  it("logs landed and deposits {pending, gated}", () => {
    const state = stateWith(dag, [["A", "dispatched"]]);
    const result = land(state, "A");
    expect(expectAccepted(state, result)).toEqual({ kind: "landed", id: "A" });
    expect(nodeState(result.state, "A")).toMatchObject({
      status: "landed",
      deposit: { validation: "pending", mode: "gated", phase: 0 },
    });
  });
});

describe("gateCheck", () => {
  it("logs gate-checked with its result; pass proves the node", () => {
    const state = stateWith(dag, [["A", "landed"]]);
    const result = gateCheck(state, "A", "pass");
    expect(expectAccepted(state, result)).toEqual({
      kind: "gate-checked",
      id: "A",
      result: "pass",
    });
    expect(nodeState(result.state, "A")).toMatchObject({ status: "proven", phase: 1 });
  });

  it.each([["PASS"], ["passed"], [""], [undefined], [null], [true], [1], [["pass"]]])(
    "rejects %j as invalid-result",
    (result) => {
      const state = stateWith(dag, [["A", "landed"]]);
      expectRejected(state, gateCheck(state, "A", result), "invalid-result");
    },
  );

  it("decided edge case 2: timeout folds exactly like fail", () => {
    const state = stateWith(dag, [["A", "landed"]]);
    const timedOut = gateCheck(state, "A", "timeout");
    const failed = gateCheck(state, "A", "fail");
    expect(timedOut.outcome).toBe("ok");
    expect(nodeState(timedOut.state, "A")).toEqual(nodeState(failed.state, "A"));
    expect(nodeState(timedOut.state, "A")).toEqual({
      status: "rework",
      phase: 1,
      deposit: { validation: "failed", mode: "gated", phase: 1 },
      surface: [],
    });
    expect(loggedEvents(timedOut.state).at(-1)).toEqual({
      kind: "gate-checked",
      id: "A",
      result: "timeout",
    });
  });
});

describe("quarantine", () => {
  it("logs quarantined: phase+1, deposit {pending, degraded}", () => {
    const state = stateWith(dag, [["A", "landed"]]);
    const result = quarantine(state, "A");
    expect(expectAccepted(state, result)).toEqual({ kind: "quarantined", id: "A" });
    expect(nodeState(result.state, "A")).toEqual({
      status: "quarantined",
      phase: 1,
      deposit: { validation: "pending", mode: "degraded", phase: 1 },
      surface: [],
    });
  });
});

describe("discharge", () => {
  it("logs discharged with its result; pass proves the node in degraded mode", () => {
    const state = stateWith(dag, [["A", "quarantined"]]);
    const result = discharge(state, "A", "pass");
    expect(expectAccepted(state, result)).toEqual({ kind: "discharged", id: "A", result: "pass" });
    expect(nodeState(result.state, "A")).toEqual({
      status: "proven",
      phase: 2,
      deposit: { validation: "proven", mode: "degraded", phase: 2 },
      surface: [],
    });
  });

  it.each([["timeout"], ["PASS"], [undefined], [0]])("rejects %j as invalid-result", (result) => {
    const state = stateWith(dag, [["A", "quarantined"]]);
    expectRejected(state, discharge(state, "A", result), "invalid-result");
  });

  it("decided edge case 1: a failed degraded discharge is rework and loses nothing proven", () => {
    const dependent = dagOf(["A"], ["B", "A"], ["Z"]);
    const start = stateWith(dependent, [
      ["A", "proven"],
      ["Z", "proven"],
      ["B", "quarantined"],
    ]);
    const result = discharge(start, "B", "fail");
    expectAccepted(start, result);
    expect(nodeState(result.state, "B")).toEqual({
      status: "rework",
      phase: 2,
      deposit: { validation: "failed", mode: "degraded", phase: 2 },
      surface: [],
    });
    // every proven node stays proven — the very same node state objects
    expect(nodeState(result.state, "A")).toBe(nodeState(start, "A"));
    expect(nodeState(result.state, "Z")).toBe(nodeState(start, "Z"));
    // the phase did not go back, and the node can be re-dispatched and proven
    const redone = reach(result.state, "B", "proven");
    expect(nodeState(redone, "B")?.phase).toBe(3);
  });
});

describe("skip", () => {
  it.each(["queued", "dispatched", "landed", "quarantined", "rework"] as const)(
    "skips a %s node, keeping its phase and deposit",
    (status) => {
      const state = stateWith(dag, [["A", status]]);
      const result = skip(state, "A");
      expect(expectAccepted(state, result)).toEqual({ kind: "skipped", id: "A" });
      expect(nodeState(result.state, "A")).toEqual({ ...nodeState(state, "A"), status: "skipped" });
    },
  );
});

describe("escalate", () => {
  it("escalates a node and then rejects everything on it as terminal or wrong-status", () => {
    const state = stateWith(dag, [["A", "landed"]]);
    const escalated = escalate(state, "A");
    expect(expectAccepted(state, escalated)).toEqual({ kind: "escalated", id: "A" });
    const s = escalated.state;
    expectRejected(s, escalate(s, "A"), "already-terminal");
    expectRejected(s, skip(s, "A"), "already-terminal");
    expectRejected(s, widenSurface(s, "A", ["x"]), "already-terminal");
    expectRejected(s, gateCheck(s, "A", "pass"), "wrong-status");
    expectRejected(s, dispatch(s, "A"), "wrong-status");
  });
});

describe("widenSurface", () => {
  it("logs the union of the current surface and the argument", () => {
    const first = widenSurface(initialState(dag), "A", ["src/a.ts", "src/b.ts"]);
    const second = widenSurface(first.state, "A", ["src/c.ts", "src/a.ts"]);
    const event = expectAccepted(first.state, second);
    expect(event.kind).toBe("surface-widened");
    expect(new Set(event.surface as string[])).toEqual(
      new Set(["src/a.ts", "src/b.ts", "src/c.ts"]),
    );
    expect(event.surface).toHaveLength(3);
    expect(nodeState(second.state, "A")?.surface).toEqual(event.surface);
  });

  it("keeps the current surface when widened by nothing or by paths it has", () => {
    const first = widenSurface(initialState(dag), "A", ["p", "q"]);
    for (const arg of [[], ["q"], ["p", "p"]]) {
      const event = expectAccepted(first.state, widenSurface(first.state, "A", arg));
      expect(new Set(event.surface as string[])).toEqual(new Set(["p", "q"]));
    }
  });

  it.each([[null], [undefined]])(
    "reads %j as the empty list: it logs the current surface",
    (surface) => {
      const fresh = stateWith(dag, [["A", "dispatched"]]);
      expect(expectAccepted(fresh, widenSurface(fresh, "A", surface)).surface).toEqual([]);
      const widened = widenSurface(fresh, "A", ["p", "q"]).state;
      expect(expectAccepted(widened, widenSurface(widened, "A", surface)).surface).toEqual([
        "p",
        "q",
      ]);
    },
  );

  it.each([["src/a.ts"], [42], [{ paths: ["a"] }], [["a", 1]], [[["a"]]], [[null]]])(
    "rejects %j as invalid-surface",
    (surface) => {
      const state = stateWith(dag, [["A", "dispatched"]]);
      expectRejected(state, widenSurface(state, "A", surface), "invalid-surface");
    },
  );

  it("never logs a surface that is not an array of strings: a sparse array has holes, not strings", () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point of the test
    const sparse = [, "src/a.ts"];
    const state = initialState(dag);
    const result = widenSurface(state, "A", sparse);
    if (result.outcome === "ok") {
      // Accepting it is only right if what was logged is a legal, conformant event.
      expect(audit(dag, loggedEvents(result.state)).strictlyConformant).toBe(true);
    } else {
      expectRejected(state, result, "invalid-surface");
    }
  });
});

describe("eventLegality", () => {
  const landed = stateWith(dag, [["A", "landed"]]);
  const widened = widenSurface(landed, "A", ["p", "q"]).state;

  it("calls an event legal exactly when the public API could have logged it", () => {
    expect(eventLegality(landed, { kind: "gate-checked", id: "A", result: "timeout" })).toBeNull();
    expect(eventLegality(landed, { kind: "quarantined", id: "A" })).toBeNull();
    expect(eventLegality(landed, { kind: "skipped", id: "A", ts: 123 })).toBeNull();
  });

  it("gives the API's rejection reason otherwise", () => {
    expect(eventLegality(landed, { kind: "dispatched", id: "A" })).toBe("wrong-status");
    expect(eventLegality(landed, { kind: "dispatched", id: "B" })).toBe("dependencies-not-proven");
    expect(eventLegality(landed, { kind: "gate-checked", id: "A", result: "maybe" })).toBe(
      "invalid-result",
    );
    expect(eventLegality(landed, { kind: "gate-checked", id: "A" })).toBe("invalid-result");
    const proven = gateCheck(landed, "A", "pass").state;
    expect(eventLegality(proven, { kind: "escalated", id: "A" })).toBe("already-terminal");
    expect(eventLegality(widened, { kind: "surface-widened", id: "A", surface: "p" })).toBe(
      "invalid-surface",
    );
  });

  it("reads a missing or null surface as the empty list: legal on an empty surface, shrinking otherwise", () => {
    for (const event of [
      { kind: "surface-widened", id: "A" },
      { kind: "surface-widened", id: "A", surface: null },
    ] as const) {
      expect(eventLegality(landed, event)).toBeNull();
      expect(eventLegality(widened, event)).toBe("surface-shrinks");
      expect(eventLegality(skip(landed, "A").state, event)).toBe("already-terminal");
    }
  });

  it.each([[["x", 3]], ["src/a.ts"], [{ paths: ["x"] }], [7]])(
    "compares against a malformed current surface %j as stored: nothing keeps it",
    (stored) => {
      const malformed = replay(dag, [
        { kind: "dispatched", id: "A" },
        { kind: "surface-widened", id: "A", surface: stored },
      ]);
      const widen = (surface: unknown): KnownEvent => ({
        kind: "surface-widened",
        id: "A",
        surface,
      });
      for (const payload of [[], ["x"], ["x", "y", "src/a.ts"], null, undefined]) {
        expect(eventLegality(malformed, widen(payload))).toBe("surface-shrinks");
      }
      expect(eventLegality(malformed, widen(["x", 3]))).toBe("invalid-surface");
      expect(eventLegality(skip(malformed, "A").state, widen([]))).toBe("already-terminal");
    },
  );

  it("calls a surface event that drops a current path surface-shrinks", () => {
    expect(eventLegality(widened, { kind: "surface-widened", id: "A", surface: ["p"] })).toBe(
      "surface-shrinks",
    );
    expect(eventLegality(widened, { kind: "surface-widened", id: "A", surface: [] })).toBe(
      "surface-shrinks",
    );
  });

  it("accepts a surface event that is a superset, in any order, with duplicates", () => {
    const surface = ["r", "q", "p", "q"];
    expect(eventLegality(widened, { kind: "surface-widened", id: "A", surface })).toBeNull();
  });

  it("says already-terminal, not surface-shrinks, for a shrinking surface on a terminal node", () => {
    const skipped = skip(widened, "A").state;
    expect(eventLegality(skipped, { kind: "surface-widened", id: "A", surface: [] })).toBe(
      "already-terminal",
    );
  });
});

describe("dependenciesProven", () => {
  it("is true for a node without deps and false until every dep is proven", () => {
    const duplicated = dagOf(["A"], ["B"], ["C", "A", "B", "A"]);
    let state = initialState(duplicated);
    expect(dependenciesProven(state, "A")).toBe(true);
    expect(dependenciesProven(state, "C")).toBe(false);
    state = reach(state, "A", "proven");
    expect(dependenciesProven(state, "C")).toBe(false);
    state = reach(state, "B", "quarantined");
    expect(dependenciesProven(state, "C")).toBe(false);
    state = discharge(state, "B", "pass").state;
    expect(dependenciesProven(state, "C")).toBe(true);
  });
});

describe("keepsSurface", () => {
  it("holds when every path of the current surface is in the next", () => {
    expect(keepsSurface(["a", "b"], ["b"])).toBe(true);
    expect(keepsSurface(["a"], [])).toBe(true);
    expect(keepsSurface([], [])).toBe(true);
    expect(keepsSurface(["a", "a"], ["a", "a", "a"])).toBe(true);
    expect(keepsSurface(["a"], ["a", "b"])).toBe(false);
    expect(keepsSurface(["A"], ["a"])).toBe(false);
  });

  it("never holds for a malformed surface on either side", () => {
    expect(keepsSurface(["x", 3], [])).toBe(false);
    expect(keepsSurface("x", [])).toBe(false);
    expect(keepsSurface([], ["x", 3])).toBe(false);
    expect(keepsSurface(["x", "src/a.ts"], "src/a.ts")).toBe(false);
    expect(keepsSurface(["x"], null)).toBe(false);
  });
});

describe("GATE_RESULTS", () => {
  it("are pass, fail and timeout", () => {
    expect([...GATE_RESULTS].sort()).toEqual(["fail", "pass", "timeout"]);
  });
});

describe("DISCHARGE_RESULTS", () => {
  it("are pass and fail", () => {
    expect([...DISCHARGE_RESULTS].sort()).toEqual(["fail", "pass"]);
  });
});

import { describe, expect, it } from "vitest";
import {
  dagPreserved,
  firstViolation,
  initialState,
  LogIntegrityError,
  type ModelState,
  noPendingProven,
  phaseMonotonic,
  replay,
  STEP_INVARIANTS,
  type Step,
  scheduleCorrect,
  surfaceMonotonic,
  tamperEvident,
  trajectory,
  unjustifiedProvenNodes,
} from "../../../src/models/dag/index.js";
import { dagOf, ev, PROVE_A, pass } from "../../support/fixtures.js";

const dag = dagOf(["A"], ["B", "A"], ["C"]);

const widen = (surface: unknown, id = "A") => ev("surface-widened", id, { surface });

/** A state of `dag` whose named node has exactly the given fields, for the unit step checks. */
function withNode(base: ModelState, position: number, fields: object): ModelState {
  const nodes = base.nodes.slice();
  nodes[position] = { ...(nodes[position] as ModelState["nodes"][number]), ...fields };
  return { ...base, nodes };
}

const stepOf = (before: ModelState, after: ModelState, event = ev("dispatched")): Step => ({
  index: 0,
  event: event as Step["event"],
  before,
  after,
});

describe("trajectory", () => {
  it("yields one step per event, chaining each after to the next before", () => {
    const events = [...PROVE_A, widen(["x"], "C")];
    const steps = [...trajectory(dag, events)];
    expect(steps.map((s) => s.index)).toEqual([0, 1, 2, 3]);
    expect(steps.map((s) => s.event)).toEqual(events);
    expect(steps[0]?.before).toEqual(initialState(dag));
    for (let i = 1; i < steps.length; i += 1) expect(steps[i]?.before).toBe(steps[i - 1]?.after);
    expect(steps.at(-1)?.after).toEqual(replay(dag, events));
  });

  it("yields the steps before a fault, then throws LogIntegrityError at it", () => {
    const iterator = trajectory(dag, [ev("dispatched"), { kind: "dispatched" }, ev("landed")]);
    expect(iterator.next().value).toMatchObject({ index: 0 });
    expect(() => iterator.next()).toThrow(LogIntegrityError);
  });

  it("reads any iterable, once", () => {
    function* events() {
      yield ev("dispatched");
      yield ev("landed");
    }
    expect([...trajectory(dag, events())]).toHaveLength(2);
  });
});

describe("STEP_INVARIANTS", () => {
  const start = initialState(dag);

  it("phaseMonotonic names a changed node whose phase went down", () => {
    const high = withNode(start, 1, { phase: 3 });
    const low = withNode(high, 1, { phase: 2 });
    expect(STEP_INVARIANTS.phaseMonotonic.inStep(stepOf(high, low))).toBe("B");
    expect(STEP_INVARIANTS.phaseMonotonic.inStep(stepOf(low, high))).toBeNull();
  });

  it("noPendingProven names a proven node with a pending deposit", () => {
    const bad = withNode(start, 2, {
      status: "proven",
      deposit: { validation: "pending", mode: "gated", phase: 0 },
    });
    expect(STEP_INVARIANTS.noPendingProven.inState(bad)).toBe("C");
    const good = withNode(start, 2, {
      status: "landed",
      deposit: { validation: "pending", mode: "gated", phase: 0 },
    });
    expect(STEP_INVARIANTS.noPendingProven.inState(good)).toBeNull();
  });

  it("dagPreserved names the first node of a changed or grown node list", () => {
    const renamed: ModelState = { ...start, dag: dagOf(["A"], ["X", "A"], ["C"]) };
    expect(STEP_INVARIANTS.dagPreserved.inStep(stepOf(start, renamed))).toBe("B");
    const grown: ModelState = { ...start, dag: dagOf(["A"], ["B", "A"], ["C"], ["D"]) };
    expect(STEP_INVARIANTS.dagPreserved.inStep(stepOf(start, grown))).toBe("D");
    const shrunk: ModelState = { ...start, dag: dagOf(["A"], ["B", "A"]) };
    expect(STEP_INVARIANTS.dagPreserved.inStep(stepOf(start, shrunk))).toBe("C");
    expect(STEP_INVARIANTS.dagPreserved.inStep(stepOf(start, start))).toBeNull();
  });

  it("surfaceMonotonic names a changed node whose surface shrank or is malformed", () => {
    const wide = withNode(start, 0, { surface: ["p", "q"] });
    expect(
      STEP_INVARIANTS.surfaceMonotonic.inStep(stepOf(wide, withNode(wide, 0, { surface: ["p"] }))),
    ).toBe("A");
    expect(
      STEP_INVARIANTS.surfaceMonotonic.inStep(stepOf(start, withNode(start, 0, { surface: "p" }))),
    ).toBe("A");
    expect(
      STEP_INVARIANTS.surfaceMonotonic.inStep(
        stepOf(wide, withNode(wide, 0, { surface: ["q", "p", "r"] })),
      ),
    ).toBeNull();
  });
});

describe("phaseMonotonic", () => {
  it("holds through rework and quarantine cycles: the fold only ever raises a phase", () => {
    const events = [
      ev("dispatched"),
      ev("landed"),
      ev("gate-checked", "A", { result: "fail" }),
      ev("dispatched"),
      ev("landed"),
      ev("quarantined"),
      ev("discharged", "A", { result: "fail" }),
      ev("landed"),
      ev("skipped"),
    ];
    expect(phaseMonotonic(dag, events)).toBe(true);
    expect(replay(dag, events).nodes[0]?.phase).toBe(3);
  });

  it("propagates a log-integrity fault", () => {
    expect(() => phaseMonotonic(dag, [ev("dispatched", "ghost")])).toThrow(LogIntegrityError);
  });
});

describe("noPendingProven", () => {
  it("holds when a proven node is landed again by a raw log (the deposit turns pending, the status too)", () => {
    expect(noPendingProven(dag, [...PROVE_A, ev("landed"), ev("quarantined")])).toBe(true);
  });

  it("holds on the empty log", () => {
    expect(noPendingProven(dag, [])).toBe(true);
  });
});

describe("tamperEvident", () => {
  it("holds when every proven node has a logged pass, by gate or by discharge", () => {
    const events = [
      ...PROVE_A,
      ev("dispatched", "C"),
      ev("landed", "C"),
      ev("quarantined", "C"),
      ev("discharged", "C", { result: "pass" }),
    ];
    expect(tamperEvident(dag, events)).toBe(true);
  });

  it("propagates a log-integrity fault", () => {
    expect(() => tamperEvident(dag, [...PROVE_A, 7])).toThrow(LogIntegrityError);
  });
});

describe("unjustifiedProvenNodes", () => {
  it("is empty when proven nodes trace to a pass, and ignores passes for nodes no longer proven", () => {
    const events = [...PROVE_A, ev("landed"), pass("C"), ev("escalated", "C")];
    expect(unjustifiedProvenNodes(dag, events)).toEqual([]);
  });

  it("is empty for a pass applied to a never-dispatched node (illegal, but justified)", () => {
    expect(unjustifiedProvenNodes(dag, [pass("B")])).toEqual([]);
  });
});

describe("dagPreserved", () => {
  it("holds over any well-formed log: no event rewrites the DAG", () => {
    expect(dagPreserved(dag, [...PROVE_A, ev("dispatched", "B"), widen("junk", "C")])).toBe(true);
  });
});

describe("scheduleCorrect", () => {
  it("fails at a dispatch whose dep is not proven in the state just before it", () => {
    const events = [ev("dispatched"), ev("landed"), ev("dispatched", "B"), ...[pass()]];
    expect(scheduleCorrect(dag, events)).toBe(false);
    expect(firstViolation("scheduleCorrect", dag, events)).toEqual({ index: 2, node: "B" });
    expect(scheduleCorrect(dag, events.slice(0, 2))).toBe(true);
    expect(scheduleCorrect(dag, events.slice(0, 3))).toBe(false);
  });

  it("holds for a dispatch after the dep is proven", () => {
    expect(scheduleCorrect(dag, [...PROVE_A, ev("dispatched", "B")])).toBe(true);
  });

  it("fails when a raw log un-proves the dep before the dispatch", () => {
    const events = [...PROVE_A, ev("landed"), ev("dispatched", "B")];
    expect(firstViolation("scheduleCorrect", dag, events)).toEqual({ index: 4, node: "B" });
  });

  it("fails at a dispatch whose dep is only quarantined", () => {
    const events = [ev("dispatched"), ev("landed"), ev("quarantined"), ev("dispatched", "B")];
    expect(firstViolation("scheduleCorrect", dag, events)).toEqual({ index: 3, node: "B" });
  });

  it("judges only dispatched events", () => {
    expect(scheduleCorrect(dag, [ev("landed", "B"), pass("B"), ev("skipped", "B")])).toBe(true);
  });
});

describe("surfaceMonotonic", () => {
  it("holds while surfaces only grow, in any order, with duplicates", () => {
    const events = [
      widen(["p"]),
      widen(["q", "p"]),
      widen(["p", "q", "q", "r"]),
      widen(["x"], "B"),
    ];
    expect(surfaceMonotonic(dag, events)).toBe(true);
  });

  it("fails at the index of a raw surface-widened event that shrinks the surface", () => {
    const events = [widen(["p", "q"]), ev("dispatched"), widen(["q"]), widen(["q", "p"])];
    expect(firstViolation("surfaceMonotonic", dag, events)).toEqual({ index: 2, node: "A" });
    expect(surfaceMonotonic(dag, events.slice(0, 2))).toBe(true);
    expect(surfaceMonotonic(dag, events.slice(0, 3))).toBe(false);
  });

  it("fails at the index of a string payload", () => {
    const events = [widen(["p"], "C"), widen("p", "C")];
    expect(firstViolation("surfaceMonotonic", dag, events)).toEqual({ index: 1, node: "C" });
  });

  it.each([[[1]], [["p", null]], [{ 0: "p" }], [42]])(
    "fails on the malformed payload %j, even when empty before",
    (surface) => {
      expect(firstViolation("surfaceMonotonic", dag, [ev("dispatched"), widen(surface)])).toEqual({
        index: 1,
        node: "A",
      });
    },
  );

  it("treats a missing or null payload as the empty surface", () => {
    expect(surfaceMonotonic(dag, [widen(null)])).toBe(true);
    expect(surfaceMonotonic(dag, [ev("surface-widened")])).toBe(true);
    expect(firstViolation("surfaceMonotonic", dag, [widen(["p"]), widen(null)])).toEqual({
      index: 1,
      node: "A",
    });
  });
});

describe("firstViolation", () => {
  it("is null when the invariant holds over the whole trajectory", () => {
    expect(firstViolation("scheduleCorrect", dag, [...PROVE_A, ev("dispatched", "B")])).toBeNull();
  });

  it("reports the first of several violations", () => {
    const events = [
      widen(["p"]),
      widen([]),
      widen("x"),
      ev("dispatched", "B"),
      ev("dispatched", "B"),
    ];
    expect(firstViolation("surfaceMonotonic", dag, events)).toEqual({ index: 1, node: "A" });
    expect(firstViolation("scheduleCorrect", dag, events)).toEqual({ index: 3, node: "B" });
  });
});

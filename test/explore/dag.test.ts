/**
 * Exploring the dag model (docs/explore.md): the DAGs enumerated up to isomorphism, counts on a
 * tiny configuration against counts worked out by hand, determinism, nothing found against the
 * reference model, a finding when the engines disagree, and the fault matrix of a tiny
 * configuration against the one worked out by hand.
 */
import { describe, expect, it } from "vitest";
import { loadEngine } from "../../bindings/index.js";
import { dagsUpTo } from "../../src/explore/dag/dags.js";
import { checkRestarts, FAULT_CLASSES, injectFaults } from "../../src/explore/dag/faults.js";
import { dagSubject } from "../../src/explore/dag/subject.js";
import { explore } from "../../src/explore/explore.js";
import { emptySensitivity } from "../../src/explore/faults.js";
import { type Dag, makeDag } from "../../src/models/dag/dag.js";
import type { Engine } from "../../src/models/dag/engine.js";
import { loggedEvents } from "../../src/models/dag/state.js";

describe("the DAGs explored", () => {
  it("are every DAG of 1 to n nodes once up to isomorphism: 1, 2, 6 and 31 of them", () => {
    expect([1, 2, 3, 4].map((n) => dagsUpTo(n).length - dagsUpTo(n - 1).length)).toEqual([
      1, 2, 6, 31,
    ]);
    for (const nodes of dagsUpTo(4)) expect(makeDag(nodes).ok).toBe(true);
    expect(dagsUpTo(2).map((dag) => dag.map(({ id, deps }) => `${id}<-${deps.join(",")}`))).toEqual(
      [["a<-"], ["a<-", "b<-"], ["a<-", "b<-a"]],
    );
  });
});

describe("explore on the dag model", () => {
  it("counts one node, no surface paths, depth 3 as worked out by hand", () => {
    // From queued: dispatch, skip, escalate, and a widen by [] that changes nothing but the log
    // (4 transitions, 3 new states). From dispatched: land (new), skip, escalate, widen — the
    // last three states already met (4 transitions, 1 new); skipped and escalated take nothing.
    // From landed: gate pass (proven), fail and timeout (the same rework), quarantine, skip and
    // escalate with the deposit held, widen (7 transitions, 5 new). 1 + 3 + 1 + 5 = 10 states.
    const result = explore(dagSubject({ nodes: 1, paths: 0 }), 3);
    expect(result).toMatchObject({
      initialStates: 1,
      states: 16,
      distinctStates: 10,
      transitions: 15,
      depthReached: 3,
      findings: [],
    });
  });

  it("finds nothing against the reference on every DAG of up to 3 nodes, both engines agreeing", async () => {
    const wasm = await loadEngine();
    const result = explore(dagSubject({ nodes: 3, paths: 1 }, wasm), 5);
    expect(result.initialStates).toBe(9);
    expect(result.findings).toEqual([]);
    expect(result.depthReached).toBe(5);
    expect(result.distinctStates).toBeGreaterThan(5000);
    // Deterministic: the same configuration explores the same states.
    const again = explore(dagSubject({ nodes: 3, paths: 1 }), 5);
    expect({ ...again, seconds: 0 }).toEqual({ ...result, seconds: 0 });
  });

  it("reports an engine that disagrees with the reference, with the journal that shows it", () => {
    const wasm = {
      audit: (dag: never, events: readonly unknown[]) => ({ events: events.length, dag }),
    } as unknown as Engine;
    const result = explore(dagSubject({ nodes: 1, paths: 0 }, wasm), 1);
    // One finding per rule, the first state that broke it kept, every time counted.
    expect(result.findings.length).toBe(1);
    const first = result.findings[0];
    expect(first?.times).toBe(result.distinctStates);
    expect(first?.rule).toBe("engines differ");
    expect(loggedEvents(first?.state as never)).toEqual([]);
  });
});

describe("faults injected into the explored journals", () => {
  it("are tallied as worked out by hand for one node to depth 2", async () => {
    // The journals: [], [dispatch], [skip], [escalate], [dispatch, land]. A record twice is always
    // caught (a second dispatch, land, skip or escalate is illegal); a record lost leaves a
    // journal the model allows, but for the land without its dispatch; the one swap lands before
    // dispatching; each non-empty journal's torn final write is a torn tail; and every journal
    // of n records splits at n lines.
    const sensitivity = emptySensitivity(FAULT_CLASSES);
    const wasm = await loadEngine();
    const journals: { dag: Dag; events: readonly unknown[] }[] = [];
    explore(dagSubject({ nodes: 1, paths: 0 }), 2, {
      onDistinct: (state) => journals.push({ dag: state.dag, events: loggedEvents(state) }),
    });
    expect(journals.map(({ events }) => events.length)).toEqual([0, 1, 1, 1, 2]);
    for (const { dag, events } of journals) {
      injectFaults(sensitivity, dag, events);
      await checkRestarts(sensitivity, wasm, dag, events);
    }
    const { faults, restarts } = sensitivity;
    expect(faults.duplicate).toMatchObject({ made: 5, caught: 5, masked: 0 });
    expect(faults.duplicate.byRule).toEqual({
      "legality (wrong-status)": 3,
      "legality (already-terminal)": 2,
    });
    expect(faults.lost).toMatchObject({ made: 5, caught: 1, masked: 4, smallestMasked: [] });
    expect(faults.swapped).toMatchObject({ made: 1, caught: 1, masked: 0 });
    expect(faults["torn-write"]).toMatchObject({ made: 4, caught: 4, byRule: { "torn tail": 4 } });
    expect(restarts).toEqual({ checked: 5, differing: 0, firstDiffering: null });
  });
});

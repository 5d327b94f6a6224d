/**
 * Mutation sensitivity of the dag model (docs/explore.md, "Mutants"): every mutant is killed at
 * explore's default bound by a journal its maker's actions could make, shrunk so that no record
 * can go; the minimal journals worked out by hand for a few; a mutant that means what the
 * reference means survives, and is named.
 */
import { describe, expect, it } from "vitest";
import { DAG_DEFAULTS } from "../../src/explore/dag/defaults.js";
import {
  DAG_MUTANTS,
  type DagMutant,
  differenceOf,
  huntMutant,
} from "../../src/explore/dag/mutants.js";
import { shapeOf } from "../../src/explore/dag/subject.js";
import { audit } from "../../src/models/dag/audit.js";
import { applyEvent } from "../../src/models/dag/fold.js";
import { precondition } from "../../src/models/dag/transitions.js";

const { depth, ...configuration } = DAG_DEFAULTS;

describe("the dag model's mutants", () => {
  it("are at least ten, each named once and described", () => {
    expect(DAG_MUTANTS.length).toBeGreaterThanOrEqual(10);
    expect(new Set(DAG_MUTANTS.map(({ name }) => name)).size).toBe(DAG_MUTANTS.length);
    for (const { name, description } of DAG_MUTANTS) {
      expect(name).toMatch(/^[a-z]+(-[a-z]+)+$/);
      expect(description.length).toBeGreaterThan(20);
    }
  });

  it.each(DAG_MUTANTS.map((mutant) => [mutant.name, mutant] as const))(
    "%s is killed at the default bound by a 1-minimal journal its maker could make",
    async (_, mutant) => {
      const { kill } = await huntMutant(configuration, depth, mutant);
      expect(kill).not.toBeNull();
      if (kill === null) return;
      const { dag, journal, differs, madeBy } = kill;
      expect(differenceOf(dag, journal, mutant.semantics)).toBe(differs);
      const legalToMaker = (events: readonly unknown[]) => {
        const report = audit(dag, events, {}, madeBy === "mutant" ? mutant.semantics : undefined);
        return report.integrity === null && report.legality.illegal === 0;
      };
      expect(legalToMaker(journal)).toBe(true);
      // No single record can be removed and still tell them apart the same way.
      for (let i = 0; i < journal.length; i++) {
        const without = [...journal.slice(0, i), ...journal.slice(i + 1)];
        const stillKills =
          legalToMaker(without) && differenceOf(dag, without, mutant.semantics) === differs;
        expect(stillKills, `without record ${i}`).toBe(false);
      }
    },
  );

  it("are told apart by the journals worked out by hand", async () => {
    const killOf = async (name: string) => {
      const verdict = await huntMutant(
        configuration,
        depth,
        DAG_MUTANTS.find((mutant) => mutant.name === name) as DagMutant,
      );
      const { madeBy, dag, differs, journal } = verdict.kill ?? {};
      return { madeBy, dag: dag && shapeOf(dag), differs, journal };
    };
    const d = (id: string) => ({ kind: "dispatched", id });
    const l = (id: string) => ({ kind: "landed", id });
    // A timeout counted as a pass proves a node no pass was logged for.
    expect(await killOf("gate-timeout-passes")).toEqual({
      madeBy: "reference",
      dag: "a",
      differs: "tamperEvident",
      journal: [d("a"), l("a"), { kind: "gate-checked", id: "a", result: "timeout" }],
    });
    // Needs a second node: the mutant dispatches b before a is proven.
    expect(await killOf("dispatch-ignores-dependencies")).toEqual({
      madeBy: "mutant",
      dag: "a; b<-a",
      differs: "legality",
      journal: [d("b")],
    });
    // The reference re-dispatches from rework; the mutant calls that illegal.
    expect(await killOf("rework-not-redispatchable")).toEqual({
      madeBy: "reference",
      dag: "a",
      differs: "legality",
      journal: [d("a"), l("a"), { kind: "gate-checked", id: "a", result: "fail" }, d("a")],
    });
    // Only a widen before the land shows the lost surface.
    expect(await killOf("land-drops-surface")).toEqual({
      madeBy: "reference",
      dag: "a",
      differs: "surfaceMonotonic",
      journal: [d("a"), { kind: "surface-widened", id: "a", surface: ["p0"] }, l("a")],
    });
  });

  it("name a survivor: a mutant with the reference's meaning explores the whole bound", async () => {
    const same: DagMutant = {
      name: "reference-as-written",
      description: "the reference's own effect and preconditions",
      semantics: { effect: applyEvent, refusal: precondition },
    };
    const verdict = await huntMutant({ nodes: 2, paths: 1 }, 4, same);
    expect(verdict.kill).toBeNull();
    expect(verdict.distinctStates).toBeGreaterThan(100);
  });

  it("are killed only where the bound reaches: at depth 1 those that need a longer journal survive", async () => {
    const survivors: string[] = [];
    for (const mutant of DAG_MUTANTS) {
      if ((await huntMutant(configuration, 1, mutant)).kill === null) survivors.push(mutant.name);
    }
    expect(survivors).toContain("gate-timeout-passes");
    expect(survivors).not.toContain("dispatch-ignores-dependencies");
  });
});

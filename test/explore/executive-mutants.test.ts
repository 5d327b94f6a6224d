/**
 * Mutation sensitivity of the executive model (docs/explore.md, "Mutants"): every mutant is
 * killed at explore's default bound by a 1-minimal journal its maker could make; a few minimal
 * journals worked out by hand; a mutant with the reference's meaning survives.
 */
import { describe, expect, it } from "vitest";
import { EXECUTIVE_DEFAULTS } from "../../src/explore/executive/defaults.js";
import {
  differenceOf,
  EXECUTIVE_MUTANTS,
  type ExecutiveMutant,
  huntExecutiveMutant,
} from "../../src/explore/executive/mutants.js";
import { runOf } from "../../src/explore/executive/subject.js";
import { auditExecutive } from "../../src/models/executive/audit.js";
import { stepState } from "../../src/models/executive/step.js";

const run = runOf(EXECUTIVE_DEFAULTS.spec, EXECUTIVE_DEFAULTS.budget);
const { depth } = EXECUTIVE_DEFAULTS;
const observationsOf = (journal: readonly unknown[]) =>
  journal.map((line) => (line as { observation: unknown }).observation);

describe("the executive model's mutants", () => {
  it("are at least ten, each named once", () => {
    expect(EXECUTIVE_MUTANTS.length).toBeGreaterThanOrEqual(10);
    expect(new Set(EXECUTIVE_MUTANTS.map(({ name }) => name)).size).toBe(EXECUTIVE_MUTANTS.length);
  });

  it.each(EXECUTIVE_MUTANTS.map((mutant) => [mutant.name, mutant] as const))(
    "%s is killed at the default bound by a 1-minimal journal its maker could make",
    async (_, mutant) => {
      const { kill } = await huntExecutiveMutant(run, depth, mutant);
      expect(kill).not.toBeNull();
      if (kill === null) return;
      const { journal, differs, madeBy } = kill;
      expect(differenceOf(run, journal, mutant.semantics)).toBe(differs);
      const makeable = (lines: readonly unknown[]) =>
        auditExecutive(run, lines, {}, madeBy === "mutant" ? mutant.semantics : undefined)
          .conformant;
      expect(makeable(journal)).toBe(true);
      for (let i = 0; i < journal.length; i++) {
        const without = [...journal.slice(0, i), ...journal.slice(i + 1)];
        const stillKills =
          makeable(without) && differenceOf(run, without, mutant.semantics) === differs;
        expect(stillKills, `without line ${i}`).toBe(false);
      }
    },
  );

  it("are told apart by the journals worked out by hand", async () => {
    const kill = async (name: string) =>
      (
        await huntExecutiveMutant(
          run,
          depth,
          EXECUTIVE_MUTANTS.find((mutant) => mutant.name === name) as ExecutiveMutant,
        )
      ).kill;
    // A finished run must refuse a tick; the mutant waits.
    const tick = await kill("terminal-accepts-tick");
    expect(tick).toMatchObject({ madeBy: "reference", differs: "decisionsMatch" });
    expect(observationsOf(tick?.journal ?? [])).toEqual([
      { tag: "cancel", now: 0 },
      { tag: "tick", now: 0 },
    ]);
    // A retried step's retry is charged: the run's counters tell.
    const refund = await kill("retry-refunds-counter");
    expect(refund).toMatchObject({ madeBy: "reference", differs: "final" });
    expect(observationsOf(refund?.journal ?? [])).toEqual([
      { tag: "start", now: 0 },
      { tag: "result", seq: 1, now: 0, outcome: "error", retryable: true, bytes: 0 },
    ]);
  });

  it("name a survivor: a mutant with the reference's meaning explores the whole bound", async () => {
    const same: ExecutiveMutant = {
      name: "reference-as-written",
      description: "the reference's own step",
      semantics: { step: stepState },
    };
    const verdict = await huntExecutiveMutant(run, 5, same);
    expect(verdict.kill).toBeNull();
    expect(verdict.distinctStates).toBeGreaterThan(100);
  });
});

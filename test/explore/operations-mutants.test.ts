/**
 * Mutation sensitivity of the operations model (docs/explore.md, "Mutants"): every mutant is
 * killed at explore's default bound by a 1-minimal journal its maker could make; a few minimal
 * journals worked out by hand; a mutant with the reference's meaning survives.
 */
import { describe, expect, it } from "vitest";
import { OPERATIONS_DEFAULTS } from "../../src/explore/operations/defaults.js";
import {
  differenceOf,
  huntOperationsMutant,
  OPERATIONS_MUTANTS,
  type OperationsMutant,
} from "../../src/explore/operations/mutants.js";
import { apply } from "../../src/models/operations/apply.js";
import { audit } from "../../src/models/operations/audit.js";
import { retryWait } from "../../src/models/operations/retry-wait.js";
import { judge } from "../../src/models/operations/rules.js";

const { depth, ...configuration } = OPERATIONS_DEFAULTS;
const mutantNamed = (name: string) =>
  OPERATIONS_MUTANTS.find((mutant) => mutant.name === name) as OperationsMutant;

describe("the operations model's mutants", () => {
  it("are at least ten, each named once", () => {
    expect(OPERATIONS_MUTANTS.length).toBeGreaterThanOrEqual(10);
    expect(new Set(OPERATIONS_MUTANTS.map(({ name }) => name)).size).toBe(
      OPERATIONS_MUTANTS.length,
    );
  });

  it.each(OPERATIONS_MUTANTS.map((mutant) => [mutant.name, mutant] as const))(
    "%s is killed at the default bound by a 1-minimal journal its maker could make",
    async (_, mutant) => {
      const { kill } = await huntOperationsMutant(configuration, depth, mutant);
      expect(kill).not.toBeNull();
      if (kill === null) return;
      const { journal, differs, madeBy } = kill;
      expect(differenceOf(journal, mutant.semantics)).toBe(differs);
      const makeable = (records: readonly unknown[]) => {
        const report = audit(records, {}, madeBy === "mutant" ? mutant.semantics : undefined);
        return report.integrity === null && report.legality.illegal === 0;
      };
      expect(makeable(journal)).toBe(true);
      for (let i = 0; i < journal.length; i++) {
        const without = [...journal.slice(0, i), ...journal.slice(i + 1)];
        const stillKills = makeable(without) && differenceOf(without, mutant.semantics) === differs;
        expect(stillKills, `without record ${i}`).toBe(false);
      }
    },
  );

  it("are told apart by the journals worked out by hand", async () => {
    const policy = OPERATIONS_DEFAULTS.policy;
    const accepted = { kind: "accepted", op: "o1", strand: "s1", policy };
    const intent = { kind: "intent", op: "o1", key: "k1", effect: "o1.k1.1", attempt: 1, at: 0 };
    // A second op on the busy strand: only the mutant's actions make it.
    expect(
      (await huntOperationsMutant(configuration, depth, mutantNamed("strand-busy-ignored"))).kill,
    ).toMatchObject({
      madeBy: "mutant",
      differs: "oneOperationPerStrand",
      journal: [accepted, { ...accepted, op: "o2" }],
    });
    // A readback that found nothing: the reference waits to retry, the mutant calls it done.
    expect(
      (await huntOperationsMutant(configuration, depth, mutantNamed("readback-absent-commits")))
        .kill,
    ).toMatchObject({
      madeBy: "reference",
      differs: "final",
      journal: [
        accepted,
        intent,
        { kind: "settled", op: "o1", effect: "o1.k1.1", at: 0, outcome: "unknown" },
        { kind: "readback", op: "o1", effect: "o1.k1.1", found: "absent", at: 0 },
      ],
    });
  });

  it("name a survivor: a mutant with the reference's meaning explores the whole bound", async () => {
    const same: OperationsMutant = {
      name: "reference-as-written",
      description: "the reference's own rules, changes and ladder",
      semantics: { judge, apply, retryWait },
    };
    const verdict = await huntOperationsMutant(configuration, 5, same);
    expect(verdict.kill).toBeNull();
    expect(verdict.distinctStates).toBeGreaterThan(50);
  });
});

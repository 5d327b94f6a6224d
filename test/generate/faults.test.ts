/**
 * Fault injection (src/generate/dag/faults.ts through syntheticJournal): deterministic per seed, and
 * every fault is exactly what an audit finds — at its line, with its reason, on both engines.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadEngine, type WasmEngine } from "../../bindings/index.js";
import { type CampaignOptions, campaignLines } from "../../src/generate/dag/campaign.js";
import { FAULT_KINDS, type FaultKind } from "../../src/generate/dag/fault-kinds.js";
import type { FaultRequest, InjectedFault } from "../../src/generate/dag/faults.js";
import { syntheticJournal } from "../../src/generate/dag/synthetic-journal.js";
import { FaultPlacementError } from "../../src/generate/fault-placement-error.js";
import { referenceEngine } from "../../src/models/dag/engine.js";
import { eventsIn, expectReportOfFaults } from "../support/fault-verdict.js";

function generate(campaign: CampaignOptions, faults: readonly FaultRequest[] = []) {
  const injected: InjectedFault[] = [];
  const text = [
    ...syntheticJournal({ campaign, faults, onInjected: (f) => injected.push(f) }),
  ].join("");
  return { text, bytes: new TextEncoder().encode(text), injected };
}

let wasm: WasmEngine;
beforeAll(async () => {
  wasm = await loadEngine();
});

describe("syntheticJournal", () => {
  const campaign = { nodes: 30, events: 600, seed: 11 };

  it("writes the campaign untouched when no fault is asked for", () => {
    expect(generate(campaign).text).toBe(`${[...campaignLines(campaign)].join("\n")}\n`);
  });

  it("gives the same bytes for the same options, and others for another seed", () => {
    const faults = FAULT_KINDS.map((kind) => ({ kind, count: 1 }));
    const once = generate(campaign, faults);
    expect(generate(campaign, faults)).toEqual(once);
    expect(generate({ ...campaign, seed: 12 }, faults).text).not.toBe(once.text);
  });

  it.each(FAULT_KINDS)(
    "%s: the audit names each one at its line, on both engines",
    async (kind) => {
      const count = kind === "torn-tail" ? 1 : 3;
      const { text, bytes, injected } = generate(campaign, [{ kind, count }]);
      expect(injected.map((fault) => fault.kind)).toEqual(Array(count).fill(kind));
      const lines = text.split("\n");
      for (const fault of injected) {
        if (fault.kind !== "torn-tail") expect(lines[fault.line - 1]).not.toBe("");
      }
      for (const engine of [wasm, referenceEngine]) {
        expectReportOfFaults(await engine.auditBytes(null, bytes), injected, eventsIn(text));
      }
    },
  );

  it("places faults of every kind together, each where the audit finds it", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          nodes: fc.integer({ min: 1, max: 40 }),
          events: fc.integer({ min: 0, max: 700 }),
          seed: fc.nat(),
          maxDeps: fc.integer({ min: 0, max: 4 }),
          parallelism: fc.integer({ min: 1, max: 12 }),
        }),
        fc.array(
          fc.record({
            kind: fc.constantFrom(...FAULT_KINDS),
            count: fc.integer({ min: 0, max: 3 }),
          }),
          { maxLength: 4 },
        ),
        async (options, requests) => {
          const faults = requests.map(({ kind, count }) => ({
            kind,
            count: kind === "torn-tail" ? Math.min(count, 1) : count,
          }));
          const torn = faults.filter((fault) => fault.kind === "torn-tail").length;
          if (torn > 1) return;
          let generated: ReturnType<typeof generate>;
          try {
            generated = generate(options, faults);
          } catch (error) {
            // Refused only for want of places, naming the kind.
            expect(error).toBeInstanceOf(FaultPlacementError);
            expect((error as Error).message).toMatch(/^cannot inject \d+ [a-z-]+: /);
            return;
          }
          const { text, bytes, injected } = generated;
          const asked = new Map<FaultKind, number>();
          for (const { kind, count } of faults) asked.set(kind, (asked.get(kind) ?? 0) + count);
          for (const kind of FAULT_KINDS) {
            const placed = injected.filter((fault) => fault.kind === kind).length;
            expect(placed, kind).toBe(asked.get(kind) ?? 0);
          }
          for (const engine of [wasm, referenceEngine]) {
            expectReportOfFaults(await engine.auditBytes(null, bytes), injected, eventsIn(text));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("refuses more faults than the campaign has places for, before the first line", () => {
    const journal = syntheticJournal({
      campaign: { nodes: 3, events: 5, seed: 1 },
      faults: [{ kind: "unproven-dispatch", count: 50 }],
    });
    expect(() => journal.next()).toThrow(
      /^cannot inject 50 unproven-dispatch: the journal has \d+ places? for one \(a queued node with a dependency not yet proven\)/,
    );
  });

  it("refuses a second torn tail", () => {
    const journal = syntheticJournal({
      campaign: { nodes: 3, events: 5, seed: 1 },
      faults: [
        { kind: "torn-tail", count: 1 },
        { kind: "torn-tail", count: 1 },
      ],
    });
    expect(() => journal.next()).toThrow("a journal holds at most 1 torn-tail");
  });
});

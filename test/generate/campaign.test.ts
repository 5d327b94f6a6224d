/**
 * The campaign generator's options for the benchmarks: `illegalRate` injects a seeded share of
 * illegal (but well-formed, known-node) events, `surfacePathsMax` bounds a task's surface, and
 * neither changes a single byte of a campaign that does not ask for it.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type CampaignOptions, campaignLines } from "../../src/generate/dag/campaign.js";
import { referenceEngine } from "../../src/models/dag/engine.js";

const journalOf = (options: CampaignOptions) =>
  new TextEncoder().encode(`${[...campaignLines(options)].join("\n")}\n`);

describe("campaignLines", () => {
  it("writes the same bytes as before the options existed when they are left out", () => {
    // Digests of the generator's output at the commit before illegalRate and surfacePathsMax.
    const digests: [CampaignOptions, string][] = [
      [
        { nodes: 50, events: 3000, seed: 1 },
        "d15836877aa70efa819448c5a63a186fa67faa46704a7f1acacb3721f51abe1c",
      ],
      [
        { nodes: 1000, events: 20000, seed: 42, maxDeps: 5, parallelism: 16 },
        "0552dd661ae0870dee421f26e7fe9f4f1ae88b10cfbb65105249e7875b2c821b",
      ],
    ];
    for (const [options, digest] of digests) {
      const hash = createHash("sha256");
      for (const line of campaignLines(options)) hash.update(`${line}\n`);
      expect(hash.digest("hex"), JSON.stringify(options)).toBe(digest);
      expect(
        createHash("sha256")
          .update(journalOf({ ...options, illegalRate: 0 }))
          .digest("hex"),
      ).toBe(digest);
    }
  });

  it("injects about illegalRate illegal events, of every kind, without stopping the fold", async () => {
    const options = { nodes: 30, events: 20000, seed: 5, passRate: 0.002, illegalRate: 0.01 };
    const report = await referenceEngine.auditBytes(null, journalOf(options));
    expect(report.integrity).toBeNull();
    expect(report.events).toBe(20000);
    expect(report.legality.illegal).toBeGreaterThan(100);
    expect(report.legality.illegal).toBeLessThan(300);
    expect(report.invariants.surfaceMonotonic.holds).toBe(false);
    expect(report.invariants.scheduleCorrect.holds).toBe(true);
    const reasons = new Set<string>();
    for (let events = 500; reasons.size < 4 && events <= 20000; events += 500) {
      const prefix = await referenceEngine.auditBytes(null, journalOf({ ...options, events }));
      for (const illegal of prefix.legality.first) reasons.add(illegal.reason);
    }
    expect([...reasons].sort()).toEqual([
      "already-terminal",
      "invalid-result",
      "surface-shrinks",
      "wrong-status",
    ]);
  });

  it("is deterministic per seed, illegal events included", () => {
    const options = { nodes: 20, events: 3000, seed: 9, illegalRate: 0.05 };
    const text = (of: CampaignOptions) => [...campaignLines(of)].join("\n");
    expect(text(options)).toBe(text(options));
    expect(text(options)).not.toBe(text({ ...options, seed: 10 }));
  });

  it("bounds each task's surface by surfacePathsMax", () => {
    const options = { nodes: 5, events: 5000, seed: 3, passRate: 0.001, surfacePathsMax: 4 };
    let widest = 0;
    for (const line of campaignLines(options)) {
      const event = JSON.parse(line) as { surface?: string[] };
      widest = Math.max(widest, event.surface?.length ?? 0);
    }
    expect(widest).toBe(4);
  });
});

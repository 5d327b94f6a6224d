import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  assertConformant,
  gateViolation,
  JournalInvariantViolation,
} from "../../src/gate/journal-invariant-violation.js";
import { referenceEngine } from "../../src/models/dag/engine.js";
import type { Report } from "../../src/models/dag/report.js";

async function reportOf(example: string): Promise<Report> {
  return referenceEngine.auditBytes(null, readFileSync(example), { file: example });
}

describe("assertConformant", () => {
  it("lets a conformant journal through, and a merely illegal one unless strict", async () => {
    const diamond = await reportOf("examples/diamond.jsonl");
    expect(assertConformant(diamond)).toBe(diamond);
    const illegal = await reportOf("examples/violations/illegal-transition.jsonl");
    expect(assertConformant(illegal)).toBe(illegal);
    expect(() => assertConformant(illegal, { strict: true })).toThrow(JournalInvariantViolation);
  });

  it.each([
    [
      "unproven-dispatch",
      "scheduleCorrect",
      9,
      11,
      "D",
      /dispatched before its dependencies were proven/,
    ],
    ["surface-shrink", "surfaceMonotonic", 9, 11, "B", /surface shrank/],
    ["string-surface", "surfaceMonotonic", 1, 3, "A", /not a list of path strings/],
    ["unknown-node", "integrity", 5, 7, null, /unknown-node: no node "E" in the DAG/],
    ["unknown-kind", "integrity", 6, 8, null, /unknown-kind: unknown event kind "merged"/],
    ["malformed-line", "integrity", 5, 7, null, /malformed-event/],
    ["discharge-without-deposit", "integrity", 5, 7, null, /discharge-without-deposit/],
  ])("refuses %s naming %s and the event", async (example, rule, index, line, node, why) => {
    const file = `examples/violations/${example}.jsonl`;
    const report = await reportOf(file);
    let thrown: unknown;
    try {
      assertConformant(report, { file });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(JournalInvariantViolation);
    const violation = thrown as JournalInvariantViolation;
    expect(violation).toMatchObject({ file, rule, event: { index, line }, node });
    expect(violation.message).toMatch(why);
    expect(violation.message).toContain(`line ${line} (event ${index})`);
  });

  it("names the earliest broken rule, and tamperEvident (no event) only after all others", () => {
    const report = {
      model: "dag",
      conformant: false,
      strictlyConformant: false,
      events: 9,
      integrity: null,
      tornTail: null,
      invariants: {
        phaseMonotonic: { holds: true },
        noPendingProven: { holds: true },
        tamperEvident: { holds: false, nodes: ["T"] },
        dagPreserved: { holds: true },
        scheduleCorrect: { holds: false, index: 7, node: "S" },
        surfaceMonotonic: { holds: false, index: 4, node: "U" },
      },
      legality: {
        illegal: 1,
        first: [{ index: 2, kind: "landed", node: "L", reason: "wrong-status" }],
      },
      final: {
        counts: {
          queued: 0,
          dispatched: 0,
          landed: 0,
          proven: 0,
          quarantined: 0,
          rework: 0,
          skipped: 0,
          escalated: 0,
        },
      },
    } satisfies Report;
    expect(gateViolation(report, "j", false)).toMatchObject({
      rule: "surfaceMonotonic",
      node: "U",
    });
    expect(gateViolation(report, "j", true)).toMatchObject({ rule: "legality", node: "L" });
    const onlyTampered = {
      ...report,
      invariants: {
        ...report.invariants,
        scheduleCorrect: { holds: true },
        surfaceMonotonic: { holds: true },
      },
    } satisfies Report;
    expect(gateViolation(onlyTampered, "j", false)).toMatchObject({
      rule: "tamperEvident",
      node: "T",
      event: null,
    });
  });
});

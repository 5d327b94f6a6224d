/**
 * `gen --model executive` (src/generate/executive/journal.ts): a faithful host's journal audits
 * as conformant, each injected fault is the only finding at its line, the same options give the
 * same bytes, and a plan the journal cannot hold is refused before the first line.
 */
import { describe, expect, it } from "vitest";
import { EXECUTIVE_FAULT_KINDS, executiveJournal } from "../../src/generate/executive/journal.js";
import { FaultPlacementError } from "../../src/generate/fault-placement-error.js";
import { readJsonlJournal } from "../../src/journal/jsonl.js";
import { auditExecutive, type ExecutiveRun } from "../../src/models/executive/index.js";

const encoder = new TextEncoder();

function audited(text: string) {
  const journal = readJsonlJournal(encoder.encode(text), "gen.jsonl");
  const run = journal.header?.fields as ExecutiveRun | undefined;
  if (run === undefined || run === null) throw new Error("no executive header");
  return auditExecutive(run, journal.events, { lines: journal.lines, tornTail: journal.tornTail });
}

describe("gen --model executive", () => {
  it("writes a faithful host's run that audits as strictly conformant, and lasts", () => {
    for (const seed of [1, 2, 3]) {
      const text = [...executiveJournal({ events: 3000, seed })].join("");
      const report = audited(text);
      expect(report.strictlyConformant).toBe(true);
      expect(report.events).toBe(3000);
      expect(report.final.seq).toBeGreaterThan(1500); // the run did not end early
      expect(report.final.used.retries).toBeGreaterThan(0);
    }
  });

  it("injects each fault as the only finding at its line", () => {
    for (const kind of EXECUTIVE_FAULT_KINDS) {
      const count = kind === "wrong-fail-reason" ? 1 : 3;
      const text = [...executiveJournal({ events: 3000, seed: 7, faults: [{ kind, count }] })].join(
        "",
      );
      const report = audited(text);
      expect(report.integrity, kind).toBeNull();
      expect(report.legality.illegal, kind).toBe(count);
      expect(report.invariants.decisionsMatch.holds, kind).toBe(false);
      expect(report.invariants.terminalRespected.holds, kind).toBe(
        kind !== "accepted-after-terminal",
      );
      const lines = report.legality.first.map((entry) => entry.line);
      expect(new Set(lines).size, kind).toBe(count);
    }
  });

  it("gives the same bytes for the same options, and other bytes for another seed", () => {
    const options = { events: 500, seed: 4, faults: [{ kind: "wrong-seq" as const, count: 2 }] };
    const a = [...executiveJournal(options)].join("");
    expect([...executiveJournal(options)].join("")).toBe(a);
    expect([...executiveJournal({ ...options, seed: 5 })].join("")).not.toBe(a);
  });

  it("refuses a plan the journal cannot hold before the first line", () => {
    const tooMany = executiveJournal({
      events: 3,
      seed: 1,
      faults: [{ kind: "wrong-seq", count: 5 }],
    });
    expect(() => tooMany.next()).toThrow(FaultPlacementError);
    const twice = executiveJournal({
      events: 900,
      seed: 1,
      faults: [{ kind: "wrong-fail-reason", count: 2 }],
    });
    expect(() => twice.next()).toThrow(/a run fails once/);
  });
});

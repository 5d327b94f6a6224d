/**
 * The executive journal audit (docs/models/executive.md, "The journal and its audit"): decisions
 * compared as JSON values, the replay going on from the machine's own state after a mismatch,
 * ten mismatches listed and all counted, oversized recorded decisions reported by size, and
 * the lines that stop the replay.
 */
import { describe, expect, it } from "vitest";
import {
  auditExecutive,
  jsonEqual,
  referenceExecutive as machine,
  readSpec,
} from "../../../src/models/executive/index.js";
import { UnparseableLine } from "../../../src/models/journal-source.js";

const read = readSpec(
  { task: "t", plan: { steps: [{ id: "a", deps: [], effect: "tool" }] } },
  {
    steps: 100,
    depth: 1,
    modelCalls: 5,
    toolCalls: 50,
    contextOps: 5,
    retries: 40,
    outputBytes: 100,
    deadline: 1e6,
  },
);
if (!read.ok) throw new Error("spec");
const RUN = { spec: read.spec, budget: read.budget };

/** The journal a faithful host writes for these observations. */
function faithful(observations: unknown[]): { observation: unknown; decision: unknown }[] {
  const made = machine.initialState(RUN.spec, RUN.budget) as { state: never };
  let state = made.state;
  return observations.map((observation) => {
    const result = machine.step(state, observation);
    state = result.state as never;
    return { observation, decision: JSON.parse(JSON.stringify(result.decision)) };
  });
}

const retries = (n: number) => [
  { tag: "start", now: 0 },
  ...Array.from({ length: n }, (_, i) => ({
    tag: "result",
    seq: i + 1,
    outcome: "error",
    retryable: true,
    bytes: 0,
    now: i + 1,
  })),
];

describe("auditExecutive", () => {
  it("passes a faithful host's journal, whatever the key order of its decisions", () => {
    const entries = faithful(retries(5)).map(({ observation, decision }) => ({
      observation,
      decision: Object.fromEntries(Object.entries(decision as object).reverse()),
    }));
    const report = auditExecutive(RUN, entries);
    expect(report.conformant).toBe(true);
    expect(report.final).toMatchObject({ status: "running", seq: 6 });
  });

  it("lists ten mismatches, counts all, and replays on from the machine's own state", () => {
    const entries = faithful(retries(14)).map((entry, index) =>
      index === 0 ? entry : { ...entry, decision: { ...(entry.decision as object), extra: true } },
    );
    const report = auditExecutive(RUN, entries, { lines: entries.map((_, i) => i + 2) });
    expect(report.legality.illegal).toBe(14);
    expect(report.legality.first).toHaveLength(10);
    expect(report.invariants.decisionsMatch).toEqual({ holds: false, index: 1, line: 3 });
    expect(report.invariants.terminalRespected).toEqual({ holds: true });
    expect(report.final.seq).toBe(15); // the machine's run went on: every retry was decided
  });

  it("reports an oversized recorded decision by its size", () => {
    const [first, second] = faithful(retries(1));
    const huge = { tag: "execute", note: "x".repeat(5000) };
    const report = auditExecutive(RUN, [first, { ...second, decision: huge }]);
    expect(report.legality.first[0]).toEqual({
      index: 1,
      reason: "decision-mismatch",
      expected: (second as { decision: unknown }).decision,
      recordedBytes: JSON.stringify(huge).length,
    });
  });

  it("stops at a line that is not an observation with its decision", () => {
    const [first, second] = faithful(retries(1));
    for (const bad of [
      new UnparseableLine("invalid-json"),
      [],
      3,
      { observation: {} },
      { decision: {} },
      { observation: {}, decision: [] },
    ]) {
      const report = auditExecutive(RUN, [first, bad, second]);
      expect(report.integrity).toMatchObject({ index: 1, reason: "malformed-event" });
      expect(report.conformant).toBe(false);
      expect(report.events).toBe(3);
      expect(report.final.seq).toBe(1);
    }
  });

  it("holds a host to the machine's rejections: a malformed observation must be recorded as rejected", () => {
    const [first] = faithful(retries(0));
    const entry = { observation: { tag: "tick" }, decision: { tag: "wait", seq: 1 } };
    const report = auditExecutive(RUN, [first, entry]);
    expect(report.legality.first[0]).toMatchObject({
      expected: { tag: "reject", reason: "malformed-observation" },
    });
  });
});

describe("jsonEqual", () => {
  it("compares JSON values: key order aside, an extra key or a different item is a difference", () => {
    expect(jsonEqual({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: [1] }, { a: { 0: 1 } })).toBe(false);
    expect(jsonEqual("1", 1)).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });
});

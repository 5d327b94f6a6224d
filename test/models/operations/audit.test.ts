/**
 * The report (docs/models/operations.md, "The report"): its keys in order, `line` only with a
 * source, the listing capped while the count is not, the `final` partition; and the fold's
 * state — immutable, and holding nothing of a finished op but its ids.
 */
import { describe, expect, it } from "vitest";
import {
  audit,
  foldRecord,
  ILLEGAL_RECORDS_LISTED_MAX,
  initialState,
  type OperationsRecord,
  type OperationsState,
  RULE_NAMES,
  readRecord,
} from "../../../src/models/operations/index.js";
import {
  accepted,
  cancelRequested,
  finished,
  intent,
  LADDER_POLICY,
  lease,
  readback,
  settled,
} from "../../support/operations-arbitraries.js";

const ACCEPT = accepted("run-1", "chat-A", { policy: LADDER_POLICY });

function mustRead(entry: unknown): OperationsRecord {
  const read = readRecord(entry);
  if (!read.ok) throw new Error(`malformed fixture: ${JSON.stringify(read.fault)}`);
  return read.record;
}

function fold(records: readonly unknown[]): OperationsState {
  let state = initialState();
  for (const entry of records) state = foldRecord(state, mustRead(entry)).state;
  return state;
}

/** A state as text, Maps, Sets and bigints included, to see that nothing in it changed. */
function serialized(state: OperationsState): string {
  return JSON.stringify(state, (_, value) => {
    if (value instanceof Map || value instanceof Set) return [...value];
    return typeof value === "bigint" ? `${value}n` : value;
  });
}

describe("the report's shape", () => {
  it("has the shared outer keys in order, model first, and the twelve rules in order", () => {
    const report = audit([]);
    expect(Object.keys(report)).toEqual([
      "model",
      "conformant",
      "strictlyConformant",
      "events",
      "integrity",
      "tornTail",
      "invariants",
      "legality",
      "final",
    ]);
    expect(Object.keys(report.invariants)).toEqual([
      "lifecycle",
      "fencing",
      "oneOperationPerStrand",
      "freshIdentity",
      "effectSandwich",
      "settleOnce",
      "uncertaintyHeld",
      "exactlyOnce",
      "retryLadder",
      "cancellation",
      "finality",
      "classification",
    ]);
    expect(RULE_NAMES).toEqual(Object.keys(report.invariants));
    expect(report).toStrictEqual({
      model: "operations",
      conformant: true,
      strictlyConformant: true,
      events: 0,
      integrity: null,
      tornTail: null,
      invariants: Object.fromEntries(RULE_NAMES.map((rule) => [rule, { holds: true }])),
      legality: { illegal: 0, first: [] },
      final: {
        operations: { running: 0, cancelled: 0, completed: 0, failed: 0, aborted: 0 },
        steps: { pending: 0, ok: 0, failed: 0, retryWait: 0, unknown: 0 },
        effects: 0,
        strands: 0,
      },
    });
  });

  it("gives a finding's keys in order: index, line, kind, op or strand, effect, reason", () => {
    const records = [
      ACCEPT,
      settled("run-1", "e-1", "ok", 1),
      lease("chat-A", 2),
      lease("chat-A", 1),
    ];
    const report = audit(records, { lines: [3, 4, 6, 7] });
    expect(report.legality.first.map((finding) => Object.keys(finding))).toEqual([
      ["index", "line", "kind", "op", "effect", "reason"],
      ["index", "line", "kind", "strand", "reason"],
    ]);
    expect(Object.keys(report.invariants.effectSandwich)).toEqual([
      "holds",
      "index",
      "line",
      "op",
      "effect",
    ]);
    expect(report.invariants.fencing).toStrictEqual({
      holds: false,
      index: 3,
      line: 7,
      strand: "chat-A",
    });
  });

  it("has no line anywhere without source lines", () => {
    const report = audit([ACCEPT, accepted("run-1", "chat-A"), "junk"]);
    expect(report.legality.first[0]).toStrictEqual({
      index: 1,
      kind: "accepted",
      op: "run-1",
      reason: "duplicate-operation",
    });
    expect(report.invariants.lifecycle).toStrictEqual({ holds: false, index: 1, op: "run-1" });
    expect(report.integrity).toStrictEqual({
      index: 2,
      reason: "malformed-event",
      message: "the record is not a JSON object",
    });
  });

  it("lists the first ten illegal records and counts them all; each rule names its first", () => {
    const ghosts = Array.from({ length: 25 }, (_, i) => cancelRequested(`ghost-${i}`, i));
    const report = audit([ACCEPT, ...ghosts, finished("run-1", "aborted", 99)]);
    expect(ILLEGAL_RECORDS_LISTED_MAX).toBe(10);
    expect(report.legality.illegal).toBe(26);
    expect(report.legality.first).toHaveLength(10);
    expect(report.legality.first.map((finding) => finding.index)).toEqual(
      Array.from({ length: 10 }, (_, i) => i + 1),
    );
    expect(report.invariants.lifecycle).toStrictEqual({ holds: false, index: 1, op: "ghost-0" });
    expect(report.invariants.finality).toStrictEqual({ holds: false, index: 26, op: "run-1" });
    expect(report.strictlyConformant).toBe(report.conformant);
  });

  it("passes the torn tail through, and counts every entry", () => {
    const report = audit([ACCEPT], { tornTail: { line: 3, offset: 120 } });
    expect(report.tornTail).toStrictEqual({ line: 3, offset: 120 });
    expect(report.events).toBe(1);
    expect(report.conformant).toBe(true);
  });
});

describe("final", () => {
  it("partitions ops by control and outcome, counts live steps, effects and strands", () => {
    const report = audit([
      ACCEPT,
      intent("run-1", "a", "e-1", 1, 0),
      intent("run-1", "b", "e-2", 1, 0),
      intent("run-1", "c", "e-3", 1, 0),
      intent("run-1", "d", "e-4", 1, 0),
      intent("run-1", "f", "e-5", 1, 0),
      settled("run-1", "e-2", "ok", 1),
      settled("run-1", "e-3", "error", 1),
      settled("run-1", "e-4", "error", 1, { retryable: true }),
      settled("run-1", "e-5", "unknown", 1),
      accepted("run-2", "chat-B"),
      cancelRequested("run-2", 2),
      accepted("run-3", "chat-C"),
      intent("run-3", "a", "e-6", 1, 0),
      settled("run-3", "e-6", "ok", 1),
      finished("run-3", "completed", 3),
      accepted("run-4", "chat-C"),
      finished("run-4", "failed", 4),
      accepted("run-5", "chat-C"),
      cancelRequested("run-5", 5),
      finished("run-5", "aborted", 6),
      lease("chat-D", 1),
    ]);
    expect(report.conformant).toBe(true);
    expect(report.final).toStrictEqual({
      operations: { running: 1, cancelled: 1, completed: 1, failed: 1, aborted: 1 },
      steps: { pending: 1, ok: 1, failed: 1, retryWait: 1, unknown: 1 },
      effects: 6,
      strands: 4,
    });
  });

  it("names no strand for a record that changed nothing", () => {
    const report = audit([ACCEPT, accepted("run-1", "chat-Z"), intent("ghost", "k", "e", 1, 0)]);
    expect(report.final.strands).toBe(1);
    expect(report.final.effects).toBe(0);
  });
});

describe("the state", () => {
  it("keeps of a finished op only its outcome; its effect ids stay reserved", () => {
    const state = fold([
      ACCEPT,
      intent("run-1", "k", "e-1", 1, 0),
      settled("run-1", "e-1", "unknown", 1),
      readback("run-1", "e-1", "committed", 2),
      finished("run-1", "completed", 3),
    ]);
    const op = state.operations.get("run-1");
    expect(op?.finished).toBe("completed");
    expect(op?.steps.size).toBe(0);
    expect(op?.effects.size).toBe(0);
    expect([...state.reserved]).toEqual(["e-1"]);
    expect(state.strands.get("chat-A")).toEqual({ current: null, epoch: null });
  });

  it("is never changed by a fold: every step builds a new state", () => {
    const before = fold([ACCEPT, intent("run-1", "k", "e-1", 1, 0)]);
    const snapshot = serialized(before);
    const after = foldRecord(
      before,
      mustRead(settled("run-1", "e-1", "error", 5, { retryable: true })),
    ).state;
    expect(after).not.toBe(before);
    expect(after.operations.get("run-1")?.steps.get("k")?.status).toBe("retry-wait");
    expect(after.operations.get("run-1")?.steps.get("k")?.notBefore).toBe(5n + 944n);
    expect(before.operations.get("run-1")?.steps.get("k")?.status).toBe("pending");
    expect(serialized(before)).toBe(snapshot);
    expect(Object.isFrozen(after)).toBe(true);
    expect(Object.isFrozen(after.operations.get("run-1"))).toBe(true);
  });

  it("returns the very same state for a record that changes nothing", () => {
    const before = fold([ACCEPT]);
    const judged = foldRecord(before, mustRead(cancelRequested("ghost", 0)));
    expect(judged.reason).toBe("unknown-operation");
    expect(judged.state).toBe(before);
  });
});

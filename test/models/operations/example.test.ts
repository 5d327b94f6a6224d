/**
 * The worked example of docs/models/operations.md ("An example"): one op that fails, retries on
 * the ladder, loses a response and reads it back. Strictly conformant as written; each of its
 * three variants gives exactly the one finding the docs name, at the line they name.
 */
import { describe, expect, it } from "vitest";
import { operations } from "../../../src/index.js";
import { audit, RULE_NAMES } from "../../../src/models/operations/index.js";
import { parseJournal } from "../../support/operations-arbitraries.js";

const HEADER = '{"statefold":"journal","version":1,"model":"operations"}';
const ACCEPTED =
  '{"kind":"accepted","op":"run-1","strand":"chat-A","policy":{"maxAttempts":3,"baseDelayMs":1000,"maxDelayMs":30000}}';
const INTENT_1 =
  '{"kind":"intent","op":"run-1","key":"turn-1/assistant","effect":"e-1","attempt":1,"at":1000}';
const SETTLED_1 =
  '{"kind":"settled","op":"run-1","effect":"e-1","outcome":"error","retryable":true,"retryAfterMs":500,"at":1400,"notBefore":2344}';
const INTENT_2 =
  '{"kind":"intent","op":"run-1","key":"turn-1/assistant","effect":"e-2","attempt":2,"at":2400}';
const SETTLED_2 = '{"kind":"settled","op":"run-1","effect":"e-2","outcome":"unknown","at":2600}';
const READBACK_2 = '{"kind":"readback","op":"run-1","effect":"e-2","found":"committed","at":2700}';
const FINISHED = '{"kind":"finished","op":"run-1","outcome":"completed","at":2800}';

const EXAMPLE = [HEADER, ACCEPTED, INTENT_1, SETTLED_1, INTENT_2, SETTLED_2, READBACK_2, FINISHED];

function auditLines(lines: readonly string[]) {
  const { records, lines: at } = parseJournal(lines.join("\n"));
  return audit(records, { lines: at });
}

/** The rules that fail, as `rule@line`. */
function failing(report: ReturnType<typeof audit>): string[] {
  return RULE_NAMES.flatMap((rule) => {
    const verdict = report.invariants[rule];
    return verdict.holds ? [] : [`${rule}@${verdict.line}`];
  });
}

describe("the example journal", () => {
  it("is strictly conformant: 2344 = 1400 + max(944, 500)", () => {
    const report = auditLines(EXAMPLE);
    expect(report).toStrictEqual({
      model: "operations",
      conformant: true,
      strictlyConformant: true,
      events: 7,
      integrity: null,
      tornTail: null,
      invariants: Object.fromEntries(RULE_NAMES.map((rule) => [rule, { holds: true }])),
      legality: { illegal: 0, first: [] },
      final: {
        operations: { running: 0, cancelled: 0, completed: 1, failed: 0, aborted: 0 },
        steps: { pending: 0, ok: 0, failed: 0, retryWait: 0, unknown: 0 },
        effects: 2,
        strands: 1,
      },
    });
  });

  it("moving the second intent to at 2300 is retry-too-early on line 5, and nothing else", () => {
    const early = EXAMPLE.map((line) => (line === INTENT_2 ? line.replace("2400", "2300") : line));
    const report = auditLines(early);
    expect(report.legality).toStrictEqual({
      illegal: 1,
      first: [
        {
          index: 3,
          line: 5,
          kind: "intent",
          op: "run-1",
          effect: "e-2",
          reason: "retry-too-early",
        },
      ],
    });
    expect(report.invariants.retryLadder).toStrictEqual({
      holds: false,
      index: 3,
      line: 5,
      op: "run-1",
      effect: "e-2",
    });
    expect(failing(report)).toEqual(["retryLadder@5"]);
    // The intent was applied: its settlement and readback are legal, and the op completed.
    expect(report.final.operations.completed).toBe(1);
    expect(report.conformant).toBe(false);
    expect(report.strictlyConformant).toBe(false);
  });

  it("dropping the readback makes the finished record effects-outstanding", () => {
    const report = auditLines(EXAMPLE.filter((line) => line !== READBACK_2));
    expect(report.legality.first).toStrictEqual([
      { index: 5, line: 7, kind: "finished", op: "run-1", reason: "effects-outstanding" },
    ]);
    expect(failing(report)).toEqual(["finality@7"]);
    expect(report.invariants.finality).toStrictEqual({
      holds: false,
      index: 5,
      line: 7,
      op: "run-1",
    });
    // The finish was still applied: the op is completed, its steps gone.
    expect(report.final.operations.completed).toBe(1);
    expect(report.final.steps).toEqual({ pending: 0, ok: 0, failed: 0, retryWait: 0, unknown: 0 });
  });

  it.each([5, 6, 7, 8])(
    "a second settlement of e-1 inserted as line %i is already-settled, and only that copy",
    (line) => {
      const copy = [...EXAMPLE];
      copy.splice(line - 1, 0, SETTLED_1);
      const report = auditLines(copy);
      expect(report.legality.first).toStrictEqual([
        {
          index: line - 2,
          line,
          kind: "settled",
          op: "run-1",
          effect: "e-1",
          reason: "already-settled",
        },
      ]);
      expect(failing(report)).toEqual([`settleOnce@${line}`]);
    },
  );

  it("a second settlement of e-1 that differs from the first changes nothing either", () => {
    const contradicting = SETTLED_1.replace('"outcome":"error"', '"outcome":"ok"').replace(
      ',"notBefore":2344',
      "",
    );
    const copy = [...EXAMPLE];
    copy.splice(4, 0, contradicting);
    const report = auditLines(copy);
    expect(report.legality.first.map((finding) => [finding.line, finding.reason])).toEqual([
      [5, "already-settled"],
    ]);
  });
});

describe("the package entry", () => {
  it("serves the model as `operations`, the very functions of the reference", () => {
    const { records, lines } = parseJournal(EXAMPLE.join("\n"));
    expect(operations.audit(records, { lines })).toEqual(audit(records, { lines }));
    const policy = { maxAttempts: 3, baseDelayMs: 1000, maxDelayMs: 30000 };
    expect(operations.retryWait(policy, 1, "e-1", 500)).toBe(944);
    expect(operations.retryWait(policy, 1, "e-1", 2000)).toBe(2000);
  });
});

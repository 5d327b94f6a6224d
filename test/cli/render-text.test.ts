import { describe, expect, it } from "vitest";
import { wantsColour } from "../../src/cli/command.js";
import { passes, renderAuditText, renderSummary } from "../../src/cli/render-text.js";
import { audit, makeDag, type Report } from "../../src/models/dag/index.js";

function diamondReport(events: readonly unknown[]): Report {
  const made = makeDag([
    { id: "A", deps: [] },
    { id: "B", deps: ["A"] },
  ]);
  if (!made.ok) throw new Error("the test DAG is valid");
  return audit(made.dag, events);
}

const PROVE_A = [
  { kind: "dispatched", id: "A" },
  { kind: "landed", id: "A" },
  { kind: "gate-checked", id: "A", result: "pass" },
];

describe("renderAuditText", () => {
  it("names events by index alone when the report has no lines", () => {
    const report = diamondReport([{ kind: "dispatched", id: "B" }]);
    const text = renderAuditText([{ file: "mem", report }], { strict: false, colour: false });
    expect(text).toContain(
      '  ✗ scheduleCorrect   event 0  node "B": dispatched before its dependencies were proven\n',
    );
  });

  it("lists the nodes of a tamperEvident break", () => {
    const report: Report = {
      ...diamondReport(PROVE_A),
      conformant: false,
      strictlyConformant: false,
      invariants: {
        ...diamondReport(PROVE_A).invariants,
        tamperEvident: { holds: false, nodes: ["A", 'q"B'] },
      },
    };
    const text = renderAuditText([{ file: "x.jsonl", report }], { strict: false, colour: false });
    expect(text).toContain(
      '  ✗ tamperEvident     nodes "A", "q\\"B": proven without a logged pass\n',
    );
  });

  it("marks verdicts with colour only when asked", () => {
    const audited = [{ file: "x.jsonl", report: diamondReport([{ kind: "dispatched", id: "B" }]) }];
    expect(renderAuditText(audited, { strict: false, colour: false })).not.toContain("\u001b[");
    const coloured = renderAuditText(audited, { strict: false, colour: true });
    expect(coloured).toContain("\u001b[1;31m✗\u001b[22;39m x.jsonl: \u001b[1;31mNOT CONFORMANT");
  });

  it("separates journals with a blank line and sums them up", () => {
    const audited = [
      { file: "a.jsonl", report: diamondReport(PROVE_A) },
      { file: "b.jsonl", report: diamondReport([...PROVE_A, { kind: "landed", id: "A" }]) },
    ];
    const text = renderAuditText(audited, { strict: false, colour: false });
    expect(text).toBe(
      "✓ a.jsonl: strictly conformant (3 events)\n  final: 1 queued, 1 proven\n\n" +
        "✓ b.jsonl: conformant, but not strictly: 1 illegal event (4 events)\n" +
        "  ! 1 illegal event (the public API could not have logged it):\n" +
        '      event 3  landed  node "A": wrong-status\n' +
        "  final: 1 queued, 1 landed\n",
    );
    const strictlyPassing = audited.filter(({ report }) => passes(report, true)).length;
    expect(renderSummary(3, audited.length, strictlyPassing, true)).toBe(
      "\n1 of 3 journals strictly conformant, 1 could not be read\n",
    );
  });
});

describe("passes", () => {
  it("asks for strict conformance only under --strict", () => {
    const report = diamondReport([...PROVE_A, { kind: "landed", id: "A" }]);
    expect(passes(report, false)).toBe(true);
    expect(passes(report, true)).toBe(false);
  });
});

describe("wantsColour", () => {
  it("is on for a terminal unless NO_COLOR is set to anything", () => {
    expect(wantsColour(true, {})).toBe(true);
    expect(wantsColour(true, { NO_COLOR: "" })).toBe(true);
    expect(wantsColour(true, { NO_COLOR: "1" })).toBe(false);
    expect(wantsColour(false, {})).toBe(false);
    expect(wantsColour(undefined, {})).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { wantsColour } from "../../src/cli/command.js";
import { passes, renderAuditText, renderSummary } from "../../src/cli/render-text.js";
import { audit, makeDag, type Report } from "../../src/models/dag/index.js";
import { audit as auditOperations } from "../../src/models/operations/index.js";
import { parseJournal } from "../support/operations-arbitraries.js";
import { statefold, statefoldInProcess, tempFile, tempFiles } from "./cli-process.js";

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

const OPS_HEADER = '{"statefold":"journal","version":1,"model":"operations"}';
const OPS_ACCEPTED =
  '{"kind":"accepted","op":"run-1","strand":"chat-A","policy":{"maxAttempts":3,"baseDelayMs":1000,"maxDelayMs":30000}}';
const OPS_INTENT =
  '{"kind":"intent","op":"run-1","key":"a","effect":"e-1","attempt":1,"at":1000,"request":{"provider":"p","model":"m","api":"chat"}}';
/** Classified `error`; the normative order makes it `overflow` (step 3). */
const OPS_MISCLASSIFIED =
  '{"kind":"settled","op":"run-1","effect":"e-1","outcome":"error","at":1100,"response":{"stop":"error","errorMessage":"Maximum Context Length is 8192 tokens"},"class":"error"}';
const OPS_UNKNOWN_OP =
  '{"kind":"intent","op":"run-2","key":"a","effect":"e-9","attempt":1,"at":1500}';
/** notBefore 2000, where the ladder gives 1400 + max(944, 500) = 2344. */
const OPS_LADDER_MISMATCH =
  '{"kind":"settled","op":"run-1","effect":"e-1","outcome":"error","retryable":true,"retryAfterMs":500,"at":1400,"notBefore":2000}';

describe("the text of an operations audit", () => {
  it("lists broken rules in line order, not rule order, and says the class the response has", async () => {
    const journal = tempFile(
      "ops.jsonl",
      [OPS_HEADER, OPS_ACCEPTED, OPS_INTENT, OPS_MISCLASSIFIED, OPS_UNKNOWN_OP, ""].join("\n"),
    );
    for (const engine of ["wasm", "reference"]) {
      const run = await statefoldInProcess(["audit", journal, "--engine", engine]);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe(
        [
          `✗ ${journal}: NOT CONFORMANT (4 events)`,
          '  ✗ classification         line 4 (event 2)  op "run-1" effect "e-1": misclassified — the class is not the one the response classifies as',
          '  ✗ lifecycle              line 5 (event 3)  op "run-2" effect "e-9": unknown-operation — no op of this id was accepted',
          "  ! 2 records broke a rule:",
          '      line 4 (event 2)  settled  op "run-1" effect "e-1": misclassified — classified as overflow by step 3 of 7; the record says error',
          '      line 5 (event 3)  intent  op "run-2" effect "e-9": unknown-operation',
          "  final: 1 running; 1 effect, 1 strand",
          "",
        ].join("\n"),
      );
    }
  });

  it("says the notBefore the retry ladder gives, on a worker thread too", async () => {
    const dir = tempFiles({
      "a.jsonl": [OPS_HEADER, OPS_ACCEPTED, OPS_INTENT, OPS_LADDER_MISMATCH, ""].join("\n"),
      "b.jsonl": [OPS_HEADER, OPS_ACCEPTED, OPS_INTENT, OPS_LADDER_MISMATCH, ""].join("\n"),
    });
    const run = await statefoldInProcess(["audit", dir, "--jobs", "2"]);
    expect(run.code).toBe(1);
    const said =
      '      line 4 (event 2)  settled  op "run-1" effect "e-1": ladder-mismatch — notBefore recorded as 2000; the ladder gives 1400 + max(944, 500) = 2344\n';
    expect(run.stdout.split(said)).toHaveLength(3);
  });

  it("says what the report says when the journal cannot be read again (standard input)", async () => {
    const journal = [OPS_HEADER, OPS_ACCEPTED, OPS_INTENT, OPS_LADDER_MISMATCH, ""].join("\n");
    const run = await statefold(["audit", "-"], {}, journal);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '      line 4 (event 2)  settled  op "run-1" effect "e-1": ladder-mismatch\n',
    );
  });

  it("renders the numbers it is given beside the listed findings", () => {
    const { records, lines } = parseJournal(
      [OPS_HEADER, OPS_ACCEPTED, OPS_INTENT, OPS_LADDER_MISMATCH].join("\n"),
    );
    const report = auditOperations(records, { lines });
    const place = report.legality.first.findIndex((entry) => entry.index === 2);
    const numbers = new Map([[place, "the numbers"]]);
    const text = renderAuditText([{ file: "j", report, numbers }], {
      strict: false,
      colour: false,
    });
    expect(text).toContain("ladder-mismatch — the numbers\n");
  });
});

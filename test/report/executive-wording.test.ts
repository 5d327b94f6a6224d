/**
 * The executive model's findings in words, shared by the text report and the boot gate: a
 * refusal names the decision the machine makes and the one the host recorded.
 */
import { describe, expect, it } from "vitest";
import { auditExecutive } from "../../src/models/executive/audit.js";
import { executiveBreachText } from "../../src/report/executive/wording.js";
import { statefoldInProcess } from "../cli/cli-process.js";

const SPEC = { task: "t", plan: { steps: [{ id: "a", deps: [], effect: "model" }] } };
const BUDGET = {
  steps: 10,
  depth: 1,
  modelCalls: 1,
  toolCalls: 1,
  contextOps: 1,
  retries: 1,
  outputBytes: 100,
  deadline: 60_000,
};
const run = { spec: SPEC, budget: BUDGET } as Parameters<typeof auditExecutive>[0];

describe("executiveBreachText", () => {
  it("says what the machine decides and what was recorded at the rule's first breach", () => {
    const report = auditExecutive(run, [
      { observation: { tag: "start", now: 0 }, decision: { tag: "complete", seq: 1 } },
    ]);
    expect(executiveBreachText(report, "decisionsMatch")).toBe(
      'the decision the host recorded is not the one the machine makes: expected {"tag":"execute","seq":1,"path":["a"],"effect":"model","attempt":1}, recorded {"tag":"complete","seq":1}',
    );
  });

  it("says only why when the breach is not among the listed mismatches", () => {
    const report = auditExecutive(run, [
      { observation: { tag: "start", now: 0 }, decision: { tag: "complete", seq: 1 } },
    ]);
    const unlisted = { ...report, legality: { ...report.legality, first: [] } };
    expect(executiveBreachText(unlisted, "decisionsMatch")).toBe(
      "the decision the host recorded is not the one the machine makes",
    );
  });
});

describe("the boot gate's refusal of an executive journal", () => {
  it.each(["wasm", "reference"])(
    "names the expected and the recorded decision (%s)",
    async (engine) => {
      const gate = await statefoldInProcess([
        "gate",
        "examples/executive/wrong-seq.jsonl",
        "--engine",
        engine,
      ]);
      expect(gate.code).toBe(1);
      expect(gate.stdout).toBe(
        'refuse: examples/executive/wrong-seq.jsonl: decisionsMatch is broken at line 6 (event 4): the decision the host recorded is not the one the machine makes: expected {"tag":"checkpoint","seq":4}, recorded {"tag":"checkpoint","seq":9}\n',
      );
    },
  );
});

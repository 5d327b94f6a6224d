/**
 * The executive journal's section of the HTML report: each mismatch with the frame stack the
 * machine then held, each budget drawn as used against limit.
 */
import { describe, expect, it } from "vitest";
import { auditExecutive } from "../../src/models/executive/audit.js";
import { renderExecutiveBody } from "../../src/report/executive/render-journal.js";
import { buildExecutiveView } from "../../src/report/executive/view.js";

const SPEC = { task: "t", plan: { steps: [{ id: "a", deps: [], effect: "model" }] } };
const BUDGET = {
  steps: 10,
  depth: 1,
  modelCalls: 1,
  toolCalls: 0,
  contextOps: 0,
  retries: 2,
  outputBytes: 100,
  deadline: 60_000,
};

/** One start whose recorded decision is not the machine's: the machine executes `a`. */
function bodyOfOneMismatch(): string {
  const run = { spec: SPEC, budget: BUDGET } as Parameters<typeof auditExecutive>[0];
  const entries = [
    { observation: { tag: "start", now: 0 }, decision: { tag: "complete", seq: 1 } },
  ];
  const report = auditExecutive(run, entries);
  return renderExecutiveBody(buildExecutiveView({ file: "x.jsonl", report }, run, entries));
}

function budgetRow(body: string, counter: string): string {
  const row = body.match(
    new RegExp(`<div class="budget[^"]*"><span class="counter">(✗ )?${counter}<.*?</div>`),
  );
  if (row === null) throw new Error(`no budget row for ${counter}`);
  return row[0];
}

describe("renderExecutiveBody", () => {
  it("draws a budget spent to its limit as full", () => {
    const row = budgetRow(bodyOfOneMismatch(), "modelCalls");
    expect(row).toContain('class="budget full"');
    expect(row).toContain("✗ modelCalls");
    expect(row).toContain("1 / 1");
  });

  it("draws a zero budget nothing was charged to as not granted, not as spent", () => {
    const body = bodyOfOneMismatch();
    for (const counter of ["toolCalls", "contextOps"]) {
      const row = budgetRow(body, counter);
      expect(row).not.toContain("full");
      expect(row).not.toContain("✗");
      expect(row).toContain('class="budget unused"');
      expect(row).toContain('style="width:0.0%"');
      expect(row).toContain("none granted");
    }
  });

  it("draws a budget with room left by its share used", () => {
    const row = budgetRow(bodyOfOneMismatch(), "steps");
    expect(row).toContain('class="budget"');
    expect(row).toContain('style="width:10.0%"');
    expect(row).toContain("1 / 10");
  });
});

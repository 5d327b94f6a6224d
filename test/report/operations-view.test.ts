/**
 * The HTML report's view of an operations journal: each listed finding with the numbers behind
 * it — the retry ladder's sum for a retry too early or a notBefore that is not the ladder's, the
 * classification's step — and its op's steps around the record.
 */
import { describe, expect, it } from "vitest";
import { audit } from "../../src/models/operations/index.js";
import { buildOperationsView } from "../../src/report/operations/view.js";
import { ladderSentence } from "../../src/report/operations/wording.js";
import { renderHtmlReport } from "../../src/report/render-html-report.js";
import { verdictsOnlyView } from "../../src/report/verdicts-only-view.js";
import { parseJournal } from "../support/operations-arbitraries.js";

const ACCEPTED =
  '{"kind":"accepted","op":"run-1","strand":"chat-A","policy":{"maxAttempts":3,"baseDelayMs":1000,"maxDelayMs":30000}}';
const INTENT_1 =
  '{"kind":"intent","op":"run-1","key":"turn-1/assistant","effect":"e-1","attempt":1,"at":1000}';

function viewOf(lines: readonly string[]) {
  const { records, lines: at } = parseJournal(lines.join("\n"));
  const report = audit(records, { lines: at });
  return buildOperationsView({ file: "j.jsonl", report, records, lines: at }, new Map());
}

function onlyFinding(lines: readonly string[]) {
  const view = viewOf(lines);
  if (!view.context.gathered) throw new Error("no context");
  expect(view.context.findings).toHaveLength(1);
  return view.context.findings[0] as NonNullable<(typeof view.context.findings)[0]>;
}

describe("buildOperationsView", () => {
  it("gives a too-early retry the ladder's sum and the step as it was and became", () => {
    const finding = onlyFinding([
      ACCEPTED,
      INTENT_1,
      '{"kind":"settled","op":"run-1","effect":"e-1","outcome":"error","retryable":true,"retryAfterMs":500,"at":1400,"notBefore":2344}',
      '{"kind":"intent","op":"run-1","key":"turn-1/assistant","effect":"e-2","attempt":2,"at":2300}',
    ]);
    expect(finding).toMatchObject({ index: 3, rule: "retryLadder", reason: "retry-too-early" });
    expect(ladderSentence(finding.ladder as NonNullable<typeof finding.ladder>)).toBe(
      "retried at 2300; the ladder required 1400 + max(944, 500) = 2344",
    );
    expect(finding.stepsBefore).toEqual([
      {
        key: "turn-1/assistant",
        attempt: 1,
        effect: "e-1",
        status: "retry-wait",
        notBefore: "2344",
      },
    ]);
    expect(finding.stepsAfter).toEqual([
      { key: "turn-1/assistant", attempt: 2, effect: "e-2", status: "pending", notBefore: null },
    ]);
  });

  it("gives a notBefore off by one the sum the ladder gives instead", () => {
    const finding = onlyFinding([
      ACCEPTED,
      INTENT_1,
      '{"kind":"settled","op":"run-1","effect":"e-1","outcome":"error","retryable":true,"at":1400,"notBefore":2345}',
    ]);
    expect(finding.reason).toBe("ladder-mismatch");
    expect(ladderSentence(finding.ladder as NonNullable<typeof finding.ladder>)).toBe(
      "notBefore recorded as 2345; the ladder gives 1400 + max(944, 0) = 2344",
    );
  });

  it("names the classification step that decided a misclassified response", () => {
    const finding = onlyFinding([
      ACCEPTED,
      '{"kind":"intent","op":"run-1","key":"a","effect":"e-1","attempt":1,"at":1000,"outputLimit":100}',
      '{"kind":"settled","op":"run-1","effect":"e-1","outcome":"ok","at":1100,"response":{"stop":"length","outputTokens":40},"class":"finished"}',
    ]);
    expect(finding.classification).toMatchObject({
      stop: "length",
      outputTokens: 40,
      outputLimit: 100,
      step: 3,
      expected: "overflow",
      recorded: "finished",
    });
    expect(finding.ladder).toBeNull();
  });

  it("lists a conformant journal's findings as none, and a verdicts-only view from its rules", () => {
    expect(viewOf([ACCEPTED]).context).toEqual({ gathered: true, findings: [] });
    const { records } = parseJournal(
      [ACCEPTED, '{"kind":"accepted","op":"run-2","strand":"chat-A"}'].join("\n"),
    );
    const report = audit(records, { lines: [1, 2] });
    const html = renderHtmlReport([verdictsOnlyView({ file: "big.jsonl", report }, "Too big")], {
      strict: false,
    });
    expect(html).toContain("Too big; only the verdicts are shown.");
    expect(html).toContain("✗ oneOperationPerStrand</span> line 2 (event 1), op &quot;run-2&quot;");
  });

  it("lists a verdicts-only view's broken rules in line order, as the findings are", () => {
    const withRequest =
      '{"kind":"intent","op":"run-1","key":"a","effect":"e-1","attempt":1,"at":1000,"request":{"provider":"p","model":"m","api":"chat"}}';
    const { records, lines } = parseJournal(
      [
        ACCEPTED,
        withRequest,
        '{"kind":"settled","op":"run-1","effect":"e-1","outcome":"error","at":1100,"response":{"stop":"error","errorMessage":"Maximum Context Length is 8192 tokens"},"class":"error"}',
        '{"kind":"intent","op":"run-2","key":"a","effect":"e-9","attempt":1,"at":1500}',
      ].join("\n"),
    );
    const report = audit(records, { lines });
    const html = renderHtmlReport([verdictsOnlyView({ file: "big.jsonl", report }, "Too big")], {
      strict: false,
    });
    const classification = html.indexOf("✗ classification</span> line 3");
    const lifecycle = html.indexOf("✗ lifecycle</span> line 4");
    expect(classification).toBeGreaterThan(0);
    expect(lifecycle).toBeGreaterThan(classification);
  });
});

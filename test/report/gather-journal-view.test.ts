import { readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { referenceEngine } from "../../src/models/dag/engine.js";
import type { Report } from "../../src/models/dag/index.js";
import {
  CONTEXT_JOURNAL_BYTES_MAX,
  gatherJournalView,
} from "../../src/report/gather-journal-view.js";
import { testTempDir } from "../support/temp-dirs.js";

const UNPROVEN_DISPATCH = "examples/violations/unproven-dispatch.jsonl";
const REPORT = (await referenceEngine.auditBytes(null, readFileSync(UNPROVEN_DISPATCH))) as Report;

describe("gatherJournalView", () => {
  it("reads the journal again and gathers its findings in context", async () => {
    const view = await gatherJournalView({ file: UNPROVEN_DISPATCH, report: REPORT }, {});
    expect(view.context.gathered).toBe(true);
    expect(
      view.context.gathered && "findings" in view.context && view.context.findings,
    ).toMatchObject([
      {
        kind: "event",
        line: 11,
        node: "D",
        quoted: [{ line: 8 }, { line: 9 }, { line: 10 }, { line: 11 }],
      },
    ]);
  });

  it("gives only the verdicts of a journal over the size bound, without reading it", async () => {
    const dir = testTempDir("statefold-report-");
    const huge = join(dir, "huge.jsonl");
    writeFileSync(huge, "");
    truncateSync(huge, CONTEXT_JOURNAL_BYTES_MAX + 1); // sparse: no 128 MB written to disk
    const view = await gatherJournalView({ file: huge, report: REPORT }, {});
    expect(view.context).toEqual({
      gathered: false,
      why: "The journal is 129 MB, over the 128 MB up to which statefold reads a journal whole to show its findings in context; only the verdicts are shown.",
    });
  });

  it("gives only the verdicts of a journal gone since the audit", async () => {
    const gone = join(testTempDir("statefold-report-"), "gone.jsonl");
    const view = await gatherJournalView({ file: gone, report: REPORT }, {});
    expect(view.context).toEqual({
      gathered: false,
      why: "The journal can no longer be read; only the verdicts are shown.",
    });
  });

  it("gives only the verdicts when the journal no longer reads as one", async () => {
    const dir = testTempDir("statefold-report-");
    const headless = join(dir, "headless.jsonl");
    writeFileSync(headless, '{"kind":"dispatched","id":"A"}\n');
    const view = await gatherJournalView({ file: headless, report: REPORT }, {});
    expect(view.context.gathered).toBe(false);
    expect(view.context.gathered ? null : view.context.why).toMatch(
      /^Reading the journal again failed \(.*headless\.jsonl: no DAG: .*\); only the verdicts are shown\.$/,
    );
  });
});

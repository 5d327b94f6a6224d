/**
 * The page's verdict on a journal file (web/verdict.ts): one report, or every journal of a stream
 * split by journal.key judged together, the weakest verdict winning and the events summed.
 */
import { describe, expect, it } from "vitest";
import type { ModelReport } from "../../src/models/registry.js";
import { verdictOn } from "../../web/verdict.js";

function report(conformant: boolean, strictlyConformant: boolean, events: number): ModelReport {
  return { conformant, strictlyConformant, events } as ModelReport;
}

describe("the page's verdict on a journal file", () => {
  it("is the weakest of its journals' verdicts, over the events they hold together", () => {
    expect(verdictOn([report(true, true, 2), report(true, true, 3)])).toEqual({
      verdict: "strictly conformant",
      events: 5,
    });
    expect(verdictOn([report(true, true, 2), report(true, false, 1)])).toEqual({
      verdict: "conformant, not strictly",
      events: 3,
    });
    expect(verdictOn([report(false, false, 4), report(true, true, 1)]).verdict).toBe(
      "not conformant",
    );
  });
});

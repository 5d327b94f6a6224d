import { describe, expect, it } from "vitest";
import type { TallyTotals } from "../../src/cli/audit-tally.js";
import { progressLine, wantsProgress } from "../../src/cli/progress-bar.js";

describe("wantsProgress", () => {
  it.each([
    [true, {}, false, true],
    [false, {}, false, false],
    [undefined, {}, false, false],
    [true, { CI: "true" }, false, false],
    [true, { CI: "" }, false, true],
    [true, { NO_COLOR: "1" }, false, false],
    [true, {}, true, false],
  ])("stderr a terminal: %s, env %j, --quiet %s → %s", (tty, env, quiet, wanted) => {
    expect(wantsProgress(tty, env, quiet)).toBe(wanted);
  });
});

describe("progressLine", () => {
  const totals: TallyTotals = {
    journals: 12,
    journalsDone: 3,
    bytes: 750e6,
    bytesTotal: 3e9,
    events: 6e6,
    failing: 1,
    elapsedMs: 2000,
  };

  it("shows the share of bytes, the rate of events, the time left and the journals done", () => {
    expect(progressLine(totals, 120)).toBe(
      "▕████░░░░░░░░░░░░▏  25%  0.750/3.00 GB  3.00 M events/s  ETA 0:06  3/12 journals",
    );
  });

  it("shows bytes alone when the total is unknown (the standard input), and no journal count for one", () => {
    expect(progressLine({ ...totals, journals: 1, journalsDone: 0, bytesTotal: null }, 120)).toBe(
      "750 MB  3.00 M events/s",
    );
  });

  it("fits the terminal", () => {
    expect([...progressLine(totals, 30)]).toHaveLength(29);
  });
});

import { describe, expect, it } from "vitest";
import {
  formatBytes,
  formatCount,
  formatDuration,
  formatNumber,
  formatRate,
  nounFor,
  plural,
} from "../../src/text/format-units.js";
import { statefold, statefoldInProcess, tempFile } from "./cli-process.js";

describe("format-units", () => {
  it.each([
    [0, "0 B"],
    [999, "999 B"],
    [1000, "1.00 kB"],
    [2_255_238_112, "2.26 GB"],
    [51_234_567, "51.2 MB"],
  ])("formatBytes(%d) = %s", (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it("keeps three significant digits, without exponents", () => {
    expect([0.0004, 0.512, 5.123, 51.23, 512.3, 5123].map(formatNumber)).toEqual([
      "0.000",
      "0.512",
      "5.12",
      "51.2",
      "512",
      "5123",
    ]);
  });

  it("formats rates and durations", () => {
    expect([950, 12_345, 4_560_000].map(formatRate)).toEqual(["950", "12.3 k", "4.56 M"]);
    expect([0, 59.6, 61, 3725].map(formatDuration)).toEqual(["0:00", "1:00", "1:01", "1:02:05"]);
  });
});

describe("counts", () => {
  it.each([
    [0, "0"],
    [999, "999"],
    [1000, "1 000"],
    [12_345, "12 345"],
    [1_234_567, "1 234 567"],
    [Number.MAX_SAFE_INTEGER, "9 007 199 254 740 991"],
  ])("formatCount(%d) = %s", (count, text) => {
    expect(formatCount(count)).toBe(text);
  });

  it("makes the noun agree with the count", () => {
    expect(plural(0, "event")).toBe("0 events");
    expect(plural(1, "argument")).toBe("1 argument");
    expect(plural(1, "initial state")).toBe("1 initial state");
    expect(plural(12_345, "event")).toBe("12 345 events");
    expect(plural(2, "match", "matches")).toBe("2 matches");
    expect(nounFor(1, "node")).toBe("node");
    expect(nounFor(3, "node")).toBe("nodes");
  });
});

describe("counts in the command line's messages", () => {
  it("says 1 argument, not 1 arguments", async () => {
    const run = await statefoldInProcess(["executive", "spec.json"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("found 1 argument (");
  });

  it("says 1 initial state, not 1 initial states", async () => {
    const run = await statefoldInProcess(["explore", "--nodes", "1", "--depth", "1"]);
    expect(run.stdout).toContain("  1 initial state, ");
  });

  it("groups the counts of an audit's text by a space, as the docs write them", async () => {
    const events = Array.from({ length: 1200 }, () => '{"kind":"landed","id":"A"}');
    const journal = tempFile(
      "many.jsonl",
      [
        '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":[]}]}}',
        ...events,
        "",
      ].join("\n"),
    );
    const run = await statefoldInProcess(["audit", journal, journal]);
    expect(run.stdout).toContain(
      `✓ ${journal}: conformant, but not strictly: 1 200 illegal events (1 200 events)`,
    );
    expect(run.stdout).toContain(
      "  ! 1 200 illegal events (the public API could not have logged them):",
    );
    expect(run.stdout).toContain("      … and 1 190 more\n");
    expect(run.stdout).toContain("2 journals, 2 400 events, 0 not conformant");
  });

  it("says 1 event when the gate resumes a journal of one event", async () => {
    const journal = tempFile(
      "one.jsonl",
      '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":[]}]}}\n{"kind":"dispatched","id":"A"}\n',
    );
    const run = await statefold(["gate", journal]);
    expect(run.stdout).toBe(`resume: ${journal} is conformant (1 event)\n`);
  });
});

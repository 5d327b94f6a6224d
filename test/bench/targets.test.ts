/**
 * The targets of BENCHMARKS.md (bench/targets.ts): each set against the figure of the rows and
 * whole-path commands a run measured, and met or not by the goal's own comparison; what a partial
 * run did not measure is said, never guessed.
 */
import { describe, expect, it } from "vitest";
import type { EngineName } from "../../bench/engines.js";
import { benchmarksMarkdown } from "../../bench/markdown.js";
import type { Row } from "../../bench/rows.js";
import { type TargetLine, targetLines } from "../../bench/targets.js";
import type { WholePath } from "../../bench/whole-path.js";

const MB = 1e6;

function row(
  scale: string,
  engine: EngineName,
  eventsPerSecond: number,
  megabytes: number | null,
): Row {
  return {
    scale,
    engine,
    span: { path: `${scale}.jsonl`, bytes: 100 * MB, events: 1_000_000, of: 1_000_000 },
    p50Ms: 1000,
    runs: 3,
    eventsPerSecond,
    megabytesPerSecond: megabytes,
    maxRssBytes: 80 * MB,
  };
}

const ROWS: Row[] = [
  row("audit-1e5-events-10-nodes", "wasm-jsonl", 5e6, 850),
  row("audit-1e5-events-10-nodes", "parse-only", 4e5, 60),
  row("audit-1e5-events-10-nodes", "js-auditor", 1e6, 170),
  row("audit-1e5-events-10-nodes", "wasm-records", 120e6, null),
  row("audit-1e5-events-10-nodes", "wasm-objects", 6e6, null),
  row("audit-1e7-events-1e5-nodes", "wasm-jsonl", 4e6, 580),
  row("audit-1e7-events-1e5-nodes", "parse-only", 5e5, 70),
  row("audit-1e7-events-1e5-nodes", "js-auditor", 1.4e6, 200),
  row("audit-1e7-events-1e5-nodes", "wasm-records", 20e6, null),
  row("audit-1e7-events-1e5-nodes", "wasm-objects", 2e6, null),
  row("operations-1e5-records-8-strands", "operations-wasm-jsonl", 1e6, 100),
  row("operations-1e5-records-8-strands", "parse-only", 4e5, 40),
];

const command = (name: string, wallMs: number, maxRssBytes: number) => ({
  name,
  shown: name,
  wallMs: [wallMs, wallMs + 10, wallMs - 10],
  cpuMs: [wallMs, wallMs, wallMs],
  maxRssBytes,
});

const WHOLE: WholePath = {
  rounds: 3,
  bigJournalBytes: 300 * MB,
  appendedBytes: 1.2 * MB,
  bigJobs: { directory: "big", journals: 8, bytes: 616 * MB },
  smallJobs: { directory: "small", journals: 10_000, bytes: 30 * MB },
  commands: [command("audit-big", 1500, 95 * MB), command("header-1e5", 600, 180 * MB)],
  ceilings: [1.9, 2, 1.95],
  headerReadyMs: 40,
  endToEndOverParseOnly: 2.6,
  resumedShareOfPlainGate: 0.7,
  appendedExtraMs: 530,
  appendedAuditMs: 6,
  firstSnapshotOverPlainGate: 1.2,
  bigJobs2OverJobs1: 1.8,
  smallJobs2OverJobs1: 0.92,
  ceiling: 1.95,
  smallJournalsPerSecondJobs1: 7924,
  earlier: null,
};

function line(lines: readonly TargetLine[], target: string): TargetLine {
  const found = lines.find((candidate) => candidate.target.startsWith(target));
  if (found === undefined) throw new Error(`no target ${target}`);
  return found;
}

describe("the targets of BENCHMARKS.md", () => {
  it("take each figure from the rows and commands measured, and compare it with its goal", () => {
    const lines = targetLines(ROWS, WHOLE);
    expect(line(lines, "10⁵-node header ready")).toMatchObject({ after: "40 ms", met: true });
    // The highest RSS measured is the header's 180 MB (the rows' 80 MB and the audit's 95 MB are lower).
    expect(line(lines, "peak RSS")).toMatchObject({
      after: "172 MiB (highest measured)",
      met: false,
    });
    expect(line(lines, "JSONL audit, one core")).toMatchObject({
      after: "580–850 MB/s",
      met: false,
    });
    expect(line(lines, "JSONL audit over the parse-only loop")).toMatchObject({
      after: "8.00×–13×",
      met: false,
    });
    expect(line(lines, "JSONL audit over the plain-JS auditor")).toMatchObject({
      after: "2.86×–5.00×",
      met: false,
    });
    expect(line(lines, "`--jobs 2` over `--jobs 1`, 8 big")).toMatchObject({
      after: "1.80× of 1.95× (92 %)",
      met: true,
    });
    expect(line(lines, "`--jobs 2` over `--jobs 1`, 10 000 small")).toMatchObject({ met: false });
    expect(line(lines, "small journals")).toMatchObject({ after: "7 924 journals/s", met: false });
    expect(line(lines, "`gate --snapshot`, 1 MB appended")).toMatchObject({
      after: "+530 ms (auditing 1.2 MB: 6 ms)",
      met: false,
    });
    expect(line(lines, "first snapshotting gate")).toMatchObject({ after: "1.20×", met: true });
    expect(line(lines, "kernel alone")).toMatchObject({ after: "20–120 M events/s", met: false });
    expect(line(lines, "object API")).toMatchObject({
      after: "3.00× slower (6.0 M → 2.0 M events/s)",
      met: false,
    });
    expect(line(lines, "operations: WASM engine")).toMatchObject({ after: "2.50×", met: false });
    expect(line(lines, "executive: WASM engine")).toMatchObject({ after: null, met: null });
  });

  it("take the whole path's before from an earlier build measured in the same rounds", () => {
    const earlier = {
      ...WHOLE,
      headerReadyMs: 480,
      resumedShareOfPlainGate: 3.9,
      appendedExtraMs: -445,
      cli: "old/cli.js",
    };
    const lines = targetLines(ROWS, { ...WHOLE, earlier });
    expect(line(lines, "10⁵-node header ready")).toMatchObject({
      before: "480 ms ¹",
      after: "40 ms",
    });
    expect(line(lines, "`gate --snapshot`, nothing appended")).toMatchObject({
      before: "3.90× ¹",
      after: "0.70×",
    });
    // Runs that differ by less than their noise can come out the other way round.
    expect(line(lines, "`gate --snapshot`, 1 MB appended")).toMatchObject({
      before: "−445 ms (auditing 1.2 MB: 6 ms) ¹",
    });
    // The engines' rows have no earlier build: their before stays the one measured before.
    expect(line(lines, "JSONL audit, one core")).toMatchObject({ before: "431–663 MB/s" });
    const markdown = benchmarksMarkdown({
      command: "npm run bench",
      date: "2026-12-02 00:00 UTC",
      machine: { cpu: "a CPU", cores: 2, memoryGiB: 24, node: "v20", os: "Linux", loadAtStart: 0 },
      loadAtEnd: 0,
      idleNodeRssBytes: 44 * 2 ** 20,
      scales: [],
      journalBytes: new Map(),
      rows: [],
      chartFiles: new Map(),
      targets: lines,
      wholePath: { ...WHOLE, earlier },
    });
    expect(markdown).toContain("with an earlier build's CLI (old/cli.js).");
  });

  it("say what a run without the whole path did not measure", () => {
    const lines = targetLines(ROWS.slice(0, 2), null);
    expect(line(lines, "10⁵-node header ready")).toMatchObject({ after: null, met: null });
    expect(line(lines, "`gate --snapshot`, nothing appended")).toMatchObject({ met: null });
    expect(line(lines, "JSONL audit, one core")).toMatchObject({ after: "850 MB/s", met: true });
    expect(line(lines, "object API")).toMatchObject({ after: null, met: null });

    const markdown = benchmarksMarkdown({
      command: "npm run bench",
      date: "2026-12-02 00:00 UTC",
      machine: { cpu: "a CPU", cores: 2, memoryGiB: 24, node: "v20", os: "Linux", loadAtStart: 0 },
      loadAtEnd: 0,
      idleNodeRssBytes: 44 * 2 ** 20,
      scales: [],
      journalBytes: new Map(),
      rows: [],
      chartFiles: new Map(),
      targets: lines,
      wholePath: WHOLE,
    });
    expect(markdown).toContain("## Targets: before and after");
    expect(markdown).toContain(
      "| 10⁵-node header ready | ≤ 50 ms | ~500 ms | not measured by this run | — |",
    );
    expect(markdown).toContain(
      "| JSONL audit, one core, every dag scale | ≥ 800 MB/s | 431–663 MB/s | 850 MB/s | yes |",
    );
    expect(markdown).toContain("## The whole path, as a user runs it");
    expect(markdown).toContain("| `statefold audit-big` | 1.50 s | 1.50 s | 91 MiB |");
  });
});

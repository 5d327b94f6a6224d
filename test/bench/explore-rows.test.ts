/**
 * Explore's rows in `npm run bench` (bench/explore.ts): one round measures the exploration the
 * CLI makes at the default configuration, steps only and with both engines, and the reference
 * fold of every explored journal; BENCHMARKS.md tables them as rates.
 */
import { describe, expect, it } from "vitest";
import { measureExplore } from "../../bench/explore.js";
import { benchmarksMarkdown } from "../../bench/markdown.js";
import { DAG_DEFAULTS } from "../../src/explore/dag/defaults.js";
import { dagSubject } from "../../src/explore/dag/subject.js";
import { explore } from "../../src/explore/explore.js";

describe("explore's bench rows", () => {
  it("measure each model's exploration three ways and are tabled as rates", async () => {
    const [row, operations, executive, ...others] = await measureExplore(1, 5);
    expect(others).toEqual([]);
    expect(executive).toMatchObject({
      model: "executive",
      configuration: "the built-in spec and budget, depth 5",
    });
    expect(operations).toMatchObject({ model: "operations" });
    expect(operations?.configuration).toMatch(/^2 strands, 2 ops of 1 step, .*, depth 5$/);
    expect(operations?.foldEvents).toBeGreaterThan(operations?.distinctStates ?? Infinity);
    const census = explore(dagSubject({ nodes: DAG_DEFAULTS.nodes, paths: DAG_DEFAULTS.paths }), 5);
    expect(row).toMatchObject({
      model: "dag",
      configuration: "every DAG of 1 to 3 nodes, 1 path, depth 5",
      distinctStates: census.distinctStates,
      transitions: census.transitions,
    });
    if (row === undefined) return;
    // Every explored journal but the initial states' empty ones has a record per level.
    expect(row.foldEvents).toBeGreaterThan(row.distinctStates);
    for (const seconds of [row.stepsOnlySeconds, row.bothEnginesSeconds, row.foldSeconds]) {
      expect(seconds).toBeGreaterThan(0);
    }
    // Auditing every journal by two engines costs more than checking the steps alone.
    expect(row.bothEnginesSeconds).toBeGreaterThan(row.stepsOnlySeconds);

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
      explore: [
        {
          ...row,
          distinctStates: 1000,
          transitions: 4000,
          stepsOnlySeconds: 0.5,
          bothEnginesSeconds: 2,
          foldEvents: 6000,
          foldSeconds: 0.003,
        },
      ],
    });
    const lines = markdown.split("\n");
    const table = lines.slice(lines.indexOf("## `statefold explore`"));
    expect(table[6]).toBe(
      "| dag | every DAG of 1 to 3 nodes, 1 path, depth 5 | 1 000 | 4 000 | 2 000 | 8 000 | 500 | 2 000 000 |",
    );
  });
});

import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/models/dag/report.js";
import {
  DIAMOND_NODES,
  headerLine,
  REPO_ROOT,
  statefold,
  statefoldInProcess,
  tempFile,
  tempFiles,
} from "./cli-process.js";

const event = (kind: string, id: string, extra: object = {}) =>
  JSON.stringify({ ts: "2026-11-02T09:14:03.120Z", seq: 1, kind, id, ...extra });
const PROVE_A = [
  event("dispatched", "A"),
  event("landed", "A"),
  event("gate-checked", "A", { result: "pass" }),
];

async function auditJson(...args: string[]): Promise<{ code: number | null; report: Report }> {
  const run = await statefoldInProcess(["audit", "--format", "json", ...args]);
  return { code: run.code, report: JSON.parse(run.stdout) as Report };
}

describe("statefold audit", () => {
  it("prints what broke, where and why, in text", async () => {
    const run = await statefoldInProcess(["audit", "examples/violations/unproven-dispatch.jsonl"]);
    expect(run.stdout).toBe(
      [
        "✗ examples/violations/unproven-dispatch.jsonl: NOT CONFORMANT (13 events)",
        '  ✗ scheduleCorrect   line 11 (event 9)  node "D": dispatched before its dependencies were proven',
        "  ! 1 illegal event (the public API could not have logged it):",
        '      line 11 (event 9)  dispatched  node "D": dependencies-not-proven',
        "  final: 4 proven",
        "",
      ].join("\n"),
    );
  });

  it("prints an integrity error with the prefix it leaves, and the state before it", async () => {
    const run = await statefoldInProcess(["audit", "examples/violations/unknown-node.jsonl"]);
    expect(run.stdout).toContain(
      '  ✗ integrity         line 7 (event 5)  unknown-node: no node "E" in the DAG\n' +
        "                      the fold stops here; invariants and legality were judged over the 5 events before it\n" +
        "  final, before the integrity error: 2 queued, 1 dispatched, 1 proven\n",
    );
  });

  it("warns of a torn tail with its line and byte offset", async () => {
    const run = await statefoldInProcess(["audit", "examples/violations/torn-tail.jsonl"]);
    expect(run.stdout).toContain(
      "  ! torn tail         line 8, byte 705: an unfinished last entry",
    );
  });

  it("counts illegal events beyond the ten it lists", async () => {
    const lines = [
      headerLine(),
      ...PROVE_A,
      ...Array.from({ length: 12 }, () => event("landed", "A")),
    ];
    const journal = tempFile("j.jsonl", `${lines.join("\n")}\n`);
    const { report } = await auditJson(journal);
    expect(report.legality.illegal).toBe(12);
    expect(report.legality.first).toHaveLength(10);
    expect((await statefoldInProcess(["audit", journal])).stdout).toContain("      … and 2 more\n");
  });

  describe("integrity errors land at the right index and line", () => {
    // Blank lines and the header shift lines away from indexes: event 3 sits on line 8.
    const journalWith = (bad: string) =>
      [
        headerLine(),
        "",
        ...PROVE_A.slice(0, 2),
        "   ",
        "\r",
        PROVE_A[2],
        bad,
        event("dispatched", "B"),
      ].join("\n");

    it.each([
      ["unknown-node", event("dispatched", "Z"), 'no node "Z" in the DAG'],
      ["unknown-kind", event("accepted", "A"), 'unknown event kind "accepted"'],
      ["malformed-event", '{"kind":"dispatched","id":', "the line is not valid JSON"],
      [
        "discharge-without-deposit",
        event("discharged", "B", { result: "pass" }),
        'node "B" is discharged but never landed',
      ],
    ])("%s", async (reason, bad, message) => {
      const journal = tempFile("j.jsonl", `${journalWith(bad)}\n`);
      const { code, report } = await auditJson(journal);
      expect(code).toBe(1);
      expect(report.integrity).toEqual({ index: 3, line: 8, reason, message });
      expect(report.events).toBe(5);
    });
  });

  describe("several journals", () => {
    it("prints a JSON array of {file, report}, and exits 1 when any is not conformant", async () => {
      const files = ["examples/diamond.jsonl", "examples/violations/unknown-kind.jsonl"];
      const run = await statefoldInProcess(["audit", "--format", "json", ...files]);
      expect(run.code).toBe(1);
      const results = JSON.parse(run.stdout) as { file: string; report: Report }[];
      expect(results.map((result) => [result.file, result.report.conformant])).toEqual([
        [files[0], true],
        [files[1], false],
      ]);
    });

    it("still audits the others when one cannot be read, and exits 2", async () => {
      const run = await statefoldInProcess([
        "audit",
        "examples/diamond.jsonl",
        "missing.jsonl",
        "examples/violations/torn-tail.jsonl",
      ]);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe("statefold: missing.jsonl: cannot read: no such file\n");
      expect(run.stdout).toContain("✓ examples/diamond.jsonl: strictly conformant");
      expect(run.stdout).toContain("✓ examples/violations/torn-tail.jsonl: strictly conformant");
      expect(run.stdout).toMatch(/\n2 of 3 journals conformant, 1 could not be read\n$/);
    });

    it("exits 0 only when every one passes, strictly with --strict", async () => {
      const both = ["examples/diamond.jsonl", "examples/violations/illegal-transition.jsonl"];
      expect((await statefoldInProcess(["audit", ...both])).code).toBe(0);
      const strict = await statefoldInProcess(["audit", "--strict", ...both]);
      expect(strict.code).toBe(1);
      expect(strict.stdout).toContain(
        "✗ examples/violations/illegal-transition.jsonl: conformant, but NOT strictly",
      );
      expect(strict.stdout).toMatch(/\n1 of 2 journals strictly conformant\n$/);
    });
  });

  it("applies --dag to a journal without a header", async () => {
    const journal = tempFile("j.jsonl", `${PROVE_A.join("\n")}\n`);
    expect(
      (await statefoldInProcess(["audit", journal, "--dag", "examples/diamond.dag.json"])).code,
    ).toBe(0);
  });

  it("rejects --dag that differs from the header", async () => {
    const dir = tempFiles({ "dag.json": JSON.stringify({ nodes: DIAMOND_NODES.slice(0, 3) }) });
    const run = await statefoldInProcess([
      "audit",
      "examples/diamond.jsonl",
      "--dag",
      join(dir, "dag.json"),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `statefold: examples/diamond.jsonl: expected the header's DAG to be ${join(dir, "dag.json")}'s, found the header has 4 nodes, ${join(dir, "dag.json")} has 3\n`,
    );
  });

  it("writes no colour when stdout is not a terminal", async () => {
    const run = await statefold(["audit", "examples/violations/unproven-dispatch.jsonl"], {
      FORCE_COLOR: "1",
    });
    expect(run.stdout).not.toContain("\u001b[");
  });

  it("leaves the journal it reads untouched", async () => {
    const file = join(REPO_ROOT, "examples/violations/torn-tail.jsonl");
    const before = { bytes: readFileSync(file), mtime: statSync(file).mtimeMs };
    await statefoldInProcess(["audit", file]);
    await statefoldInProcess(["replay", file]);
    expect(readFileSync(file)).toEqual(before.bytes);
    expect(statSync(file).mtimeMs).toBe(before.mtime);
  });
});

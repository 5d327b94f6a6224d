import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/models/dag/report.js";
import { type CliRun, REPO_ROOT, statefold, statefoldInProcess } from "./cli-process.js";

interface Expected {
  readonly file: string;
  readonly args?: readonly string[];
  readonly exit: number;
  readonly exitStrict: number;
  readonly verdict: string;
  /** Part of the JSON report that makes this example what it is. */
  readonly report: Partial<Record<keyof Report, unknown>>;
}

const broken = (name: string, line: number, index: number, node: string) => ({
  invariants: expect.objectContaining({ [name]: { holds: false, index, line, node } }),
});
const integrity = (reason: string, line: number, index: number) => ({
  conformant: false,
  integrity: expect.objectContaining({ reason, line, index }),
});

const EXAMPLES: readonly Expected[] = [
  {
    file: "examples/diamond.jsonl",
    exit: 0,
    exitStrict: 0,
    verdict: "strictly conformant (21 events)",
    report: { strictlyConformant: true, final: { counts: expect.objectContaining({ proven: 4 }) } },
  },
  {
    file: "examples/violations/unproven-dispatch.jsonl",
    exit: 1,
    exitStrict: 1,
    verdict: "NOT CONFORMANT",
    report: broken("scheduleCorrect", 11, 9, "D"),
  },
  {
    file: "examples/violations/surface-shrink.jsonl",
    exit: 1,
    exitStrict: 1,
    verdict: "NOT CONFORMANT",
    report: broken("surfaceMonotonic", 11, 9, "B"),
  },
  {
    file: "examples/violations/string-surface.jsonl",
    exit: 1,
    exitStrict: 1,
    verdict: "NOT CONFORMANT",
    report: broken("surfaceMonotonic", 3, 1, "A"),
  },
  {
    file: "examples/violations/illegal-transition.jsonl",
    exit: 0,
    exitStrict: 1,
    verdict: "conformant, but not strictly: 1 illegal event",
    report: {
      conformant: true,
      strictlyConformant: false,
      legality: {
        illegal: 1,
        first: [{ index: 3, line: 5, kind: "landed", node: "A", reason: "wrong-status" }],
      },
    },
  },
  {
    file: "examples/violations/unknown-node.jsonl",
    exit: 1,
    exitStrict: 1,
    verdict: "NOT CONFORMANT",
    report: integrity("unknown-node", 7, 5),
  },
  {
    file: "examples/violations/unknown-kind.jsonl",
    exit: 1,
    exitStrict: 1,
    verdict: "NOT CONFORMANT",
    report: integrity("unknown-kind", 8, 6),
  },
  {
    file: "examples/violations/malformed-line.jsonl",
    exit: 1,
    exitStrict: 1,
    verdict: "NOT CONFORMANT",
    report: integrity("malformed-event", 7, 5),
  },
  {
    file: "examples/violations/discharge-without-deposit.jsonl",
    exit: 1,
    exitStrict: 1,
    verdict: "NOT CONFORMANT",
    report: integrity("discharge-without-deposit", 7, 5),
  },
  {
    file: "examples/violations/torn-tail.jsonl",
    exit: 0,
    exitStrict: 0,
    verdict: "strictly conformant (6 events)",
    report: { strictlyConformant: true, tornTail: { line: 8, offset: 705 } },
  },
  {
    file: "examples/runtime/campaign.lisp-expr",
    args: ["--dag", "examples/runtime/dag.json"],
    exit: 0,
    exitStrict: 0,
    verdict: "strictly conformant (10 events)",
    report: { final: { counts: expect.objectContaining({ landed: 3, skipped: 1 }) } },
  },
];

describe("statefold audit on the examples", () => {
  /** The bin's text audit of each example; the runs are independent, so they overlap. */
  const textRuns = new Map<string, CliRun>();
  beforeAll(async () => {
    const runs = EXAMPLES.map(({ file, args = [] }) => statefold(["audit", file, ...args]));
    for (const [i, run] of (await Promise.all(runs)).entries()) {
      textRuns.set(EXAMPLES[i]?.file ?? "", run);
    }
  });

  it.each(EXAMPLES)(
    "$file: $verdict",
    async ({ file, args = [], exit, exitStrict, verdict, report }) => {
      const text = textRuns.get(file) as CliRun;
      expect(text.code).toBe(exit);
      expect(text.stderr).toBe("");
      expect(text.stdout.split("\n")[0]).toContain(`${file}: ${verdict}`);

      expect((await statefoldInProcess(["audit", "--strict", file, ...args])).code).toBe(
        exitStrict,
      );

      const json = await statefoldInProcess(["audit", "--format", "json", file, ...args]);
      expect(json.code).toBe(exit);
      expect(JSON.parse(json.stdout)).toMatchObject(report);
    },
  );

  it("covers every example journal", async () => {
    const journals = ["examples", "examples/violations", "examples/runtime"].flatMap((dir) =>
      readdirSync(join(REPO_ROOT, dir))
        .filter((name) => name.endsWith(".jsonl") || name.endsWith(".lisp-expr"))
        .map((name) => `${dir}/${name}`),
    );
    expect(new Set(EXAMPLES.map((example) => example.file))).toEqual(new Set(journals));
  });

  it("agrees that the DAG-only file is the diamond's DAG", async () => {
    const layers = await statefoldInProcess(["layers", "examples/diamond.dag.json"]);
    expect(layers.stdout).toBe(
      (await statefoldInProcess(["layers", "examples/diamond.jsonl"])).stdout,
    );
    expect(JSON.parse(layers.stdout)).toEqual({ layers: [["A"], ["B", "C"], ["D"]] });
    const audit = ["audit", "examples/diamond.jsonl", "--dag", "examples/diamond.dag.json"];
    expect((await statefoldInProcess(audit)).code).toBe(0);
  });
});

/**
 * The command line on operations journals: the model comes from the header or `--model`, the
 * same commands and output formats serve it, and each example journal of examples/operations
 * gives the one finding examples/README.md lists for it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { audit, RULE_NAMES } from "../../src/models/operations/index.js";
import type { OperationsReport } from "../../src/models/operations/report.js";
import { parseJournal } from "../support/operations-arbitraries.js";
import {
  expectCleanFailure,
  REPO_ROOT,
  statefold,
  statefoldInProcess,
  tempFile,
  tempFiles,
} from "./cli-process.js";

const REFERENCE = ["--engine", "reference"];

/** Each example and its one finding: `rule@line reason`, or "" for the conformant one. */
const EXAMPLES: Readonly<Record<string, string>> = {
  "retry-and-readback.jsonl": "",
  "lifecycle-unknown-operation.jsonl": "lifecycle@3 unknown-operation",
  "fencing-stale-epoch.jsonl": "fencing@5 stale-epoch",
  "one-operation-per-strand.jsonl": "oneOperationPerStrand@3 strand-busy",
  "fresh-identity.jsonl": "freshIdentity@5 effect-reused",
  "effect-sandwich.jsonl": "effectSandwich@3 no-intent",
  "settle-once.jsonl": "settleOnce@5 already-settled",
  "uncertainty-held.jsonl": "uncertaintyHeld@5 outcome-unknown",
  "exactly-once.jsonl": "exactlyOnce@5 step-completed",
  "retry-ladder.jsonl": "retryLadder@5 retry-too-early",
  "cancellation.jsonl": "cancellation@4 cancelled",
  "finality.jsonl": "finality@4 effects-outstanding",
  "classification.jsonl": "classification@4 misclassified",
};

const example = (name: string) => `examples/operations/${name}`;

function findingsOf(report: OperationsReport): string {
  return RULE_NAMES.flatMap((rule) => {
    const verdict = report.invariants[rule];
    if (verdict.holds) return [];
    const reason = report.legality.first.find((entry) => entry.index === verdict.index)?.reason;
    return [`${rule}@${verdict.line} ${reason}`];
  }).join(", ");
}

describe("statefold audit on operations journals", () => {
  it("covers every example of examples/operations", () => {
    const files = readdirSync(join(REPO_ROOT, "examples/operations")).filter((name) =>
      name.endsWith(".jsonl"),
    );
    expect(new Set(files)).toEqual(new Set(Object.keys(EXAMPLES)));
  });

  it.each(Object.entries(EXAMPLES))("%s: %s", async (name, finding) => {
    const json = await statefoldInProcess([
      "audit",
      example(name),
      "--format",
      "json",
      ...REFERENCE,
    ]);
    expect(json.code).toBe(finding === "" ? 0 : 1);
    const report = JSON.parse(json.stdout) as OperationsReport;
    expect(report.model).toBe("operations");
    expect(findingsOf(report)).toBe(finding);
    expect(report.legality.illegal).toBe(finding === "" ? 0 : 1);
    const { records, lines } = parseJournal(readFileSync(join(REPO_ROOT, example(name)), "utf8"));
    expect(report).toEqual(audit(records, { lines }));
  });

  it("prints the findings in words, each with its rule, line, subject and reason", async () => {
    const run = await statefoldInProcess(["audit", example("retry-ladder.jsonl"), ...REFERENCE]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      [
        "✗ examples/operations/retry-ladder.jsonl: NOT CONFORMANT (6 events)",
        '  ✗ retryLadder            line 5 (event 3)  op "run-1" effect "e-2": retry-too-early — retried before the retry ladder allowed',
        "  ! 1 record broke a rule:",
        '      line 5 (event 3)  intent  op "run-1" effect "e-2": retry-too-early — retried at 2300; the ladder required 1400 + max(944, 500) = 2344',
        "  final: 1 completed; 2 effects, 1 strand",
        "",
      ].join("\n"),
    );
  });

  it("takes the model from --model for a journal without a header", async () => {
    const lines = readFileSync(join(REPO_ROOT, example("finality.jsonl")), "utf8").split("\n");
    const headerless = tempFile("finality.jsonl", lines.slice(1).join("\n"));
    const run = await statefoldInProcess([
      "audit",
      headerless,
      "--model",
      "operations",
      "--format",
      "json",
      ...REFERENCE,
    ]);
    const report = JSON.parse(run.stdout) as OperationsReport;
    expect(findingsOf(report)).toBe("finality@3 effects-outstanding");
  });

  it("refuses a --model that contradicts the header, naming both", async () => {
    const run = await statefoldInProcess([
      "audit",
      example("finality.jsonl"),
      "--model",
      "dag",
      ...REFERENCE,
    ]);
    expectCleanFailure(run);
    expect(run.stderr).toBe(
      'statefold: examples/operations/finality.jsonl: expected a "dag" journal (--model), found one whose header names the model "operations"\n',
    );
    const lisp = await statefoldInProcess([
      "audit",
      "examples/runtime/campaign.lisp-expr",
      "--dag",
      "examples/runtime/dag.json",
      "--model",
      "operations",
    ]);
    expectCleanFailure(lisp);
    expect(lisp.stderr).toContain("a .lisp-expr journal is a dag journal");
  });

  it("refuses an unknown --model, listing the known ones", async () => {
    const run = await statefoldInProcess(["audit", example("finality.jsonl"), "--model", "ops"]);
    expectCleanFailure(run);
    expect(run.stderr).toMatch(/--model.*dag.*operations/);
  });

  it("refuses --dag for an operations journal", async () => {
    const withDag = await statefoldInProcess([
      "audit",
      example("finality.jsonl"),
      "--dag",
      "examples/diamond.dag.json",
      ...REFERENCE,
    ]);
    expectCleanFailure(withDag);
    expect(withDag.stderr).toContain("--dag is for dag journals");
  });

  it("gives the same report from the wasm engine (the default) as from the reference", async () => {
    for (const name of Object.keys(EXAMPLES)) {
      const wasm = await statefoldInProcess(["audit", example(name), "--format", "json"]);
      const reference = await statefoldInProcess([
        "audit",
        example(name),
        "--format",
        "json",
        ...REFERENCE,
      ]);
      expect(wasm, name).toEqual(reference);
    }
  });

  it("audits a directory of both models, each journal by its own model, on workers too", async () => {
    const dir = tempFiles({
      "a-dag.jsonl": readFileSync(join(REPO_ROOT, "examples/diamond.jsonl")),
      "b-ops.jsonl": readFileSync(join(REPO_ROOT, example("settle-once.jsonl"))),
    });
    for (const jobs of ["1", "2"]) {
      const run = await statefold([
        "audit",
        dir,
        "--format",
        "ndjson",
        "--jobs",
        jobs,
        ...REFERENCE,
      ]);
      expect(run.code).toBe(1);
      const reports = run.stdout
        .trim()
        .split("\n")
        .map(
          (line) => (JSON.parse(line) as { report: { model: string; conformant: boolean } }).report,
        );
      expect(reports.map((report) => [report.model, report.conformant])).toEqual([
        ["dag", true],
        ["operations", false],
      ]);
    }
  });

  it("reads an operations journal from the standard input", async () => {
    const bytes = readFileSync(join(REPO_ROOT, example("cancellation.jsonl")));
    const run = await statefold(["audit", "-", "--format", "json", ...REFERENCE], {}, bytes);
    expect(run.code).toBe(1);
    expect(findingsOf(JSON.parse(run.stdout) as OperationsReport)).toBe("cancellation@4 cancelled");
  });

  it("gates: resume on the conformant journal, refuse naming the first broken rule", async () => {
    const resume = await statefoldInProcess([
      "gate",
      example("retry-and-readback.jsonl"),
      ...REFERENCE,
    ]);
    expect(resume.code).toBe(0);
    expect(resume.stdout).toBe(
      "resume: examples/operations/retry-and-readback.jsonl is conformant (7 events)\n",
    );
    const refuse = await statefoldInProcess([
      "gate",
      example("fencing-stale-epoch.jsonl"),
      ...REFERENCE,
    ]);
    expect(refuse.code).toBe(1);
    expect(refuse.stdout).toBe(
      'refuse: examples/operations/fencing-stale-epoch.jsonl: fencing is broken at line 5 (event 3), op "run-1" effect "e-1": stale-epoch: written under an older lease epoch than the strand\'s\n',
    );
  });

  it("replays to the state the records fold to, on the reference engine", async () => {
    const run = await statefoldInProcess(["replay", example("uncertainty-held.jsonl")]);
    expect(run.code).toBe(0);
    const state = JSON.parse(run.stdout) as {
      strands: { id: string; current: string | null }[];
      operations: { id: string; steps: { key: string; effect: string; status: string }[] }[];
      effects: number;
    };
    expect(state.strands).toEqual([{ id: "chat-A", current: "run-1", epoch: null }]);
    // The intent after the unknown outcome is applied: the step's current attempt is e-2's.
    expect(state.operations[0]?.steps).toEqual([
      { key: "a", attempt: 2, effect: "e-2", status: "pending", notBefore: null },
    ]);
    expect(state.effects).toBe(2);
    const wasm = await statefoldInProcess([
      "replay",
      example("finality.jsonl"),
      "--engine",
      "wasm",
    ]);
    expectCleanFailure(wasm);
  });

  it("writes --html with each finding in its own terms: the ladder's sum, the classification", async () => {
    const page = join(tempFiles({}), "report.html");
    const run = await statefoldInProcess([
      "audit",
      example("retry-ladder.jsonl"),
      example("classification.jsonl"),
      example("retry-and-readback.jsonl"),
      "--html",
      page,
      ...REFERENCE,
    ]);
    expect(run.code).toBe(1);
    const html = readFileSync(page, "utf8");
    expect(html).toContain("retried at 2300; the ladder required 1400 + max(944, 500) = 2344");
    expect(html).toContain("classified as <code>overflow</code> by step 3 of 7");
    expect(html).toContain("✗ retryLadder: retry-too-early");
    expect(html).toContain("✓ finality");
    expect(html).toContain("1 of 3 journals conformant");
  });
});

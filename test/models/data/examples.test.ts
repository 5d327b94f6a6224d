/**
 * The examples of models defined by data (examples/data/, docs/models/data.md): each journal's
 * findings under its model file — JSON Lines, a stream split by key, documents — the verdicts examples/README.md gives them, and the reports the
 * docs quote, which must be the reference engine's own output, key for key.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { auditDataJournals } from "../../../src/models/data/engine.js";
import { loadModelFile } from "../../../src/models/data/load.js";
import type { DataReport } from "../../../src/models/data/report.js";

const ROOT = join(import.meta.dirname, "../../..");

/** A finding as the table writes it: its line, rule and reason. */
type Finding = readonly [line: number, rule: string, reason: string];

interface Example {
  /** Both relative to examples/data/. */
  readonly model: string;
  readonly journal: string;
  /** Each journal's findings, by its key (`null` for a journal that is the whole file). */
  readonly findings: ReadonlyMap<string | null, readonly Finding[]>;
}

const EXAMPLES: readonly Example[] = [
  {
    model: "payment-intents.json",
    journal: "payment-intents.jsonl",
    findings: new Map([[null, []]]),
  },
  {
    model: "payment-intents.json",
    journal: "payment-intents-violations.jsonl",
    findings: new Map([
      [
        null,
        [
          [4, "sequence", "out-of-sequence"],
          [4, "amount-kept", "check-failed"],
          [5, "created-once", "duplicate"],
          [6, "lifecycle", "missing"],
          [7, "known-kinds", "unknown-kind"],
          [7, "intent.atEnd", "open-at-end"],
        ],
      ],
    ]),
  },
  {
    model: "ci-jobs.yaml",
    journal: "ci-jobs.journal.json",
    findings: new Map([[null, []]]),
  },
  {
    model: "ci-jobs.yaml",
    journal: "ci-jobs-violations.journal.json",
    findings: new Map([
      [
        null,
        [
          [5, "monotone", "not-increasing"],
          [5, "one-job-per-runner", "duplicate"],
          [6, "conclusion-given", "check-failed"],
          [7, "lifecycle", "missing"],
          [8, "same-runner", "check-failed"],
        ],
      ],
    ]),
  },
  {
    model: "orders.json",
    journal: "orders.jsonl",
    findings: new Map([
      ["A-1001", []],
      ["A-1002", []],
      ["A-1003", []],
    ]),
  },
  {
    model: "orders.json",
    journal: "orders-violations.jsonl",
    findings: new Map<string, readonly Finding[]>([
      [
        "B-2001",
        [
          [3, "paid-in-full", "check-failed"],
          [9, "at-most-two-parcels", "limit"],
          [16, "nothing-after-close", "after-last"],
        ],
      ],
      ["B-2002", [[5, "placed-first", "not-first"]]],
      [
        "B-2003",
        [
          [10, "sequence", "out-of-sequence"],
          [10, "order.atEnd", "open-at-end"],
        ],
      ],
    ]),
  },
];

/** The reports of a journal under a model file, both paths relative to the repository. */
async function audited(model: string, journal: string): Promise<DataReport[]> {
  const compiled = await loadModelFile(join(ROOT, model));
  return auditDataJournals(compiled, readFileSync(join(ROOT, journal)), { file: journal });
}

describe("examples/data", () => {
  it.each(EXAMPLES)("$journal under $model", async ({ model, journal, findings }) => {
    const reports = await audited(`examples/data/${model}`, `examples/data/${journal}`);
    const found = new Map(
      reports.map((report) => [
        (report.journal ?? null) as string | null,
        report.legality.first.map((finding) => [finding.line, finding.rule, finding.reason]),
      ]),
    );
    expect(found).toEqual(findings);
    for (const report of reports) {
      expect(report.integrity).toBeNull();
      expect(report.legality.illegal).toBe(report.legality.first.length);
      expect(report.conformant).toBe(report.legality.illegal === 0);
    }
  });

  it("has a row above for every journal of the folder, JSON Lines or a document", () => {
    const journals = readdirSync(join(ROOT, "examples/data")).filter(
      (name) => name.endsWith(".jsonl") || name.endsWith(".journal.json"),
    );
    expect(EXAMPLES.map((example) => example.journal).sort()).toEqual(journals.sort());
  });
});

/** The `statefold audit --model M J --format json` commands of a doc, each with the report it quotes after it. */
function quotedReports(doc: string): { model: string; journal: string; quoted: string }[] {
  const text = readFileSync(join(ROOT, doc), "utf8");
  const command =
    /```sh\nstatefold audit --model (\S+) (\S+) --format json\n```\n[^`]*```json\n([\s\S]*?)```/g;
  return [...text.matchAll(command)].map(([, model, journal, quoted]) => ({
    model: model as string,
    journal: journal as string,
    quoted: quoted as string,
  }));
}

describe("docs/models/data.md", () => {
  const quoted = quotedReports("docs/models/data.md");

  it("quotes the reports of both payment intent journals", () => {
    expect(quoted.map((entry) => entry.journal)).toEqual([
      "examples/data/payment-intents.jsonl",
      "examples/data/payment-intents-violations.jsonl",
    ]);
  });

  it.each(quoted)("quotes the real report of $journal, in its order", async (entry) => {
    const [report] = await audited(entry.model, entry.journal);
    expect(JSON.stringify(report)).toBe(JSON.stringify(JSON.parse(entry.quoted)));
  });
});

/** examples/README.md's rows of journals audited with a model file, with their exit status. */
function readmeVerdicts(): Map<string, { model: string; exit: number }> {
  const text = readFileSync(join(ROOT, "examples/README.md"), "utf8");
  const row = /^\| `data\/([^`]+)` \| [^[|]*\[(\d)\] with `--model data\/([^`]+)`/gm;
  return new Map(
    [...text.matchAll(row)].map(([, journal, exit, model]) => [
      journal as string,
      { model: model as string, exit: Number(exit) },
    ]),
  );
}

describe("examples/README.md", () => {
  const verdicts = readmeVerdicts();

  it.each(EXAMPLES)(
    "gives $journal its model file and the exit status of its reports",
    async ({ model, journal }) => {
      const reports = await audited(`examples/data/${model}`, `examples/data/${journal}`);
      const exit = reports.every((report) => report.conformant) ? 0 : 1;
      expect(verdicts.get(journal)).toEqual({ model, exit });
    },
  );
});

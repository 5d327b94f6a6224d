/**
 * A stream split by `journal.key` on the command line (docs/models/data.md, "A stream of
 * journals"): reported as a directory is — a report per journal in order of first appearance,
 * each with its key — in every format, by the gate and in the HTML report, by both engines.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { auditDataJournals } from "../../src/models/data/engine.js";
import { loadModelFile } from "../../src/models/data/load.js";
import { testTempDir } from "../support/temp-dirs.js";
import { statefoldInProcess } from "./cli-process.js";

const MODEL = "examples/data/orders.json";
const CONFORMANT = "examples/data/orders.jsonl";
const VIOLATIONS = "examples/data/orders-violations.jsonl";

async function referenceReports(journal: string) {
  return auditDataJournals(await loadModelFile(MODEL), readFileSync(journal), { file: journal });
}

describe.each(["reference", "wasm"])("a split stream audited by the %s engine", (engine) => {
  const audit = (...args: string[]) =>
    statefoldInProcess(["audit", "--model", MODEL, "--engine", engine, ...args]);

  it("prints {journals: [...]} for one file in json, each journal's report with its key", async () => {
    const run = await audit(VIOLATIONS, "--format", "json");
    expect(run.code).toBe(1);
    const printed = JSON.parse(run.stdout) as { journals: { journal: string }[] };
    expect(printed).toEqual({ journals: await referenceReports(VIOLATIONS) });
    expect(printed.journals.map((report) => report.journal)).toEqual([
      "B-2001",
      "B-2002",
      "B-2003",
    ]);
  });

  it("prints a line per journal in ndjson, and an element per journal for several files in json", async () => {
    const expected = [
      ...(await referenceReports(CONFORMANT)).map((report) => ({ file: CONFORMANT, report })),
      ...(await referenceReports(VIOLATIONS)).map((report) => ({ file: VIOLATIONS, report })),
    ];
    const ndjson = await audit(CONFORMANT, VIOLATIONS, "--format", "ndjson");
    expect(ndjson.code).toBe(1);
    expect(
      ndjson.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual(expected);
    const json = await audit(CONFORMANT, VIOLATIONS, "--format", "json");
    expect(JSON.parse(json.stdout)).toEqual(expected);
  });

  it("names each journal by its file and key in text, conformant when every journal is", async () => {
    const run = await audit(CONFORMANT);
    expect(run.code).toBe(0);
    const verdicts = run.stdout.split("\n").filter((line) => line.startsWith("✓"));
    expect(verdicts).toEqual([
      `✓ ${CONFORMANT} [journal "A-1001"]: strictly conformant (7 events)`,
      `✓ ${CONFORMANT} [journal "A-1002"]: strictly conformant (3 events)`,
      `✓ ${CONFORMANT} [journal "A-1003"]: strictly conformant (5 events)`,
    ]);
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("3 of 3 journals conformant");
    const both = await audit(CONFORMANT, VIOLATIONS);
    expect(both.code).toBe(1);
    expect(both.stdout).toMatch(
      /\n6 journals, 31 events, 3 not conformant, .*\n3 of 6 journals conformant\n$/,
    );
  });

  it("stops the whole stream at a record without its key, in every journal's report", async () => {
    const dir = testTempDir("split-stream");
    const broken = join(dir, "broken.jsonl");
    const lines = readFileSync(CONFORMANT, "utf8").split("\n");
    lines.splice(3, 0, '{"version":3,"type":"order.note_added"}');
    writeFileSync(broken, lines.join("\n"));
    const run = await audit(broken, "--format", "json");
    expect(run.code).toBe(1);
    const { journals } = JSON.parse(run.stdout) as {
      journals: { journal: string; integrity: { line: number; message: string } | null }[];
    };
    expect(journals.length).toBeGreaterThan(0);
    for (const report of journals) {
      expect(report.integrity?.line).toBe(4);
      expect(report.integrity?.message).toBe(
        'the record has no journal key: field "order" is absent',
      );
    }
  });

  it("reports an empty stream as one journal whose key is null", async () => {
    const empty = join(testTempDir("split-stream"), "empty.jsonl");
    writeFileSync(empty, "");
    const run = await audit(empty, "--format", "json");
    const { journals } = JSON.parse(run.stdout) as {
      journals: { journal: unknown; events: number }[];
    };
    expect(journals.map((report) => [report.journal, report.events])).toEqual([[null, 0]]);
  });

  it("gate refuses at the breach that comes first in the file, naming its journal", async () => {
    const run = await statefoldInProcess([
      "gate",
      "--model",
      MODEL,
      "--engine",
      engine,
      VIOLATIONS,
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      `refuse: ${VIOLATIONS} [journal "B-2001"]: paid-in-full is broken at line 3 (event 1): payment.captured: check-failed — the comparison does not hold (the payment captured is the order's total)\n`,
    );
    const passing = await statefoldInProcess([
      "gate",
      "--model",
      MODEL,
      "--engine",
      engine,
      CONFORMANT,
    ]);
    expect(passing.stdout).toBe(`resume: ${CONFORMANT} is conformant (15 events)\n`);
  });

  it("writes a section per journal in the HTML report, titled with its key", async () => {
    const html = join(testTempDir("split-stream"), "report.html");
    const run = await audit(VIOLATIONS, "--html", html);
    expect(run.code).toBe(1);
    const page = readFileSync(html, "utf8");
    for (const key of ["B-2001", "B-2002", "B-2003"]) {
      expect(page).toContain(`${VIOLATIONS} [journal &quot;${key}&quot;]`);
    }
  });
});

describe("gate --snapshot on a split stream", () => {
  it("resumes every journal from the snapshot and judges the appended records as a whole audit does", async () => {
    const dir = testTempDir("split-gate");
    const journal = join(dir, "orders.jsonl");
    const snapshot = join(dir, "orders.snapshot");
    writeFileSync(journal, readFileSync(CONFORMANT));
    const gate = () =>
      statefoldInProcess(["gate", "--model", MODEL, journal, "--snapshot", snapshot]);
    expect((await gate()).stdout).toBe(`resume: ${journal} is conformant (15 events)\n`);
    const first = readFileSync(snapshot);
    appendFileSync(
      journal,
      '{"order_id":"A-1004","version":1,"type":"order.placed","amount":10,"currency":"eur"}\n' +
        '{"order_id":"A-1004","version":2,"type":"order.cancelled"}\n',
    );
    expect((await gate()).stdout).toBe(`resume: ${journal} is conformant (17 events)\n`);
    expect(readFileSync(snapshot).equals(first)).toBe(false);
    appendFileSync(journal, '{"order_id":"A-1002","version":5,"type":"payment.captured"}\n');
    const refused = await gate();
    const whole = await statefoldInProcess(["gate", "--model", MODEL, journal]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe(whole.stdout);
    expect(refused.stdout).toMatch(/^refuse: .* \[journal "A-1002"\]: /);
  });
});

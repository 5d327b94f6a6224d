/**
 * A journal that is one JSON document, on the command line (docs/models/data.md, "Journals"): its
 * lines are never a header, so a minified document — one line of any size — streams to the
 * engine as it is, whatever members it has beside its records.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testTempDir } from "../support/temp-dirs.js";
import { statefoldInProcess } from "./cli-process.js";

const MODEL = "examples/data/ci-jobs.yaml";
const JOURNAL = "examples/data/ci-jobs.journal.json";

/** The example's deliveries as one line, beside a member a header would have. */
function minifiedWithStatefoldMember(): string {
  const { deliveries } = JSON.parse(readFileSync(JOURNAL, "utf8")) as { deliveries: unknown[] };
  const file = join(testTempDir("one-line-document"), "export.json");
  writeFileSync(file, JSON.stringify({ statefold: "an export", deliveries }));
  return file;
}

describe("a document journal of one line", () => {
  it.each(["wasm", "reference"])(
    "is audited as the document it is by the %s engine, its first line never read as a header",
    async (engine) => {
      const file = minifiedWithStatefoldMember();
      const run = await statefoldInProcess(["audit", "--model", MODEL, "--engine", engine, file]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`✓ ${file}: strictly conformant (12 events)`);
    },
  );

  it("passes the gate as the same document", async () => {
    const file = minifiedWithStatefoldMember();
    const run = await statefoldInProcess(["gate", "--model", MODEL, file]);
    expect(run.stdout).toBe(`resume: ${file} is conformant (12 events)\n`);
  });
});

/**
 * The page's Model (issue 32): a journal is audited as the model picked, or as the one its header
 * names when the choice is left automatic — the rule of `statefold audit --model`, a header that
 * names another model being an error naming both. A headerless operations journal can be audited
 * in the page; a headerless executive journal is refused with what it lacks and where that comes
 * from.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODEL_NAMES, PROGRAM_MODEL_NAMES } from "../../src/models/registry.js";
import { testTempDir } from "../support/temp-dirs.js";
import { auditInPage, buildAndServe, REPO_ROOT, shownReport, type WebPage } from "./web-page.js";

let web: WebPage;
const scratch = testTempDir("statefold-web-model-");

beforeAll(async () => {
  web = await buildAndServe();
}, 60_000);

afterAll(async () => {
  await web?.close();
});

const example = (path: string) => join(REPO_ROOT, "examples", path);

/** A copy of an example journal without its header line. */
function headerless(path: string, name: string): string {
  const lines = readFileSync(example(path), "utf8").split("\n");
  expect(lines[0]).toContain('"statefold":"journal"');
  const written = join(scratch, name);
  writeFileSync(written, lines.slice(1).join("\n"));
  return written;
}

/** What `statefold audit --format json` prints, with `args` before the journal. */
function cliJson(journal: string, args: readonly string[]): unknown {
  const run = spawnSync(
    process.execPath,
    ["dist/src/cli/main.js", "audit", "--format", "json", "--quiet", ...args, journal],
    { cwd: REPO_ROOT, encoding: "utf8" },
  );
  expect([0, 1]).toContain(run.status);
  return JSON.parse(run.stdout);
}

async function pickModel(page: Page, model: string): Promise<void> {
  await page.selectOption("#model", model);
}

async function shownError(page: Page): Promise<string> {
  return (await page.textContent("#status")) ?? "";
}

describe("the page's model choice", () => {
  it("offers automatic (the default) and every model", async () => {
    const page = await web.open();
    const options = await page.$$eval("#model option", (found) =>
      found.map((option) => (option as HTMLOptionElement).value),
    );
    expect(options).toEqual(["", ...MODEL_NAMES, "file"]);
    expect(await page.inputValue("#model")).toBe("");
    await page.close();
  });

  it("tells, for every model, what its journal needs picked beside it and what is optional", async () => {
    const page = await web.open();
    const expected: Record<(typeof PROGRAM_MODEL_NAMES)[number], RegExp[]> = {
      dag: [
        /header line carries the DAG/,
        /\.lisp-expr.*needs its DAG file/,
        /DAG file is optional/,
      ],
      operations: [/Nothing is picked beside it/, /without a header line needs Model: operations/],
      executive: [
        /header line, with the run's spec and budget, is required/,
        /statefold executive SPEC BUDGET/,
      ],
    };
    for (const model of PROGRAM_MODEL_NAMES) {
      const guide = (await page.textContent(`#drop li[data-model="${model}"]`)) ?? "";
      expect(guide.startsWith(`${model}: `)).toBe(true);
      for (const phrase of expected[model]) expect(guide).toMatch(phrase);
    }
    expect(await page.isVisible('#drop li[data-model="executive"] code')).toBe(true);
    await page.close();
  });

  it("audits a headerless operations journal as the operations model picked, as --model operations does", async () => {
    const journal = headerless("operations/retry-ladder.jsonl", "retry-ladder-headerless.jsonl");
    const page = await web.open();
    await pickModel(page, "operations");
    expect(await auditInPage(page, journal)).toBe("done");
    expect(await shownReport(page)).toEqual(cliJson(journal, ["--model", "operations"]));
    await page.close();
  });

  it("left automatic, says of a headerless journal that another model can be picked", async () => {
    const journal = headerless("operations/retry-ladder.jsonl", "automatic-headerless.jsonl");
    const page = await web.open();
    expect(await auditInPage(page, journal)).toBe("error");
    // The page's advice, or the reader's guess at the model in the page's terms.
    expect(await shownError(page)).toMatch(/pick its Model|Model: operations/);
    await pickModel(page, "operations");
    await page.waitForFunction(() => document.body.dataset.state === "done");
    expect(await shownReport(page)).toEqual(cliJson(journal, ["--model", "operations"]));
    await page.close();
  });

  it("refuses a journal whose header names another model than the one picked, naming both", async () => {
    const cases: [journal: string, dag: string | undefined, picked: string, named: string][] = [
      // diamond.jsonl's header names no model, so a picked one reads it (docs/journals.md).
      [example("executive/wrong-attempt.jsonl"), undefined, "operations", "executive"],
      [example("operations/retry-ladder.jsonl"), undefined, "executive", "operations"],
      [example("runtime/campaign.lisp-expr"), example("runtime/dag.json"), "executive", "dag"],
    ];
    for (const [journal, dag, picked, named] of cases) {
      const page = await web.open();
      await pickModel(page, picked);
      expect(await auditInPage(page, journal, dag)).toBe("error");
      const shown = await shownError(page);
      expect(shown).toMatch(/^Cannot audit this: /);
      expect(shown).toContain(`"${picked}" journal (the page's Model`);
      expect(shown).toContain(`found one whose header names the model "${named}"`);
      await page.close();
    }
  });

  it("audits a journal as the model its header names, whether picked or left automatic", async () => {
    const journal = example("executive/wrong-attempt.jsonl");
    for (const model of ["", "executive"]) {
      const page = await web.open();
      await pickModel(page, model);
      expect(await auditInPage(page, journal)).toBe("done");
      expect(await shownReport(page)).toEqual(cliJson(journal, ["--model", "executive"]));
      await page.close();
    }
  });

  it("says what a headerless executive journal lacks: the header with its spec and budget, and what writes it", async () => {
    const journal = headerless("executive/conformant.jsonl", "executive-headerless.jsonl");
    const page = await web.open();
    await pickModel(page, "executive");
    expect(await auditInPage(page, journal)).toBe("error");
    const shown = await shownError(page);
    expect(shown).toContain('executive-headerless.jsonl: expected a header with the run\'s "spec"');
    expect(shown).toContain('"model":"executive","spec":');
    expect(shown).toContain("statefold executive SPEC BUDGET");
    await page.close();
  });
});

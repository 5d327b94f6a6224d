/**
 * The in-browser auditor (web/, issue 6) end to end: the page built by Vite, served on loopback,
 * driven in Debian Chromium. A journal picked in the page is audited in its worker on the WASM
 * engine, and the verdicts it shows are those of `statefold audit --format json` on the same file;
 * the findings come in context with the DAG by layers, as in `statefold audit --html`. Wrong files
 * get a clear message, and the page fetches nothing but its own files.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVARIANT_NAMES, type Report } from "../../src/models/dag/report.js";
import { testTempDir } from "../support/temp-dirs.js";
import {
  auditInPage,
  buildAndServe,
  cliReport,
  REPO_ROOT,
  reportFrame,
  screenshotPath,
  shownReport,
  type WebPage,
} from "./web-page.js";

let web: WebPage;
const scratch = testTempDir("statefold-web-files-");

beforeAll(async () => {
  web = await buildAndServe();
}, 60_000);

afterAll(async () => {
  await web?.close();
});

const example = (path: string) => join(REPO_ROOT, "examples", path);

/** The verdict line the report's view shows for one journal. */
function expectedPill(report: Report): string {
  if (report.strictlyConformant) return "strictly conformant";
  return report.conformant ? "conformant, not strictly" : "not conformant";
}

/** The checks the view marks broken (✗), by the names its chips carry. */
function brokenChecks(report: Report): string[] {
  const broken = report.integrity === null ? [] : ["integrity"];
  for (const name of INVARIANT_NAMES) if (!report.invariants[name].holds) broken.push(name);
  return broken;
}

async function expectShownAsCli(page: Page, journal: string, dag?: string): Promise<Report> {
  const expected = cliReport(journal, dag);
  expect(await shownReport(page)).toEqual(expected);
  const frame = await reportFrame(page);
  expect((await frame.textContent(".journal h2 .pill"))?.trim()).toBe(expectedPill(expected));
  const chips = await frame.$$eval(".journal .verdicts .chip.bad", (found) =>
    found.map((chip) => (chip.firstChild?.textContent ?? "").replace("✗", "").trim()),
  );
  expect(chips).toEqual(brokenChecks(expected));
  expect(await frame.textContent(".journal .facts")).toContain(`${expected.events} event`);
  return expected;
}

describe("the in-browser auditor", () => {
  it("audits an operations journal by the model its header names, findings in their own terms", async () => {
    const page = await web.open();
    const journal = example("operations/retry-ladder.jsonl");
    expect(await auditInPage(page, journal)).toBe("done");
    const run = spawnSync(
      process.execPath,
      ["dist/src/cli/main.js", "audit", "--format", "json", "--engine", "reference", journal],
      { cwd: REPO_ROOT, encoding: "utf8" },
    );
    expect(await shownReport(page)).toEqual(JSON.parse(run.stdout));
    const frame = await reportFrame(page);
    expect(await frame.textContent(".journal h2 .pill")).toContain("not conformant");
    expect(await frame.textContent(".finding")).toContain(
      "retried at 2300; the ladder required 1400 + max(944, 500) = 2344",
    );
    await page.screenshot({ path: screenshotPath("web-operations.png"), fullPage: true });
    await page.close();
  });

  it("audits an executive journal on its kernel, mismatches side by side with the frames then", async () => {
    const page = await web.open();
    const journal = example("executive/wrong-attempt.jsonl");
    expect(await auditInPage(page, journal)).toBe("done");
    const run = spawnSync(
      process.execPath,
      ["dist/src/cli/main.js", "audit", "--format", "json", journal],
      {
        cwd: REPO_ROOT,
        encoding: "utf8",
      },
    );
    expect(await shownReport(page)).toEqual(JSON.parse(run.stdout));
    const frame = await reportFrame(page);
    expect(await frame.textContent(".journal h2 .pill")).toContain("not conformant");
    expect(await frame.textContent("table.mismatches")).toContain('"attempt": 3');
    expect(await frame.textContent("table.mismatches .frame:nth-child(2)")).toContain(
      "sub-plan sources",
    );
    expect(await frame.locator("table.mismatches .budget .bar span").count()).toBe(12);
    await page.screenshot({ path: screenshotPath("web-executive.png"), fullPage: true });
    await page.close();
  });

  it("audits a conformant journal with a header as the command line does, and shows its DAG", async () => {
    const page = await web.open();
    const journal = example("diamond.jsonl");
    expect(await auditInPage(page, journal)).toBe("done");
    await expectShownAsCli(page, journal);
    const frame = await reportFrame(page);
    expect(await frame.textContent("h3")).toContain("The DAG by layers, coloured by final status");
    expect(await frame.$$eval("svg g.node, svg .node", (nodes) => nodes.length)).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath("web-diamond.png"), fullPage: true });
    await page.close();
  });

  it("shows each violating event in context, with the node's state before and after", async () => {
    const page = await web.open();
    const journal = example("violations/unproven-dispatch.jsonl");
    expect(await auditInPage(page, journal)).toBe("done");
    const report = await expectShownAsCli(page, journal);
    expect(report.conformant).toBe(false);
    const frame = await reportFrame(page);
    expect(await frame.textContent("main")).toContain("What went wrong");
    const quoted = await frame.$$eval(".finding", (cards) => cards.map((card) => card.textContent));
    expect(quoted.length).toBeGreaterThan(0);
    const lines = readFileSync(journal, "utf8").split("\n");
    const scheduleCorrect = report.invariants.scheduleCorrect;
    if (scheduleCorrect.holds || !("line" in scheduleCorrect)) throw new Error("expected a break");
    // The offending line itself is quoted in its card, with node D's state around it.
    const offending = lines[(scheduleCorrect.line ?? 0) - 1] ?? "";
    expect(offending).toContain('"kind":"dispatched"');
    expect(quoted.join("\n")).toContain(offending);
    expect(quoted.join("\n")).toMatch(/before.*after.*queued.*dispatched/s);
    await page.screenshot({ path: screenshotPath("web-unproven-dispatch.png"), fullPage: true });
    await page.close();
  });

  it("audits a journal without a header against the DAG file picked beside it", async () => {
    const headerless = join(scratch, "diamond-headerless.jsonl");
    const lines = readFileSync(example("diamond.jsonl"), "utf8").split("\n");
    writeFileSync(headerless, lines.slice(1).join("\n"));
    const page = await web.open();
    expect(await auditInPage(page, headerless, example("diamond.dag.json"))).toBe("done");
    await expectShownAsCli(page, headerless, example("diamond.dag.json"));
    await page.close();
  });

  it("audits a .lisp-expr journal with its DAG file", async () => {
    const page = await web.open();
    const journal = example("runtime/campaign.lisp-expr");
    const dag = example("runtime/dag.json");
    expect(await auditInPage(page, journal, dag)).toBe("done");
    await expectShownAsCli(page, journal, dag);
    await page.close();
  });

  it("takes a journal and its DAG file dropped together, the DAG file first", async () => {
    const lines = readFileSync(example("diamond.jsonl"), "utf8").split("\n");
    const headerless = lines.slice(1).join("\n");
    const dag = readFileSync(example("diamond.dag.json"), "utf8");
    const page = await web.open();
    const dataTransfer = await page.evaluateHandle(
      ([journalText, dagText]) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([dagText], "diamond.dag.json", { type: "application/json" }));
        transfer.items.add(new File([journalText], "diamond-headerless.jsonl"));
        return transfer;
      },
      [headerless, dag] as const,
    );
    await page.dispatchEvent("#drop", "drop", { dataTransfer });
    await page.waitForFunction(() => document.body.dataset.state === "done");
    const written = join(scratch, "dropped-headerless.jsonl");
    writeFileSync(written, headerless);
    await expectShownAsCli(page, written, example("diamond.dag.json"));
    expect(await page.textContent("#status")).toContain(
      "diamond-headerless.jsonl: strictly conformant",
    );
    await page.close();
  });

  it("lets a DAG file picked for one journal go when the next journal is picked", async () => {
    for (const next of [example("diamond.jsonl"), example("operations/retry-ladder.jsonl")]) {
      const page = await web.open();
      const dag = example("runtime/dag.json");
      expect(await auditInPage(page, example("runtime/campaign.lisp-expr"), dag)).toBe("done");
      expect(await auditInPage(page, next)).toBe("done");
      expect(await shownReport(page)).toEqual(cliReport(next));
      expect(await page.$eval("#dag", (input) => (input as HTMLInputElement).files?.length)).toBe(
        0,
      );
      expect(await page.textContent("#dag-owner")).toBe("");
      await page.close();
    }
  });

  it("gives a DAG file to the journal picked before it, or, picked first, to the next one", async () => {
    const headerless = join(scratch, "owned-headerless.jsonl");
    const lines = readFileSync(example("diamond.jsonl"), "utf8").split("\n");
    writeFileSync(headerless, lines.slice(1).join("\n"));
    const dag = example("diamond.dag.json");
    const page = await web.open();
    expect(await auditInPage(page, headerless)).toBe("error");
    await page.setInputFiles("#dag", dag);
    await page.waitForFunction(() => document.body.dataset.state === "done");
    expect(await page.textContent("#dag-owner")).toBe("for owned-headerless.jsonl");
    await expectShownAsCli(page, headerless, dag);
    await page.close();

    const fresh = await web.open();
    await fresh.setInputFiles("#dag", dag);
    expect(await fresh.textContent("#dag-owner")).toBe("for the next journal picked");
    expect(await auditInPage(fresh, headerless)).toBe("done");
    expect(await fresh.textContent("#dag-owner")).toBe("for owned-headerless.jsonl");
    await expectShownAsCli(fresh, headerless, dag);
    await fresh.close();
  });

  it("says clearly why a journal without its DAG, or with a bad DAG, cannot be audited", async () => {
    const headerless = join(scratch, "no-dag-headerless.jsonl");
    const lines = readFileSync(example("diamond.jsonl"), "utf8").split("\n");
    writeFileSync(headerless, lines.slice(1).join("\n"));
    const badDag = join(scratch, "bad.dag.json");
    writeFileSync(badDag, '{"nodes":5}\n');
    // A file whose line 1 is not JSON at all is test/web/header-errors.test.ts's.
    const cases: [journal: string, dag: string | undefined, message: RegExp][] = [
      [
        headerless,
        undefined,
        /no-dag-headerless\.jsonl: no DAG.*pick its DAG file too.*A JSONL journal is one JSON object per line/s,
      ],
      [
        example("runtime/campaign.lisp-expr"),
        undefined,
        /no DAG: a \.lisp-expr journal carries none: pick its DAG file too/,
      ],
      [
        example("diamond.jsonl"),
        badDag,
        /bad\.dag\.json:1:10: nodes: expected "nodes" to be an array/,
      ],
    ];
    for (const [journal, dag, message] of cases) {
      const page = await web.open();
      expect(await auditInPage(page, journal, dag)).toBe("error");
      const shown = (await page.textContent("#status")) ?? "";
      expect(shown).toMatch(/^Cannot audit this: /);
      expect(shown).toMatch(message);
      expect(await page.isVisible("#report")).toBe(false);
      await page.close();
    }
  });

  it("fetches nothing but the page's own files, and logs no error", () => {
    expect(web.requests.length).toBeGreaterThan(0);
    for (const url of web.requests) expect(url.startsWith(`${web.url}/`)).toBe(true);
    expect(web.requests.some((url) => url.endsWith(".wasm"))).toBe(true);
    expect(web.errors).toEqual([]);
  });
});

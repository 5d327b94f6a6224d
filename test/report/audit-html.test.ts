/**
 * `statefold audit --html` end to end: the built CLI writes the page, and headless Debian
 * Chromium opens it from disk as a person would. The screenshot is kept in test-artifacts/.
 */
import { copyFileSync, linkSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeAuditHtml } from "../../src/cli/audit-html.js";
import { UsageError } from "../../src/cli/command.js";
import { JournalError } from "../../src/journal/errors.js";
import { referenceEngine } from "../../src/models/dag/engine.js";
import { expectCleanFailure, REPO_ROOT, statefold } from "../cli/cli-process.js";
import { launchChromium } from "../support/chromium.js";
import { testTempDir } from "../support/temp-dirs.js";

const UNPROVEN_DISPATCH = "examples/violations/unproven-dispatch.jsonl";
const DIAMOND = "examples/diamond.jsonl";
const ARTIFACTS = join(REPO_ROOT, "test-artifacts");

/** Ids a page must show as text, never as markup. */
const AWKWARD_IDS = ['<img src=x onerror="document.title=1">', 'it\'s "quoted" & 😀'];
const AWKWARD_JOURNAL = [
  {
    statefold: "journal",
    version: 1,
    dag: {
      nodes: [
        { id: AWKWARD_IDS[0], deps: [] },
        { id: AWKWARD_IDS[1], deps: [AWKWARD_IDS[0]] },
      ],
    },
  },
  { kind: "dispatched", id: AWKWARD_IDS[1] },
]
  .map((line) => `${JSON.stringify(line)}\n`)
  .join("");

const work = testTempDir("statefold-html-");
const awkward = join(work, "awkward.jsonl");
const reportPath = join(work, "report.html");
let browser: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];
const requested: string[] = [];

beforeAll(async () => {
  writeFileSync(awkward, AWKWARD_JOURNAL);
  browser = await launchChromium(testTempDir("statefold-chromium-"));
  page = await browser.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(error.message));
  page.on("request", (request) => requested.push(request.url()));
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe("statefold audit --html", () => {
  it("writes the page and leaves the reports and the exit status as they were", async () => {
    const journals = [UNPROVEN_DISPATCH, DIAMOND, awkward];
    const plain = await statefold(["audit", "--format", "json", ...journals]);
    const withHtml = await statefold([
      "audit",
      "--format",
      "json",
      ...journals,
      "--html",
      reportPath,
    ]);
    expect(withHtml).toEqual(plain);
    expect(withHtml.code).toBe(1);
    const conformant = await statefold(["audit", DIAMOND, "--html", join(work, "diamond.html")]);
    expect(conformant.code).toBe(0);
    expect(readFileSync(join(work, "diamond.html"), "utf8")).toContain("strictly conformant");
  });

  it("writes the same page when the journals are audited on worker threads", async () => {
    // Workers send their reports back only for a page: the journals' output alone travels as text.
    const journals = [UNPROVEN_DISPATCH, DIAMOND, awkward, DIAMOND];
    const pages = [];
    for (const jobs of ["1", "2"]) {
      const page = join(work, `jobs-${jobs}.html`);
      const run = await statefold(["audit", "--jobs", jobs, ...journals, "--html", page]);
      expect(run.code).toBe(1);
      pages.push(readFileSync(page, "utf8"));
    }
    expect(pages[1]).toBe(pages[0]);
    expect(pages[0]).toContain("dispatched before its dependencies were proven");
    expect(pages[0]).toContain("awkward.jsonl");
  });

  it("opens in Chromium with no console error, fetching nothing, and shows the violation", async () => {
    const url = pathToFileURL(reportPath).href;
    await page.goto(url);
    expect(consoleErrors).toEqual([]);
    expect(requested.filter((address) => address !== url && address !== "data:,")).toEqual([]);

    const finding = page.locator("article.finding").first();
    expect(await finding.isVisible()).toBe(true);
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is asserted
    const text = await finding.innerText();
    expect(text).toContain("scheduleCorrect");
    expect(text).toContain("dispatched before its dependencies were proven");
    expect(text).toContain("line 11");
    expect(text).toContain('node "D"');
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is asserted
    expect(await finding.locator("li.offending").innerText()).toMatch(
      /^11\s+\{"ts":"2026-11-02T09:20:17\.724Z","seq":10,"kind":"dispatched","id":"D"/,
    );
    const summary = await page.locator("section.summary tbody tr").allInnerTexts();
    expect(summary.map((row) => row.split("\t").slice(0, 4))).toEqual([
      ["✗", UNPROVEN_DISPATCH, "not conformant", "13"],
      ["✓", DIAMOND, "strictly conformant", "21"],
      ["✗", awkward, "not conformant", "1"],
    ]);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "audit-html-report.png"), fullPage: true });
  });

  it("shows journal strings as text, never as markup", async () => {
    await page.goto(pathToFileURL(reportPath).href);
    expect(await page.locator("main img").count()).toBe(0);
    expect(await page.title()).toMatch(/^statefold audit: 1 of 3 journals conformant$/);
    const awkwardSection = page.locator("section.journal").nth(2);
    const svgIds = await awkwardSection.locator("svg.dag .node-id").allTextContents();
    expect(svgIds).toEqual([AWKWARD_IDS[0]?.slice(0, 16).concat("…"), AWKWARD_IDS[1]]);
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is asserted
    expect(await awkwardSection.locator("article.finding .where").innerText()).toContain(
      `node ${JSON.stringify(AWKWARD_IDS[1])}`,
    );
    expect(consoleErrors).toEqual([]);
  });

  it("refuses to overwrite a journal it audits, and writes nothing", async () => {
    const journal = join(work, "copy.jsonl");
    copyFileSync(join(REPO_ROOT, DIAMOND), journal);
    const run = await statefold(["audit", journal, "--html", journal]);
    expectCleanFailure(run);
    expect(run.stderr).toBe(
      `statefold: --html ${journal} is ${journal}, an input of the audit: refusing to overwrite it (see 'statefold audit --help')\n`,
    );
    expect(readFileSync(journal)).toEqual(readFileSync(join(REPO_ROOT, DIAMOND)));
  });
});

describe("writeAuditHtml", () => {
  const options = { modelFlags: {}, strict: false, inputs: [] };

  it("gives a journal read from standard input only its verdicts", async () => {
    const report = await referenceEngine.auditBytes(null, readFileSync(join(REPO_ROOT, DIAMOND)));
    const target = join(work, "stdin.html");
    const stdinName = "<stdin>";
    await writeAuditHtml(target, [{ file: stdinName, report }], { ...options, stdinName });
    expect(readFileSync(target, "utf8")).toContain(
      '<p class="omitted">The journal came from standard input, which cannot be read twice; only the verdicts are shown.</p>',
    );
  });

  it("refuses a target that is an input under another name (a hard link)", async () => {
    const journal = join(work, "linked.jsonl");
    const alias = join(work, "alias.html");
    copyFileSync(join(REPO_ROOT, DIAMOND), journal);
    linkSync(journal, alias);
    await expect(writeAuditHtml(alias, [], { ...options, inputs: [journal] })).rejects.toEqual(
      new UsageError(
        `--html ${alias} is ${journal}, an input of the audit: refusing to overwrite it`,
        "audit",
      ),
    );
    expect(readFileSync(journal)).toEqual(readFileSync(join(REPO_ROOT, DIAMOND)));
  });

  it("names the target and the reason when the page cannot be written", async () => {
    const target = join(work, "no-such-directory", "report.html");
    await expect(writeAuditHtml(target, [], options)).rejects.toEqual(
      new JournalError(target, "cannot write the HTML report: no such directory"),
    );
  });
});

/**
 * The in-browser auditor (web/) as its tests meet it: built by Vite into a temporary directory,
 * served on 127.0.0.1, opened in headless Debian Chromium; every request the page makes recorded,
 * so a test can check nothing is fetched from anywhere else.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Frame, Page } from "playwright-core";
import type { Report } from "../../src/models/dag/report.js";
import { launchChromium, serveFiles } from "../support/chromium.js";
import { testTempDir } from "../support/temp-dirs.js";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const ARTIFACTS = join(REPO_ROOT, "test-artifacts");

export interface WebPage {
  readonly url: string;
  readonly browser: BrowserContext;
  /** Every URL requested by the pages opened so far. */
  readonly requests: string[];
  /** Console errors and uncaught exceptions of the pages opened so far. */
  readonly errors: string[];
  open(): Promise<Page>;
  close(): Promise<void>;
}

/** Builds web/ with `npm run web:build`'s Vite config into a temporary directory and serves it. */
export async function buildAndServe(): Promise<WebPage> {
  const scratch = testTempDir("statefold-web-");
  const outDir = join(scratch, "site");
  execFileSync(
    join(REPO_ROOT, "node_modules/.bin/vite"),
    [
      "build",
      "--config",
      "web/vite.config.ts",
      "--outDir",
      outDir,
      "--emptyOutDir",
      "--logLevel",
      "error",
    ],
    { cwd: REPO_ROOT, stdio: "pipe" },
  );
  const served: { url: string; server: Server } = await serveFiles(outDir, {});
  const browser = await launchChromium(join(scratch, "profile"));
  const requests: string[] = [];
  const errors: string[] = [];
  return {
    url: served.url,
    browser,
    requests,
    errors,
    async open() {
      const page = await browser.newPage();
      page.on("request", (request) => requests.push(request.url()));
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(`${served.url}/index.html`);
      return page;
    },
    async close() {
      await browser.close();
      served.server.close();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** Picks the DAG file (if any), then the journal, and waits for the page's answer. */
export async function auditInPage(
  page: Page,
  journal: string,
  dag?: string,
  timeout = 60_000,
): Promise<"done" | "error"> {
  if (dag !== undefined) await page.setInputFiles("#dag", dag);
  await page.setInputFiles("#journal", journal);
  await page.waitForFunction(
    () => document.body.dataset.state === "done" || document.body.dataset.state === "error",
    undefined,
    { timeout, polling: 100 },
  );
  return (await page.evaluate(() => document.body.dataset.state)) as "done" | "error";
}

/** Picks a model file as the page's Model file and waits for its check: "model-checked" or "error". */
export async function pickModelFile(
  page: Page,
  modelFile: string,
  timeout = 30_000,
): Promise<"model-checked" | "error"> {
  await page.setInputFiles("#model-file", modelFile);
  await page.waitForFunction(
    () =>
      document.body.dataset.state === "model-checked" || document.body.dataset.state === "error",
    undefined,
    { timeout, polling: 100 },
  );
  return (await page.evaluate(() => document.body.dataset.state)) as "model-checked" | "error";
}

/** The report the page shows as JSON. */
export async function shownReport(page: Page): Promise<Report> {
  return JSON.parse((await page.textContent("#report-json")) ?? "null") as Report;
}

/** The frame holding the HTML report's view. */
export async function reportFrame(page: Page): Promise<Frame> {
  const frame = await (await page.$("#report"))?.contentFrame();
  if (frame == null) throw new Error("the page shows no report frame");
  return frame;
}

/** What `statefold audit --format json` prints for one journal (the built CLI, as a person runs it). */
export function cliReport(journal: string, dag?: string): Report {
  const args = ["dist/src/cli/main.js", "audit", "--format", "json", "--quiet"];
  if (dag !== undefined) args.push("--dag", dag);
  const run = spawnSync(process.execPath, [...args, journal], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (run.status !== 0 && run.status !== 1) {
    throw new Error(`statefold audit exited ${run.status}: ${run.stderr}`);
  }
  return JSON.parse(run.stdout) as Report;
}

export function screenshotPath(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}

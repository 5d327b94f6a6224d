/**
 * The in-browser auditor on a generated ~200 MB journal: the worker streams it from the `File`
 * while the page stays responsive — progress updates arrive throughout and the main thread's
 * timers keep firing — and the verdict is the command line's. Too large to be read whole for
 * context (over the report's 128 MB bound), it gets its verdicts and says why. What was measured
 * is printed and kept in test-artifacts/web-200mb.json, with a screenshot.
 */
import { execFileSync } from "node:child_process";
import { rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
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

const scratch = testTempDir("statefold-web-large-");
const journal = join(scratch, "campaign-200mb.jsonl");
let web: WebPage;
let generateMs = 0;

beforeAll(async () => {
  const started = performance.now();
  execFileSync(
    process.execPath,
    [
      "dist/src/cli/main.js",
      "gen",
      "--nodes",
      "20000",
      "--events",
      "1250000",
      "--seed",
      "6",
      "--inject",
      "unproven-dispatch",
      "--inject",
      "illegal-transition:3",
      "--out",
      journal,
    ],
    { cwd: REPO_ROOT, stdio: "pipe" },
  );
  generateMs = performance.now() - started;
  web = await buildAndServe();
}, 120_000);

afterAll(async () => {
  await web?.close();
  rmSync(scratch, { recursive: true, force: true });
});

interface Observed {
  /** Each value the progress bar took, with when (ms since the file was picked). */
  readonly progress: { readonly at: number; readonly bytes: number }[];
  /** The longest gap between two ticks of a 20 ms timer on the page's main thread. */
  readonly longestTimerGapMs: number;
  readonly ticks: number;
}

it("audits a generated 200 MB journal in the worker with progress while the page stays responsive, verdict as the CLI's", async () => {
  const bytes = statSync(journal).size;
  expect(bytes).toBeGreaterThan(190 * 2 ** 20);
  const cliStarted = performance.now();
  const expected = cliReport(journal);
  const cliMs = performance.now() - cliStarted;
  expect(expected.conformant).toBe(false);

  const page = await web.open();
  // Watch the page from inside: every progress value, and a timer on its main thread.
  await page.evaluate(() => {
    const bar = document.getElementById("progress") as HTMLProgressElement;
    const start = performance.now();
    const observed = {
      progress: [] as { at: number; bytes: number }[],
      longestTimerGapMs: 0,
      ticks: 0,
    };
    new MutationObserver(() => {
      observed.progress.push({ at: performance.now() - start, bytes: bar.value });
    }).observe(bar, { attributes: true, attributeFilter: ["value"] });
    let last = performance.now();
    setInterval(() => {
      const now = performance.now();
      if (document.body.dataset.state === "auditing") {
        observed.longestTimerGapMs = Math.max(observed.longestTimerGapMs, now - last);
        observed.ticks += 1;
      }
      last = now;
    }, 20);
    (globalThis as unknown as { observed: typeof observed }).observed = observed;
  });
  // And from outside: the page answers while it audits.
  const roundTrips: number[] = [];
  const started = performance.now();
  const answer = auditInPage(page, journal, undefined, 240_000);
  let state = "auditing";
  while (state === "auditing" || state === undefined) {
    const asked = performance.now();
    state = (await page.evaluate(() => document.body.dataset.state)) ?? "auditing";
    roundTrips.push(performance.now() - asked);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(await answer).toBe("done");
  const pageMs = performance.now() - started;
  const observed = await page.evaluate(
    () => (globalThis as unknown as { observed: Observed }).observed,
  );

  expect(await shownReport(page)).toEqual(expected);
  const frame = await reportFrame(page);
  expect((await frame.textContent(".journal h2 .pill"))?.trim()).toBe("not conformant");
  expect(await frame.textContent(".omitted")).toContain("over the 128 MB");

  const values = observed.progress.map((update) => update.bytes);
  expect(values.length).toBeGreaterThanOrEqual(10);
  for (let i = 1; i < values.length; i++) {
    expect(values[i]).toBeGreaterThanOrEqual(values[i - 1] as number);
  }
  expect(values.at(-1)).toBe(bytes);
  // Updates come throughout the audit, not in one burst at the end.
  const halfway = observed.progress.find((update) => update.bytes >= bytes / 2);
  expect(halfway?.at ?? Number.POSITIVE_INFINITY).toBeLessThan(
    (observed.progress.at(-1)?.at ?? 0) - 100,
  );
  expect(observed.ticks).toBeGreaterThan(10);
  expect(observed.longestTimerGapMs).toBeLessThan(1_000);
  expect(Math.max(...roundTrips)).toBeLessThan(1_000);

  const measured = {
    journalBytes: bytes,
    events: expected.events,
    generateMs: Math.round(generateMs),
    cliAuditMs: Math.round(cliMs),
    pageAuditMs: Math.round(pageMs),
    progressUpdates: values.length,
    firstUpdateMs: Math.round(observed.progress[0]?.at ?? 0),
    lastUpdateMs: Math.round(observed.progress.at(-1)?.at ?? 0),
    longestMainThreadTimerGapMs: Math.round(observed.longestTimerGapMs),
    mainThreadTicks: observed.ticks,
    evaluateRoundTrips: roundTrips.length,
    longestEvaluateRoundTripMs: Math.round(Math.max(...roundTrips)),
  };
  writeFileSync(screenshotPath("web-200mb.json"), `${JSON.stringify(measured, null, 2)}\n`);
  console.log("in-browser auditor, 200 MB journal:", measured);
  await page.screenshot({ path: screenshotPath("web-200mb.png"), fullPage: true });
  await page.close();
  expect(web.errors).toEqual([]);
}, 240_000);

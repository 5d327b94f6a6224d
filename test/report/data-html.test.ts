/**
 * A model defined by data in the HTML report (src/report/data/html.ts): each listed finding with
 * its rule's description from the model file and the record it was found at, as the journal
 * writes it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { escapeHtml } from "../../src/report/escape-html.js";
import { statefoldInProcess } from "../cli/cli-process.js";
import { testTempDir } from "../support/temp-dirs.js";

describe("the HTML report of a journal of a model file", () => {
  it("quotes each finding's record as written, beside its rule's description", async () => {
    const journal = "examples/data/payment-intents-violations.jsonl";
    const html = join(testTempDir("statefold-data-html-"), "report.html");
    const run = await statefoldInProcess([
      "audit",
      "--model",
      "examples/data/payment-intents.json",
      journal,
      "--html",
      html,
    ]);
    expect(run.code).toBe(1);
    const page = readFileSync(html, "utf8");
    const duplicate = readFileSync(journal, "utf8").split("\n")[4] as string;
    expect(page).toContain(`<pre>${escapeHtml(duplicate)}</pre>`);
    expect(page).toContain(
      escapeHtml("an intent is created once, under an id no other intent had"),
    );
    expect(page).not.toContain("parsed");
  });
});

/**
 * A model defined by data in the HTML report (src/report/data/html.ts): each listed finding — and
 * each broken rule's first when it is not listed — with its rule's description from the model
 * file, the record it was found at as the journal writes it, the instance it concerns with its
 * states before and after that record, and the values it compared.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readDataJournal } from "../../src/journal/data/read.js";
import { checkModel } from "../../src/models/data/check.js";
import { auditDataJournals } from "../../src/models/data/engine.js";
import type { DataReport } from "../../src/models/data/report.js";
import { dataHtml } from "../../src/report/data/html.js";
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
    const kept = readFileSync(journal, "utf8").split("\n")[3] as string;
    expect(page).toContain(
      `<td>${escapeHtml('intent "pi_3Qa1"')}<br><span class="states">processing → succeeded</span></td>`,
    );
    expect(page).toContain(
      `<td class="compared">${escapeHtml("$amount (1200) == @amount (1250) does not hold")}</td><td><pre>${escapeHtml(kept)}</pre></td>`,
    );
    expect(page).toContain(`<td class="compared">seq expected 4, found 5</td>`);
    expect(page).toContain(
      `<span class="states">none → none</span></td><td>lifecycle<br><span class="detail">`,
    );
  });

  it("shows each broken rule's first finding beyond those listed, with its states", async () => {
    const unknown = Array.from({ length: 10 }, (_, i) => ({ k: "start", id: `x${i}` }));
    const body = await bodyOf(
      jobs(),
      lines([
        ...unknown,
        { k: "made", id: "a", v: 1 },
        { k: "start", id: "a" },
        { k: "finish", id: "a", v: 2 },
      ]),
    );
    const [listed, firsts] = body.split(
      "<h3>The first finding of each rule broken only after those</h3>",
    );
    expect(listed).toContain(`<p class="note">… and 1 more, not listed.</p>`);
    expect(firsts).toContain(
      `<tr><td>line 13 (event 12)</td><td>finish</td><td>${escapeHtml('job "a"')}<br><span class="states">running → done</span></td><td>kept<br><span class="detail">a job finishes with the value it was made with</span></td>`,
    );
    expect(firsts).toContain(
      `<td class="compared">${escapeHtml("$v (2) == @v (1) does not hold")}</td><td><pre>${escapeHtml('{"k":"finish","id":"a","v":2}')}</pre></td></tr>`,
    );
  });

  it("quotes and replays a journal of a stream split by key: that journal's records only", async () => {
    const body = await bodyOf(
      jobs({ journal: { key: "q" } }),
      lines([
        { q: "A", k: "made", id: "a", v: 1 },
        { q: "B", k: "made", id: "a", v: 2 },
        { q: "B", k: "start", id: "a" },
        { q: "B", k: "finish", id: "a", v: 1 },
      ]),
      1,
    );
    expect(body).toContain(
      `<td>line 4 (event 2)</td><td>finish</td><td>${escapeHtml('job "a"')}<br><span class="states">running → done</span></td>`,
    );
    expect(body).toContain(
      `<td class="compared">${escapeHtml("$v (1) == @v (2) does not hold")}</td><td><pre>${escapeHtml('{"q":"B","k":"finish","id":"a","v":1}')}</pre></td>`,
    );
  });

  it("shows only the verdicts, and says why, when the journal no longer gives its findings", async () => {
    const model = checkModel(jobs(), "model.json");
    const report = auditDataJournals(model, lines([{ k: "start", id: "a" }]))[0] as DataReport;
    const read = readDataJournal(model, lines([{ k: "made", id: "a" }]), "j.jsonl");
    const html = dataHtml(model);
    const view = await html.gatherView({
      file: "j.jsonl",
      report,
      journal: { header: read.header, fields: null, events: read.events, lines: read.lines },
      quote: async () => new Map(),
    });
    expect(view.context).toEqual({
      gathered: false,
      why: "The journal is not the one audited any more: replayed, it gives other findings",
    });
    expect(html.renderBody(view)).toContain(`<td>${escapeHtml('job "a"')}</td><td>lifecycle`);
  });
});

/** The body dataHtml renders for a journal read again, gathered as the page and the command line gather it. */
async function bodyOf(file: ModelFile, bytes: Uint8Array, journal = 0): Promise<string> {
  const model = checkModel(file, "model.json");
  const report = auditDataJournals(model, bytes)[journal] as DataReport;
  const read = readDataJournal(model, bytes, "j.jsonl");
  const html = dataHtml(model);
  const view = await html.gatherView({
    file: "j.jsonl",
    report,
    journal: { header: read.header, fields: null, events: read.events, lines: read.lines },
    quote: async () => new Map(),
  });
  return html.renderBody(view);
}

type ModelFile = Record<string, unknown>;

function jobs(extra: ModelFile = {}): ModelFile {
  return {
    statefold: "model",
    version: 1,
    name: "jobs",
    records: {
      source: "lines",
      kind: { path: "k" },
      fields: {
        id: { path: "id", type: "string" },
        q: { path: "q", type: "string" },
        v: { path: "v", type: "int" },
      },
    },
    entities: { job: { states: ["queued", "running", "done"], final: ["done"], slots: ["v"] } },
    kinds: {
      made: [
        { new: "job", key: "$id", to: "queued" },
        { put: "@v", value: "$v" },
      ],
      start: [{ step: "job", key: "$id", from: ["queued"], to: "running", rule: "lifecycle" }],
      finish: [
        { step: "job", key: "$id", from: ["running"], to: "done", rule: "lifecycle" },
        { check: ["$v", "==", "@v"], rule: "kept" },
      ],
    },
    rules: { kept: "a job finishes with the value it was made with" },
    ...extra,
  };
}

function lines(records: readonly unknown[]): Uint8Array {
  return new TextEncoder().encode(records.map((record) => `${JSON.stringify(record)}\n`).join(""));
}

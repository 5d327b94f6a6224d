/**
 * What the page says of each model (web/model-guides.ts) and which of its audits takes a model's
 * journals (web/page-audits.ts): a model defined by data is told and audited from its own file,
 * whatever its name, so a model file picked in the page gets the same guide and audit as a shipped
 * one.
 */
import { describe, expect, it } from "vitest";
import { checkModel } from "../../src/models/data/check.js";
import { dataModel } from "../../src/models/data/model.js";
import type { Model } from "../../src/models/model.js";
import { MODELS, PROGRAM_MODELS, SHIPPED_DATA_MODELS } from "../../src/models/registry.js";
import { isDataModel } from "../../web/data/page-audit.js";
import { dataModelGuide, journalShape, modelGuide } from "../../web/model-guides.js";
import { PAGE_AUDITS, pageAuditOf } from "../../web/page-audits.js";

/** A model file's model, with `source` as its records' source. */
function modelWith(source: unknown) {
  const file = {
    statefold: "model",
    version: 1,
    name: "orders",
    records: { source, kind: { path: "type" } },
    kinds: { placed: [] },
  };
  return dataModel("orders", checkModel(file, "orders.json"), "the model file orders.json");
}

describe("the page's guide to a model defined by data", () => {
  it("says a JSONL model's journal is JSONL with an optional header", () => {
    expect(journalShape({ lines: true })).toBe(
      'Its journal is JSONL, one record a line; a header line (`{"statefold":"journal","version":1}`) is optional.',
    );
  });

  it("names a document model's one array, or each of its alternatives in the file's order", () => {
    expect(journalShape(modelWith({ array: "deliveries" }).compiled.source)).toBe(
      "Its journal is one JSON document (`.json`), whose records are the array at `deliveries`.",
    );
    const alternatives = modelWith([
      { array: "events" },
      { array: "history.events" },
      { array: "" },
    ]);
    expect(journalShape(alternatives.compiled.source)).toBe(
      "Its journal is one JSON document (`.json`), whose records are the array at `events`, the array at `history.events` or the document itself, whichever it has.",
    );
  });

  it("points a shipped model at its doc, and a model file at the file and the format's doc", () => {
    for (const model of SHIPPED_DATA_MODELS) {
      expect(modelGuide(model)).toBe(
        `${model.summary}: a model defined by data. ${journalShape(model.compiled.source)} Nothing is picked beside it; its rules, and what a finding means: docs/models/${model.name}.md.`,
      );
    }
    expect(dataModelGuide(modelWith("lines"))).toMatch(
      /^the model file orders\.json: a model defined by data\. Its journal is JSONL.*: the model file, and docs\/models\/data\.md\.$/,
    );
  });

  it("keeps its own guide for each model written as a program", () => {
    for (const model of PROGRAM_MODELS) expect(modelGuide(model)).not.toContain("defined by data");
  });
});

describe("the page's audit of a model's journals", () => {
  it("tells a model defined by data by its compiled file, and a document model from a JSONL one", () => {
    expect(MODELS.filter(isDataModel).map((model) => model.name)).toEqual(
      SHIPPED_DATA_MODELS.map((model) => model.name),
    );
    expect(isDataModel(modelWith("lines"))).toBe(true);
    const readsDocuments = (model: Model) => model.commandLine.readsDocuments === true;
    expect(readsDocuments(modelWith("lines"))).toBe(false);
    expect(readsDocuments(modelWith({ array: "" }))).toBe(true);
    for (const model of PROGRAM_MODELS) expect(readsDocuments(model)).toBe(false);
  });

  it("gives a program its own page audit, and any data model one that loads the data kernel", () => {
    for (const model of PROGRAM_MODELS) expect(pageAuditOf(model)).toBe(PAGE_AUDITS[model.name]);
    const data = pageAuditOf(modelWith("lines"));
    expect(Object.values(PAGE_AUDITS)).not.toContain(data);
    const wasm = data.kernel().wasm;
    expect(String(wasm)).toMatch(/\/build\/statefold-data(\.simd)?\.wasm$/);
  });
});

/**
 * Files dropped on the page (web/dropped.ts): a model file is told from a journal and a DAG file
 * by its name and its opening, so one dropped with its journal becomes the page's Model.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { looksLikeModelFile, MODEL_FILE_HEAD_BYTES } from "../../web/dropped.js";
import { REPO_ROOT } from "./web-page.js";

const head = (path: string) =>
  readFileSync(join(REPO_ROOT, "examples", path), "utf8").slice(0, MODEL_FILE_HEAD_BYTES);

describe("a file dropped on the page", () => {
  it("is a model file when it is YAML, or JSON that says it is one", () => {
    for (const path of ["data/payment-intents.json", "data/orders.json", "data/ci-jobs.yaml"]) {
      expect(looksLikeModelFile(path, head(path))).toBe(true);
    }
    expect(looksLikeModelFile("M.YML", "")).toBe(true);
    expect(looksLikeModelFile("spaced.json", '{\n  "statefold" :  "model",')).toBe(true);
  });

  it("is not when it is a journal or a DAG file, whatever it holds", () => {
    const others = [
      "temporal/java-test-server.json",
      "data/ci-jobs.journal.json",
      "diamond.dag.json",
      "diamond.jsonl",
      "data/payment-intents.jsonl",
    ];
    for (const path of others) expect(looksLikeModelFile(path, head(path))).toBe(false);
    expect(looksLikeModelFile("header.jsonl", '{"statefold":"model"}')).toBe(false);
    expect(looksLikeModelFile("journal.json", '{"statefold":"journal","version":1}')).toBe(false);
  });
});

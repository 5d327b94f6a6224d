/**
 * What a journal whose header is missing, misplaced or wrong is told (docs/journals.md, "The
 * header" and "Journals without a header"), on both engines: the same words, naming the line,
 * the column and what was found.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { expectCleanFailure, statefoldInProcess, tempFile } from "./cli-process.js";

const ENGINES = ["wasm", "reference"] as const;
const EXECUTIVE = readFileSync("examples/executive/conformant.jsonl", "utf8");
const [EXECUTIVE_HEADER = "", ...EXECUTIVE_LINES] = EXECUTIVE.split("\n");

/** The executive example with its header line replaced by `header`. */
function executiveWithHeader(header: string): string {
  return [header, ...EXECUTIVE_LINES].join("\n");
}

async function audit(engine: string, content: string | Uint8Array, ...flags: string[]) {
  const file = tempFile("j.jsonl", content);
  return { file, run: await statefoldInProcess(["audit", file, "--engine", engine, ...flags]) };
}

describe.each(ENGINES)("header errors (%s)", (engine) => {
  it("an executive header's refusal names the field from the header down, and what it holds", async () => {
    const budget = executiveWithHeader(EXECUTIVE_HEADER.replace('"steps":40,', '"steps":-1,'));
    const bad = await audit(engine, budget);
    expectCleanFailure(bad.run);
    expect(bad.run.stderr).toBe(
      `statefold: ${bad.file}:1:435: header.budget.steps: expected a spec and budget the executive accepts, found -1 (invalid-budget)\n`,
    );
    const cycle = executiveWithHeader(
      EXECUTIVE_HEADER.replace('"id":"outline","deps":[]', '"id":"outline","deps":["draft"]'),
    );
    const cyclic = await audit(engine, cycle);
    expectCleanFailure(cyclic.run);
    expect(cyclic.run.stderr).toMatch(
      /^statefold: .*j\.jsonl:1:\d+: header\.spec\.plan\.steps: expected a spec and budget the executive accepts, found an array of 3 items \(cycle\)\n$/,
    );
  });

  it("a header that names no model leaves the model to --model: an executive run audits as one", async () => {
    const unnamed = executiveWithHeader(EXECUTIVE_HEADER.replace('"model":"executive",', ""));
    const asExecutive = await audit(engine, unnamed, "--model", "executive");
    expect(asExecutive.run).toMatchObject({ code: 0, stderr: "" });
    expect(asExecutive.run.stdout).toContain("strictly conformant (9 events)");
    const asDag = await audit(engine, unnamed);
    expectCleanFailure(asDag.run);
    expect(asDag.run.stderr).toBe(
      `statefold: ${asDag.file}:1:1: header: expected a field "dag" {"nodes": [...]}, found none\n`,
    );
  });

  it("reads only line 1 as the header: after a blank line 1, an operations header is a malformed record", async () => {
    const operations = readFileSync("examples/operations/cancellation.jsonl", "utf8");
    const { run } = await audit(engine, `\n${operations}`, "--model", "operations");
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/line 2 .*malformed-event/);
  });

  it("a line 1 that is not JSON is named as such, with its column and what was found, never asked for", async () => {
    const operations = readFileSync("examples/operations/cancellation.jsonl", "utf8");
    const typo = operations.replace('"model":"operations"}', '"model":"operations"');
    const notJson = await audit(engine, typo);
    expectCleanFailure(notJson.run);
    expect(notJson.run.stderr).toBe(
      `statefold: ${notJson.file}:1:56: line 1 is not JSON (expected ',' or '}', found the end of the text), so it is no header: correct it if it is the header\n`,
    );
    const executive = await audit(engine, EXECUTIVE.replace("}}\n", "}\n"), "--model", "executive");
    expectCleanFailure(executive.run);
    expect(executive.run.stderr).toMatch(
      /j\.jsonl:1:\d+: line 1 is not JSON \(expected ',' or '}', found the end of the text\), so it is no header: correct it if it is the header\n$/,
    );
    const garbage = await audit(engine, new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x0a, 0x7b, 0x7d]));
    expectCleanFailure(garbage.run);
    expect(garbage.run.stderr).toBe(
      `statefold: ${garbage.file}:1:3: line 1 is not UTF-8 text, so it is no header: correct it if it is the header\n`,
    );
  });

  it("a headerless journal of another model's records is asked whether that model was meant", async () => {
    for (const [model, example] of [
      ["operations", "examples/operations/cancellation.jsonl"],
      ["executive", "examples/executive/conformant.jsonl"],
    ]) {
      const records = readFileSync(example as string, "utf8")
        .split("\n")
        .slice(1)
        .join("\n");
      const { file, run } = await audit(engine, records);
      expectCleanFailure(run);
      expect(run.stderr).toBe(
        `statefold: ${file}: no DAG: line 1 is a record, not a header; it looks like a journal of the ${model} model: did you mean --model ${model}?\n`,
      );
    }
  });

  it("a blank line 1 is named when a header is needed", async () => {
    const { file, run } = await audit(engine, `\n${EXECUTIVE}`);
    expectCleanFailure(run);
    expect(run.stderr).toBe(
      `statefold: ${file}: no DAG: line 1 is blank, and a journal header is only read on the first line: add a header line {"statefold":"journal","version":1,"dag":{"nodes":[...]}} or pass --dag FILE\n`,
    );
  });
});

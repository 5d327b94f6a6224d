/**
 * `statefold replay` takes every model from the registry (src/cli/replay.ts over each model's
 * `replay`): a journal of any model replays to its state as JSON on each engine that prints it,
 * and the kernel is refused, naming the model, where the reference alone prints the state. In
 * process, through runCli, on journals `statefold gen` writes.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ENGINE_NAMES } from "../../src/cli/engine.js";
import type { Model } from "../../src/models/model.js";
import { MODELS } from "../../src/models/registry.js";
import { statefoldInProcess, tempFile } from "./cli-process.js";

/**
 * A journal of the model and the arguments that name it: one `statefold gen` writes, whose header
 * names its model, or — for a model defined by data, which has no generator — its bundled history.
 */
async function journalArguments(model: Model): Promise<string[]> {
  if (model.gen === undefined) {
    const folder = join("examples", model.name);
    const [history] = readdirSync(folder)
      .filter((name) => name.endsWith(".json"))
      .sort();
    return [join(folder, history as string), "--model", model.name];
  }
  const run = await statefoldInProcess([
    "gen",
    "--model",
    model.name,
    "--events",
    "60",
    "--seed",
    "3",
  ]);
  expect(run.code).toBe(0);
  return [tempFile(`${model.name}.jsonl`, run.stdout)];
}

describe("replay of every model's journal", () => {
  it.each(MODELS.map((model) => [model.name, model] as const))(
    "prints the state a %s journal folds to, on each engine that can",
    async (_name, model) => {
      const journal = await journalArguments(model);
      const engines = ENGINE_NAMES.filter((engine) => model.replay.onKernel || engine !== "wasm");
      const printed = await Promise.all(
        engines.map((engine) => statefoldInProcess(["replay", ...journal, "--engine", engine])),
      );
      for (const run of printed) {
        expect(run.stderr).toBe("");
        expect(run.code).toBe(0);
        expect(() => JSON.parse(run.stdout)).not.toThrow();
        expect(run.stdout).toBe(printed[0]?.stdout);
      }
    },
  );

  it.each(
    MODELS.filter((model) => !model.replay.onKernel).map((model) => [model.name, model] as const),
  )("refuses the kernel for a %s journal, naming its model", async (name, model) => {
    const run = await statefoldInProcess([
      "replay",
      ...(await journalArguments(model)),
      "--engine",
      "wasm",
    ]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(
      new RegExp(
        `^statefold: replay of an? ${name} journal runs on the reference engine: pass --engine reference`,
      ),
    );
  });
});

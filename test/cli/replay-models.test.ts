/**
 * `statefold replay` takes every model from the registry (src/cli/replay.ts over each model's
 * `replay`): a journal of any model replays to its state as JSON on each engine that prints it,
 * and the kernel is refused, naming the model, where the reference alone prints the state. In
 * process, through runCli, on journals `statefold gen` writes.
 */
import { describe, expect, it } from "vitest";
import { ENGINE_NAMES } from "../../src/cli/engine.js";
import { MODELS } from "../../src/models/registry.js";
import { statefoldInProcess, tempFile } from "./cli-process.js";

async function generated(model: string): Promise<string> {
  const run = await statefoldInProcess(["gen", "--model", model, "--events", "60", "--seed", "3"]);
  expect(run.code).toBe(0);
  return tempFile(`${model}.jsonl`, run.stdout);
}

describe("replay of every model's journal", () => {
  it.each(MODELS.map((model) => [model.name, model] as const))(
    "prints the state a %s journal folds to, on each engine that can",
    async (name, model) => {
      const journal = await generated(name);
      const engines = ENGINE_NAMES.filter((engine) => model.replay.onKernel || engine !== "wasm");
      const printed = await Promise.all(
        engines.map((engine) => statefoldInProcess(["replay", journal, "--engine", engine])),
      );
      for (const run of printed) {
        expect(run.stderr).toBe("");
        expect(run.code).toBe(0);
        expect(() => JSON.parse(run.stdout)).not.toThrow();
        expect(run.stdout).toBe(printed[0]?.stdout);
      }
    },
  );

  it.each(MODELS.filter((model) => !model.replay.onKernel).map((model) => [model.name] as const))(
    "refuses the kernel for a %s journal, naming its model",
    async (name) => {
      const run = await statefoldInProcess(["replay", await generated(name), "--engine", "wasm"]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(
        new RegExp(
          `^statefold: replay of an? ${name} journal runs on the reference engine: pass --engine reference`,
        ),
      );
    },
  );
});

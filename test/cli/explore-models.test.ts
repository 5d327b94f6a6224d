/**
 * `statefold explore` takes its model from the registry (src/explore/facet.ts): the flags a model
 * declares are refused under every other model by name, each goes with the kind of run its
 * model says, and the help sets every model's pieces.
 */
import { describe, expect, it } from "vitest";
import { EXPLORABLE_MODELS } from "../../src/models/registry.js";
import { statefoldInProcess } from "./cli-process.js";

describe("statefold explore and the registry", () => {
  it("refuses a flag a model declares under every other model, naming its model", async () => {
    const refused: string[] = [];
    for (const model of EXPLORABLE_MODELS) {
      const own = new Set(model.explore.flags.map(({ name }) => name));
      for (const owner of EXPLORABLE_MODELS.filter((other) => other !== model)) {
        for (const { name } of owner.explore.flags.filter((flag) => !own.has(flag.name))) {
          const result = await statefoldInProcess([
            "explore",
            "--model",
            model.name,
            `--${name}`,
            "1",
          ]);
          expect(result.code, `${model.name} --${name}`).toBe(2);
          expect(result.stderr).toContain(
            `--${name} is a flag of the ${owner.name} model, not of ${model.name}`,
          );
          refused.push(name);
        }
      }
    }
    expect(refused.length).toBeGreaterThan(0);
  });

  it("takes a model's flag with the runs it goes with only", async () => {
    for (const model of EXPLORABLE_MODELS) {
      for (const { name, goesWith } of model.explore.flags) {
        const flag = ["--model", model.name, `--${name}`, "1"];
        if (goesWith === "driver") {
          const result = await statefoldInProcess(["explore", ...flag]);
          expect(result.code, `${model.name} --${name}`).toBe(2);
          expect(result.stderr).toContain(`--${name} goes with --driver`);
        }
        if (goesWith === "exploration") {
          const result = await statefoldInProcess(["explore", ...flag, "--driver", "true"]);
          expect(result.code, `${model.name} --${name}`).toBe(2);
          expect(result.stderr).toContain(`--${name} explores the model itself, not a --driver`);
        }
      }
    }
  });

  it("sets every model's usage, paragraph, options and --driver lines in its help", async () => {
    const { stdout, code } = await statefoldInProcess(["explore", "--help"]);
    expect(code).toBe(0);
    for (const { name, explore } of EXPLORABLE_MODELS) {
      const { usage, description, options, driver, driverOptions } = explore.help;
      expect(stdout, name).toContain(usage.exploration[0]);
      expect(stdout, name).toContain(`\n${description}\n`);
      expect(stdout, name).toContain(`\n${options}\n`);
      expect(stdout, name).toContain(`\n${driver}\n`);
      if (driverOptions !== undefined) expect(stdout, name).toContain(`\n${driverOptions}\n`);
      expect(stdout, name).toMatch(
        new RegExp(`\\b${explore.depth} for ${name}\\b|default ${explore.depth};`),
      );
    }
  });
});

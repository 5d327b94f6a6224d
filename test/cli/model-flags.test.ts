/**
 * The models' own flags and journal formats (src/cli/model-flags.ts): every command that audits
 * takes every registered model's flags and says so in its help, a journal refuses another
 * model's flag, and a journal in a format a model reads itself is that model's.
 */
import { describe, expect, it } from "vitest";
import { modelEngine, modelKernel } from "../../src/cli/engine.js";
import { givenModelFlags, modelFlagsHelp } from "../../src/cli/model-flags.js";
import { ownFormatOf, refuseForeignFlags } from "../../src/journal/model-inputs.js";
import type { Model } from "../../src/models/model.js";
import { MODELS } from "../../src/models/registry.js";
import { statefoldInProcess } from "./cli-process.js";

const models: readonly Model[] = MODELS;
const flagsOf = (model: Model) => model.commandLine.flags;

describe("the models' flags", () => {
  it("are in the usage and the help of every command that audits", async () => {
    for (const command of ["audit", "gate", "worker", "watch"]) {
      const run = await statefoldInProcess([command, "--help"]);
      for (const flag of models.flatMap(flagsOf)) {
        expect(run.stdout).toContain(`[--${flag.name} ${flag.value}]`);
        expect(run.stdout).toMatch(new RegExp(`\\n {2}--${flag.name} ${flag.value} +\\S`));
      }
    }
  });

  it("are wrapped in the help at the width asked for, from their column on", () => {
    for (const line of modelFlagsHelp(22, 60, true).trimEnd().split("\n")) {
      expect(line.length).toBeLessThanOrEqual(60);
      expect(line.slice(0, 22).trim() === "" || line.startsWith("  --")).toBe(true);
    }
  });

  it("are read from a command's values, other values left out", () => {
    const [flag] = models.flatMap(flagsOf);
    if (flag === undefined) return;
    expect(givenModelFlags({ [flag.name]: "f", strict: true, format: "json" })).toEqual({
      [flag.name]: "f",
    });
  });

  it("are refused on a journal of another model, naming both", () => {
    for (const owner of models) {
      for (const flag of flagsOf(owner)) {
        refuseForeignFlags("j.jsonl", owner, { [flag.name]: "f" });
        for (const other of models.filter((model) => model !== owner)) {
          expect(() => refuseForeignFlags("j.jsonl", other, { [flag.name]: "f" })).toThrow(
            `j.jsonl: --${flag.name} is for ${owner.name} journals; an ${other.name} journal needs none`,
          );
        }
      }
    }
  });

  it("--dag is refused by gate on an executive journal, as audit refuses it", async () => {
    const journal = "examples/executive/conformant.jsonl";
    for (const command of ["gate", "audit"]) {
      const run = await statefoldInProcess([
        command,
        journal,
        "--dag",
        "examples/diamond.dag.json",
      ]);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        `statefold: ${journal}: --dag is for dag journals; an executive journal needs none\n`,
      );
    }
  });
});

describe("the models' own journal formats", () => {
  it("make a journal of their extension their model's, and a JSONL journal no model's own", () => {
    for (const model of models) {
      for (const format of model.commandLine.ownFormats) {
        expect(ownFormatOf(`runs/a${format.extension}`)?.model).toBe(model);
      }
    }
    expect(ownFormatOf("runs/a.jsonl")).toBeNull();
  });
});

describe("a model's engines", () => {
  it("are its own, and its kernel is loaded once per process", async () => {
    for (const model of models) {
      expect(modelKernel(model)).toBe(modelKernel(model));
      expect((await modelEngine(model, "wasm")).name).toBe("wasm");
      expect(await modelEngine(model, "reference")).toBe(await model.reference());
    }
  });
});

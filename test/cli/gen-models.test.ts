/**
 * `statefold gen` takes every model from the registry (src/cli/gen.ts over each model's `gen`):
 * a fault or a flag of one model given to another is refused naming the model it belongs to,
 * whichever two models they are. In process, through runCli.
 */
import { describe, expect, it } from "vitest";
import { GENERATING_MODELS } from "../../src/models/registry.js";
import { statefoldInProcess } from "./cli-process.js";

const generators = await Promise.all(
  GENERATING_MODELS.map(async (model) => ({ name: model.name, generator: await model.gen() })),
);

const pairs = generators.flatMap((chosen) =>
  generators.filter((other) => other !== chosen).map((other) => [chosen, other] as const),
);

describe("gen --model A with what belongs to model B", () => {
  it.each(pairs.map(([chosen, other]) => [chosen.name, other.name, chosen, other] as const))(
    "--model %s refuses a fault of %s, naming it",
    async (_, __, chosen, other) => {
      const kind = other.generator.faultKinds[0] as string;
      const run = await statefoldInProcess(["gen", "--model", chosen.name, "--inject", kind]);
      expect(run.code).toBe(2);
      const kinds = chosen.generator.faultKinds.map((name) => `'${name}'`).join(", ");
      expect(run.stderr).toBe(
        `statefold: --inject ${kind} is a fault of --model ${other.name}; the faults of --model ${chosen.name} are ${kinds} (see 'statefold gen --help')\n`,
      );
    },
  );

  it.each(
    pairs.flatMap(([chosen, other]) =>
      other.generator.flags.map((flag) => [chosen.name, flag, other.name] as const),
    ),
  )("--model %s refuses --%s, an option of %s", async (chosen, flag, other) => {
    const run = await statefoldInProcess(["gen", "--model", chosen, `--${flag}`, "1"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `statefold: --${flag} is an option of --model ${other}, not ${chosen} (see 'statefold gen --help')\n`,
    );
  });
});

/**
 * The shipped models (docs/models/temporal.md, cadence.md, stepfunctions.md) against the histories
 * their systems wrote (test/data/real-histories, its README says where each came from).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CompiledModel } from "../../../src/models/data/compiled.js";
import { parseModelFile } from "../../../src/models/data/load.js";

const SHIPPED = join(import.meta.dirname, "../../../src/models/data/shipped");

function shippedModel(name: string): CompiledModel {
  const file = join(SHIPPED, `${name}.json`);
  return parseModelFile(readFileSync(file), file);
}

const temporal = shippedModel("temporal");
const cadence = shippedModel("cadence");
const stepfunctions = shippedModel("stepfunctions");

describe("the shipped model files", () => {
  it("are named as the command line names them", () => {
    expect([temporal.name, cadence.name, stepfunctions.name]).toEqual([
      "temporal",
      "cadence",
      "stepfunctions",
    ]);
  });

  it("describe every rule, the engine's own included, for a user of that system", () => {
    const undescribed = [temporal, cadence, stepfunctions].flatMap((model) =>
      model.rules
        .filter((rule) => rule.description === null)
        .map((rule) => `${model.name}: ${rule.name}`),
    );
    expect(undescribed).toEqual([]);
  });

  it("read Temporal's event types in both spellings", () => {
    for (const kind of temporal.kinds) {
      const enumName = `EVENT_TYPE_${kind.name.replace(/(?<!^)(?=[A-Z])/g, "_").toUpperCase()}`;
      expect(temporal.kindOf.get(enumName)).toBe(temporal.kindOf.get(kind.name));
    }
  });
});

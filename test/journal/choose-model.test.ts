import { describe, expect, it } from "vitest";
import { chooseModel } from "../../src/journal/choose-model.js";

describe("chooseModel", () => {
  it("takes the header's model, else the given one, else dag", () => {
    expect(chooseModel("j.jsonl", "operations", undefined)).toBe("operations");
    expect(chooseModel("j.jsonl", null, "executive")).toBe("executive");
    expect(chooseModel("j.jsonl", "executive", "executive")).toBe("executive");
    expect(chooseModel("j.jsonl", null, undefined)).toBe("dag");
  });

  it("refuses a header and a given model that differ, with the article the name takes", () => {
    expect(() => chooseModel("j.jsonl", "dag", "executive")).toThrow(
      'j.jsonl: expected an "executive" journal (--model), found one whose header names the model "dag"',
    );
    expect(() => chooseModel("j.jsonl", "dag", "operations")).toThrow(
      'expected an "operations" journal (--model)',
    );
    expect(() => chooseModel("j.jsonl", "operations", "dag", "the dag engine")).toThrow(
      'j.jsonl: expected a "dag" journal (the dag engine), found one whose header names the model "operations"',
    );
  });
});

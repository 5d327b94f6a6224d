/**
 * Flags that take a number: a value that is not one the flag takes is a usage error (exit 2)
 * naming the flag, what it takes and the value found — a negative one given as the next argument
 * (`--jobs -1`) included, which the argument parser would otherwise call ambiguous.
 */
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/cli/command.js";
import { integerFlag, probabilityFlag } from "../../src/cli/number-flags.js";
import { statefoldInProcess } from "./cli-process.js";

/** Every numeric flag of every command, with the smallest value it takes. */
const INTEGER_FLAGS: readonly (readonly [command: readonly string[], flag: string, min: number])[] =
  [
    [["audit", "examples/diamond.jsonl"], "--jobs", 1],
    [["gen"], "--nodes", 0],
    [["gen"], "--events", 0],
    [["gen"], "--seed", 0],
    [["gen"], "--max-deps", 0],
    [["gen"], "--parallelism", 1],
    [["gen"], "--surface-paths-max", 1],
    [["gen", "--model", "operations"], "--events", 0],
    [["gen", "--model", "operations"], "--strands", 1],
    [["gen", "--model", "executive"], "--events", 0],
    [["explore"], "--depth", 0],
    [["explore"], "--nodes", 1],
    [["explore"], "--paths", 0],
    [["explore", "--driver", "node"], "--driver-timeout", 1],
    [["explore", "--model", "operations"], "--strands", 1],
    [["explore", "--model", "operations"], "--ops", 1],
    [["explore", "--model", "operations"], "--keys", 1],
    [["explore", "--model", "operations"], "--attempts", 1],
    [["explore", "--model", "operations"], "--leases", 0],
  ];

describe("numeric flags on the command line", () => {
  it.each(INTEGER_FLAGS)(
    "%j %s says what is wrong with a negative value",
    async (args, flag, min) => {
      for (const given of [[flag, "-5"], [`${flag}=-5`]]) {
        const run = await statefoldInProcess([...args, ...given]);
        expect(run.code).toBe(2);
        expect(run.stdout).toBe("");
        expect(run.stderr).toContain(`${flag} must be a whole number ≥ ${min}, found '-5'`);
      }
    },
  );

  it("says what is wrong with a negative probability", async () => {
    const run = await statefoldInProcess(["gen", "--pass-rate", "-0.5"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--pass-rate must be a number from 0 to 1, found '-0.5'");
  });

  it("still refuses a flag where a value was due", async () => {
    const run = await statefoldInProcess(["gen", "--events", "--seed", "3"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("'--events'");
  });
});

describe("integerFlag", () => {
  const refusal = (value: string, min = 0) => {
    try {
      integerFlag("gen", "--events", value, min);
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      return (error as Error).message;
    }
    throw new Error(`'${value}' was taken`);
  };

  it("takes whole numbers from its minimum on", () => {
    expect(integerFlag("gen", "--events", "0")).toBe(0);
    expect(integerFlag("audit", "--jobs", "12", 1)).toBe(12);
    expect(integerFlag("gen", "--events", "9007199254740991")).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("names what it takes and what it found", () => {
    expect(refusal("0", 1)).toBe("--events must be a whole number ≥ 1, found '0'");
    expect(refusal("-1")).toBe("--events must be a whole number ≥ 0, found '-1'");
    expect(refusal("1.5")).toBe("--events must be a whole number ≥ 0, found '1.5'");
    expect(refusal("1e3")).toBe("--events must be a whole number ≥ 0, found '1e3'");
    expect(refusal("")).toBe("--events must be a whole number ≥ 0, found ''");
  });

  it("says a number too large to hold exactly is too large", () => {
    expect(refusal("9007199254740992")).toBe(
      "--events must be at most 9007199254740991, found '9007199254740992'",
    );
  });
});

describe("probabilityFlag", () => {
  it("takes a decimal number from 0 to 1 and names anything else", () => {
    expect(probabilityFlag("gen", "--pass-rate", ".25")).toBe(0.25);
    expect(() => probabilityFlag("gen", "--pass-rate", "1.5")).toThrow(
      "--pass-rate must be a number from 0 to 1, found '1.5'",
    );
  });
});

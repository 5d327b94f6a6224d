import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectCleanFailure, REPO_ROOT, statefold, statefoldInProcess } from "./cli-process.js";

describe("statefold usage", () => {
  it.each(["--help", "-h"])("%s prints the top-level help on stdout", async (flag) => {
    const run = await statefold([flag]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^Usage: statefold <command> \[options\]\n/);
    for (const command of ["audit", "replay", "layers", "gate", "gen"])
      expect(run.stdout).toContain(`\n  ${command} `);
  });

  it.each([
    ["audit", "--help"],
    ["audit", "-h"],
    ["replay", "--help"],
    ["replay", "-h"],
    ["layers", "--help"],
    ["layers", "-h"],
    ["gate", "--help"],
    ["gate", "-h"],
    ["gen", "--help"],
    ["gen", "-h"],
  ])("%s %s prints the command's help on stdout", async (command, flag) => {
    const run = await statefoldInProcess([command, flag]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Usage: statefold ${command} `));
    expect(run.stdout).toContain("Exit status:");
  });

  it("--version prints the package version", async () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    expect(await statefoldInProcess(["--version"])).toEqual({
      code: 0,
      stdout: `${version}\n`,
      stderr: "",
    });
  });

  it("no arguments: the help on stderr, exit 2", async () => {
    const run = await statefoldInProcess([]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^Usage: statefold/);
  });

  it.each([
    [["frobnicate"], "statefold: unknown command 'frobnicate' (see 'statefold --help')\n"],
    [["--frobnicate"], "statefold: unknown option '--frobnicate' (see 'statefold --help')\n"],
    [
      ["audit", "--frobnicate", "x.jsonl"],
      "statefold: unknown option '--frobnicate' (see 'statefold audit --help')\n",
    ],
    [
      ["replay", "-x", "x.jsonl"],
      "statefold: unknown option '-x' (see 'statefold replay --help')\n",
    ],
    [
      ["layers", "--dag", "d.json", "x.jsonl"],
      "statefold: unknown option '--dag' (see 'statefold layers --help')\n",
    ],
    [["audit"], "statefold: audit needs at least one journal (see 'statefold audit --help')\n"],
    [
      ["audit", "x.jsonl", "--dag"],
      "statefold: option '--dag <value>' argument missing (see 'statefold audit --help')\n",
    ],
    [
      ["audit", "--format", "xml", "x.jsonl"],
      "statefold: --format must be 'text' or 'json' or 'ndjson', found 'xml' (see 'statefold audit --help')\n",
    ],
    [
      ["audit", "--engine", "turbo", "x.jsonl"],
      "statefold: --engine must be 'wasm' or 'reference', found 'turbo' (see 'statefold audit --help')\n",
    ],
    [["layers"], "statefold: layers takes one file, found 0 (see 'statefold layers --help')\n"],
  ])("%j is a usage error, exit 2", async (args, stderr) => {
    const run = await statefoldInProcess(args);
    expectCleanFailure(run);
    expect(run.stderr).toBe(stderr);
    expect(run.stdout).toBe("");
  });

  it("reports a usage error from the bin itself in one line, exit 2", async () => {
    const run = await statefold(["audit", "--frobnicate", "x.jsonl"]);
    expectCleanFailure(run);
    expect(run.stderr).toBe(
      "statefold: unknown option '--frobnicate' (see 'statefold audit --help')\n",
    );
  });

  it("--engine reference is the default engine, spelled out", async () => {
    expect(
      (await statefoldInProcess(["audit", "--engine", "reference", "examples/diamond.jsonl"])).code,
    ).toBe(0);
  });
});

/**
 * The help describes statefold as it is, with several models: the top-level help and the
 * description of every command that takes `--model` name each model, and the command table's
 * summaries share one column whatever the length of a command's name.
 */
import { describe, expect, it } from "vitest";
import { journalsAreDocuments } from "../../src/cli/model-choice.js";
import {
  EXPLORABLE_MODELS,
  GENERATING_MODELS,
  MODEL_NAMES,
  MODELS,
} from "../../src/models/registry.js";
import { statefoldInProcess } from "./cli-process.js";

async function help(args: readonly string[]): Promise<string> {
  const run = await statefoldInProcess([...args, "--help"]);
  expect(run.code).toBe(0);
  return run.stdout;
}

/** The command table's rows: two spaces, the name, at least two spaces, the summary. */
function commandRows(topHelp: string): { name: string; summaryColumn: number }[] {
  const table = topHelp.slice(topHelp.indexOf("Commands:\n"), topHelp.indexOf("\n\nOptions:"));
  return table
    .split("\n")
    .slice(1)
    .map((row) => {
      const match = /^ {2}(\S+) {2,}\S/.exec(row);
      if (match === null) throw new Error(`a command row without two columns: '${row}'`);
      return { name: match[1] ?? "", summaryColumn: match[0].length - 1 };
    });
}

/** What a command's help says before its options: its description, usage lines aside. */
function description(commandHelp: string): string {
  const body = commandHelp.slice(commandHelp.indexOf("\n\n"), commandHelp.indexOf("\nOptions"));
  return body.replace(/\s+/g, " ");
}

/** The models a command's --model takes, where it takes fewer than every model. */
const TAKES: Readonly<Record<string, readonly string[]>> = {
  gen: GENERATING_MODELS.map((model) => model.name),
  explore: EXPLORABLE_MODELS.map((model) => model.name),
  // A journal that is a JSON document is written whole: there is nothing to watch it grow.
  watch: MODEL_NAMES.filter((model) => !journalsAreDocuments(model)),
};

const namesModel = (text: string, model: string) => new RegExp(`\\b${model}\\b`).test(text);

describe("statefold --help", () => {
  it("sets every command's summary in one column, apart from the longest name", async () => {
    const rows = commandRows(await help([]));
    expect(rows.map((row) => row.name)).toEqual([
      "audit",
      "replay",
      "layers",
      "gate",
      "gen",
      "executive",
      "enqueue",
      "worker",
      "results",
      "watch",
      "explore",
    ]);
    expect(new Set(rows.map((row) => row.summaryColumn)).size).toBe(1);
  });

  it("lists each model's own commands after the shared command each names, with its summary", async () => {
    const topHelp = await help([]);
    const names = commandRows(topHelp).map((row) => row.name);
    const ownCommands = MODELS.flatMap((model) => model.commands);
    for (const command of ownCommands) {
      const followed = names.slice(0, names.indexOf(command.name)).reverse();
      const sharedBefore = followed.find((name) => !ownCommands.some((own) => own.name === name));
      expect(sharedBefore, command.name).toBe(command.after);
      expect(topHelp).toMatch(new RegExp(`\\n  ${command.name} +${command.summary}\\n`));
      expect((await help([command.name])).startsWith(`Usage: statefold ${command.name} `)).toBe(
        true,
      );
    }
  });

  it("describes every model, not the work DAG's alone", async () => {
    const text = description(await help([]));
    expect(MODEL_NAMES.filter((model) => !namesModel(text, model))).toEqual([]);
    expect(text).not.toContain("the six invariants,");
  });
});

describe("a command's help", () => {
  it("gen --help sets every model's faults in one column, apart from the longest kind", async () => {
    const genHelp = await help(["gen"]);
    const faults = genHelp.slice(
      genHelp.indexOf("\n  --inject"),
      genHelp.indexOf("\n  --out FILE"),
    );
    const rows = faults.split("\n").filter((row) => /^ {4}\S/.test(row));
    expect(rows.length).toBeGreaterThan(20);
    const columns = rows.map((row) => /^ {4}\S+ {2,}(?=\S)/.exec(row)?.[0].length ?? row);
    expect(new Set(columns)).toEqual(new Set([columns[0]]));
    expect(typeof columns[0]).toBe("number");
  });

  it("describes every model the command takes, where it takes --model", async () => {
    const undescribed: string[] = [];
    for (const command of commandRows(await help([])).map((row) => row.name)) {
      const commandHelp = await help([command]);
      if (!commandHelp.includes("--model NAME")) continue;
      const text = description(commandHelp);
      for (const model of TAKES[command] ?? MODEL_NAMES) {
        if (!namesModel(text, model)) undescribed.push(`${command}: ${model}`);
      }
    }
    expect(undescribed).toEqual([]);
  });
});

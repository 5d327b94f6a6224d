/**
 * The models' own flags and journal formats (src/journal/model-command-line.ts), gathered from the
 * registry for the commands that audit: every command takes every registered model's flags, and
 * a journal is given only its own model's.
 */
import type { ModelFlagValues } from "../journal/model-command-line.js";
import { MODEL_FLAGS, refuseForeignFlags } from "../journal/model-inputs.js";
import type { Model } from "../models/model.js";
import { MODELS } from "../models/registry.js";

export type { ModelFlagValues } from "../journal/model-command-line.js";

/** Every model flag as `parseArgs` options: each takes a value. */
export function modelFlagOptions(): Record<string, { readonly type: "string" }> {
  return Object.fromEntries(MODEL_FLAGS.map(({ flag }) => [flag.name, { type: "string" }]));
}

/** The model flags among a command's parsed values. */
export function givenModelFlags(values: Readonly<Record<string, unknown>>): ModelFlagValues {
  const given: Record<string, string> = {};
  for (const { flag } of MODEL_FLAGS) {
    const value = values[flag.name];
    if (typeof value === "string") given[flag.name] = value;
  }
  return given;
}

/** `[--dag FILE]`…: the model flags in a command's usage line. */
export function modelFlagsUsage(): string {
  return MODEL_FLAGS.map(({ flag }) => `[--${flag.name} ${flag.value}]`).join(" ");
}

/**
 * The model flags' lines of a command's help: each flag, its help from `column` on, wrapped to
 * lines of at most `width` characters; `ownFormats` when the command reads the models' own
 * journal formats too.
 */
export function modelFlagsHelp(column: number, width: number, ownFormats: boolean): string {
  return MODEL_FLAGS.map(({ flag }) => {
    const lines: string[] = [];
    let line = `  --${flag.name} ${flag.value}`.padEnd(column);
    const help = ownFormats ? flag.help + (flag.helpWithOwnFormats ?? "") : flag.help;
    for (const word of help.split(" ")) {
      const started = line.length > column;
      if (started && line.length + 1 + word.length > width) {
        lines.push(line);
        line = " ".repeat(column) + word;
      } else {
        line += started ? ` ${word}` : word;
      }
    }
    return `${[...lines, line].join("\n")}\n`;
  }).join("");
}

/**
 * The engine options a journal of `model` is audited with: its flags' (files read), refused when
 * another model's flag is given.
 */
export function modelEngineOptions(
  file: string,
  model: Model,
  given: ModelFlagValues,
): Promise<object> {
  refuseForeignFlags(file, model, given);
  return model.commandLine.engineOptions(given);
}

/** Reads the files the given flags name once: one error for a bad file, not one per journal. */
export async function readModelFlagFiles(given: ModelFlagValues): Promise<void> {
  for (const model of MODELS as readonly Model[]) {
    if (model.commandLine.flags.some((flag) => flag.name in given)) {
      await model.commandLine.engineOptions(given);
    }
  }
}

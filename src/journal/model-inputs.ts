/**
 * The models' own inputs, gathered from the registry: their flags (a journal is given only its
 * own model's) and the journal formats they read themselves beside JSONL (the dag's
 * `.lisp-expr`), by the end of a file's name.
 */
import type { Model } from "../models/model.js";
import { MODELS, type ModelName } from "../models/registry.js";
import { chooseModel } from "./choose-model.js";
import { JournalError } from "./errors.js";
import type { ModelFlag, OwnJournalFormat } from "./model-command-line.js";
import { contentName } from "./read-file-bytes.js";

export type { ModelFlagValues } from "./model-command-line.js";

import type { ModelFlagValues } from "./model-command-line.js";

export const MODEL_FLAGS: readonly { readonly model: Model; readonly flag: ModelFlag }[] =
  MODELS.flatMap((model: Model) => model.commandLine.flags.map((flag) => ({ model, flag })));

/** A journal of one model has no use for another's flags: given one, it is refused. */
export function refuseForeignFlags(file: string, model: Model, given: ModelFlagValues): void {
  const foreign = MODEL_FLAGS.find(
    ({ model: owner, flag }) => owner !== model && flag.name in given,
  );
  if (foreign === undefined) return;
  const { flag, model: owner } = foreign;
  throw new JournalError(
    file,
    `--${flag.name} is for ${owner.name} journals; an ${model.name} journal needs none`,
  );
}

/**
 * The model that reads this journal file itself, and how; null for a JSONL journal. A gzipped
 * file (`x.lisp-expr.gz`) is of the format its name has before `.gz`.
 */
export function ownFormatOf(
  path: string,
): { readonly model: Model; readonly format: OwnJournalFormat<unknown> } | null {
  const name = contentName(path);
  for (const model of MODELS as readonly Model[]) {
    const format = model.commandLine.ownFormats.find((own) => name.endsWith(own.extension));
    if (format !== undefined) return { model, format };
  }
  return null;
}

/** The name endings of the journal files the models read themselves (`.lisp-expr`). */
export const OWN_FORMAT_EXTENSIONS: readonly string[] = MODELS.flatMap((model: Model) =>
  model.commandLine.ownFormats.map((format) => format.extension),
);

/**
 * The model of a journal in a model's own format: that model, unless another was given (`given`,
 * named in the refusal as `givenAs`: `--model`, the page's Model).
 */
export function ownFormatModel(
  path: string,
  own: { readonly model: Model; readonly format: OwnJournalFormat<unknown> },
  given: ModelName | undefined,
  givenAs: string,
): ModelName {
  const named = own.model.name as ModelName;
  const why = `${givenAs}; a ${own.format.extension} journal is a ${named} journal`;
  return chooseModel(path, named, given, why);
}

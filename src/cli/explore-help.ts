import { DEFAULT_MODEL, EXPLORABLE_MODELS, type ExplorableModel } from "../models/registry.js";

/** The help's prose keeps within this many columns; a list that would not is wrapped. */
const HELP_WIDTH = 96;
/** Where an option's description starts. */
const OPTION_INDENT = " ".repeat(20);
/** Where a usage form's continuation lines start: under its first flag. */
const USAGE_INDENT = " ".repeat(25);

const DEFAULT_FIRST: readonly ExplorableModel[] = [
  ...EXPLORABLE_MODELS.filter((model) => model.name === DEFAULT_MODEL),
  ...EXPLORABLE_MODELS.filter((model) => model.name !== DEFAULT_MODEL),
];

export function exploreHelp(driverTimeoutMs: number): string {
  return `${usage()}

Explores the model exhaustively up to a bound: from every initial state, every sequence of the
model's public actions up to --depth, breadth first, each state met once (states are told apart
by all the rules can still see of them). Every step must log a legal event and keep every
invariant, and the journal of every distinct state must be strictly conformant and get the
same report from the WebAssembly engine as from the reference. Each rule found broken is
shown by the first journal that broke it, shrunk: records removed while the same rule still
fails first at the same kind of record. A bound is not a proof: what lies past it is not
explored.

${DEFAULT_FIRST.map((model) => model.explore.help.description).join("\n\n")}

Options:
${options(driverTimeoutMs).join("\n")}

Exit status: 0 nothing found, 1 a finding, 2 bad usage, unreadable input or a driver's failure.
`;
}

function usage(): string {
  const command = (model: ExplorableModel) =>
    model.name === DEFAULT_MODEL
      ? `statefold explore [--model ${model.name}]`
      : `statefold explore --model ${model.name}`;
  const form = (start: string, [first, ...rest]: readonly string[]) =>
    [`${start} ${first}`, ...rest].join(`\n${USAGE_INDENT}`);
  const forms = [
    ...DEFAULT_FIRST.map((model) => form(command(model), model.explore.help.usage.exploration)),
    ...DEFAULT_FIRST.flatMap((model) => {
      const driver = model.explore.help.usage.driver;
      return driver === undefined ? [] : [form(`${command(model)} --driver CMD`, driver)];
    }),
  ];
  return `Usage: ${forms.join("\n       ")}`;
}

function options(driverTimeoutMs: number): string[] {
  const [first, ...others] = DEFAULT_FIRST;
  const help = (model: ExplorableModel) => model.explore.help;
  return [
    `  --model NAME      the model to explore: ${modelChoice()}`,
    ...(first === undefined ? [] : [help(first).options]),
    depthOption(),
    ...others.map((model) => help(model).options),
    faultsOption(),
    MUTANTS_OPTION,
    ...DEFAULT_FIRST.map((model) => help(model).driver),
    ...DEFAULT_FIRST.flatMap((model) => help(model).driverOptions ?? []),
    `  --driver-timeout MS  the longest a driver may take to answer (default ${driverTimeoutMs})`,
    OUT_AND_FORMAT_OPTIONS,
    "  -h, --help        show this help",
  ];
}

/** `dag (the default), operations or executive`. */
function modelChoice(): string {
  const names = DEFAULT_FIRST.map((model) =>
    model.name === DEFAULT_MODEL ? `${model.name} (the default)` : model.name,
  );
  const last = names.pop();
  return names.length === 0 ? `${last}` : `${names.join(", ")} or ${last}`;
}

/** `--depth D`, with each model's default: no model's default split across two lines. */
function depthOption(): string {
  const [first, ...others] = DEFAULT_FIRST;
  const chunks =
    others.length === 0
      ? [`(default ${first?.explore.depth})`]
      : [
          `(default ${first?.explore.depth};`,
          ...others.map(
            (model, i) =>
              `${model.explore.depth} for ${model.name}${i === others.length - 1 ? ")" : ","}`,
          ),
        ];
  const lines = ["  --depth D         the longest action sequence explored"];
  for (const chunk of chunks) {
    const line = lines.at(-1) as string;
    if (line.length + 1 + chunk.length <= HELP_WIDTH) lines[lines.length - 1] = `${line} ${chunk}`;
    else lines.push(`${OPTION_INDENT}${chunk}`);
  }
  return lines.join("\n");
}

/** `--faults`: the shared faults, then each model's own. */
function faultsOption(): string {
  const own = DEFAULT_FIRST.flatMap((model) => {
    const faults = model.explore.help.faults;
    return faults === undefined
      ? []
      : [`; for ${model.name} also ${faults.replaceAll("\n", `\n${OPTION_INDENT}`)}`];
  });
  return `  --faults          also inject faults into every distinct state's journal — a record twice,
                    a record lost, two swapped, the final write torn — and print what the
                    audit caught, by which rules, and what it could not tell (masked); and
                    split every journal at every line by a snapshot and a resume, which must
                    give the whole audit's report${own.join("")}`;
}

const MUTANTS_OPTION = `  --mutants         also explore, to the same bound, each of the model's deliberate mutants —
                    a one-line change of the reference's meaning (a gate timeout counted as a
                    pass, a dispatch that does not check dependencies, …) — beside the
                    reference, until a journal gets another report or final state from it; each
                    killed mutant is shown with that journal, shrunk; a survivor is a finding
                    (the bound or the rules are too weak to see it)`;

const OUT_AND_FORMAT_OPTIONS = `  --out DIR         write each counterexample as a journal file in DIR (made if missing; a
                    file already there is never written over): finding-N-RULE.jsonl,
                    mutant-NAME.jsonl — each one \`statefold audit\` reads — and, for a driver,
                    divergence-actions.jsonl, the actions that show the divergence; for an
                    effect runtime, finding-1-WHAT.jsonl, its journal, and
                    finding-1-WHAT-schedule.jsonl, the events that show the finding
  --format FORMAT   text (default) or json: the evidence — configuration, bound, counts,
                    findings with their shrunk journals, the fault matrix, the mutants`;

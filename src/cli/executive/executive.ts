/**
 * `statefold executive SPEC BUDGET` (docs/models/executive.md, "The command"): the executive
 * machine used as a tool. Observations arrive on stdin, one JSON value per line; each is
 * answered with the machine's decision, and stdout is the journal — its header, then each
 * observation with its decision — so that a run recorded this way audits as conformant.
 */
import { createInterface } from "node:readline";
import type { WasmExecutiveEngine } from "../../../bindings/executive/index.js";
import { JournalError } from "../../journal/errors.js";
import { readExecutiveRunFiles } from "../../journal/executive/files.js";
import { type ExecutiveMachine, referenceExecutive } from "../../models/executive/index.js";
import { executiveModel } from "../../models/executive/model.js";
import { plural } from "../../text/format-units.js";
import {
  type CliOutput,
  type Command,
  ExitCode,
  oneOf,
  parseCommand,
  UsageError,
} from "../command.js";
import { DEFAULT_ENGINE, ENGINE_NAMES, modelKernel } from "../engine.js";
import { STDIN_NAME } from "../journal-inputs.js";

const HELP = `Usage: statefold executive <spec.json> <budget.json>

Runs the executive machine: reads observations from standard input, one JSON value per line
({"tag":"start","now":0}, {"tag":"result","seq":1,...}, ...), and writes the journal to standard
output — a header with the spec and budget, then each observation with the machine's decision:

  {"observation":{"tag":"start","now":0},"decision":{"tag":"execute","seq":1,...}}

Audit the journal later with statefold audit. Blank lines are skipped; a line that is not JSON is
an error naming it (exit 2), after the lines before it were answered.

Options:
  --engine NAME  wasm (default: the machine on the WebAssembly kernel) or reference (the plain
                 TypeScript machine; the same decisions)
  -h, --help     show this help

Exit status: 0 when every observation was answered, 2 for bad usage or unreadable input.
`;

export const executiveCommand: Command = {
  name: "executive",
  help: HELP,
  run: runExecutive,
};

async function runExecutive(args: readonly string[], output: CliOutput): Promise<number> {
  const parsed = parseCommand(executiveCommand, args, output, { engine: { type: "string" } });
  if (parsed === null) return ExitCode.conformant;
  const { positionals, values } = parsed;
  const engineName =
    values.engine === undefined
      ? DEFAULT_ENGINE
      : oneOf("executive", "--engine", values.engine, ENGINE_NAMES);
  const [specFile, budgetFile, ...extra] = positionals;
  if (specFile === undefined || budgetFile === undefined || extra.length > 0) {
    throw new UsageError(
      `executive takes a spec file and a budget file, found ${plural(positionals.length, "argument")}`,
      "executive",
    );
  }
  const read = readExecutiveRunFiles(specFile, budgetFile);
  const machine: ExecutiveMachine<unknown> =
    engineName === "wasm"
      ? ((await modelKernel(executiveModel)) as WasmExecutiveEngine).machine
      : referenceExecutive;
  const made = machine.initialState(read.spec, read.budget);
  if (!("state" in made)) throw new Error("statefold: a checked spec was refused");
  let state = made.state;
  const write = output.stdoutPaced ?? (async (text: string) => output.stdout(text));
  const header = { statefold: "journal", version: 1, model: "executive", spec: read.spec };
  await write(`${JSON.stringify({ ...header, budget: read.budget })}\n`);
  let lineNumber = 0;
  for await (const line of createInterface({
    input: process.stdin,
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    lineNumber += 1;
    if (line.trim() === "") continue;
    let observation: unknown;
    try {
      observation = JSON.parse(line);
    } catch {
      throw new JournalError(
        STDIN_NAME,
        "expected an observation as JSON, found a line that is not",
        lineNumber,
      );
    }
    const result = machine.step(state, observation);
    state = result.state;
    await write(`${JSON.stringify({ observation, decision: result.decision })}\n`);
  }
  return ExitCode.conformant;
}

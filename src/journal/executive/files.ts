/**
 * The executive model's spec and budget files (`statefold executive`, `explore --model
 * executive`), read and checked as a journal's header is: a refusal names the file its path lies
 * in (docs/models/executive.md, "Spec and budget").
 */
import type { ExecutiveRun } from "../../models/executive/audit.js";
import { readParsedSpec } from "../../models/executive/spec.js";
import { JournalError } from "../errors.js";
import { parseJsonFile } from "../json-file.js";
import { describeJsonPath } from "../json-value-error.js";
import { readFileBytes } from "../read-file-bytes.js";

export function readExecutiveRunFiles(specFile: string, budgetFile: string): ExecutiveRun {
  const spec = parseJsonFile(readFileBytes(specFile), specFile, 'a spec {"task", "plan"}').value;
  const budget = parseJsonFile(
    readFileBytes(budgetFile),
    budgetFile,
    'a budget {"steps", "depth", …}',
  ).value;
  const read = readParsedSpec(spec, budget);
  if (read.ok) return { spec: read.spec, budget: read.budget };
  const [first, ...rest] = read.rejection.path;
  const inBudget = first === "budget";
  const where = describeJsonPath(inBudget ? rest : read.rejection.path) || "the top level";
  throw new JournalError(
    inBudget ? budgetFile : specFile,
    `refused (${read.rejection.reason}) at ${where}`,
  );
}

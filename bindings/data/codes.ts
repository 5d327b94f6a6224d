/**
 * The data kernel's codes (assembly/data/report.ts Reason, assembly/data/record.ts Problem)
 * turned back into the reference's words, by position; test/bindings/data/pack-model.test.ts
 * holds them to the kernel's namespaces.
 */

import { noJournalKeyMessage } from "../../src/models/data/audit.js";
import type { CompiledModel } from "../../src/models/data/compiled.js";
import { recordProblemMessage } from "../../src/models/data/record.js";
import { DATA_REASONS, type DataReason } from "../../src/models/data/report.js";

export const REASONS: readonly DataReason[] = DATA_REASONS;

export const PROBLEMS = [
  "invalid-utf8",
  "invalid-json",
  "not-an-object",
  "kind-not-a-string",
  "wrong-type",
  "no-journal-key",
] as const;

export type Problem = (typeof PROBLEMS)[number];

/** The message of a record's integrity fault, the reference's (src/models/data/audit.ts, record.ts). */
export function integrityMessage(model: CompiledModel, problem: Problem, field: number): string {
  switch (problem) {
    case "invalid-utf8":
      return "the line is not valid UTF-8";
    case "invalid-json":
      return "the line is not valid JSON";
    case "not-an-object":
    case "kind-not-a-string":
      return recordProblemMessage(model, { problem });
    case "wrong-type":
      return recordProblemMessage(model, { problem, field });
    case "no-journal-key":
      return noJournalKeyMessage(model, field);
    default: {
      const unreachable: never = problem;
      return unreachable;
    }
  }
}

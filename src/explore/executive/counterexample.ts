/**
 * Counterexamples of the executive model (docs/explore.md, "Counterexamples"): the first rule a
 * journal breaks and the rules of each line, and shrinking while the same rule still fails
 * first at a line of the same observation tag.
 */
import {
  auditExecutive,
  type ExecutiveReport,
  type ExecutiveRun,
} from "../../models/executive/audit.js";
import { shrinkKeepingFailure } from "../shrink.js";

function tagAt(lines: readonly unknown[], index: number): unknown {
  const line = lines[index] as { observation?: { tag?: unknown } } | undefined;
  return line?.observation?.tag;
}

/** The first rule the report says was broken, and the line that broke it. */
export function firstBroken(
  report: ExecutiveReport,
  lines: readonly unknown[],
): { rule: string; index: number; kind: unknown } | null {
  if (report.integrity !== null) {
    const { index } = report.integrity;
    return { rule: `integrity (${report.integrity.reason})`, index, kind: tagAt(lines, index) };
  }
  let first: { rule: string; index: number; kind: unknown } | null = null;
  for (const [rule, verdict] of Object.entries(report.invariants)) {
    if (verdict.holds || (first !== null && verdict.index >= first.index)) continue;
    first = { rule, index: verdict.index, kind: tagAt(lines, verdict.index) };
  }
  return first;
}

/** The rules each line breaks: its integrity fault, each rule whose first breach it is, a mismatch. */
export function rulesByLine(report: ExecutiveReport, lines: readonly unknown[]): string[][] {
  const rules = lines.map((): string[] => []);
  if (report.integrity !== null)
    rules[report.integrity.index]?.push(`integrity (${report.integrity.reason})`);
  for (const [rule, verdict] of Object.entries(report.invariants)) {
    if (!verdict.holds) rules[verdict.index]?.push(rule);
  }
  for (const mismatch of report.legality.first) {
    rules[mismatch.index]?.push(
      `legality (${mismatch.reason}: expected ${JSON.stringify(mismatch.expected)})`,
    );
  }
  return rules;
}

/** The journal shrunk while it fails first by the same rule at a line of the same observation tag. */
export function shrinkFailure(run: ExecutiveRun, lines: readonly unknown[]): Promise<unknown[]> {
  return shrinkKeepingFailure(lines, (candidate) =>
    firstBroken(auditExecutive(run, candidate), candidate),
  );
}

/**
 * Counterexamples of the operations model (docs/explore.md, "Counterexamples"): the rule a
 * journal breaks first, the rules each record breaks, and shrinking while the same rule still
 * fails first at the same kind of record.
 */
import { audit } from "../../models/operations/audit.js";
import {
  type OperationsReport,
  type Reason,
  RULE_OF_REASON,
} from "../../models/operations/report.js";
import { shrinkKeepingFailure } from "../shrink.js";

export interface Failure {
  readonly rule: string;
  readonly index: number;
  readonly kind: unknown;
}

/**
 * The first rule the report says its journal broke, by the record that broke it: the earliest
 * record wins, an integrity fault before a rule at the same record. Every operations rule is a
 * legality rule, so a record breaks one rule, for its one reason: `rule (reason)`.
 */
export function firstBrokenRule(
  report: OperationsReport,
  records: readonly unknown[],
): Failure | null {
  const illegal = report.legality.first[0];
  const kindAt = (index: number) => (records[index] as { kind?: unknown } | undefined)?.kind;
  if (
    report.integrity !== null &&
    (illegal === undefined || report.integrity.index <= illegal.index)
  ) {
    const { index, reason } = report.integrity;
    return { rule: `integrity (${reason})`, index, kind: kindAt(index) };
  }
  if (illegal === undefined) return null;
  return { rule: ruleOf(illegal.reason), index: illegal.index, kind: illegal.kind };
}

/** The rules each record breaks: its integrity fault, or its rule and reason if listed. */
export function rulesByRecord(report: OperationsReport, records: readonly unknown[]): string[][] {
  const rules = records.map((): string[] => []);
  if (report.integrity !== null)
    rules[report.integrity.index]?.push(`integrity (${report.integrity.reason})`);
  for (const illegal of report.legality.first) {
    rules[illegal.index]?.push(ruleOf(illegal.reason));
  }
  return rules;
}

function ruleOf(reason: Reason): string {
  return `${RULE_OF_REASON[reason]} (${reason})`;
}

/** The journal shrunk while the reference's audit fails it first by the same rule at the same kind of record. */
export function shrinkFailure(records: readonly unknown[]): Promise<unknown[]> {
  return shrinkKeepingFailure(records, (candidate) => firstBrokenRule(audit(candidate), candidate));
}

/**
 * The outer shape every model's report shares (docs/report.md); a model fills in its rules
 * (`invariants`), its listed findings and its `final` summary.
 */
import type { TornTail } from "./journal-source.js";

/** How many findings a report lists (`legality.first`); `legality.illegal` counts them all. */
export const FINDINGS_LISTED_MAX = 10;

export interface ReportFrame<Model extends string, Integrity, Invariants, Finding, Final> {
  /** The model the journal was audited against. */
  readonly model: Model;
  readonly conformant: boolean;
  readonly strictlyConformant: boolean;
  /** Entries in the journal: every line but the header, blank lines and a torn tail. */
  readonly events: number;
  readonly integrity: Integrity | null;
  readonly tornTail: TornTail | null;
  readonly invariants: Invariants;
  readonly legality: { readonly illegal: number; readonly first: readonly Finding[] };
  readonly final: Final;
}

/** Any model's report, as far as the frame tells. */
export type AnyReport = ReportFrame<string, unknown, unknown, unknown, unknown>;

/**
 * What auditing a stream split into journals answers (docs/models/data.md, "A stream of
 * journals"): a report per journal, in order of first appearance.
 */
export interface JournalsReport<Report> {
  readonly journals: readonly Report[];
}

/** What an engine answers for one file or stream: its report, or its journals' reports. */
export type AuditAnswer<Report> = Report | JournalsReport<Report>;

/** The reports an answer holds, one per journal. */
export function journalReports<Report extends object>(
  answer: AuditAnswer<Report>,
): readonly Report[] {
  return "journals" in answer ? (answer as JournalsReport<Report>).journals : [answer];
}

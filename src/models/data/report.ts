/**
 * The report of a model defined by data (docs/models/data.md, "The report"): the frame every
 * model shares, with one invariant per rule of the model file.
 */
import type { JournalsReport, ReportFrame } from "../report-frame.js";

/** Why a record broke a rule. */
export type DataReason =
  | "missing-key"
  | "duplicate"
  | "missing"
  | "wrong-state"
  | "no-instance"
  | "check-failed"
  | "limit"
  | "unexpected-kind"
  | "not-first"
  | "repeated"
  | "after-last"
  | "unknown-kind"
  | "out-of-sequence"
  | "not-increasing"
  | "open-at-end";

export const DATA_REASONS: readonly DataReason[] = [
  "missing-key",
  "duplicate",
  "missing",
  "wrong-state",
  "no-instance",
  "check-failed",
  "limit",
  "unexpected-kind",
  "not-first",
  "repeated",
  "after-last",
  "unknown-kind",
  "out-of-sequence",
  "not-increasing",
  "open-at-end",
];

/** The rules the engine adds to a model file's own, named so no clause's rule may be. */
export const RESERVED_RULES = ["known-kinds", "sequence", "monotone"] as const;

/** The suffix of an entity's end-of-journal rule, `E.atEnd`. */
export const AT_END_RULE_SUFFIX = ".atEnd";

/**
 * An int in a report: a number when it is a safe integer, its decimal digits as a string
 * otherwise (docs/models/data.md, "The report").
 */
export type ReportInt = number | string;

/** An instance's key, or a register's value, as the report writes it. */
export type ReportValue = ReportInt | string | boolean | null;

/** A rule's first finding, or that it held. */
export type DataVerdict =
  | { readonly holds: true }
  | ({ readonly holds: false } & FindingPlace & FindingSubject);

interface FindingPlace {
  /** The record's 0-based index in its journal. */
  readonly index: number;
  /** Its 1-based line in the file, when it came from one. */
  readonly line?: number;
  /** Its kind after aliases; the raw spelling when the kind is unknown. */
  readonly kind: string;
  readonly reason: DataReason;
}

interface FindingSubject {
  /** The entity a `new`, `step` or `need` names, and the entity of an instance open at the end. */
  readonly entity?: string;
  /** That instance's key, when it is present. */
  readonly key?: ReportValue;
}

export type DataFinding = FindingPlace & { readonly rule: string } & FindingSubject;

export interface DataIntegrity {
  readonly index: number;
  readonly line?: number;
  readonly reason: "malformed-event";
  readonly message: string;
}

export interface DataFinal {
  /** Per entity, the count of its kept instances in each declared state, in declared order. */
  readonly entities: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly counters: Readonly<Record<string, ReportInt>>;
  readonly registers: Readonly<Record<string, ReportValue>>;
}

export type DataReport<Name extends string = string> = ReportFrame<
  Name,
  DataIntegrity,
  Readonly<Record<string, DataVerdict>>,
  DataFinding,
  DataFinal
> & {
  /** The journal's key value, when a stream is split by `journal.key` (null: no journal began). */
  readonly journal?: ReportValue;
};

/** The report of a stream split by `journal.key`: a report per journal, each with its `journal` key. */
export type DataJournalsReport<Name extends string = string> = JournalsReport<DataReport<Name>>;

/** What a data model's engines answer: a journal's report, or a split stream's journals'. */
export type DataAnswer<Name extends string = string> = DataReport<Name> | DataJournalsReport<Name>;

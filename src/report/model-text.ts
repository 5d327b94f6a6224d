/**
 * What a model says in the text output (src/cli/render-text.ts), which renders the frame every
 * model shares — the verdict line, the integrity error, the torn tail, the count of listed
 * findings and what is not listed — and asks the model only for its own words: its broken rules,
 * its listed findings and its final summary. Pure: no Node APIs, so the page can load it.
 */
import type { AnyReport } from "../models/report-frame.js";

/** A broken rule as the text output lists it: its name in the label column, then the rest. */
export interface BrokenRuleText {
  readonly rule: string;
  /** Where it broke and why, e.g. `line 11 (event 9)  node "D": dispatched before …`. */
  readonly text: string;
}

/**
 * By a listed finding's place in `legality.first`, the numbers behind it in words (a record may
 * have several listed findings, each with numbers of its own).
 */
export type FindingNumbers = ReadonlyMap<number, string>;

/** A journal's entries as read again, for the numbers behind its listed findings. */
export interface EntriesReadAgain {
  readonly file: string;
  readonly entries: readonly unknown[];
  /** `entries[i]` came from the 1-based line `lines[i]`. */
  readonly lines: readonly number[];
}

export interface ModelText<Report extends AnyReport> {
  /** The model's rule names: the label column is as wide as the longest, so locations line up. */
  readonly ruleNames: readonly string[];
  /** Each broken rule, in the order the model lists them. */
  brokenRules(report: Report): readonly BrokenRuleText[];
  /** The heading over the listed findings, after its mark: `2 illegal events (…):`. */
  listedHeading(report: Report): string;
  /** A listed finding after its location: `landed  node "A": wrong-status`. */
  listedFinding(finding: Report["legality"]["first"][number]): string;
  /** The final summary line, e.g. `final: 3 proven, 1 queued` (the HTML report's too). */
  finalLine(report: Report): string;
  /**
   * Only for a model some of whose findings rest on numbers its report does not carry (the
   * operations retry ladder's sum): those numbers, said after the finding as the HTML report
   * shows them. `readAgain` reads the journal again — null when it cannot be (too large, changed
   * since the audit, unreadable) — and is called only when a listed finding has such numbers.
   */
  findingNumbers?(
    report: Report,
    readAgain: () => Promise<EntriesReadAgain | null>,
  ): Promise<FindingNumbers>;
}

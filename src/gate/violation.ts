/**
 * The boot gate's refusal (the librecode runtime's `journal-invariant-violation`), and what a
 * model gives the gate: its report's candidates for a refusal (docs/gate.md). Nothing here reaches
 * the registry, so a model's gate may import it.
 */
import type { ModelReport } from "../models/registry.js";
import { eventLocation } from "../report/wording.js";

/** The rule a refusal names: a rule of the model, log integrity, or (when strict) legality. */
export type GateRule = RuleOf<ModelReport> | "integrity" | "legality";

type RuleOf<R> = R extends { readonly invariants: infer Invariants } ? keyof Invariants : never;

export class JournalInvariantViolation extends Error {
  override readonly name = "JournalInvariantViolation";

  constructor(
    readonly file: string,
    readonly rule: GateRule,
    /** The offending event; null for tamperEvident, a property of the final state. */
    readonly event: { readonly index: number; readonly line?: number } | null,
    /** A dag finding's node (tamperEvident: the first of its nodes); null for other models. */
    readonly node: string | null,
    readonly why: string,
    readonly report: ModelReport,
    /** Whom the finding names, in words: `node "D"`, `op "run-1" effect "e-2"`. */
    readonly subject: string | null = node === null ? null : `node ${JSON.stringify(node)}`,
  ) {
    const where = event === null ? "" : ` at ${eventLocation(event.index, event.line)}`;
    const on = subject === null ? "" : `, ${subject}`;
    super(`${file}: refusing to resume: ${rule} is broken${where}${on}: ${why}`);
  }
}

/** What a model gives the gate: the rules its report says broke, each a refusal to choose from. */
export interface ModelGate<Report> {
  /**
   * Each broken rule of the model's at its first breach (and, when `strict`, the first illegal
   * entry where legality is not one of its rules); the gate adds integrity and picks the earliest.
   */
  candidates(report: Report, file: string, strict: boolean): JournalInvariantViolation[];
}

/**
 * A model defined by data in words, for the text output and the HTML report alike: a finding is
 * its record's kind, its rule, the instance it names and why, beside the rule's description from
 * the model file (docs/models/data.md, "The report"). Pure.
 */
import type { CompiledModel } from "../../models/data/compiled.js";
import type { DataFinal, DataReason, ReportValue } from "../../models/data/report.js";

/** What each reason means, for a reader who has not read the model file. */
export const WHY_DATA_REASON: Readonly<Record<DataReason, string>> = {
  "missing-key": "the record does not carry the instance's key (or it is not an int or a string)",
  duplicate: "an instance with this key already exists",
  missing: "no instance has this key",
  "wrong-state": "the instance is not in a state this record may find it in",
  "no-instance": "no new, step or need before it applied, so there is no instance to write to",
  "check-failed": "the comparison does not hold",
  limit: "the counter would leave its bounds",
  "unexpected-kind": "the record before it required another kind next",
  "not-first": "only the first record of a journal may be of this kind",
  repeated: "a record of this kind came before",
  "after-last": "the record before it was to be the journal's last",
  "unknown-kind": "the model names no such kind",
  "out-of-sequence": "its sequence number is not the one expected",
  "not-increasing": "the value went down (or, for a strict field, did not go up)",
  "open-at-end": "the journal ended with the instance in a state it may not end in",
};

/** The instance a finding names, e.g. `job "a"`; empty when it names none. */
export function subjectText(finding: {
  readonly entity?: string;
  readonly key?: ReportValue;
}): string {
  if (finding.entity === undefined) return "";
  return finding.key === undefined
    ? `${finding.entity} (no key)`
    : `${finding.entity} ${JSON.stringify(finding.key)}`;
}

/** A rule's description from the model file, or null when it gives none. */
export function ruleDescription(model: CompiledModel, rule: string): string | null {
  return model.rules.find((candidate) => candidate.name === rule)?.description ?? null;
}

/** `final: job 2 done, 1 queued; counters open 0; registers last "x"` — states with no instance are left out. */
export function dataFinalLine(final: DataFinal): string {
  const parts = Object.entries(final.entities).map(([entity, states]) => {
    const held = Object.entries(states).filter(([, count]) => count > 0);
    return `${entity} ${held.length === 0 ? "none" : held.map(([state, count]) => `${count} ${state}`).join(", ")}`;
  });
  const counters = Object.entries(final.counters);
  if (counters.length > 0)
    parts.push(`counters ${counters.map(([name, value]) => `${name} ${value}`).join(", ")}`);
  const registers = Object.entries(final.registers);
  if (registers.length > 0)
    parts.push(
      `registers ${registers.map(([name, value]) => `${name} ${JSON.stringify(value)}`).join(", ")}`,
    );
  return `final: ${parts.length === 0 ? "nothing kept" : parts.join("; ")}`;
}

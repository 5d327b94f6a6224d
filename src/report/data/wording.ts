/**
 * A model defined by data in words, for the text output and the HTML report alike: a finding is
 * its record's kind, its rule, the instance it names and why, beside the rule's description from
 * the model file (docs/models/data.md, "The report"). Pure.
 */
import type { Comparison, CompiledModel, Value } from "../../models/data/compiled.js";
import type { InstanceStates, ReplayedFinding, ShownOperand } from "../../models/data/replay.js";
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

/** `final: job 2 done, 1 queued; counters open 0; registers last "x"` — entities and states with no instance left out. */
export function dataFinalLine(final: DataFinal): string {
  const parts = Object.entries(final.entities).flatMap(([entity, states]) => {
    const held = Object.entries(states).filter(([, count]) => count > 0);
    return held.length === 0
      ? []
      : [`${entity} ${held.map(([state, count]) => `${count} ${state}`).join(", ")}`];
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

/** What a replay shows of a finding beyond its report (src/models/data/replay.ts), in words. */
export interface FindingWords {
  /** The instance it concerns, `intent "pi_1"`; null when none. */
  readonly instance: string | null;
  /** That instance's state before the record and after it: `processing → succeeded`. */
  readonly states: string | null;
  /** What it compared: `$amount (1200) == @amount (1250) does not hold`. */
  readonly compared: string | null;
}

export function findingWords(finding: ReplayedFinding): FindingWords {
  const { instance } = finding;
  return {
    instance: instance === null ? null : `${instance.entity} ${valueText(instance.key)}`,
    states: instance === null ? null : statesText(instance),
    compared: comparedText(finding),
  };
}

/**
 * The words of a finding in one phrase, for the text output — without the instance's name when
 * the finding's line says it (`named`); null when a replay shows nothing more.
 */
export function findingWordsText(words: FindingWords, named: boolean): string | null {
  const instance =
    words.instance === null ? null : named ? words.states : `${words.instance} ${words.states}`;
  const parts = [instance, words.compared].filter((part) => part !== null);
  return parts.length === 0 ? null : parts.join(", ");
}

function statesText(instance: InstanceStates): string {
  const state = (name: string | null) => name ?? "none";
  const forgotten = instance.forgotten ? " (forgotten: its key is free again)" : "";
  return `${state(instance.before)} → ${state(instance.after)}${forgotten}`;
}

function comparedText({ reason, instance, compared }: ReplayedFinding): string | null {
  if (compared === null) {
    if (instance === null) return null;
    if (reason === "duplicate") return `key ${valueText(instance.key)} already exists`;
    if (reason === "missing") return `key ${valueText(instance.key)} does not exist`;
    return null;
  }
  switch (compared.type) {
    case "check":
      return checkText(compared.left, compared.comparison, compared.right);
    case "state":
      return reason === "open-at-end"
        ? `it ended in ${compared.state}, it may end in ${alternatives(compared.accepted)}`
        : `found in ${compared.state}, the clause accepts ${alternatives(compared.accepted)}`;
    case "counter": {
      const value = compared.value + compared.by;
      const bound = value < 0n ? "below 0" : `above its max ${compared.max}`;
      const by = compared.by < 0n ? `− ${-compared.by}` : `+ ${compared.by}`;
      return `counter ${compared.counter} ${compared.value} ${by} = ${value}, ${bound}`;
    }
    case "key":
      return compared.value === null
        ? "the key is absent"
        : `the key is ${valueText(compared.value)}, not an int or a string`;
    case "sequence":
      return `${compared.field} expected ${compared.expected}, found ${compared.found === null ? "none" : compared.found}`;
    case "increase":
      return compared.value === compared.previous
        ? `${compared.field} stayed at ${compared.value}, it must go up`
        : `${compared.field} went from ${compared.previous} down to ${compared.value}`;
    case "kinds":
      return `${alternatives(compared.expected)} was to come next`;
  }
}

const ORDERINGS: ReadonlySet<Comparison> = new Set(["<", "<=", ">", ">="]);

function checkText(left: ShownOperand, comparison: Comparison, right: ShownOperand): string {
  const side = ({ spelling, value }: ShownOperand) =>
    spelling === null ? valueText(value) : `${spelling} (${valueText(value)})`;
  const notInts =
    ORDERINGS.has(comparison) && (typeof left.value !== "bigint" || typeof right.value !== "bigint")
      ? ": both sides must be ints"
      : "";
  return `${side(left)} ${comparison} ${side(right)} does not hold${notInts}`;
}

/** A value as a report reader reads it: an int's digits, a string quoted, `absent`. */
export function valueText(value: Value): string {
  if (value === null) return "absent";
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** `a`, `a or b`, `a, b or c`. */
function alternatives(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? "nothing";
  return `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

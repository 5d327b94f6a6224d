/**
 * A journal of a model defined by data replayed through the reference interpreter (audit.ts) for
 * what its report does not carry (docs/models/data.md, "The report"): for each listed finding and
 * each broken rule's first, the instance it concerns with its state before the record and after
 * it, and the values it compared. One pass, watched through `auditDataEntries`'s hook — so a
 * stream split by `journal.key` is split as the audit splits it — and stopped after the last
 * record a wanted finding is at.
 */
import type { DataEntry } from "./audit.js";
import { auditDataEntries } from "./audit.js";
import type { Clause, Comparison, CompiledModel, Operand, Value } from "./compiled.js";
import type { Compared, FoldWatcher, WatchedFinding, WatchedInstance } from "./fold-watch.js";
import type { DataReason, DataReport } from "./report.js";

/** What a replay shows of one finding, by name. */
export interface ReplayedFinding {
  readonly reason: DataReason;
  /** The instance it concerns (as `WatchedFinding.instance`), or null. */
  readonly instance: InstanceStates | null;
  readonly compared: Shown | null;
}

export interface InstanceStates {
  readonly entity: string;
  readonly key: bigint | string;
  /** Its state before the record; null when no instance had the key. */
  readonly before: string | null;
  /** Its state after the record (for an `open-at-end`, at the end: its state then); null when none. */
  readonly after: string | null;
  /** Whether it reached a final state of an entity with `reuse`, which forgets it and frees its key. */
  readonly forgotten: boolean;
}

/** An operand as the model file writes it (`$amount`, `@amount`, `%last`, `#`, a literal), and its value. */
export interface ShownOperand {
  /** Null for a literal: its value says it. */
  readonly spelling: string | null;
  readonly value: Value;
}

/** The values a finding compared, by name (`Compared`). */
export type Shown =
  | {
      readonly type: "check";
      readonly left: ShownOperand;
      readonly comparison: Comparison;
      readonly right: ShownOperand;
    }
  | { readonly type: "state"; readonly state: string; readonly accepted: readonly string[] }
  | {
      readonly type: "counter";
      readonly counter: string;
      readonly value: bigint;
      readonly by: bigint;
      readonly max: bigint | null;
    }
  | { readonly type: "key"; readonly value: Value }
  | {
      readonly type: "sequence";
      readonly field: string;
      readonly expected: bigint;
      readonly found: bigint | null;
    }
  | {
      readonly type: "increase";
      readonly field: string;
      readonly strict: boolean;
      readonly previous: bigint;
      readonly value: bigint;
    }
  | { readonly type: "kinds"; readonly expected: readonly string[] };

export interface ReplayedFindings {
  /** By place in the report's `legality.first`. */
  readonly listed: readonly ReplayedFinding[];
  /** Each broken rule's first finding, by rule name. */
  readonly firstOfRule: ReadonlyMap<string, ReplayedFinding>;
  /** The entry each of these findings' records came from, by its index in the journal. */
  readonly entries: ReadonlyMap<number, DataEntry>;
}

/**
 * The findings of `report` replayed from `entries` (the file's, all of them when the stream is
 * split: the report's `journal` says which is replayed); null when the entries do not give the
 * report's findings — the journal changed since its audit.
 */
export function replayFindings(
  model: CompiledModel,
  entries: Iterable<DataEntry>,
  report: DataReport,
): ReplayedFindings | null {
  const watcher = new FindingsWatcher(model, report);
  auditDataEntries(model, watcher.feed(entries), null, {
    ...(report.journal === undefined ? {} : { journal: report.journal }),
    watcher,
  });
  return watcher.replayed();
}

/** A wanted finding of the record folding, waiting for the record's end to know its state after. */
interface Pending {
  readonly found: WatchedFinding;
  readonly before: number | null;
  readonly places: { readonly listed: number | null; readonly firstOfRule: string | null };
}

class FindingsWatcher implements FoldWatcher {
  private readonly listed: ReplayedFinding[] = [];
  private readonly firstOfRule = new Map<string, ReplayedFinding>();
  private readonly entries = new Map<number, DataEntry>();
  /** Rules the report says were broken, whose first finding is still to come. */
  private readonly rulesAwaited: Set<string>;
  private findings = 0;
  private differs = false;
  private fed: DataEntry | null = null;
  /** The entry of the record folding, or of the last one once the records have ended. */
  private folding: DataEntry | null = null;
  private ended = false;
  /** Instances the record folding created or moved: their states before it, and their latest. */
  private touched = new Map<string, { before: number | null; after: number }>();
  private pending: Pending[] = [];

  constructor(
    private readonly model: CompiledModel,
    private readonly report: DataReport,
  ) {
    this.rulesAwaited = new Set(
      Object.entries(report.invariants).flatMap(([rule, verdict]) => (verdict.holds ? [] : [rule])),
    );
  }

  /** The entries, until every wanted finding is found and its record folded. */
  *feed(entries: Iterable<DataEntry>): Generator<DataEntry> {
    for (const entry of entries) {
      if (this.complete()) break;
      this.fed = entry;
      yield entry;
    }
    this.settle();
    this.ended = true;
  }

  record(): void {
    this.settle();
    this.folding = this.fed;
  }

  moved(entity: number, key: bigint | string, from: number | null, to: number): void {
    const tag = instanceTag(entity, key);
    const seen = this.touched.get(tag);
    this.touched.set(tag, { before: seen === undefined ? from : seen.before, after: to });
  }

  found(found: WatchedFinding): void {
    const place = this.findings;
    this.findings += 1;
    const rule = this.model.rules[found.rule]?.name as string;
    const listed = place < this.report.legality.first.length ? place : null;
    const firstOfRule = this.rulesAwaited.delete(rule) ? rule : null;
    if (listed === null && firstOfRule === null) return;
    if (!this.asReported(found, rule, listed, firstOfRule)) this.differs = true;
    const { instance } = found;
    const touched = instance === null ? undefined : this.touched.get(tagOf(instance));
    const before = touched === undefined ? (instance?.state ?? null) : touched.before;
    this.pending.push({ found, before, places: { listed, firstOfRule } });
    if (this.folding !== null) this.entries.set(found.index, this.folding);
    // A finding at the end of the journal is made after its last record: nothing moves after it.
    if (this.ended) this.settle();
  }

  replayed(): ReplayedFindings | null {
    const complete = this.complete() && this.listed.length === this.report.legality.first.length;
    if (this.differs || !complete) return null;
    return { listed: this.listed, firstOfRule: this.firstOfRule, entries: this.entries };
  }

  private complete(): boolean {
    return this.findings >= this.report.legality.first.length && this.rulesAwaited.size === 0;
  }

  /** Whether a wanted finding is the one the report lists at its place, or gives as its rule's first. */
  private asReported(
    found: WatchedFinding,
    rule: string,
    listed: number | null,
    firstOfRule: string | null,
  ): boolean {
    const at = (reported: { readonly index: number; readonly reason: DataReason }) =>
      reported.index === found.index && reported.reason === found.reason;
    if (listed !== null) {
      const reported = this.report.legality.first[listed];
      if (reported === undefined || reported.rule !== rule || !at(reported)) return false;
    }
    if (firstOfRule === null) return true;
    const verdict = this.report.invariants[firstOfRule];
    return verdict !== undefined && !verdict.holds && at(verdict);
  }

  /** The record has folded: its pending findings get their instances' states after it. */
  private settle(): void {
    for (const { found, before, places } of this.pending) {
      const shown: ReplayedFinding = {
        reason: found.reason,
        instance: found.instance === null ? null : this.states(found.instance, before),
        compared: found.compared === null ? null : this.shown(found, found.compared),
      };
      if (places.listed !== null) this.listed[places.listed] = shown;
      if (places.firstOfRule !== null) this.firstOfRule.set(places.firstOfRule, shown);
    }
    this.pending = [];
    this.touched = new Map();
  }

  private states(instance: WatchedInstance, before: number | null): InstanceStates {
    const entity = this.model.entities[instance.entity];
    const touched = this.touched.get(tagOf(instance));
    const after = touched === undefined ? instance.state : touched.after;
    const stateName = (state: number | null) =>
      state === null ? null : (entity?.states[state] as string);
    return {
      entity: entity?.name as string,
      key: instance.key,
      before: stateName(before),
      after: stateName(after),
      forgotten: after !== null && entity?.reuse === true && entity.final[after] === true,
    };
  }

  private shown(found: WatchedFinding, compared: Compared): Shown {
    const { model } = this;
    const entityOf = (state: number) =>
      model.entities[found.instance?.entity ?? -1]?.states[state] as string;
    switch (compared.type) {
      case "check": {
        const operand = (of: Operand, value: Value): ShownOperand => ({
          spelling: operandSpelling(model, of, () => slotEntityOf(model, found, compared.clause)),
          value,
        });
        return {
          type: "check",
          left: operand(compared.clause.left, compared.left),
          comparison: compared.clause.comparison,
          right: operand(compared.clause.right, compared.right),
        };
      }
      case "state":
        return {
          type: "state",
          state: entityOf(compared.state),
          accepted: compared.accepted.map(entityOf),
        };
      case "counter": {
        const counter = model.journal.counters[compared.clause.counter];
        return {
          type: "counter",
          counter: counter?.name as string,
          value: compared.value,
          by: compared.clause.by,
          max: counter?.max ?? null,
        };
      }
      case "key":
        return compared;
      case "sequence": {
        const field = model.journal.sequence?.field ?? -1;
        return { ...compared, field: model.fields[field]?.name as string };
      }
      case "increase":
        return { ...compared, field: model.fields[compared.field]?.name as string };
      case "kinds":
        return {
          type: "kinds",
          expected: compared.expected.map((kind) => model.kinds[kind]?.name as string),
        };
    }
  }
}

function tagOf(instance: WatchedInstance): string {
  return instanceTag(instance.entity, instance.key);
}

function instanceTag(entity: number, key: bigint | string): string {
  return `${entity}:${typeof key === "bigint" ? "i" : "s"}${key}`;
}

function operandSpelling(
  model: CompiledModel,
  operand: Operand,
  slotEntity: () => number | null,
): string | null {
  switch (operand.from) {
    case "field":
      return `$${model.fields[operand.field]?.name}`;
    case "slot":
      return `@${model.entities[slotEntity() ?? -1]?.slots[operand.slot] ?? operand.slot}`;
    case "register":
      return `%${model.journal.registers[operand.register]?.name}`;
    case "index":
      return "#";
    case "literal":
      return null;
  }
}

/** The entity a clause's `@slot` belongs to: that of the nearest new, step or need before it. */
function slotEntityOf(model: CompiledModel, found: WatchedFinding, clause: Clause): number | null {
  if (found.instance !== null) return found.instance.entity;
  for (const kind of model.kinds) {
    const place = kind.clauses.indexOf(clause);
    if (place === -1) continue;
    for (let before = place - 1; before >= 0; before -= 1) {
      const candidate = kind.clauses[before] as Clause;
      if (candidate.op === "new" || candidate.op === "step" || candidate.op === "need")
        return candidate.entity;
    }
  }
  return null;
}

/**
 * The reference interpreter of models defined by data (docs/models/data.md): a journal's records
 * folded through the compiled model's clauses, every finding under its rule, and the report. It
 * is the definition the kernel (assembly/data/) is held to.
 *
 * A stream split by `journal.key` is several journals folded side by side; an integrity error
 * stops them all (docs/models/data.md, "A stream of journals").
 */
import { type TornTail, UnparseableLine } from "../journal-source.js";
import { FINDINGS_LISTED_MAX } from "../report-frame.js";
import type { Clause, Comparison, CompiledModel, Operand, Value } from "./compiled.js";
import type { Compared, FoldWatcher, WatchedInstance } from "./fold-watch.js";
import { type ReadRecord, readRecord, recordProblemMessage } from "./record.js";
import type {
  DataFinal,
  DataFinding,
  DataIntegrity,
  DataReason,
  DataReport,
  DataVerdict,
  ReportInt,
  ReportValue,
} from "./report.js";

/** One record as a reader hands it over: parsed with its text, or a line that is not JSON. */
export interface DataEntry {
  readonly parsed: { readonly value: unknown; readonly text: string } | UnparseableLine;
  /** Its 1-based line in the file, when it came from one. */
  readonly line?: number;
}

/**
 * The reports of a journal's records: one, or one per journal of a split stream. A replay
 * (replay.ts) watches one of the journals fold: the one whose report's `journal` is `watch.journal`.
 */
export function auditDataEntries(
  model: CompiledModel,
  entries: Iterable<DataEntry>,
  tornTail: TornTail | null = null,
  watch?: { readonly journal?: ReportValue; readonly watcher: FoldWatcher },
): DataReport[] {
  const split = model.journal.key;
  const watcherOf = (key: Value) =>
    watch !== undefined && reportValue(key) === watch.journal ? watch.watcher : null;
  const journals = new Map<string, JournalFold>();
  const unsplit = new JournalFold(model, undefined, watch?.watcher ?? null);
  let integrity: { entry: DataEntry; message: string } | null = null;
  let events = 0;
  for (const entry of entries) {
    events += 1;
    if (integrity !== null) continue;
    const read = entryRecord(model, entry);
    if (!read.ok) {
      integrity = { entry, message: read.message };
      if (split !== null) break;
      continue;
    }
    if (split === null) {
      unsplit.fold(read, entry.line);
      continue;
    }
    const key = read.fields[split] as Value;
    if (key === null) {
      integrity = { entry, message: noJournalKeyMessage(model, split) };
      break;
    }
    const tag = keyTag(key);
    let journal = journals.get(tag);
    if (journal === undefined) {
      journal = new JournalFold(model, key, watcherOf(key));
      journals.set(tag, journal);
    }
    journal.fold(read, entry.line);
  }
  const folds =
    split === null
      ? [unsplit]
      : journals.size > 0
        ? [...journals.values()]
        : [new JournalFold(model, null, watcherOf(null))];
  return folds.map((fold) => {
    const stopped =
      integrity === null
        ? null
        : {
            index: fold.records,
            ...(integrity.entry.line === undefined ? {} : { line: integrity.entry.line }),
            reason: "malformed-event" as const,
            message: integrity.message,
          };
    return fold.report(stopped, split === null ? events : fold.records, tornTail);
  });
}

function entryRecord(
  model: CompiledModel,
  entry: DataEntry,
): Extract<ReadRecord, { ok: true }> | { ok: false; message: string } {
  if (entry.parsed instanceof UnparseableLine)
    return {
      ok: false,
      message:
        entry.parsed.problem === "invalid-utf8"
          ? "the line is not valid UTF-8"
          : "the line is not valid JSON",
    };
  const read = readRecord(model, entry.parsed.value, entry.parsed.text);
  return read.ok ? read : { ok: false, message: recordProblemMessage(model, read) };
}

/** Why a split stream stops at a record whose key field (`field`) is absent. */
export function noJournalKeyMessage(model: CompiledModel, field: number): string {
  return `the record has no journal key: field "${model.fields[field]?.name}" is absent`;
}

interface Instance {
  readonly entity: number;
  readonly key: bigint | string;
  state: number;
  readonly slots: Value[];
}

type Obligation =
  | { readonly type: "next"; readonly kinds: readonly number[]; readonly rule: number }
  | { readonly type: "last"; readonly rule: number };

/** One journal's state as its records fold, and the findings so far. */
class JournalFold {
  /** Records folded so far: the next record's index. */
  records = 0;
  /** Every kept instance, keyed by entity and key, in the order they were created. */
  private readonly instances = new Map<string, Instance>();
  private readonly registers: Value[];
  private readonly counters: bigint[];
  private readonly seenKinds = new Set<number>();
  private obligations: Obligation[] = [];
  private expectedSequence: bigint;
  private readonly lastMonotone: (bigint | null)[];
  private readonly firstFindings = new Map<number, DataVerdict>();
  private readonly listed: DataFinding[] = [];
  private illegal = 0;
  private lastRecord: { index: number; line?: number; kind: string } | null = null;

  constructor(
    private readonly model: CompiledModel,
    /** The journal's key in a split stream; undefined when the stream is not split. */
    private readonly journalKey?: Value,
    private readonly watcher: FoldWatcher | null = null,
  ) {
    this.registers = model.journal.registers.map((register) => register.initial);
    this.counters = model.journal.counters.map(() => 0n);
    this.expectedSequence = model.journal.sequence?.start ?? 0n;
    this.lastMonotone = model.journal.monotone.map(() => null);
  }

  fold(record: Extract<ReadRecord, { ok: true }>, line: number | undefined): void {
    const index = this.records;
    this.records += 1;
    this.watcher?.record(index);
    const kindName =
      record.kind === null ? record.spelling : (this.model.kinds[record.kind]?.name as string);
    const at = { index, ...(line === undefined ? {} : { line }), kind: kindName };
    this.lastRecord = at;
    const finding = (rule: number, reason: DataReason, subject: Subject = {}, seen?: Seen) =>
      this.find(at, rule, reason, subject, seen);

    this.checkSequence(record, finding);
    this.checkMonotone(record, finding);
    const obligations = this.obligations;
    this.obligations = [];
    for (const obligation of obligations) {
      if (obligation.type === "last") finding(obligation.rule, "after-last");
      else if (record.kind === null || !obligation.kinds.includes(record.kind))
        finding(
          obligation.rule,
          "unexpected-kind",
          {},
          {
            compared: { type: "kinds", expected: obligation.kinds },
          },
        );
    }
    if (record.kind === null) {
      if (this.model.journal.knownKindsRule !== null)
        finding(this.model.journal.knownKindsRule, "unknown-kind");
      return;
    }
    const seenBefore = this.seenKinds.has(record.kind);
    this.seenKinds.add(record.kind);
    const run = new ClauseRun(this, record, index, seenBefore, finding);
    for (const clause of this.model.kinds[record.kind]?.clauses ?? []) run.apply(clause);
  }

  private checkSequence(record: Extract<ReadRecord, { ok: true }>, finding: Finder): void {
    const sequence = this.model.journal.sequence;
    if (sequence === null) return;
    const value = record.fields[sequence.field] as bigint | null;
    if (value !== this.expectedSequence)
      finding(
        sequence.rule,
        "out-of-sequence",
        {},
        {
          compared: { type: "sequence", expected: this.expectedSequence, found: value },
        },
      );
    this.expectedSequence = (value ?? this.expectedSequence) + sequence.step;
  }

  private checkMonotone(record: Extract<ReadRecord, { ok: true }>, finding: Finder): void {
    this.model.journal.monotone.forEach(({ field, strict }, place) => {
      const value = record.fields[field] as bigint | null;
      if (value === null) return;
      const last = this.lastMonotone[place];
      if (last !== null && last !== undefined && (strict ? value <= last : value < last))
        finding(
          this.model.journal.monotoneRule as number,
          "not-increasing",
          {},
          {
            compared: { type: "increase", field, strict, previous: last, value },
          },
        );
      this.lastMonotone[place] = value;
    });
  }

  private find(
    at: FindingAt,
    rule: number,
    reason: DataReason,
    subject: Subject,
    seen: Seen = NOTHING_SEEN,
  ): void {
    this.watcher?.found({
      index: at.index,
      rule,
      reason,
      instance: seen.instance ?? null,
      compared: seen.compared ?? null,
    });
    this.illegal += 1;
    if (!this.firstFindings.has(rule))
      this.firstFindings.set(rule, { holds: false, ...at, reason, ...subject });
    if (this.listed.length < FINDINGS_LISTED_MAX)
      this.listed.push({ ...at, rule: this.model.rules[rule]?.name as string, reason, ...subject });
  }

  // What clauses reach

  instance(entity: number, key: bigint | string): Instance | undefined {
    return this.instances.get(instanceTag(entity, key));
  }

  create(entity: number, key: bigint | string, state: number): Instance {
    const instance: Instance = {
      entity,
      key,
      state,
      slots: this.model.entities[entity]?.slots.map(() => null) ?? [],
    };
    this.instances.set(instanceTag(entity, key), instance);
    this.watcher?.moved(entity, key, null, state);
    this.forgetIfDone(instance);
    return instance;
  }

  move(instance: Instance, state: number): void {
    this.watcher?.moved(instance.entity, instance.key, instance.state, state);
    instance.state = state;
    this.forgetIfDone(instance);
  }

  /** An entity with `reuse` forgets an instance that reaches a final state, freeing its key. */
  private forgetIfDone(instance: Instance): void {
    const entity = this.model.entities[instance.entity];
    if (entity?.reuse && entity.final[instance.state])
      this.instances.delete(instanceTag(instance.entity, instance.key));
  }

  entityName(entity: number): string {
    return this.model.entities[entity]?.name as string;
  }

  register(register: number): Value {
    return this.registers[register] as Value;
  }

  setRegister(register: number, value: Value): void {
    this.registers[register] = value;
  }

  counter(counter: number): bigint {
    return this.counters[counter] as bigint;
  }

  /** Adds `by` to a counter; false when that would leave it below 0 or above its max. */
  count(counter: number, by: bigint): boolean {
    const value = (this.counters[counter] as bigint) + by;
    const max = this.model.journal.counters[counter]?.max ?? null;
    if (value < 0n || (max !== null && value > max)) return false;
    this.counters[counter] = value;
    return true;
  }

  oblige(obligation: Obligation): void {
    this.obligations.push(obligation);
  }

  // The report

  report(integrity: DataIntegrity | null, events: number, tornTail: TornTail | null): DataReport {
    if (integrity === null) this.checkAtEnd();
    const invariants = Object.fromEntries(
      this.model.rules.map((rule, index) => [rule.name, this.firstFindings.get(index) ?? HOLDS]),
    );
    const conformant = integrity === null && this.illegal === 0;
    return {
      model: this.model.name,
      ...(this.journalKey === undefined ? {} : { journal: reportValue(this.journalKey) }),
      conformant,
      strictlyConformant: conformant,
      events,
      integrity,
      tornTail,
      invariants,
      legality: { illegal: this.illegal, first: this.listed },
      final: this.final(),
    };
  }

  /** Every kept instance outside its entity's `atEnd`, in the order they were created. */
  private checkAtEnd(): void {
    const at = this.lastRecord;
    if (at === null) return;
    for (const instance of this.instances.values()) {
      const entity = this.model.entities[instance.entity];
      if (entity?.atEnd === null || entity === undefined || entity.atEnd[instance.state]) continue;
      const accepted = statesWhere(entity.atEnd as readonly boolean[]);
      this.find(
        at,
        entity.atEndRule as number,
        "open-at-end",
        { entity: entity.name, key: reportValue(instance.key) },
        {
          instance: watched(instance),
          compared: { type: "state", state: instance.state, accepted },
        },
      );
    }
  }

  private final(): DataFinal {
    const counts = this.model.entities.map((entity) => entity.states.map(() => 0));
    for (const instance of this.instances.values()) {
      const states = counts[instance.entity] as number[];
      states[instance.state] = (states[instance.state] as number) + 1;
    }
    return {
      entities: Object.fromEntries(
        this.model.entities.map((entity, index) => [
          entity.name,
          Object.fromEntries(
            entity.states.map((state, place) => [state, counts[index]?.[place] as number]),
          ),
        ]),
      ),
      counters: Object.fromEntries(
        this.model.journal.counters.map((counter, index) => [
          counter.name,
          reportInt(this.counters[index] as bigint),
        ]),
      ),
      registers: Object.fromEntries(
        this.model.journal.registers.map((register, index) => [
          register.name,
          reportValue(this.registers[index] as Value),
        ]),
      ),
    };
  }
}

const HOLDS: DataVerdict = { holds: true };

type FindingAt = { readonly index: number; readonly line?: number; readonly kind: string };
type Subject = { readonly entity?: string; readonly key?: ReportValue };
/** What a watcher is shown of a finding beyond the report: a finding changes nothing, so it is what the clause saw. */
type Seen = { readonly instance?: WatchedInstance | null; readonly compared?: Compared };
type InstanceClause = Extract<Clause, { op: "new" | "step" | "need" }>;
type Finder = (rule: number, reason: DataReason, subject?: Subject, seen?: Seen) => void;

const NOTHING_SEEN: Seen = {};

function watched(instance: Instance): WatchedInstance {
  return { entity: instance.entity, key: instance.key, state: instance.state };
}

function statesWhere(flags: readonly boolean[]): number[] {
  return flags.flatMap((flag, state) => (flag ? [state] : []));
}

/** One record's clauses, run in order: what they share is the current instance. */
class ClauseRun {
  private current: Instance | null = null;

  constructor(
    private readonly journal: JournalFold,
    private readonly record: Extract<ReadRecord, { ok: true }>,
    private readonly index: number,
    private readonly kindSeenBefore: boolean,
    private readonly finding: Finder,
  ) {}

  apply(clause: Clause): void {
    if (clause.op === "new" || clause.op === "step" || clause.op === "need") {
      // The key is read before the clause runs: it may be a slot of the instance it replaces.
      const read = this.value(clause.key);
      const key = typeof read === "bigint" || typeof read === "string" ? read : null;
      const reason = this.instanceReasonNot(clause, key);
      if (reason === null || clause.elseIgnore) return;
      const entity = this.journal.entityName(clause.entity);
      this.finding(
        clause.rule,
        reason,
        key === null ? { entity } : { entity, key: reportValue(key) },
        key === null ? { compared: { type: "key", value: read } } : this.seenBy(clause, key),
      );
      return;
    }
    const reason = this.reasonNot(clause);
    if (reason === null || clause.elseIgnore) return;
    const instance = this.current === null ? null : watched(this.current);
    this.finding(clause.rule, reason, {}, { instance, compared: this.comparedBy(clause) });
  }

  /** The instance a new, step or need that could not apply found under its key, if any. */
  private seenBy(clause: InstanceClause, key: bigint | string): Seen {
    const instance = this.journal.instance(clause.entity, key);
    if (instance === undefined) return { instance: { entity: clause.entity, key, state: null } };
    if (clause.op === "new") return { instance: watched(instance) };
    const accepted = clause.op === "step" ? clause.from : clause.in;
    return {
      instance: watched(instance),
      compared: { type: "state", state: instance.state, accepted },
    };
  }

  /** The values a check or a count that could not apply compared; it changed nothing. */
  private comparedBy(clause: Exclude<Clause, InstanceClause>): Compared | undefined {
    if (clause.op === "check")
      return {
        type: "check",
        clause,
        left: this.value(clause.left),
        right: this.value(clause.right),
      };
    if (clause.op === "count")
      return { type: "counter", clause, value: this.journal.counter(clause.counter) };
    return undefined;
  }

  /** Runs a new, step or need; the reason it could not, or null when it did. */
  private instanceReasonNot(
    clause: InstanceClause,
    key: bigint | string | null,
  ): DataReason | null {
    this.current = null;
    if (key === null) return "missing-key";
    const instance = this.journal.instance(clause.entity, key);
    if (clause.op === "new") {
      if (instance !== undefined) return "duplicate";
      this.current = this.journal.create(clause.entity, key, clause.to);
      return null;
    }
    if (instance === undefined) return "missing";
    const place = (clause.op === "step" ? clause.from : clause.in).indexOf(instance.state);
    if (place === -1) return "wrong-state";
    if (clause.op === "step") this.journal.move(instance, clause.to[place] as number);
    this.current = instance;
    return null;
  }

  /** Runs any other clause; the reason it could not, or null when it did. */
  private reasonNot(clause: Exclude<Clause, InstanceClause>): DataReason | null {
    switch (clause.op) {
      case "put": {
        const value = this.value(clause.value);
        if ("register" in clause.target) {
          this.journal.setRegister(clause.target.register, value);
          return null;
        }
        if (this.current === null) return "no-instance";
        this.current.slots[clause.target.slot] = value;
        return null;
      }
      case "check":
        return compare(this.value(clause.left), clause.comparison, this.value(clause.right))
          ? null
          : "check-failed";
      case "count":
        return this.journal.count(clause.counter, clause.by) ? null : "limit";
      case "next":
        if (!clause.elseIgnore)
          this.journal.oblige({ type: "next", kinds: clause.kinds, rule: clause.rule });
        return null;
      case "last":
        if (!clause.elseIgnore) this.journal.oblige({ type: "last", rule: clause.rule });
        return null;
      case "first":
        return this.index === 0 ? null : "not-first";
      case "once":
        return this.kindSeenBefore ? "repeated" : null;
    }
  }

  private value(operand: Operand): Value {
    switch (operand.from) {
      case "field":
        return this.record.fields[operand.field] as Value;
      case "slot":
        return this.current === null ? null : (this.current.slots[operand.slot] as Value);
      case "register":
        return this.journal.register(operand.register);
      case "index":
        return BigInt(this.index);
      case "literal":
        return operand.value;
    }
  }
}

function compare(left: Value, comparison: Comparison, right: Value): boolean {
  switch (comparison) {
    case "==":
      return left === right;
    case "!=":
      return left !== right;
  }
  if (typeof left !== "bigint" || typeof right !== "bigint") return false;
  switch (comparison) {
    case "<":
      return left < right;
    case "<=":
      return left <= right;
    case ">":
      return left > right;
    default:
      return left >= right;
  }
}

function keyTag(key: bigint | string | boolean): string {
  return typeof key === "bigint" ? `i${key}` : typeof key === "string" ? `s${key}` : `b${key}`;
}

function instanceTag(entity: number, key: bigint | string): string {
  return `${entity}:${keyTag(key)}`;
}

const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);

/** An int as a report writes it: a number within ±(2⁵³−1), its decimal digits beyond. */
export function reportInt(value: bigint): ReportInt {
  return value > SAFE_MAX || value < -SAFE_MAX ? value.toString() : Number(value);
}

export function reportValue(value: Value): ReportValue {
  return typeof value === "bigint" ? reportInt(value) : value;
}

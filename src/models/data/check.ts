/**
 * Checks a model file and compiles it (docs/models/data.md, "Checking the file"). Everything the
 * engines will rely on is decided here — every name resolved, every operand's shape known — so a
 * model that checks can never fail while auditing. A refusal names the JSON Pointer of the
 * offending place and what is wrong there; nothing in a model file is ever evaluated.
 */
import { JournalError } from "../../journal/errors.js";
import {
  CLAUSE_OPS,
  type Clause,
  type ClauseOp,
  COMPARISONS,
  type Comparison,
  type CompiledEntity,
  type CompiledField,
  type CompiledJournal,
  type CompiledKind,
  type CompiledModel,
  type CompiledRule,
  type FieldType,
  type Operand,
  type Path,
  type PathStep,
  type PutTarget,
  type RecordSource,
  type Value,
} from "./compiled.js";
import { AT_END_RULE_SUFFIX, RESERVED_RULES } from "./report.js";

/** Where a place in the file is, when the file's text is known. */
export type Locate = (
  path: readonly (string | number)[],
) => { line: number; column: number } | null;

/** A model file refused: `pointer` is the JSON Pointer of the offending place (`""`: the whole file). */
export class ModelFileError extends JournalError {
  constructor(
    file: string,
    readonly pointer: string,
    readonly problem: string,
    line?: number,
    column?: number,
  ) {
    super(
      file,
      `model file ${pointer === "" ? "(the whole file)" : pointer}: ${problem}`,
      line,
      column,
    );
  }
}

export const MODEL_LIMITS = {
  states: 255,
  slotsPerEntity: 64,
  registers: 256,
  counters: 256,
  kinds: 4096,
  clauses: 65535,
} as const;

const FIELD_TYPES: readonly FieldType[] = ["int", "string", "bool"];
const FLAG_CLAUSES: readonly ClauseOp[] = ["first", "once", "last"];

/** The members each clause may carry beside `rule` and `else`; the first is the clause's own. */
const CLAUSE_MEMBERS: Readonly<Record<ClauseOp, readonly string[]>> = {
  new: ["new", "key", "to"],
  step: ["step", "key", "from", "to"],
  need: ["need", "key", "in"],
  put: ["put", "value"],
  check: ["check"],
  count: ["count", "by"],
  next: ["next"],
  first: ["first"],
  once: ["once"],
  last: ["last"],
};

type PathInFile = readonly (string | number)[];

/**
 * The model a parsed model file states. `value` is the file's data: objects as plain objects or
 * as `Map`s (which keep the file's order of members whatever their names).
 */
export function checkModel(
  value: unknown,
  file: string,
  locate: Locate = () => null,
): CompiledModel {
  return new ModelChecker(file, locate).model(value);
}

/** Escapes one member name for a JSON Pointer (RFC 6901). */
export function pointerOf(path: PathInFile): string {
  return path
    .map((step) => `/${String(step).replaceAll("~", "~0").replaceAll("/", "~1")}`)
    .join("");
}

interface Names {
  readonly fields: ReadonlyMap<string, number>;
  readonly fieldTypes: readonly FieldType[];
  readonly entities: ReadonlyMap<string, number>;
  readonly entityList: readonly EntityDraft[];
  readonly registers: ReadonlyMap<string, number>;
  readonly counters: ReadonlyMap<string, number>;
  readonly kindOf: ReadonlyMap<string, number>;
}

interface EntityDraft {
  readonly name: string;
  readonly states: readonly string[];
  readonly stateIndex: ReadonlyMap<string, number>;
  readonly final: readonly boolean[];
  readonly slots: ReadonlyMap<string, number>;
  readonly atEnd: readonly boolean[] | null;
  readonly reuse: boolean;
}

class ModelChecker {
  private readonly ruleIndex = new Map<string, number>();
  private readonly rules: string[] = [];

  constructor(
    private readonly file: string,
    private readonly locate: Locate,
  ) {}

  private fail(path: PathInFile, problem: string): never {
    const where = this.locate(path);
    throw new ModelFileError(this.file, pointerOf(path), problem, where?.line, where?.column);
  }

  model(value: unknown): CompiledModel {
    const top = this.object(
      value,
      [],
      ["statefold", "version", "name", "records", "journal", "entities", "kinds", "rules"],
      ["statefold", "version", "name", "records", "kinds"],
    );
    if (top.get("statefold") !== "model")
      this.fail(["statefold"], `must be "model", found ${describe(top.get("statefold"))}`);
    if (top.get("version") !== 1)
      this.fail(
        ["version"],
        `this statefold reads version 1, found ${describe(top.get("version"))}`,
      );
    const name = top.get("name");
    if (typeof name !== "string" || name === "")
      this.fail(["name"], `must be a non-empty string, found ${describe(name)}`);

    const records = this.object(
      top.get("records"),
      ["records"],
      ["source", "kind", "fields"],
      ["source", "kind"],
    );
    const source = this.source(records.get("source"), ["records", "source"]);
    const kindSpec = this.object(
      records.get("kind"),
      ["records", "kind"],
      ["path", "aliases"],
      ["path"],
    );
    const kindPath = this.path(kindSpec.get("path"), ["records", "kind", "path"], false);
    const fields = this.fields(records.get("fields"), ["records", "fields"]);

    const entityList = this.entities(top.get("entities"), ["entities"]);
    const kindEntries = this.entries(
      top.get("kinds"),
      ["kinds"],
      "an object of kinds, each a list of clauses",
    );
    if (kindEntries.length > MODEL_LIMITS.kinds)
      this.fail(
        ["kinds"],
        `has ${kindEntries.length} kinds; a model may have at most ${MODEL_LIMITS.kinds}`,
      );
    const kindOf = new Map<string, number>(kindEntries.map(([kind], index) => [kind, index]));
    for (const [kind] of kindEntries)
      if (kind === "") this.fail(["kinds", kind], "a kind's name may not be empty");
    this.aliases(kindSpec.get("aliases"), ["records", "kind", "aliases"], kindOf);

    const journalValue = top.get("journal");
    const journalMembers =
      journalValue === undefined
        ? new Map<string, unknown>()
        : this.object(
            journalValue,
            ["journal"],
            ["sequence", "monotone", "registers", "counters", "unknownKinds", "key"],
            [],
          );
    const registers = this.namedList(
      journalMembers.get("registers"),
      ["journal", "registers"],
      "registers",
      MODEL_LIMITS.registers,
    );
    const counters = this.namedList(
      journalMembers.get("counters"),
      ["journal", "counters"],
      "counters",
      MODEL_LIMITS.counters,
    );

    const names: Names = {
      fields: new Map(fields.map((field, index) => [field.name, index])),
      fieldTypes: fields.map((field) => field.type),
      entities: new Map(entityList.map((entity, index) => [entity.name, index])),
      entityList,
      registers: new Map(registers.map(([register], index) => [register, index])),
      counters: new Map(counters.map(([counter], index) => [counter, index])),
      kindOf,
    };

    let clauseCount = 0;
    const kinds: CompiledKind[] = kindEntries.map(([kind, clauses]) => {
      const compiled = this.kind(kind, clauses, names);
      clauseCount += compiled.clauses.length;
      return compiled;
    });
    if (clauseCount > MODEL_LIMITS.clauses)
      this.fail(
        ["kinds"],
        `has ${clauseCount} clauses; a model may have at most ${MODEL_LIMITS.clauses}`,
      );

    const journal = this.journal(journalMembers, names, registers, counters);
    const entities = entityList.map(
      (entity): CompiledEntity => ({
        name: entity.name,
        states: entity.states,
        final: entity.final,
        slots: [...entity.slots.keys()],
        atEnd: entity.atEnd,
        atEndRule: entity.atEnd === null ? null : this.rule(`${entity.name}${AT_END_RULE_SUFFIX}`),
        reuse: entity.reuse,
      }),
    );
    const descriptions = this.descriptions(top.get("rules"), ["rules"]);
    const rules = this.rules.map(
      (rule): CompiledRule => ({ name: rule, description: descriptions.get(rule) ?? null }),
    );
    return {
      name,
      source,
      kindPath,
      fields,
      kinds,
      kindOf: this.allSpellings(kindSpec.get("aliases"), kindOf),
      entities,
      journal,
      rules,
    };
  }

  /** The rule of that name, added to the report's list the first time it is met. */
  private rule(name: string): number {
    const known = this.ruleIndex.get(name);
    if (known !== undefined) return known;
    this.ruleIndex.set(name, this.rules.length);
    this.rules.push(name);
    return this.rules.length - 1;
  }

  // Records

  private source(value: unknown, at: PathInFile): RecordSource {
    if (value === "lines") return { lines: true };
    if (Array.isArray(value)) {
      if (value.length === 0) this.fail(at, 'a list of sources needs at least one {"array": PATH}');
      return {
        arrays: value.map((alternative, index) => this.arraySource(alternative, [...at, index])),
      };
    }
    if (isObjectLike(value)) return { arrays: [this.arraySource(value, at)] };
    return this.fail(
      at,
      `must be "lines", {"array": PATH} or a list of {"array": PATH}, found ${describe(value)}`,
    );
  }

  private arraySource(value: unknown, at: PathInFile): Path {
    const members = this.object(value, at, ["array"], ["array"]);
    return this.path(members.get("array"), [...at, "array"], true);
  }

  private path(value: unknown, at: PathInFile, mayBeEmpty: boolean): Path {
    let steps: PathStep[];
    if (typeof value === "string") {
      steps =
        value === ""
          ? []
          : value.split(".").map((name, index) => {
              if (name === "")
                this.fail(
                  at,
                  `"${value}" has an empty member name at step ${index + 1}; a path is member names joined by "."`,
                );
              return name.startsWith("*") ? { suffix: name.slice(1) } : { member: name };
            });
    } else if (Array.isArray(value)) {
      steps = value.map((step, index): PathStep => {
        if (typeof step === "string") return { member: step };
        const suffix = this.object(step, [...at, index], ["*"], ["*"]).get("*");
        if (typeof suffix !== "string")
          this.fail(
            [...at, index, "*"],
            `must be a string (the suffix a member's key ends with), found ${describe(suffix)}`,
          );
        return { suffix };
      });
    } else {
      return this.fail(
        at,
        `must be a path: member names joined by "." or a list of names, found ${describe(value)}`,
      );
    }
    if (steps.length === 0 && !mayBeEmpty)
      this.fail(at, "must name at least one member: a record itself is not a value");
    return steps;
  }

  private fields(value: unknown, at: PathInFile): CompiledField[] {
    if (value === undefined) return [];
    return this.entries(value, at, "an object of fields").map(([name, spec]) => {
      if (name === "") this.fail([...at, name], "a field's name may not be empty");
      const members = this.object(spec, [...at, name], ["path", "type"], ["path", "type"]);
      const type = members.get("type");
      if (!FIELD_TYPES.includes(type as FieldType))
        this.fail(
          [...at, name, "type"],
          `must be "int", "string" or "bool", found ${describe(type)}`,
        );
      return {
        name,
        path: this.path(members.get("path"), [...at, name, "path"], false),
        type: type as FieldType,
      };
    });
  }

  private aliases(value: unknown, at: PathInFile, kindOf: ReadonlyMap<string, number>): void {
    if (value === undefined) return;
    for (const [alias, kind] of this.entries(value, at, "an object mapping spellings to kinds")) {
      if (kindOf.has(alias))
        this.fail([...at, alias], `"${alias}" is a name in kinds itself; an alias may not be`);
      if (typeof kind !== "string" || !kindOf.has(kind))
        this.fail([...at, alias], `must name a kind in kinds, found ${describe(kind)}`);
    }
  }

  private allSpellings(
    value: unknown,
    kindOf: ReadonlyMap<string, number>,
  ): ReadonlyMap<string, number> {
    const spellings = new Map(kindOf);
    if (value !== undefined)
      for (const [alias, kind] of entriesOf(value as object))
        spellings.set(alias, kindOf.get(kind as string) as number);
    return spellings;
  }

  // Entities

  private entities(value: unknown, at: PathInFile): EntityDraft[] {
    if (value === undefined) return [];
    let stateCount = 0;
    return this.entries(value, at, "an object of entities").map(([name, spec]) => {
      const here = [...at, name];
      this.name(name, here, "an entity");
      const members = this.object(
        spec,
        here,
        ["states", "final", "slots", "atEnd", "reuse"],
        ["states"],
      );
      const states = this.nameList(members.get("states"), [...here, "states"], "state", false);
      stateCount += states.length;
      if (stateCount > MODEL_LIMITS.states)
        this.fail(
          [...here, "states"],
          `brings the states of all entities to ${stateCount}; a model may have at most ${MODEL_LIMITS.states}`,
        );
      const stateIndex = new Map(states.map((state, index) => [state, index]));
      const final =
        this.stateSet(members.get("final"), [...here, "final"], stateIndex, name) ??
        states.map(() => false);
      const slots = this.nameList(members.get("slots") ?? [], [...here, "slots"], "slot", true);
      if (slots.length > MODEL_LIMITS.slotsPerEntity)
        this.fail(
          [...here, "slots"],
          `has ${slots.length} slots; an entity may have at most ${MODEL_LIMITS.slotsPerEntity}`,
        );
      const reuse = members.get("reuse") ?? false;
      if (typeof reuse !== "boolean")
        this.fail([...here, "reuse"], `must be true or false, found ${describe(reuse)}`);
      return {
        name,
        states,
        stateIndex,
        final,
        slots: new Map(slots.map((slot, index) => [slot, index])),
        atEnd: this.stateSet(members.get("atEnd"), [...here, "atEnd"], stateIndex, name),
        reuse,
      };
    });
  }

  /** A list of the entity's states as a flag per state; null when not written. */
  private stateSet(
    value: unknown,
    at: PathInFile,
    stateIndex: ReadonlyMap<string, number>,
    entity: string,
  ): boolean[] | null {
    if (value === undefined) return null;
    const flags = [...stateIndex.keys()].map(() => false);
    for (const index of this.states(value, at, stateIndex, entity)) flags[index] = true;
    return flags;
  }

  private states(
    value: unknown,
    at: PathInFile,
    stateIndex: ReadonlyMap<string, number>,
    entity: string,
  ): number[] {
    if (!Array.isArray(value))
      this.fail(at, `must be a list of states of ${entity}, found ${describe(value)}`);
    return value.map((state, index) => this.state(state, [...at, index], stateIndex, entity));
  }

  /** The states a step or need may find its instance in: at least one, or it could never apply. */
  private someStates(
    value: unknown,
    at: PathInFile,
    entity: EntityDraft,
    clause: string,
  ): number[] {
    const states = this.states(value, at, entity.stateIndex, entity.name);
    if (states.length === 0)
      this.fail(at, `must name at least one state of ${entity.name}: ${clause} could never apply`);
    return states;
  }

  private state(
    value: unknown,
    at: PathInFile,
    stateIndex: ReadonlyMap<string, number>,
    entity: string,
  ): number {
    const index = typeof value === "string" ? stateIndex.get(value) : undefined;
    if (index === undefined)
      this.fail(
        at,
        `${describe(value)} is not a state of ${entity} (its states: ${[...stateIndex.keys()].join(", ")})`,
      );
    return index;
  }

  // The journal

  private journal(
    members: ReadonlyMap<string, unknown>,
    names: Names,
    registers: readonly [string, unknown][],
    counters: readonly [string, unknown][],
  ): CompiledJournal {
    const reads = new Set<number>();
    const sequence = this.sequence(members.get("sequence"), ["journal", "sequence"], names, reads);
    const monotone = this.monotone(members.get("monotone"), ["journal", "monotone"], names, reads);
    const unknownKinds = members.get("unknownKinds") ?? "reject";
    if (unknownKinds !== "reject" && unknownKinds !== "ignore")
      this.fail(
        ["journal", "unknownKinds"],
        `must be "reject" or "ignore", found ${describe(unknownKinds)}`,
      );
    const keyValue = members.get("key");
    let key: number | null = null;
    if (keyValue !== undefined) {
      key = this.fieldNamed(keyValue, ["journal", "key"], names, ["int", "string"]);
      reads.add(key);
    }
    // The engine's own rules follow every clause's, in this order (docs/models/data.md, "The report").
    const knownKindsRule = unknownKinds === "reject" ? this.rule("known-kinds") : null;
    return {
      sequence: sequence === null ? null : { ...sequence, rule: this.rule("sequence") },
      monotone,
      monotoneRule: monotone.length > 0 ? this.rule("monotone") : null,
      registers: registers.map(([name, initial]) => ({
        name,
        initial: this.registerInitial(initial, ["journal", "registers", name]),
      })),
      counters: counters.map(([name, spec]) => ({
        name,
        max: this.counterMax(spec, ["journal", "counters", name]),
      })),
      knownKindsRule,
      key,
      reads: [...reads].sort((a, b) => a - b),
    };
  }

  private sequence(value: unknown, at: PathInFile, names: Names, reads: Set<number>) {
    if (value === undefined) return null;
    const members = this.object(value, at, ["field", "start", "step"], ["field"]);
    const field = this.fieldNamed(members.get("field"), [...at, "field"], names, ["int"]);
    reads.add(field);
    return {
      field,
      start: this.integer(members.get("start") ?? 1, [...at, "start"]),
      step: this.integer(members.get("step") ?? 1, [...at, "step"]),
    };
  }

  private monotone(value: unknown, at: PathInFile, names: Names, reads: Set<number>) {
    if (value === undefined) return [];
    if (!Array.isArray(value))
      this.fail(at, `must be a list of {"field", "strict"?}, found ${describe(value)}`);
    return value.map((entry, index) => {
      const members = this.object(entry, [...at, index], ["field", "strict"], ["field"]);
      const field = this.fieldNamed(members.get("field"), [...at, index, "field"], names, ["int"]);
      reads.add(field);
      const strict = members.get("strict") ?? false;
      if (typeof strict !== "boolean")
        this.fail([...at, index, "strict"], `must be true or false, found ${describe(strict)}`);
      return { field, strict };
    });
  }

  private registerInitial(value: unknown, at: PathInFile): Value {
    if (typeof value === "string") return value;
    if (typeof value === "number") return this.integer(value, at);
    return this.fail(
      at,
      `a register's initial value must be an integer or a string, found ${describe(value)}`,
    );
  }

  private counterMax(value: unknown, at: PathInFile): bigint | null {
    const members = this.object(value, at, ["max"], []);
    const max = members.get("max");
    if (max === undefined) return null;
    const limit = this.integer(max, [...at, "max"]);
    if (limit < 0n)
      this.fail([...at, "max"], `must be at least 0 (a counter starts at 0), found ${limit}`);
    return limit;
  }

  /** Names in an object whose values the caller reads (registers, counters). */
  private namedList(
    value: unknown,
    at: PathInFile,
    what: string,
    limit: number,
  ): [string, unknown][] {
    if (value === undefined) return [];
    const entries = this.entries(value, at, `an object of ${what}`);
    if (entries.length > limit)
      this.fail(at, `has ${entries.length} ${what}; a model may have at most ${limit}`);
    for (const [name] of entries) this.name(name, [...at, name], `a ${what.slice(0, -1)}`);
    return entries;
  }

  private fieldNamed(
    value: unknown,
    at: PathInFile,
    names: Names,
    types: readonly FieldType[],
  ): number {
    const field = typeof value === "string" ? names.fields.get(value) : undefined;
    if (field === undefined)
      this.fail(
        at,
        `${describe(value)} is not a field of records.fields (its fields: ${[...names.fields.keys()].join(", ") || "none"})`,
      );
    const type = names.fieldTypes[field] as FieldType;
    if (!types.includes(type))
      this.fail(at, `field "${value as string}" is ${type}; this needs ${types.join(" or ")}`);
    return field;
  }

  // Kinds and clauses

  private kind(kind: string, value: unknown, names: Names): CompiledKind {
    const at = ["kinds", kind];
    if (!Array.isArray(value)) this.fail(at, `must be a list of clauses, found ${describe(value)}`);
    const reads = new Set<number>();
    let current: number | null = null;
    const clauses = value.map((clause, index) => {
      const compiled = this.clause(clause, [...at, index], { kind, index, current, names, reads });
      if (compiled.op === "new" || compiled.op === "step" || compiled.op === "need")
        current = compiled.entity;
      return compiled;
    });
    return { name: kind, clauses, reads: [...reads].sort((a, b) => a - b) };
  }

  private clause(value: unknown, at: PathInFile, context: ClauseContext): Clause {
    if (typeof value === "string") {
      if (!FLAG_CLAUSES.includes(value as ClauseOp))
        this.fail(
          at,
          `a clause written as a string must be "first", "once" or "last", found ${describe(value)}`,
        );
      return {
        op: value as "first" | "once" | "last",
        rule: this.rule(defaultRule(context)),
        elseIgnore: false,
      };
    }
    if (!isObjectLike(value))
      this.fail(
        at,
        `a clause must be an object or "first", "once" or "last", found ${describe(value)}`,
      );
    const written = entriesOf(value)
      .map(([key]) => key)
      .filter((key) => CLAUSE_OPS.includes(key as ClauseOp)) as ClauseOp[];
    if (written.length !== 1)
      this.fail(
        at,
        written.length === 0
          ? `a clause needs one of ${CLAUSE_OPS.join(", ")}`
          : `a clause has exactly one of ${CLAUSE_OPS.join(", ")}; this one has ${written.join(" and ")}`,
      );
    const op = written[0] as ClauseOp;
    const members = this.object(
      value,
      at,
      [...CLAUSE_MEMBERS[op], "rule", "else"],
      CLAUSE_MEMBERS[op],
    );
    const common = {
      rule: this.clauseRule(members.get("rule"), [...at, "rule"], context),
      elseIgnore: this.elseIgnore(members.get("else"), [...at, "else"]),
    };
    return { ...common, ...this.clauseBody(op, members, at, context) } as Clause;
  }

  private clauseBody(
    op: ClauseOp,
    members: ReadonlyMap<string, unknown>,
    at: PathInFile,
    context: ClauseContext,
  ) {
    switch (op) {
      case "new": {
        const entity = this.entityNamed(members.get("new"), [...at, "new"], context.names);
        return {
          op,
          entity,
          key: this.key(members.get("key"), [...at, "key"], context),
          to: this.state(
            members.get("to"),
            [...at, "to"],
            entityOf(context, entity).stateIndex,
            entityOf(context, entity).name,
          ),
        };
      }
      case "step": {
        const entity = this.entityNamed(members.get("step"), [...at, "step"], context.names);
        const draft = entityOf(context, entity);
        const from = this.someStates(
          members.get("from"),
          [...at, "from"],
          draft,
          "a step from no state",
        );
        from.forEach((state, index) => {
          if (draft.final[state])
            this.fail(
              [...at, "from", index],
              `"${draft.states[state]}" is a final state of ${draft.name}: nothing steps out of it`,
            );
        });
        return {
          op,
          entity,
          key: this.key(members.get("key"), [...at, "key"], context),
          from,
          to: this.stepTargets(members.get("to"), [...at, "to"], from, draft),
        };
      }
      case "need": {
        const entity = this.entityNamed(members.get("need"), [...at, "need"], context.names);
        const draft = entityOf(context, entity);
        return {
          op,
          entity,
          key: this.key(members.get("key"), [...at, "key"], context),
          in: this.someStates(members.get("in"), [...at, "in"], draft, "a need in no state"),
        };
      }
      case "put":
        return {
          op,
          target: this.putTarget(members.get("put"), [...at, "put"], context),
          value: this.operand(members.get("value"), [...at, "value"], context),
        };
      case "check":
        return { op, ...this.comparison(members.get("check"), [...at, "check"], context) };
      case "count": {
        const counterName = members.get("count");
        const counter =
          typeof counterName === "string" ? context.names.counters.get(counterName) : undefined;
        if (counter === undefined)
          this.fail(
            [...at, "count"],
            `${describe(counterName)} is not a counter of journal.counters (its counters: ${[...context.names.counters.keys()].join(", ") || "none"})`,
          );
        return { op, counter, by: this.integer(members.get("by"), [...at, "by"]) };
      }
      case "next": {
        const kinds = members.get("next");
        if (!Array.isArray(kinds) || kinds.length === 0)
          this.fail([...at, "next"], `must be a non-empty list of kinds, found ${describe(kinds)}`);
        return {
          op,
          kinds: kinds.map((kind, index) => {
            const resolved = typeof kind === "string" ? context.names.kindOf.get(kind) : undefined;
            if (resolved === undefined)
              this.fail([...at, "next", index], `${describe(kind)} is not a kind of kinds`);
            return resolved;
          }),
        };
      }
      default:
        if (members.get(op) !== true)
          this.fail([...at, op], `must be true, found ${describe(members.get(op))}`);
        return { op };
    }
  }

  private stepTargets(
    value: unknown,
    at: PathInFile,
    from: readonly number[],
    entity: EntityDraft,
  ): number[] {
    if (typeof value === "string") {
      const to = this.state(value, at, entity.stateIndex, entity.name);
      return from.map(() => to);
    }
    const targets = new Map(
      this.entries(value, at, "a state, or an object mapping each from state to its target").map(
        ([state, target]) => [state, target],
      ),
    );
    for (const state of targets.keys())
      if (!from.some((index) => entity.states[index] === state))
        this.fail(
          [...at, state],
          `"${state}" is not one of this step's from states (${from.map((index) => entity.states[index]).join(", ")})`,
        );
    return from.map((index) => {
      const state = entity.states[index] as string;
      if (!targets.has(state))
        this.fail(
          at,
          `has no target for the from state "${state}"; a map of targets names every from state`,
        );
      return this.state(targets.get(state), [...at, state], entity.stateIndex, entity.name);
    });
  }

  private entityNamed(value: unknown, at: PathInFile, names: Names): number {
    const entity = typeof value === "string" ? names.entities.get(value) : undefined;
    if (entity === undefined)
      this.fail(
        at,
        `${describe(value)} is not an entity of entities (its entities: ${[...names.entities.keys()].join(", ") || "none"})`,
      );
    return entity;
  }

  private key(value: unknown, at: PathInFile, context: ClauseContext): Operand {
    if (typeof value === "boolean")
      this.fail(at, `an instance's key is an int or a string, never ${value}`);
    return this.operand(value, at, context);
  }

  private putTarget(value: unknown, at: PathInFile, context: ClauseContext): PutTarget {
    if (typeof value === "string" && value.startsWith("@"))
      return { slot: this.slot(value.slice(1), at, context) };
    if (typeof value === "string" && value.startsWith("%"))
      return { register: this.register(value.slice(1), at, context) };
    return this.fail(at, `must be "@slot" or "%register", found ${describe(value)}`);
  }

  private comparison(value: unknown, at: PathInFile, context: ClauseContext) {
    if (!Array.isArray(value) || value.length !== 3)
      this.fail(at, `must be [A, OP, B], found ${describe(value)}`);
    const comparison = value[1];
    if (!COMPARISONS.includes(comparison as Comparison))
      this.fail(
        [...at, 1],
        `must be one of ${COMPARISONS.join(" ")}, found ${describe(comparison)}`,
      );
    return {
      left: this.operand(value[0], [...at, 0], context),
      comparison: comparison as Comparison,
      right: this.operand(value[2], [...at, 2], context),
    };
  }

  private operand(value: unknown, at: PathInFile, context: ClauseContext): Operand {
    if (value === undefined) this.fail(at, "an operand is missing here");
    if (value === null || typeof value === "boolean") return { from: "literal", value };
    if (typeof value === "number") return { from: "literal", value: this.integer(value, at) };
    if (typeof value !== "string")
      this.fail(
        at,
        `an operand is "$field", "@slot", "%register", "#", an integer, a string, true, false or null; found ${describe(value)}`,
      );
    const sigil = value.charAt(0);
    const name = value.slice(1);
    switch (sigil) {
      case "$": {
        const field = context.names.fields.get(name);
        if (field === undefined)
          this.fail(
            at,
            `"${name}" is not a field of records.fields (its fields: ${[...context.names.fields.keys()].join(", ") || "none"})`,
          );
        context.reads.add(field);
        return { from: "field", field };
      }
      case "@":
        return { from: "slot", slot: this.slot(name, at, context) };
      case "%":
        return { from: "register", register: this.register(name, at, context) };
      case "#":
        if (name !== "")
          this.fail(
            at,
            `"#" is the record's index and takes nothing after it; write "=${value}" for the string`,
          );
        return { from: "index" };
      case "=":
        return { from: "literal", value: name };
      default:
        return { from: "literal", value };
    }
  }

  private slot(name: string, at: PathInFile, context: ClauseContext): number {
    if (context.current === null)
      this.fail(
        at,
        `"@${name}" names a slot, but no new, step or need comes before it in this kind's clauses to say whose`,
      );
    const entity = entityOf(context, context.current);
    const slot = entity.slots.get(name);
    if (slot === undefined)
      this.fail(
        at,
        `"${name}" is not a slot of ${entity.name} (its slots: ${[...entity.slots.keys()].join(", ") || "none"})`,
      );
    return slot;
  }

  private register(name: string, at: PathInFile, context: ClauseContext): number {
    const register = context.names.registers.get(name);
    if (register === undefined)
      this.fail(
        at,
        `"${name}" is not a register of journal.registers (its registers: ${[...context.names.registers.keys()].join(", ") || "none"})`,
      );
    return register;
  }

  private clauseRule(value: unknown, at: PathInFile, context: ClauseContext): number {
    if (value === undefined) return this.rule(defaultRule(context));
    this.name(value, at, "a rule");
    if ((RESERVED_RULES as readonly string[]).includes(value as string))
      this.fail(at, `"${value as string}" is a rule statefold names itself; choose another name`);
    return this.rule(value as string);
  }

  private elseIgnore(value: unknown, at: PathInFile): boolean {
    if (value === undefined) return false;
    if (value !== "ignore") this.fail(at, `must be "ignore", found ${describe(value)}`);
    return true;
  }

  private descriptions(value: unknown, at: PathInFile): Map<string, string> {
    const descriptions = new Map<string, string>();
    if (value === undefined) return descriptions;
    for (const [rule, description] of this.entries(value, at, "an object of rule descriptions")) {
      if (!this.ruleIndex.has(rule))
        this.fail(
          [...at, rule],
          `no clause carries a rule "${rule}" and statefold adds none of that name (rules: ${this.rules.join(", ")})`,
        );
      if (typeof description !== "string")
        this.fail(
          [...at, rule],
          `must be a string describing the rule, found ${describe(description)}`,
        );
      descriptions.set(rule, description);
    }
    return descriptions;
  }

  // Shapes

  private object(
    value: unknown,
    at: PathInFile,
    allowed: readonly string[],
    required: readonly string[],
  ): Map<string, unknown> {
    if (!isObjectLike(value)) this.fail(at, `must be an object, found ${describe(value)}`);
    const members = new Map(entriesOf(value));
    for (const key of members.keys())
      if (!allowed.includes(key))
        this.fail([...at, key], `unknown member "${key}"; allowed here: ${allowed.join(", ")}`);
    for (const key of required)
      if (!members.has(key)) this.fail(at, `missing required member "${key}"`);
    return members;
  }

  private entries(value: unknown, at: PathInFile, expected: string): [string, unknown][] {
    if (!isObjectLike(value)) this.fail(at, `must be ${expected}, found ${describe(value)}`);
    return entriesOf(value);
  }

  private name(value: unknown, at: PathInFile, what: string): void {
    if (typeof value !== "string" || value === "" || value.includes("."))
      this.fail(at, `${what}'s name is a non-empty string without ".", found ${describe(value)}`);
  }

  private nameList(value: unknown, at: PathInFile, what: string, mayBeEmpty: boolean): string[] {
    if (!Array.isArray(value) || (!mayBeEmpty && value.length === 0))
      this.fail(
        at,
        `must be a ${mayBeEmpty ? "" : "non-empty "}list of ${what} names, found ${describe(value)}`,
      );
    const seen = new Set<string>();
    value.forEach((name, index) => {
      this.name(name, [...at, index], `a ${what}`);
      if (seen.has(name)) this.fail([...at, index], `"${name}" is listed twice`);
      seen.add(name);
    });
    return value;
  }

  private integer(value: unknown, at: PathInFile): bigint {
    if (typeof value !== "number" || !Number.isSafeInteger(value))
      this.fail(at, `must be an integer within ±(2^53 − 1), found ${describe(value)}`);
    return BigInt(value);
  }
}

interface ClauseContext {
  readonly kind: string;
  readonly index: number;
  /** The entity of the nearest new, step or need before this clause. */
  readonly current: number | null;
  readonly names: Names;
  /** The fields this kind's clauses read, gathered as operands are checked. */
  readonly reads: Set<number>;
}

function defaultRule(context: ClauseContext): string {
  return `${context.kind}#${context.index + 1}`;
}

function entityOf(context: ClauseContext, entity: number): EntityDraft {
  return context.names.entityList[entity] as EntityDraft;
}

function isObjectLike(value: unknown): value is object {
  return (
    value instanceof Map || (typeof value === "object" && value !== null && !Array.isArray(value))
  );
}

function entriesOf(value: object): [string, unknown][] {
  return value instanceof Map
    ? [...value.entries()].map(([key, member]) => [String(key), member])
    : Object.entries(value);
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value instanceof Map) return "an object";
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * fast-check arbitraries of models defined by data (docs/models/data.md) and of their journals,
 * for the differential test that holds the kernel's table interpreter to the reference one, the
 * vacuity guard that proves they reach every clause and reason, and the reference's own
 * properties.
 *
 * `dataModelArbitrary()` gives model files as JSON values covering the whole format: 1–3
 * entities, fields of every type on paths of one or two steps (dotted names in array form,
 * `*SUFFIX` steps), aliases, every journal setting, every clause with every operand form and
 * comparison, shared and default rules, `"else": "ignore"`. Names come from small pools, so
 * states, keys and kinds collide often; every model is one the checker accepts.
 *
 * `dataJournalArbitrary(model)` gives a journal for one model file: the records are chosen by
 * following the model (kinds from its kinds and aliases, keys of the instances its clauses
 * expect, sequence numbers that follow, monotone values that grow), so most clauses apply, and
 * each kind of failure is then mixed in at a per-journal rate that shrinks to 0. The journal is
 * kept as a draft (`JournalDraft`: records as `JsonAst`, which keeps number spellings, member
 * order and duplicate keys) that `writeJournal` turns into bytes, so a test can write the same
 * records another way.
 */
import fc from "fast-check";
import { concatBytes, encode } from "./bytes.js";

// ---------------------------------------------------------------------------------------------
// JSON as written

/** A number written exactly as `text` (`5.0`, `5e0`, `9007199254740993`). */
export class JsonNumber {
  constructor(readonly text: string) {}
}

/** An object whose members keep their order and may repeat a key (the last value wins). */
export class JsonObject {
  constructor(readonly members: readonly (readonly [string, JsonAst])[]) {}
}

export type JsonAst = null | boolean | string | JsonNumber | readonly JsonAst[] | JsonObject;

/** How the same records may be written: none of these may change a report but its `line`s. */
export interface WriteStyle {
  /** A space after each `,` and `:` and inside brackets, a tab before each record. */
  readonly spaced: boolean;
  /** Every non-ASCII character, `a` and `/` of a string or key written as an escape. */
  readonly escaped: boolean;
  readonly crlf: boolean;
}

export const PLAIN_WRITE: WriteStyle = { spaced: false, escaped: false, crlf: false };

export function writeJson(value: JsonAst, style: WriteStyle): string {
  const comma = style.spaced ? ", " : ",";
  const colon = style.spaced ? ": " : ":";
  const pad = style.spaced ? " " : "";
  if (value === null || typeof value === "boolean") return String(value);
  if (typeof value === "string") return writeString(value, style.escaped);
  if (value instanceof JsonNumber) return value.text;
  if (value instanceof JsonObject) {
    const members = value.members.map(
      ([key, member]) => `${writeString(key, style.escaped)}${colon}${writeJson(member, style)}`,
    );
    return `{${pad}${members.join(comma)}${pad}}`;
  }
  return `[${pad}${value.map((item) => writeJson(item, style)).join(comma)}${pad}]`;
}

function writeString(text: string, escaped: boolean): string {
  if (!escaped) return JSON.stringify(text);
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0x22) out += '\\"';
    else if (unit === 0x5c) out += "\\\\";
    else if (unit === 0x2f) out += "\\/";
    else if (unit < 0x20 || unit > 0x7e || unit === 0x61)
      out += `\\u${unit.toString(16).padStart(4, "0")}`;
    else out += text[i];
  }
  return `${out}"`;
}

/** The value `JSON.parse` would give for `value` (the last of duplicate keys wins). */
export function jsonValueOf(value: JsonAst): unknown {
  if (value instanceof JsonNumber) return Number(value.text);
  if (value instanceof JsonObject) {
    const object: Record<string, unknown> = {};
    for (const [key, member] of value.members)
      Object.defineProperty(object, key, {
        value: jsonValueOf(member),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return object;
  }
  if (Array.isArray(value)) return value.map(jsonValueOf);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Name pools: small, so that names collide

const MODEL_NAMES = ["m", "payments"];
const ENTITY_NAMES = ["job", "task", "run"];
const STATE_NAMES = ["new", "open", "busy", "done", "failed", "gone"];
const SLOT_NAMES = ["amt", "who", "n"];
const REGISTER_NAMES = ["last", "mode"];
const COUNTER_NAMES = ["open", "total"];
const KIND_NAMES = ["created", "moved", "closed", "noted", "pi.done", "tick"];
/** Other spellings of kinds: never a name in KIND_NAMES. */
export const ALIAS_NAMES = ["Created", "MOVED", "x.closed", "pi_done"];
/** Kinds no model names, nor any alias. */
export const UNKNOWN_KINDS = ["mystery", "Noted", "créé"];
const RULE_NAMES = ["lifecycle", "keys", "order"];
const FIELD_NAMES = ["id", "ref", "n", "seq", "ts", "ok", "who", "amt"];

export type PathStep = { readonly member: string } | { readonly suffix: string };
type PathShape = readonly PathStep[];

const m = (member: string): PathStep => ({ member });
const s = (suffix: string): PathStep => ({ suffix });

/** The kind's paths: none is a prefix of a field path (their first steps differ or they share an object). */
const KIND_PATHS: readonly PathShape[] = [
  [m("kind")],
  [m("type")],
  [m("meta"), m("kind")],
  [m("ev.kind")],
  [s("Type")],
];

/** Field paths; a model takes a prefix-free choice of them. No member ends with a suffix used. */
const FIELD_PATHS: readonly PathShape[] = [
  [m("id")],
  [m("ref")],
  [m("n")],
  [m("seq")],
  [m("ts")],
  [m("ok")],
  [m("label")],
  [m("data"), m("id")],
  [m("data"), m("n")],
  [m("data"), m("label")],
  [m("data")],
  [m("a.b")],
  [m("a.b"), m("c")],
  [m("meta"), m("x.y")],
  [s("Attrs"), m("id")],
  [s("Attrs"), m("n")],
  [s("Info")],
];

/** Members whose key ends with a suffix step's SUFFIX, one of which a record uses. */
const SUFFIX_MEMBERS = ["start", "closed", "x"];

const ARRAY_SOURCES: readonly JsonValue[] = [
  { array: "events" },
  { array: "history.events" },
  { array: ["history", "events"] },
  { array: "" },
  [{ array: "events" }, { array: "history.events" }, { array: "" }],
  [{ array: "items" }, { array: "events" }],
];

const FIELD_TYPES = ["int", "string", "bool"] as const;
type FieldType = (typeof FIELD_TYPES)[number];

// ---------------------------------------------------------------------------------------------
// Choices drawn through fc.gen, each shrinking to its plainest value

type Gen = fc.GeneratorValue;
type JsonValue = unknown;

const DRAW_MAX = 0x7fffffff;

/** Every draw comes from this one arbitrary: fc.gen looks up the arbitraries it is asked for among
 * all those it was asked for before, comparing their arguments, so each distinct range would cost
 * every later draw. */
const anyDraw = (): fc.Arbitrary<number> => fc.noBias(fc.integer({ min: 0, max: DRAW_MAX }));

/** An integer in [min, max], every value alike; shrinks to min. */
function uniform(g: Gen, min: number, max: number): number {
  return min + (g(anyDraw) % (max - min + 1));
}

/** One of the items (drawing nothing when there is one: every draw costs fc.gen a copy of its generator). */
function pick<T>(g: Gen, items: readonly T[]): T {
  return items[items.length === 1 ? 0 : uniform(g, 0, items.length - 1)] as T;
}

/** True `percent` times in a hundred; shrinks to false. */
function chance(g: Gen, percent: number): boolean {
  return percent > 0 && uniform(g, 0, 99) >= 100 - percent;
}

/**
 * Some of the items, in a random order; shrinks to the first `minLength`. (Not fc.subarray or
 * fc.shuffledSubarray: fc.gen keeps every arbitrary it is asked for, comparing their arguments
 * deeply, so one per list of items would make a sample's generation quadratic.)
 */
function shuffledSubset<T>(
  g: Gen,
  items: readonly T[],
  minLength: number,
  maxLength = items.length,
): T[] {
  const left = [...items];
  const length = uniform(g, minLength, Math.min(maxLength, items.length));
  const chosen: T[] = [];
  for (let i = 0; i < length; i++)
    chosen.push(left.splice(uniform(g, 0, left.length - 1), 1)[0] as T);
  return chosen;
}

/** Some of the items, in their order; shrinks to the first `minLength`. */
function subset<T>(g: Gen, items: readonly T[], minLength: number, maxLength = items.length): T[] {
  const chosen = new Set(shuffledSubset(g, items, minLength, maxLength));
  return items.filter((item) => chosen.has(item));
}

function weighted<T>(g: Gen, options: readonly (readonly [number, T])[]): T {
  const total = options.reduce((sum, [weight]) => sum + weight, 0);
  let roll = uniform(g, 0, total - 1);
  for (const [weight, value] of options) {
    if (roll < weight) return value;
    roll -= weight;
  }
  throw new Error("weighted: no options");
}

// ---------------------------------------------------------------------------------------------
// Model files

export interface DataModelOptions {
  /**
   * Whether a model splits its stream into journals by a key field (`journal.key`): never,
   * sometimes (the default) or always (when it has an int or string field).
   */
  readonly split?: "never" | "sometimes" | "always";
  /** Whether a model's records may come from an array document; default true. */
  readonly arrays?: boolean;
}

interface FieldChoice {
  readonly name: string;
  readonly path: PathShape;
  readonly type: FieldType;
}

interface EntityChoice {
  readonly name: string;
  readonly states: readonly string[];
  readonly final: readonly string[];
  readonly slots: readonly string[];
  /** The field most of its clauses key on (null: none fits, keys are literals). */
  readonly keyField: string | null;
}

interface ModelContext {
  readonly fields: readonly FieldChoice[];
  readonly entities: readonly EntityChoice[];
  readonly registers: readonly string[];
  readonly counters: readonly string[];
  readonly kinds: readonly string[];
}

/** Valid model files (JSON values) over the whole of the format. */
export function dataModelArbitrary(options: DataModelOptions = {}): fc.Arbitrary<JsonValue> {
  return fc.gen().map((g) => generateModel(g, options));
}

function generateModel(g: Gen, options: DataModelOptions): JsonValue {
  const kindPath = pick(g, KIND_PATHS);
  const fields = generateFields(g, kindPath);
  const entities = generateEntities(g, fields);
  const registers = subset(g, REGISTER_NAMES, 0);
  const counters = subset(g, COUNTER_NAMES, 0);
  const kinds = subset(g, KIND_NAMES, 1, 5);
  const context: ModelContext = { fields, entities, registers, counters, kinds };
  const kindClauses = kinds.map((kind) => [kind, generateClauses(g, context)] as const);
  createSteppedEntities(g, context, kindClauses);
  const file: Record<string, JsonValue> = {
    statefold: "model",
    version: 1,
    name: pick(g, MODEL_NAMES),
    records: {
      source: options.arrays !== false && chance(g, 30) ? pick(g, ARRAY_SOURCES) : "lines",
      kind: kindSpec(g, kindPath, kinds),
      fields: Object.fromEntries(
        fields.map((field) => [field.name, { path: writePath(g, field.path), type: field.type }]),
      ),
    },
  };
  const journal = generateJournalSettings(g, context, registers, counters, options);
  if (Object.keys(journal).length > 0 || chance(g, 10)) file.journal = journal;
  file.entities = Object.fromEntries(
    entities.map((entity) => [entity.name, entitySpec(g, entity)]),
  );
  file.kinds = Object.fromEntries(kindClauses);
  const rules = describedRules(g, kindClauses);
  if (Object.keys(rules).length > 0) file.rules = rules;
  return file;
}

function sameStep(a: PathStep, b: PathStep): boolean {
  return "member" in a && "member" in b
    ? a.member === b.member
    : "suffix" in a && "suffix" in b && a.suffix === b.suffix;
}

function overlaps(a: PathShape, b: PathShape): boolean {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (!sameStep(a[i] as PathStep, b[i] as PathStep)) return false;
  return true;
}

function generateFields(g: Gen, kindPath: PathShape): FieldChoice[] {
  const paths: PathShape[] = [];
  for (const path of subset(g, FIELD_PATHS, 1, 7)) {
    if (!overlaps(path, kindPath) && paths.every((taken) => !overlaps(path, taken)))
      paths.push(path);
  }
  const names = shuffledSubset(g, FIELD_NAMES, paths.length, paths.length);
  return paths.map((path, i) => ({
    name: names[i] as string,
    path,
    type: weighted<FieldType>(g, [
      [45, "int"],
      [40, "string"],
      [15, "bool"],
    ]),
  }));
}

/** A path as a file writes it: dotted text when it can be, else (or sometimes) the array form. */
function writePath(g: Gen, path: PathShape): JsonValue {
  const dotted = path.some((step) => "member" in step && step.member.includes("."));
  if (dotted || chance(g, 25))
    return path.map((step) => ("member" in step ? step.member : { "*": step.suffix }));
  return path.map((step) => ("member" in step ? step.member : `*${step.suffix}`)).join(".");
}

function kindSpec(g: Gen, kindPath: PathShape, kinds: readonly string[]): JsonValue {
  const spec: Record<string, JsonValue> = { path: writePath(g, kindPath) };
  if (chance(g, 45)) {
    const aliases = subset(g, ALIAS_NAMES, 1);
    spec.aliases = Object.fromEntries(aliases.map((alias) => [alias, pick(g, kinds)]));
  }
  return spec;
}

function generateEntities(g: Gen, fields: readonly FieldChoice[]): EntityChoice[] {
  const keyable = fields.filter((field) => field.type !== "bool").map((field) => field.name);
  return subset(g, ENTITY_NAMES, 1).map((name) => {
    const states = subset(g, STATE_NAMES, 2, 6);
    return {
      name,
      states,
      final: subset(g, states, 0, states.length - 1),
      slots: subset(g, SLOT_NAMES, 0),
      keyField: keyable.length > 0 ? pick(g, keyable) : null,
    };
  });
}

function entitySpec(g: Gen, entity: EntityChoice): JsonValue {
  const spec: Record<string, JsonValue> = { states: entity.states };
  if (entity.final.length > 0 || chance(g, 10)) spec.final = entity.final;
  if (entity.slots.length > 0 || chance(g, 10)) spec.slots = entity.slots;
  if (chance(g, 55)) spec.atEnd = subset(g, entity.states, chance(g, 90) ? 1 : 0);
  if (chance(g, 50)) spec.reuse = chance(g, 60);
  return spec;
}

function generateJournalSettings(
  g: Gen,
  context: ModelContext,
  registers: readonly string[],
  counters: readonly string[],
  options: DataModelOptions,
): Record<string, JsonValue> {
  const journal: Record<string, JsonValue> = {};
  const ints = context.fields.filter((field) => field.type === "int").map((field) => field.name);
  if (ints.length > 0 && chance(g, 45)) {
    const sequence: Record<string, JsonValue> = { field: pick(g, ints) };
    if (chance(g, 50)) sequence.start = pick(g, [0, 1, 10, -5, 2147483647]);
    if (chance(g, 40)) sequence.step = pick(g, [1, 2, 3, 0, -1]);
    journal.sequence = sequence;
  }
  if (ints.length > 0 && chance(g, 35))
    journal.monotone = subset(g, ints, 1).map((field) => {
      const entry: Record<string, JsonValue> = { field };
      if (chance(g, 60)) entry.strict = chance(g, 50);
      return entry;
    });
  if (registers.length > 0)
    journal.registers = Object.fromEntries(
      registers.map((name) => [name, pick<JsonValue>(g, [0, 7, -1, "a", "idle", ""])]),
    );
  if (counters.length > 0)
    journal.counters = Object.fromEntries(
      counters.map((name) => [name, chance(g, 55) ? { max: pick(g, [0, 1, 2, 3]) } : {}]),
    );
  if (chance(g, 50)) journal.unknownKinds = pick(g, ["reject", "ignore"]);
  const keyable = context.fields.filter((field) => field.type !== "bool");
  const split = options.split ?? "sometimes";
  if (keyable.length > 0 && (split === "always" || (split === "sometimes" && chance(g, 15))))
    journal.key = pick(g, keyable).name;
  return journal;
}

// ---------------------------------------------------------------------------------------------
// Clauses

type ClauseOp =
  | "new"
  | "step"
  | "need"
  | "put"
  | "check"
  | "count"
  | "next"
  | "first"
  | "once"
  | "last";

const CLAUSE_WEIGHTS: readonly (readonly [number, ClauseOp])[] = [
  [18, "new"],
  [20, "step"],
  [11, "need"],
  [10, "put"],
  [14, "check"],
  [8, "count"],
  [6, "next"],
  [4, "first"],
  [5, "once"],
  [4, "last"],
];

const COMPARISONS = ["==", "!=", "<", "<=", ">", ">="] as const;

function generateClauses(g: Gen, context: ModelContext): JsonValue[] {
  const count = weighted(g, [
    [3, 0],
    [25, 1],
    [30, 2],
    [25, 3],
    [12, 4],
    [5, 5],
  ]);
  const clauses: JsonValue[] = [];
  let current: EntityChoice | null = null;
  for (let i = 0; i < count; i++) {
    const op = weighted(g, CLAUSE_WEIGHTS);
    const made = generateClause(g, op, context, current);
    clauses.push(made.clause);
    current = made.current;
  }
  return clauses;
}

/**
 * A `new` for an entity that clauses step or need but none creates, at the head of a kind's
 * clauses (most of the time: otherwise no instance of it could ever exist, and its clauses would
 * only ever be `missing`).
 */
function createSteppedEntities(
  g: Gen,
  context: ModelContext,
  kindClauses: readonly (readonly [string, JsonValue[]])[],
): void {
  const named = (op: string) =>
    new Set(
      kindClauses.flatMap(([, clauses]) =>
        clauses.map((clause) => asObject(clause)[op]).filter((name) => name !== undefined),
      ),
    );
  const created = named("new");
  const used = new Set([...named("step"), ...named("need")]);
  for (const entity of context.entities) {
    if (created.has(entity.name) || !used.has(entity.name) || chance(g, 15)) continue;
    const key = entity.keyField === null ? pick(g, KEY_POOLS.string) : `$${entity.keyField}`;
    const [, clauses] = pick(g, kindClauses);
    clauses.unshift(decorate(g, { new: entity.name, key, to: pick(g, entity.states) }));
  }
}

interface MadeClause {
  readonly clause: JsonValue;
  /** The entity of the current instance after it (docs/models/data.md, "Clauses"). */
  readonly current: EntityChoice | null;
}

function generateClause(
  g: Gen,
  op: ClauseOp,
  context: ModelContext,
  current: EntityChoice | null,
): MadeClause {
  switch (op) {
    case "new":
    case "step":
    case "need":
      return instanceClause(g, op, context, current);
    case "put":
      return { clause: putClause(g, context, current), current };
    case "check":
      return { clause: checkClause(g, context, current), current };
    case "count":
      return { clause: countClause(g, context, current), current };
    case "next":
      return { clause: decorate(g, { next: subset(g, context.kinds, 1) }), current };
    case "first":
    case "once":
    case "last":
      return { clause: chance(g, 50) ? op : decorate(g, { [op]: true }), current };
    default: {
      const unreachable: never = op;
      throw new Error(`no clause ${unreachable}`);
    }
  }
}

/** A clause's optional `rule` (from a small pool, so rules are shared) and `"else": "ignore"`. */
function decorate(g: Gen, clause: Record<string, JsonValue>): Record<string, JsonValue> {
  if (chance(g, 25)) clause.rule = pick(g, RULE_NAMES);
  if (chance(g, 10)) clause.else = "ignore";
  return clause;
}

function instanceClause(
  g: Gen,
  op: "new" | "step" | "need",
  context: ModelContext,
  current: EntityChoice | null,
): MadeClause {
  const entity = pick(g, context.entities);
  const key =
    entity.keyField !== null && chance(g, 80)
      ? `$${entity.keyField}`
      : operand(g, context, current, true);
  const live = entity.states.filter((state) => !entity.final.includes(state));
  if (op === "new")
    return {
      clause: decorate(g, { new: entity.name, key, to: pick(g, entity.states) }),
      current: entity,
    };
  if (op === "need" || live.length === 0)
    return {
      clause: decorate(g, { need: entity.name, key, in: subset(g, entity.states, 1) }),
      current: entity,
    };
  const from = subset(g, live, 1);
  const to = chance(g, 35)
    ? Object.fromEntries(from.map((state) => [state, pick(g, entity.states)]))
    : pick(g, entity.states);
  return { clause: decorate(g, { step: entity.name, key, from, to }), current: entity };
}

function putClause(g: Gen, context: ModelContext, current: EntityChoice | null): JsonValue {
  const slots = current?.slots ?? [];
  const targets = [
    ...slots.map((slot) => `@${slot}`),
    ...context.registers.map((register) => `%${register}`),
  ];
  if (targets.length === 0) return checkClause(g, context, current);
  return decorate(g, { put: pick(g, targets), value: operand(g, context, current, false) });
}

function checkClause(g: Gen, context: ModelContext, current: EntityChoice | null): JsonValue {
  const left = operand(g, context, current, false);
  const comparison = pick(g, COMPARISONS);
  return decorate(g, { check: [left, comparison, operand(g, context, current, false)] });
}

function countClause(g: Gen, context: ModelContext, current: EntityChoice | null): JsonValue {
  if (context.counters.length === 0) return checkClause(g, context, current);
  return decorate(g, {
    count: pick(g, context.counters),
    by: pick(g, [1, 1, -1, 2, 0, -2, 4294967295]),
  });
}

/** An operand of any form (docs/models/data.md, "Operands"); a key is never `true`/`false`. */
function operand(
  g: Gen,
  context: ModelContext,
  current: EntityChoice | null,
  isKey: boolean,
): JsonValue {
  const slots = current?.slots ?? [];
  const form = weighted(g, [
    [40, "field"],
    [slots.length > 0 ? 12 : 0, "slot"],
    [context.registers.length > 0 ? 10 : 0, "register"],
    [6, "index"],
    [12, "int"],
    [10, "string"],
    [4, "escaped"],
    [isKey ? 0 : 4, "bool"],
    [3, "null"],
  ] as const);
  switch (form) {
    case "field":
      return `$${pick(g, context.fields).name}`;
    case "slot":
      return `@${pick(g, slots)}`;
    case "register":
      return `%${pick(g, context.registers)}`;
    case "index":
      return "#";
    case "int":
      return pick(g, [1, 2, 0, 3, -1, 2147483648, -2147483649, 9007199254740991]);
    case "string":
      return pick(g, ["a", "b", "done", "x y", "é", ""]);
    case "escaped":
      return pick(g, ["=$id", "=#", "=@amt", "=%last", "=a", "="]);
    case "bool":
      return pick(g, [true, false]);
    case "null":
      return null;
  }
}

function describedRules(
  g: Gen,
  kindClauses: readonly (readonly [string, readonly JsonValue[]])[],
): Record<string, string> {
  const named = new Set<string>();
  for (const [, clauses] of kindClauses)
    for (const clause of clauses)
      if (typeof clause === "object" && clause !== null && "rule" in clause)
        named.add((clause as { rule: string }).rule);
  const rules: Record<string, string> = {};
  for (const rule of named) if (chance(g, 60)) rules[rule] = `what ${rule} means, in words`;
  return rules;
}

// ---------------------------------------------------------------------------------------------
// Reading a model file back: what a journal for it needs to know

export interface ModelView {
  readonly name: string;
  /** null: JSONL; else the paths an array document's records may sit at, in the file's order. */
  readonly arrays: readonly (readonly string[])[] | null;
  readonly kindPath: PathShape;
  readonly fields: ReadonlyMap<string, { readonly path: PathShape; readonly type: FieldType }>;
  /** Names in `kinds`, in order, with their clauses. */
  readonly kinds: ReadonlyMap<string, readonly ClauseView[]>;
  /** Each kind's other spellings. */
  readonly aliasesOf: ReadonlyMap<string, readonly string[]>;
  readonly entities: ReadonlyMap<
    string,
    { readonly states: readonly string[]; readonly final: readonly string[]; reuse: boolean }
  >;
  readonly sequence: {
    readonly field: string;
    readonly start: number;
    readonly step: number;
  } | null;
  readonly monotone: readonly string[];
  readonly key: string | null;
}

/** A clause as a journal's generator sees it. */
export interface ClauseView {
  readonly op: ClauseOp;
  readonly entity?: string;
  /** The field a `new`, `step` or `need` keys on, when its key is `$field`. */
  readonly keyField?: string;
  readonly from?: readonly string[];
  /** The target of each `from` state (a `new`: `to` under the key ""). */
  readonly to?: ReadonlyMap<string, string>;
  readonly next?: readonly string[];
  /** A `check`'s [A, OP, B], as the file writes it. */
  readonly check?: readonly [JsonValue, string, JsonValue];
  readonly rule: string;
  readonly elseIgnore: boolean;
}

type FileObject = Record<string, JsonValue>;

const asObject = (value: JsonValue): FileObject =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as FileObject) : {};

/** A path as a model file writes it, as steps. */
function readPath(path: JsonValue): PathShape {
  if (Array.isArray(path))
    return path.map((step) =>
      typeof step === "string" ? m(step) : s(String(asObject(step)["*"])),
    );
  const text = String(path);
  if (text === "") return [];
  return text.split(".").map((step) => (step.startsWith("*") ? s(step.slice(1)) : m(step)));
}

const memberNames = (path: PathShape): string[] =>
  path.map((step) => ("member" in step ? step.member : `*${step.suffix}`));

/** What a journal for `file` (a model file the checker accepts) needs to know of it. */
export function viewModel(file: JsonValue): ModelView {
  const model = asObject(file);
  const records = asObject(model.records);
  const kind = asObject(records.kind);
  const journal = asObject(model.journal);
  const aliasesOf = new Map<string, string[]>();
  for (const [alias, name] of Object.entries(asObject(kind.aliases)))
    aliasesOf.set(String(name), [...(aliasesOf.get(String(name)) ?? []), alias]);
  const sources = records.source === "lines" ? null : [records.source].flat();
  const sequence = asObject(journal.sequence);
  return {
    name: String(model.name),
    arrays: sources?.map((source) => memberNames(readPath(asObject(source).array))) ?? null,
    kindPath: readPath(kind.path),
    fields: new Map(
      Object.entries(asObject(records.fields)).map(([name, field]) => [
        name,
        { path: readPath(asObject(field).path), type: asObject(field).type as FieldType },
      ]),
    ),
    kinds: new Map(
      Object.entries(asObject(model.kinds)).map(([name, clauses]) => [
        name,
        (clauses as JsonValue[]).map((clause, i) => viewClause(clause, `${name}#${i + 1}`)),
      ]),
    ),
    aliasesOf,
    entities: new Map(
      Object.entries(asObject(model.entities)).map(([name, entity]) => {
        const spec = asObject(entity);
        return [
          name,
          {
            states: spec.states as string[],
            final: (spec.final as string[] | undefined) ?? [],
            reuse: spec.reuse === true,
          },
        ];
      }),
    ),
    sequence:
      sequence.field === undefined
        ? null
        : {
            field: String(sequence.field),
            start: Number(sequence.start ?? 1),
            step: Number(sequence.step ?? 1),
          },
    monotone: ((journal.monotone as JsonValue[] | undefined) ?? []).map((entry) =>
      String(asObject(entry).field),
    ),
    key: typeof journal.key === "string" ? journal.key : null,
  };
}

function viewClause(clause: JsonValue, defaultRule: string): ClauseView {
  if (typeof clause === "string")
    return { op: clause as ClauseOp, rule: defaultRule, elseIgnore: false };
  const spec = asObject(clause);
  const common = {
    rule: typeof spec.rule === "string" ? spec.rule : defaultRule,
    elseIgnore: spec.else === "ignore",
  };
  const op = (
    ["new", "step", "need", "put", "check", "count", "next", "first", "once", "last"] as const
  ).find((name) => name in spec) as ClauseOp;
  const key =
    typeof spec.key === "string" && spec.key.startsWith("$") ? spec.key.slice(1) : undefined;
  const keyed = { entity: String(spec[op]), ...(key === undefined ? {} : { keyField: key }) };
  if (op === "new") return { op, ...common, ...keyed, to: new Map([["", String(spec.to)]]) };
  if (op === "step") {
    const from = spec.from as string[];
    const to = new Map(
      from.map((state) => [
        state,
        typeof spec.to === "string" ? spec.to : String(asObject(spec.to)[state]),
      ]),
    );
    return { op, ...common, ...keyed, from, to };
  }
  if (op === "need") return { op, ...common, ...keyed, from: spec.in as string[] };
  if (op === "next") return { op, ...common, next: spec.next as string[] };
  if (op === "check") return { op, ...common, check: spec.check as [JsonValue, string, JsonValue] };
  return { op, ...common };
}

// ---------------------------------------------------------------------------------------------
// Journals

export type JournalLine =
  | { readonly record: JsonAst }
  /** Only spaces, tabs and CRs: ignored. */
  | { readonly blank: string }
  /** Not JSON, or not UTF-8: an integrity error. */
  | { readonly broken: Uint8Array };

/** A journal before it is written: the same draft may be written in any `WriteStyle`. */
export interface JournalDraft {
  /** A header line naming the model (JSONL only). */
  readonly header: boolean;
  /** The lines (JSONL), or the array's elements (an array document: records only). */
  readonly lines: readonly JournalLine[];
  /** Whether the last line, a record, has no line end. */
  readonly unterminated: boolean;
  /** An unterminated final line that does not parse (JSONL only). */
  readonly tornTail: string | null;
  /** An array document: the member names leading to the records' array ([]: the document is it). */
  readonly arrayPath: readonly string[] | null;
  /** An array document's other top-level members, before the records' member. */
  readonly around: readonly (readonly [string, JsonAst])[];
  /**
   * An array document's top-level members after the records' member: arrays at other paths its
   * source lists, which come later in the document and so hold no records.
   */
  readonly after: readonly (readonly [string, JsonAst])[];
}

export interface GeneratedJournal {
  readonly draft: JournalDraft;
  readonly style: WriteStyle;
  readonly bytes: Uint8Array;
  /**
   * Per record (its 0-based index in the journal), the name in `kinds` whose clauses it should
   * run; null when it runs none (an unknown kind, or a line or element that is not a record).
   */
  readonly kinds: readonly (string | null)[];
}

export interface DataJournalOptions {
  /** The most records a journal holds; default 12. */
  readonly maxRecords?: number;
}

/** Journals for one model file (a JSON value the checker accepts). */
export function dataJournalArbitrary(
  file: JsonValue,
  options: DataJournalOptions = {},
): fc.Arbitrary<GeneratedJournal> {
  const view = viewModel(file);
  return fc.gen().map((g) => generateJournal(g, view, options.maxRecords ?? 12));
}

export interface ModelAndJournal {
  readonly model: JsonValue;
  readonly journal: GeneratedJournal;
}

export function dataModelAndJournalArbitrary(
  options: DataModelOptions & DataJournalOptions = {},
): fc.Arbitrary<ModelAndJournal> {
  return dataModelArbitrary(options).chain((model) =>
    dataJournalArbitrary(model, options).map((journal) => ({ model, journal })),
  );
}

/** How often, in percent per record or per value, each failure is mixed in: 0 for most journals. */
interface FaultRates {
  readonly unknownKind: number;
  readonly absent: number;
  readonly wrongType: number;
  readonly order: number;
  readonly integrity: number;
  readonly spelling: number;
  readonly decoys: number;
  readonly blank: number;
}

function faultRates(g: Gen): FaultRates {
  return {
    unknownKind: pick(g, [0, 0, 5, 15]),
    absent: pick(g, [0, 0, 3, 10]),
    wrongType: pick(g, [0, 0, 0, 0, 2, 6]),
    order: pick(g, [0, 0, 5, 15]),
    integrity: pick(g, [0, 0, 0, 0, 3, 8]),
    spelling: pick(g, [0, 20, 60]),
    decoys: pick(g, [0, 0, 25]),
    blank: pick(g, [0, 0, 10]),
  };
}

/** A value a field should hold: a number for an int, or absent (null). */
type PlainValue = number | string | boolean | null;

const KEY_POOLS: Record<FieldType, readonly PlainValue[]> = {
  int: [1, 2, 3, 4],
  string: ["a", "b", "c", "d"],
  bool: [true, false],
};

const VALUE_POOLS: Record<FieldType, readonly PlainValue[]> = {
  int: [0, 1, 2, 3, 4, -1, 7, 2147483648, 4294967295, 9007199254740991, -9007199254740991],
  string: ["a", "b", "c", "é", "😀", 'a"b\\c', "line\nbreak", "", "x y", "done", "\u2028"],
  bool: [true, false],
};

/** Ints a field may hold beyond ±(2⁵³−1): only as strings. */
const INT64_STRINGS = ["9223372036854775807", "-9223372036854775808", "9007199254740993"];

/** Values of the wrong type for each field type, or ints out of range: `malformed-event` when read. */
const WRONG_VALUES: Record<FieldType, readonly JsonAst[]> = {
  int: [
    new JsonNumber("5.5"),
    new JsonNumber("9007199254740993"),
    new JsonNumber("1e400"),
    "9223372036854775808",
    "-9223372036854775809",
    "+5",
    " 5",
    "",
    "x",
    true,
    new JsonObject([["n", new JsonNumber("1")]]),
  ],
  string: [new JsonNumber("5"), true, [], new JsonObject([])],
  bool: ["true", new JsonNumber("1"), new JsonObject([])],
};

const BROKEN_LINES: readonly Uint8Array[] = [
  encode('{"kind":'),
  encode("nope"),
  encode('{"a":1}}'),
  encode("\ufeff{}"),
  encode("{'a':1}"),
  Uint8Array.of(0xff),
  Uint8Array.of(0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d),
  Uint8Array.of(0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d),
];

const BLANK_LINES = ["", "  ", "\t", " \r"];

/** What the journal's generator believes of the instances, to key records where clauses expect. */
class Simulation {
  private readonly instances = new Map<string, Map<string, string>>();
  readonly kindsSeen = new Set<string>();
  sequenceNext: number;
  readonly monotoneLast = new Map<string, number>();

  constructor(private readonly view: ModelView) {
    this.sequenceNext = view.sequence?.start ?? 1;
  }

  keysIn(entity: string, states: readonly string[] | undefined): string[] {
    const found: string[] = [];
    for (const [key, state] of this.instances.get(entity) ?? [])
      if (states === undefined || states.includes(state)) found.push(key);
    return found;
  }

  has(entity: string, key: string): boolean {
    return this.instances.get(entity)?.has(key) ?? false;
  }

  run(clauses: readonly ClauseView[], values: ReadonlyMap<string, PlainValue>): void {
    for (const clause of clauses) {
      if (clause.keyField === undefined || clause.entity === undefined) continue;
      const value = values.get(clause.keyField);
      if (value === null || value === undefined || typeof value === "boolean") continue;
      const key = keyId(value);
      const table = this.instances.get(clause.entity) ?? new Map<string, string>();
      this.instances.set(clause.entity, table);
      const state = table.get(key);
      let target: string | undefined;
      if (clause.op === "new" && state === undefined) target = clause.to?.get("");
      if (clause.op === "step" && state !== undefined) target = clause.to?.get(state);
      if (target === undefined) continue;
      const entity = this.view.entities.get(clause.entity);
      if (entity?.reuse && entity.final.includes(target)) table.delete(key);
      else table.set(key, target);
    }
  }
}

const keyId = (value: number | string): string => `${typeof value}:${value}`;
const fromKeyId = (id: string): PlainValue =>
  id.startsWith("number:") ? Number(id.slice(7)) : id.slice(7);

function generateJournal(g: Gen, view: ModelView, maxRecords: number): GeneratedJournal {
  const rates = faultRates(g);
  const count = g(fc.integer, { min: 0, max: maxRecords });
  const simulation = new Simulation(view);
  const lines: JournalLine[] = [];
  const kinds: (string | null)[] = [];
  let previous: string | null = null;
  for (let i = 0; i < count; i++) {
    const isArray = view.arrays !== null;
    if (!isArray && chance(g, rates.blank)) lines.push({ blank: pick(g, BLANK_LINES) });
    if (chance(g, rates.integrity)) {
      lines.push(brokenRecord(g, view, isArray));
      kinds.push(null);
      previous = null;
      continue;
    }
    const kind = chooseKind(g, view, simulation, previous, i, count, rates);
    lines.push({ record: generateRecord(g, view, simulation, kind, rates) });
    kinds.push(kind.name);
    previous = kind.name;
  }
  swapSome(g, lines, kinds, rates.order);
  const draft = frame(g, view, lines);
  const style: WriteStyle = { spaced: chance(g, 30), escaped: chance(g, 30), crlf: chance(g, 20) };
  return { draft, style, bytes: writeJournal(draft, view.name, style), kinds };
}

interface ChosenKind {
  /** The name in `kinds`; null for an unknown kind. */
  readonly name: string | null;
  /** As the record spells it. */
  readonly spelled: string;
}

function chooseKind(
  g: Gen,
  view: ModelView,
  simulation: Simulation,
  previous: string | null,
  index: number,
  count: number,
  rates: FaultRates,
): ChosenKind {
  const names = [...view.kinds.keys()];
  if (names.length === 0 || chance(g, rates.unknownKind))
    return { name: null, spelled: pick(g, UNKNOWN_KINDS) };
  const obliged = previous === null ? undefined : clausesOf(view, previous).find((c) => c.next);
  let name = pick(g, names);
  if (obliged?.next !== undefined && chance(g, 75)) name = pick(g, obliged.next);
  else
    for (let tries = 0; tries < 4 && unwelcome(view, simulation, name, index, count); tries++)
      name = pick(g, names);
  simulation.kindsSeen.add(name);
  const aliases = view.aliasesOf.get(name) ?? [];
  return { name, spelled: aliases.length > 0 && chance(g, 40) ? pick(g, aliases) : name };
}

const clausesOf = (view: ModelView, kind: string): readonly ClauseView[] =>
  view.kinds.get(kind) ?? [];

/** Whether a record of this kind here would break its own `first`, `once` or `last`. */
function unwelcome(
  view: ModelView,
  simulation: Simulation,
  kind: string,
  index: number,
  count: number,
): boolean {
  return clausesOf(view, kind).some(
    (clause) =>
      (clause.op === "first" && index > 0) ||
      (clause.op === "once" && simulation.kindsSeen.has(kind)) ||
      (clause.op === "last" && index < count - 1) ||
      ((clause.op === "step" || clause.op === "need") &&
        clause.keyField !== undefined &&
        simulation.keysIn(clause.entity as string, clause.from).length === 0),
  );
}

function generateRecord(
  g: Gen,
  view: ModelView,
  simulation: Simulation,
  kind: ChosenKind,
  rates: FaultRates,
): JsonAst {
  const clauses = kind.name === null ? [] : clausesOf(view, kind.name);
  const plain = new Map<string, PlainValue>();
  chooseKeys(g, view, simulation, clauses, plain);
  chooseJournalValues(g, view, simulation, plain, rates);
  for (const clause of clauses)
    if (clause.check !== undefined) satisfyCheck(g, view, clause.check, plain);
  const split = view.key === null ? undefined : view.fields.get(view.key);
  if (split !== undefined && !plain.has(view.key as string))
    plain.set(view.key as string, pick(g, KEY_POOLS[split.type]));
  for (const [name, field] of view.fields)
    if (!plain.has(name)) plain.set(name, randomValue(g, field.type));
  const written = new Map<string, JsonAst | undefined>();
  for (const [name, field] of view.fields) {
    const value = plain.get(name) ?? null;
    if (chance(g, rates.absent)) {
      plain.set(name, null);
      written.set(name, chance(g, 60) ? undefined : null);
    } else if (chance(g, rates.wrongType)) {
      plain.set(name, null);
      written.set(name, pick(g, WRONG_VALUES[field.type]));
    } else written.set(name, spell(g, value, rates.spelling));
  }
  if (kind.name !== null) simulation.run(clauses, plain);
  return buildRecord(g, view, kind.spelled, written, rates.decoys);
}

/** Keys where the kind's `new`, `step` and `need` clauses expect them: fresh or existing. */
function chooseKeys(
  g: Gen,
  view: ModelView,
  simulation: Simulation,
  clauses: readonly ClauseView[],
  plain: Map<string, PlainValue>,
): void {
  for (const clause of clauses) {
    const field = clause.keyField === undefined ? undefined : view.fields.get(clause.keyField);
    if (field === undefined || clause.entity === undefined || plain.has(clause.keyField as string))
      continue;
    const pool = KEY_POOLS[field.type];
    const wanted =
      clause.op === "new"
        ? pool.filter(
            (value) =>
              typeof value !== "boolean" &&
              value !== null &&
              !simulation.has(clause.entity as string, keyId(value)),
          )
        : simulation.keysIn(clause.entity, clause.from).map(fromKeyId);
    const value = wanted.length > 0 && chance(g, 80) ? pick(g, wanted) : pick(g, pool);
    plain.set(clause.keyField as string, value);
  }
}

/**
 * A value for a `$field` side of a check that makes it hold, when the other side is a literal or
 * a field already chosen (most of the time: checks that fail come anyway).
 */
function satisfyCheck(
  g: Gen,
  view: ModelView,
  [left, comparison, right]: readonly [JsonValue, string, JsonValue],
  plain: Map<string, PlainValue>,
): void {
  const fieldOf = (operand: JsonValue) =>
    typeof operand === "string" && operand.startsWith("$") ? operand.slice(1) : undefined;
  const operandValue = (operand: JsonValue): PlainValue | undefined => {
    const field = fieldOf(operand);
    if (field !== undefined) return plain.get(field);
    if (typeof operand === "string") return operand.startsWith("=") ? operand.slice(1) : operand;
    return typeof operand === "number" || typeof operand === "boolean" ? operand : undefined;
  };
  const [free, other, flipped] =
    fieldOf(left) !== undefined && !plain.has(fieldOf(left) as string)
      ? [fieldOf(left), operandValue(right), false]
      : [fieldOf(right), operandValue(left), true];
  const type = free === undefined ? undefined : view.fields.get(free)?.type;
  if (free === undefined || plain.has(free) || other === undefined || other === null) return;
  if (type !== (typeof other === "number" ? "int" : typeof other === "string" ? "string" : "bool"))
    return;
  if (!chance(g, 75)) return;
  const order = flipped ? { "<": ">", "<=": ">=", ">": "<", ">=": "<=" }[comparison] : comparison;
  if (comparison === "==") plain.set(free, other);
  else if (comparison === "!=") {
    const others = [...KEY_POOLS[type], ...VALUE_POOLS[type]].filter((value) => value !== other);
    plain.set(free, pick(g, others));
  } else if (typeof other === "number") {
    const offset = order === "<" ? -1 : order === ">" ? 1 : 0;
    const value = other + offset;
    if (Number.isSafeInteger(value)) plain.set(free, value);
  }
}

/** The sequence and monotone fields: following on, but for the journal's order faults. */
function chooseJournalValues(
  g: Gen,
  view: ModelView,
  simulation: Simulation,
  plain: Map<string, PlainValue>,
  rates: FaultRates,
): void {
  const sequence = view.sequence;
  if (sequence !== null) {
    let value: number | null = simulation.sequenceNext;
    if (chance(g, rates.order))
      value = pick(g, [
        value + sequence.step,
        value + 2 * sequence.step,
        value - sequence.step,
        null,
      ]);
    plain.set(sequence.field, value);
    simulation.sequenceNext = (value ?? simulation.sequenceNext) + sequence.step;
  }
  for (const field of view.monotone) {
    if (plain.has(field)) continue;
    const last = simulation.monotoneLast.get(field) ?? pick(g, [0, 100]);
    const value = chance(g, rates.order) ? last - pick(g, [1, 2]) : last + pick(g, [0, 1, 1, 2]);
    simulation.monotoneLast.set(field, value);
    plain.set(field, value);
  }
}

function randomValue(g: Gen, type: FieldType): PlainValue {
  if (type === "int" && chance(g, 8)) return pick(g, INT64_STRINGS);
  return pick(g, VALUE_POOLS[type]);
}

/** A value as a record writes it: an int in any of its spellings (`5`, `5.0`, `5e0`, `"5"`, `"05"`). */
function spell(g: Gen, value: PlainValue, rate: number): JsonAst {
  if (typeof value !== "number") return value;
  if (!chance(g, rate)) return new JsonNumber(String(value));
  const forms: JsonAst[] = [
    new JsonNumber(`${value}.0`),
    new JsonNumber(`${value}e0`),
    new JsonNumber(value === 0 ? "0.0e1" : `${value}0e-1`),
    String(value),
  ];
  if (value >= 0) forms.push(`0${value}`);
  return pick(g, forms);
}

/** A line (JSONL) or element (array document) that is no record the model can read. */
function brokenRecord(g: Gen, view: ModelView, isArray: boolean): JournalLine {
  const shapes = ["not-object", "no-kind", "kind-not-string"] as const;
  const shape = isArray ? pick(g, shapes) : pick(g, [...shapes, "broken", "broken"] as const);
  switch (shape) {
    case "broken":
      return { broken: pick(g, BROKEN_LINES) };
    case "not-object":
      return { record: pick<JsonAst>(g, [[], new JsonNumber("5"), "created", null]) };
    case "no-kind":
      return { record: new JsonObject([["other", "x"]]) };
    case "kind-not-string":
      return { record: buildRecord(g, view, new JsonNumber("5"), new Map(), 0) };
  }
}

/** Fields and kind placed at their paths, with later members that a suffix step must not take,
 * earlier duplicates the real value overrides, and members the model does not read. */
function buildRecord(
  g: Gen,
  view: ModelView,
  kind: JsonAst,
  values: ReadonlyMap<string, JsonAst | undefined>,
  decoys: number,
): JsonAst {
  const placed: [PathShape, JsonAst][] = [[view.kindPath, kind]];
  for (const [name, value] of values) {
    const field = view.fields.get(name);
    if (field !== undefined && value !== undefined) placed.push([field.path, value]);
  }
  const root = new Tree();
  const suffixMembers = new Map<string, string>();
  for (const [path, value] of shuffledSubset(g, placed, placed.length)) {
    root.set(path, value, (suffix) => {
      const member = suffixMembers.get(suffix) ?? `${pick(g, SUFFIX_MEMBERS)}${suffix}`;
      suffixMembers.set(suffix, member);
      return member;
    });
  }
  if (chance(g, 25)) root.members.push(["extra", new JsonObject([["kind", "unread"]])]);
  if (chance(g, decoys)) root.decoy(g, suffixMembers);
  return root.toJson();
}

class Tree {
  readonly members: [string, Tree | JsonAst][] = [];

  set(path: PathShape, value: JsonAst, memberOf: (suffix: string) => string): void {
    const [step, ...rest] = path;
    if (step === undefined) throw new Error("an empty path");
    const name = "member" in step ? step.member : memberOf(step.suffix);
    if (rest.length === 0) {
      this.members.push([name, value]);
      return;
    }
    const found = this.members.find(([key, member]) => key === name && member instanceof Tree)?.[1];
    const child = found instanceof Tree ? found : new Tree();
    if (child !== found) this.members.push([name, child]);
    child.set(rest, value, memberOf);
  }

  /** An earlier duplicate of the first member, and a later member ending like each suffix member. */
  decoy(g: Gen, suffixMembers: ReadonlyMap<string, string>): void {
    const first = this.members[0];
    if (first !== undefined)
      this.members.unshift([first[0], pick<JsonAst>(g, ["junk", null, new JsonNumber("0")])]);
    for (const suffix of suffixMembers.keys())
      this.members.push([
        `late${suffix}`,
        new JsonObject([
          ["id", "late"],
          ["n", new JsonNumber("99")],
        ]),
      ]);
  }

  toJson(): JsonObject {
    return new JsonObject(
      this.members.map(([key, member]) => [key, member instanceof Tree ? member.toJson() : member]),
    );
  }
}

/** Two neighbouring records swapped, at `percent` per record. */
function swapSome(g: Gen, lines: JournalLine[], kinds: (string | null)[], percent: number): void {
  for (let i = 0; i + 1 < lines.length; i++) {
    const a = lines[i] as JournalLine;
    const b = lines[i + 1] as JournalLine;
    if (!("record" in a && "record" in b) || !chance(g, percent)) continue;
    lines[i] = b;
    lines[i + 1] = a;
    const at = recordIndex(lines, i);
    [kinds[at], kinds[at + 1]] = [kinds[at + 1] ?? null, kinds[at] ?? null];
  }
}

/** The record index (blank lines not counted) of line `line`. */
function recordIndex(lines: readonly JournalLine[], line: number): number {
  return lines.slice(0, line).filter((entry) => !("blank" in entry)).length;
}

function frame(g: Gen, view: ModelView, lines: readonly JournalLine[]): JournalDraft {
  if (view.arrays !== null) {
    const arrayPath = pick(g, view.arrays);
    return {
      header: false,
      lines,
      unterminated: false,
      tornTail: null,
      arrayPath,
      around: chance(g, 40) ? [["meta", new JsonObject([["count", new JsonNumber("1")]])]] : [],
      after: laterArrays(g, view.arrays, arrayPath),
    };
  }
  const last = lines.at(-1);
  const tornTail = chance(g, 10) ? tornText(g, lines) : null;
  return {
    header: chance(g, 30),
    lines,
    unterminated: tornTail === null && last !== undefined && "record" in last && chance(g, 15),
    tornTail,
    arrayPath: null,
    around: [],
    after: [],
  };
}

/** Arrays at the source's other paths, each holding what would be malformed if it were read. */
function laterArrays(
  g: Gen,
  paths: readonly (readonly string[])[],
  chosen: readonly string[],
): [string, JsonAst][] {
  const others = paths.filter(
    (path) => path.length > 0 && chosen.length > 0 && path[0] !== chosen[0],
  );
  return subset(g, others, 0).map((path) => {
    let value: JsonAst = [new JsonObject([["decoy", true]])];
    for (const member of path.slice(1).reverse()) value = new JsonObject([[member, value]]);
    return [path[0] as string, value];
  });
}

function tornText(g: Gen, lines: readonly JournalLine[]): string {
  const records = lines.filter((line) => "record" in line);
  const whole =
    records.length > 0 ? writeJson(pick(g, records).record, PLAIN_WRITE) : '{"kind":"created"}';
  if (whole.length < 2) return '{"';
  return whole.slice(0, uniform(g, 1, whole.length - 1));
}

// ---------------------------------------------------------------------------------------------
// Writing a journal

/** The journal's bytes: JSONL lines, or the array document, written in `style`. */
export function writeJournal(
  draft: JournalDraft,
  modelName: string,
  style: WriteStyle,
): Uint8Array {
  const end = style.crlf ? "\r\n" : "\n";
  if (draft.arrayPath !== null) return encode(writeDocument(draft, style, end));
  const parts: Uint8Array[] = [];
  if (draft.header)
    parts.push(
      encode(
        writeJson(
          new JsonObject([
            ["statefold", "journal"],
            ["version", new JsonNumber("1")],
            ["model", modelName],
          ]),
          style,
        ) + end,
      ),
    );
  draft.lines.forEach((line, i) => {
    const lineEnd = draft.unterminated && i === draft.lines.length - 1 ? "" : end;
    if ("record" in line)
      parts.push(encode(`${style.spaced ? "\t" : ""}${writeJson(line.record, style)}${lineEnd}`));
    else if ("blank" in line) parts.push(encode(line.blank + lineEnd));
    else parts.push(line.broken, encode(lineEnd));
  });
  if (draft.tornTail !== null) parts.push(encode(draft.tornTail));
  return concatBytes(...parts);
}

function writeDocument(draft: JournalDraft, style: WriteStyle, end: string): string {
  const separator = style.spaced ? `,${end}` : ",";
  const records = draft.lines.map((line) =>
    "record" in line ? writeJson(line.record, style) : "null",
  );
  let text = `[${style.spaced ? end : ""}${records.join(separator)}${style.spaced ? end : ""}]`;
  const path = draft.arrayPath ?? [];
  for (let i = path.length - 1; i >= 0; i--) {
    const member = `${writeString(path[i] as string, style.escaped)}:${text}`;
    const written = ([key, value]: readonly [string, JsonAst]) =>
      `${writeString(key, style.escaped)}:${writeJson(value, style)}`;
    const before = i === 0 ? draft.around.map((entry) => `${written(entry)},`) : [];
    const after = i === 0 ? draft.after.map((entry) => `,${written(entry)}`) : [];
    text = `{${before.join("")}${member}${after.join("")}}`;
  }
  return text;
}

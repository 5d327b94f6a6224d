/**
 * The vacuity guard of the generated models and journals (test/support/data-model-arbitrary.ts):
 * a property over them proves something only if they reach every part of the format and every
 * way an audit can go. Over a fixed sample, every model must check, write every clause, operand
 * form, comparison, path form and journal setting, and every journal must be written as meant
 * and reach every way a record can be spelled or broken; and audited by the reference engine,
 * the sample must apply every clause op, find every reason and an integrity error, and hold
 * conformant journals, journals that are not, and torn tails.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CLAUSE_OPS, type ClauseOp } from "../../../src/models/data/compiled.js";
import { auditDataBytes } from "../../../src/models/data/engine.js";
import { checkModel } from "../../../src/models/data/load.js";
import { DATA_REASONS, type DataReport } from "../../../src/models/data/report.js";
import {
  ALIAS_NAMES,
  dataModelAndJournalArbitrary,
  dataModelArbitrary,
  type GeneratedJournal,
  type JsonAst,
  JsonNumber,
  JsonObject,
  jsonValueOf,
  type ModelAndJournal,
  type ModelView,
  UNKNOWN_KINDS,
  viewModel,
} from "../../support/data-model-arbitrary.js";

const PAIRS = fc.sample(dataModelAndJournalArbitrary({ split: "never" }), {
  numRuns: 300,
  seed: 35,
});

/** Each name, how many times it was seen; the test asserts each at least once. */
function tally(names: Iterable<string>, counts = new Map<string, number>()): Map<string, number> {
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}

function neverSeen(expected: readonly string[], counts: ReadonlyMap<string, number>): string[] {
  return expected.filter((name) => (counts.get(name) ?? 0) === 0);
}

// ---------------------------------------------------------------------------------------------
// Models

type FileObject = Record<string, unknown>;

const objectOf = (value: unknown): FileObject =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as FileObject) : {};

const MODEL_FEATURES = [
  ...["new", "step", "need", "put", "check", "count", "next"].map((op) => `clause ${op}`),
  ...["first", "once", "last"].flatMap((op) => [`clause "${op}"`, `clause {"${op}": true}`]),
  ...["==", "!=", "<", "<=", ">", ">="].map((comparison) => `comparison ${comparison}`),
  ...["$field", "@slot", "%register", "#", "int", "string", "=text", "true", "false", "null"].map(
    (form) => `operand ${form}`,
  ),
  "key $field",
  "key literal",
  "step to a state",
  "step to a map",
  "put @slot",
  "put %register",
  "count by a negative",
  "rule",
  "rule shared",
  'else "ignore"',
  "rules described",
  "path member",
  "path two steps",
  "path dotted name",
  "path *SUFFIX text",
  "path *SUFFIX array",
  "aliases",
  "source lines",
  "source array",
  "source list",
  "sequence",
  "sequence start",
  "sequence step",
  "monotone strict",
  "monotone not strict",
  "monotone strict unwritten",
  "register int",
  "register string",
  "counter max",
  "counter unbounded",
  "unknownKinds reject",
  "unknownKinds ignore",
  "unknownKinds unwritten",
  "key",
  "field int",
  "field string",
  "field bool",
  "entities 1",
  "entities 2",
  "entities 3",
  "final",
  "slots",
  "atEnd",
  "atEnd unwritten",
  "reuse true",
  "reuse false",
  "kind with no clauses",
];

function operandForm(operand: unknown): string {
  if (operand === null) return "null";
  if (typeof operand === "boolean") return String(operand);
  if (typeof operand === "number") return "int";
  const text = String(operand);
  if (text === "#") return "#";
  const sigil = ["$field", "@slot", "%register", "=text"].find((form) => text[0] === form[0]);
  return sigil ?? "string";
}

function pathFeatures(path: unknown): string[] {
  if (Array.isArray(path))
    return [
      path.length === 2 ? "path two steps" : "path member",
      ...path.map((step) =>
        typeof step === "string"
          ? step.includes(".")
            ? "path dotted name"
            : "path member"
          : "path *SUFFIX array",
      ),
    ];
  const steps = String(path).split(".");
  return [
    steps.length === 2 ? "path two steps" : "path member",
    ...steps.map((step) => (step.startsWith("*") ? "path *SUFFIX text" : "path member")),
  ];
}

function clauseFeatures(clause: unknown): string[] {
  if (typeof clause === "string") return [`clause "${clause}"`];
  const spec = objectOf(clause);
  const op = ["new", "step", "need", "put", "check", "count", "next", "first", "once", "last"].find(
    (name) => name in spec,
  ) as string;
  const features = [
    ["first", "once", "last"].includes(op) ? `clause {"${op}": true}` : `clause ${op}`,
  ];
  if ("rule" in spec) features.push("rule");
  if (spec.else === "ignore") features.push('else "ignore"');
  if ("key" in spec)
    features.push(
      typeof spec.key === "string" && spec.key.startsWith("$") ? "key $field" : "key literal",
      `operand ${operandForm(spec.key)}`,
    );
  if (op === "step")
    features.push(typeof spec.to === "string" ? "step to a state" : "step to a map");
  if (op === "put")
    features.push(`put ${String(spec.put)[0]}${String(spec.put)[0] === "@" ? "slot" : "register"}`);
  if (op === "put") features.push(`operand ${operandForm(spec.value)}`);
  if (op === "count" && Number(spec.by) < 0) features.push("count by a negative");
  if (op === "check") {
    const [left, comparison, right] = spec.check as unknown[];
    features.push(
      `comparison ${comparison}`,
      `operand ${operandForm(left)}`,
      `operand ${operandForm(right)}`,
    );
  }
  return features;
}

function journalFeatures(journal: FileObject): string[] {
  const features: string[] = [];
  const sequence = objectOf(journal.sequence);
  if ("field" in sequence) features.push("sequence");
  if ("start" in sequence) features.push("sequence start");
  if ("step" in sequence) features.push("sequence step");
  for (const entry of (journal.monotone as unknown[] | undefined) ?? []) {
    const strict = objectOf(entry).strict;
    features.push(
      strict === undefined
        ? "monotone strict unwritten"
        : strict
          ? "monotone strict"
          : "monotone not strict",
    );
  }
  for (const initial of Object.values(objectOf(journal.registers)))
    features.push(typeof initial === "number" ? "register int" : "register string");
  for (const counter of Object.values(objectOf(journal.counters)))
    features.push("max" in objectOf(counter) ? "counter max" : "counter unbounded");
  features.push(`unknownKinds ${journal.unknownKinds ?? "unwritten"}`);
  if ("key" in journal) features.push("key");
  return features;
}

function entityFeatures(entity: FileObject): string[] {
  const features: string[] = [];
  if (((entity.final as unknown[] | undefined) ?? []).length > 0) features.push("final");
  if (((entity.slots as unknown[] | undefined) ?? []).length > 0) features.push("slots");
  features.push("atEnd" in entity ? "atEnd" : "atEnd unwritten");
  if ("reuse" in entity) features.push(`reuse ${entity.reuse}`);
  return features;
}

/** The parts of the format a model file writes. */
function modelFeatures(file: unknown): string[] {
  const model = objectOf(file);
  const records = objectOf(model.records);
  const source = records.source;
  const features = [
    source === "lines" ? "source lines" : Array.isArray(source) ? "source list" : "source array",
  ];
  const kind = objectOf(records.kind);
  features.push(...pathFeatures(kind.path));
  if ("aliases" in kind) features.push("aliases");
  for (const field of Object.values(objectOf(records.fields)))
    features.push(...pathFeatures(objectOf(field).path), `field ${objectOf(field).type}`);
  features.push(...journalFeatures(objectOf(model.journal)));
  const entities = Object.values(objectOf(model.entities));
  features.push(
    `entities ${entities.length}`,
    ...entities.flatMap((entity) => entityFeatures(objectOf(entity))),
  );
  const rules: string[] = [];
  for (const clauses of Object.values(objectOf(model.kinds)) as unknown[][]) {
    if (clauses.length === 0) features.push("kind with no clauses");
    for (const clause of clauses) {
      features.push(...clauseFeatures(clause));
      const rule = objectOf(clause).rule;
      if (typeof rule === "string") rules.push(rule);
    }
  }
  if (new Set(rules).size < rules.length) features.push("rule shared");
  if ("rules" in model) features.push("rules described");
  return features;
}

describe("dataModelArbitrary", () => {
  it("gives only models the checker accepts, splitting streams by key or not", () => {
    const models = [
      ...PAIRS.map((pair) => pair.model),
      ...fc.sample(dataModelArbitrary(), { numRuns: 300, seed: 36 }),
    ];
    for (const model of models) expect(() => checkModel(model, "generated.json")).not.toThrow();
  });

  it("writes every clause, comparison, operand form, path form and setting of the format", () => {
    const counts = new Map<string, number>();
    for (const model of fc.sample(dataModelArbitrary(), { numRuns: 300, seed: 36 }))
      tally(modelFeatures(model), counts);
    expect(neverSeen(MODEL_FEATURES, counts)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Journals

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The journal's physical lines (JSONL): split on LF, a CR before it belonging to the line end. */
function physicalLines(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let at = 0; at <= bytes.length; at++) {
    if (at < bytes.length && bytes[at] !== 0x0a) continue;
    const end = at < bytes.length && at > start && bytes[at - 1] === 0x0d ? at - 1 : at;
    lines.push(bytes.subarray(start, end));
    start = at + 1;
  }
  return lines;
}

function parses(bytes: Uint8Array): boolean {
  try {
    JSON.parse(decoder.decode(bytes));
    return true;
  } catch {
    return false;
  }
}

/** Asserts that the journal's bytes hold its draft's lines or elements, each as meant. */
function expectWrittenAsDrafted(journal: GeneratedJournal): void {
  const { draft, bytes } = journal;
  if (draft.arrayPath !== null) {
    let records = JSON.parse(decoder.decode(bytes)) as unknown;
    for (const member of draft.arrayPath) records = (records as Record<string, unknown>)[member];
    expect(records).toEqual(
      draft.lines.map((line) => ("record" in line ? jsonValueOf(line.record) : null)),
    );
    return;
  }
  const lines = physicalLines(bytes);
  if (draft.header)
    expect(JSON.parse(decoder.decode(lines.shift()))).toMatchObject({ statefold: "journal" });
  draft.lines.forEach((line, i) => {
    const written = lines[i] as Uint8Array;
    if ("record" in line)
      expect(JSON.parse(decoder.decode(written))).toEqual(jsonValueOf(line.record));
    else if ("blank" in line) expect(decoder.decode(written)).toMatch(/^[ \t\r]*$/);
    else expect(parses(written)).toBe(false);
  });
  const rest = lines.slice(draft.lines.length);
  if (draft.tornTail !== null) {
    expect(rest).toHaveLength(1);
    expect(parses(rest[0] as Uint8Array)).toBe(false);
  } else expect(rest.map((line) => line.length)).toEqual(draft.unterminated ? [] : [0]);
}

const JOURNAL_FEATURES = [
  "header",
  "blank line",
  "CRLF",
  "spaced",
  "escaped",
  "unterminated record",
  "torn tail",
  "broken line",
  "not an object",
  "array document",
  "array document around",
  "array document later array",
  "int 5.0",
  "int 5e0",
  'int "5"',
  'int "05"',
  "int64 string",
  "int unsafe",
  "not an int",
  "non-ASCII",
  "string escapes",
  "duplicate key",
  "suffix decoy",
  "alias",
  "unknown kind",
  "null",
  "empty journal",
];

function valueFeatures(value: JsonAst, features: string[]): void {
  if (value === null) features.push("null");
  else if (value instanceof JsonNumber) {
    if (/\.0$/.test(value.text)) features.push("int 5.0");
    if (/^-?\d+e0$/.test(value.text)) features.push("int 5e0");
    if (value.text === "9007199254740993") features.push("int unsafe");
    if (["5.5", "1e400"].includes(value.text)) features.push("not an int");
  } else if (typeof value === "string") {
    if (/^-?\d+$/.test(value)) features.push(/^-?0\d/.test(value) ? 'int "05"' : 'int "5"');
    if (/^-?\d{16,}$/.test(value)) features.push("int64 string");
    if (/[^\x20-\x7e]/.test(value)) features.push("non-ASCII");
    if (/["\\\n]/.test(value)) features.push("string escapes");
    if (ALIAS_NAMES.includes(value)) features.push("alias");
    if (UNKNOWN_KINDS.includes(value)) features.push("unknown kind");
  } else if (value instanceof JsonObject) {
    const keys = value.members.map(([key]) => key);
    if (new Set(keys).size < keys.length) features.push("duplicate key");
    if (keys.some((key) => key.startsWith("late"))) features.push("suffix decoy");
    for (const [, member] of value.members) valueFeatures(member, features);
  } else if (Array.isArray(value)) for (const item of value) valueFeatures(item, features);
}

function journalDraftFeatures(journal: GeneratedJournal): string[] {
  const { draft, style } = journal;
  const features: string[] = [];
  if (draft.header) features.push("header");
  if (draft.unterminated) features.push("unterminated record");
  if (draft.tornTail !== null) features.push("torn tail");
  if (draft.arrayPath !== null) features.push("array document");
  if (draft.around.length > 0) features.push("array document around");
  if (draft.after.length > 0) features.push("array document later array");
  if (style.crlf) features.push("CRLF");
  if (style.spaced) features.push("spaced");
  if (style.escaped) features.push("escaped");
  if (draft.lines.length === 0) features.push("empty journal");
  for (const line of draft.lines) {
    if ("blank" in line) features.push("blank line");
    else if ("broken" in line) features.push("broken line");
    else {
      if (!(line.record instanceof JsonObject)) features.push("not an object");
      valueFeatures(line.record, features);
    }
  }
  return features;
}

describe("dataJournalArbitrary", () => {
  it("writes each record, blank line, broken line and torn tail as its draft says", () => {
    for (const { journal } of PAIRS) expectWrittenAsDrafted(journal);
  });

  it("reaches every way a record can be spelled, framed or broken", () => {
    const counts = new Map<string, number>();
    for (const { journal } of PAIRS) tally(journalDraftFeatures(journal), counts);
    expect(neverSeen(JOURNAL_FEATURES, counts)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// What the reference engine makes of them

interface EngineCoverage {
  /** Per clause op: how many times a clause of it ran and applied (no finding, no `else`). */
  readonly applied: Map<string, number>;
  /** Per reason, and `malformed-event`: how many findings (or integrity errors) gave it. */
  readonly reasons: Map<string, number>;
  /** Journals with at least one record that were conformant, and that were not. */
  readonly outcomes: Map<string, number>;
}

/**
 * The clauses that applied to each record: a clause with its own default rule (`KIND#N`) and no
 * `else` ran on a record before any integrity error and found nothing there (a `next` or `last`:
 * nor at the record after it). When the listing is cut short, only the records before the last
 * listed finding's are known whole.
 */
function appliedClauses(
  view: ModelView,
  journal: GeneratedJournal,
  report: DataReport,
): ClauseOp[] {
  const { illegal, first } = report.legality;
  const found = new Set(first.map((finding) => `${finding.index} ${finding.rule}`));
  const ran = report.integrity?.index ?? journal.kinds.length;
  const known = illegal > first.length ? (first.at(-1)?.index ?? 0) : ran + 1;
  const applied: ClauseOp[] = [];
  journal.kinds.slice(0, Math.min(ran, known)).forEach((kind, index) => {
    if (kind === null) return;
    (view.kinds.get(kind) ?? []).forEach((clause, place) => {
      if (clause.elseIgnore || clause.rule !== `${kind}#${place + 1}`) return;
      if (found.has(`${index} ${clause.rule}`)) return;
      const obliges = clause.op === "next" || clause.op === "last";
      if (obliges && (index + 1 >= known || found.has(`${index + 1} ${clause.rule}`))) return;
      applied.push(clause.op);
    });
  });
  return applied;
}

function engineCoverage(pairs: readonly ModelAndJournal[]): EngineCoverage {
  const coverage: EngineCoverage = { applied: new Map(), reasons: new Map(), outcomes: new Map() };
  for (const { model, journal } of pairs) {
    const report = auditDataBytes(checkModel(model, "generated.json"), journal.bytes);
    tally(appliedClauses(viewModel(model), journal, report), coverage.applied);
    tally(
      report.legality.first.map((finding) => finding.reason),
      coverage.reasons,
    );
    if (report.integrity !== null) tally([report.integrity.reason], coverage.reasons);
    if (report.tornTail !== null) tally(["torn tail"], coverage.outcomes);
    if (report.events > 0)
      tally([report.conformant ? "conformant" : "not conformant"], coverage.outcomes);
  }
  return coverage;
}

describe("the generated models and journals, audited by the reference", () => {
  const coverage = engineCoverage(PAIRS);

  it("apply every clause op", () => {
    expect(neverSeen(CLAUSE_OPS, coverage.applied)).toEqual([]);
  });

  it("find every reason, and integrity errors", () => {
    expect(neverSeen([...DATA_REASONS, "malformed-event"], coverage.reasons)).toEqual([]);
  });

  it("hold conformant journals and journals that are not, some with a torn tail", () => {
    expect(neverSeen(["conformant", "not conformant", "torn tail"], coverage.outcomes)).toEqual([]);
  });
});

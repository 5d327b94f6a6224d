/**
 * Models defined by data, compiled by hand (the shape src/models/data/compiled.ts gives), for the
 * data kernel's tests: the payment intents of docs/models/data.md, and small ones per clause.
 */
import type {
  Clause,
  CompiledEntity,
  CompiledModel,
  Operand,
  Path,
} from "../../../src/models/data/compiled.js";

export function path(text: string): Path {
  return text
    .split(".")
    .map((name) => (name.startsWith("*") ? { suffix: name.slice(1) } : { member: name }));
}

export const field = (index: number): Operand => ({ from: "field", field: index });
export const slot = (index: number): Operand => ({ from: "slot", slot: index });
export const literal = (value: bigint | string | boolean | null): Operand => ({
  from: "literal",
  value,
});

const INTENT: CompiledEntity = {
  name: "intent",
  states: ["requires_payment_method", "processing", "succeeded", "canceled"],
  final: [false, false, true, true],
  slots: ["amount"],
  atEnd: [false, false, true, true],
  atEndRule: 8,
  reuse: false,
};

const common = { elseIgnore: false } as const;

/** The example of docs/models/data.md, "The file", compiled. */
export function paymentIntents(overrides: Partial<CompiledModel> = {}): CompiledModel {
  const created: Clause[] = [
    { ...common, op: "new", entity: 0, key: field(0), to: 0, rule: 0 },
    { ...common, op: "put", target: { slot: 0 }, value: field(1), rule: 1 },
    { ...common, op: "count", counter: 0, by: 1n, rule: 2 },
  ];
  const processing: Clause[] = [
    { ...common, op: "step", entity: 0, key: field(0), from: [0], to: [1], rule: 3 },
  ];
  const succeeded: Clause[] = [
    { ...common, op: "step", entity: 0, key: field(0), from: [1], to: [2], rule: 3 },
    { ...common, op: "check", left: field(1), comparison: "==", right: slot(0), rule: 4 },
    { ...common, op: "count", counter: 0, by: -1n, rule: 5 },
  ];
  return {
    name: "payment-intents",
    source: { lines: true },
    kindPath: path("type"),
    fields: [
      { name: "pi", path: path("data.object.id"), type: "string" },
      { name: "amount", path: path("data.object.amount"), type: "int" },
      { name: "seq", path: path("seq"), type: "int" },
    ],
    kinds: [
      { name: "payment_intent.created", clauses: created, reads: [0, 1] },
      { name: "payment_intent.processing", clauses: processing, reads: [0] },
      { name: "payment_intent.succeeded", clauses: succeeded, reads: [0, 1] },
    ],
    kindOf: new Map([
      ["payment_intent.created", 0],
      ["payment_intent.processing", 1],
      ["payment_intent.succeeded", 2],
      ["pi.created", 0],
    ]),
    entities: [INTENT],
    journal: {
      sequence: { field: 2, start: 1n, step: 1n, rule: 7 },
      monotone: [],
      monotoneRule: null,
      registers: [],
      counters: [{ name: "open", max: 1000n }],
      knownKindsRule: 6,
      key: null,
      reads: [2],
    },
    rules: [
      "created-once",
      "payment_intent.created#2",
      "payment_intent.created#3",
      "lifecycle",
      "amount-kept",
      "payment_intent.succeeded#3",
      "known-kinds",
      "sequence",
      "intent.atEnd",
    ].map((name) => ({ name, description: null })),
    ...overrides,
  };
}

/** A payment intent's record as JSONL. */
export function intentRecord(
  type: string,
  seq: number,
  id: string,
  amount?: unknown,
): Record<string, unknown> {
  const object: Record<string, unknown> = { id };
  if (amount !== undefined) object.amount = amount;
  return { type, seq, data: { object } };
}

export function jsonl(...records: unknown[]): Uint8Array {
  return new TextEncoder().encode(
    records
      .map((record) => `${typeof record === "string" ? record : JSON.stringify(record)}\n`)
      .join(""),
  );
}

function rules(...names: string[]) {
  return names.map((name) => ({ name, description: null }));
}

function kindsOf(kinds: Record<string, Clause[]>, reads: Record<string, number[]> = {}) {
  return {
    kinds: Object.entries(kinds).map(([name, clauses]) => ({
      name,
      clauses,
      reads: reads[name] ?? [],
    })),
    kindOf: new Map(Object.keys(kinds).map((name, i) => [name, i])),
  };
}

const NO_JOURNAL: CompiledModel["journal"] = {
  sequence: null,
  monotone: [],
  monotoneRule: null,
  registers: [],
  counters: [],
  knownKindsRule: null,
  key: null,
  reads: [],
};

/** Every record may oblige the next (first, once, next, last). */
export function orderModel(): CompiledModel {
  return {
    name: "order",
    source: { lines: true },
    kindPath: path("kind"),
    fields: [],
    ...kindsOf({
      open: [
        { ...common, op: "first", rule: 0 },
        { ...common, op: "once", rule: 1 },
        { ...common, op: "next", kinds: [1, 2], rule: 2 },
      ],
      step: [],
      close: [{ ...common, op: "last", rule: 3 }],
      other: [],
    }),
    entities: [],
    journal: { ...NO_JOURNAL, knownKindsRule: 4 },
    rules: rules("open#1", "open#2", "open#3", "close#1", "known-kinds"),
  };
}

/** Tasks that `reuse` their keys, a register, a bounded counter, a monotone field, a suffix path. */
export function tasksModel(): CompiledModel {
  const scheduled = 0;
  const started = 1;
  const done = 2;
  return {
    name: "tasks",
    source: { lines: true },
    kindPath: path("kind"),
    fields: [
      { name: "id", path: path("*Attributes.taskId"), type: "int" },
      { name: "t", path: path("t"), type: "int" },
    ],
    ...kindsOf(
      {
        scheduled: [
          { ...common, op: "new", entity: 0, key: field(0), to: scheduled, rule: 0 },
          { ...common, op: "count", counter: 0, by: 1n, rule: 1 },
        ],
        started: [
          {
            ...common,
            op: "step",
            entity: 0,
            key: field(0),
            from: [scheduled],
            to: [started],
            rule: 2,
          },
          { ...common, op: "put", target: { register: 0 }, value: field(0), rule: 3 },
        ],
        completed: [
          {
            ...common,
            op: "step",
            entity: 0,
            key: field(0),
            from: [started],
            to: [done],
            rule: 4,
          },
          { ...common, op: "count", counter: 0, by: -1n, rule: 5 },
        ],
        noise: [
          {
            elseIgnore: true,
            op: "step",
            entity: 0,
            key: field(0),
            from: [scheduled],
            to: [started],
            rule: 6,
          },
        ],
      },
      { scheduled: [0], started: [0], completed: [0], noise: [0] },
    ),
    entities: [
      {
        name: "task",
        states: ["scheduled", "started", "done"],
        final: [false, false, true],
        slots: [],
        atEnd: [false, false, true],
        atEndRule: 8,
        reuse: true,
      },
    ],
    journal: {
      ...NO_JOURNAL,
      monotone: [{ field: 1, strict: true }],
      monotoneRule: 7,
      registers: [{ name: "last", initial: "none" }],
      counters: [{ name: "busy", max: 1n }],
      reads: [1],
    },
    rules: rules(
      "scheduled#1",
      "scheduled#2",
      "started#1",
      "started#2",
      "completed#1",
      "completed#2",
      "noise#1",
      "monotone",
      "task.atEnd",
    ),
  };
}

/** Every field put into a register of its own: the report's registers show what each path read. */
export function pathsModel(paths: readonly string[]): CompiledModel {
  const fields = paths.map((text, i) => ({
    name: `f${i}`,
    path: path(text),
    type: "string" as const,
  }));
  return {
    name: "paths",
    source: { lines: true },
    kindPath: path("kind"),
    fields,
    ...kindsOf(
      {
        k: fields.map((_, i) => ({
          ...common,
          op: "put" as const,
          target: { register: i },
          value: field(i),
          rule: i,
        })),
      },
      { k: fields.map((_, i) => i) },
    ),
    entities: [],
    journal: {
      ...NO_JOURNAL,
      registers: fields.map((field) => ({ name: field.name, initial: null })),
    },
    rules: rules(...fields.map((_, i) => `k#${i + 1}`)),
  };
}

/**
 * The payment intents of a stream that holds many accounts' journals: split by the record's
 * `account` (docs/models/data.md, "A stream of journals").
 */
export function splitPayments(overrides: Partial<CompiledModel> = {}): CompiledModel {
  const model = paymentIntents();
  return {
    ...model,
    fields: [...model.fields, { name: "account", path: path("account"), type: "string" }],
    journal: { ...model.journal, key: 3, reads: [...model.journal.reads, 3] },
    ...overrides,
  };
}

/** A payment intent's record in account `account`'s journal. */
export function accountRecord(
  account: string,
  type: string,
  seq: number,
  id: string,
  amount?: unknown,
): Record<string, unknown> {
  return { account, ...intentRecord(type, seq, id, amount) };
}

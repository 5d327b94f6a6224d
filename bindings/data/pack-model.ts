/**
 * A `CompiledModel` packed into the table the data kernel reads (its layout: ./layout.ts). Every
 * name the kernel never compares (entities, states, rules, registers, counters) stays on the
 * host, which reads the report's indices back through the same `CompiledModel`.
 */

import { sha256 } from "../../src/digest/sha256.js";
import type {
  Clause,
  CompiledModel,
  Operand,
  Path,
  Value,
} from "../../src/models/data/compiled.js";
import { encodeWtf8 } from "../wtf8.js";
import {
  ClauseOpCode,
  ClauseWord,
  ComparisonCode,
  EntityWord,
  FieldTypeCode,
  JournalWord,
  OperandFrom,
  PathStepKind,
  SourceKind,
  TABLE_MAGIC,
  TableHeader,
  ValueTag,
  Width,
} from "./layout.js";

export interface PackedModel {
  readonly bytes: Uint8Array;
  /** The SHA-256 of `bytes`, hex: a snapshot names the table it was taken with. */
  readonly digest: string;
}

const I64_LOW = (1n << 32n) - 1n;

/** The words of the table, grown as parts are appended, and the strings they name. */
class TableBuilder {
  readonly words: number[] = new Array<number>(Width.HEADER).fill(0);
  private readonly strings: Uint8Array[] = [];
  private stringBytes = 0;

  /** Reserves `count` words; answers where they start. */
  reserve(count: number): number {
    const at = this.words.length;
    for (let i = 0; i < count; i++) this.words.push(0);
    return at;
  }

  append(values: readonly number[]): number {
    const at = this.words.length;
    this.words.push(...values);
    return at;
  }

  /** A string's two words: where its bytes lie among the strings, and their length. */
  string(text: string): [number, number] {
    const bytes = encodeWtf8(text);
    const at = this.stringBytes;
    this.strings.push(bytes);
    this.stringBytes += bytes.length;
    return [at, bytes.length];
  }

  bytes(): Uint8Array {
    this.words[TableHeader.WORDS] = this.words.length;
    const out = new Uint8Array(this.words.length * 4 + this.stringBytes);
    const view = new DataView(out.buffer);
    this.words.forEach((word, i) => {
      view.setInt32(i * 4, word, true);
    });
    let at = this.words.length * 4;
    for (const part of this.strings) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}

export function packModel(model: CompiledModel): PackedModel {
  const table = new TableBuilder();
  const header = (word: number, value: number) => {
    table.words[word] = value;
  };
  header(TableHeader.MAGIC, TABLE_MAGIC);
  header(TableHeader.FIELD_COUNT, model.fields.length);
  header(TableHeader.KIND_COUNT, model.kinds.length);
  header(TableHeader.ENTITY_COUNT, model.entities.length);
  header(TableHeader.RULE_COUNT, model.rules.length);
  header(TableHeader.REGISTER_COUNT, model.journal.registers.length);
  header(TableHeader.COUNTER_COUNT, model.journal.counters.length);
  header(TableHeader.SPELLING_COUNT, model.kindOf.size);
  header(TableHeader.KIND_PATH_AT, packPath(table, model.kindPath));
  header(TableHeader.FIELDS_AT, packFields(table, model));
  header(TableHeader.SPELLINGS_AT, packSpellings(table, model));
  header(TableHeader.KINDS_AT, packKinds(table, model));
  header(TableHeader.ENTITIES_AT, packEntities(table, model));
  header(TableHeader.JOURNAL_AT, packJournal(table, model));
  header(TableHeader.REGISTERS_AT, packRegisters(table, model));
  header(TableHeader.COUNTERS_AT, packCounters(table, model));
  header(TableHeader.SOURCE_AT, packSource(table, model));
  header(TableHeader.CLAUSES_MAX, Math.max(0, ...model.kinds.map((kind) => kind.clauses.length)));
  header(
    TableHeader.SLOTS_MAX,
    Math.max(0, ...model.entities.map((entity) => entity.slots.length)),
  );
  const bytes = table.bytes();
  return { bytes, digest: sha256().update(bytes).hex() };
}

function packPath(table: TableBuilder, path: Path): number {
  const words = [path.length];
  for (const step of path) {
    if ("member" in step) words.push(PathStepKind.MEMBER, ...table.string(step.member));
    else words.push(PathStepKind.SUFFIX, ...table.string(step.suffix));
  }
  return table.append(words);
}

function packFields(table: TableBuilder, model: CompiledModel): number {
  const paths = model.fields.map((field) => packPath(table, field.path));
  const at = table.reserve(model.fields.length * Width.FIELD);
  model.fields.forEach((field, i) => {
    table.words[at + i * Width.FIELD] = paths[i] as number;
    table.words[at + i * Width.FIELD + 1] = FieldTypeCode[field.type];
  });
  return at;
}

function packSpellings(table: TableBuilder, model: CompiledModel): number {
  const words: number[] = [];
  for (const [spelling, kind] of model.kindOf) words.push(...table.string(spelling), kind);
  return words.length === 0 ? table.words.length : table.append(words);
}

/** The fields a record of a kind is type-checked on: its clauses' and the journal's, in field order. */
function checkedFields(reads: readonly number[], journalReads: readonly number[]): number[] {
  return [...new Set([...reads, ...journalReads])].sort((a, b) => a - b);
}

function packKinds(table: TableBuilder, model: CompiledModel): number {
  const rows = model.kinds.map((kind) => {
    const checked = checkedFields(kind.reads, model.journal.reads);
    const checkedAt = checked.length === 0 ? 0 : table.append(checked);
    const clausesAt = table.reserve(kind.clauses.length * Width.CLAUSE);
    kind.clauses.forEach((clause, i) => {
      packClause(table, clausesAt + i * Width.CLAUSE, clause);
    });
    return [kind.clauses.length, clausesAt, checked.length, checkedAt];
  });
  const at = table.reserve(rows.length * Width.KIND);
  rows.forEach((row, i) => {
    row.forEach((word, j) => {
      table.words[at + i * Width.KIND + j] = word;
    });
  });
  return at;
}

function packClause(table: TableBuilder, at: number, clause: Clause): void {
  const set = (word: number, value: number) => {
    table.words[at + word] = value;
  };
  set(ClauseWord.OP, ClauseOpCode[clause.op]);
  set(ClauseWord.RULE, clause.rule);
  set(ClauseWord.ELSE_IGNORE, clause.elseIgnore ? 1 : 0);
  const operand = (word: number, value: Operand) => {
    packOperand(table, at + word, value);
  };
  switch (clause.op) {
    case "new":
      set(ClauseWord.A, clause.entity);
      operand(ClauseWord.OPERAND_1, clause.key);
      set(ClauseWord.B, clause.to);
      return;
    case "step":
      set(ClauseWord.A, clause.entity);
      operand(ClauseWord.OPERAND_1, clause.key);
      set(ClauseWord.B, clause.from.length);
      set(ClauseWord.C, table.append(clause.from));
      set(ClauseWord.D, table.append(clause.to));
      return;
    case "need":
      set(ClauseWord.A, clause.entity);
      operand(ClauseWord.OPERAND_1, clause.key);
      set(ClauseWord.B, clause.in.length);
      set(ClauseWord.C, table.append(clause.in));
      return;
    case "put": {
      const isSlot = "slot" in clause.target;
      set(ClauseWord.A, isSlot ? 0 : 1);
      set(ClauseWord.B, "slot" in clause.target ? clause.target.slot : clause.target.register);
      operand(ClauseWord.OPERAND_1, clause.value);
      return;
    }
    case "check":
      set(ClauseWord.A, ComparisonCode[clause.comparison]);
      operand(ClauseWord.OPERAND_1, clause.left);
      operand(ClauseWord.OPERAND_2, clause.right);
      return;
    case "count":
      set(ClauseWord.A, clause.counter);
      set(ClauseWord.B, lowWord(clause.by));
      set(ClauseWord.C, highWord(clause.by));
      return;
    case "next":
      set(ClauseWord.B, clause.kinds.length);
      set(ClauseWord.C, clause.kinds.length === 0 ? 0 : table.append(clause.kinds));
      return;
    case "first":
    case "once":
    case "last":
      return;
    default: {
      const unknown: never = clause;
      throw new Error(`statefold: no packing for clause ${JSON.stringify(unknown)}`);
    }
  }
}

function lowWord(value: bigint): number {
  return Number(BigInt.asIntN(32, value & I64_LOW));
}

function highWord(value: bigint): number {
  return Number(BigInt.asIntN(32, BigInt.asIntN(64, value) >> 32n));
}

function packOperand(table: TableBuilder, at: number, operand: Operand): void {
  const words = table.words;
  switch (operand.from) {
    case "field":
      words[at] = OperandFrom.FIELD;
      words[at + 1] = operand.field;
      return;
    case "slot":
      words[at] = OperandFrom.SLOT;
      words[at + 1] = operand.slot;
      return;
    case "register":
      words[at] = OperandFrom.REGISTER;
      words[at + 1] = operand.register;
      return;
    case "index":
      words[at] = OperandFrom.INDEX;
      return;
    case "literal":
      words[at] = OperandFrom.LITERAL;
      valueWords(table, operand.value).forEach((word, i) => {
        words[at + 1 + i] = word;
      });
      return;
    default: {
      const unknown: never = operand;
      throw new Error(`statefold: no packing for operand ${JSON.stringify(unknown)}`);
    }
  }
}

function valueWords(table: TableBuilder, value: Value): number[] {
  if (value === null) return [ValueTag.ABSENT, 0, 0];
  if (typeof value === "bigint") return [ValueTag.INT, lowWord(value), highWord(value)];
  if (typeof value === "string") return [ValueTag.STRING, ...table.string(value)];
  return [ValueTag.BOOL, value ? 1 : 0, 0];
}

function packEntities(table: TableBuilder, model: CompiledModel): number {
  const rows = model.entities.map((entity) => {
    const row = new Array<number>(Width.ENTITY).fill(0);
    row[EntityWord.STATES] = entity.states.length;
    row[EntityWord.SLOTS] = entity.slots.length;
    row[EntityWord.REUSE] = entity.reuse ? 1 : 0;
    row[EntityWord.AT_END_RULE] = entity.atEndRule ?? -1;
    row[EntityWord.FINAL_AT] = table.append(entity.final.map(Number));
    row[EntityWord.AT_END_AT] = entity.atEnd === null ? -1 : table.append(entity.atEnd.map(Number));
    return row;
  });
  const at = table.reserve(rows.length * Width.ENTITY);
  rows.forEach((row, i) => {
    row.forEach((word, j) => {
      table.words[at + i * Width.ENTITY + j] = word;
    });
  });
  return at;
}

function packJournal(table: TableBuilder, model: CompiledModel): number {
  const { sequence, monotone, monotoneRule, knownKindsRule, reads, key } = model.journal;
  const monotoneAt =
    monotone.length === 0
      ? 0
      : table.append(monotone.flatMap((field) => [field.field, field.strict ? 1 : 0]));
  const checked = checkedFields([], reads);
  const checkedAt = checked.length === 0 ? 0 : table.append(checked);
  const at = table.reserve(Width.JOURNAL);
  const set = (word: number, value: number) => {
    table.words[at + word] = value;
  };
  set(JournalWord.HAS_SEQUENCE, sequence === null ? 0 : 1);
  if (sequence !== null) {
    set(JournalWord.SEQUENCE_FIELD, sequence.field);
    set(JournalWord.SEQUENCE_START_LOW, lowWord(sequence.start));
    set(JournalWord.SEQUENCE_START_HIGH, highWord(sequence.start));
    set(JournalWord.SEQUENCE_STEP_LOW, lowWord(sequence.step));
    set(JournalWord.SEQUENCE_STEP_HIGH, highWord(sequence.step));
    set(JournalWord.SEQUENCE_RULE, sequence.rule);
  }
  set(JournalWord.MONOTONE_COUNT, monotone.length);
  set(JournalWord.MONOTONE_AT, monotoneAt);
  set(JournalWord.MONOTONE_RULE, monotoneRule ?? -1);
  set(JournalWord.KNOWN_KINDS_RULE, knownKindsRule ?? -1);
  set(JournalWord.CHECKED_COUNT, checked.length);
  set(JournalWord.CHECKED_AT, checkedAt);
  set(JournalWord.KEY_FIELD, key ?? -1);
  return at;
}

function packRegisters(table: TableBuilder, model: CompiledModel): number {
  const words = model.journal.registers.flatMap((register) => valueWords(table, register.initial));
  return words.length === 0 ? table.words.length : table.append(words);
}

function packCounters(table: TableBuilder, model: CompiledModel): number {
  const words = model.journal.counters.flatMap((counter) =>
    counter.max === null ? [0, 0, 0] : [1, lowWord(counter.max), highWord(counter.max)],
  );
  return words.length === 0 ? table.words.length : table.append(words);
}

function packSource(table: TableBuilder, model: CompiledModel): number {
  if ("lines" in model.source) return table.append([SourceKind.LINES, 0]);
  const paths = model.source.arrays.map((path) => packPath(table, path));
  return table.append([SourceKind.ARRAYS, paths.length, ...paths]);
}

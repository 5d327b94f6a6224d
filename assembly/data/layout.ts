/**
 * The packed model table the host writes (its layout is drawn once, in bindings/data/layout.ts;
 * these namespaces mirror it member for member, and test/bindings/data/pack-model.test.ts holds
 * the two together), and the table's reader: words by index, strings by their two words.
 */

export namespace TableHeader {
  export const MAGIC: i32 = 0;
  export const FIELD_COUNT: i32 = 1;
  export const KIND_COUNT: i32 = 2;
  export const ENTITY_COUNT: i32 = 3;
  export const RULE_COUNT: i32 = 4;
  export const REGISTER_COUNT: i32 = 5;
  export const COUNTER_COUNT: i32 = 6;
  export const SPELLING_COUNT: i32 = 7;
  export const KIND_PATH_AT: i32 = 8;
  export const FIELDS_AT: i32 = 9;
  export const SPELLINGS_AT: i32 = 10;
  export const KINDS_AT: i32 = 11;
  export const ENTITIES_AT: i32 = 12;
  export const JOURNAL_AT: i32 = 13;
  export const REGISTERS_AT: i32 = 14;
  export const COUNTERS_AT: i32 = 15;
  export const SOURCE_AT: i32 = 16;
  export const CLAUSES_MAX: i32 = 17;
  export const SLOTS_MAX: i32 = 18;
  export const WORDS: i32 = 19;
}

export namespace Width {
  export const HEADER: i32 = 20;
  export const FIELD: i32 = 2;
  export const SPELLING: i32 = 3;
  export const KIND: i32 = 4;
  export const CLAUSE: i32 = 16;
  export const OPERAND: i32 = 4;
  export const VALUE: i32 = 3;
  export const ENTITY: i32 = 6;
  export const JOURNAL: i32 = 14;
  export const COUNTER: i32 = 3;
}

export namespace PathStepKind {
  export const MEMBER: i32 = 0;
  export const SUFFIX: i32 = 1;
}

export namespace FieldTypeCode {
  export const INT: i32 = 0;
  export const STRING: i32 = 1;
  export const BOOL: i32 = 2;
}

export namespace ValueTag {
  export const ABSENT: u32 = 0;
  export const INT: u32 = 1;
  export const STRING: u32 = 2;
  export const BOOL: u32 = 3;
}

export namespace OperandFrom {
  export const FIELD: i32 = 0;
  export const SLOT: i32 = 1;
  export const REGISTER: i32 = 2;
  export const INDEX: i32 = 3;
  export const LITERAL: i32 = 4;
}

export namespace SourceKind {
  export const LINES: i32 = 0;
  export const ARRAYS: i32 = 1;
}

export namespace ClauseOpCode {
  export const NEW: i32 = 0;
  export const STEP: i32 = 1;
  export const NEED: i32 = 2;
  export const PUT: i32 = 3;
  export const CHECK: i32 = 4;
  export const COUNT: i32 = 5;
  export const NEXT: i32 = 6;
  export const FIRST: i32 = 7;
  export const ONCE: i32 = 8;
  export const LAST: i32 = 9;
}

export namespace ComparisonCode {
  export const EQUAL: i32 = 0;
  export const NOT_EQUAL: i32 = 1;
  export const LESS: i32 = 2;
  export const LESS_OR_EQUAL: i32 = 3;
  export const GREATER: i32 = 4;
  export const GREATER_OR_EQUAL: i32 = 5;
}

export namespace ClauseWord {
  export const OP: i32 = 0;
  export const RULE: i32 = 1;
  export const ELSE_IGNORE: i32 = 2;
  export const A: i32 = 3;
  export const OPERAND_1: i32 = 4;
  export const OPERAND_2: i32 = 8;
  export const B: i32 = 12;
  export const C: i32 = 13;
  export const D: i32 = 14;
}

export namespace EntityWord {
  export const STATES: i32 = 0;
  export const SLOTS: i32 = 1;
  export const REUSE: i32 = 2;
  export const AT_END_RULE: i32 = 3;
  export const FINAL_AT: i32 = 4;
  export const AT_END_AT: i32 = 5;
}

export namespace JournalWord {
  export const HAS_SEQUENCE: i32 = 0;
  export const SEQUENCE_FIELD: i32 = 1;
  export const SEQUENCE_START_LOW: i32 = 2;
  export const SEQUENCE_START_HIGH: i32 = 3;
  export const SEQUENCE_STEP_LOW: i32 = 4;
  export const SEQUENCE_STEP_HIGH: i32 = 5;
  export const SEQUENCE_RULE: i32 = 6;
  export const MONOTONE_COUNT: i32 = 7;
  export const MONOTONE_AT: i32 = 8;
  export const MONOTONE_RULE: i32 = 9;
  export const KNOWN_KINDS_RULE: i32 = 10;
  export const CHECKED_COUNT: i32 = 11;
  export const CHECKED_AT: i32 = 12;
  export const KEY_FIELD: i32 = 13;
}

export const TABLE_MAGIC: i32 = 0x54444653;

/** Where the table lies in the model region (model.ts loads it). */
export let table: usize = 0;
let strings: usize = 0;

export function useTable(at: usize): void {
  table = at;
  strings = at + (<usize>load<i32>(at + (<usize>TableHeader.WORDS << 2)) << 2);
}

/** Word `at` of the table. */
// @ts-expect-error: decorator
@inline
export function word(at: i32): i32 {
  return load<i32>(table + (<usize>at << 2));
}

/** Where the string whose two words start at word `at` lies. */
// @ts-expect-error: decorator
@inline
export function stringPointer(at: i32): usize {
  return strings + <usize>word(at);
}

// @ts-expect-error: decorator
@inline
export function stringLength(at: i32): usize {
  return <usize>word(at + 1);
}

/** A 64-bit int from its low and high words at `at`. */
// @ts-expect-error: decorator
@inline
export function int64At(at: i32): i64 {
  // The low word zero-extended by a mask: a cast of it through u32 would be sign-extended.
  return (<i64>word(at + 1) << 32) | (<i64>word(at) & 0xffffffff);
}

/**
 * The packed model table of a model defined by data (docs/models/data.md): the one place its
 * layout is written down for the host. The kernel's side is assembly/data/layout.ts, which exports
 * the same names with the same values; test/bindings/data/pack-model.test.ts holds the two
 * together.
 *
 * The table is little-endian 32-bit words, then the bytes of the strings the words name. Every
 * `…At` is a word index into the table; a string is two words, the byte offset of its WTF-8 bytes
 * from the start of the strings (which follow the last word, `WORDS`) and their length. Lists are laid out where their `…At` says, one entry
 * after another.
 *
 *   header (Width.HEADER)     counts, where each part starts (TableHeader)
 *   path                      [steps, (step kind, string)×steps]: PathStep MEMBER names a member,
 *                             SUFFIX the first member whose key ends with the string
 *   field (Width.FIELD)       [path at, FieldType]
 *   spelling (Width.SPELLING) [string, kind]: every name and alias of a kind
 *   kind (Width.KIND)         [clause count, clauses at, checked count, checked at]: `checked`
 *                             is every field a record of the kind is type-checked on (its clauses'
 *                             reads and the journal's), in field order
 *   clause (Width.CLAUSE)     [op, rule, else-ignore, A, operand 1 (4), operand 2 (4), B, C, D]
 *                             (ClauseWord says what A–D are for each op)
 *   operand (Width.OPERAND)   [OperandFrom, index or value (3)]
 *   value (Width.VALUE)       [ValueTag, then an int's low and high word, a string, or a bool]
 *   entity (Width.ENTITY)     [states, slots, reuse, atEnd rule or -1, final flags at, atEnd flags
 *                             at or -1]; each flags list one word per state
 *   journal (Width.JOURNAL)   JournalWord: sequence, monotone fields, known-kinds rule, the fields
 *                             every record is checked on, the field that splits a stream (or -1)
 *   register (Width.VALUE)    its initial value
 *   counter (Width.COUNTER)   [has max, max low, max high]
 *   source                    [SourceKind, alternatives, (path at)×alternatives]
 */

/** The table's first word: "SFDT" as little-endian bytes. */
export const TABLE_MAGIC = 0x54444653;

export const TableHeader = {
  MAGIC: 0,
  FIELD_COUNT: 1,
  KIND_COUNT: 2,
  ENTITY_COUNT: 3,
  RULE_COUNT: 4,
  REGISTER_COUNT: 5,
  COUNTER_COUNT: 6,
  SPELLING_COUNT: 7,
  KIND_PATH_AT: 8,
  FIELDS_AT: 9,
  SPELLINGS_AT: 10,
  KINDS_AT: 11,
  ENTITIES_AT: 12,
  JOURNAL_AT: 13,
  REGISTERS_AT: 14,
  COUNTERS_AT: 15,
  SOURCE_AT: 16,
  CLAUSES_MAX: 17,
  SLOTS_MAX: 18,
  WORDS: 19,
} as const;

/** Words per entry of each part. */
export const Width = {
  HEADER: 20,
  FIELD: 2,
  SPELLING: 3,
  KIND: 4,
  CLAUSE: 16,
  OPERAND: 4,
  VALUE: 3,
  ENTITY: 6,
  JOURNAL: 14,
  COUNTER: 3,
} as const;

export const PathStepKind = { MEMBER: 0, SUFFIX: 1 } as const;
export const FieldTypeCode = { int: 0, string: 1, bool: 2 } as const;
export const ValueTag = { ABSENT: 0, INT: 1, STRING: 2, BOOL: 3 } as const;
export const OperandFrom = { FIELD: 0, SLOT: 1, REGISTER: 2, INDEX: 3, LITERAL: 4 } as const;
export const SourceKind = { LINES: 0, ARRAYS: 1 } as const;

/** Clause ops in CLAUSE_OPS's order (src/models/data/compiled.ts). */
export const ClauseOpCode = {
  new: 0,
  step: 1,
  need: 2,
  put: 3,
  check: 4,
  count: 5,
  next: 6,
  first: 7,
  once: 8,
  last: 9,
} as const;

/** Comparisons in COMPARISONS's order. */
export const ComparisonCode = { "==": 0, "!=": 1, "<": 2, "<=": 3, ">": 4, ">=": 5 } as const;

/**
 * A clause row's words. A: new/step/need the entity, put 0 for a slot and 1 for a register,
 * check the comparison, count the counter. B: new the state it creates in; step/need/next the
 * length of its list; put the slot or register; count the low word of `by`. C: step/need/next
 * where its list (from, in, kinds) is; count the high word of `by`. D: step where its `to` list
 * is. Operand 1 is the key (new, step, need), the value (put) or the left side (check); operand
 * 2 the right side of a check.
 */
export const ClauseWord = {
  OP: 0,
  RULE: 1,
  ELSE_IGNORE: 2,
  A: 3,
  OPERAND_1: 4,
  OPERAND_2: 8,
  B: 12,
  C: 13,
  D: 14,
} as const;

export const EntityWord = {
  STATES: 0,
  SLOTS: 1,
  REUSE: 2,
  AT_END_RULE: 3,
  FINAL_AT: 4,
  AT_END_AT: 5,
} as const;

export const JournalWord = {
  HAS_SEQUENCE: 0,
  SEQUENCE_FIELD: 1,
  SEQUENCE_START_LOW: 2,
  SEQUENCE_START_HIGH: 3,
  SEQUENCE_STEP_LOW: 4,
  SEQUENCE_STEP_HIGH: 5,
  SEQUENCE_RULE: 6,
  MONOTONE_COUNT: 7,
  /** Pairs: [field, strict]. */
  MONOTONE_AT: 8,
  MONOTONE_RULE: 9,
  /** -1 when unknown kinds are ignored. */
  KNOWN_KINDS_RULE: 10,
  CHECKED_COUNT: 11,
  CHECKED_AT: 12,
  /** The field that splits a stream into journals (`journal.key`); -1 when none does. */
  KEY_FIELD: 13,
} as const;

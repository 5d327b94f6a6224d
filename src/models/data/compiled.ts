/**
 * A model file after checking (docs/models/data.md): every name resolved to its place in a
 * table, every operand to where its value comes from. Both engines audit with this — the
 * reference interprets it directly, the kernel receives it packed — so nothing in it is a
 * choice either engine could make differently. It holds only plain data (Maps, arrays,
 * bigints), so it can be handed to a worker thread as it is.
 */

/** One member name on a path, or the first member (in document order) whose key ends with `suffix`. */
export type PathStep = { readonly member: string } | { readonly suffix: string };

/** Member names walked from a record's top, objects only (docs/models/data.md, "Paths"). */
export type Path = readonly PathStep[];

export type FieldType = "int" | "string" | "bool";

export interface CompiledField {
  readonly name: string;
  readonly path: Path;
  readonly type: FieldType;
}

/**
 * A value as clauses see it: an int (exact, in [−2⁶³, 2⁶³−1]), a string, a bool, or `null` for
 * absent.
 */
export type Value = bigint | string | boolean | null;

export type Operand =
  /** `$field`: the record's field, absent when its path leads nowhere or to `null`. */
  | { readonly from: "field"; readonly field: number }
  /** `@slot`: a slot of the current instance's entity (its index in that entity's `slots`). */
  | { readonly from: "slot"; readonly slot: number }
  /** `%register`. */
  | { readonly from: "register"; readonly register: number }
  /** `#`: the record's 0-based index in its journal. */
  | { readonly from: "index" }
  | { readonly from: "literal"; readonly value: Value };

export type Comparison = "==" | "!=" | "<" | "<=" | ">" | ">=";

export const COMPARISONS: readonly Comparison[] = ["==", "!=", "<", "<=", ">", ">="];

export type PutTarget = { readonly slot: number } | { readonly register: number };

/** One clause of a kind (docs/models/data.md, "Clauses"). */
export type Clause = ClauseCommon &
  (
    | { readonly op: "new"; readonly entity: number; readonly key: Operand; readonly to: number }
    | {
        readonly op: "step";
        readonly entity: number;
        readonly key: Operand;
        readonly from: readonly number[];
        /** The state each `from` state moves to, at the same place. */
        readonly to: readonly number[];
      }
    | {
        readonly op: "need";
        readonly entity: number;
        readonly key: Operand;
        readonly in: readonly number[];
      }
    | { readonly op: "put"; readonly target: PutTarget; readonly value: Operand }
    | {
        readonly op: "check";
        readonly left: Operand;
        readonly comparison: Comparison;
        readonly right: Operand;
      }
    | { readonly op: "count"; readonly counter: number; readonly by: bigint }
    | { readonly op: "next"; readonly kinds: readonly number[] }
    | { readonly op: "first" }
    | { readonly op: "once" }
    | { readonly op: "last" }
  );

export type ClauseOp = Clause["op"];

export const CLAUSE_OPS: readonly ClauseOp[] = [
  "new",
  "step",
  "need",
  "put",
  "check",
  "count",
  "next",
  "first",
  "once",
  "last",
];

interface ClauseCommon {
  /** Its rule: an index into `CompiledModel.rules`. */
  readonly rule: number;
  /** `"else": "ignore"`: when it cannot apply, no finding and nothing changes. */
  readonly elseIgnore: boolean;
}

export interface CompiledKind {
  /** The name `kinds` gives it; records' other spellings reach it through `aliases`. */
  readonly name: string;
  readonly clauses: readonly Clause[];
  /**
   * The fields its clauses read, in field order: a record of this kind is type-checked on these
   * (and on `CompiledJournal.reads`) only.
   */
  readonly reads: readonly number[];
}

export interface CompiledEntity {
  readonly name: string;
  readonly states: readonly string[];
  /** Per state: whether it is final (absorbing). */
  readonly final: readonly boolean[];
  readonly slots: readonly string[];
  /** Per state: whether an instance may be in it when its journal ends; null when not written (all may). */
  readonly atEnd: readonly boolean[] | null;
  /** Its `E.atEnd` rule, when `atEnd` is written. */
  readonly atEndRule: number | null;
  /** Whether reaching a final state forgets the instance, freeing its key. */
  readonly reuse: boolean;
}

export interface CompiledJournal {
  readonly sequence: {
    readonly field: number;
    readonly start: bigint;
    readonly step: bigint;
    readonly rule: number;
  } | null;
  readonly monotone: readonly { readonly field: number; readonly strict: boolean }[];
  /** The `monotone` rule, when any field is monotone. */
  readonly monotoneRule: number | null;
  readonly registers: readonly { readonly name: string; readonly initial: Value }[];
  readonly counters: readonly { readonly name: string; readonly max: bigint | null }[];
  /** The `known-kinds` rule when `unknownKinds` is `"reject"`; null when unknown kinds are ignored. */
  readonly knownKindsRule: number | null;
  /** The field that splits a stream into journals, if any. */
  readonly key: number | null;
  /** The fields the journal's settings read (sequence, monotone, key): type-checked on every record. */
  readonly reads: readonly number[];
}

/** Where a file's records are. */
export type RecordSource =
  | { readonly lines: true }
  /** The elements of the first array, in document order, that one of these paths leads to. */
  | { readonly arrays: readonly Path[] };

export interface CompiledRule {
  readonly name: string;
  /** The model file's description (`rules`), if it gives one. */
  readonly description: string | null;
}

export interface CompiledModel {
  /** The file's `name`: the report's `model`. */
  readonly name: string;
  readonly source: RecordSource;
  readonly kindPath: Path;
  readonly fields: readonly CompiledField[];
  readonly kinds: readonly CompiledKind[];
  /** Every spelling of a kind (its name and its aliases) to its index in `kinds`. */
  readonly kindOf: ReadonlyMap<string, number>;
  readonly entities: readonly CompiledEntity[];
  readonly journal: CompiledJournal;
  /** Every rule, in the order the report's `invariants` lists them. */
  readonly rules: readonly CompiledRule[];
}

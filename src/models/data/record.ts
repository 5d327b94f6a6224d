/**
 * One record read as a model defined by data reads it (docs/models/data.md, "Records"): its kind
 * and the fields its clauses and the journal's settings read, typed — or the integrity problem
 * that stops the fold there. Nothing else of the record is looked at.
 *
 * Two things `JSON.parse` alone cannot tell are taken from the record's text: the order of an
 * object's members (a `*SUFFIX` step takes the first in the document, and a parsed object puts
 * integer-like keys first), and a number's exact value (`4.0000000000000001` is not an int,
 * though it parses to 4).
 */
import { formatPath } from "../../journal/json-array-source.js";
import { walkJson } from "../../journal/json-walk.js";
import { pointerOf } from "./check.js";
import type { CompiledField, CompiledModel, FieldType, Path, Value } from "./compiled.js";

export type RecordProblem =
  | { readonly problem: "not-an-object" }
  | { readonly problem: "kind-not-a-string" }
  | { readonly problem: "wrong-type"; readonly field: number };

export type ReadRecord =
  | {
      readonly ok: true;
      /** The kind's index in the model, or null when `kinds` does not name it. */
      readonly kind: number | null;
      /** The kind as the record spells it. */
      readonly spelling: string;
      /** Every field's value; only those the record's kind and the journal read are filled. */
      readonly fields: readonly Value[];
    }
  | ({ readonly ok: false } & RecordProblem);

/** Reads a parsed record; `text` is the JSON text it was parsed from. */
export function readRecord(model: CompiledModel, value: unknown, text: string): ReadRecord {
  if (!isPlainObject(value)) return { ok: false, problem: "not-an-object" };
  const document = new RecordDocument(value, text);
  const spelling = document.at(model.kindPath).value;
  if (typeof spelling !== "string") return { ok: false, problem: "kind-not-a-string" };
  const kind = model.kindOf.get(spelling) ?? null;
  const fields: Value[] = model.fields.map(() => null);
  const reads =
    kind === null
      ? model.journal.reads
      : unionOf(model.kinds[kind]?.reads ?? [], model.journal.reads);
  for (const field of reads) {
    const typed = typedValue(document, model.fields[field] as CompiledField);
    if (typed === undefined) return { ok: false, problem: "wrong-type", field };
    fields[field] = typed;
  }
  return { ok: true, kind, spelling, fields };
}

/** The message an integrity problem is reported with (docs/models/data.md, "Bad records"). */
export function recordProblemMessage(model: CompiledModel, problem: RecordProblem): string {
  switch (problem.problem) {
    case "not-an-object":
      return "the record is not a JSON object";
    case "kind-not-a-string":
      return `the record has no string at its kind's path, ${formatPath(model.kindPath)}`;
    case "wrong-type": {
      const field = model.fields[problem.field] as CompiledField;
      return `field "${field.name}" (${formatPath(field.path)}) is not ${TYPE_NAMES[field.type]}`;
    }
  }
}

const TYPE_NAMES: Readonly<Record<FieldType, string>> = {
  int: "an int (a safe integer, or a string of digits within 64 bits)",
  string: "a string",
  bool: "true or false",
};

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);

/** The field's value as its type reads it; null when absent, undefined when of another type. */
function typedValue(document: RecordDocument, field: CompiledField): Value | undefined {
  const found = document.at(field.path);
  const { value } = found;
  if (value === undefined || value === null) return null;
  switch (field.type) {
    case "string":
      return typeof value === "string" ? value : undefined;
    case "bool":
      return typeof value === "boolean" ? value : undefined;
    case "int":
      if (typeof value === "string") return intOfDigits(value);
      if (typeof value === "number") return intOfNumberText(document.numberText(found.pointer));
      return undefined;
  }
}

function intOfDigits(text: string): bigint | undefined {
  if (!/^-?[0-9]+$/.test(text)) return undefined;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}

/** A JSON number's exact value when it is an integer within ±(2⁵³−1). */
export function intOfNumberText(text: string): bigint | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (match === null) return undefined;
  const [, sign, whole, fraction = "", exponentText = "0"] = match;
  const digits = `${whole}${fraction}`.replace(/^0+/, "");
  if (digits === "") return 0n;
  const exponent = Number(exponentText) - fraction.length;
  let magnitude: bigint;
  if (exponent >= 0) {
    // More than 16 digits of zeros after a non-zero digit is past 2⁵³ whatever the digits.
    if (digits.length + exponent > 16) return undefined;
    magnitude = BigInt(digits) * 10n ** BigInt(exponent);
  } else {
    const kept = digits.length + exponent;
    if (!/^0*$/.test(digits.slice(Math.max(kept, 0)))) return undefined;
    if (kept <= 0) return undefined;
    magnitude = BigInt(digits.slice(0, kept));
  }
  if (magnitude > SAFE_MAX) return undefined;
  return sign === "-" ? -magnitude : magnitude;
}

/**
 * A parsed record and its text. The text is walked once, and only when a path takes a `*SUFFIX`
 * step or an int is read from a number: most records of most models never need it.
 */
class RecordDocument {
  private walked: { memberOrder: Map<string, string[]>; offsets: Map<string, number> } | null =
    null;

  constructor(
    private readonly value: Record<string, unknown>,
    private readonly text: string,
  ) {}

  at(path: Path): { value: unknown; pointer: string } {
    let here: unknown = this.value;
    let pointer = "";
    for (const step of path) {
      if (!isPlainObject(here)) return { value: undefined, pointer };
      const member = "member" in step ? step.member : this.firstEndingWith(pointer, step.suffix);
      if (member === undefined || !Object.hasOwn(here, member))
        return { value: undefined, pointer };
      here = here[member];
      pointer += pointerOf([member]);
    }
    return { value: here, pointer };
  }

  numberText(pointer: string): string {
    const number = /-?[0-9.eE+-]+/y;
    number.lastIndex = this.walk().offsets.get(pointer) as number;
    return (number.exec(this.text) as RegExpExecArray)[0];
  }

  private firstEndingWith(pointer: string, suffix: string): string | undefined {
    return this.walk()
      .memberOrder.get(pointer)
      ?.find((key) => key.endsWith(suffix));
  }

  private walk() {
    if (this.walked !== null) return this.walked;
    const memberOrder = new Map<string, string[]>();
    const offsets = new Map<string, number>();
    walkJson(this.text, (path, offset) => {
      const pointer = pointerOf(path);
      // A repeated key's value is its last: what an earlier value under it held is forgotten.
      if (offsets.has(pointer)) forgetUnder(memberOrder, pointer);
      offsets.set(pointer, offset);
      const last = path[path.length - 1];
      if (typeof last !== "string") return;
      const parent = pointer.slice(0, pointer.length - pointerOf([last]).length);
      const members = memberOrder.get(parent);
      if (members === undefined) memberOrder.set(parent, [last]);
      else if (!members.includes(last)) members.push(last);
    });
    this.walked = { memberOrder, offsets };
    return this.walked;
  }
}

function forgetUnder(memberOrder: Map<string, string[]>, pointer: string): void {
  for (const held of [...memberOrder.keys()])
    if (held === pointer || held.startsWith(`${pointer}/`)) memberOrder.delete(held);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function unionOf(a: readonly number[], b: readonly number[]): number[] {
  return b.length === 0 ? [...a] : [...new Set([...a, ...b])].sort((x, y) => x - y);
}

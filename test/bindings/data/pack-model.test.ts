/**
 * The data kernel's packed table and codes, held against the kernel's source: the layout the
 * host packs (bindings/data/layout.ts) is the one assembly/data/layout.ts reads, member for member;
 * the codes the host reads back (bindings/data/codes.ts, read-report.ts) are the kernel's, by
 * position.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROBLEMS, REASONS } from "../../../bindings/data/codes.js";
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
} from "../../../bindings/data/layout.js";
import { packModel } from "../../../bindings/data/pack-model.js";
import { FINDING_WORDS } from "../../../bindings/data/read-report.js";
import { CLAUSE_OPS, COMPARISONS, type CompiledModel } from "../../../src/models/data/compiled.js";
import { kernelNamespace } from "../../support/kernel-source.js";
import { ROOT } from "../../support/static-imports.js";
import { paymentIntents, splitPayments } from "./models.js";

const KERNEL_LAYOUT = "assembly/data/layout.ts";

/** A string's name in the kernel: `payment-intent.x` ↔ PAYMENT_INTENT_X, `int` ↔ INT. */
function screaming(name: string): string {
  return name.replace(/[-.]/g, "_").toUpperCase();
}

function positions(file: string, namespace: string): string[] {
  return [...kernelNamespace(file, namespace)].sort(([, a], [, b]) => a - b).map(([name]) => name);
}

describe("the packed table's layout", () => {
  const layouts = {
    TableHeader,
    Width,
    PathStepKind,
    ValueTag,
    OperandFrom,
    SourceKind,
    ClauseWord,
    EntityWord,
    JournalWord,
  };
  for (const [name, members] of Object.entries(layouts)) {
    it(`${name} is the kernel's`, () => {
      expect(Object.fromEntries(kernelNamespace(KERNEL_LAYOUT, name))).toEqual(members);
    });
  }

  it("field types, clause ops and comparisons are coded as the kernel reads them", () => {
    expect(positions(KERNEL_LAYOUT, "FieldTypeCode")).toEqual(
      Object.keys(FieldTypeCode).map(screaming),
    );
    expect(Object.values(FieldTypeCode)).toEqual([0, 1, 2]);
    expect(positions(KERNEL_LAYOUT, "ClauseOpCode")).toEqual(CLAUSE_OPS.map(screaming));
    expect(CLAUSE_OPS.map((op) => ClauseOpCode[op])).toEqual(CLAUSE_OPS.map((_, i) => i));
    expect(positions(KERNEL_LAYOUT, "ComparisonCode")).toEqual([
      "EQUAL",
      "NOT_EQUAL",
      "LESS",
      "LESS_OR_EQUAL",
      "GREATER",
      "GREATER_OR_EQUAL",
    ]);
    expect(COMPARISONS.map((comparison) => ComparisonCode[comparison])).toEqual(
      COMPARISONS.map((_, i) => i),
    );
  });

  it("the table magic is the kernel's", () => {
    const source = readFileSync(join(ROOT, KERNEL_LAYOUT), "utf8");
    const magic = /^export const TABLE_MAGIC: i32 = (0x[0-9a-f]+);/m.exec(source)?.[1];
    expect(Number(magic)).toBe(TABLE_MAGIC);
  });
});

describe("the report's codes", () => {
  it("reasons and problems are the kernel's, by position", () => {
    expect(positions("assembly/data/report.ts", "Reason")).toEqual(REASONS.map(screaming));
    expect(
      positions("assembly/data/record.ts", "Problem").filter((name) => name !== "NONE"),
    ).toEqual(PROBLEMS.map(screaming));
  });

  it("a finding's words are where the kernel writes them", () => {
    expect(Object.fromEntries(kernelNamespace("assembly/data/report.ts", "FindingWord"))).toEqual(
      FINDING_WORDS,
    );
  });
});

describe("packModel", () => {
  it("packs the header's counts and where each part lies", () => {
    const model = paymentIntents();
    const { bytes, digest } = packModel(model);
    const words = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const word = (at: number) => words.getInt32(at * 4, true);
    expect(word(TableHeader.MAGIC)).toBe(TABLE_MAGIC);
    expect(word(TableHeader.FIELD_COUNT)).toBe(3);
    expect(word(TableHeader.KIND_COUNT)).toBe(3);
    expect(word(TableHeader.SPELLING_COUNT)).toBe(4);
    expect(word(TableHeader.RULE_COUNT)).toBe(9);
    expect(word(TableHeader.CLAUSES_MAX)).toBe(3);
    expect(word(TableHeader.WORDS) * 4).toBeLessThan(bytes.length);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    // The succeeded kind's check: $amount == @amount under amount-kept.
    const succeeded = word(TableHeader.KINDS_AT) + 2 * Width.KIND;
    const check = word(succeeded + 1) + Width.CLAUSE;
    expect(word(check + ClauseWord.OP)).toBe(ClauseOpCode.check);
    expect(word(check + ClauseWord.RULE)).toBe(4);
    expect(word(check + ClauseWord.A)).toBe(ComparisonCode["=="]);
    expect([word(check + ClauseWord.OPERAND_1), word(check + ClauseWord.OPERAND_1 + 1)]).toEqual([
      OperandFrom.FIELD,
      1,
    ]);
    expect([word(check + ClauseWord.OPERAND_2), word(check + ClauseWord.OPERAND_2 + 1)]).toEqual([
      OperandFrom.SLOT,
      0,
    ]);
  });

  it("packs int literals of any i64 as two words, and a model's table always the same", () => {
    const model = paymentIntents({
      journal: {
        ...paymentIntents().journal,
        sequence: { field: 2, start: -(2n ** 63n), step: 2n ** 63n - 1n, rule: 7 },
      },
    });
    const { bytes } = packModel(model);
    const words = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const journal = words.getInt32(TableHeader.JOURNAL_AT * 4, true);
    const int64 = (at: number) => words.getBigInt64((journal + at) * 4, true);
    expect(int64(JournalWord.SEQUENCE_START_LOW)).toBe(-(2n ** 63n));
    expect(int64(JournalWord.SEQUENCE_STEP_LOW)).toBe(2n ** 63n - 1n);
    expect(packModel(model).digest).toBe(packModel(model).digest);
    expect(packModel(paymentIntents()).digest).not.toBe(packModel(model).digest);
  });

  it("packs the field that splits a stream, or -1, so a split model is another table", () => {
    const keyField = (model: CompiledModel) => {
      const { bytes } = packModel(model);
      const words = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const journal = words.getInt32(TableHeader.JOURNAL_AT * 4, true);
      return words.getInt32((journal + JournalWord.KEY_FIELD) * 4, true);
    };
    expect(keyField(paymentIntents())).toBe(-1);
    expect(keyField(splitPayments())).toBe(3);
    const unsplit = splitPayments({ journal: { ...splitPayments().journal, key: null } });
    expect(packModel(splitPayments()).digest).not.toBe(packModel(unsplit).digest);
  });
});

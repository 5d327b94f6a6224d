/**
 * Properties the reference engine of models defined by data must have on its own (docs/models/
 * data.md), over generated models and journals (test/support/data-model-arbitrary.ts): what
 * does not change a journal's meaning does not change its report.
 *
 * - How a record is written — spacing, string escapes, CRLF — changes nothing: values are
 *   compared after decoding (only an integrity message, which quotes the text, and a torn
 *   tail's byte offset may differ).
 * - An int's spelling (`5`, `5.0`, `5e0`, `50e-1`) and a kind's (an alias or its name) change
 *   nothing: the report names kinds after aliases and compares ints as ints.
 * - Lines that are not records (a header, blank lines) change only the `line`s.
 * - Members no path of the model reaches change nothing: a record is read only at its paths.
 * - A stream split by `journal.key` is its journals side by side: each journal's report is the
 *   report of its records alone, but for the `line`s.
 * - One pass, no lookahead past the next record: the findings at a journal's first records are
 *   those of any longer journal that begins with them (but for `open-at-end`, found at the end).
 * - A rejected unknown kind is an ignored one plus its `known-kinds` finding: it is a record for
 *   everything else (sequence, monotone, `next`, `last`, `first`, `#`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { auditDataBytes, auditDataJournals } from "../../../src/models/data/engine.js";
import { checkModel } from "../../../src/models/data/load.js";
import type { DataFinding, DataReport } from "../../../src/models/data/report.js";
import {
  dataModelAndJournalArbitrary,
  type JournalDraft,
  type JsonAst,
  JsonNumber,
  JsonObject,
  type ModelAndJournal,
  type ModelView,
  type PathStep,
  PLAIN_WRITE,
  viewModel,
  type WriteStyle,
  writeJournal,
} from "../../support/data-model-arbitrary.js";

const RUNS = { numRuns: 100, seed: 3511 };

const unsplitPairs = dataModelAndJournalArbitrary({ split: "never" });

function reportOf(pair: ModelAndJournal, draft: JournalDraft, style: WriteStyle): DataReport {
  return reportWith(pair.model, draft, style);
}

function reportWith(file: unknown, draft: JournalDraft, style: WriteStyle): DataReport {
  const model = checkModel(file, "generated.json");
  return auditDataBytes(model, writeJournal(draft, viewModel(file).name, style), {
    file: "journal",
  });
}

/** The report but what quotes the text: an integrity's message, a torn tail's byte offset. */
function meaning(report: DataReport): unknown {
  return {
    ...report,
    integrity: report.integrity === null ? null : { ...report.integrity, message: "" },
    tornTail: report.tornTail !== null,
  };
}

/** As `meaning`, without any `line`. */
function meaningSansLines(report: DataReport): unknown {
  return JSON.parse(
    JSON.stringify(meaning(report), (key, value) => (key === "line" ? undefined : value)),
  );
}

const styleArbitrary: fc.Arbitrary<WriteStyle> = fc.record({
  spaced: fc.boolean(),
  escaped: fc.boolean(),
  crlf: fc.boolean(),
});

// ---------------------------------------------------------------------------------------------
// Rewriting records

/** The record with `rewrite` applied to every value in it, members and items included. */
function mapValues(value: JsonAst, rewrite: (value: JsonAst) => JsonAst): JsonAst {
  if (value instanceof JsonObject)
    return rewrite(
      new JsonObject(value.members.map(([key, member]) => [key, mapValues(member, rewrite)])),
    );
  if (Array.isArray(value)) return rewrite(value.map((item) => mapValues(item, rewrite)));
  return rewrite(value);
}

function mapRecords(draft: JournalDraft, rewrite: (record: JsonAst) => JsonAst): JournalDraft {
  return {
    ...draft,
    lines: draft.lines.map((line) => ("record" in line ? { record: rewrite(line.record) } : line)),
  };
}

/** The spellings the generator gives an int (`5.0`, `5e0`, `50e-1`, `0.0e1`), as plain digits. */
function plainNumber(value: JsonAst): JsonAst {
  if (!(value instanceof JsonNumber)) return value;
  if (value.text === "0.0e1") return new JsonNumber("0");
  const digits =
    /^(-?\d+)(?:\.0|e0)$/.exec(value.text)?.[1] ?? /^(-?\d+)0e-1$/.exec(value.text)?.[1];
  return digits === undefined ? value : new JsonNumber(digits);
}

/** Where a path leads in a record: a member's last value; a suffix step's first member in document order. */
function memberAt(object: JsonObject, step: PathStep): string | undefined {
  const keys = object.members.map(([key]) => key);
  return "member" in step ? step.member : keys.find((key) => key.endsWith(step.suffix));
}

/** The record with `rewrite` applied to the value its path leads to, if any. */
function mapAtPath(
  value: JsonAst,
  path: readonly PathStep[],
  rewrite: (value: JsonAst) => JsonAst,
): JsonAst {
  const [step, ...rest] = path;
  if (step === undefined) return rewrite(value);
  if (!(value instanceof JsonObject)) return value;
  const name = memberAt(value, step);
  return new JsonObject(
    value.members.map(([key, member]) => [
      key,
      key === name ? mapAtPath(member, rest, rewrite) : member,
    ]),
  );
}

function valueAtPath(value: JsonAst, path: readonly PathStep[]): JsonAst | undefined {
  const [step, ...rest] = path;
  if (step === undefined) return value;
  if (!(value instanceof JsonObject)) return undefined;
  const name = memberAt(value, step);
  const member = [...value.members].reverse().find(([key]) => key === name)?.[1];
  return member === undefined ? undefined : valueAtPath(member, rest);
}

function canonicalKinds(view: ModelView): (record: JsonAst) => JsonAst {
  const canonical = new Map<string, string>();
  for (const [kind, aliases] of view.aliasesOf)
    for (const alias of aliases) canonical.set(alias, kind);
  return (record) =>
    mapAtPath(record, view.kindPath, (kind) =>
      typeof kind === "string" ? (canonical.get(kind) ?? kind) : kind,
    );
}

// ---------------------------------------------------------------------------------------------

describe("the reference engine of models defined by data", () => {
  it("gives the same report however the records are written: spacing, escapes, CRLF", () => {
    fc.assert(
      fc.property(unsplitPairs, styleArbitrary, (pair, style) => {
        const { draft } = pair.journal;
        // A document written spaced puts each element on a line of its own.
        const same = draft.arrayPath === null ? meaning : meaningSansLines;
        expect(same(reportOf(pair, draft, style))).toEqual(
          same(reportOf(pair, draft, pair.journal.style)),
        );
      }),
      RUNS,
    );
  });

  it("gives the same report whichever spelling an int or a kind has", () => {
    fc.assert(
      fc.property(unsplitPairs, (pair) => {
        const { draft, style } = pair.journal;
        const toCanonical = canonicalKinds(viewModel(pair.model));
        const plain = mapRecords(draft, (record) => toCanonical(mapValues(record, plainNumber)));
        expect(meaning(reportOf(pair, plain, style))).toEqual(
          meaning(reportOf(pair, draft, style)),
        );
      }),
      RUNS,
    );
  });

  it("gives the same report, but for its lines, without the header and blank lines", () => {
    fc.assert(
      fc.property(unsplitPairs, (pair) => {
        const { draft, style } = pair.journal;
        const bare = {
          ...draft,
          header: false,
          lines: draft.lines.filter((line) => !("blank" in line)),
        };
        expect(meaningSansLines(reportOf(pair, bare, style))).toEqual(
          meaningSansLines(reportOf(pair, draft, style)),
        );
      }),
      RUNS,
    );
  });

  it("gives the same report when records carry members the model does not read", () => {
    const unread = new JsonObject([
      ["kind", "mystery"],
      ["id", new JsonNumber("5.5")],
    ]);
    fc.assert(
      fc.property(unsplitPairs, (pair) => {
        const { draft, style } = pair.journal;
        const padded = mapRecords(draft, (record) =>
          record instanceof JsonObject
            ? new JsonObject([...record.members, ["unreadByAnyPath", unread]])
            : record,
        );
        expect(meaning(reportOf(pair, padded, style))).toEqual(
          meaning(reportOf(pair, draft, style)),
        );
      }),
      RUNS,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// A stream split by key

/** A journal key as a comparable tag: an int's exact value, or the string. */
function keyTag(value: JsonAst | number | undefined, type: string): string | undefined {
  if (value === undefined || value === null || typeof value === "boolean") return undefined;
  if (typeof value === "number") return `int ${BigInt(value)}`;
  if (value instanceof JsonNumber) {
    const plain = plainNumber(value);
    return plain instanceof JsonNumber ? `int ${BigInt(plain.text)}` : undefined;
  }
  if (typeof value !== "string") return undefined;
  return type === "int" ? `int ${BigInt(value)}` : `string ${value}`;
}

function journalOf(view: ModelView, key: unknown): (record: JsonAst) => boolean {
  const field = view.fields.get(view.key as string);
  if (field === undefined) throw new Error("the model splits by no field");
  const tag = keyTag(key as JsonAst | number, field.type);
  return (record) => keyTag(valueAtPath(record, field.path), field.type) === tag;
}

describe("the reference engine of models defined by data, on a stream split by key", () => {
  it("reports each journal of the stream as it reports that journal's records alone", () => {
    const splitPairs = dataModelAndJournalArbitrary({ split: "always", arrays: false });
    fc.assert(
      fc.property(splitPairs, (pair) => {
        const view = viewModel(pair.model);
        fc.pre(view.key !== null);
        const model = checkModel(pair.model, "generated.json");
        const stream = auditDataJournals(model, pair.journal.bytes);
        fc.pre(stream[0]?.integrity === null);
        for (const report of stream) {
          const inJournal = journalOf(view, report.journal);
          const records = pair.journal.draft.lines.filter(
            (line) => "record" in line && inJournal(line.record),
          );
          const alone: JournalDraft = {
            ...pair.journal.draft,
            header: false,
            lines: records,
            tornTail: null,
          };
          const [aloneReport] = auditDataJournals(
            model,
            writeJournal(alone, view.name, PLAIN_WRITE),
          );
          expect(meaningSansLines({ ...report, tornTail: null })).toEqual(
            meaningSansLines(aloneReport as DataReport),
          );
        }
      }),
      RUNS,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// One pass, no lookahead

/** The findings at records before `count`, as far as both listings hold every one of them. */
function findingsBefore(count: number, ...reports: DataReport[]): DataFinding[][] {
  const listedWhole = (report: DataReport) =>
    report.legality.illegal > report.legality.first.length
      ? (report.legality.first.at(-1)?.index ?? 0)
      : Number.POSITIVE_INFINITY;
  const before = Math.min(count, ...reports.map(listedWhole));
  return reports.map((report) =>
    report.legality.first.filter(
      (finding) => finding.index < before && finding.reason !== "open-at-end",
    ),
  );
}

describe("the reference engine of models defined by data, one record at a time", () => {
  it("finds at a journal's first records what it finds at them in any longer journal", () => {
    fc.assert(
      fc.property(unsplitPairs, fc.nat(), (pair, cut) => {
        const { draft, style } = pair.journal;
        const count = draft.lines.length === 0 ? 0 : cut % (draft.lines.length + 1);
        const prefix: JournalDraft = {
          ...draft,
          lines: draft.lines.slice(0, count),
          unterminated: false,
          tornTail: null,
        };
        const records = prefix.lines.filter((line) => !("blank" in line)).length;
        const [whole, first] = findingsBefore(
          records,
          reportOf(pair, draft, style),
          reportOf(pair, prefix, style),
        );
        expect(first).toEqual(whole);
      }),
      RUNS,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Unknown kinds

function withUnknownKinds(file: unknown, unknownKinds: "reject" | "ignore"): unknown {
  const model = file as { journal?: Record<string, unknown> };
  return { ...model, journal: { ...model.journal, unknownKinds } };
}

describe("the reference engine of models defined by data, on unknown kinds", () => {
  it("reports an unknown kind it rejects as one it ignores, but for its known-kinds finding", () => {
    fc.assert(
      fc.property(unsplitPairs, (pair) => {
        const { draft, style } = pair.journal;
        const rejected = reportWith(withUnknownKinds(pair.model, "reject"), draft, style);
        const ignored = reportWith(withUnknownKinds(pair.model, "ignore"), draft, style);
        const { "known-kinds": _, ...invariants } = rejected.invariants;
        expect(invariants).toEqual(ignored.invariants);
        expect(rejected.final).toEqual(ignored.final);
        expect(rejected.integrity).toEqual(ignored.integrity);
        const records = draft.lines.filter((line) => !("blank" in line)).length;
        const [rejectedFindings, ignoredFindings] = findingsBefore(records, rejected, ignored);
        expect(rejectedFindings?.filter((finding) => finding.rule !== "known-kinds")).toEqual(
          ignoredFindings,
        );
      }),
      RUNS,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// A JSON document's array

/** Sources of records in a document, and where the document puts its array for each. */
const ARRAY_SOURCES = [
  { source: { array: "events" }, path: ["events"] },
  { source: { array: "" }, path: [] },
  { source: [{ array: "events" }, { array: "history.events" }], path: ["history", "events"] },
] as const;

describe("the reference engine of models defined by data, on an array document", () => {
  it("reports the records of an array document as it reports them as JSONL, but for the lines", () => {
    fc.assert(
      fc.property(unsplitPairs, fc.constantFrom(...ARRAY_SOURCES), (pair, { source, path }) => {
        const { draft, style } = pair.journal;
        const lines: JournalDraft = {
          header: false,
          lines: draft.lines.filter((line) => "record" in line),
          unterminated: false,
          tornTail: null,
          arrayPath: null,
          around: [],
          after: [],
        };
        const document: JournalDraft = {
          ...lines,
          arrayPath: path,
          around: [["meta", new JsonObject([["events", new JsonNumber("0")]])]],
        };
        const model = pair.model as { records: Record<string, unknown> };
        const arrayModel = { ...model, records: { ...model.records, source } };
        const linesModel = { ...model, records: { ...model.records, source: "lines" } };
        expect(meaningSansLines(reportWith(arrayModel, document, style))).toEqual(
          meaningSansLines(reportWith(linesModel, lines, style)),
        );
      }),
      RUNS,
    );
  });
});

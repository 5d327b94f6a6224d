/**
 * Worked examples of the reference interpreter (docs/models/data.md): each clause applying and
 * each reason it cannot, the checks every record gets, the end of a journal, the report.
 */
import { describe, expect, it } from "vitest";
import { checkModel } from "../../../src/models/data/check.js";
import { auditDataBytes, auditDataJournals } from "../../../src/models/data/engine.js";
import type { DataReport } from "../../../src/models/data/report.js";

type ModelFile = Record<string, unknown>;

/** A model over records `{"k": KIND, "id": …, "v": …, "n": …}`, with an entity `job`. */
function modelWith(kinds: ModelFile, extra: ModelFile = {}): ModelFile {
  return {
    statefold: "model",
    version: 1,
    name: "jobs",
    records: {
      source: "lines",
      kind: { path: "k", ...("made" in kinds ? { aliases: { "job.made": "made" } } : {}) },
      fields: {
        id: { path: "id", type: "string" },
        v: { path: "v", type: "int" },
        n: { path: "n", type: "int" },
        ok: { path: "ok", type: "bool" },
      },
    },
    entities: {
      job: {
        states: ["queued", "running", "done", "failed"],
        final: ["done", "failed"],
        slots: ["v"],
      },
    },
    kinds,
    ...extra,
  };
}

function audit(model: ModelFile, records: readonly unknown[]): DataReport {
  const text = records
    .map((record) => (typeof record === "string" ? record : JSON.stringify(record)))
    .join("\n");
  return auditDataBytes(checkModel(model, "model.json"), new TextEncoder().encode(`${text}\n`), {
    file: "j.jsonl",
  });
}

/** Each finding as `index rule reason`, in report order. */
function findings(report: DataReport): string[] {
  return report.legality.first.map(
    (finding) => `${finding.index} ${finding.rule} ${finding.reason}`,
  );
}

const LIFECYCLE = {
  made: [
    { new: "job", key: "$id", to: "queued", rule: "made" },
    { put: "@v", value: "$v" },
  ],
  start: [{ step: "job", key: "$id", from: ["queued"], to: "running", rule: "lifecycle" }],
  finish: [
    { step: "job", key: "$id", from: ["running"], to: { running: "done" }, rule: "lifecycle" },
    { check: ["$v", "==", "@v"], rule: "kept" },
  ],
  peek: [{ need: "job", key: "$id", in: ["running"], rule: "peek" }],
};

describe("clauses", () => {
  it("a lifecycle that holds is conformant, and the final counts every state", () => {
    const report = audit(modelWith(LIFECYCLE), [
      { k: "made", id: "a", v: 5 },
      { k: "job.made", id: "b", v: "7" },
      { k: "start", id: "a" },
      { k: "peek", id: "a" },
      { k: "finish", id: "a", v: 5.0 },
    ]);
    expect(findings(report)).toEqual([]);
    expect(report.conformant).toBe(true);
    expect(report.final.entities).toEqual({ job: { queued: 1, running: 0, done: 1, failed: 0 } });
    expect(report.invariants).toEqual({
      made: { holds: true },
      "made#2": { holds: true },
      lifecycle: { holds: true },
      kept: { holds: true },
      peek: { holds: true },
      "known-kinds": { holds: true },
    });
  });

  it("new: missing-key and duplicate, each naming the entity and the key", () => {
    const report = audit(modelWith(LIFECYCLE), [
      { k: "made" },
      { k: "made", id: "a" },
      { k: "made", id: "a" },
    ]);
    expect(report.legality.first).toEqual([
      { index: 0, line: 1, kind: "made", rule: "made", reason: "missing-key", entity: "job" },
      { index: 0, line: 1, kind: "made", rule: "made#2", reason: "no-instance" },
      {
        index: 2,
        line: 3,
        kind: "made",
        rule: "made",
        reason: "duplicate",
        entity: "job",
        key: "a",
      },
      { index: 2, line: 3, kind: "made", rule: "made#2", reason: "no-instance" },
    ]);
    expect(report.invariants.made).toEqual({
      holds: false,
      index: 0,
      line: 1,
      kind: "made",
      reason: "missing-key",
      entity: "job",
    });
  });

  it("step and need: missing, wrong-state; a failed step leaves no current instance", () => {
    const report = audit(modelWith(LIFECYCLE), [
      { k: "start", id: "x" },
      { k: "made", id: "a", v: 1 },
      { k: "finish", id: "a", v: 1 },
      { k: "peek", id: "a" },
    ]);
    expect(findings(report)).toEqual([
      "0 lifecycle missing",
      "2 lifecycle wrong-state",
      "2 kept check-failed",
      "3 peek wrong-state",
    ]);
  });

  it("put to a register needs no instance; an absent value makes it absent", () => {
    const model = modelWith(
      { mark: [{ put: "%last", value: "$v" }] },
      { journal: { registers: { last: "none" } } },
    );
    expect(audit(model, [{ k: "mark", v: 3 }]).final.registers).toEqual({ last: 3 });
    expect(audit(model, [{ k: "mark", v: 3 }, { k: "mark" }]).final.registers).toEqual({
      last: null,
    });
    expect(audit(model, []).final.registers).toEqual({ last: "none" });
  });

  it("check: == and != on any values, the order comparisons on ints only", () => {
    const check = (left: unknown, op: string, right: unknown) =>
      audit(modelWith({ c: [{ check: [left, op, right] }] }), [{ k: "c", v: 5, id: "5", n: null }])
        .conformant;
    expect(check("$v", "==", 5)).toBe(true);
    expect(check("$v", "==", "$id")).toBe(false); // an int never equals a string
    expect(check("$v", "!=", "$id")).toBe(true);
    expect(check("$n", "==", null)).toBe(true); // null is absent
    expect(check("$ok", "==", null)).toBe(true);
    expect(check("$n", "!=", 0)).toBe(true);
    expect(check("$v", "<", 6)).toBe(true);
    expect(check("$v", ">=", 5)).toBe(true);
    expect(check("$v", ">", 5)).toBe(false);
    expect(check("$id", "<", "6")).toBe(false); // strings are not ordered
    expect(check("$n", "<=", 5)).toBe(false); // absent is not ordered
    expect(check("#", "==", 0)).toBe(true);
    expect(check("=$v", "==", "$v")).toBe(false); // "=…" is a literal string
    expect(check(true, "==", true)).toBe(true);
  });

  it("count: limit below 0 and above max, and the counter keeps its last good value", () => {
    const model = modelWith(
      { up: [{ count: "open", by: 1 }], down: [{ count: "open", by: -1 }] },
      { journal: { counters: { open: { max: 1 } } } },
    );
    const report = audit(model, [{ k: "down" }, { k: "up" }, { k: "up" }, { k: "down" }]);
    expect(findings(report)).toEqual(["0 down#1 limit", "2 up#1 limit"]);
    expect(report.final.counters).toEqual({ open: 0 });
  });

  it("next: the next record must be one of the kinds, found at that record; the end satisfies it", () => {
    const model = modelWith({ a: [{ next: ["b"], rule: "a-then-b" }], b: [] });
    expect(findings(audit(model, [{ k: "a" }, { k: "a" }, { k: "b" }, { k: "a" }]))).toEqual([
      "1 a-then-b unexpected-kind",
    ]);
  });

  it("first, once and last, in both spellings", () => {
    const model = modelWith({
      start: ["first", { once: true }],
      stop: [{ last: true }],
      other: [],
    });
    expect(
      findings(
        audit(model, [
          { k: "start" },
          { k: "other" },
          { k: "start" },
          { k: "stop" },
          { k: "other" },
          { k: "other" },
        ]),
      ),
    ).toEqual(["2 start#1 not-first", "2 start#2 repeated", "4 stop#1 after-last"]);
  });

  it("else ignore: no finding and nothing changes, and it silences next and last", () => {
    const model = modelWith({
      made: [
        { new: "job", key: "$id", to: "queued", else: "ignore" },
        { put: "@v", value: 1, else: "ignore" },
      ],
      a: [
        { next: ["made"], else: "ignore" },
        { last: true, else: "ignore" },
      ],
    });
    const report = audit(model, [{ k: "made" }, { k: "a" }, { k: "a" }]);
    expect(report.conformant).toBe(true);
    expect(report.final.entities.job).toEqual({ queued: 0, running: 0, done: 0, failed: 0 });
  });

  it("a key is an int or a string, and the two never equal", () => {
    const model = modelWith({
      made: [{ new: "job", key: "$v", to: "queued" }],
      str: [{ new: "job", key: "$id", to: "queued" }],
    });
    const report = audit(model, [
      { k: "made", v: 5 },
      { k: "str", id: "5" },
      { k: "made", v: "5" },
    ]);
    expect(report.legality.first).toEqual([
      {
        index: 2,
        line: 3,
        kind: "made",
        rule: "made#1",
        reason: "duplicate",
        entity: "job",
        key: 5,
      },
    ]);
  });

  it("reuse: reaching a final state forgets the instance, which stays current for its record", () => {
    const entities = {
      job: {
        states: ["open", "closed"],
        final: ["closed"],
        slots: ["v"],
        reuse: true,
        atEnd: ["closed"],
      },
    };
    const model = modelWith(
      {
        made: [{ new: "job", key: "$id", to: "open" }],
        close: [
          { step: "job", key: "$id", from: ["open"], to: "closed" },
          { put: "@v", value: 1 },
          { check: ["@v", "==", 1] },
          { need: "job", key: "$id", in: ["closed"], rule: "gone" },
        ],
        instant: [{ new: "job", key: "$id", to: "closed" }],
      },
      { entities },
    );
    const report = audit(model, [
      { k: "made", id: "a" },
      { k: "close", id: "a" },
      { k: "made", id: "a" },
      { k: "instant", id: "b" },
      { k: "instant", id: "b" },
    ]);
    expect(findings(report)).toEqual(["1 gone missing", "4 job.atEnd open-at-end"]);
    expect(report.final.entities.job).toEqual({ open: 1, closed: 0 });
  });
});

describe("what every record is checked for, in order", () => {
  it("sequence: a gap is one finding, a swap several; the expectation follows the record", () => {
    const model = modelWith(
      { e: [] },
      { journal: { sequence: { field: "n", start: 10, step: 2 } } },
    );
    expect(
      findings(
        audit(model, [
          { k: "e", n: 10 },
          { k: "e", n: 16 },
          { k: "e", n: 18 },
        ]),
      ),
    ).toEqual(["1 sequence out-of-sequence"]);
    expect(
      findings(
        audit(model, [
          { k: "e", n: 10 },
          { k: "e", n: 14 },
          { k: "e", n: 12 },
          { k: "e", n: 16 },
        ]),
      ),
    ).toEqual([
      "1 sequence out-of-sequence",
      "2 sequence out-of-sequence",
      "3 sequence out-of-sequence",
    ]);
    expect(findings(audit(model, [{ k: "e", n: 10 }, { k: "e" }, { k: "e", n: 14 }]))).toEqual([
      "1 sequence out-of-sequence",
    ]);
  });

  it("monotone: strict or not, the breaching value becomes the last", () => {
    const journal = (strict: boolean) => ({ journal: { monotone: [{ field: "n", strict }] } });
    const records = [
      { k: "e", n: 5 },
      { k: "e", n: 5 },
      { k: "e" },
      { k: "e", n: 3 },
      { k: "e", n: 4 },
    ];
    expect(findings(audit(modelWith({ e: [] }, journal(true)), records))).toEqual([
      "1 monotone not-increasing",
      "3 monotone not-increasing",
    ]);
    expect(findings(audit(modelWith({ e: [] }, journal(false)), records))).toEqual([
      "3 monotone not-increasing",
    ]);
  });

  it("sequence, monotone, obligations, unknown kind, then the clauses", () => {
    const model = modelWith(
      {
        a: [
          { next: ["a"], rule: "chain" },
          { last: true, rule: "end" },
          { check: [1, "==", 2], rule: "never" },
        ],
      },
      { journal: { sequence: { field: "n" }, monotone: [{ field: "v" }] } },
    );
    const report = audit(model, [
      { k: "a", n: 1, v: 2 },
      { k: "zz", n: 5, v: 1 },
    ]);
    expect(findings(report)).toEqual([
      "0 never check-failed",
      "1 sequence out-of-sequence",
      "1 monotone not-increasing",
      "1 chain unexpected-kind",
      "1 end after-last",
      "1 known-kinds unknown-kind",
    ]);
    expect(report.legality.first[5]?.kind).toBe("zz");
    expect(Object.keys(report.invariants)).toEqual([
      "chain",
      "end",
      "never",
      "known-kinds",
      "sequence",
      "monotone",
    ]);
  });

  it("unknownKinds ignore: the record runs no clauses but counts for everything else", () => {
    const model = modelWith(
      { a: ["once"] },
      { journal: { unknownKinds: "ignore", sequence: { field: "n" } } },
    );
    const report = audit(model, [
      { k: "zz", n: 1 },
      { k: "a", n: 3 },
    ]);
    expect(findings(report)).toEqual(["1 sequence out-of-sequence"]);
    expect(Object.keys(report.invariants)).toEqual(["a#1", "sequence"]);
  });
});

describe("the end of a journal", () => {
  it("every kept instance outside atEnd is a finding at the last record, in the order created", () => {
    const entities = {
      job: { states: ["queued", "done"], final: ["done"], atEnd: ["done"] },
      lock: { states: ["held"], atEnd: [] },
    };
    const model = modelWith(
      {
        made: [{ new: "job", key: "$id", to: "queued" }],
        lock: [{ new: "lock", key: "$v", to: "held" }],
        tick: [],
      },
      { entities },
    );
    const report = audit(model, [
      { k: "made", id: "b" },
      `{"k":"lock","v":9007199254740993}`,
      { k: "lock", v: "9007199254740993" },
      { k: "made", id: "a" },
      { k: "tick" },
    ]);
    expect(report.integrity).toMatchObject({ index: 1, reason: "malformed-event" });
    const good = audit(model, [
      { k: "made", id: "b" },
      { k: "lock", v: "9007199254740993" },
      { k: "made", id: "a" },
      { k: "tick" },
    ]);
    expect(good.legality.first).toEqual([
      {
        index: 3,
        line: 4,
        kind: "tick",
        rule: "job.atEnd",
        reason: "open-at-end",
        entity: "job",
        key: "b",
      },
      {
        index: 3,
        line: 4,
        kind: "tick",
        rule: "lock.atEnd",
        reason: "open-at-end",
        entity: "lock",
        key: "9007199254740993",
      },
      {
        index: 3,
        line: 4,
        kind: "tick",
        rule: "job.atEnd",
        reason: "open-at-end",
        entity: "job",
        key: "a",
      },
    ]);
  });

  it("an integrity error stops the fold: no end-of-journal findings, events count every line", () => {
    const entities = { job: { states: ["queued"], atEnd: [] } };
    const model = modelWith({ made: [{ new: "job", key: "$id", to: "queued" }] }, { entities });
    const report = audit(model, [{ k: "made", id: "a" }, "{not json", { k: "made", id: "b" }]);
    expect(report.integrity).toEqual({
      index: 1,
      line: 2,
      reason: "malformed-event",
      message: "the line is not valid JSON",
    });
    expect(report.events).toBe(3);
    expect(report.legality.illegal).toBe(0);
    expect(report.final.entities.job).toEqual({ queued: 1 });
  });
});

describe("reading records", () => {
  const typed = (record: unknown, type = "int") =>
    audit(
      modelWith(
        { e: [{ put: "%r", value: "$v" }] },
        {
          records: { source: "lines", kind: { path: "k" }, fields: { v: { path: "v", type } } },
          journal: { registers: { r: 0 } },
        },
      ),
      [record],
    );

  it("ints: safe-integer numbers in any spelling, int64 strings, nothing else", () => {
    expect(typed({ k: "e", v: "5e0" }).integrity).not.toBeNull();
    expect(typed(`{"k":"e","v":5e0}`).final.registers.r).toBe(5);
    expect(typed(`{"k":"e","v":50e-1}`).final.registers.r).toBe(5);
    expect(typed(`{"k":"e","v":-0.0}`).final.registers.r).toBe(0);
    expect(typed(`{"k":"e","v":4.0000000000000001}`).integrity?.message).toMatch(
      /field "v" \(v\) is not an int/,
    );
    expect(typed(`{"k":"e","v":9007199254740992}`).integrity).not.toBeNull();
    expect(typed({ k: "e", v: "-9223372036854775808" }).final.registers.r).toBe(
      "-9223372036854775808",
    );
    expect(typed({ k: "e", v: "9223372036854775808" }).integrity).not.toBeNull();
    expect(typed({ k: "e", v: " 5" }).integrity).not.toBeNull();
    expect(typed({ k: "e", v: null }).final.registers.r).toBeNull();
    expect(typed({ k: "e", v: true }, "bool").final.registers.r).toBe(true);
    expect(typed({ k: "e", v: "\u00e9\ud83d\ude00" }, "string").final.registers.r).toBe("é😀");
  });

  it("a field of another type is malformed only where a clause of the record's kind reads it", () => {
    const model = modelWith(
      { a: [{ put: "%r", value: "$v" }], b: [] },
      { journal: { registers: { r: 0 } } },
    );
    expect(audit(model, [{ k: "b", v: {} }]).conformant).toBe(true);
    expect(audit(model, [{ k: "a", v: {} }]).integrity?.message).toBe(
      'field "v" (v) is not an int (a safe integer, or a string of digits within 64 bits)',
    );
  });

  it("not an object, or no string kind: malformed", () => {
    const model = modelWith({ a: [] });
    expect(audit(model, ["[1]"]).integrity?.message).toBe("the record is not a JSON object");
    expect(audit(model, [{ k: 5 }]).integrity?.message).toBe(
      "the record has no string at its kind's path, k",
    );
  });

  it("*SUFFIX takes the first member in document order, integer-like keys included; duplicates keep their first place and last value", () => {
    const fields = { v: { path: "*Attributes.id", type: "int" } };
    const model = modelWith(
      { e: [{ put: "%r", value: "$v" }] },
      {
        records: { source: "lines", kind: { path: "k" }, fields },
        journal: { registers: { r: 0 } },
      },
    );
    const r = (text: string) => audit(model, [text]).final.registers.r;
    expect(r(`{"k":"e","xAttributes":{"id":1},"1Attributes":{"id":2}}`)).toBe(1);
    expect(r(`{"k":"e","5":{},"wAttributes":{"id":3}}`)).toBe(3);
    expect(
      r(`{"k":"e","aAttributes":{"id":1},"bAttributes":{"id":2},"aAttributes":{"id":3}}`),
    ).toBe(3);
    expect(r(`{"k":"e","Attributes":{"id":4}}`)).toBe(4);
  });

  it("*SUFFIX under a repeated key looks only in the key's last value", () => {
    const fields = { v: { path: "p.*Attributes.id", type: "int" } };
    const model = modelWith(
      { e: [{ put: "%r", value: "$v" }] },
      {
        records: { source: "lines", kind: { path: "k" }, fields },
        journal: { registers: { r: 0 } },
      },
    );
    const r = (text: string) => audit(model, [text]).final.registers.r;
    expect(r(`{"k":"e","p":{"xAttributes":{"id":1}},"p":{"yAttributes":{"id":2}}}`)).toBe(2);
    expect(r(`{"k":"e","p":{"xAttributes":{"id":1}},"p":{"y":{"id":2}}}`)).toBeNull();
  });

  it("array-form paths reach members whose names hold dots", () => {
    const fields = { v: { path: ["a.b", { "*": "c" }], type: "int" } };
    const model = modelWith(
      { e: [{ put: "%r", value: "$v" }] },
      {
        records: { source: "lines", kind: { path: "k" }, fields },
        journal: { registers: { r: 0 } },
      },
    );
    expect(audit(model, [{ k: "e", "a.b": { xc: 7 } }]).final.registers.r).toBe(7);
  });
});

describe("journals", () => {
  const model = modelWith(
    { made: [{ new: "job", key: "$id", to: "queued" }] },
    { entities: { job: { states: ["queued"], atEnd: [] } } },
  );

  it("a header may name the model by the file's name, and nothing else", () => {
    const compiled = checkModel(model, "m.json");
    const bytes = (header: string) =>
      new TextEncoder().encode(`${header}\n{"k":"made","id":"a"}\n`);
    expect(
      auditDataBytes(compiled, bytes(`{"statefold":"journal","version":1,"model":"jobs"}`)).events,
    ).toBe(1);
    expect(auditDataBytes(compiled, bytes(`{"statefold":"journal","version":1}`)).events).toBe(1);
    expect(() =>
      auditDataBytes(compiled, bytes(`{"statefold":"journal","version":1,"model":"dag"}`), {
        file: "j.jsonl",
      }),
    ).toThrow(
      /^j\.jsonl:1:\d+: header: the journal names the model "dag", but it is being audited with the model file's "jobs"/,
    );
    expect(() => auditDataBytes(compiled, bytes(`{"statefold":"journal","version":2}`))).toThrow(
      /expected "version": 1/,
    );
  });

  it("a torn tail is reported and is no record", () => {
    const compiled = checkModel(model, "m.json");
    const report = auditDataBytes(
      compiled,
      new TextEncoder().encode(`{"k":"made","id":"a"}\n{"k":"ma`),
    );
    expect(report.tornTail).toEqual({ line: 2, offset: 22 });
    expect(report.events).toBe(1);
  });

  it("a stream split by journal.key: a report per journal in order of first appearance", () => {
    const split = modelWith(
      { made: [{ new: "job", key: "$id", to: "queued" }, "first"] },
      { journal: { key: "n", sequence: { field: "v" } } },
    );
    const compiled = checkModel(split, "m.json");
    const lines = [
      { k: "made", n: 2, id: "a", v: 1 },
      { k: "made", n: 1, id: "a", v: 1 },
      { k: "made", n: 2, id: "a", v: 2 },
    ];
    const reports = auditDataJournals(
      compiled,
      new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join("\n")),
    );
    expect(reports.map((report) => [report.journal, report.events, findings(report)])).toEqual([
      [2, 2, ["1 made#1 duplicate", "1 made#2 not-first"]],
      [1, 1, []],
    ]);
    expect(reports[0]?.legality.first[0]?.line).toBe(3);
  });

  it("a split stream stops whole at an integrity error; one with no journal is one report", () => {
    const split = modelWith({ made: [] }, { journal: { key: "n" } });
    const compiled = checkModel(split, "m.json");
    const reports = auditDataJournals(
      compiled,
      new TextEncoder().encode(`{"k":"made","n":1}\n{"k":"made"}\n{"k":"made","n":2}\n`),
    );
    expect(reports.map((report) => [report.journal, report.events, report.integrity])).toEqual([
      [
        1,
        1,
        {
          index: 1,
          line: 2,
          reason: "malformed-event",
          message: 'the record has no journal key: field "n" is absent',
        },
      ],
    ]);
    const empty = auditDataJournals(compiled, new Uint8Array());
    expect(empty.map((report) => [report.journal, report.events, report.conformant])).toEqual([
      [null, 0, true],
    ]);
  });
});

describe("documents whose records are an array", () => {
  const arrays = modelWith(
    { made: [{ new: "job", key: "$id", to: "queued" }] },
    {
      records: {
        source: [{ array: "events" }, { array: "history.events" }, { array: "" }],
        kind: { path: "k" },
        fields: { id: { path: "id", type: "string" } },
      },
    },
  );
  const compiled = checkModel(arrays, "m.json");
  const audit = (text: string) =>
    auditDataBytes(compiled, new TextEncoder().encode(text), { file: "h.json" });

  it("reads the elements of the first array a path leads to, each at the line it starts on", () => {
    const report = audit(
      `{"meta": {"events": 1},\n "history": {"events": [\n  {"k": "made", "id": "a"},\n  {"k": "made",\n   "id": "a"}]}}`,
    );
    expect(report.events).toBe(2);
    expect(report.legality.first).toEqual([
      {
        index: 1,
        line: 4,
        kind: "made",
        rule: "made#1",
        reason: "duplicate",
        entity: "job",
        key: "a",
      },
    ]);
    expect(audit(`[{"k":"made","id":"a"}]`).events).toBe(1);
  });

  it("refuses a document that is not JSON, naming the byte, or that has no array there", () => {
    expect(() => audit(`{"events": [{"k": "made"},]}`)).toThrow(/^h\.json:1:27: .*at byte 26/);
    expect(() => audit(`{"events": 5}`)).toThrow(
      /expected an array of records at one of: events, history\.events, the document itself; found none/,
    );
  });
});

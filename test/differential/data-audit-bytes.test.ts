/**
 * The data kernel (both builds) against the reference interpreter (src/models/data/engine.ts):
 * for models defined by data compiled by hand (test/bindings/data/models.ts) and journals of
 * their records — kinds by name, alias and unknown spelling; fields of every type written every
 * way JSON allows, absent, null or of another type; keys from small pools so instances collide;
 * duplicate keys, escapes, blank lines, lines that are not JSON or not objects, a header, a torn
 * tail — fed whole and in random chunkings down to single bytes, `auditBytes` deep-equals the
 * reference's `auditDataBytes` (or both refuse the journal with the same error).
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadDataEngine, type WasmDataEngine } from "../../bindings/data/engine.js";
import type { CompiledModel, Path } from "../../src/models/data/compiled.js";
import { auditDataBytes } from "../../src/models/data/engine.js";
import { DATA_REASONS, type DataReason, type DataReport } from "../../src/models/data/report.js";
import {
  intentRecord,
  jsonl,
  orderModel,
  paymentIntents,
  tasksModel,
} from "../bindings/data/models.js";
import { concatBytes, encode } from "../support/bytes.js";
import { FLAVOURS } from "../support/engines.js";
import { chunked, chunkingArbitrary } from "../support/jsonl-encoding.js";
import { asyncOutcomeOf, outcomeOf } from "../support/outcome.js";

const MODELS: readonly CompiledModel[] = [paymentIntents(), orderModel(), tasksModel()];

let engines: ReadonlyMap<CompiledModel, readonly WasmDataEngine[]>;
beforeAll(async () => {
  engines = new Map(
    await Promise.all(
      MODELS.map(
        async (model) =>
          [
            model,
            await Promise.all(FLAVOURS.map((flavour) => loadDataEngine(model, { flavour }))),
          ] as const,
      ),
    ),
  );
});

const ONE_BYTE_CHUNKS = { sizes: [1], feed: "reused-buffer" } as const;

/** Every build, the bytes whole, chunked and byte by byte, against the reference. */
async function expectSameReports(
  model: CompiledModel,
  bytes: Uint8Array,
  chunking: Parameters<typeof chunked>[1] = ONE_BYTE_CHUNKS,
): Promise<DataReport | null> {
  const expected = outcomeOf(() => auditDataBytes(model, bytes));
  for (const engine of engines.get(model) ?? []) {
    expect(await asyncOutcomeOf(() => engine.auditBytes(bytes))).toEqual(expected);
    expect(await asyncOutcomeOf(() => engine.auditBytes(chunked(bytes, chunking)))).toEqual(
      expected,
    );
    expect(await asyncOutcomeOf(() => engine.auditBytes(chunked(bytes, ONE_BYTE_CHUNKS)))).toEqual(
      expected,
    );
  }
  return "returned" in expected ? expected.returned : null;
}

describe("data kernel ≡ reference: hand-written journals", () => {
  const payments = paymentIntents();
  const cases: readonly (readonly [string, string])[] = [
    ["a header naming the model", '{"statefold":"journal","version":1,"model":"payment-intents"}'],
    ["a header naming another", '{"statefold":"journal","version":1,"model":"other"}'],
    ["a header of another version", '{"statefold":"journal","version":2}'],
    ["a header that is not a journal's", '{"statefold":"model"}'],
    ["an escaped kind", '{"type":"pi.cr\\u0065ated","seq":1,"data":{"object":{"id":"a"}}}'],
    ["a kind that is no string", '{"type":["pi.created"],"seq":1}'],
    ["a record that is an array", "[]"],
    ["a line that is no JSON", '{"type":'],
    ["invalid UTF-8", '{"type":"\xff"}'],
    ["a BOM", '\ufeff{"type":"pi.created"}'],
    ["a deep record", `{"type":"x","seq":1,"data":${"[".repeat(500)}${"]".repeat(500)}}`],
    ["a path through an array", '{"type":"pi.created","seq":1,"data":[{"object":{"id":"a"}}]}'],
    ["a string key that is empty", '{"type":"pi.created","seq":1,"data":{"object":{"id":""}}}'],
    ["an int key", '{"type":"pi.created","seq":1,"data":{"object":{"id":5}}}'],
    ["a null sequence", '{"type":"pi.created","seq":null,"data":{"object":{"id":"a"}}}'],
    ["a sequence as a string", '{"type":"pi.created","seq":"01","data":{"object":{"id":"a"}}}'],
    ["a sequence of -0", '{"type":"pi.created","seq":-0.0e5,"data":{"object":{"id":"a"}}}'],
  ];
  for (const [name, line] of cases) {
    it(name, async () => {
      await expectSameReports(
        payments,
        concatBytes(
          encode(`${line}\n`),
          jsonl(
            intentRecord("payment_intent.created", 2, "a", 5),
            intentRecord("payment_intent.processing", 3, "a"),
          ),
          encode('{"torn":'),
        ),
      );
    });
  }

  it("the worked examples of each model", async () => {
    await expectSameReports(
      payments,
      jsonl(
        intentRecord("payment_intent.created", 1, "pi_1", 500),
        intentRecord("payment_intent.created", 2, "pi_1", 500),
        intentRecord("payment_intent.succeeded", 3, "pi_1", 500),
        intentRecord("payment_intent.processing", 5, "pi_2"),
        intentRecord("pi.created", 6, "pi_3", 1),
        { type: "refund", seq: 7 },
      ),
    );
    await expectSameReports(
      orderModel(),
      jsonl(...["open", "other", "open", "close", "step", "open"].map((kind) => ({ kind }))),
    );
  });
});

// Generated journals

/** A JSON value as written: its text, so numbers, escapes and duplicate keys are kept. */
type Written = { readonly text: string };

const written = (text: string): Written => ({ text });

/** A string written plainly or with every character escaped. */
function stringText(text: string, escaped: boolean): string {
  if (!escaped) return JSON.stringify(text);
  return `"${[...text].map((char) => `\\u${(char.codePointAt(0) as number).toString(16).padStart(4, "0")}`).join("")}"`;
}

const KEY_STRINGS = ["a", "b", "é", "a\u0000", "𝄞"];

/** A value of a field: of the field's type, or absent; unless `clean`, now and then anything. */
function valueArbitrary(
  type: "int" | "string" | "bool",
  clean: boolean,
): fc.Arbitrary<Written | null> {
  const ints = fc.oneof(
    fc.constantFrom("1", "2", "3", "0", "-1", "5.0", "5e0", "2E0", "-0", "1.5", "1e-400"),
    fc.constantFrom("9007199254740991", "9007199254740993", "4.0000000000000001", "30e-1"),
    fc.constantFrom('"1"', '"2"', '"-3"', '"9223372036854775807"', '"-9223372036854775808"'),
    fc.constantFrom('"9223372036854775808"', '"1.0"', '""', '"-"', '"\\u0031"'),
    fc.integer({ min: 0, max: 6 }).map(String),
  );
  const strings = fc
    .tuple(fc.constantFrom(...KEY_STRINGS), fc.boolean())
    .map(([text, escaped]) => stringText(text, escaped));
  const bools = fc.constantFrom("true", "false");
  const any = fc.constantFrom("null", "{}", '{"x":1}', "[]", "[1]", "true", '"x"', "7");
  const typed = type === "int" ? ints : type === "string" ? strings : bools;
  if (clean) {
    const safeInts = fc.constantFrom("1", "2", "3", "0", "5.0", "2E0", '"1"', '"2"', '"3"');
    return fc.oneof(
      { weight: 12, arbitrary: (type === "int" ? safeInts : typed).map(written) },
      { weight: 1, arbitrary: fc.constant(null) },
    );
  }
  return fc.oneof(
    { weight: 12, arbitrary: typed.map(written) },
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: any.map(written) },
    { weight: 1, arbitrary: ints.map(written) },
    { weight: 1, arbitrary: strings.map(written) },
  );
}

/** A JSON object under construction: members in order, a key maybe repeated. */
class Tree {
  readonly members: [string, Tree | Written][] = [];

  at(name: string): Tree {
    const found = this.members.find(([key, value]) => key === name && value instanceof Tree);
    if (found !== undefined) return found[1] as Tree;
    const tree = new Tree();
    this.members.push([name, tree]);
    return tree;
  }

  text(escapeKeys: boolean): string {
    const members = this.members.map(
      ([key, value]) =>
        `${stringText(key, escapeKeys)}:${value instanceof Tree ? value.text(escapeKeys) : value.text}`,
    );
    return `{${members.join(",")}}`;
  }
}

/** The member names a path is written with: a suffix step as the suffix after a prefix, or alone. */
function pathNames(path: Path, prefixes: readonly string[]): string[] {
  return path.map((step, i) =>
    "member" in step ? step.member : `${prefixes[i] ?? ""}${step.suffix}`,
  );
}

interface RecordPlan {
  readonly kind: Written | null;
  readonly fields: readonly (Written | null)[];
  readonly prefixes: readonly string[];
  readonly duplicate: number | null;
  readonly escapeKeys: boolean;
}

function recordArbitrary(model: CompiledModel, clean: boolean): fc.Arbitrary<RecordPlan> {
  const spellings = [...model.kindOf.keys()];
  const kind = fc.oneof(
    {
      weight: 12,
      arbitrary: fc.constantFrom(...spellings).map((text) => written(JSON.stringify(text))),
    },
    { weight: 1, arbitrary: fc.constantFrom('"unknown"', "1", "null").map(written) },
    { weight: 1, arbitrary: fc.constant(null) },
  );
  return fc.record({
    kind,
    fields: fc.tuple(...model.fields.map((field) => valueArbitrary(field.type, clean))),
    prefixes: fc.array(fc.constantFrom("", "x", "scheduled"), { minLength: 3, maxLength: 3 }),
    duplicate: fc.option(fc.nat({ max: model.fields.length }), { freq: 4 }),
    escapeKeys: fc.boolean(),
  });
}

function recordText(model: CompiledModel, plan: RecordPlan): string {
  const root = new Tree();
  const place = (path: Path, value: Written) => {
    const names = pathNames(path, plan.prefixes);
    let tree = root;
    for (const name of names.slice(0, -1)) tree = tree.at(name);
    tree.members.push([names.at(-1) as string, value]);
  };
  if (plan.kind !== null) place(model.kindPath, plan.kind);
  model.fields.forEach((field, i) => {
    const value = plan.fields[i];
    if (value === null || value === undefined) return;
    if (plan.duplicate === i) place(field.path, written('"overwritten"'));
    place(field.path, value);
  });
  return root.text(plan.escapeKeys);
}

/** A record, or now and then a line that is blank or no record; a `clean` journal's only records. */
function lineArbitrary(model: CompiledModel, clean: boolean): fc.Arbitrary<string> {
  const record = recordArbitrary(model, clean).map((plan) => recordText(model, plan));
  if (clean) return record;
  return fc.oneof(
    { weight: 20, arbitrary: record },
    { weight: 1, arbitrary: fc.constantFrom("", "  \t", "[1]", '"x"', "{", '{"a":1}') },
  );
}

const journalArbitrary = (model: CompiledModel) =>
  fc
    .record({
      header: fc.option(
        fc.constantFrom(
          `{"statefold":"journal","version":1,"model":${JSON.stringify(model.name)}}`,
          '{"statefold":"journal","version":1}',
        ),
        { freq: 4 },
      ),
      lines: fc
        .boolean()
        .chain((clean) => fc.array(lineArbitrary(model, clean), { maxLength: 30 })),
      tail: fc.constantFrom("", "", '{"torn', "[1]", "  "),
      crlf: fc.boolean(),
    })
    .map(({ header, lines, tail, crlf }) => {
      const end = crlf ? "\r\n" : "\n";
      const all = header === null ? lines : [header, ...lines];
      return encode(`${all.map((line) => `${line}${end}`).join("")}${tail}`);
    });

/** The reasons each model's generated journals must reach (together, every reason there is). */
const REACHED: ReadonlyMap<CompiledModel, readonly DataReason[]> = new Map([
  [
    MODELS[0] as CompiledModel,
    [
      "missing-key",
      "duplicate",
      "missing",
      "wrong-state",
      "no-instance",
      "check-failed",
      "limit",
      "unknown-kind",
      "out-of-sequence",
      "open-at-end",
    ],
  ],
  [MODELS[1] as CompiledModel, ["unexpected-kind", "not-first", "repeated", "after-last"]],
  [MODELS[2] as CompiledModel, ["not-increasing", "limit", "open-at-end", "duplicate"]],
]);

describe("data kernel ≡ reference: generated journals", () => {
  it("the models' reasons are every reason", () => {
    expect(new Set([...REACHED.values()].flat())).toEqual(new Set(DATA_REASONS));
  });

  for (const model of MODELS) {
    it(`journals of ${model.name}`, async () => {
      const reasons = new Set<string>();
      let integrity = 0;
      await fc.assert(
        fc.asyncProperty(journalArbitrary(model), chunkingArbitrary, async (bytes, chunking) => {
          const report = await expectSameReports(model, bytes, chunking);
          if (report === null) return;
          if (report.integrity !== null) integrity += 1;
          for (const finding of report.legality.first) reasons.add(finding.reason);
        }),
        { numRuns: 150 },
      );
      expect(integrity).toBeGreaterThan(0);
      for (const reason of REACHED.get(model) ?? []) expect(reasons, reason).toContain(reason);
    });
  }
});

/**
 * Journals of a model defined by data (one compiled by hand, ./models.ts) for the data kernel's
 * differential tests: records whose kinds are the model's names, aliases or unknown spellings,
 * whose fields are written every way JSON allows — or absent, null, of another type — on keys
 * from small pools so instances collide; duplicate keys, escaped keys and strings; blank lines,
 * lines that are not JSON or not objects, a header, CRLF, a torn tail. Half the journals are
 * clean (every value typed, every line a record), so their folds run to the end.
 */
import fc from "fast-check";
import type { CompiledModel, Path } from "../../../src/models/data/compiled.js";
import { encode } from "../../support/bytes.js";

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

/** A record of `model` as written (an element of a document's records array, a line). */
export const recordTextArbitrary = (model: CompiledModel, clean: boolean): fc.Arbitrary<string> =>
  recordArbitrary(model, clean).map((plan) => recordText(model, plan));

/** A record, or now and then a line that is blank or no record; a `clean` journal's only records. */
function lineArbitrary(model: CompiledModel, clean: boolean): fc.Arbitrary<string> {
  const record = recordArbitrary(model, clean).map((plan) => recordText(model, plan));
  if (clean) return record;
  return fc.oneof(
    { weight: 20, arbitrary: record },
    { weight: 1, arbitrary: fc.constantFrom("", "  \t", "[1]", '"x"', "{", '{"a":1}') },
  );
}

/** A journal of `model`'s records, written as bytes. */
export const dataJournalArbitrary = (model: CompiledModel): fc.Arbitrary<Uint8Array> =>
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

/**
 * A JSON document of `model`'s records (a model whose `records.source` is `{"array": "events"}`,
 * `{"array": "history.events"}` or the document itself): the records array where one of those
 * paths leads — or nowhere — among other members, written compact or pretty-printed over many
 * lines, now and then broken or cut short.
 */
export const dataDocumentArbitrary = (model: CompiledModel): fc.Arbitrary<Uint8Array> =>
  fc
    .record({
      records: fc.boolean().chain((clean) =>
        fc.array(
          recordArbitrary(model, clean).map((plan) => recordText(model, plan)),
          {
            maxLength: 20,
          },
        ),
      ),
      extra: fc.array(fc.constant('1, "x", {"y": [2]}'), { maxLength: 2 }),
      shape: fc.constantFrom("events", "history", "bare", "both", "none", "not an array"),
      pretty: fc.boolean(),
      broken: fc.option(fc.constantFrom("cut", "bad byte", "trailing"), { freq: 6 }),
    })
    .map(({ records, extra, shape, pretty, broken }) => {
      const separator = pretty ? ",\n    " : ",";
      const array = `[${pretty ? "\n    " : ""}${[...records, ...extra].join(separator)}${pretty ? "\n  " : ""}]`;
      const documents: Record<string, string> = {
        events: `{"before": {"events": 1}, "events": ${array}, "after": [1]}`,
        history: `{"history": {"id": "h", "events": ${array}}}`,
        bare: array,
        both: `{"history": {"events": [{"kind": "x"}]}, "events": ${array}}`,
        none: `{"events": {"not": ${array}}}`,
        "not an array": `{"events": 5}`,
      };
      let text = documents[shape] as string;
      if (pretty) text = text.replaceAll(", ", ",\n  ");
      if (broken === "cut") text = text.slice(0, Math.floor(text.length / 2));
      else if (broken === "bad byte") text = `${text.slice(0, 3)}\u0001${text.slice(3)}`;
      else if (broken === "trailing") text = `${text} x`;
      return encode(text);
    });

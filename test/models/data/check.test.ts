import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkModel, ModelFileError } from "../../../src/models/data/check.js";
import { parseModelFile } from "../../../src/models/data/load.js";

// biome-ignore lint/suspicious/noExplicitAny: an edit reaches anywhere into the parsed file
type Editable = any;

const PAYMENTS = "test/models/data/payment-intents.model.json";
const paymentsFile = () => JSON.parse(readFileSync(PAYMENTS, "utf8"));

/** The payments model with one change made by `edit`, checked; the refusal's pointer and problem. */
function refusal(edit: (model: Editable) => void): { pointer: string; problem: string } {
  const model = paymentsFile();
  edit(model);
  try {
    checkModel(model, "edited.json");
  } catch (error) {
    expect(error).toBeInstanceOf(ModelFileError);
    const { pointer, problem } = error as ModelFileError;
    return { pointer, problem };
  }
  throw new Error("the edited model was accepted");
}

describe("checking a model file", () => {
  it("compiles the payments example: rules in the order the report lists them", () => {
    const model = parseModelFile(readFileSync(PAYMENTS), PAYMENTS);
    expect(model.name).toBe("payment-intents");
    expect(model.rules.map((rule) => rule.name)).toEqual([
      "created-once",
      "payment_intent.created#2",
      "payment_intent.created#3",
      "lifecycle",
      "amount-kept",
      "payment_intent.succeeded#3",
      "known-kinds",
      "sequence",
      "intent.atEnd",
    ]);
    expect(model.rules.find((rule) => rule.name === "lifecycle")?.description).toBe(
      "an intent moves only as the lifecycle allows",
    );
    expect(model.kindOf.get("pi.created")).toBe(0);
    expect(model.kinds[2]?.reads).toEqual([0, 1]);
    expect(model.journal.reads).toEqual([2]);
    expect(model.kinds[2]?.clauses[1]).toMatchObject({
      op: "check",
      left: { from: "field", field: 1 },
      comparison: "==",
      right: { from: "slot", slot: 0 },
    });
    expect(model.entities[0]).toMatchObject({
      final: [false, false, true, true],
      atEnd: [false, false, true, true],
    });
  });

  it("keeps the order a JSON file writes its kinds, whatever their names", () => {
    const text = `{"statefold":"model","version":1,"name":"n","records":{"source":"lines","kind":{"path":"k"}},
      "kinds":{"zeta":[],"200":[],"alpha":[]}}`;
    const model = parseModelFile(new TextEncoder().encode(text), "order.json");
    expect(model.kinds.map((kind) => kind.name)).toEqual(["zeta", "200", "alpha"]);
  });

  it("reads YAML as the same data, anchors included", () => {
    const yaml = `statefold: model
version: 1
name: n
records: { source: lines, kind: { path: type } }
entities: { job: { states: [queued, done], final: [done] } }
kinds:
  queued: &made [ { new: job, key: "=j", to: queued } ]
  again: *made
`;
    const model = parseModelFile(new TextEncoder().encode(yaml), "jobs.yaml");
    expect(model.kinds.map((kind) => kind.clauses[0]?.op)).toEqual(["new", "new"]);
    expect(model.kinds[0]?.clauses[0]).toMatchObject({ key: { from: "literal", value: "j" } });
  });

  it("names the line and column of a refusal in JSON and in YAML", () => {
    const json = `{"statefold":"model","version":1,"name":"n",\n"records":{"source":"lines","kind":{"path":"k"}},\n"kinds":{"a":[{"first":true,"colour":1}]}}`;
    expect(() => parseModelFile(new TextEncoder().encode(json), "m.json")).toThrow(
      /^m\.json:3:38: model file \/kinds\/a\/0\/colour: unknown member "colour"/,
    );
    const yaml =
      "statefold: model\nversion: 2\nname: n\nrecords: { source: lines, kind: { path: k } }\nkinds: {}\n";
    expect(() => parseModelFile(new TextEncoder().encode(yaml), "m.yml")).toThrow(
      /^m\.yml:2:10: model file \/version: this statefold reads version 1, found 2/,
    );
    expect(() => parseModelFile(new TextEncoder().encode('{\n"a": }'), "m.json")).toThrow(
      /^m\.json:2:6: expected a value/,
    );
    expect(() => parseModelFile(new TextEncoder().encode("a: [\n"), "m.yaml")).toThrow(
      /^m\.yaml:\d+:\d+: model file \(the whole file\): not YAML/,
    );
    expect(() => parseModelFile(new Uint8Array(), "m.txt")).toThrow(/m\.txt: a model file is JSON/);
  });

  it("names text YAML read as a tag, such as an unquoted !=, and how to write it", () => {
    const yaml =
      "statefold: model\nversion: 1\nname: n\nrecords:\n  source: lines\n  kind: { path: k }\n  fields: { a: { path: a, type: int } }\nkinds:\n  x:\n    - check: [$a, !=, 3]\n";
    expect(() => parseModelFile(new TextEncoder().encode(yaml), "m.yaml")).toThrow(
      'm.yaml:10:19: model file /kinds/x/0/check/1: YAML reads != as a tag, and a model file has none: to write the text !=, quote it ("!=")',
    );
  });

  const refusals: [string, (model: Editable) => void, string, RegExp][] = [
    [
      "an unknown key deep inside",
      (m) => (m.kinds["payment_intent.created"][0].colour = 1),
      "/kinds/payment_intent.created/0/colour",
      /unknown member "colour"/,
    ],
    ["an unknown top-level key", (m) => (m.extra = 1), "/extra", /unknown member/],
    [
      "a missing required member",
      (m) => delete m.records.kind,
      "/records",
      /missing required member "kind"/,
    ],
    [
      "a missing `from`",
      (m) => delete m.kinds["payment_intent.processing"][0].from,
      "/kinds/payment_intent.processing/0",
      /missing required member "from"/,
    ],
    ["version 2", (m) => (m.version = 2), "/version", /version 1, found 2/],
    ["not a model file", (m) => (m.statefold = "journal"), "/statefold", /must be "model"/],
    [
      "an undeclared entity",
      (m) => (m.kinds["payment_intent.created"][0].new = "charge"),
      "/kinds/payment_intent.created/0/new",
      /"charge" is not an entity/,
    ],
    [
      "an undeclared state",
      (m) => (m.kinds["payment_intent.processing"][0].from = ["queued"]),
      "/kinds/payment_intent.processing/0/from/0",
      /"queued" is not a state of intent/,
    ],
    [
      "an undeclared slot",
      (m) => (m.kinds["payment_intent.created"][1].put = "@currency"),
      "/kinds/payment_intent.created/1/put",
      /"currency" is not a slot of intent/,
    ],
    [
      "a slot with no instance before it",
      (m) => m.kinds["payment_intent.created"].unshift({ put: "@amount", value: 1 }),
      "/kinds/payment_intent.created/0/put",
      /no new, step or need comes before it/,
    ],
    [
      "an undeclared register",
      (m) => (m.kinds["payment_intent.created"][1].value = "%total"),
      "/kinds/payment_intent.created/1/value",
      /"total" is not a register/,
    ],
    [
      "an undeclared counter",
      (m) => (m.kinds["payment_intent.created"][2].count = "live"),
      "/kinds/payment_intent.created/2/count",
      /"live" is not a counter/,
    ],
    [
      "an undeclared field",
      (m) => (m.kinds["payment_intent.created"][0].key = "$intent"),
      "/kinds/payment_intent.created/0/key",
      /"intent" is not a field/,
    ],
    [
      "an undeclared kind in next",
      (m) => m.kinds["payment_intent.created"].push({ next: ["refund"] }),
      "/kinds/payment_intent.created/3/next/0",
      /"refund" is not a kind/,
    ],
    [
      "a step from no state",
      (m) => (m.kinds["payment_intent.processing"][0].from = []),
      "/kinds/payment_intent.processing/0/from",
      /must name at least one state of intent: a step from no state could never apply/,
    ],
    [
      "a need in no state",
      (m) => m.kinds["payment_intent.processing"].push({ need: "intent", key: "$pi", in: [] }),
      "/kinds/payment_intent.processing/1/in",
      /a need in no state could never apply/,
    ],
    [
      "a step out of a final state",
      (m) => (m.kinds["payment_intent.succeeded"][0].from = ["processing", "canceled"]),
      "/kinds/payment_intent.succeeded/0/from/1",
      /final state of intent/,
    ],
    [
      "a map of targets missing a from state",
      (m) =>
        Object.assign(m.kinds["payment_intent.processing"][0], {
          from: ["requires_payment_method", "processing"],
          to: { processing: "processing" },
        }),
      "/kinds/payment_intent.processing/0/to",
      /no target for the from state "requires_payment_method"/,
    ],
    [
      "a map of targets with a stranger",
      (m) =>
        (m.kinds["payment_intent.processing"][0].to = {
          requires_payment_method: "processing",
          canceled: "processing",
        }),
      "/kinds/payment_intent.processing/0/to/canceled",
      /not one of this step's from states/,
    ],
    [
      "an operand of the wrong shape",
      (m) => (m.kinds["payment_intent.succeeded"][1].check = ["$amount", "==", { value: 1 }]),
      "/kinds/payment_intent.succeeded/1/check/2",
      /an operand is/,
    ],
    [
      "a fractional operand",
      (m) => (m.kinds["payment_intent.succeeded"][1].check = ["$amount", "==", 1.5]),
      "/kinds/payment_intent.succeeded/1/check/2",
      /must be an integer/,
    ],
    [
      '"#" with text after it',
      (m) => (m.kinds["payment_intent.succeeded"][1].check = ["$amount", "==", "#1"]),
      "/kinds/payment_intent.succeeded/1/check/2",
      /write "=#1"/,
    ],
    [
      "an unknown comparison",
      (m) => (m.kinds["payment_intent.succeeded"][1].check = ["$amount", "=", 1]),
      "/kinds/payment_intent.succeeded/1/check/1",
      /must be one of == != < <= > >=/,
    ],
    [
      "a literal true as a key",
      (m) => (m.kinds["payment_intent.created"][0].key = true),
      "/kinds/payment_intent.created/0/key",
      /never true/,
    ],
    [
      "a reserved rule name",
      (m) => (m.kinds["payment_intent.created"][0].rule = "sequence"),
      "/kinds/payment_intent.created/0/rule",
      /a rule statefold names itself/,
    ],
    [
      "a rule name with a dot",
      (m) => (m.kinds["payment_intent.created"][0].rule = "intent.atEnd"),
      "/kinds/payment_intent.created/0/rule",
      /without "\."/,
    ],
    [
      "two ops in one clause",
      (m) => (m.kinds["payment_intent.created"][0].once = true),
      "/kinds/payment_intent.created/0",
      /exactly one of .*; this one has new and once/,
    ],
    [
      "no op in a clause",
      (m) => (m.kinds["payment_intent.created"][0] = { rule: "x" }),
      "/kinds/payment_intent.created/0",
      /needs one of new/,
    ],
    [
      "a flag clause not true",
      (m) => m.kinds["payment_intent.created"].push({ first: false }),
      "/kinds/payment_intent.created/3/first",
      /must be true/,
    ],
    [
      "an unknown string clause",
      (m) => m.kinds["payment_intent.created"].push("always"),
      "/kinds/payment_intent.created/3",
      /"first", "once" or "last"/,
    ],
    [
      "else other than ignore",
      (m) => (m.kinds["payment_intent.created"][0].else = "skip"),
      "/kinds/payment_intent.created/0/else",
      /must be "ignore"/,
    ],
    [
      "an alias that is a kind",
      (m) => (m.records.kind.aliases["payment_intent.processing"] = "payment_intent.created"),
      "/records/kind/aliases/payment_intent.processing",
      /an alias may not be/,
    ],
    [
      "an alias to nothing",
      (m) => (m.records.kind.aliases.x = "payment_intent.refunded"),
      "/records/kind/aliases/x",
      /must name a kind/,
    ],
    [
      "a sequence over a string field",
      (m) => (m.journal.sequence.field = "pi"),
      "/journal/sequence/field",
      /field "pi" is string; this needs int/,
    ],
    [
      "a bad field type",
      (m) => (m.records.fields.pi.type = "uuid"),
      "/records/fields/pi/type",
      /"int", "string" or "bool"/,
    ],
    [
      "an empty path step",
      (m) => (m.records.fields.pi.path = "data..id"),
      "/records/fields/pi/path",
      /empty member name at step 2/,
    ],
    [
      "an empty field path",
      (m) => (m.records.fields.pi.path = ""),
      "/records/fields/pi/path",
      /at least one member/,
    ],
    [
      "a bad source",
      (m) => (m.records.source = "csv"),
      "/records/source",
      /"lines", \{"array": PATH\}/,
    ],
    ["an empty list of sources", (m) => (m.records.source = []), "/records/source", /at least one/],
    [
      "a state listed twice",
      (m) => m.entities.intent.states.push("processing"),
      "/entities/intent/states/4",
      /listed twice/,
    ],
    [
      "a state name with a dot",
      (m) => (m.entities.intent.states[0] = "a.b"),
      "/entities/intent/states/0",
      /without "\."/,
    ],
    [
      "a final state not declared",
      (m) => (m.entities.intent.final = ["done"]),
      "/entities/intent/final/0",
      /"done" is not a state of intent/,
    ],
    [
      "reuse not a bool",
      (m) => (m.entities.intent.reuse = "yes"),
      "/entities/intent/reuse",
      /true or false/,
    ],
    [
      "a negative counter max",
      (m) => (m.journal.counters.open.max = -1),
      "/journal/counters/open/max",
      /at least 0/,
    ],
    [
      "a register holding an object",
      (m) => (m.journal.registers = { last: {} }),
      "/journal/registers/last",
      /an integer or a string/,
    ],
    [
      "unknownKinds misspelt",
      (m) => (m.journal.unknownKinds = "allow"),
      "/journal/unknownKinds",
      /"reject" or "ignore"/,
    ],
    [
      "a bool key field",
      (m) => {
        m.records.fields.live = { path: "live", type: "bool" };
        m.journal.key = "live";
      },
      "/journal/key",
      /is bool; this needs int or string/,
    ],
    [
      "a description of no rule",
      (m) => (m.rules.lifecycel = "typo"),
      "/rules/lifecycel",
      /no clause carries a rule "lifecycel"/,
    ],
    [
      "too many states",
      (m) => (m.entities.intent.states = Array.from({ length: 256 }, (_, i) => `s${i}`)),
      "/entities/intent/states",
      /at most 255/,
    ],
    [
      "too many slots",
      (m) => (m.entities.intent.slots = Array.from({ length: 65 }, (_, i) => `s${i}`)),
      "/entities/intent/slots",
      /at most 64/,
    ],
    [
      "too many counters",
      (m) =>
        (m.journal.counters = Object.fromEntries(
          Array.from({ length: 257 }, (_, i) => [`c${i}`, {}]),
        )),
      "/journal/counters",
      /at most 256/,
    ],
    [
      "too many registers",
      (m) =>
        (m.journal.registers = Object.fromEntries(
          Array.from({ length: 257 }, (_, i) => [`r${i}`, 0]),
        )),
      "/journal/registers",
      /at most 256/,
    ],
    [
      "too many kinds",
      (m) => {
        m.kinds = Object.fromEntries(Array.from({ length: 4097 }, (_, i) => [`k${i}`, []]));
        delete m.records.kind.aliases;
      },
      "/kinds",
      /at most 4096/,
    ],
    [
      "too many clauses",
      (m) => {
        m.kinds = { k: Array.from({ length: 65536 }, () => "first") };
        delete m.records.kind.aliases;
        delete m.rules;
      },
      "/kinds",
      /at most 65535/,
    ],
  ];

  it.each(refusals)("refuses %s, naming its place", (_name, edit, pointer, problem) => {
    const found = refusal(edit);
    expect(found.pointer).toBe(pointer);
    expect(found.problem).toMatch(problem);
  });

  it("escapes ~ and / in a pointer", () => {
    const found = refusal((m) => (m.kinds["a/b~c"] = [{ first: true, colour: 1 }]));
    expect(found.pointer).toBe("/kinds/a~1b~0c/0/colour");
  });
});

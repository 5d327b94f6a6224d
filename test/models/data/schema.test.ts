/**
 * The JSON Schema shipped for editors (schema/statefold-model.schema.json, docs/models/data.md,
 * "Checking the file"): a valid draft 2020-12 schema that accepts every model file the
 * repository holds and rejects, each at its place, the mistakes it can express.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { checkModel, loadModelFile, ModelFileError } from "../../../src/models/data/load.js";

const ROOT = join(import.meta.dirname, "../../..");
const SCHEMA_FILE = "schema/statefold-model.schema.json";
/** Where the repository keeps model files: its examples, and the models it ships (once it does). */
const MODEL_FOLDERS = ["examples/data", "src/models/data/shipped"];

const schema = JSON.parse(readFileSync(join(ROOT, SCHEMA_FILE), "utf8")) as object;

/** The schema compiled once: a validator is reused, its `errors` those of its last call. */
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

/**
 * The places ajv's errors point at, as the model check names them: an unknown member and a
 * repeated item are the member and the item, not the object or list that holds them.
 */
function placesOf(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((error) => {
    if (error.keyword === "additionalProperties")
      return `${error.instancePath}/${String(error.params.additionalProperty)}`;
    if (error.keyword === "uniqueItems") return `${error.instancePath}/${String(error.params.i)}`;
    return error.instancePath;
  });
}

/** A model file's paths relative to the root: `.json` (but not a `.journal.json`), `.yaml`, `.yml`. */
function modelFiles(): string[] {
  return MODEL_FOLDERS.filter((folder) => existsSync(join(ROOT, folder))).flatMap((folder) =>
    readdirSync(join(ROOT, folder))
      .filter((name) => /\.(json|ya?ml)$/.test(name) && !name.endsWith(".journal.json"))
      .map((name) => `${folder}/${name}`),
  );
}

function readModel(file: string): unknown {
  const text = readFileSync(join(ROOT, file), "utf8");
  return file.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
}

/** The smallest model that uses every part of the file, for the bad cases to break one at a time. */
function goodModel(): Record<string, unknown> {
  return {
    statefold: "model",
    version: 1,
    name: "tiny",
    records: {
      source: "lines",
      kind: { path: "type", aliases: { opened: "open" } },
      fields: {
        id: { path: "data.id", type: "string" },
        n: { path: ["meta.data", { "*": "Count" }], type: "int" },
        ok: { path: "ok", type: "bool" },
      },
    },
    journal: {
      sequence: { field: "n", start: 1, step: 1 },
      monotone: [{ field: "n", strict: true }],
      registers: { last: "", total: 0 },
      counters: { open: { max: 2 } },
      unknownKinds: "reject",
    },
    entities: {
      door: {
        states: ["open", "shut"],
        final: ["shut"],
        slots: ["by"],
        atEnd: ["shut"],
        reuse: true,
      },
    },
    kinds: {
      open: [
        "first",
        { new: "door", key: "$id", to: "open", rule: "doors" },
        { put: "@by", value: "$ok" },
        { put: "%last", value: "=#literal" },
        { count: "open", by: 1, else: "ignore" },
        { check: ["#", "<", 10] },
        { next: ["shut"] },
      ],
      shut: [
        { step: "door", key: "$id", from: ["open"], to: { open: "shut" } },
        { need: "door", key: "$id", in: ["shut"] },
        { check: ["@by", "==", true] },
        "once",
        { last: true },
      ],
    },
    rules: { doors: "a door opens before it shuts" },
  };
}

/** The good model with the value at `path` replaced (undefined: removed). */
function changed(path: readonly (string | number)[], value: unknown): unknown {
  const model = goodModel();
  let parent = model as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return model;
}

interface BadModel {
  readonly name: string;
  readonly model: unknown;
  /** The JSON Pointer of the mistake, as the model check names it. */
  readonly pointer: string;
}

/** Bad model files the schema refuses, as the model check does, each at the place of its mistake. */
const BAD_MODELS: readonly BadModel[] = [
  { name: "an unknown key at the top", model: changed(["colour"], "red"), pointer: "/colour" },
  {
    name: "an unknown key deep in an entity",
    model: changed(["entities", "door", "colour"], "red"),
    pointer: "/entities/door/colour",
  },
  {
    name: "an unknown key in a clause",
    model: changed(["kinds", "open", 1, "when"], "$ok"),
    pointer: "/kinds/open/1/when",
  },
  { name: "no statefold", model: changed(["statefold"], undefined), pointer: "" },
  {
    name: "statefold other than model",
    model: changed(["statefold"], "journal"),
    pointer: "/statefold",
  },
  { name: "version 2", model: changed(["version"], 2), pointer: "/version" },
  { name: "no name", model: changed(["name"], undefined), pointer: "" },
  { name: "no records.kind", model: changed(["records", "kind"], undefined), pointer: "/records" },
  { name: "no kinds", model: changed(["kinds"], undefined), pointer: "" },
  {
    name: "a field without a type",
    model: changed(["records", "fields", "id", "type"], undefined),
    pointer: "/records/fields/id",
  },
  {
    name: "a field of an unknown type",
    model: changed(["records", "fields", "id", "type"], "number"),
    pointer: "/records/fields/id/type",
  },
  {
    name: "an entity without states",
    model: changed(["entities", "door", "states"], undefined),
    pointer: "/entities/door",
  },
  {
    name: "a state name with a dot",
    model: changed(["entities", "door", "states", 0], "o.pen"),
    pointer: "/entities/door/states/0",
  },
  {
    name: "an unknown source",
    model: changed(["records", "source"], "csv"),
    pointer: "/records/source",
  },
  {
    name: "a step from no state",
    model: changed(["kinds", "shut", 0, "from"], []),
    pointer: "/kinds/shut/0/from",
  },
  {
    name: "a need in no state",
    model: changed(["kinds", "shut", 1, "in"], []),
    pointer: "/kinds/shut/1/in",
  },
  {
    name: "an empty list of sources",
    model: changed(["records", "source"], []),
    pointer: "/records/source",
  },
  {
    name: "a new without its key",
    model: changed(["kinds", "open", 1, "key"], undefined),
    pointer: "/kinds/open/1",
  },
  {
    name: "a clause with two ops",
    model: changed(["kinds", "open", 1, "step"], "door"),
    pointer: "/kinds/open/1",
  },
  {
    name: "an unknown bare clause",
    model: changed(["kinds", "shut", 3], "twice"),
    pointer: "/kinds/shut/3",
  },
  {
    name: "a put into a name that is neither @slot nor %register",
    model: changed(["kinds", "open", 2, "put"], "by"),
    pointer: "/kinds/open/2/put",
  },
  {
    name: "an operand starting with # that is not #",
    model: changed(["kinds", "open", 5, "check", 0], "#index"),
    pointer: "/kinds/open/5/check/0",
  },
  {
    name: "an operand that is a fraction",
    model: changed(["kinds", "open", 5, "check", 2], 10.5),
    pointer: "/kinds/open/5/check/2",
  },
  {
    name: "an operand beyond the safe integers",
    model: changed(["kinds", "open", 5, "check", 2], 2 ** 53),
    pointer: "/kinds/open/5/check/2",
  },
  {
    name: "an operand that is an object",
    model: changed(["kinds", "open", 2, "value"], { field: "ok" }),
    pointer: "/kinds/open/2/value",
  },
  {
    name: "a key that is a literal true",
    model: changed(["kinds", "open", 1, "key"], true),
    pointer: "/kinds/open/1/key",
  },
  {
    name: "an unknown comparison",
    model: changed(["kinds", "open", 5, "check", 1], "=<"),
    pointer: "/kinds/open/5/check/1",
  },
  {
    name: "a check of two operands",
    model: changed(["kinds", "open", 5, "check"], ["#", "<"]),
    pointer: "/kinds/open/5/check",
  },
  {
    name: "a count by a fraction",
    model: changed(["kinds", "open", 4, "by"], 0.5),
    pointer: "/kinds/open/4/by",
  },
  {
    name: "an else other than ignore",
    model: changed(["kinds", "open", 4, "else"], "reject"),
    pointer: "/kinds/open/4/else",
  },
  {
    name: "a rule named like a reserved one",
    model: changed(["kinds", "open", 1, "rule"], "sequence"),
    pointer: "/kinds/open/1/rule",
  },
  {
    name: "a rule name with a dot",
    model: changed(["kinds", "open", 1, "rule"], "door.atEnd"),
    pointer: "/kinds/open/1/rule",
  },
  {
    name: "last: false",
    model: changed(["kinds", "shut", 4, "last"], false),
    pointer: "/kinds/shut/4/last",
  },
  {
    name: "unknownKinds other than reject or ignore",
    model: changed(["journal", "unknownKinds"], "warn"),
    pointer: "/journal/unknownKinds",
  },
  {
    name: "a counter's max below zero",
    model: changed(["journal", "counters", "open", "max"], -1),
    pointer: "/journal/counters/open/max",
  },
  {
    name: "a register's initial value that is a list",
    model: changed(["journal", "registers", "last"], []),
    pointer: "/journal/registers/last",
  },
  {
    name: "a path's suffix member with another key",
    model: changed(["records", "fields", "n", "path", 1], { suffix: "Count" }),
    pointer: "/records/fields/n/path/1/suffix",
  },
  {
    name: "a state listed twice",
    model: changed(["entities", "door", "states"], ["open", "shut", "open"]),
    pointer: "/entities/door/states/2",
  },
  {
    name: "an empty member name in a path",
    model: changed(["records", "fields", "id", "path"], "data..id"),
    pointer: "/records/fields/id/path",
  },
  {
    name: "an empty field path",
    model: changed(["records", "fields", "id", "path"], ""),
    pointer: "/records/fields/id/path",
  },
  {
    name: "more than 64 slots",
    model: changed(
      ["entities", "door", "slots"],
      Array.from({ length: 65 }, (_, slot) => `s${slot}`),
    ),
    pointer: "/entities/door/slots",
  },
];

/**
 * Mistakes only the model check finds: each needs to know what another part of the file
 * declares, which a JSON Schema cannot say. The schema accepts these; the check refuses each at
 * its place.
 */
const CHECKER_ONLY: readonly BadModel[] = [
  {
    name: "a clause naming an undeclared entity",
    model: changed(["kinds", "open", 1, "new"], "window"),
    pointer: "/kinds/open/1/new",
  },
  {
    name: "a clause naming a state its entity does not have",
    model: changed(["kinds", "open", 1, "to"], "ajar"),
    pointer: "/kinds/open/1/to",
  },
  {
    name: "a step from a state its entity does not have",
    model: changed(["kinds", "shut", 0, "from"], ["ajar"]),
    pointer: "/kinds/shut/0/from/0",
  },
  {
    name: "a step from a final state",
    model: changed(["kinds", "shut", 0], { step: "door", key: "$id", from: ["shut"], to: "open" }),
    pointer: "/kinds/shut/0/from/0",
  },
  {
    name: "a to map keyed by a state not in from",
    model: changed(["kinds", "shut", 0, "to"], { open: "shut", shut: "shut" }),
    pointer: "/kinds/shut/0/to/shut",
  },
  {
    name: "a to map without a target for a from state",
    model: changed(["kinds", "shut", 0, "to"], {}),
    pointer: "/kinds/shut/0/to",
  },
  {
    name: "a slot its entity does not declare",
    model: changed(["kinds", "open", 2, "put"], "@colour"),
    pointer: "/kinds/open/2/put",
  },
  {
    name: "a @slot with no new, step or need before it",
    model: changed(["kinds", "open", 0], { check: ["@by", "==", true] }),
    pointer: "/kinds/open/0/check/0",
  },
  {
    name: "an undeclared register",
    model: changed(["kinds", "open", 3, "put"], "%first"),
    pointer: "/kinds/open/3/put",
  },
  {
    name: "an undeclared counter",
    model: changed(["kinds", "open", 4, "count"], "closed"),
    pointer: "/kinds/open/4/count",
  },
  {
    name: "an undeclared field",
    model: changed(["kinds", "open", 1, "key"], "$door"),
    pointer: "/kinds/open/1/key",
  },
  {
    name: "a next naming an undeclared kind",
    model: changed(["kinds", "open", 6, "next"], ["slammed"]),
    pointer: "/kinds/open/6/next/0",
  },
  {
    name: "an alias that is itself a kind",
    model: changed(["records", "kind", "aliases"], { open: "shut" }),
    pointer: "/records/kind/aliases/open",
  },
  {
    name: "a final state the entity does not have",
    model: changed(["entities", "door", "final"], ["locked"]),
    pointer: "/entities/door/final/0",
  },
  {
    name: "an atEnd state the entity does not have",
    model: changed(["entities", "door", "atEnd"], ["locked"]),
    pointer: "/entities/door/atEnd/0",
  },
  {
    name: "a sequence over an undeclared field",
    model: changed(["journal", "sequence", "field"], "seq"),
    pointer: "/journal/sequence/field",
  },
  {
    name: "a journal key over an undeclared field",
    model: changed(["journal", "key"], "tenant"),
    pointer: "/journal/key",
  },
  {
    name: "a sequence over a string field",
    model: changed(["journal", "sequence", "field"], "id"),
    pointer: "/journal/sequence/field",
  },
  {
    name: "a journal key over a bool field",
    model: changed(["journal", "key"], "ok"),
    pointer: "/journal/key",
  },
  {
    name: "a description of a rule the model does not have",
    model: changed(["rules", "windows"], "a window opens"),
    pointer: "/rules/windows",
  },
  {
    name: "more than 255 states in all entities",
    model: changed(["entities", "window"], {
      states: Array.from({ length: 254 }, (_, state) => `w${state}`),
    }),
    pointer: "/entities/window/states",
  },
];

describe(SCHEMA_FILE, () => {
  it("is a valid draft 2020-12 schema, and compiles under ajv's strict mode", () => {
    const ajv = new Ajv2020({ strict: true });
    expect(ajv.validateSchema(schema)).toBe(true);
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  it("gives every definition and property a description, for editors to show", () => {
    const undescribed: string[] = [];
    const walk = (node: unknown, pointer: string, describes: boolean): void => {
      if (typeof node !== "object" || node === null || Array.isArray(node)) return;
      const record = node as Record<string, unknown>;
      if (describes && typeof record.description !== "string") undescribed.push(pointer);
      for (const [key, child] of Object.entries(record)) {
        if (key === "properties" || key === "$defs") {
          for (const [name, member] of Object.entries(child as Record<string, unknown>)) {
            walk(member, `${pointer}/${key}/${name}`, true);
          }
        } else if (typeof child === "object") walk(child, `${pointer}/${key}`, false);
      }
    };
    walk(schema, "", true);
    expect(undescribed).toEqual([]);
  });

  it("accepts every model file the repository holds, the examples and the shipped models", () => {
    const files = modelFiles();
    expect(files).toContain("examples/data/payment-intents.json");
    const refused = files.filter((file) => !validate(readModel(file)));
    expect(refused).toEqual([]);
  });

  it("accepts the model every bad case breaks, so each case is refused for its one change", () => {
    expect(validate(goodModel()), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each(BAD_MODELS)("refuses $name, at $pointer", ({ model, pointer }) => {
    expect(validate(model)).toBe(false);
    expect(placesOf(validate.errors)).toContain(pointer);
  });
});

/** The model check's refusal of a model, or null when it accepts it. */
function checkRefusal(model: unknown): ModelFileError | null {
  try {
    checkModel(model, "model.json");
    return null;
  } catch (error) {
    if (error instanceof ModelFileError) return error;
    throw error;
  }
}

describe("the schema and the model check (src/models/data/check.ts)", () => {
  it("both accept every model file the repository holds, and the model the bad cases break", async () => {
    for (const file of modelFiles())
      await expect(loadModelFile(join(ROOT, file))).resolves.toBeTruthy();
    expect(checkRefusal(goodModel())).toBeNull();
  });

  it.each(BAD_MODELS)("the check refuses $name at $pointer too", ({ model, pointer }) => {
    expect(checkRefusal(model)?.pointer).toBe(pointer);
  });

  it.each(CHECKER_ONLY)("only the check refuses $name, at $pointer", ({ model, pointer }) => {
    expect(validate(model), JSON.stringify(validate.errors)).toBe(true);
    expect(checkRefusal(model)?.pointer).toBe(pointer);
  });
});

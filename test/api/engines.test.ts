/**
 * One API for every model (docs/api.md): each model's reference and WebAssembly engines take the
 * same calls — `auditBytes(bytes, options)`, and on the kernel `openAuditor(options)` and
 * `resume(snapshot, journal, options)` — and give deep-equal reports; the dag's DAG is the option
 * `{ dag }`, its older forms still taken; and a wrong argument is an `ArgumentError` naming the
 * call, what was expected and what was given.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ArgumentError,
  type Dag,
  type JournalBytes,
  loadEngine,
  makeDag,
  referenceEngine,
  referenceExecutiveEngine,
  referenceOperationsEngine,
  type WasmEngine,
  type WasmExecutiveEngine,
  type WasmOperationsEngine,
} from "../../src/index.js";

const REPO_ROOT = join(import.meta.dirname, "../..");

const example = (path: string) => new Uint8Array(readFileSync(join(REPO_ROOT, "examples", path)));

/** What every model's engines share: the calls this test makes on all of them alike. */
interface AnyEngine {
  auditBytes(bytes: JournalBytes, options?: { readonly file?: string }): Promise<unknown>;
}
interface AnyKernelEngine extends AnyEngine {
  openAuditor(options?: object): {
    write(chunk: Uint8Array): void;
    snapshot(): Uint8Array;
    finish(): unknown;
  };
  resume(
    snapshot: Uint8Array,
    journal: JournalBytes,
    options?: object,
  ): Promise<{ finish(): unknown }>;
}

let dagKernel: WasmEngine;
let operationsKernel: WasmOperationsEngine;
let executiveKernel: WasmExecutiveEngine;
beforeAll(async () => {
  dagKernel = await loadEngine();
  operationsKernel = await loadEngine({ model: "operations" });
  executiveKernel = await loadEngine({ model: "executive" });
});

const MODELS = [
  {
    model: "dag",
    reference: () => referenceEngine as AnyEngine,
    wasm: () => dagKernel as AnyKernelEngine,
    journals: ["diamond.jsonl", "violations/unproven-dispatch.jsonl"],
  },
  {
    model: "operations",
    reference: () => referenceOperationsEngine as AnyEngine,
    wasm: () => operationsKernel as AnyKernelEngine,
    journals: ["operations/retry-ladder.jsonl", "operations/exactly-once.jsonl"],
  },
  {
    model: "executive",
    reference: () => referenceExecutiveEngine as AnyEngine,
    wasm: () => executiveKernel as AnyKernelEngine,
    journals: ["executive/conformant.jsonl", "executive/wrong-seq.jsonl"],
  },
] as const;

/** The bytes in chunks of 7, as a stream of them. */
function* inChunks(bytes: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += 7) yield bytes.slice(at, at + 7);
}

describe.each(MODELS)("the $model engines", ({ model, reference, wasm, journals }) => {
  it("auditBytes(bytes, options): both engines give one report, whole or in chunks", async () => {
    for (const journal of journals) {
      const bytes = example(journal);
      const expected = (await reference().auditBytes(bytes, { file: journal })) as {
        model: string;
      };
      expect(expected.model).toBe(model);
      expect(await wasm().auditBytes(bytes, { file: journal }), journal).toEqual(expected);
      expect(await wasm().auditBytes(inChunks(bytes), { file: journal }), journal).toEqual(
        expected,
      );
      expect(await reference().auditBytes(inChunks(bytes)), journal).toEqual(expected);
    }
  });

  it("openAuditor(options) and resume(snapshot, journal, options) give auditBytes's report", async () => {
    for (const journal of journals) {
      const bytes = example(journal);
      const expected = await reference().auditBytes(bytes);
      const auditor = wasm().openAuditor({ snapshots: true, file: journal });
      const half = bytes.subarray(0, bytes.length >> 1);
      auditor.write(half);
      const snapshot = auditor.snapshot();
      auditor.write(bytes.subarray(half.length));
      expect(auditor.finish(), journal).toEqual(expected);
      const resumed = await wasm().resume(snapshot, bytes, { file: journal });
      expect(resumed.finish(), journal).toEqual(expected);
    }
  });

  const bytes = () => example(journals[0]);
  const wrongCalls: readonly (readonly [string, (engine: AnyKernelEngine) => unknown, RegExp])[] = [
    [
      "auditBytes(a string)",
      (engine) => engine.auditBytes("{}\n" as never),
      /auditBytes\(bytes, options\): expected bytes to be a Uint8Array, or an iterable .*, found the string "\{\}\\n"/,
    ],
    [
      "auditBytes(chunks that are strings)",
      (engine) => engine.auditBytes(["{}\n"] as never),
      /expected chunk 1 to be a Uint8Array, found the string/,
    ],
    [
      "auditBytes(an ArrayBuffer)",
      (engine) => engine.auditBytes(new ArrayBuffer(2) as never),
      /expected bytes .*, found an ArrayBuffer \(wrap it: new Uint8Array\(buffer\)\)/,
    ],
    [
      "auditBytes(bytes, a misspelt option)",
      (engine) => engine.auditBytes(bytes(), { fiel: "j.jsonl" } as never),
      /expected options to be an object whose keys are among file.*, found the key "fiel"/,
    ],
    [
      "auditBytes(bytes, { file: 5 })",
      (engine) => engine.auditBytes(bytes(), { file: 5 } as never),
      /expected options\.file to be a string, found the number 5/,
    ],
    [
      "auditBytes(bytes, options that are a string)",
      (engine) => engine.auditBytes(bytes(), "j.jsonl" as never),
      /expected options to be an object .*, found the string "j\.jsonl"/,
    ],
  ];
  const wrongKernelCalls: typeof wrongCalls = [
    [
      "openAuditor({ snapshot: true })",
      (engine) => engine.openAuditor({ snapshot: true }),
      /openAuditor\(.*options\): expected options to be .*snapshots.*, found the key "snapshot"/,
    ],
    [
      "an auditor's write(a string)",
      (engine) => engine.openAuditor().write("{}\n" as never),
      /statefold: write\(chunk\): expected chunk to be a Uint8Array, found the string "\{\}\\n"/,
    ],
    [
      "resume(null, journal)",
      (engine) => engine.resume(null as never, bytes()),
      /resume\(snapshot, journal, options\): expected snapshot to be a Uint8Array .*, found null/,
    ],
    [
      "resume(snapshot, a number)",
      (engine) => engine.resume(new Uint8Array(0), 42 as never),
      /expected journal to be a Uint8Array, .* or a resumableFile, found the number 42/,
    ],
  ];

  for (const engine of ["reference", "wasm"] as const) {
    for (const [name, call, message] of engine === "wasm"
      ? [...wrongCalls, ...wrongKernelCalls]
      : wrongCalls) {
      it(`refuses ${name} with an ArgumentError (${engine})`, async () => {
        const chosen = (engine === "wasm" ? wasm() : reference()) as AnyKernelEngine;
        const error = await caught(() => call(chosen));
        expect(error).toBeInstanceOf(ArgumentError);
        expect((error as Error).message).toMatch(message);
      });
    }
  }
});

describe.each(["operations", "executive"] as const)("the %s engines", (model) => {
  const engines = () =>
    model === "operations"
      ? [referenceOperationsEngine, operationsKernel]
      : [referenceExecutiveEngine, executiveKernel];

  it("refuse the dag's call form auditBytes(null, bytes), naming the bytes' place", async () => {
    for (const engine of engines()) {
      const error = await caught(() =>
        (engine.auditBytes as (...args: unknown[]) => Promise<unknown>)(null, new Uint8Array(0)),
      );
      expect(error).toBeInstanceOf(ArgumentError);
      expect((error as Error).message).toBe(
        "statefold: auditBytes(bytes, options): expected bytes to be a Uint8Array, or an iterable or async iterable of Uint8Array chunks, found null (the bytes come first; a DAG is the option { dag })",
      );
    }
  });

  it("refuse a DAG as an option: it is the dag model's", async () => {
    for (const engine of engines()) {
      const error = await caught(() =>
        engine.auditBytes(new Uint8Array(0), { dag: diamond() } as never),
      );
      expect(error).toBeInstanceOf(ArgumentError);
      expect((error as Error).message).toMatch(/whose keys are among file, found the key "dag"/);
    }
  });
});

function diamond(): Dag {
  const made = makeDag(
    JSON.parse(readFileSync(join(REPO_ROOT, "examples/diamond.dag.json"), "utf8")).nodes,
  );
  if (!made.ok) throw new Error("examples/diamond.dag.json is a DAG");
  return made.dag;
}

/** examples/diamond.jsonl without its header line: a journal that needs its DAG given. */
function headerless(): Uint8Array {
  const bytes = example("diamond.jsonl");
  return bytes.subarray(bytes.indexOf(0x0a) + 1);
}

describe("the dag engines' DAG option", () => {
  const engines = () => [referenceEngine, dagKernel];

  it("auditBytes(bytes, { dag }) gives the older auditBytes(dag, bytes)'s report, on both engines", async () => {
    const dag = diamond();
    const expected = await referenceEngine.auditBytes(dag, headerless());
    expect(expected.events).toBeGreaterThan(0);
    for (const engine of engines()) {
      expect(await engine.auditBytes(headerless(), { dag }), engine.name).toEqual(expected);
      expect(await engine.auditBytes(dag, headerless()), engine.name).toEqual(expected);
      expect(await engine.auditBytes(null, example("diamond.jsonl")), engine.name).toEqual(
        await engine.auditBytes(example("diamond.jsonl")),
      );
    }
  });

  it("openAuditor({ dag }) and resume(snapshot, journal, { dag }) take it as the older forms do", async () => {
    const dag = diamond();
    const expected = await referenceEngine.auditBytes(headerless(), { dag });
    const cut = headerless().length >> 1;
    for (const open of [
      () => dagKernel.openAuditor({ dag, snapshots: true }),
      () => dagKernel.openAuditor(dag, { snapshots: true }),
    ]) {
      const auditor = open();
      auditor.write(headerless().subarray(0, cut));
      const snapshot = auditor.snapshot();
      auditor.write(headerless().subarray(cut));
      expect(auditor.finish()).toEqual(expected);
      expect((await dagKernel.resume(snapshot, headerless(), { dag })).finish()).toEqual(expected);
      expect((await dagKernel.resume(snapshot, headerless(), dag)).finish()).toEqual(expected);
      expect((await dagKernel.resume(snapshot, headerless(), null, {})).finish()).toEqual(expected);
    }
  });

  it("audit(dag, events) and replay(dag, events) agree across engines, and refuse makeDag's result by name", async () => {
    const made = makeDag([{ id: "A", deps: [] }]);
    if (!made.ok) throw new Error("one node is a DAG");
    const events = [
      { kind: "dispatched", id: "A" },
      { kind: "landed", id: "A" },
    ];
    expect(dagKernel.audit(made.dag, events)).toEqual(referenceEngine.audit(made.dag, events));
    for (const engine of engines()) {
      for (const call of [
        () => engine.audit(made as never, events),
        () => engine.replay(made as never, events),
      ]) {
        const error = await caught(call);
        expect(error, engine.name).toBeInstanceOf(ArgumentError);
        expect((error as Error).message, engine.name).toMatch(
          /expected dag to be a DAG \(makeDag\(nodes\)\.dag\), found makeDag's result \{ ok, dag \} \(its \.dag is the DAG\)/,
        );
      }
      const error = await caught(() => engine.audit(made.dag, "dispatched A" as never));
      expect((error as Error).message).toMatch(/expected events to be an array, found the string/);
    }
  });

  it("refuses a DAG in the options' place, and a DAG given twice", async () => {
    const dag = diamond();
    for (const engine of engines()) {
      const asOptions = await caught(() => engine.auditBytes(headerless(), dag as never));
      expect(asOptions).toBeInstanceOf(ArgumentError);
      expect((asOptions as Error).message).toMatch(/found a DAG \(pass it as \{ dag \}\)/);
      const twice = await caught(() => engine.auditBytes(dag, headerless(), { dag }));
      expect((twice as Error).message).toMatch(
        /auditBytes\(dag, bytes, options\): expected options\.dag to be absent when the DAG is an argument/,
      );
      const rejected = await caught(() =>
        engine.auditBytes(makeDag([{ id: "A", deps: ["B"] }]) as never, headerless()),
      );
      expect((rejected as Error).message).toMatch(
        /found makeDag's rejection of the nodes \(dangling-dependency\)/,
      );
    }
  });
});

describe("loadEngine(options)", () => {
  it.each([
    [
      { model: "ops" },
      /expected options\.model to be "dag" or "operations" or "executive" or "temporal" or "cadence" or "stepfunctions", found the string "ops"/,
    ],
    [
      { flavour: "sse" },
      /expected options\.flavour to be "simd" or "scalar", found the string "sse"/,
    ],
    [
      { memoryLimitBytes: 1 << 20 },
      /expected options\.memoryLimitBytes to be absent for the dag engine/,
    ],
    [
      { model: "operations", memoryLimitBytes: "1 MB" },
      /expected options\.memoryLimitBytes to be a number of bytes, found the string "1 MB"/,
    ],
    [
      { modle: "operations" },
      /expected options to be an object whose keys are among model, wasm, flavour, memoryLimitBytes, found the key "modle"/,
    ],
    [null, /expected options to be an object .*, found null/],
  ])("refuses %j with an ArgumentError", async (options, message) => {
    const error = await caught(() => loadEngine(options as never));
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as Error).message).toMatch(message);
  });
});

/** What a call throws or rejects with; fails the test when it does neither. */
async function caught(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

/**
 * The executive kernel's own reading of a journal header (assembly/executive/header.ts) against
 * the reference reader, on both builds: for a plain header, the spec and budget checked and
 * packed byte for byte as the host packs what `readSpec` accepted (bindings/executive/
 * pack-spec.ts); for anything else — a spec the reference refuses, or one written with escapes,
 * duplicate keys or other spellings of numbers — no answer, so that the host reads the line with
 * the reference and gives its verdict or its error. A plain header is read by the kernel, not
 * handed over; and an audit is the reference's whichever read the header.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadExecutiveEngine, type WasmExecutiveEngine } from "../../bindings/executive/index.js";
import {
  type ExecutiveKernelExports,
  instantiateExecutiveKernel,
} from "../../bindings/executive/kernel.js";
import { packSpec } from "../../bindings/executive/pack-spec.js";
import { readJsonlHeader } from "../../src/journal/jsonl.js";
import { executiveRunOf, referenceExecutiveEngine } from "../../src/models/executive/engine.js";
import { encode } from "../support/bytes.js";
import { FLAVOURS } from "../support/engines.js";
import type { StepSpec } from "../support/executive-arbitraries.js";
import { encodingStyleArbitrary, JsonWriter, PLAIN_STYLE } from "../support/jsonl-encoding.js";
import { asyncOutcomeOf, outcomeOf } from "../support/outcome.js";

const FILE = "header.jsonl";

interface Build {
  readonly flavour: string;
  readonly kernel: ExecutiveKernelExports;
  readonly engine: WasmExecutiveEngine;
}

let builds: readonly Build[];
beforeAll(async () => {
  builds = await Promise.all(
    FLAVOURS.map(async (flavour) => ({
      flavour,
      kernel: await instantiateExecutiveKernel(undefined, flavour),
      engine: await loadExecutiveEngine({ flavour }),
    })),
  );
});

/** The spec the kernel packed from the line, or null when it left the line to the host. */
function kernelPacked(kernel: ExecutiveKernelExports, line: Uint8Array): Uint8Array | null {
  const pointer = kernel.prepareHeader(line.length);
  new Uint8Array(kernel.memory.buffer, pointer, line.length).set(line);
  if (kernel.loadHeader() === 0) return null;
  return new Uint8Array(
    kernel.memory.buffer,
    kernel.packedSpecPointer(),
    kernel.packedSpecLength(),
  ).slice();
}

/** What the host makes of the line with the reference reader: the packed spec, or its error. */
function referencePacked(line: Uint8Array) {
  return outcomeOf(() => {
    const { spec, budget } = executiveRunOf(readJsonlHeader(line, FILE, "executive"), FILE);
    return packSpec(spec, budget).bytes;
  });
}

/**
 * Holds each build to the reference on `line`: where the kernel packs the spec, the reference
 * accepts it and packs the same bytes. Returns how many builds read it themselves.
 */
/**
 * Packed specs past this many bytes are compared as bytes: deep equality walks a typed array
 * element by element, and the 6 MB spec of 10⁵ steps took over a minute per comparison.
 */
const COMPARED_AS_BYTES = 1 << 16;

function expectReference(line: Uint8Array): number {
  const expected = referencePacked(line);
  const returned = "returned" in expected ? expected.returned : null;
  let kernelReads = 0;
  for (const build of builds) {
    const packed = kernelPacked(build.kernel, line);
    if (packed === null) continue;
    kernelReads += 1;
    if (returned !== null && packed.length > COMPARED_AS_BYTES) {
      expect(Buffer.compare(packed, returned), build.flavour).toBe(0);
    } else {
      expect({ returned: packed }, build.flavour).toEqual(expected);
    }
  }
  return kernelReads;
}

const BUDGET =
  '{"steps":40,"depth":3,"modelCalls":8,"toolCalls":8,"contextOps":8,"retries":5,"outputBytes":400,"deadline":600}';
const SPEC =
  '{"task":"t","plan":{"steps":[{"id":"b","deps":[],"effect":"tool"},{"id":"a","deps":["b","b"],"plan":{"steps":[{"id":"x","deps":[],"effect":"model"}]},"budget":{"steps":3,"deadline":9}},{"id":"c","deps":["a","b"],"effect":"context"}]},"checkpointEvery":2}';
const headerOf = (spec: string, budget = BUDGET) =>
  `{"statefold":"journal","version":1,"model":"executive","spec":${spec},"budget":${budget}}`;
const PLAIN = headerOf(SPEC);

/** Plain headers, however laid out: the kernel reads each itself. */
const KERNEL_READ: Record<string, string> = {
  compact: PLAIN,
  // The executive engine was chosen for the journal: a header naming no model is read as its.
  "no model": PLAIN.replace('"model":"executive",', ""),
  "keys in another order": `{"budget":${BUDGET},"spec":{"checkpointEvery":2,"plan":{"steps":[{"effect":"tool","deps":[],"id":"b"},{"budget":{"deadline":9,"steps":3},"plan":{"steps":[{"effect":"model","id":"x","deps":[]}]},"deps":["b","b"],"id":"a"},{"deps":["a","b"],"id":"c","effect":"context"}]},"task":"t"},"model":"executive","version":1,"statefold":"journal"}`,
  "whitespace everywhere": ` \t${PLAIN.replaceAll(",", " ,\t").replaceAll(":", " : ").replaceAll("[", "[ ").replaceAll("}", " }")}\r`,
  "members the reader ignores at the top": PLAIN.replace(
    '"version":1,',
    '"version":1,"created":{"at":[1,2.5e3,"x\\"y"]},"dag":7,',
  ),
  "non-ASCII ids ranked by code point": headerOf(
    '{"task":"日本","plan":{"steps":[{"id":"😀","deps":[],"effect":"tool"},{"id":"\uffff","deps":["😀"],"effect":"tool"},{"id":"é","deps":[],"effect":"model"},{"id":"","deps":["é"],"effect":"model"}]}}',
  ),
  "no steps, no checkpointEvery": headerOf('{"task":"","plan":{"steps":[]}}'),
  "an empty sub-plan budget": headerOf(
    '{"task":"t","plan":{"steps":[{"id":"a","deps":[],"plan":{"steps":[]},"budget":{}}]}}',
  ),
  "budget values at their bound": headerOf(
    '{"task":"t","plan":{"steps":[]},"checkpointEvery":9007199254740991}',
    BUDGET.replace('"steps":40', '"steps":4503599627370496').replace(
      '"deadline":600',
      '"deadline":0',
    ),
  ),
  "a dependency on a later step": headerOf(
    '{"task":"t","plan":{"steps":[{"id":"a","deps":["b"],"effect":"tool"},{"id":"b","deps":[],"effect":"tool"}]}}',
  ),
  "the same ids in different plans": headerOf(
    '{"task":"t","plan":{"steps":[{"id":"a","deps":[],"plan":{"steps":[{"id":"a","deps":[],"effect":"tool"}]}},{"id":"b","deps":["a"],"plan":{"steps":[{"id":"a","deps":[],"effect":"tool"}]}}]}}',
  ),
  "blanks before it on its line": ` \t\r${PLAIN}`,
  "a CRLF line end": `${PLAIN}\r`,
};

const replaceOnce = (text: string, from: string, to: string) => {
  if (!text.includes(from)) throw new Error(`no ${from} in ${text}`);
  return text.replace(from, to);
};

/** Everything else: the reference reads it (its verdict or its error), whatever the kernel makes of it. */
const HOST_READ: Record<string, string> = {
  "an escaped spec key": replaceOnce(PLAIN, '"spec":', '"sp\\u0065c":'),
  "an escaped step key": replaceOnce(PLAIN, '"effect":"tool"', '"\\u0065ffect":"tool"'),
  "an escaped id": replaceOnce(PLAIN, '"id":"b"', '"id":"\\u0062"'),
  "an escaped dependency": replaceOnce(PLAIN, '["a","b"]', '["a","\\u0062"]'),
  "an escaped effect": replaceOnce(PLAIN, '"effect":"tool"', '"effect":"t\\u006fol"'),
  "an escaped task": replaceOnce(PLAIN, '"task":"t"', '"task":"\\t"'),
  "a budget of 1.0": replaceOnce(PLAIN, '"steps":40', '"steps":40.0'),
  "a budget of 4e1": replaceOnce(PLAIN, '"steps":40', '"steps":4e1'),
  "a budget of -0": replaceOnce(PLAIN, '"retries":5', '"retries":-0'),
  "a second spec key": PLAIN.replace(',"budget"', ',"spec":{},"budget"'),
  "a second task key": replaceOnce(PLAIN, '"task":"t"', '"task":1,"task":"t"'),
  "a second id key": replaceOnce(PLAIN, '"id":"b"', '"id":"z","id":"b"'),
  "a second deps key": replaceOnce(PLAIN, '"deps":["a","b"]', '"deps":[7],"deps":["a","b"]'),
  "a second budget limit": replaceOnce(PLAIN, '"steps":3,', '"steps":3,"steps":4,'),
  "a second root limit": replaceOnce(PLAIN, '"steps":40,', '"steps":40,"steps":41,'),
  "no spec": PLAIN.replace(/"spec":.*,"budget"/, '"budget"'),
  "no budget": PLAIN.replace(/,"budget":\{[^}]*\}\}$/, "}"),
  "the dag model": PLAIN.replace('"model":"executive"', '"model":"dag"'),
  "a spec that is an array": headerOf("[]"),
  "no task": replaceOnce(PLAIN, '"task":"t",', ""),
  "a task that is a number": replaceOnce(PLAIN, '"task":"t"', '"task":1'),
  "a task of 4097 bytes": replaceOnce(PLAIN, '"task":"t"', `"task":"${"é".repeat(2048)}x"`),
  "no plan": headerOf('{"task":"t"}'),
  "a plan without steps": headerOf('{"task":"t","plan":{}}'),
  "a plan with another key": headerOf('{"task":"t","plan":{"steps":[],"name":"p"}}'),
  "an unknown spec key": replaceOnce(PLAIN, '"task":"t"', '"task":"t","name":"n"'),
  "an unknown step key": replaceOnce(PLAIN, '"effect":"tool"', '"effect":"tool","x":1'),
  "a budget on an effect step": replaceOnce(
    PLAIN,
    '"effect":"tool"',
    '"effect":"tool","budget":{}',
  ),
  "both effect and plan": replaceOnce(
    PLAIN,
    '"effect":"model"',
    '"effect":"model","plan":{"steps":[]}',
  ),
  "neither effect nor plan": replaceOnce(PLAIN, ',"effect":"context"', ""),
  "an unknown effect": replaceOnce(PLAIN, '"effect":"tool"', '"effect":"Tool"'),
  "an id that is a number": replaceOnce(PLAIN, '"id":"b"', '"id":2'),
  "an id of 1025 bytes": replaceOnce(PLAIN, '"id":"b"', `"id":"${"b".repeat(1025)}"`),
  "deps that are a string": replaceOnce(PLAIN, '"deps":["a","b"]', '"deps":"a"'),
  "a dependency that is null": replaceOnce(PLAIN, '"deps":["a","b"]', '"deps":[null]'),
  "1025 deps": replaceOnce(PLAIN, '"deps":["a","b"]', `"deps":[${'"b",'.repeat(1024)}"b"]`),
  "a duplicate id": replaceOnce(PLAIN, '"id":"c"', '"id":"b"'),
  "a dangling dependency": replaceOnce(PLAIN, '"deps":["a","b"]', '"deps":["a","z"]'),
  "a cycle": replaceOnce(PLAIN, '"id":"b","deps":[]', '"id":"b","deps":["c"]'),
  "a step that depends on itself": replaceOnce(
    PLAIN,
    '"id":"b","deps":[]',
    '"id":"b","deps":["b"]',
  ),
  "a dependency across plans": replaceOnce(PLAIN, '"id":"x","deps":[]', '"id":"x","deps":["b"]'),
  "a depth in a sub-plan's budget": replaceOnce(PLAIN, '"steps":3,', '"depth":1,'),
  "an unknown budget key": replaceOnce(PLAIN, '"steps":40,', '"steps":40,"x":1,'),
  "a root budget without deadline": replaceOnce(PLAIN, ',"deadline":600', ""),
  "a budget above 2^52": replaceOnce(PLAIN, '"steps":40', '"steps":4503599627370497'),
  "a negative budget": replaceOnce(PLAIN, '"steps":40', '"steps":-1'),
  "a budget that is a string": replaceOnce(PLAIN, '"steps":40', '"steps":"40"'),
  "checkpointEvery 0": replaceOnce(PLAIN, '"checkpointEvery":2', '"checkpointEvery":0'),
  "checkpointEvery 2.5": replaceOnce(PLAIN, '"checkpointEvery":2', '"checkpointEvery":2.5'),
  "checkpointEvery beyond the safe integers": replaceOnce(
    PLAIN,
    '"checkpointEvery":2',
    '"checkpointEvery":9007199254740992',
  ),
  "plans nested 65 deep": headerOf(
    `{"task":"t","plan":${'{"steps":[{"id":"a","deps":[],"plan":'.repeat(64)}{"steps":[]}${"}]}".repeat(64)}}`,
  ),
  "an event line": '{"observation":{"tag":"start","now":1},"decision":{"tag":"complete","seq":1}}',
  "cut short": PLAIN.slice(0, 90),
  "a trailing comma": replaceOnce(PLAIN, '"effect":"tool"}', '"effect":"tool",}'),
};

/** Sizes that only a bigger spec reaches: the steps' bound, and ranks past a few elements. */
function manySteps(count: number, sub: boolean): string {
  const steps = Array.from({ length: count }, (_, i) => {
    const id = `s${(i * 7919) % count}`;
    const deps = i === 0 ? [] : [`s${((i - 1) * 7919) % count}`];
    return sub && i % 5 === 0
      ? { id, deps, plan: { steps: [{ id: "x", deps: [], effect: "tool" }] } }
      : { id, deps, effect: "model" };
  });
  return JSON.stringify({ task: "t", plan: { steps } });
}

describe("the executive kernel's header reader", () => {
  for (const [name, text] of Object.entries(KERNEL_READ)) {
    it(`packs a plain header itself, as the host packs the reference's spec: ${name}`, () => {
      expect(expectReference(encode(`${text}\n`))).toBe(builds.length);
    });
  }

  for (const [name, text] of Object.entries(HOST_READ)) {
    it(`leaves the rest to the reference reader: ${name}`, () => {
      expect(expectReference(encode(`${text}\n`))).toBe(0);
    });
  }

  it("packs a spec of 10⁵ steps, and leaves one of 10⁵ + 1 to the reference", () => {
    expect(expectReference(encode(`${headerOf(manySteps(100_000, false))}\n`))).toBe(builds.length);
    expect(expectReference(encode(`${headerOf(manySteps(100_001, false))}\n`))).toBe(0);
  });

  it("packs big plans with sub-plans as the host does (ranks, dependents, budgets in order)", () => {
    for (const count of [17, 1000, 4099]) {
      expect(expectReference(encode(`${headerOf(manySteps(count, true))}\n`))).toBe(builds.length);
    }
  });

  it("gives the reference's packed spec for random specs written every way, reading the plain ones itself", () => {
    let kernelReads = 0;
    let hostReads = 0;
    fc.assert(
      fc.property(randomHeaderArbitrary, encodingStyleArbitrary, (header, style) => {
        const line = encode(`${new JsonWriter(style).value(header)}\n`);
        const reads = expectReference(line);
        kernelReads += reads;
        hostReads += builds.length - reads;
        if (isPlainlyWritable(header)) {
          const plain = encode(`${new JsonWriter(PLAIN_STYLE).value(header)}\n`);
          const accepted = "returned" in referencePacked(plain);
          const plainReads = expectReference(plain);
          expect(plainReads).toBe(accepted ? builds.length : 0);
          kernelReads += plainReads;
        }
      }),
      { numRuns: 400 },
    );
    // Both ways are taken: plain styles, and escapes, other number spellings, refused specs.
    expect(kernelReads).toBeGreaterThan(300);
    expect(hostReads).toBeGreaterThan(150);
  });

  it("audits a journal whose header names no model as the executive engine's, as the reference does", async () => {
    const body =
      '{"observation":{"tag":"start","now":1},"decision":{"tag":"execute","seq":1,"path":["b"],"effect":"tool","attempt":1}}\n';
    const bytes = encode(`${PLAIN.replace('"model":"executive",', "")}\n${body}`);
    const expected = await referenceExecutiveEngine.auditBytes(bytes);
    expect(expected).toMatchObject({ model: "executive", conformant: true, events: 1 });
    for (const build of builds) expect(await build.engine.auditBytes(bytes)).toEqual(expected);
  });

  it("audits as the reference whichever reads the header, and keeps the reference's values for a snapshot", async () => {
    const body =
      '{"observation":{"tag":"start","now":1},"decision":{"tag":"execute","seq":1,"path":["b"],"effect":"tool","attempt":1}}\n{"observation":{"tag":"tick","now":2},"decision":{"tag":"wait","seq":1}}\n';
    for (const header of [PLAIN, replaceOnce(PLAIN, '"id":"b"', '"id":"\\u0062"')]) {
      const bytes = encode(`${header}\n${body}`);
      const expected = await asyncOutcomeOf(() => referenceExecutiveEngine.auditBytes(bytes));
      for (const build of builds) {
        expect(await asyncOutcomeOf(() => build.engine.auditBytes(bytes))).toEqual(expected);
        const auditor = build.engine.openAuditor({ snapshots: true });
        auditor.write(bytes);
        const snapshot = auditor.snapshot();
        expect({ returned: auditor.finish() }).toEqual(expected);
        const resumer = await loadExecutiveEngine();
        const resumed = await resumer.resume(snapshot, [bytes]);
        expect({ returned: resumed.finish() }).toEqual(expected);
      }
    }
  });
});

/** Random specs, mostly valid, ids of any characters (some of which need escapes). */
const idArbitrary = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[a-z0-9]{0,3}$/) },
  fc.string({ maxLength: 4 }),
  fc.string({ unit: "grapheme", maxLength: 3 }),
);

function planOf(depth: number): fc.Arbitrary<{ steps: StepSpec[] }> {
  return fc
    .uniqueArray(idArbitrary, { maxLength: depth === 0 ? 12 : 6 })
    .chain((ids) =>
      fc.tuple(
        ...ids.map((id, index) =>
          fc
            .record({
              deps: fc.array(fc.constantFrom(...(index === 0 ? ["?"] : ids.slice(0, index))), {
                maxLength: index === 0 ? 0 : 3,
              }),
              sub: depth > 0 ? fc.boolean() : fc.constant(false),
              effect: fc.constantFrom("model", "tool", "context"),
              budget: fc.option(
                fc.record(
                  { steps: fc.nat(30), outputBytes: fc.nat(6), deadline: fc.nat(400) },
                  { requiredKeys: [] },
                ),
                { nil: undefined },
              ),
            })
            .chain(({ deps, sub, effect, budget }) =>
              sub
                ? planOf(depth - 1).map(
                    (plan): StepSpec => ({
                      id,
                      deps,
                      plan,
                      ...(budget === undefined ? {} : { budget }),
                    }),
                  )
                : fc.constant<StepSpec>({ id, deps, effect }),
            ),
        ),
      ),
    )
    .map((steps) => ({ steps }));
}

const randomHeaderArbitrary = fc.record({
  statefold: fc.constant("journal"),
  version: fc.constant(1),
  model: fc.constant("executive"),
  spec: fc.record(
    {
      task: fc.string({ maxLength: 5 }),
      plan: planOf(2),
      checkpointEvery: fc.integer({ min: 0, max: 4 }),
    },
    { requiredKeys: ["task", "plan"] },
  ),
  budget: fc.record({
    steps: fc.nat(40),
    depth: fc.nat(3),
    modelCalls: fc.nat(8),
    toolCalls: fc.nat(8),
    contextOps: fc.nat(8),
    retries: fc.oneof({ weight: 5, arbitrary: fc.nat(5) }, fc.constant(2 ** 52 + 2)),
    outputBytes: fc.nat(400),
    deadline: fc.nat(600),
  }),
});

/** Whether compact JSON of the header needs no escape (no quote, backslash or control character). */
function isPlainlyWritable(header: unknown): boolean {
  return !JSON.stringify(header).includes("\\");
}

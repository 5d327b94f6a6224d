/**
 * The kernel's own reading of a journal header (assembly/dag/header.ts) against the reference
 * reader, on both builds: the model it names and the DAG it carries — or, for anything but a
 * plain header, the same answer by handing the line to the reference. Whichever reads it, the
 * outcome (the model, the ids in their positions, the audit, or the error word for word) is the
 * reference's; and a plain header is read by the kernel, not handed over.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { KernelHeaderDag } from "../../bindings/dag/header-dag.js";
import { KernelHost } from "../../bindings/dag/kernel-host.js";
import { type KernelFlavour, loadEngine, type WasmEngine } from "../../bindings/index.js";
import { instantiateKernel } from "../../bindings/kernel.js";
import { chooseModel } from "../../src/journal/choose-model.js";
import { dagOfHeader } from "../../src/journal/dag/header.js";
import { readJsonlHeader, readJsonlHeaderModel } from "../../src/journal/jsonl.js";
import type { Dag } from "../../src/models/dag/dag.js";
import { referenceEngine } from "../../src/models/dag/engine.js";
import { dagArbitrary, dagWithRawLogArbitrary } from "../support/arbitraries.js";
import { encode } from "../support/bytes.js";
import { FLAVOURS } from "../support/engines.js";
import {
  encodeHeader,
  encodingStyleArbitrary,
  JsonWriter,
  PLAIN_STYLE,
} from "../support/jsonl-encoding.js";
import { asyncOutcomeOf, outcomeOf } from "../support/outcome.js";

const FILE = "header.jsonl";

interface Build {
  readonly flavour: KernelFlavour;
  readonly host: KernelHost;
  readonly engine: WasmEngine;
}

let builds: readonly Build[];
beforeAll(async () => {
  builds = await Promise.all(
    FLAVOURS.map(async (flavour) => ({
      flavour,
      host: new KernelHost(await instantiateKernel(undefined, flavour)),
      engine: await loadEngine({ flavour }),
    })),
  );
});

function idsOf(dag: Dag | KernelHeaderDag): string[] {
  if (!(dag instanceof KernelHeaderDag)) return dag.nodes.map((node) => node.id);
  return Array.from({ length: dag.nodeCount }, (_, position) => dag.idAt(position));
}

/** What the dag engine's host must make of a first line: the reference's DAG ids, or its error. */
function referenceIds(line: Uint8Array): string[] | null {
  const header = readJsonlHeader(line, FILE);
  if (header === null) return null;
  chooseModel(FILE, header.model, "dag", "the dag engine");
  return (dagOfHeader(header) as Dag).nodes.map((node) => node.id);
}

/** Reads `line` on a build: the model and the DAG, as outcomes, and whether the kernel read the DAG. */
function readOn(build: Build, line: Uint8Array) {
  const model = outcomeOf(() => build.host.headerModel(line, FILE));
  let kernelRead = false;
  const ids = outcomeOf(() => {
    const dag = build.host.headerDag(line, FILE);
    kernelRead = dag instanceof KernelHeaderDag;
    return dag === null ? null : idsOf(dag);
  });
  return { model, ids, kernelRead };
}

function expectReference(line: Uint8Array): { kernelReads: number } {
  let kernelReads = 0;
  for (const build of builds) {
    const read = readOn(build, line);
    expect(read.model, build.flavour).toEqual(outcomeOf(() => readJsonlHeaderModel(line, FILE)));
    expect(read.ids, build.flavour).toEqual(outcomeOf(() => referenceIds(line)));
    if (read.kernelRead) kernelReads += 1;
  }
  return { kernelReads };
}

const PLAIN =
  '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":[]},{"id":"B","deps":["A","A"]},{"id":"C","deps":["B","A"]}]}}';

/** Every printable ASCII character but the quote and the backslash: ids of one byte, written plain. */
const SHORT_IDS = Array.from({ length: 0x7f - 0x20 }, (_, k) =>
  String.fromCharCode(0x20 + k),
).filter((id) => id !== '"' && id !== "\\");

/** Plain headers, however laid out: the kernel reads each itself. */
const KERNEL_READ: Record<string, string> = {
  compact: PLAIN,
  "with the model named": PLAIN.replace('"version":1,', '"version":1,"model":"dag",'),
  "keys in another order":
    '{"dag":{"nodes":[{"deps":[],"id":"A"}]},"version":1,"statefold":"journal"}',
  "whitespace everywhere": ` \t{ "statefold" :\t"journal" , "version": 1 ,\r"dag": { "nodes" : [ { "id" : "A" , "deps" : [ ] } , {"id":"B","deps":[ "A" ]} ] } } \r`,
  "members the reader ignores, at every level":
    '{"statefold":"journal","created":{"at":[1,2.5e3,true,null,"x\\"y"]},"version":1,"dag":{"name":"w","nodes":[{"id":"A","label":"a \\u00e9","deps":[],"x":[[{}]]}],"nodes2":[]}}',
  "blanks before it on its line": ` \t\r${PLAIN}`,
  "a CRLF line end": `${PLAIN}\r`,
  "non-ASCII ids":
    '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"日本","deps":[]},{"id":"😀","deps":["日本"]}]}}',
  "a dependency on a later node":
    '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"B","deps":["A"]},{"id":"A","deps":[]}]}}',
  "no nodes": '{"statefold":"journal","version":1,"dag":{"nodes":[]}}',
  "an empty id":
    '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"","deps":[]},{"id":"x","deps":[""]}]}}',
  // The kernel sizes its walk's room by the fewest bytes a node and a dep name can take.
  "nodes as short as JSON writes them": `{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"","deps":[]},${SHORT_IDS.map(
    (id) => `{"id":"${id}","deps":[]}`,
  ).join(",")}]}}`,
  "dep names as short as JSON writes them": `{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"","deps":[]},{"id":"x","deps":[${Array(
    5000,
  )
    .fill('""')
    .join(",")}]}]}}`,
};

/** Everything else: the reference reads it (its verdict or its error), whatever the kernel makes of it. */
const HOST_READ: Record<string, string> = {
  "a version of 1.0": PLAIN.replace('"version":1', '"version":1.0'),
  "version 2": PLAIN.replace('"version":1', '"version":2'),
  "an escaped statefold value": PLAIN.replace('"journal"', '"journa\\u006c"'),
  "an escaped key": PLAIN.replace('"dag":', '"d\\u0061g":'),
  "an escaped nodes key": PLAIN.replace('"nodes":', '"node\\u0073":'),
  "an escaped id key": PLAIN.replace('"id":"A"', '"\\u0069d":"A"'),
  "an escaped id": PLAIN.replace('"id":"A"', '"id":"\\u0041"'),
  "an escaped dependency": PLAIN.replace('"deps":["A","A"]', '"deps":["\\u0041"]'),
  "a second dag key": PLAIN.replace("}]}}", '}]},"dag":{"nodes":[]}}'),
  "a second statefold key": PLAIN.replace('"version":1', '"statefold":"journal","version":1'),
  "a second nodes key": PLAIN.replace("}]}}", '}],"nodes":[]}}'),
  "a second id key": PLAIN.replace('{"id":"A","deps":[]}', '{"id":"A","id":"Z","deps":[]}'),
  "a second deps key": PLAIN.replace('{"id":"A","deps":[]}', '{"id":"A","deps":["B"],"deps":[]}'),
  "the operations model": '{"statefold":"journal","version":1,"model":"operations"}',
  "the executive model, without its spec":
    '{"statefold":"journal","version":1,"model":"executive"}',
  "an unknown model": PLAIN.replace('"version":1,', '"version":1,"model":"Dag",'),
  "no dag": '{"statefold":"journal","version":1}',
  "a dag that is an array": '{"statefold":"journal","version":1,"dag":[]}',
  "no nodes key": '{"statefold":"journal","version":1,"dag":{}}',
  "nodes that are an object": '{"statefold":"journal","version":1,"dag":{"nodes":{}}}',
  "a node that is a string": '{"statefold":"journal","version":1,"dag":{"nodes":["A"]}}',
  "an id that is a number":
    '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":1,"deps":[]}]}}',
  "no id": '{"statefold":"journal","version":1,"dag":{"nodes":[{"deps":[]}]}}',
  "no deps": '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A"}]}}',
  "deps that are a string":
    '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":"B"}]}}',
  "a dependency that is null":
    '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":[null]}]}}',
  "a duplicate id":
    '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":[]},{"id":"A","deps":[]}]}}',
  "a dangling dependency":
    '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":["Z"]}]}}',
  "a cycle":
    '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":["B"]},{"id":"B","deps":["A"]}]}}',
  "a node that depends on itself":
    '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":["A"]}]}}',
  "no statefold key (an event line)": '{"kind":"dispatched","id":"A"}',
  "an array": "[1,2]",
  "a trailing comma": PLAIN.replace("}]}}", "},]}}"),
  "cut short": PLAIN.slice(0, 60),
  "a control character in an id": PLAIN.replace('"id":"A"', '"id":"A\u0001"'),
};

const INVALID_UTF8: Record<string, number[]> = {
  "a lone continuation byte": [0x80],
  "an overlong slash": [0xc0, 0xaf],
  "an encoded surrogate": [0xed, 0xa0, 0x80],
  "a truncated sequence": [0xe6, 0x97],
};

function lineOf(text: string): Uint8Array {
  return encode(`${text}\n`);
}

describe("the kernel's header reader", () => {
  for (const [name, text] of Object.entries(KERNEL_READ)) {
    it(`reads a plain header itself, as the reference does: ${name}`, () => {
      expect(expectReference(lineOf(text)).kernelReads).toBe(builds.length);
    });
  }

  for (const [name, text] of Object.entries(HOST_READ)) {
    it(`leaves the rest to the reference reader, with its verdict or error: ${name}`, () => {
      expect(expectReference(lineOf(text)).kernelReads).toBe(0);
    });
  }

  for (const [name, bytes] of Object.entries(INVALID_UTF8)) {
    it(`refuses an id that is not UTF-8, as the reference does: ${name}`, () => {
      const [before, after] = PLAIN.split('"id":"A"') as [string, string];
      const line = new Uint8Array([
        ...encode(`${before}"id":"A`),
        ...bytes,
        ...encode(`"${after}\n`),
      ]);
      expect(expectReference(line).kernelReads).toBe(0);
    });
  }

  it("gives the reference's model and DAG for headers written every way, reading the plain ones itself", () => {
    let kernelReads = 0;
    let hostReads = 0;
    fc.assert(
      fc.property(dagArbitrary({ maxNodes: 20 }), encodingStyleArbitrary, (dag, style) => {
        const line = new Uint8Array([...encodeHeader(new JsonWriter(style), dag), 0x0a]);
        const { kernelReads: reads } = expectReference(line);
        kernelReads += reads;
        hostReads += builds.length - reads;
      }),
      { numRuns: 300 },
    );
    // Both ways are taken: the generated styles include plain headers, and escaped or duplicated
    // keys and ids that need escapes (a quote, a backslash, a control character).
    expect(kernelReads).toBeGreaterThan(30);
    expect(hostReads).toBeGreaterThan(100);
  });

  it("hands the kernel a DAG whose audits are the reference's (dependencies, duplicates in a deps list, any order)", async () => {
    let withoutEscapes = 0;
    await fc.assert(
      fc.asyncProperty(dagWithRawLogArbitrary({ maxNodes: 10 }), async ({ dag, events }) => {
        const header = encodeHeader(new JsonWriter(PLAIN_STYLE), dag);
        // A plain header without a backslash is one the kernel reads (the cases above).
        if (!header.includes(0x5c)) withoutEscapes += 1;
        const body = events.map((event) => `${JSON.stringify(event)}\n`).join("");
        const bytes = new Uint8Array([...header, 0x0a, ...encode(body)]);
        const expected = await asyncOutcomeOf(() =>
          referenceEngine.auditBytes(null, bytes, { file: FILE }),
        );
        for (const build of builds) {
          const audited = await asyncOutcomeOf(() =>
            build.engine.auditBytes(null, bytes, { file: FILE }),
          );
          expect(audited, build.flavour).toEqual(expected);
        }
      }),
      { numRuns: 150 },
    );
    expect(withoutEscapes).toBeGreaterThan(30);
  });

  it("builds the same DAG again after another DAG was loaded in between", async () => {
    const [build] = builds as [Build];
    const line = lineOf(PLAIN);
    const other = lineOf(KERNEL_READ["non-ASCII ids"] as string);
    const first = build.host.headerDag(line, FILE);
    build.host.headerDag(other, FILE);
    const again = build.host.headerDag(line, FILE);
    expect(again).toBeInstanceOf(KernelHeaderDag);
    expect(idsOf(again as KernelHeaderDag)).toEqual(idsOf(first as KernelHeaderDag));
    expect((again as KernelHeaderDag).dag().nodes.map((node) => node.deps)).toEqual([
      [],
      ["A", "A"],
      ["B", "A"],
    ]);
  });
});

describe("a campaign's journals over one header", () => {
  it("have their model read without dropping the DAG the kernel built for the last of them", async () => {
    const host = new KernelHost(await instantiateKernel(undefined, (builds[0] as Build).flavour));
    const line = lineOf(PLAIN);
    const built = host.headerDag(line, FILE);
    expect(built).toBeInstanceOf(KernelHeaderDag);
    // The next journal: its model is peeked, then its session asks for the DAG.
    expect(host.headerModel(line.slice(), FILE)).toBeNull();
    expect(host.headerDag(line.slice(), FILE)).toBe(built);
    // Another header in between is read by the kernel, and drops that DAG.
    const other = lineOf(KERNEL_READ["non-ASCII ids"] as string);
    expect(host.headerModel(other, FILE)).toBeNull();
    const rebuilt = host.headerDag(line, FILE);
    expect(rebuilt).not.toBe(built);
    expect(idsOf(rebuilt as KernelHeaderDag)).toEqual(idsOf(built as KernelHeaderDag));
  });
});

/**
 * The kernel against the floor of any JavaScript auditor, side by side in one run:
 *
 *   audit-jsonl-<size>    the WASM engine auditing the journal file streamed in 1 MiB chunks
 *   parse-only-<size>     readline + JSON.parse over the same file, no checks at all
 *   reference-<prefix>    the reference model on the journal's first events (it is O(nodes) per
 *                         event by design, so the 100k-node journal is out of its reach)
 *   fold-binary-<events>  the kernel folding pre-encoded records (the object API's path)
 *
 * Usage: npm run bench:kernel [-- --nodes 100000 --events 1000000]
 */
import { createReadStream, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { Bench } from "tinybench";
import { encodeEvents, foldEncoded } from "../bindings/fold-records.js";
import { loadEngine } from "../bindings/index.js";
import { instantiateKernel, supportsSimd } from "../bindings/kernel.js";
import { packDag } from "../bindings/pack-dag.js";
import { readJsonlJournal } from "../src/journal/jsonl.js";
import { audit } from "../src/model/audit.js";
import { campaignJournal } from "./journal-files.js";

const { values } = parseArgs({
  options: {
    nodes: { type: "string", default: "100000" },
    events: { type: "string", default: "1000000" },
    "reference-events": { type: "string", default: "2000" },
    time: { type: "string", default: "3000" },
  },
});
const nodes = Number(values.nodes);
const events = Number(values.events);
const referenceEvents = Number(values["reference-events"]);

const journal = await campaignJournal({ nodes, events, seed: 42 });
const megabytes = journal.bytes / 2 ** 20;
const parsed = readJsonlJournal(readFileSync(journal.path), journal.path);
const dag = parsed.dag;
if (dag === null) throw new Error("the generated journal has no header");
const eventCount = parsed.events.length;
const sizeName = `${Math.round(megabytes)}mb`;

const engine = await loadEngine();
const kernel = await instantiateKernel(undefined, supportsSimd() ? "simd" : "scalar");
if (!packDag(kernel, dag)) throw new Error("the DAG does not fit the kernel");
const encoded = encodeEvents(dag, parsed.events);
const referencePrefix = parsed.events.slice(0, referenceEvents);

const bench = new Bench({ time: Number(values.time), warmupTime: 500 });
bench
  .add(`audit-jsonl-${sizeName}`, async () => {
    const report = await engine.auditBytes(
      null,
      createReadStream(journal.path, { highWaterMark: 1 << 20 }),
    );
    if (!report.conformant) throw new Error("the generated journal must be conformant");
  })
  .add(`parse-only-${sizeName}`, async () => {
    const lines = createInterface({
      input: createReadStream(journal.path, { highWaterMark: 1 << 20 }),
      crlfDelay: Infinity,
    });
    for await (const line of lines) if (line.length > 0) JSON.parse(line);
  })
  .add(`reference-${referenceEvents}-events`, () => {
    audit(dag, referencePrefix);
  })
  .add(`fold-binary-${eventCount}`, () => {
    if (foldEncoded(kernel, encoded) !== 0) throw new Error("kernel limit");
  });
await bench.run();

const rows = bench.tasks.map((task) => {
  const result = task.result;
  if (result.state !== "completed") throw new Error(`${task.name}: ${result.state}`);
  const seconds = result.latency.mean / 1000;
  const isReference = task.name.startsWith("reference");
  const taskEvents = isReference ? referencePrefix.length : eventCount;
  const taskBytes = task.name.startsWith("fold-binary") || isReference ? Number.NaN : journal.bytes;
  return {
    task: task.name,
    "mean ms": result.latency.mean.toFixed(1),
    "±%": result.latency.rme.toFixed(1),
    "MB/s": Number.isNaN(taskBytes) ? "—" : (taskBytes / 2 ** 20 / seconds).toFixed(0),
    "M events/s": (taskEvents / seconds / 1e6).toFixed(2),
    samples: result.latency.samplesCount,
  };
});
console.log(
  `journal: ${journal.path} (${megabytes.toFixed(1)} MiB, ${eventCount} events, ${nodes} nodes); kernel: ${engine.flavour}; node ${process.version}`,
);
console.table(rows);
const eventsPerSecond = (name: string) =>
  Number(rows.find((row) => row.task.startsWith(name))?.["M events/s"]);
console.log(
  `audit-jsonl / parse-only: ${(eventsPerSecond("audit-jsonl") / eventsPerSecond("parse-only")).toFixed(2)}×`,
);
console.log(
  `audit-jsonl / reference: ${(eventsPerSecond("audit-jsonl") / eventsPerSecond("reference")).toFixed(0)}×`,
);

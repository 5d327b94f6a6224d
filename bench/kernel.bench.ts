/**
 * The kernel against the floor of any JavaScript auditor and against the reference, side by side
 * in one run (the machine is shared and noisy: compare ratios within a run, not across runs).
 *
 *   audit-jsonl-<size>      the WASM engine auditing the large journal, streamed from disk in
 *                           1 MiB chunks, header (100k-node DAG) included
 *   parse-only-<size>       readline + JSON.parse over the same file: no checks at all
 *   fold-binary-<events>    the kernel folding the same events pre-encoded as records (the object
 *                           API's path), every check on
 *   audit-jsonl-small       the WASM engine on a small journal (100-node DAG, 5000 events)
 *   reference-small         the reference model on the same small journal — it is O(nodes) per
 *                           event by design (obviously right, not fast), so the large journal is
 *                           out of its reach
 *
 * Back of the envelope: at 400 MB/s and ~150-byte lines the kernel has ~2.7 M lines/s, about
 * 1 µs (3000 cycles) per line; the fold itself is a few dozen instructions, so the byte scan is
 * the budget, which is why it is vectorised.
 *
 * Usage: npm run bench [-- --nodes 100000 --events 1000000 --time 3000]
 */
import { createReadStream, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { Bench } from "tinybench";
import { encodeEvents, foldEncoded } from "../bindings/fold-records.js";
import { loadEngine } from "../bindings/index.js";
import { instantiateKernel } from "../bindings/kernel.js";
import { packDag } from "../bindings/pack-dag.js";
import { referenceEngine } from "../src/engine.js";
import { readJsonlJournal } from "../src/journal/jsonl.js";
import { readFileChunks } from "../src/journal/read-file-bytes.js";
import { campaignJournal, type JournalFile } from "./journal-files.js";

const { values } = parseArgs({
  options: {
    nodes: { type: "string", default: "100000" },
    events: { type: "string", default: "1000000" },
    time: { type: "string", default: "3000" },
  },
});

const large = await campaignJournal({
  nodes: Number(values.nodes),
  events: Number(values.events),
  seed: 42,
});
const small = await campaignJournal({ nodes: 100, events: 5000, seed: 7 });
const largeParsed = readJsonlJournal(readFileSync(large.path), large.path);
const largeDag = largeParsed.dag;
if (largeDag === null) throw new Error("the generated journal has no header");
const largeEvents = largeParsed.events.length;
const smallBytes = readFileSync(small.path);
const smallEvents = readJsonlJournal(smallBytes, small.path).events.length;

const engine = await loadEngine();
const kernel = await instantiateKernel(undefined, engine.flavour);
if (!packDag(kernel, largeDag)) throw new Error("the DAG does not fit the kernel");
const encoded = encodeEvents(largeDag, largeParsed.events);

const mib = (file: JournalFile) => `${Math.round(file.bytes / 2 ** 20)}mb`;
interface Workload {
  readonly events: number;
  readonly bytes: number | null;
}
const workloads = new Map<string, Workload>();
const bench = new Bench({
  time: Number(values.time),
  iterations: 3,
  warmupTime: 0,
  warmupIterations: 1,
});
const add = (name: string, workload: Workload, run: () => Promise<unknown> | unknown) => {
  workloads.set(name, workload);
  bench.add(name, run);
};

add(`audit-jsonl-${mib(large)}`, { events: largeEvents, bytes: large.bytes }, async () => {
  const report = await engine.auditBytes(null, readFileChunks(large.path));
  if (!report.conformant) throw new Error("the generated journal must be conformant");
});
add(`parse-only-${mib(large)}`, { events: largeEvents, bytes: large.bytes }, async () => {
  const input = createReadStream(large.path, { highWaterMark: 1 << 20 });
  for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line.length > 0) JSON.parse(line);
  }
});
add(`fold-binary-${largeEvents}`, { events: largeEvents, bytes: null }, () => {
  if (foldEncoded(kernel, encoded) !== 0) throw new Error("kernel limit");
});
add("audit-jsonl-small", { events: smallEvents, bytes: small.bytes }, () =>
  engine.auditBytes(null, smallBytes),
);
add("reference-small", { events: smallEvents, bytes: small.bytes }, () =>
  referenceEngine.auditBytes(null, smallBytes),
);
await bench.run();

const rows = bench.tasks.map((task) => {
  const result = task.result;
  if (result.state !== "completed") throw new Error(`${task.name}: ${result.state}`);
  const workload = workloads.get(task.name) as Workload;
  const seconds = result.latency.mean / 1000;
  return {
    task: task.name,
    "mean ms": Number(result.latency.mean.toFixed(1)),
    "±%": Number(result.latency.rme.toFixed(1)),
    "MB/s": workload.bytes === null ? null : Math.round(workload.bytes / 2 ** 20 / seconds),
    "M events/s": Number((workload.events / seconds / 1e6).toFixed(2)),
    samples: result.latency.samplesCount,
  };
});
console.log(
  `large: ${large.path} (${(large.bytes / 2 ** 20).toFixed(1)} MiB, ${largeEvents} events, ${largeDag.nodes.length} nodes)`,
);
console.log(
  `small: ${small.path} (${(small.bytes / 2 ** 20).toFixed(1)} MiB, ${smallEvents} events, 1000 nodes)`,
);
console.log(`kernel: ${engine.flavour}; node ${process.version}`);
console.table(rows);
const rate = (prefix: string) =>
  rows.find((row) => row.task.startsWith(prefix))?.["M events/s"] ?? Number.NaN;
console.log(
  `audit-jsonl / parse-only (same file): ${(rate("audit-jsonl-") / rate("parse-only")).toFixed(1)}×`,
);
console.log(
  `audit-jsonl-small / reference-small (same file): ${(rate("audit-jsonl-small") / rate("reference-small")).toFixed(0)}×`,
);

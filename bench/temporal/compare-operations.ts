/**
 * `node dist/bench/temporal/compare-operations.js [ROUNDS]`: the table-driven data kernel against
 * the hand-written operations kernel on comparable records, interleaved in worker processes
 * (bench/measure.ts), by CPU time: the suite's operations journal of 10⁶ records (127 bytes each,
 * one in a thousand a fault; an op's intents, settlements and finish, a lookup or two and a state step per record)
 * beside a Temporal history of as many records carrying only what the model reads (~160 bytes
 * each; a step, a slot's put or check, a register, a counter, the sequence and the monotone
 * taskId), and the full history (~384 bytes a record) of about the operations journal's bytes.
 * Prints records/s and MB/s of each, and the data kernel's over the operations kernel's. Ratios
 * only, within one run.
 */
import { measureInterleaved, median } from "../measure.js";
import { SCALES, scaleJournal } from "../scales.js";
import { temporalJournalFile } from "./journals.js";

const rounds = Number(process.argv[2] ?? 7);
const operationsScale = SCALES.find((scale) => scale.name === "operations-1e6-records-8-strands");
if (operationsScale === undefined)
  throw new Error("the suite has no operations scale of 10⁶ records");
const operations = await scaleJournal(operationsScale);
const journals = [
  {
    label: "operations kernel, operations journal",
    engine: "operations-wasm-jsonl",
    ...operations,
    records: 1_000_000,
  },
  await temporalOf(1_000_000, true, "data kernel, lean Temporal history"),
  await temporalOf(330_000, false, "data kernel, full Temporal history"),
] as const;

async function temporalOf(events: number, lean: boolean, label: string) {
  const file = await temporalJournalFile({ events, seed: 42, form: "jsonl", lean });
  return { label, engine: "temporal-wasm", ...file, records: events } as const;
}

const measured = await measureInterleaved(
  journals.map(({ engine, path }) => ({ engine, path })),
  { warmupRounds: 1, rounds },
);
const figures = journals.map((journal, at) => {
  const cpuSeconds = median(measured[at]?.cpuSamplesMs ?? []) / 1000;
  return {
    ...journal,
    recordsPerSecond: journal.records / cpuSeconds,
    mbPerSecond: journal.bytes / 1e6 / cpuSeconds,
  };
});
const [reference] = figures;
for (const figure of figures) {
  console.log(
    `${figure.label.padEnd(40)} ${(figure.bytes / figure.records).toFixed(0).padStart(4)} B/record  ${(figure.recordsPerSecond / 1e6).toFixed(2)} M records/s  ${figure.mbPerSecond.toFixed(0)} MB/s (CPU time, median of ${rounds})  ×${(figure.recordsPerSecond / (reference?.recordsPerSecond ?? 1)).toFixed(2)} records/s, ×${(figure.mbPerSecond / (reference?.mbPerSecond ?? 1)).toFixed(2)} MB/s of the operations kernel's`,
  );
}

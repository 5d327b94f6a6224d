/**
 * `npm run bench:kernel-ab -- [--model M] BEFORE.wasm AFTER.wasm JOURNAL`: two builds of one
 * model's kernel (by default the model the journal's header names), side by side in one
 * process, on one journal — the measurement a kernel change needs before it is kept. This
 * machine's per-run times swing by a third from minute to minute; two builds run in turn see the
 * same weather, so their ratio holds still where their times do not (bench/compare-kernels.ts).
 * The journal is held in memory and fed in 1 MiB chunks, as the CLI feeds a file.
 *
 * Prints each build's MB/s of CPU time, the median of the per-round ratios and their spread,
 * and whether the two builds' reports are deep-equal; exits 1 when they are not, since a faster
 * kernel that changes a verdict is a bug.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { readJsonlHeaderModel } from "../src/journal/jsonl.js";
import {
  DEFAULT_MODEL,
  isProgramModelName,
  modelNamed,
  PROGRAM_MODEL_NAMES,
  type ProgramModelName,
  programModelName,
} from "../src/models/registry.js";
import { compareKernels, type KernelAudit } from "./compare-kernels.js";

const CHUNK_BYTES = 1 << 20;

/** A build of the model's kernel, auditing a journal fed in chunks as the CLI feeds a file. */
async function load(model: ProgramModelName, wasm: Uint8Array<ArrayBuffer>): Promise<KernelAudit> {
  const engine = await modelNamed(model).kernel({ wasm });
  return (bytes) => engine.auditBytes(chunked(bytes));
}

function* chunked(bytes: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
    yield bytes.subarray(at, Math.min(bytes.length, at + CHUNK_BYTES));
  }
}

/** The model the journal's header names, or the default one for a journal that names none. */
function headerModelOf(journal: Uint8Array, file: string): ProgramModelName {
  const end = journal.indexOf(0x0a);
  const firstLine = journal.subarray(0, end < 0 ? journal.length : end);
  const named = readJsonlHeaderModel(firstLine, file);
  return named === null ? DEFAULT_MODEL : programModelName(named, "bench:kernel-ab");
}

function usage(): never {
  console.error(
    `usage: npm run bench:kernel-ab -- [--model ${PROGRAM_MODEL_NAMES.join("|")}] [--rounds N] BEFORE.wasm AFTER.wasm JOURNAL`,
  );
  process.exit(2);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    model: { type: "string" },
    rounds: { type: "string", default: "8" },
  },
});
const [beforeFile, afterFile, journalFile] = positionals;
const rounds = Number(values.rounds);
const given = values.model;
if (given !== undefined && !isProgramModelName(given)) usage();
if (journalFile === undefined || !Number.isSafeInteger(rounds) || rounds < 1) usage();
const journal = readFileSync(journalFile);
// Without --model, the model the journal's header names (docs/journals.md, "The header").
const model = given ?? headerModelOf(journal, journalFile);
const [beforeAudit, afterAudit] = [
  await load(model, new Uint8Array(readFileSync(beforeFile as string))),
  await load(model, new Uint8Array(readFileSync(afterFile as string))),
];
const comparison = await compareKernels(beforeAudit, afterAudit, journal, rounds);
const megabytes = journal.length / 1e6;
for (const [index, file] of [beforeFile, afterFile].entries()) {
  const seconds = comparison.medianSeconds[index] as number;
  console.log(`${(megabytes / seconds).toFixed(1).padStart(8)} MB/s of CPU time  ${file}`);
}
const spread = `${Math.min(...comparison.ratios).toFixed(2)}–${Math.max(...comparison.ratios).toFixed(2)}`;
console.log(
  `after / before: ${comparison.speedup.toFixed(3)}× as fast (per-round ${spread}, ${rounds} rounds)`,
);
console.log(
  comparison.sameReport
    ? "reports: deep-equal"
    : "reports: DIFFERENT — the builds disagree on this journal",
);
process.exitCode = comparison.sameReport ? 0 : 1;

/**
 * `npm run bench:kernel-ab -- --model M BEFORE.wasm AFTER.wasm JOURNAL`: two builds of one
 * model's kernel, side by side in one process, on one journal — the measurement a kernel change
 * needs before it is kept. This machine's per-run times swing by a third from minute to minute;
 * two builds run in turn, the order alternating each round, see the same weather, so their
 * ratio holds still where their times do not.
 *
 * Each run is a whole audit of the journal (held in memory, fed in 1 MiB chunks as the CLI feeds
 * a file) by an engine of its own build, loaded once, so its memory is grown by the warmup and
 * every timed run measures the kernel, not the first touch of fresh pages. Times are CPU time
 * of the process (the audit is single-threaded). Prints each build's MB/s, the median of the
 * per-round ratios and their spread, and whether the two builds' reports are deep-equal; exits 1
 * when they are not, since a faster kernel that changes a verdict is a bug.
 */

import { readFileSync } from "node:fs";
import { isDeepStrictEqual, parseArgs } from "node:util";
import { loadEngine } from "../bindings/engine.js";
import { loadExecutiveEngine } from "../bindings/executive/engine.js";
import { loadOperationsEngine } from "../bindings/operations/engine.js";
import { median } from "./measure.js";

const CHUNK_BYTES = 1 << 20;

type Audit = (bytes: Uint8Array) => Promise<unknown>;

const LOADERS: Readonly<Record<string, (wasm: Uint8Array<ArrayBuffer>) => Promise<Audit>>> = {
  dag: async (wasm) => {
    const engine = await loadEngine({ wasm });
    return (bytes) => engine.auditBytes(null, chunked(bytes));
  },
  operations: async (wasm) => {
    const engine = await loadOperationsEngine({ wasm });
    return (bytes) => engine.auditBytes(chunked(bytes));
  },
  executive: async (wasm) => {
    const engine = await loadExecutiveEngine({ wasm });
    return (bytes) => engine.auditBytes(chunked(bytes));
  },
};

function* chunked(bytes: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
    yield bytes.subarray(at, Math.min(bytes.length, at + CHUNK_BYTES));
  }
}

async function cpuSeconds(
  audit: Audit,
  bytes: Uint8Array,
): Promise<{ seconds: number; report: unknown }> {
  const before = process.cpuUsage();
  const report = await audit(bytes);
  const used = process.cpuUsage(before);
  return { seconds: (used.user + used.system) / 1e6, report };
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    model: { type: "string", default: "operations" },
    rounds: { type: "string", default: "8" },
  },
});
const load = LOADERS[values.model];
const [beforeFile, afterFile, journalFile] = positionals;
const rounds = Number(values.rounds);
if (
  load === undefined ||
  journalFile === undefined ||
  !Number.isSafeInteger(rounds) ||
  rounds < 1
) {
  console.error(
    "usage: npm run bench:kernel-ab -- [--model dag|operations|executive] [--rounds N] BEFORE.wasm AFTER.wasm JOURNAL",
  );
  process.exit(2);
}
const journal = readFileSync(journalFile);
const builds: { name: string; audit: Audit; seconds: number[] }[] = [];
for (const file of [beforeFile, afterFile] as string[]) {
  builds.push({ name: file, audit: await load(new Uint8Array(readFileSync(file))), seconds: [] });
}
// The warmup run of each build grows its memory and gives the report the two must agree on.
const reports: unknown[] = [];
for (const build of builds) reports.push((await cpuSeconds(build.audit, journal)).report);
for (let round = 0; round < rounds; round++) {
  for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
    build.seconds.push((await cpuSeconds(build.audit, journal)).seconds);
  }
}
const [before, after] = builds as [(typeof builds)[0], (typeof builds)[0]];
const ratios = before.seconds.map((seconds, round) => seconds / (after.seconds[round] as number));
const megabytes = journal.length / 1e6;
for (const build of builds) {
  console.log(
    `${(megabytes / median(build.seconds)).toFixed(1).padStart(8)} MB/s of CPU time  ${build.name}`,
  );
}
console.log(
  `after / before: ${median(ratios).toFixed(3)}× as fast (per-round ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}, ${rounds} rounds)`,
);
const same = isDeepStrictEqual(reports[0], reports[1]);
console.log(
  same ? "reports: deep-equal" : "reports: DIFFERENT — the builds disagree on this journal",
);
process.exitCode = same ? 0 : 1;

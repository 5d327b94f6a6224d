/**
 * `npm run bench:check`: the short benchmark CI runs. In one run, interleaved (bench/measure.ts),
 * the WASM engine on JSONL must do a journal's work in at most half the plain-JS auditor's CPU
 * time and at most a 3.5th of the parse-only floor's. Ratios only, never absolute times: each round (one run of each engine, back
 * to back) gives a ratio of times measured in the same weather, and the verdict is the median of
 * those per-round ratios.
 *
 * The ratios are of CPU time (every thread of each engine's process), not wall time. Wall time
 * rewards whatever runs on a second core — the kernel's read-ahead, the collector's helper
 * threads — so a neighbour taking that core moved the wall ratio from 8.5× to 4.5×, and CI
 * failed on a busy machine. CPU time is the work each engine does, which a neighbour barely
 * changes. Wall-time ratios are printed beside them. Exits 1 when a ratio misses.
 */
import { statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { loadEngine } from "../bindings/index.js";
import { readFileChunks } from "../src/journal/read-file-bytes.js";
import { ENGINES, type EngineName } from "./engines.js";
import { campaignJournal } from "./journal-files.js";
import { measureInterleaved, median } from "./measure.js";
import { CHECK_SCALE } from "./scales.js";
import { verifyFindings } from "./verify.js";

/**
 * The kernel must beat the floor of any JavaScript auditor by this much on JSONL, in CPU time.
 * Measured on 2026-12-01: 4.79×, 4.95× and 4.88× (per-round 3.5–7.5×), on a quiet machine and
 * with `yes > /dev/null` on the other core alike; 3.5× leaves a quarter of room.
 */
const PARSE_ONLY_RATIO_MIN = 3.5;
/** ... and the best plain-JavaScript auditor by half again: measured 3.38–3.51×, idle or loaded. */
const JS_AUDITOR_RATIO_MIN = 2;

await refuseStaleKernel();
const journal = await campaignJournal(CHECK_SCALE.campaign);
const engines: EngineName[] = ["wasm-jsonl", "js-auditor", "parse-only"];
const measurements = await measureInterleaved(
  engines.map((engine) => ({ engine, path: journal.path })),
  CHECK_SCALE,
);
const expected = await (await loadEngine()).auditBytes(null, readFileChunks(journal.path));
verifyFindings(
  CHECK_SCALE.name,
  measurements.map((m) => ({
    engine: m.job.engine,
    finding: m.finding,
    expected,
    events: CHECK_SCALE.campaign.events,
  })),
);

const measurementOf = (engine: EngineName) => measurements.find((m) => m.job.engine === engine);
const cpuSamplesOf = (engine: EngineName) => measurementOf(engine)?.cpuSamplesMs ?? [];
const wallSamplesOf = (engine: EngineName) => measurementOf(engine)?.samplesMs ?? [];
const p50 = (engine: EngineName) =>
  measurements.find((m) => m.job.engine === engine)?.p50Ms ?? Number.NaN;
console.log(
  `bench:check on ${CHECK_SCALE.name} (${(journal.bytes / 1e6).toFixed(1)} MB), ${CHECK_SCALE.rounds} interleaved rounds after ${CHECK_SCALE.warmupRounds} warmup:`,
);
for (const engine of engines) {
  const ms = p50(engine);
  const mbPerSecond = journal.bytes / 1e6 / (ms / 1000);
  const cpuMs = median(cpuSamplesOf(engine));
  console.log(
    `  ${ENGINES[engine].label.padEnd(20)} p50 ${ms.toFixed(1)} ms wall (${mbPerSecond.toFixed(1)} MB/s), ${cpuMs.toFixed(1)} ms CPU`,
  );
}
const checks = [
  { against: "js-auditor", min: JS_AUDITOR_RATIO_MIN },
  { against: "parse-only", min: PARSE_ONLY_RATIO_MIN },
] as const;
let failed = false;
for (const { against, min } of checks) {
  const cpu = roundRatios(cpuSamplesOf(against), cpuSamplesOf("wasm-jsonl"));
  const wall = roundRatios(wallSamplesOf(against), wallSamplesOf("wasm-jsonl"));
  const ratio = median(cpu);
  const ok = ratio >= min;
  failed ||= !ok;
  console.log(
    `  ${ok ? "ok  " : "FAIL"} WASM engine / ${ENGINES[against].label}: ${ratio.toFixed(2)}× CPU time (at least ${min}×; per-round ${spreadOf(cpu)}); wall time ${median(wall).toFixed(2)}× (per-round ${spreadOf(wall)})`,
  );
}
process.exitCode = failed ? 1 : 0;

/** Per round, the other engine's time over the WASM engine's. */
function roundRatios(other: readonly number[], wasm: readonly number[]): number[] {
  return other.map((ms, round) => ms / (wasm[round] as number));
}

function spreadOf(ratios: readonly number[]): string {
  return `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
}

/** A kernel older than its sources would measure the wrong code: build it first. */
async function refuseStaleKernel(): Promise<void> {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const sources = (await readdir(`${root}assembly`, { recursive: true })).filter((name) =>
    name.endsWith(".ts"),
  );
  const newestSource = Math.max(
    ...sources.map((name) => statSync(`${root}assembly/${name}`).mtimeMs),
  );
  for (const build of ["build/statefold.wasm", "build/statefold.simd.wasm"]) {
    if (statSync(`${root}${build}`).mtimeMs < newestSource) {
      throw new Error(`${build} is older than assembly/: run npm run build:wasm first`);
    }
  }
}

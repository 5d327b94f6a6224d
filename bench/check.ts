/**
 * `npm run bench:check`: the short benchmark CI runs. In one run, interleaved (bench/measure.ts),
 * the WASM engine on JSONL must be faster than the plain-JS auditor and at least 6× the
 * parse-only floor. Ratios only, never absolute times: the machine is shared and its speed varies
 * from minute to minute, so each round (one run of each engine, back to back) gives a ratio of
 * times measured in the same weather, and the verdict is the median of those per-round ratios.
 * Exits 1 when a ratio misses, after printing every figure.
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

/** The kernel must beat the floor of any JavaScript auditor by this much on JSONL. */
const PARSE_ONLY_RATIO_MIN = 6;
/** ... and the best plain-JavaScript auditor by any margin. */
const JS_AUDITOR_RATIO_MIN = 1;

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

const samplesOf = (engine: EngineName) =>
  measurements.find((m) => m.job.engine === engine)?.samplesMs ?? [];
const p50 = (engine: EngineName) =>
  measurements.find((m) => m.job.engine === engine)?.p50Ms ?? Number.NaN;
console.log(
  `bench:check on ${CHECK_SCALE.name} (${(journal.bytes / 1e6).toFixed(1)} MB), ${CHECK_SCALE.rounds} interleaved rounds after ${CHECK_SCALE.warmupRounds} warmup:`,
);
for (const engine of engines) {
  const ms = p50(engine);
  const mbPerSecond = journal.bytes / 1e6 / (ms / 1000);
  console.log(
    `  ${ENGINES[engine].label.padEnd(20)} p50 ${ms.toFixed(1)} ms  ${mbPerSecond.toFixed(1)} MB/s`,
  );
}
const checks = [
  { against: "js-auditor", min: JS_AUDITOR_RATIO_MIN },
  { against: "parse-only", min: PARSE_ONLY_RATIO_MIN },
] as const;
let failed = false;
for (const { against, min } of checks) {
  const wasm = samplesOf("wasm-jsonl");
  const ratios = samplesOf(against).map((ms, round) => ms / (wasm[round] as number));
  const ratio = median(ratios);
  const ok = ratio >= min;
  failed ||= !ok;
  const spread = `per-round ratios ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
  console.log(
    `  ${ok ? "ok  " : "FAIL"} WASM engine / ${ENGINES[against].label}: ${ratio.toFixed(2)}× (at least ${min}×; ${spread}; ratio of medians ${(p50(against) / p50("wasm-jsonl")).toFixed(2)}×)`,
  );
}
process.exitCode = failed ? 1 : 0;

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

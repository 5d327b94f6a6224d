/**
 * `npm run bench:check`: the short benchmark CI runs. For every model, in one run, interleaved
 * (bench/measure.ts), its WASM engine on JSONL must do its check journal's work in at most a
 * fraction of the CPU time of each engine its gates name (bench/<model>/gates.ts): for the dag a
 * 2.7th of the plain-JS auditor's and a 3.5th of the parse-only floor's, for the others a
 * fraction of the parse-only floor's; the data kernel so on a JSON document too. Ratios only, never absolute times: each round (one run of
 * each engine, back to back) gives a ratio of times measured in the same weather, and the verdict
 * is the median of those per-round ratios.
 *
 * The ratios are of CPU time (every thread of each engine's process), not wall time. Wall time
 * rewards whatever runs on a second core — the kernel's read-ahead, the collector's helper
 * threads — so a neighbour taking that core moved the wall ratio from 8.5× to 4.5×, and CI
 * failed on a busy machine. CPU time is the work each engine does, which a neighbour barely
 * changes. Wall-time ratios are printed beside them. Exits 1 when a ratio misses.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Gate } from "./bench-model.js";
import { ENGINES, type EngineName, WASM_JSONL_ENGINES } from "./engines.js";
import { type Measurement, measureInterleaved, median } from "./measure.js";
import { BENCH_MODELS, BENCHED_MODELS } from "./models.js";
import { eventsOf, type Scale, scaleJournal } from "./scales.js";
import { expectedReport, verifyFindings } from "./verify.js";

/** Each model's journal measured on its own, its WASM engine against the engines of its gates. */
const CHECKS: readonly { readonly scale: Scale; readonly gates: readonly Gate<EngineName>[] }[] =
  BENCHED_MODELS.flatMap((model) => [
    BENCH_MODELS[model].check,
    ...(BENCH_MODELS[model].moreChecks ?? []),
  ]);

await refuseStaleKernels();
let failed = false;
for (const { scale, gates } of CHECKS) failed = !(await check(scale, gates)) || failed;
process.exitCode = failed ? 1 : 0;

/** Measures the scale's journal, prints the figures and each gate's verdict; true when all hold. */
async function check(scale: Scale, gates: readonly Gate<EngineName>[]): Promise<boolean> {
  const journal = await scaleJournal(scale);
  const wasm = WASM_JSONL_ENGINES[scale.model];
  const engines: EngineName[] = [wasm, ...gates.map((gate) => gate.against)];
  const measurements = await measureInterleaved(
    engines.map((engine) => ({ engine, path: journal.path })),
    scale,
  );
  const expected = await expectedReport(scale.model, journal.path);
  verifyFindings(
    scale.name,
    measurements.map((m) => ({
      engine: m.job.engine,
      finding: m.finding,
      expected,
      events: eventsOf(scale),
    })),
  );

  const measurementOf = (engine: EngineName) =>
    measurements.find((m) => m.job.engine === engine) as Measurement;
  console.log(
    `bench:check on ${scale.name} (${(journal.bytes / 1e6).toFixed(1)} MB), ${scale.rounds} interleaved rounds after ${scale.warmupRounds} warmup:`,
  );
  for (const engine of engines) {
    const { p50Ms, cpuSamplesMs } = measurementOf(engine);
    const mbPerSecond = journal.bytes / 1e6 / (p50Ms / 1000);
    const cpuMs = median(cpuSamplesMs);
    console.log(
      `  ${ENGINES[engine].label.padEnd(30)} p50 ${p50Ms.toFixed(1)} ms wall (${mbPerSecond.toFixed(1)} MB/s), ${cpuMs.toFixed(1)} ms CPU`,
    );
  }
  let ok = true;
  for (const { against, min } of gates) {
    const cpu = roundRatios(measurementOf(against).cpuSamplesMs, measurementOf(wasm).cpuSamplesMs);
    const wall = roundRatios(measurementOf(against).samplesMs, measurementOf(wasm).samplesMs);
    const ratio = median(cpu);
    const holds = ratio >= min;
    ok &&= holds;
    console.log(
      `  ${holds ? "ok  " : "FAIL"} ${ENGINES[wasm].label} / ${ENGINES[against].label}: ${ratio.toFixed(2)}× CPU time (at least ${min}×; per-round ${spreadOf(cpu)}); wall time ${median(wall).toFixed(2)}× (per-round ${spreadOf(wall)})`,
    );
  }
  return ok;
}

/** Per round, the other engine's time over the WASM engine's. */
function roundRatios(other: readonly number[], wasm: readonly number[]): number[] {
  return other.map((ms, round) => ms / (wasm[round] as number));
}

function spreadOf(ratios: readonly number[]): string {
  return `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
}

/** A kernel older than its sources would measure the wrong code: build them first. */
async function refuseStaleKernels(): Promise<void> {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const sources = (await readdir(`${root}assembly`, { recursive: true })).filter((name) =>
    name.endsWith(".ts"),
  );
  const newestSource = Math.max(
    ...sources.map((name) => statSync(`${root}assembly/${name}`).mtimeMs),
  );
  for (const build of kernelBuilds(root)) {
    if (statSync(`${root}${build}`).mtimeMs < newestSource) {
      throw new Error(`${build} is older than assembly/: run npm run build:wasm first`);
    }
  }
}

/** Every kernel the build writes: each target's `outFile` in every asconfig*.json. */
function kernelBuilds(root: string): string[] {
  const configs = readdirSync(root).filter((name) => /^asconfig.*\.json$/.test(name));
  return configs.flatMap((config) => {
    const { targets } = JSON.parse(readFileSync(`${root}${config}`, "utf8")) as {
      readonly targets: Readonly<Record<string, { readonly outFile: string }>>;
    };
    return Object.values(targets).map((target) => target.outFile);
  });
}

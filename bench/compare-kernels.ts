/**
 * Two builds of a kernel compared on one journal (bench/kernel-ab.ts is its command): each
 * audits it once to warm up — growing its memory, so that the timed runs measure the kernel and
 * not the first touch of fresh pages — and to give the report the two must agree on; then they
 * take turns, the order alternating each round, so that both see the same weather. Times are
 * the process's CPU time (an audit is single-threaded).
 */
import { isDeepStrictEqual } from "node:util";
import { median } from "./measure.js";

/** One build's whole audit of a journal, to its report. */
export type KernelAudit = (journal: Uint8Array) => Promise<unknown>;

export interface KernelComparison {
  /** Each build's median run, in CPU seconds: before, after. */
  readonly medianSeconds: readonly [number, number];
  /** before / after of each round: how many times as fast the second build was. */
  readonly ratios: readonly number[];
  /** The median of `ratios`. */
  readonly speedup: number;
  /** Whether the two builds' reports are deep-equal. */
  readonly sameReport: boolean;
}

export async function compareKernels(
  before: KernelAudit,
  after: KernelAudit,
  journal: Uint8Array,
  rounds: number,
): Promise<KernelComparison> {
  const builds = [before, after].map((audit) => ({ audit, seconds: [] as number[] }));
  const [first, second] = builds as [(typeof builds)[0], (typeof builds)[0]];
  const reports: unknown[] = [];
  for (const { audit } of builds) reports.push((await cpuSeconds(audit, journal)).report);
  for (let round = 0; round < rounds; round++) {
    for (const build of round % 2 === 0 ? [first, second] : [second, first]) {
      build.seconds.push((await cpuSeconds(build.audit, journal)).seconds);
    }
  }
  const ratios = first.seconds.map(
    (beforeSeconds, round) => beforeSeconds / (second.seconds[round] as number),
  );
  return {
    medianSeconds: [median(first.seconds), median(second.seconds)],
    ratios,
    speedup: median(ratios),
    sameReport: isDeepStrictEqual(reports[0], reports[1]),
  };
}

async function cpuSeconds(
  audit: KernelAudit,
  journal: Uint8Array,
): Promise<{ seconds: number; report: unknown }> {
  const started = process.cpuUsage();
  const report = await audit(journal);
  const used = process.cpuUsage(started);
  return { seconds: (used.user + used.system) / 1e6, report };
}

/**
 * The ratios `npm run bench:check` (bench/check.ts) holds the executive model's WASM engine
 * to, in CPU time, each set a fifth to a quarter below the lowest of its measured runs — on a
 * quiet machine and with `yes > /dev/null` on the other core (README, "Benchmarks", has the
 * table) — so that neither a neighbour nor a run's own spread fails CI, and a real regression
 * does.
 */

/**
 * The executive engine against the parse-only floor on an executive journal. Measured on
 * 2026-12-03 16:21 UTC, after the kernel came to read a plain header's spec itself and the
 * framing to drop the header's bytes: 1.45–1.48× idle (4 runs) and 1.44–1.48× loaded (4 runs;
 * per-round 1.16–1.80×); 1.1× is a quarter below the lowest. It was 0.45×, from 0.62–0.79× the
 * day before, when the host parsed, checked and packed the header's spec of ~75 000 steps
 * (2.7 MB of the journal's 16 MB) before the first of its 10⁵ lines. Now the lines' scan is most
 * of the time; to be raised as it gets faster.
 */
export const EXECUTIVE_PARSE_ONLY_RATIO_MIN = 1.1;

/**
 * The ratios `npm run bench:check` (bench/check.ts) holds the WASM engines to, in CPU time, each
 * set a fifth to a quarter below the lowest of twenty runs — ten on a quiet machine, ten with
 * `yes > /dev/null` on the other core (2026-12-02; README, "Benchmarks", has the table) — so that
 * neither a neighbour nor a run's own spread fails CI, and a real regression does.
 */

/**
 * The kernel must beat the floor of any JavaScript auditor by this much on JSONL, in CPU time.
 * Measured 5.01–6.17× idle and 4.93–5.30× loaded (per-round 3.2–8.5×); 3.5× is 29% below the
 * lowest (on 2026-12-01: 4.79–4.95×).
 */
export const PARSE_ONLY_RATIO_MIN = 3.5;
/**
 * ... and the best plain-JavaScript auditor: measured 3.57–4.19× idle and 3.56–3.95× loaded
 * (on 2026-12-01: 3.38–3.51×); 2.7× is a quarter below the lowest. It was 2× before these runs.
 */
export const JS_AUDITOR_RATIO_MIN = 2.7;
/**
 * The operations kernel against the parse-only floor on an operations journal (whose nested
 * records `JSON.parse` reads at only ~90 MB/s, against ~130 MB/s for the dag's lines).
 * Measured on 2026-12-03 15:00 UTC, after that afternoon's kernel changes (1.10× faster):
 * 3.28–3.33× on a quiet machine (3 runs) and 3.31–3.34× with `yes > /dev/null` on the other core
 * (3 runs; per-round 2.97–3.88×); 2.6× is a fifth below the lowest. It was 2.2×, from 2.94–3.07×
 * that morning, and 1.8× before. Far below the dag kernel's 4.4×: it guards today's operations
 * kernel against regressions, and is to be raised as the kernel gets faster.
 */
export const OPERATIONS_PARSE_ONLY_RATIO_MIN = 2.6;

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

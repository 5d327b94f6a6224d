/**
 * The ratios `npm run bench:check` (bench/check.ts) holds the WASM engines to, in CPU time, each
 * set about a quarter below what it measured (BENCHMARKS.md's summaries quote them).
 */

/**
 * The kernel must beat the floor of any JavaScript auditor by this much on JSONL, in CPU time.
 * Measured on 2026-12-01: 4.79×, 4.95× and 4.88× (per-round 3.5–7.5×), on a quiet machine and
 * with `yes > /dev/null` on the other core alike; 3.5× leaves a quarter of room.
 */
export const PARSE_ONLY_RATIO_MIN = 3.5;
/** ... and the best plain-JavaScript auditor by half again: measured 3.38–3.51×, idle or loaded. */
export const JS_AUDITOR_RATIO_MIN = 2;
/**
 * The operations kernel against the parse-only floor on an operations journal (whose nested
 * records `JSON.parse` reads at only ~33–38 MB/s here, against ~50 MB/s for the dag's lines).
 * Measured on 2026-12-01 (the kernel of 4625b89, ~80 MB/s of CPU time): 2.55×, 2.44× and 2.49×
 * on a quiet machine, 2.52× with `yes > /dev/null` on the other core (per-round 1.67–4.64×);
 * 1.8× is about three quarters of the lowest. Far below the dag kernel's 4.4–4.6×: it guards
 * today's operations kernel against regressions, and is to be raised as the kernel gets faster.
 */
export const OPERATIONS_PARSE_ONLY_RATIO_MIN = 1.8;

/**
 * The executive engine against the parse-only floor on an executive journal. Measured on
 * 2026-12-02: 0.43× (per-round 0.33–0.58×) — the engine is slower than parsing, because the
 * generated journal's header holds a spec of ~75 000 steps (2.7 MB of its 16 MB) and the host
 * reads it with the reference's defensive reader (every field through its property descriptor,
 * every plan through makeDag) before packing it: ~70% of the run, against ~40 ms for the 10⁵
 * lines in the kernel. A guard against regressions, to be raised when the spec is read where it
 * costs least (in the kernel, as the lines are).
 */
export const EXECUTIVE_PARSE_ONLY_RATIO_MIN = 0.3;

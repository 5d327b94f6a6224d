/**
 * The ratios `npm run bench:check` (bench/check.ts) holds the dag model's WASM engine to, in CPU
 * time, each set a fifth to a quarter below the lowest of its measured runs — on a quiet machine
 * and with `yes > /dev/null` on the other core (README, "Benchmarks", has the table) — so that
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

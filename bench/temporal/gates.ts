/**
 * The ratio `npm run bench:check` (bench/check.ts) holds the data kernel to on a Temporal history
 * of JSONL, in CPU time, set below the lowest of its measured runs — on a busy machine and with
 * `yes > /dev/null` on the other core — so that neither a neighbour nor a run's own spread fails
 * CI, and a real regression does.
 */

/** The data kernel against the parse-only floor on bench:check's Temporal history (./scales.ts). */
export const TEMPORAL_PARSE_ONLY_RATIO_MIN = 3;

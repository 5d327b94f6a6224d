/**
 * The ratio `npm run bench:check` (bench/check.ts) holds the data kernel to on a Temporal history
 * of JSONL, in CPU time, set a quarter below the lowest of its measured runs — on a busy machine
 * (load 3–5 from other processes) and with `yes > /dev/null` on the other core besides
 * (docs/performance.md, "The speed gate in CI", has the table) — so that neither a neighbour nor a
 * run's own spread fails CI, and a real regression does.
 */

/**
 * The data kernel with the shipped temporal model against the parse-only floor on bench:check's
 * Temporal history (./scales.ts: 50 000 events, 19 MB of JSONL). Measured on 2026-12-06
 * 09:10 UTC: 7.11–7.83× busy (5 runs of 30 rounds, one of them `node dist/bench/check.js`) and
 * 7.78–8.20× with `yes > /dev/null` on the other core (3 runs; per-round 5.21–9.63×); 5.5× is a
 * quarter below the lowest. The issue's
 * target is 3×; the gate guards what the kernel does today.
 */
export const TEMPORAL_PARSE_ONLY_RATIO_MIN = 5.5;

/**
 * The same on the history as a `{"events": [...]}` document (./scales.ts), which the kernel
 * walks and validates itself (assembly/data/document.ts). Set from the gigabyte document on
 * 2026-12-06 11:00–11:25 UTC, machine load 9–14: 9.61× and 7.40× of parse-only in CPU time
 * (`node dist/bench/suite.js --scales temporal-1gb-document`, two runs), where the host's reader
 * it replaced gave 1.93× and 2.23×. 4× is well below the one and well above the other: a
 * neighbour does not fail CI, a return to reading documents in JavaScript does.
 */
export const TEMPORAL_DOCUMENT_PARSE_ONLY_RATIO_MIN = 4;

#!/usr/bin/env bash
# Must show (issue 4): a multi-gigabyte journal audited through the standard input in constant
# memory. `statefold gen` writes a campaign of 17.5 M events (about 2.26 GB), one event naming
# a node that is not in the DAG is appended, and `statefold audit -` reads it all from a pipe.
# Fails (exit 1) unless at least 2 GiB went through, the audit's peak RSS — the whole process,
# as the kernel counts it (process.resourceUsage().maxRSS, via scripts/print-max-rss.cjs) — is
# below 150 MB, and the verdict is exactly right: every event counted, the campaign strictly
# conformant up to the appended event, and that event the integrity error, at its line.
#
# Builds first what is missing or stale (scripts/build-if-stale.mjs). About a minute on a 2-core
# machine; CI runs it after npm test.
# STDIN_GB_EVENTS=20000 makes a quick run of the same pipeline (which then fails the size check).
set -euo pipefail
cd "$(dirname "$0")/.."
node scripts/build-if-stale.mjs

EVENTS=${STDIN_GB_EVENTS:-17500000}
BYTES_MIN=$((2 * 1024 * 1024 * 1024))
RSS_LIMIT_BYTES=150000000

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

start=$(date +%s.%N)
# The audit exits 1 (the appended event makes the journal not conformant): judged below.
set +e +o pipefail
# The subshell exits with gen's status, not echo's, so that PIPESTATUS[0] is gen's.
(
  node dist/src/cli/main.js gen --nodes 2000 --events "$EVENTS" --pass-rate 0.0002 \
    --surface-paths-max 8 --seed 7
  gen_status=$?
  echo '{"kind":"dispatched","id":"ghost"}'
  exit "$gen_status"
) | tee >(wc -c >"$work/bytes") |
  STATEFOLD_MAX_RSS_FILE="$work/rss" node -r ./scripts/print-max-rss.cjs dist/src/cli/main.js \
    audit --format json --quiet - >"$work/report.json"
statuses=("${PIPESTATUS[@]}")
set -e -o pipefail
end=$(date +%s.%N)
# tee's process substitution may still be writing its count.
for _ in $(seq 50); do [[ -s "$work/bytes" ]] && break; sleep 0.1; done

WORK="$work" EVENTS="$EVENTS" BYTES_MIN="$BYTES_MIN" RSS_LIMIT_BYTES="$RSS_LIMIT_BYTES" \
  STARTED="$start" ENDED="$end" GEN_STATUS="${statuses[0]}" \
  AUDIT_STATUS="${statuses[2]}" node --input-type=module -e '
import { readFileSync } from "node:fs";
const env = process.env;
const read = (name) => readFileSync(`${env.WORK}/${name}`, "utf8");
const events = Number(env.EVENTS);
const bytes = Number(read("bytes"));
const rssBytes = Number(read("rss").trim()) * 1024;
const seconds = Number(env.ENDED) - Number(env.STARTED);
const report = JSON.parse(read("report.json"));
console.log(
  `stdin-2gb: ${(bytes / 1e9).toFixed(2)} GB (${events + 1} events) in ${seconds.toFixed(1)} s ` +
    `(${(bytes / 1e6 / seconds).toFixed(1)} MB/s, generator included); ` +
    `audit peak RSS ${(rssBytes / 1e6).toFixed(1)} MB`,
);
const holds = Object.values(report.invariants).every((verdict) => verdict.holds);
const failures = [
  [env.GEN_STATUS === "0", `gen exited ${env.GEN_STATUS}`],
  [env.AUDIT_STATUS === "1", `audit exited ${env.AUDIT_STATUS}, expected 1 (not conformant)`],
  [bytes >= Number(env.BYTES_MIN), `only ${bytes} bytes went through, expected at least 2 GiB`],
  [rssBytes < Number(env.RSS_LIMIT_BYTES), `peak RSS ${rssBytes} bytes, expected below 150 MB`],
  [report.events === events + 1, `${report.events} events counted, expected ${events + 1}`],
  [
    report.integrity?.reason === "unknown-node" &&
      report.integrity.index === events &&
      report.integrity.line === events + 2,
    `integrity ${JSON.stringify(report.integrity)}, expected unknown-node at event ${events}`,
  ],
  [holds && report.legality.illegal === 0, "the campaign before the appended event is not strictly conformant"],
  [report.tornTail === null, `a torn tail: ${JSON.stringify(report.tornTail)}`],
].filter(([ok]) => !ok);
for (const [, why] of failures) console.error(`stdin-2gb: FAILED: ${why}`);
process.exit(failures.length === 0 ? 0 : 1);
'

// Preload (`node -r ./scripts/print-max-rss.cjs …`): when the process exits, appends its peak
// resident set size — the kernel's own count, process.resourceUsage().maxRSS, in kibibytes — to
// the file named by STATEFOLD_MAX_RSS_FILE. It measures the process as a whole (all threads).
const { appendFileSync } = require("node:fs");

const target = process.env.STATEFOLD_MAX_RSS_FILE;
if (target) {
  process.on("exit", () => {
    appendFileSync(target, `${process.resourceUsage().maxRSS}\n`);
  });
}

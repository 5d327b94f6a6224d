/**
 * The executive model's part in `statefold explore` (docs/explore.md, "The executive model",
 * "Refinement of an executive"): its flags — the spec and budget, `--spec FILE --budget FILE` —
 * and its pieces of the help. The explorer itself is imported when a run asks for it.
 */
import type { ExploreFacet } from "../facet.js";
import { EXECUTIVE_DEFAULTS, EXECUTIVE_HOST_DEPTH } from "./defaults.js";

export const executiveExplore: ExploreFacet = {
  flags: [
    { name: "spec", goesWith: "both" },
    { name: "budget", goesWith: "both" },
  ],
  depth: EXECUTIVE_DEFAULTS.depth,
  driver: { depth: EXECUTIVE_HOST_DEPTH },
  help: {
    usage: {
      exploration: [
        "[--spec FILE --budget FILE] [--depth D] [--faults]",
        "[--mutants] [--out DIR] [--format text|json]",
      ],
      driver: [
        "[--spec FILE --budget FILE] [--depth D]",
        "[--driver-timeout MS] [--out DIR] [--format text|json]",
      ],
    },
    description: `The executive model: from the ready state of a spec and budget (a small built-in one that
reaches a sub-plan, retries, checkpoints and every way to fail), every observation — start; a
result of the outstanding execute (ok with no output, ok with one byte more than the budget
has left, a retryable error, a final error) and one of a consumed decision; checkpointed;
tick; cancel — at the clock, 1 ms before it and at the frame's deadline. Each line is the
observation and the machine's decision, a reject included.`,
    options:
      "  --spec FILE, --budget FILE   (executive) the spec and budget to explore, as JSON files",
    driver: `  --driver CMD      (executive) check a host of the machine: every observation explore makes and
                    a restart (snapshot, drop, restore), to --depth (default ${EXECUTIVE_HOST_DEPTH}); its decisions
                    must be the machine's. Try "node examples/drivers/executive-driver.mjs"`,
  },
  explorer: async () => (await import("./explorer.js")).executiveExplorer,
};

/**
 * The dag model's part in `statefold explore` (docs/explore.md, "The dag model"): its flags —
 * which DAGs (`--nodes N` or `--dag FILE`) and how many surface paths (`--paths P`) — and its
 * pieces of the help. The explorer itself is imported when a run asks for it.
 */
import type { ExploreFacet } from "../facet.js";
import { DAG_DEFAULTS } from "./defaults.js";

export const dagExplore: ExploreFacet = {
  flags: [
    { name: "nodes", goesWith: "both" },
    { name: "dag", goesWith: "both" },
    { name: "paths", goesWith: "both" },
  ],
  depth: DAG_DEFAULTS.depth,
  driver: { depth: DAG_DEFAULTS.depth },
  help: {
    usage: {
      exploration: [
        "[--nodes N | --dag FILE] [--paths P] [--depth D]",
        "[--faults] [--mutants] [--driver CMD [--driver-timeout MS]]",
        "[--out DIR] [--format text|json]",
      ],
    },
    description: `The dag model: every DAG of 1 to --nodes nodes, up to isomorphism (or the one DAG of --dag),
all nodes queued; the eight transitions with every argument — gate results pass, fail and
timeout, discharge results pass and fail, every set of the --paths surface paths p0, p1, … to
widen by.`,
    options: `  --nodes N         DAGs of 1 to N nodes (default ${DAG_DEFAULTS.nodes})
  --dag FILE        explore this DAG only (a JSON file of nodes, as for statefold audit)
  --paths P         surface paths to widen by (default ${DAG_DEFAULTS.paths})`,
    driver: `  --driver CMD      check a real runtime against the model instead: start CMD once, and for
                    every explored state and every action there (rejected ones included)
                    reset it, drive it there and through the action, over JSON lines on its
                    stdin and stdout (docs/explore.md, "Refinement"); it must journal the event
                    the model logs, or refuse where the model rejects, with the same reason. The
                    first divergence is shrunk and printed (exit 1); a driver that crashes,
                    hangs or prints garbage is an error (exit 2). Try it on
                    "node examples/drivers/driver.mjs" and its planted defect, "… --with-defect"`,
  },
  explorer: async () => (await import("./explorer.js")).dagExplorer,
};

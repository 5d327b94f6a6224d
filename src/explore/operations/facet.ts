/**
 * The operations model's part in `statefold explore` (docs/explore.md, "The operations model",
 * "Refinement of an effect runtime"): its flags — strands, ops, steps, attempts, leases, the
 * retry policy; for a --driver run the bound of faults per schedule and of progress — and its
 * pieces of the help. The explorer itself is imported when a run asks for it.
 */
import type { ExploreFacet } from "../facet.js";
import { EFFECT_RUNTIME_DEFAULTS, OPERATIONS_DEFAULTS } from "./defaults.js";

export const operationsExplore: ExploreFacet = {
  flags: [
    { name: "strands", goesWith: "both" },
    { name: "ops", goesWith: "both" },
    { name: "keys", goesWith: "both" },
    { name: "attempts", goesWith: "exploration" },
    { name: "leases", goesWith: "exploration" },
    { name: "policy", goesWith: "both" },
    { name: "progress-bound", goesWith: "driver" },
  ],
  depth: OPERATIONS_DEFAULTS.depth,
  driver: { depth: EFFECT_RUNTIME_DEFAULTS.depth, faultBound: { runtime: "an effect runtime" } },
  help: {
    usage: {
      exploration: [
        "[--strands S] [--ops O] [--keys K] [--attempts A]",
        "[--leases E] [--policy FILE] [--depth D] [--faults] [--mutants]",
        "[--out DIR] [--format text|json]",
      ],
      driver: [
        "[--strands S] [--ops O] [--keys K]",
        "[--faults N] [--depth D] [--progress-bound B] [--policy FILE]",
        "[--driver-timeout MS] [--out DIR] [--format text|json]",
      ],
    },
    description: `The operations model: a runtime's commits on S strands, O ops (accepted in order) of K steps —
accept, an intent for each step (a retry just before its notBefore and at it), each settlement
(ok, an error final or retryable with and without the provider's hint, unknown), each readback
of an unknown effect, cancel, each finish, a lease — written as a faithful runtime writes them;
a record the rules refuse is no step. Time moves only when a retry waits for its notBefore.`,
    options: `  --strands S, --ops O, --keys K   (operations) strands, ops and steps per op (defaults
                    ${OPERATIONS_DEFAULTS.strands}, ${OPERATIONS_DEFAULTS.ops}, ${OPERATIONS_DEFAULTS.keys})
  --attempts A      (operations) the highest attempt an intent is made with (default ${OPERATIONS_DEFAULTS.attempts})
  --leases E        (operations) leases taken at most, over all strands (default ${OPERATIONS_DEFAULTS.leases})
  --policy FILE     (operations) every op's retry policy, a JSON file {"maxAttempts",
                    "baseDelayMs", "maxDelayMs"} (default ${JSON.stringify(OPERATIONS_DEFAULTS.policy)})`,
    faults: `a lost response
(with and without its readback), a stale owner after a lease, and a
conflicting retry`,
    driver: `  --driver CMD      (operations) check an effect runtime: statefold plays the world around it —
                    clients that submit and cancel, providers that answer ok, a final error, a
                    retryable one with and without a hint, or lose the answer (executed or not),
                    the clock, lease takeovers and crashes — on every schedule up to --depth
                    events (default ${EFFECT_RUNTIME_DEFAULTS.depth}), and checks in order: its journal strictly conformant,
                    the providers' ledger (commit before act, no step executed twice, settlements
                    and readbacks that tell the truth), and progress (docs/explore.md,
                    "Refinement of an effect runtime"). Try
                    "node examples/drivers/effect-driver.mjs" and its planted defects,
                    "… --defect NAME"`,
    driverOptions: `  --faults N        (operations --driver) lost answers, crashes and takeovers in one schedule,
                    counted together (default ${EFFECT_RUNTIME_DEFAULTS.faults})
  --progress-bound B  (operations --driver) the most events the benign schedule may take to
                    finish every op (default ${EFFECT_RUNTIME_DEFAULTS.progressBound})`,
  },
  explorer: async () => (await import("./explorer.js")).operationsExplorer,
};

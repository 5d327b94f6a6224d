/**
 * The executive model's bounds when no flag says otherwise (docs/explore.md, "The executive
 * model"): the spec and budget explored and the depth, and a --driver run's depth.
 */

/** A small run that reaches every decision: a sub-plan, retries, checkpoints, each budget's end. */
export const EXECUTIVE_DEFAULTS = {
  spec: {
    task: "explore",
    plan: {
      steps: [
        { id: "outline", deps: [], effect: "model" },
        {
          id: "sources",
          deps: ["outline"],
          plan: { steps: [{ id: "search", deps: [], effect: "tool" }] },
          budget: { retries: 1 },
        },
        { id: "draft", deps: ["sources"], effect: "model" },
      ],
    },
    checkpointEvery: 2,
  },
  budget: {
    steps: 8,
    depth: 1,
    modelCalls: 2,
    toolCalls: 2,
    contextOps: 0,
    retries: 2,
    outputBytes: 100,
    deadline: 1000,
  },
  depth: 8,
} as const;

/** The bound a driver run takes when --depth does not say: a few seconds of a small host. */
export const EXECUTIVE_HOST_DEPTH = 4;

/**
 * The dag model's configuration and bound when no flag says otherwise (docs/explore.md, "The dag
 * model"): an exploration and a --driver run alike.
 */
export const DAG_DEFAULTS = { nodes: 3, depth: 6, paths: 1 } as const;

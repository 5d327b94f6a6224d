/** The dag model's exploration bounds when no flag says otherwise (docs/explore.md, "The dag model"). */

/** The configuration and bound `statefold explore` takes when no flag says otherwise. */
export const DAG_DEFAULTS = { nodes: 3, depth: 6, paths: 1 } as const;

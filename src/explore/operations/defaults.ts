/**
 * The operations model's bounds when no flag says otherwise: an exploration of its commits
 * (docs/explore.md, "The operations model"), and a check of an effect runtime through a driver
 * ("Refinement of an effect runtime").
 */

/** An exploration's configuration and depth. */
export const OPERATIONS_DEFAULTS = {
  strands: 1,
  ops: 2,
  keys: 1,
  attempts: 2,
  leases: 1,
  depth: 7,
  policy: { maxAttempts: 2, baseDelayMs: 100, maxDelayMs: 1000 },
} as const;

/** A --driver run's configuration and bounds. */
export const EFFECT_RUNTIME_DEFAULTS = {
  strands: 1,
  ops: 2,
  keys: 1,
  faults: 2,
  depth: 6,
  progressBound: 32,
  policy: OPERATIONS_DEFAULTS.policy,
} as const;

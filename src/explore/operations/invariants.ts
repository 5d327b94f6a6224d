/**
 * What every state the operations model's fold reaches must hold (docs/explore.md, "The
 * operations model"), checked by explore on every step: the shape docs/models/operations.md,
 * "State" describes, which no sequence of legal records may break. Each names what breaks it
 * (an op, a strand, a step) or is null.
 */
import type { OperationsState } from "../../models/operations/state.js";

type StateInvariant = (before: OperationsState, after: OperationsState) => string | null;

export const STATE_INVARIANTS: Readonly<Record<string, StateInvariant>> = {
  /** A strand's current op runs on that strand and has not finished. */
  currentOpRuns: (_, state) => {
    for (const [name, strand] of state.strands) {
      if (strand.current === null) continue;
      const op = state.operations.get(strand.current);
      if (op === undefined || op.strand !== name || op.finished !== null) return name;
    }
    return null;
  },
  /** Every op that has not finished is its strand's current op: one op at a time per strand. */
  oneOpAtATime: (_, state) => {
    for (const [name, op] of state.operations) {
      if (op.finished === null && state.strands.get(op.strand)?.current !== name) return name;
    }
    return null;
  },
  /**
   * A step's current attempt is an effect of its op with the step's key and attempt number, and
   * the step is pending or unknown exactly when that effect is.
   */
  stepsFollowTheirEffect: (_, state) => {
    for (const [name, op] of state.operations) {
      for (const [key, step] of op.steps) {
        const effect = op.effects.get(step.effect);
        if (effect === undefined || effect.key !== key || effect.attempt !== step.attempt) {
          return `${name}/${key}`;
        }
        const open = (status: string) => status === "pending" || status === "unknown";
        if (open(step.status) !== open(effect.status)) return `${name}/${key}`;
        if (step.status === "unknown" && effect.status !== "unknown") return `${name}/${key}`;
      }
    }
    return null;
  },
  /** A step waits for its retry with a notBefore, and only then has one. */
  waitsHaveATime: (_, state) => {
    for (const [name, op] of state.operations) {
      for (const [key, step] of op.steps) {
        if ((step.status === "retry-wait") !== (step.notBefore !== null)) return `${name}/${key}`;
      }
    }
    return null;
  },
  /** No step is past its policy's attempts. */
  attemptsWithinPolicy: (_, state) => {
    for (const [name, op] of state.operations) {
      const most = op.policy.maxAttempts;
      for (const [key, step] of op.steps) {
        if (most !== null && step.attempt > most) return `${name}/${key}`;
      }
    }
    return null;
  },
  /** Every live effect's id is reserved, and a finished op keeps no steps or effects. */
  idsReservedAndReleased: (_, state) => {
    for (const [name, op] of state.operations) {
      if (op.finished !== null && (op.steps.size > 0 || op.effects.size > 0)) return name;
      for (const effect of op.effects.keys()) if (!state.reserved.has(effect)) return effect;
    }
    return null;
  },
  /** No strand's epoch ever goes down, and no strand forgets it had one. */
  epochsRise: (before, after) => {
    for (const [name, strand] of before.strands) {
      if (strand.epoch === null) continue;
      const now = after.strands.get(name)?.epoch ?? null;
      if (now === null || now < strand.epoch) return name;
    }
    return null;
  },
};

/**
 * The retry ladder (docs/models/operations.md, "The retry ladder"): a capped exponential delay,
 * equal-jittered into its upper half by a draw seeded from the failed attempt's effect id, and
 * never shorter than the provider's hint. Pure and exact: the arithmetic is on BigInt, because
 * `attempt · 2654435761` and `baseDelayMs · 2²⁰` leave the range where doubles are exact. A
 * runtime calls this very function to decide the wait its journal is judged by.
 */

import { isCount, type Policy } from "./records.js";
import type { RetryWait } from "./state.js";

/** The exponent of the ladder stops growing here. */
const MAX_EXPONENT = 20n;
const DRAW_MULTIPLIER = 2654435761n;
const DRAW_MODULUS = 2147483647n;

/**
 * The wait, in milliseconds, before attempt `attempt + 1` of a step whose attempt `attempt`,
 * under effect id `effectId`, failed retryably. `retryAfterMs` is the provider's hint: any value
 * that is not a safe integer ≥ 0 (missing, malformed, negative) counts as no hint. The result is
 * a safe integer: at most the larger of `maxDelayMs` and the hint. `attempt` must be a safe
 * integer; zero and negative attempts are in the domain (an applied breach can record one).
 */
export function retryWait(
  policy: Policy,
  attempt: number,
  effectId: string,
  retryAfterMs: unknown,
): number {
  const n = BigInt(attempt);
  const exponent = min(max(n - 1n, 0n), MAX_EXPONENT);
  const ceiling = min(BigInt(policy.baseDelayMs) * 2n ** exponent, BigInt(policy.maxDelayMs));
  const floor = ceiling / 2n;
  const jittered = floor + nonNegativeMod(seededDraw(n, effectId), ceiling - floor + 1n);
  const hint = isCount(retryAfterMs) ? BigInt(retryAfterMs) : 0n;
  return Number(max(jittered, hint));
}

/** The draw: `attempt · 2654435761`, then folded with each code point of the effect id. */
function seededDraw(attempt: bigint, effectId: string): bigint {
  let draw = attempt * DRAW_MULTIPLIER;
  // for…of yields code points; a lone surrogate comes out as its own one-unit string.
  for (const character of effectId) {
    draw = nonNegativeMod(draw * 31n + BigInt(character.codePointAt(0) as number), DRAW_MODULUS);
  }
  return draw;
}

/** After attempt `attempt` fails, whether the policy allows another. */
export function attemptsRemain(policy: Policy, attempt: number): boolean {
  return policy.maxAttempts === null || attempt < policy.maxAttempts;
}

/**
 * When the retry of a failure committed at `at` may start: exact, so a bigint. `wait` is the
 * ladder's, but for a mutant's (docs/explore.md, "Mutants").
 */
export function retryNotBefore(
  policy: Policy,
  at: number,
  attempt: number,
  effectId: string,
  retryAfterMs: unknown,
  wait: RetryWait = retryWait,
): bigint {
  return BigInt(at) + BigInt(wait(policy, attempt, effectId, retryAfterMs));
}

/** The remainder in [0, modulus), whatever the sign of `value` (modulus > 0). */
function nonNegativeMod(value: bigint, modulus: bigint): bigint {
  const remainder = value % modulus;
  return remainder < 0n ? remainder + modulus : remainder;
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

/**
 * The retry ladder (docs/models/operations.md, "The retry ladder"): the worked values, then
 * properties against an independent formula written differently — its own code-point decoder,
 * doubling by loop rather than a power, remainders corrected by hand — over the whole safe
 * range of attempts, delays and hints.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  attemptsRemain,
  type Policy,
  retryNotBefore,
  retryWait,
} from "../../../src/models/operations/index.js";

const LADDER: Policy = { maxAttempts: 3, baseDelayMs: 1000, maxDelayMs: 30000 };

/** The code points of `text`, decoded from UTF-16 by hand: a lone surrogate is its own value. */
function codePoints(text: string): number[] {
  const points: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const next = i + 1 < text.length ? text.charCodeAt(i + 1) : -1;
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      points.push(0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00));
      i += 1;
    } else {
      points.push(unit);
    }
  }
  return points;
}

function floorMod(a: bigint, m: bigint): bigint {
  return ((a % m) + m) % m;
}

/** The ladder as the docs state it, computed independently of the model's code. */
function referenceWait(policy: Policy, attempt: number, effect: string, hint: unknown): bigint {
  const n = BigInt(attempt);
  let exponent = n - 1n;
  if (exponent < 0n) exponent = 0n;
  if (exponent > 20n) exponent = 20n;
  let delay = BigInt(policy.baseDelayMs);
  for (let i = 0n; i < exponent; i++) delay *= 2n;
  if (delay > BigInt(policy.maxDelayMs)) delay = BigInt(policy.maxDelayMs);
  const half = delay / 2n;
  let draw = n * 2654435761n;
  for (const point of codePoints(effect)) draw = floorMod(draw * 31n + BigInt(point), 2147483647n);
  const wait = half + floorMod(draw, delay - half + 1n);
  const floor =
    typeof hint === "number" && Number.isSafeInteger(hint) && hint >= 0 ? BigInt(hint) : 0n;
  return wait > floor ? wait : floor;
}

const safeCount = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });
const policyArbitrary: fc.Arbitrary<Policy> = fc.record({
  maxAttempts: fc.option(fc.integer({ min: 1, max: 10 }), { nil: null }),
  baseDelayMs: fc.oneof(fc.integer({ min: 0, max: 5000 }), safeCount),
  maxDelayMs: fc.oneof(fc.integer({ min: 0, max: 60000 }), safeCount),
});
const attemptArbitrary = fc.oneof(
  fc.integer({ min: -3, max: 30 }),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 0, -0),
);
const loneSurrogate = fc
  .integer({ min: 0xd800, max: 0xdfff })
  .map((unit) => String.fromCharCode(unit));
const effectIdArbitrary = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.string({ unit: fc.oneof(loneSurrogate, fc.constantFrom("a", "😀", "é")) }),
);
const hintArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(undefined),
  safeCount,
  fc.integer({ min: 0, max: 100000 }),
  fc.constantFrom(null, -1, 1.5, "500", 2 ** 53, -0, Number.NaN, Number.POSITIVE_INFINITY, {}),
);

const RUNS = 300;

describe("retryWait: the worked values", () => {
  it.each([
    [1, "e-1", 944],
    [2, "e-1", 1201],
    [3, "e-1", 3978],
    [4, "e-1", 5494],
    [10, "e-1", 21214],
    [1, "", 987],
  ])("attempt %i of %j on base 1000, cap 30000, waits %i", (attempt, effect, wait) => {
    expect(retryWait(LADDER, attempt, effect, undefined)).toBe(wait);
  });

  it("waits 0 on base 0 and cap 0", () => {
    const zero: Policy = { maxAttempts: null, baseDelayMs: 0, maxDelayMs: 0 };
    expect(retryWait(zero, 1, "e-1", undefined)).toBe(0);
    expect(retryWait(zero, 7, "anything", undefined)).toBe(0);
  });

  it("takes the hint when it is longer: 2344 = 1400 + max(944, 500), and 1400 + 2000", () => {
    expect(retryNotBefore(LADDER, 1400, 1, "e-1", 500)).toBe(2344n);
    expect(retryNotBefore(LADDER, 1400, 1, "e-1", 2000)).toBe(3400n);
  });

  it("ignores a hint that is not a safe integer ≥ 0", () => {
    for (const hint of [-1, 1.5, "5000", null, 2 ** 53, {}, [5000], true]) {
      expect(retryWait(LADDER, 1, "e-1", hint)).toBe(944);
    }
  });
});

describe("retryWait: exact on every edge", () => {
  it("saturates the exponent at 20: attempts 21 and 2⁵³−1 share the uncapped ceiling", () => {
    const uncapped: Policy = {
      maxAttempts: null,
      baseDelayMs: 1,
      maxDelayMs: Number.MAX_SAFE_INTEGER,
    };
    for (const attempt of [21, 22, 1000, Number.MAX_SAFE_INTEGER]) {
      const wait = retryWait(uncapped, attempt, "e", undefined);
      expect(wait).toBeGreaterThanOrEqual(2 ** 19);
      expect(wait).toBeLessThanOrEqual(2 ** 20);
    }
  });

  it("treats zero and negative attempts as exponent 0 and draws from the negative product", () => {
    for (const attempt of [0, -1, -2654435761, Number.MIN_SAFE_INTEGER]) {
      const wait = retryWait(LADDER, attempt, "e-1", undefined);
      expect(BigInt(wait)).toBe(referenceWait(LADDER, attempt, "e-1", undefined));
      expect(wait).toBeGreaterThanOrEqual(500);
      expect(wait).toBeLessThanOrEqual(1000);
    }
  });

  it("is exact where doubles are not: attempt 2⁵³−1 on the largest delays", () => {
    const huge: Policy = {
      maxAttempts: null,
      baseDelayMs: Number.MAX_SAFE_INTEGER,
      maxDelayMs: Number.MAX_SAFE_INTEGER,
    };
    const wait = retryWait(huge, Number.MAX_SAFE_INTEGER, "e-1", undefined);
    expect(BigInt(wait)).toBe(referenceWait(huge, Number.MAX_SAFE_INTEGER, "e-1", undefined));
    expect(Number.isSafeInteger(wait)).toBe(true);
  });

  it("reads code points: an astral character is one step of the draw, a lone surrogate its own", () => {
    const astral = "\u{1F600}";
    expect(BigInt(retryWait(LADDER, 2, astral, undefined))).toBe(
      referenceWait(LADDER, 2, astral, undefined),
    );
    // Folding the two UTF-16 units separately would give a different draw on this ladder.
    const byUnits = (() => {
      let draw = 2n * 2654435761n;
      for (const unit of [0xd83d, 0xde00]) draw = floorMod(draw * 31n + BigInt(unit), 2147483647n);
      return 1000n + floorMod(draw, 1001n);
    })();
    expect(BigInt(retryWait(LADDER, 2, astral, undefined))).not.toBe(byUnits);
    expect(BigInt(retryWait(LADDER, 2, "\uD83D", undefined))).toBe(
      referenceWait(LADDER, 2, "\uD83D", undefined),
    );
  });
});

describe("retryWait: properties", () => {
  it("equals the independent formula for every policy, attempt, id and hint", () => {
    fc.assert(
      fc.property(
        policyArbitrary,
        attemptArbitrary,
        effectIdArbitrary,
        hintArbitrary,
        (p, n, e, h) => {
          expect(BigInt(retryWait(p, n, e, h))).toBe(referenceWait(p, n, e, h));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("without a hint lies in [⌊d/2⌋, d], d the capped delay", () => {
    fc.assert(
      fc.property(
        policyArbitrary,
        attemptArbitrary,
        effectIdArbitrary,
        (policy, attempt, effect) => {
          const exponent = Math.min(Math.max(attempt - 1, 0), 20);
          const base = BigInt(policy.baseDelayMs) * 2n ** BigInt(exponent);
          const cap = BigInt(policy.maxDelayMs);
          const delay = base < cap ? base : cap;
          const wait = BigInt(retryWait(policy, attempt, effect, undefined));
          expect(wait >= delay / 2n && wait <= delay).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("is never shorter than a valid hint, and is a safe integer", () => {
    fc.assert(
      fc.property(
        policyArbitrary,
        attemptArbitrary,
        effectIdArbitrary,
        safeCount,
        (p, n, e, hint) => {
          const wait = retryWait(p, n, e, hint);
          expect(wait).toBeGreaterThanOrEqual(hint);
          expect(Number.isSafeInteger(wait)).toBe(true);
          expect(wait).toBeLessThanOrEqual(Math.max(p.maxDelayMs, hint));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("is deterministic: the same inputs always wait the same", () => {
    fc.assert(
      fc.property(
        policyArbitrary,
        attemptArbitrary,
        effectIdArbitrary,
        hintArbitrary,
        (p, n, e, h) => {
          expect(retryWait(p, n, e, h)).toBe(retryWait({ ...p }, n, `${e}`, h));
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe("attemptsRemain", () => {
  it("allows another attempt below maxAttempts, always when it is null", () => {
    expect(attemptsRemain(LADDER, 2)).toBe(true);
    expect(attemptsRemain(LADDER, 3)).toBe(false);
    expect(attemptsRemain(LADDER, 0)).toBe(true);
    expect(attemptsRemain({ ...LADDER, maxAttempts: null }, Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(attemptsRemain({ ...LADDER, maxAttempts: 1 }, 1)).toBe(false);
  });
});

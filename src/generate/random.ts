/**
 * A small seeded PRNG (mulberry32, Tommy Ettinger's public-domain 32-bit generator): generated
 * journals must be byte-identical for the same seed on every machine, which Math.random is not.
 */
export class Random {
  /**
   * Kept signed (`| 0`, not `>>> 0`): V8 keeps int32 arithmetic in machine integers where uint32
   * often goes through doubles, a fifth of the cost of a draw. Only its bits are used: the draws
   * are the same.
   */
  private state: number;

  constructor(seed: number) {
    this.state = seed | 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, bound). */
  below(bound: number): number {
    return Math.floor(this.next() * bound);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** One of the items, or undefined when there are none. */
  pick<T>(items: readonly T[]): T | undefined {
    return items.length === 0 ? undefined : items[this.below(items.length)];
  }
}

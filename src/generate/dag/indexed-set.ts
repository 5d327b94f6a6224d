/**
 * A set of small integers with O(1) add, delete and seeded pick: the fault injector asks "which
 * nodes are landed right now?" once per line of a journal that may have millions of lines, so
 * each candidate set is kept up to date instead of being searched for.
 */
import type { Random } from "../random.js";

export class IndexedSet {
  private readonly items: number[] = [];
  /** `slots[item]` is the item's place in `items`, or -1 when absent. */
  private readonly slots: Int32Array;

  constructor(universe: number) {
    this.slots = new Int32Array(universe).fill(-1);
  }

  get size(): number {
    return this.items.length;
  }

  has(item: number): boolean {
    return (this.slots[item] ?? -1) >= 0;
  }

  add(item: number): void {
    if (this.has(item)) return;
    this.slots[item] = this.items.length;
    this.items.push(item);
  }

  delete(item: number): void {
    const slot = this.slots[item] ?? -1;
    if (slot < 0) return;
    const last = this.items.pop() as number;
    if (last !== item) {
      this.items[slot] = last;
      this.slots[last] = slot;
    }
    this.slots[item] = -1;
  }

  /** One member, chosen by `random`; undefined when empty. */
  pick(random: Random): number | undefined {
    return this.items.length === 0 ? undefined : this.items[random.below(this.items.length)];
  }
}

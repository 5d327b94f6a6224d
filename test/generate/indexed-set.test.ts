import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IndexedSet } from "../../src/generate/dag/indexed-set.js";
import { Random } from "../../src/generate/random.js";

describe("IndexedSet", () => {
  it("holds what a Set holds after any adds and deletes, and picks only members", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ add: fc.boolean(), item: fc.integer({ min: 0, max: 19 }) })),
        fc.nat(),
        (operations, seed) => {
          const set = new IndexedSet(20);
          const model = new Set<number>();
          const random = new Random(seed);
          for (const { add, item } of operations) {
            if (add) {
              set.add(item);
              model.add(item);
            } else {
              set.delete(item);
              model.delete(item);
            }
            expect(set.size).toBe(model.size);
            for (let i = 0; i < 20; i++) expect(set.has(i)).toBe(model.has(i));
            const picked = set.pick(random);
            if (model.size === 0) expect(picked).toBeUndefined();
            else expect(model.has(picked as number)).toBe(true);
          }
        },
      ),
    );
  });
});

import { describe, expect, it } from "vitest";
import { writeBatched } from "../../src/cli/write-batched.js";

describe("writeBatched", () => {
  it("writes everything, in order, in batches of about 64 KiB", async () => {
    const pieces = Array.from({ length: 5000 }, (_, i) => `line ${i} ${"x".repeat(40)}\n`);
    const writes: string[] = [];
    await writeBatched(pieces, async (text) => {
      writes.push(text);
    });
    expect(writes.join("")).toBe(pieces.join(""));
    for (const batch of writes.slice(0, -1)) {
      expect(batch.length).toBeGreaterThanOrEqual(64 * 1024);
      expect(batch.length).toBeLessThan(64 * 1024 + 100);
    }
  });

  it("pulls no further ahead of a slow reader than one batch", async () => {
    let pulled = 0;
    let written = 0;
    let aheadMax = 0;
    function* pieces() {
      for (let i = 0; i < 20_000; i++) {
        pulled += 100;
        aheadMax = Math.max(aheadMax, pulled - written);
        yield "y".repeat(100);
      }
    }
    await writeBatched(pieces(), async (text) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      written += text.length;
    });
    expect(written).toBe(2_000_000);
    expect(aheadMax).toBeLessThanOrEqual(64 * 1024 + 100);
  });
});

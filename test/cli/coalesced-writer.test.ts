import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { CoalescedWriter } from "../../src/cli/coalesced-writer.js";

describe("CoalescedWriter", () => {
  it("writes what one turn of the event loop wrote in one write, in order", async () => {
    const writes: string[] = [];
    const writer = new CoalescedWriter((text) => writes.push(text));
    writer.write("a\n");
    writer.write("b\n");
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(["a\nb\n"]);
    writer.write("c\n");
    await nextTurn();
    expect(writes).toEqual(["a\nb\n", "c\n"]);
  });

  it("writes at once when 64 KiB are pending, and on flush", () => {
    const writes: string[] = [];
    const writer = new CoalescedWriter((text) => writes.push(text));
    const line = `${"x".repeat(1023)}\n`;
    for (let i = 0; i < 64; i++) writer.write(line);
    expect(writes).toEqual([line.repeat(64)]);
    writer.write("tail\n");
    writer.flush();
    writer.flush();
    expect(writes).toEqual([line.repeat(64), "tail\n"]);
  });
});

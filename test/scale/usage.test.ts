/** The scale-out commands' bad usage: one line naming what is wrong, exit status 2, no Redis needed. */
import { describe, expect, it } from "vitest";
import { statefold } from "../cli/cli-process.js";

describe("statefold worker, enqueue, results and watch on bad usage", () => {
  it("names a Redis it cannot reach", async () => {
    const run = await statefold(["worker", "redis://127.0.0.1:1", "--drain"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^statefold: cannot reach Redis at redis:\/\/127\.0\.0\.1:1: /);
  });

  it("refuses a lease that is not a number of seconds, and a size that is not one", async () => {
    const lease = await statefold(["watch", "redis://127.0.0.1:1", "--lease", "0"]);
    expect(lease.code).toBe(2);
    expect(lease.stderr).toContain("--lease must be a number of seconds > 0, found '0'");
    const size = await statefold(["worker", "redis://127.0.0.1:1", "--snapshot-every", "64Q"]);
    expect(size.code).toBe(2);
    expect(size.stderr).toContain(
      "--snapshot-every must be a size in bytes (65536, 64K, 64M, 1G), found '64Q'",
    );
  });

  it("takes one stream at a time for results", async () => {
    const run = await statefold(["results", "redis://127.0.0.1:1", "--dead", "--findings"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--dead and --findings are two streams: give one");
  });
});

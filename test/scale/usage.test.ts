/** The scale-out commands' bad usage: one line naming what is wrong, exit status 2, no Redis needed. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { statefold } from "../cli/cli-process.js";
import { testTempDir } from "../support/temp-dirs.js";

/** A model file whose clause names an entity it never declares: line 3, column 31. */
const BAD_MODEL = `{ "statefold": "model", "version": 1, "name": "bad",
  "records": { "source": "lines", "kind": { "path": "type" } },
  "kinds": { "a": [ { "step": "nothing", "key": "$x", "from": ["s"], "to": "t" } ] } }
`;

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

  it.each(["worker", "enqueue", "watch"])(
    "%s checks a model file before Redis is reached: a bad one is exit 2 naming its line, column and JSON Pointer",
    async (command) => {
      const model = join(testTempDir("scale-bad-model-"), "bad.json");
      writeFileSync(model, BAD_MODEL);
      const run = await statefold([command, "redis://127.0.0.1:1", "--model", model]);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        `statefold: ${model}:3:31: model file /kinds/a/0/step: "nothing" is not an entity of entities (its entities: none)\n`,
      );
    },
  );

  it.each(["examples/data/ci-jobs.yaml", "temporal"])(
    "watch refuses a model whose journals are JSON documents (%s): there is nothing appended to watch",
    async (model) => {
      const run = await statefold(["watch", "redis://127.0.0.1:1", "--model", model]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /^statefold: watch audits journals as they are appended, and the journals of the model (ci-jobs|temporal) are JSON documents, written whole: audit them with statefold audit, or enqueue them for statefold worker/,
      );
    },
  );

  it.each(["worker", "enqueue", "watch"])(
    "%s --help says --model takes a name or a model file",
    async (command) => {
      const run = await statefold([command, "--help"]);
      expect(run.code).toBe(0);
      const from = run.stdout.indexOf("\n  --model NAME|FILE ");
      expect(from).toBeGreaterThan(0);
      const option = run.stdout.slice(from, run.stdout.indexOf("\n  --", from + 1));
      expect(option.replace(/\s+/g, " ")).toContain("or a model file of your own");
      expect(run.stdout).toContain(`[--model NAME|FILE]`);
    },
  );
});

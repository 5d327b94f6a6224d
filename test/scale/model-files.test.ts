/**
 * The worker pool and the watchers with models defined by files (docs/scale-out.md, "Models"),
 * against a real redis-server: a job names its model and the model's digest, a worker audits it
 * as `statefold audit --model FILE` does, and one that does not hold that model — or holds
 * another under the same name — leaves it for the dead letters with an error saying so.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { queueKeys, WATCHERS_GROUP } from "../../src/scale/keys.js";
import { statefold } from "../cli/cli-process.js";
import { testTempDir } from "../support/temp-dirs.js";
import { ensureRedisServer, RedisServer } from "./redis-server.js";
import {
  auditLines,
  byFile,
  nothingPending,
  publishedLines,
  spawnStatefold,
  until,
} from "./scale-processes.js";

const available = ensureRedisServer();

const PAYMENTS = "examples/data/payment-intents.json";
const PAYMENT_JOURNALS = [
  "examples/data/payment-intents.jsonl",
  "examples/data/payment-intents-violations.jsonl",
];
const CI_JOBS = "examples/data/ci-jobs.yaml";

describe.skipIf(!available)("statefold worker and watch with a model file", () => {
  let server: RedisServer;
  let redis: Redis;
  let directory: string;

  beforeAll(async () => {
    directory = testTempDir("scale-models-");
    server = await RedisServer.start(directory);
    redis = server.client();
  });

  afterAll(async () => {
    redis?.disconnect();
    await server?.kill();
  });

  const enqueue = async (queue: string, args: readonly string[]) => {
    const run = await statefold(["enqueue", server.url, "--queue", queue, ...args]);
    expect(run.stderr).toMatch(/jobs queued/);
    expect(run.code).toBe(0);
  };
  const worker = (queue: string, args: readonly string[]) =>
    spawnStatefold(["worker", server.url, "--queue", queue, "--drain", ...args]);
  const deadLetters = async (queue: string) => {
    const run = await statefold(["results", server.url, "--queue", queue, "--dead"]);
    return run.stdout
      .trimEnd()
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  };

  it("publishes, for a worker started with --model FILE, the verdicts audit --model FILE gives, snapshots taken on the way", async () => {
    const queue = "file-model";
    await enqueue(queue, ["--model", PAYMENTS, ...PAYMENT_JOURNALS]);
    // Two threads, each loading the file; a snapshot every 256 bytes of journals of ~900.
    const running = worker(queue, [
      "--model",
      PAYMENTS,
      "--concurrency",
      "2",
      "--snapshot-every",
      "256",
    ]);
    expect(await running.exited).toBe(0);

    const published = await publishedLines(redis, queue);
    expect(published.length).toBe(PAYMENT_JOURNALS.length);
    expect(byFile(published)).toEqual(await auditLines(PAYMENT_JOURNALS, ["--model", PAYMENTS]));
    expect(published.join("\n")).toContain('"model":"payment-intents","conformant":false');
    expect(await nothingPending(redis, queue)).toBe(true);
  }, 60_000);

  it("lists a directory's JSON documents for a document model, and audits each whole whatever --snapshot-every", async () => {
    const queue = "document-model";
    const exports = join(directory, "ci-exports");
    mkdirSync(exports);
    for (const name of ["ci-jobs.journal.json", "ci-jobs-violations.journal.json"])
      copyFileSync(join("examples/data", name), join(exports, name));
    await enqueue(queue, ["--model", CI_JOBS, exports]);
    const running = worker(queue, ["--model", CI_JOBS, "--snapshot-every", "1"]);
    expect(await running.exited).toBe(0);

    const published = await publishedLines(redis, queue);
    expect(published.length).toBe(2);
    const expected = await auditLines([exports], ["--model", CI_JOBS]);
    expect([...expected.keys()].sort()).toEqual([
      join(exports, "ci-jobs-violations.journal.json"),
      join(exports, "ci-jobs.journal.json"),
    ]);
    expect(byFile(published)).toEqual(expected);
    expect(await nothingPending(redis, queue)).toBe(true);
  }, 60_000);

  it("publishes the error audit gives for a directory with no journal, once, instead of queueing it again", async () => {
    const queue = "empty-directory";
    const empty = join(directory, "no-journals");
    mkdirSync(empty);
    await enqueue(queue, [empty]);
    expect(await worker(queue, []).exited).toBe(0);
    expect(await publishedLines(redis, queue)).toEqual([
      JSON.stringify({
        file: empty,
        error: `${empty}: expected *.jsonl or *.lisp-expr journals in the directory, found none`,
      }),
    ]);
    expect(await nothingPending(redis, queue)).toBe(true);
  }, 60_000);

  it("sends a job naming a model the worker does not know to the dead letters, saying so", async () => {
    const queue = "unknown-model";
    await enqueue(queue, ["--model", PAYMENTS, PAYMENT_JOURNALS[0] as string]);
    const running = worker(queue, ["--lease", "0.2", "--max-deliveries", "1"]);
    expect(await running.exited).toBe(0);

    expect(await publishedLines(redis, queue)).toEqual([]);
    expect(await deadLetters(queue)).toEqual([
      {
        job: expect.any(String),
        location: PAYMENT_JOURNALS[0],
        deliveries: 2,
        error:
          'the job names the model "payment-intents", which this worker does not know: start the worker with --model and the file that defines it',
      },
    ]);
    expect(running.stderr()).toContain("(left for another delivery)");
    expect(await nothingPending(redis, queue)).toBe(true);
  }, 60_000);

  it("refuses a job whose model file differs from the worker's under the same name, and takes one written in YAML instead of JSON", async () => {
    const text = readFileSync(PAYMENTS, "utf8");
    const changed = join(directory, "payment-intents-changed.json");
    writeFileSync(
      changed,
      text.replace(
        '"from": ["created"], "to": "processing"',
        '"from": ["created", "processing"], "to": "processing"',
      ),
    );
    expect(readFileSync(changed, "utf8")).not.toBe(text);
    const queue = "other-file";
    await enqueue(queue, ["--model", PAYMENTS, PAYMENT_JOURNALS[0] as string]);
    expect(
      await worker(queue, ["--model", changed, "--lease", "0.2", "--max-deliveries", "1"]).exited,
    ).toBe(0);
    expect(await publishedLines(redis, queue)).toEqual([]);
    const [letter] = await deadLetters(queue);
    expect(letter?.error).toMatch(
      /^the job's model "payment-intents" \(digest [0-9a-f]{12}…\) is not this worker's model of that name \(digest [0-9a-f]{12}…\): give enqueue and every worker the same model file$/,
    );

    const respelt = join(directory, "payment-intents.yaml");
    writeFileSync(respelt, `# the same model, in YAML\n${stringify(JSON.parse(text))}`);
    const sameModel = "same-model";
    await enqueue(sameModel, ["--model", PAYMENTS, ...PAYMENT_JOURNALS]);
    expect(await worker(sameModel, ["--model", respelt]).exited).toBe(0);
    expect(byFile(await publishedLines(redis, sameModel))).toEqual(
      await auditLines(PAYMENT_JOURNALS, ["--model", PAYMENTS]),
    );
  }, 60_000);

  it("watch --model FILE publishes a finding of a live journal as it is appended, and at its end the verdict audit gives", async () => {
    const queue = "live-model";
    const keys = queueKeys(queue);
    const journal = PAYMENT_JOURNALS[1] as string;
    const lines = readFileSync(journal, "utf8").split(/(?<=\n)/);
    await redis.xadd(keys.live, "*", "journal", journal);
    const watcher = spawnStatefold([
      "watch",
      server.url,
      "--queue",
      queue,
      "--model",
      PAYMENTS,
      "--drain",
      "--lease",
      "1",
    ]);
    // Line 4 breaks the sequence and the amount kept: found before the journal goes on.
    for (const line of lines.slice(0, 4))
      await redis.xadd(keys.journal(journal), "*", "chunk", line);
    await until(async () => (await redis.xlen(keys.findings)) > 0, 30_000);
    const early = await findingsOf(redis, keys.findings);
    expect(early.map((finding) => finding.rule)).toContain("sequence");
    expect(early.every((finding) => finding.breach.line === 4)).toBe(true);
    for (const line of lines.slice(4)) await redis.xadd(keys.journal(journal), "*", "chunk", line);
    await redis.xadd(keys.journal(journal), "*", "end", "1");
    expect(await watcher.exited).toBe(0);

    const whole = JSON.parse(
      (await auditLines([journal], ["--model", PAYMENTS])).get(journal) as string,
    );
    const entries = (await redis.call("XRANGE", keys.findings, "-", "+")) as [string, string[]][];
    const verdicts = entries.flatMap(([, fields]) =>
      fields.includes("result") ? [JSON.parse(String(fields[fields.indexOf("result") + 1]))] : [],
    );
    expect(verdicts).toEqual([whole]);
    const broken = Object.entries(whole.report.invariants as Record<string, { holds: boolean }>)
      .filter(([, verdict]) => !verdict.holds)
      .map(([rule]) => rule);
    const published = (await findingsOf(redis, keys.findings)).map((finding) => finding.rule);
    expect(published.sort()).toEqual([...broken, "legality"].sort());
    const [pending] = (await redis.call("XPENDING", keys.live, WATCHERS_GROUP)) as [number];
    expect(pending).toBe(0);
  }, 60_000);
});

async function findingsOf(
  redis: Redis,
  stream: string,
): Promise<{ rule: string; breach: { line: number } }[]> {
  const entries = (await redis.call("XRANGE", stream, "-", "+")) as [string, string[]][];
  return entries.flatMap(([, fields]) =>
    fields.includes("finding") ? [JSON.parse(String(fields[fields.indexOf("finding") + 1]))] : [],
  );
}

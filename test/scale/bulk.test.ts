/**
 * statefold enqueue / worker / results against a real redis-server (docs/scale-out.md): every
 * verdict published once and equal to `statefold audit` of its journal, whatever is killed.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueKeys } from "../../src/scale/keys.js";
import { statefold } from "../cli/cli-process.js";
import { testTempDir } from "../support/temp-dirs.js";
import { ensureRedisServer, RedisServer } from "./redis-server.js";
import {
  auditLines,
  byFile,
  generate,
  holderPid,
  jobSnapshots,
  nothingPending,
  publishedLines,
  spawnStatefold,
  until,
} from "./scale-processes.js";

const available = ensureRedisServer();

describe.skipIf(!available)("statefold worker over Redis Streams", () => {
  let server: RedisServer;
  let redis: Redis;
  let big: string;
  let mid: string;
  let small: string[];

  beforeAll(async () => {
    const directory = testTempDir("scale-bulk-");
    server = await RedisServer.start(directory);
    redis = server.client();
    // ≥ 100 MB: 500 000 dag events over 3 000 nodes, an illegal transition planted.
    big = await generate(join(directory, "big.jsonl"), [
      "--events",
      "500000",
      "--nodes",
      "3000",
      "--inject",
      "illegal-transition",
    ]);
    expect(statSync(big).size).toBeGreaterThanOrEqual(100e6);
    mid = await generate(join(directory, "mid.jsonl"), ["--events", "120000", "--nodes", "300"]);
    small = await Promise.all([
      generate(join(directory, "ops.jsonl"), ["--model", "operations", "--events", "20000"]),
      generate(join(directory, "exec.jsonl"), ["--model", "executive", "--events", "5000"]),
    ]);
  }, 120_000);

  afterAll(async () => {
    redis?.disconnect();
    await server?.kill();
  });

  it("publishes every verdict once, equal to audit's, with a worker SIGKILLed at a seeded snapshot count", async () => {
    const seed = Number(process.env.STATEFOLD_SCALE_SEED ?? Date.now() % 10_000);
    const killAtSnapshots = 1 + (seed % 20);
    console.log(
      `scale-out kill test: seed ${seed} (STATEFOLD_SCALE_SEED), SIGKILL at snapshot ${killAtSnapshots}`,
    );
    const queue = "kill";
    // The big journal's snapshots (2.5 MB over 3 000 nodes) are kept in files, Redis their path.
    const snapshots = testTempDir("scale-snapshots-");
    const locations = [big, "examples", mid, ...small];
    const expected = await auditLines(locations);
    expect((await statefold(["enqueue", server.url, "--queue", queue, ...locations])).code).toBe(0);
    const workerArgs = [
      "worker",
      server.url,
      "--queue",
      queue,
      "--drain",
      "--lease",
      "1.5",
      "--snapshot-every",
      "2M",
      "--snapshot-dir",
      snapshots,
    ];
    const workers = [0, 1, 2].map(() => spawnStatefold(workerArgs));

    await until(async () => (await jobSnapshots(redis, queue, big)) >= killAtSnapshots);
    const victim = await holderPid(redis, queue, big);
    const killed = workers.find((worker) => worker.child.pid === victim);
    expect(killed).toBeDefined();
    process.kill(victim, "SIGKILL");
    const survivors = workers.filter((worker) => worker !== killed);
    expect(await Promise.all(survivors.map((worker) => worker.exited))).toEqual([0, 0]);

    const published = await publishedLines(redis, queue);
    expect(published.length).toBe(expected.size); // none twice, none missing
    expect(byFile(published)).toEqual(expected);
    expect(await nothingPending(redis, queue)).toBe(true);
    expect(await redis.xlen(queueKeys(queue).dead)).toBe(0);
    expect(survivors.map((worker) => worker.stderr()).join("")).toContain(
      `${big}: resuming from its snapshot`,
    );
    // Each commit removed the file it replaced, and the verdict the last: only a file the killed
    // worker wrote but had not committed may be left.
    expect(
      readdirSync(snapshots).filter((name) => name.endsWith(".snapshot")).length,
    ).toBeLessThanOrEqual(1);
  }, 180_000);

  it("commits nothing from a worker stopped (SIGSTOP) past its lease and continued", async () => {
    const queue = "stop";
    expect((await statefold(["enqueue", server.url, "--queue", queue, mid])).code).toBe(0);
    const workerArgs = [
      "worker",
      server.url,
      "--queue",
      queue,
      "--drain",
      "--lease",
      "1",
      "--snapshot-every",
      "256K",
    ];
    const stopped = spawnStatefold(workerArgs);
    await until(async () => (await jobSnapshots(redis, queue, mid)) >= 2);
    process.kill(stopped.child.pid as number, "SIGSTOP");
    const successor = spawnStatefold(workerArgs);
    expect(await successor.exited).toBe(0);
    process.kill(stopped.child.pid as number, "SIGCONT");
    expect(await stopped.exited).toBe(0);

    expect(stopped.stderr()).toContain(
      `${mid}: lost its lease (another worker took it over): committed nothing`,
    );
    const published = await publishedLines(redis, queue);
    expect(byFile(published)).toEqual(await auditLines([mid]));
    expect(published.length).toBe(1);
    expect(await redis.keys(`${queueKeys(queue).job("*")}`)).toEqual([]);
    expect(await nothingPending(redis, queue)).toBe(true);
  }, 120_000);

  it("sends a job delivered more than --max-deliveries times to the dead letters, with its error", async () => {
    const queue = "dead";
    expect((await statefold(["enqueue", server.url, "--queue", queue, mid])).code).toBe(0);
    const workerArgs = [
      "worker",
      server.url,
      "--queue",
      queue,
      "--drain",
      "--lease",
      "0.5",
      "--snapshot-every",
      "256K",
      "--max-deliveries",
      "1",
    ];
    const first = spawnStatefold(workerArgs);
    await until(async () => (await jobSnapshots(redis, queue, mid)) >= 1);
    process.kill(first.child.pid as number, "SIGKILL");
    const second = spawnStatefold(workerArgs);
    expect(await second.exited).toBe(0);

    expect(await publishedLines(redis, queue)).toEqual([]);
    const dead = await statefold(["results", server.url, "--queue", queue, "--dead"]);
    const letters = dead.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(letters).toEqual([
      {
        job: expect.any(String),
        location: mid,
        deliveries: 2,
        error: "its workers stopped (killed, or past their lease) before finishing it",
      },
    ]);
    expect(await nothingPending(redis, queue)).toBe(true);
  }, 120_000);

  it("audits a journal changed since its snapshot again from the start, and says so", async () => {
    const queue = "changed";
    const journal = await generate(join(testTempDir("scale-changed-"), "changed.jsonl"), [
      "--events",
      "120000",
      "--nodes",
      "300",
    ]);
    expect((await statefold(["enqueue", server.url, "--queue", queue, journal])).code).toBe(0);
    const workerArgs = [
      "worker",
      server.url,
      "--queue",
      queue,
      "--drain",
      "--lease",
      "0.5",
      "--snapshot-every",
      "256K",
    ];
    const first = spawnStatefold(workerArgs);
    await until(async () => (await jobSnapshots(redis, queue, journal)) >= 1);
    process.kill(first.child.pid as number, "SIGKILL");
    await generate(journal, ["--events", "120000", "--nodes", "300", "--seed", "2"]);
    const second = spawnStatefold(workerArgs);
    expect(await second.exited).toBe(0);

    expect(second.stderr()).toMatch(/refusing the snapshot: .*; auditing it again from the start/);
    const published = await publishedLines(redis, queue);
    expect(published.length).toBe(1);
    expect(byFile(published)).toEqual(await auditLines([journal]));
  }, 120_000);

  it("loses nothing acknowledged when Redis (appendonly, fsync always) is killed and restarted mid-run", async () => {
    const queue = "restart";
    const locations = ["examples", mid, ...small];
    const expected = await auditLines(locations);
    expect((await statefold(["enqueue", server.url, "--queue", queue, ...locations])).code).toBe(0);
    const workerArgs = [
      "worker",
      server.url,
      "--queue",
      queue,
      "--drain",
      "--lease",
      "3",
      "--snapshot-every",
      "8M",
    ];
    const workers = [spawnStatefold(workerArgs), spawnStatefold(workerArgs)];
    await until(async () => (await redis.xlen(queueKeys(queue).results)) >= 3);
    const before = await publishedLines(redis, queue);
    await server.kill("SIGKILL");
    await new Promise((done) => setTimeout(done, 300));
    await server.restart();

    expect(await Promise.all(workers.map((worker) => worker.exited))).toEqual([0, 0]);
    const published = await publishedLines(redis, queue);
    expect(published.slice(0, before.length)).toEqual(before);
    expect(published.length).toBe(expected.size);
    expect(byFile(published)).toEqual(expected);
    expect(await nothingPending(redis, queue)).toBe(true);
  }, 180_000);
});

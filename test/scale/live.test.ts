/**
 * statefold watch against a real redis-server (docs/scale-out.md, "Live"): a producer appends
 * journals with violations planted, a watcher is SIGKILLed mid-journal, and each first breach is
 * published once, each verdict equal to `statefold audit` of the whole journal.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueKeys, WATCHERS_GROUP } from "../../src/scale/keys.js";
import { testTempDir } from "../support/temp-dirs.js";
import { ensureRedisServer, RedisServer } from "./redis-server.js";
import { auditLines, generate, spawnStatefold, until } from "./scale-processes.js";

const available = ensureRedisServer();

describe.skipIf(!available)("statefold watch over Redis Streams", () => {
  let server: RedisServer;
  let redis: Redis;
  let directory: string;

  beforeAll(async () => {
    directory = testTempDir("scale-live-");
    server = await RedisServer.start(directory);
    redis = server.client();
  });

  afterAll(async () => {
    redis?.disconnect();
    await server?.kill();
  });

  it("publishes each first breach once and each verdict equal to audit's, a watcher SIGKILLed mid-journal", async () => {
    const seed = Number(process.env.STATEFOLD_SCALE_SEED ?? Date.now() % 10_000);
    const killAtCheckpoints = 2 + (seed % 5);
    console.log(
      `scale-out live test: seed ${seed} (STATEFOLD_SCALE_SEED), SIGKILL at checkpoint ${killAtCheckpoints}`,
    );
    const queue = "live";
    const keys = queueKeys(queue);
    const journals = await Promise.all([
      generate(join(directory, "dag.jsonl"), [
        "--events",
        "20000",
        "--nodes",
        "200",
        "--seed",
        String(seed),
        "--inject",
        "illegal-transition",
        "--inject",
        "unproven-dispatch",
      ]),
      generate(join(directory, "ops.jsonl"), [
        "--model",
        "operations",
        "--events",
        "8000",
        "--seed",
        String(seed),
      ]),
      generate(join(directory, "exec.jsonl"), [
        "--model",
        "executive",
        "--events",
        "4000",
        "--seed",
        String(seed),
      ]),
    ]);
    const expected = await auditLines(journals);
    const watcherArgs = ["watch", server.url, "--queue", queue, "--drain", "--lease", "1"];
    const watchers = [spawnStatefold(watcherArgs), spawnStatefold(watcherArgs)];
    for (const journal of journals) await redis.xadd(keys.live, "*", "journal", journal);

    const producing = produce(redis, keys, journals, seed);
    const victimJournal = journals[0] as string;
    await until(
      async () =>
        Number(
          (await redis.hget(await liveJobKey(redis, keys, victimJournal), "snapshots")) ?? 0,
        ) >= killAtCheckpoints,
    );
    const victim = await liveHolderPid(redis, keys, victimJournal);
    const killed = watchers.find((watcher) => watcher.child.pid === victim);
    expect(killed).toBeDefined();
    process.kill(victim, "SIGKILL");
    await producing;
    const survivor = watchers.find((watcher) => watcher !== killed);
    expect(await survivor?.exited).toBe(0);
    expect(await nothingPendingLive(redis, keys)).toBe(true);

    const entries = (await redis.call("XRANGE", keys.findings, "-", "+")) as [string, string[]][];
    const field = (fields: string[], name: string) => {
      const at = fields.indexOf(name);
      return at < 0 ? null : String(fields[at + 1]);
    };
    const verdicts = entries.flatMap(([, fields]) => {
      const result = field(fields, "result");
      return result === null ? [] : [JSON.parse(result) as { file: string; report: Report }];
    });
    const findings = entries.flatMap(([, fields]) => {
      const finding = field(fields, "finding");
      return finding === null
        ? []
        : [JSON.parse(finding) as { journal: string; rule: string; breach: unknown }];
    });
    expect(verdicts.map((verdict) => verdict.file).sort()).toEqual([...journals].sort());
    for (const verdict of verdicts) {
      const whole = JSON.parse(expected.get(verdict.file) as string) as { report: Report };
      expect(verdict.report).toEqual(whole.report);
      const published = findings.filter((finding) => finding.journal === verdict.file);
      const breaches = breachesOf(whole.report);
      expect(published.map((finding) => finding.rule).sort()).toEqual([...breaches.keys()].sort());
      for (const finding of published) expect(finding.breach).toEqual(breaches.get(finding.rule));
    }
    expect(findings.filter((finding) => finding.journal === victimJournal).length).toBeGreaterThan(
      0,
    );
    expect(survivor?.stderr()).toContain(`${victimJournal}: resuming after entry`);
  }, 180_000);
});

interface Report {
  invariants: Record<string, { holds?: boolean }>;
  integrity: unknown;
  legality: { first: unknown[] };
}

function breachesOf(report: Report): Map<string, unknown> {
  const breaches = new Map<string, unknown>();
  for (const [rule, verdict] of Object.entries(report.invariants)) {
    if (verdict.holds === false) breaches.set(rule, verdict);
  }
  if (report.integrity !== null) breaches.set("integrity", report.integrity);
  if (report.legality.first[0] !== undefined) breaches.set("legality", report.legality.first[0]);
  return breaches;
}

/** Appends the journals' bytes in seeded cuts, interleaved and paced, then ends each. */
async function produce(
  redis: Redis,
  keys: ReturnType<typeof queueKeys>,
  journals: readonly string[],
  seed: number,
): Promise<void> {
  let state = seed + 1;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const pending = journals.map((journal) => ({ journal, bytes: readFileSync(journal), at: 0 }));
  while (pending.some((journal) => journal.at < journal.bytes.length)) {
    for (const journal of pending) {
      if (journal.at >= journal.bytes.length) continue;
      const length = 1 + Math.floor(random() * 16_384);
      const chunk = journal.bytes.subarray(journal.at, journal.at + length);
      journal.at += chunk.length;
      await redis.xadd(keys.journal(journal.journal), "*", "chunk", chunk);
    }
    await new Promise((done) => setTimeout(done, 3));
  }
  for (const journal of journals) await redis.xadd(keys.journal(journal), "*", "end", "1");
}

async function liveEntryId(
  redis: Redis,
  keys: ReturnType<typeof queueKeys>,
  journal: string,
): Promise<string> {
  const entries = (await redis.call("XRANGE", keys.live, "-", "+")) as [string, string[]][];
  const entry = entries.find(([, fields]) => fields[fields.indexOf("journal") + 1] === journal);
  if (entry === undefined) throw new Error(`${journal} is not announced`);
  return entry[0];
}

async function liveJobKey(
  redis: Redis,
  keys: ReturnType<typeof queueKeys>,
  journal: string,
): Promise<string> {
  return keys.job(await liveEntryId(redis, keys, journal));
}

async function liveHolderPid(
  redis: Redis,
  keys: ReturnType<typeof queueKeys>,
  journal: string,
): Promise<number> {
  const id = await liveEntryId(redis, keys, journal);
  const pending = (await redis.call("XPENDING", keys.live, WATCHERS_GROUP, id, id, 1)) as [
    string,
    string,
  ][];
  return Number(pending[0]?.[1].split("/").at(-2));
}

async function nothingPendingLive(
  redis: Redis,
  keys: ReturnType<typeof queueKeys>,
): Promise<boolean> {
  const [pending] = (await redis.call("XPENDING", keys.live, WATCHERS_GROUP)) as [number];
  return pending === 0 && (await redis.xlen(keys.live)) === 0;
}

/** Workers and journals for the scale-out tests: spawned `statefold` processes, watched by pid. */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { queueKeys, WORKERS_GROUP } from "../../src/scale/keys.js";
import { REPO_ROOT, statefold } from "../cli/cli-process.js";

const BIN = join(REPO_ROOT, "dist/src/cli/main.js");

export interface Spawned {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  stderr(): string;
}

/** `statefold ARGS`, running; its stderr kept. */
export function spawnStatefold(args: readonly string[]): Spawned {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, CI: "true" },
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (text: string) => {
    stderr += text;
  });
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return { child, exited, stderr: () => stderr };
}

/** Writes a generated journal; `gen` arguments as statefold gen takes them. */
export async function generate(out: string, args: readonly string[]): Promise<string> {
  const run = await statefold(["gen", ...args, "--out", out]);
  if (run.code !== 0) throw new Error(`gen failed: ${run.stderr}`);
  return out;
}

/**
 * What every published verdict must equal, by file: `statefold audit --format ndjson`'s line of
 * each journal (with `flags`: `--model FILE`), or, for a journal it cannot read, {"file","error"} with the error it prints.
 */
export async function auditLines(
  locations: readonly string[],
  flags: readonly string[] = [],
): Promise<Map<string, string>> {
  const run = await statefold([
    "audit",
    "--format",
    "ndjson",
    "--jobs",
    "1",
    ...flags,
    ...locations,
  ]);
  if (run.stdout === "") throw new Error(`audit failed: ${run.stderr}`);
  const verdicts = byFile(run.stdout.trimEnd().split("\n"));
  for (const line of run.stderr.split("\n").filter((text) => text !== "")) {
    const error = line.replace(/^statefold: /, "");
    const file = error.slice(0, error.indexOf(": "));
    verdicts.set(file, JSON.stringify({ file, error }));
  }
  return verdicts;
}

/** Every verdict published on the queue, in order. */
export async function publishedLines(redis: Redis, queue: string): Promise<string[]> {
  const entries = (await redis.call("XRANGE", queueKeys(queue).results, "-", "+")) as [
    string,
    string[],
  ][];
  return entries.map(([, fields]) => String(fields[fields.indexOf("result") + 1]));
}

export function byFile(lines: readonly string[]): Map<string, string> {
  return new Map(lines.map((line) => [(JSON.parse(line) as { file: string }).file, line]));
}

/** The job hash of the job for `location` (null while it is not yet delivered or once it is done). */
export async function jobSnapshots(redis: Redis, queue: string, location: string): Promise<number> {
  const keys = queueKeys(queue);
  const entries = (await redis.call("XRANGE", keys.jobs, "-", "+")) as [string, string[]][];
  const entry = entries.find(([, fields]) => fields[fields.indexOf("location") + 1] === location);
  if (entry === undefined) return -1;
  return Number((await redis.hget(keys.job(entry[0]), "snapshots")) ?? 0);
}

/** The pid of the worker holding the job for `location` (its consumer name ends in pid/thread). */
export async function holderPid(redis: Redis, queue: string, location: string): Promise<number> {
  const keys = queueKeys(queue);
  const entries = (await redis.call("XRANGE", keys.jobs, "-", "+")) as [string, string[]][];
  const entry = entries.find(([, fields]) => fields[fields.indexOf("location") + 1] === location);
  if (entry === undefined) throw new Error(`no job for ${location}`);
  const pending = (await redis.call(
    "XPENDING",
    keys.jobs,
    WORKERS_GROUP,
    entry[0],
    entry[0],
    1,
  )) as [string, string][];
  const consumer = pending[0]?.[1];
  if (consumer === undefined) throw new Error(`the job for ${location} is not held`);
  return Number(consumer.split("/").at(-2));
}

/** Polls `condition` every few milliseconds until it holds (or fails after `timeoutMs`). */
export async function until(condition: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((done) => setTimeout(done, 5));
  }
}

/** Nothing waits or is held on the queue. */
export async function nothingPending(redis: Redis, queue: string): Promise<boolean> {
  const keys = queueKeys(queue);
  const [pending] = (await redis.call("XPENDING", keys.jobs, WORKERS_GROUP)) as [number];
  return pending === 0 && (await redis.xlen(keys.jobs)) === 0;
}

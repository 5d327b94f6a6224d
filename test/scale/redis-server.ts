/**
 * A real redis-server for the scale-out tests: Debian's, installed by scripts/ensure-redis.sh
 * where missing, started on a free loopback port with its files in a scratch directory, and
 * stopped by its pid. Where it truly cannot be installed the tests are skipped, saying so loudly
 * — never in CI, where a missing server is a failure.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { Redis } from "ioredis";
import { REPO_ROOT } from "../cli/cli-process.js";

function hasRedisServer(): boolean {
  try {
    execFileSync("sh", ["-c", "command -v redis-server"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Whether redis-server is here, installing it first where it is missing. */
export function ensureRedisServer(): boolean {
  if (hasRedisServer()) return true;
  try {
    execFileSync("bash", [join(REPO_ROOT, "scripts/ensure-redis.sh")], { stdio: "inherit" });
  } catch {
    // told below
  }
  if (hasRedisServer()) return true;
  if (process.env.CI) throw new Error("redis-server is missing and could not be installed (CI)");
  console.warn(
    "\n*** statefold: SKIPPING the scale-out tests: redis-server is missing and could not be installed (run scripts/ensure-redis.sh as root) ***\n",
  );
  return false;
}

export class RedisServer {
  private process: ChildProcess | null = null;

  private constructor(
    readonly port: number,
    private readonly directory: string,
  ) {}

  /** A server on a free port; `appendonly` makes every acknowledged write durable (fsync always). */
  static async start(directory: string): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), directory);
    await server.restart();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.process?.pid ?? -1;
  }

  /** Starts it again (after `kill`) on the same port and files. */
  async restart(): Promise<void> {
    const args = ["--port", String(this.port), "--bind", "127.0.0.1", "--dir", this.directory];
    const persistence = ["--save", "", "--appendonly", "yes", "--appendfsync", "always"];
    this.process = spawn("redis-server", [...args, ...persistence], { stdio: "ignore" });
    const deadline = Date.now() + 10_000;
    while (!(await this.answers())) {
      if (Date.now() > deadline)
        throw new Error(`redis-server did not answer on port ${this.port}`);
      await new Promise((done) => setTimeout(done, 20));
    }
  }

  private async answers(): Promise<boolean> {
    const client = new Redis(this.url, { lazyConnect: true, retryStrategy: () => null });
    client.on("error", () => {});
    try {
      await client.connect();
      return (await client.ping()) === "PONG";
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  }

  /** Stops it by its pid, with `signal`, and waits for it to be gone. */
  async kill(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    const running = this.process;
    if (running === null || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((done) => running.once("exit", done));
    process.kill(running.pid as number, signal);
    await exited;
    this.process = null;
  }

  /** A client that reconnects through a restart (its connection errors meanwhile are expected). */
  client(): Redis {
    const client = new Redis(this.url);
    client.on("error", () => {});
    return client;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        resolve(typeof address === "object" && address !== null ? address.port : 0),
      );
    });
  });
}

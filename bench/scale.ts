/**
 * The scale-out row (docs/scale-out.md, "Throughput"): the same generated journals audited by
 * `statefold worker` — 1, 2 and 4 workers against a local redis-server, from `enqueue` to the
 * last verdict published — beside `statefold audit --jobs 1, 2, 4`, as journals/s and MB/s of
 * wall time. Run once, on a machine as quiet as it gets: `npm run bench:scale`.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const BIN = join(import.meta.dirname, "../src/cli/main.js");
const JOURNALS = 24;
const EVENTS_PER_JOURNAL = 100_000;
const COUNTS = [1, 2, 4];

function statefold(args: readonly string[]): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "ignore", "inherit"] });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((done) => child.once("exit", (code) => done(code)));
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return (performance.now() - start) / 1000;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        resolve(typeof address === "object" && address !== null ? address.port : 0),
      );
    });
  });
}

async function main(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), "statefold-bench-scale-"));
  const journals = join(directory, "journals");
  spawnSync("mkdir", ["-p", journals]);
  for (let seed = 1; seed <= JOURNALS; seed += 1) {
    const out = join(journals, `j${String(seed).padStart(3, "0")}.jsonl`);
    spawnSync(process.execPath, [
      BIN,
      "gen",
      "--events",
      String(EVENTS_PER_JOURNAL),
      "--nodes",
      "500",
      "--seed",
      String(seed),
      "--out",
      out,
    ]);
  }
  const files = readdirSync(journals).map((name) => join(journals, name));
  const megabytes = files.reduce((sum, file) => sum + statSync(file).size, 0) / 1e6;
  const port = await freePort();
  const server = spawn(
    "redis-server",
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      directory,
    ],
    { stdio: "ignore" },
  );
  await new Promise((done) => setTimeout(done, 500));
  const url = `redis://127.0.0.1:${port}`;
  const rows: string[] = [];
  const row = (what: string, seconds: number) =>
    rows.push(
      `| ${what} | ${(files.length / seconds).toFixed(1)} | ${(megabytes / seconds).toFixed(0)} |`,
    );
  try {
    for (const count of COUNTS) {
      row(
        `audit --jobs ${count}`,
        await timed(() =>
          exited(statefold(["audit", "--jobs", String(count), "--format", "ndjson", journals])),
        ),
      );
      const queue = `bench-${count}`;
      row(
        `${count} worker${count === 1 ? "" : "s"}`,
        await timed(async () => {
          await exited(statefold(["enqueue", url, "--queue", queue, ...files]));
          await Promise.all(
            Array.from({ length: count }, () =>
              exited(statefold(["worker", url, "--queue", queue, "--drain", "--quiet"])),
            ),
          );
        }),
      );
    }
  } finally {
    server.kill("SIGKILL");
    rmSync(directory, { recursive: true, force: true });
  }
  console.log(`${files.length} dag journals, ${megabytes.toFixed(0)} MB in all\n`);
  console.log("| how | journals/s | MB/s |\n| --- | ---: | ---: |");
  console.log(rows.join("\n"));
}

await main();

/**
 * Runs `statefold` two ways with one result shape: `statefold` spawns the built bin as a user
 * would (checking first that `dist/` is not older than the sources; `npm test` builds it) and
 * resolves when it exits, so that independent runs can overlap; and
 * `statefoldInProcess` calls `runCli` directly, which is a hundred times faster, for the many
 * tests that do not depend on the process around it.
 */
import { spawn } from "node:child_process";
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";
import { testTempDir } from "../support/temp-dirs.js";

export const REPO_ROOT = join(import.meta.dirname, "../..");
const BIN = join(REPO_ROOT, "dist/src/cli/main.js");

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `input`, when given, is the bin's standard input (else an empty one). */
export function statefold(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  input?: string | Uint8Array,
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    // A bin that exits without reading all of its input is for the test to judge, not an error.
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}

/** Paths in the tests are relative to the repository, as for the spawned bin. */
export async function statefoldInProcess(args: readonly string[]): Promise<CliRun> {
  if (process.cwd() !== REPO_ROOT) throw new Error(`run the tests from ${REPO_ROOT}`);
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    colour: false,
  });
  return { code, stdout, stderr };
}

/** A failure as docs/journals.md, "Bad input", wants it: exit status 2, one `statefold:` line per error, no stack trace. */
export function expectCleanFailure(run: CliRun): void {
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/^statefold: /);
  expect(run.stderr).not.toMatch(/^\s+at /m);
}

/** A fresh directory under the OS temp dir, with the given files written into it. */
export function tempFiles(files: Readonly<Record<string, string | Uint8Array>>): string {
  const dir = testTempDir("statefold-cli-");
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

/** A file of that name and content in a fresh temp directory (see tempFiles): its path. */
export function tempFile(name: string, content: string | Uint8Array): string {
  return join(tempFiles({ [name]: content }), name);
}

export const DIAMOND_NODES = [
  { id: "A", deps: [] },
  { id: "B", deps: ["A"] },
  { id: "C", deps: ["A"] },
  { id: "D", deps: ["B", "C"] },
];

export function headerLine(nodes: readonly unknown[] = DIAMOND_NODES): string {
  return JSON.stringify({ statefold: "journal", version: 1, dag: { nodes } });
}

function staleBuildOutput(): string | null {
  const sources = join(REPO_ROOT, "src");
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  for (const source of walk(sources).filter((path) => path.endsWith(".ts"))) {
    const built = join(REPO_ROOT, "dist", relative(REPO_ROOT, source)).replace(/\.ts$/, ".js");
    const builtTime = statSync(built, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (builtTime < statSync(source).mtimeMs) return relative(REPO_ROOT, source);
  }
  return null;
}

const stale = staleBuildOutput();
if (stale !== null) {
  throw new Error(`dist/ is older than ${stale}: run \`npm run build:ts\` before the CLI tests`);
}

/**
 * A gzipped journal in the page (docs/journals.md, "Compressed journals"): a file whose name ends
 * in .gz is decompressed as it streams from the `File`, for every model, and audited as the
 * command line audits the same file; one that is not gzip data, or is cut short, is refused
 * naming the file.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testTempDir } from "../support/temp-dirs.js";
import { auditInPage, buildAndServe, REPO_ROOT, shownReport, type WebPage } from "./web-page.js";

let web: WebPage;
const scratch = testTempDir("statefold-web-gz-");

beforeAll(async () => {
  web = await buildAndServe();
}, 60_000);

afterAll(async () => {
  await web?.close();
});

/** A gzipped copy of an example, named as the example with .gz after it. */
function gzipped(path: string): string {
  const written = join(scratch, `${path.split("/").at(-1)}.gz`);
  writeFileSync(written, gzipSync(readFileSync(join(REPO_ROOT, "examples", path))));
  return written;
}

/** What `statefold audit --format json` prints, with `args` before the journal. */
function cliJson(journal: string, args: readonly string[]): unknown {
  const run = spawnSync(
    process.execPath,
    ["dist/src/cli/main.js", "audit", "--format", "json", "--quiet", ...args, journal],
    { cwd: REPO_ROOT, encoding: "utf8" },
  );
  expect([0, 1]).toContain(run.status);
  return JSON.parse(run.stdout);
}

describe("a gzipped journal in the page", () => {
  it("is audited decompressed, whatever its model, as the command line audits it", async () => {
    const cases: [journal: string, model: string, dag?: string][] = [
      [gzipped("temporal/java-test-server.json"), "temporal"],
      [gzipped("operations/retry-ladder.jsonl"), ""],
      [gzipped("runtime/campaign.lisp-expr"), "", join(REPO_ROOT, "examples/runtime/dag.json")],
    ];
    for (const [journal, model, dag] of cases) {
      const page = await web.open();
      await page.selectOption("#model", model);
      expect(await auditInPage(page, journal, dag)).toBe("done");
      const args = [...(model === "" ? [] : ["--model", model]), ...(dag ? ["--dag", dag] : [])];
      expect(await shownReport(page)).toEqual(cliJson(journal, args));
      // Progress is told in the file's own bytes: the bar ends full, not past it.
      const bar = await page.$eval("#progress", (found) => {
        const progress = found as HTMLProgressElement;
        return { value: progress.value, max: progress.max };
      });
      expect(bar.value).toBe(bar.max);
      await page.close();
    }
  });

  it("is refused, naming the file, when it is not gzip data or is cut short", async () => {
    const whole = readFileSync(gzipped("operations/retry-ladder.jsonl"));
    const files: [name: string, bytes: Uint8Array][] = [
      ["not-gzip.jsonl.gz", new TextEncoder().encode('{"statefold":"journal"}\n')],
      ["cut-short.jsonl.gz", whole.subarray(0, whole.length - 20)],
    ];
    for (const [name, bytes] of files) {
      const journal = join(scratch, name);
      writeFileSync(journal, bytes);
      const page = await web.open();
      expect(await auditInPage(page, journal)).toBe("error");
      expect((await page.textContent("#status")) ?? "").toMatch(
        new RegExp(`^Cannot audit this: ${name.replace(/\./g, "\\.")}: cannot decompress`),
      );
      await page.close();
    }
  });
});

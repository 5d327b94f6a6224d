/**
 * The page's message for a journal whose line 1 is not JSON (issue 32): a header with a typo,
 * invalid UTF-8 or binary garbage on line 1 is reported as such — line 1, not JSON — and not
 * answered with advice to add a dag header or pick a DAG file, whatever model the broken header
 * meant. The message comes from the shared header reader (src/journal), which the page shows in
 * its own terms.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testTempDir } from "../support/temp-dirs.js";
import { auditInPage, buildAndServe, REPO_ROOT, type WebPage } from "./web-page.js";

let web: WebPage;
const scratch = testTempDir("statefold-web-header-errors-");

beforeAll(async () => {
  web = await buildAndServe();
}, 60_000);

afterAll(async () => {
  await web?.close();
});

/** An example journal's lines after its header. */
function recordsOf(path: string): string[] {
  return readFileSync(join(REPO_ROOT, "examples", path), "utf8")
    .split("\n")
    .slice(1);
}

/** The example's header line with its closing brace left out. */
function headerWithoutBrace(path: string): string {
  const header = readFileSync(join(REPO_ROOT, "examples", path), "utf8").split("\n")[0] ?? "";
  expect(header.endsWith("}")).toBe(true);
  return header.slice(0, -1);
}

const OPERATIONS = "operations/retry-ladder.jsonl";
const EXECUTIVE = "executive/conformant.jsonl";

const JOURNALS: [name: string, bytes: Uint8Array][] = [
  [
    "operations-typo.jsonl",
    Buffer.from([headerWithoutBrace(OPERATIONS), ...recordsOf(OPERATIONS)].join("\n")),
  ],
  [
    "executive-typo.jsonl",
    Buffer.from([headerWithoutBrace(EXECUTIVE), ...recordsOf(EXECUTIVE)].join("\n")),
  ],
  [
    "invalid-utf8.jsonl",
    Buffer.concat([
      Buffer.from('{"statefold":"journal","version":1,"model":"operations","note":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`"}\n${recordsOf(OPERATIONS).join("\n")}`),
    ]),
  ],
  ["picture.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])],
];

describe("the page's message for a line 1 that is not JSON", () => {
  it.each(JOURNALS)(
    "%s: line 1 is not JSON, with no advice to add a dag header",
    async (name, bytes) => {
      const journal = join(scratch, name);
      writeFileSync(journal, bytes);
      const page = await web.open();
      expect(await auditInPage(page, journal)).toBe("error");
      const shown = (await page.textContent("#status")) ?? "";
      expect(shown).toMatch(/^Cannot audit this: /);
      expect(shown).toContain(name);
      expect(shown).toMatch(/:1(:\d+)?: |\bline 1\b/);
      // Bytes that are not UTF-8 are named as such: a journal is UTF-8 text before it is JSON.
      expect(shown).toMatch(/\bline 1 is not (JSON|UTF-8 text)\b/);
      expect(shown).not.toMatch(/no DAG|add a header|DAG file/);
      expect(await page.isVisible("#report")).toBe(false);
      await page.close();
    },
  );
});

/**
 * docs/api.md's examples, run as a user runs them: each ```ts block is compiled to JavaScript,
 * its `"statefold"` import pointed at the built package (dist/, as `npm run build:ts` leaves it),
 * and run by Node from the repository's root. Each `console.log` must print the value after its
 * `// →`, so an example that stops working or changes its answer fails here.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const REPO_ROOT = join(import.meta.dirname, "../..");
const PACKAGE_ENTRY = pathToFileURL(join(REPO_ROOT, "dist/src/index.js")).href;
const EXPECTED_OUTPUT = /console\.log\(.*\); \/\/ → (.*)$/;

const page = readFileSync(join(REPO_ROOT, "docs/api.md"), "utf8");
const examples = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] as string);
const scratch = mkdtempSync(join(tmpdir(), "statefold-api-docs-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The example as a module Node runs: TypeScript types dropped, the package's own entry imported. */
function runnable(example: string): string {
  const { outputText } = ts.transpileModule(example, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  return outputText.replaceAll('from "statefold"', `from ${JSON.stringify(PACKAGE_ENTRY)}`);
}

describe("docs/api.md", () => {
  it("has examples that import the package and say what they print", () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
    for (const example of examples) {
      expect(example).toContain('from "statefold"');
      expect(example).toMatch(/\/\/ → /);
    }
  });

  it.each(examples.map((example, index) => [index + 1, example] as const))(
    "example %i runs and prints what it says",
    (index, example) => {
      const path = join(scratch, `example-${index}.mjs`);
      writeFileSync(path, runnable(example));
      const printed = execFileSync(process.execPath, [path], { cwd: REPO_ROOT, encoding: "utf8" });
      const expected = example
        .split("\n")
        .map((line) => EXPECTED_OUTPUT.exec(line)?.[1])
        .filter((output) => output !== undefined);
      expect(printed.trimEnd().split("\n")).toEqual(expected);
    },
  );
});

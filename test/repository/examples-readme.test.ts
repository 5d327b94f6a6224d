/**
 * examples/README.md tells the truth about the folder: it names every file there, each journal
 * in the section of the model its header names, with the exit status `statefold audit` gives it
 * (and with `--strict`, where the row says so).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MODEL_NAMES } from "../../src/models/registry.js";
import { statefoldInProcess } from "../cli/cli-process.js";

const ROOT = join(import.meta.dirname, "../..");
const README = "examples/README.md";

interface Row {
  /** The model the row's section is about, when its heading names one. */
  readonly sectionModel: string | null;
  /** Relative to examples/, as the README writes it. */
  readonly file: string;
  readonly verdict: string;
}

/** The rows of the README's tables whose first cell is a file of the folder. */
function fileRows(): Row[] {
  const rows: Row[] = [];
  for (const section of readFileSync(join(ROOT, README), "utf8").split(/^## /m)) {
    const heading = section.slice(0, section.indexOf("\n"));
    const sectionModel = MODEL_NAMES.find((model) => heading.includes(`\`${model}\``)) ?? null;
    for (const [, file, verdict] of section.matchAll(/^\| `([^`]+)` \| (.*) \|$/gm)) {
      if (file === undefined || verdict === undefined || file.startsWith("statefold ")) continue;
      rows.push({ sectionModel, file, verdict });
    }
  }
  return rows;
}

function exampleFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "examples"], { cwd: ROOT, encoding: "utf8" });
  return listed
    .split("\n")
    .filter((path) => path !== "" && path !== README)
    .map((path) => path.slice("examples/".length));
}

const isJournal = (file: string) => file.endsWith(".jsonl") || file.endsWith(".lisp-expr");

/**
 * The `--model` a row's journal is audited with: the model file its row names (`with `--model
 * FILE``), or the shipped model its folder is named after (`temporal/…`); none for a journal its
 * header places.
 */
function modelArguments(row: Row): string[] {
  const file = /with `--model ([^`]+)`/.exec(row.verdict)?.[1];
  if (file !== undefined) return ["--model", join("examples", file)];
  const folder = row.file.slice(0, row.file.indexOf("/"));
  return (MODEL_NAMES as readonly string[]).includes(folder) ? ["--model", folder] : [];
}

/** The rows of journals a registered model reads, by their header or as `dag`. */
const registeredModelJournal = (row: Row) =>
  isJournal(row.file) && modelArguments(row).length === 0;

/** The rows that give an exit status: every journal's, however it is audited. */
const auditedRow = (row: Row) => /\[\d[\];]/.test(row.verdict);

/** The model a journal's header names; a journal without a header line is read as a dag one. */
function headerModel(file: string): string {
  if (file.endsWith(".lisp-expr")) return "dag";
  const firstLine = readFileSync(join(ROOT, "examples", file), "utf8").split("\n")[0] ?? "";
  const header = JSON.parse(firstLine) as { statefold?: unknown; model?: unknown };
  if (header.statefold !== "journal") return "dag";
  return typeof header.model === "string" ? header.model : "dag";
}

/** `[0]`, `[1]` or `[0; 1 with `--strict`]`: the exit status without and with --strict. */
function expectedExits(verdict: string): { plain: number; strict: number } {
  const match = /\[(\d)(?:; (\d) with `--strict`)?\]/.exec(verdict);
  if (match === null) throw new Error(`no exit status in brackets: ${verdict}`);
  const plain = Number(match[1]);
  return { plain, strict: match[2] === undefined ? plain : Number(match[2]) };
}

/** A row's `with `--dag FILE``, the FILE relative to examples/ as the README writes it. */
function extraArguments(verdict: string): string[] {
  const dag = /with `--dag ([^`]+)`/.exec(verdict)?.[1];
  return dag === undefined ? [] : ["--dag", join("examples", dag)];
}

describe(README, () => {
  const rows = fileRows();

  it("names every file of the folder in a row of its own, and only those", () => {
    expect(rows.map((row) => row.file).sort()).toEqual(exampleFiles().sort());
  });

  it("puts each journal in the section of the model its header names", () => {
    const misplaced = rows
      .filter((row) => registeredModelJournal(row) && row.sectionModel !== headerModel(row.file))
      .map((row) => `${row.file}: a ${headerModel(row.file)} journal under ${row.sectionModel}`);
    expect(misplaced).toEqual([]);
  });

  it("gives each journal the exit status statefold audit gives it", async () => {
    const wrong: string[] = [];
    const audited = rows.filter(auditedRow);
    expect(audited.filter((row) => modelArguments(row).length > 0).length).toBeGreaterThan(10);
    for (const row of audited) {
      const { plain, strict } = expectedExits(row.verdict);
      const args = [
        "audit",
        join("examples", row.file),
        ...extraArguments(row.verdict),
        ...modelArguments(row),
      ];
      const found = {
        plain: (await statefoldInProcess(args)).code,
        strict: (await statefoldInProcess([...args, "--strict"])).code,
      };
      if (found.plain !== plain || found.strict !== strict) {
        wrong.push(`${row.file}: [${plain}; ${strict} strict], found ${JSON.stringify(found)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readDagOf, readJournalFile } from "../../src/journal/dag/files.js";
import { JournalError } from "../../src/journal/index.js";
import { testTempDir } from "../support/temp-dirs.js";

const NODES = [
  { id: "A", deps: [] },
  { id: "B", deps: ["A"] },
];
const header = (nodes: unknown) =>
  JSON.stringify({ statefold: "journal", version: 1, dag: { nodes } });

let dir = "";
const at = (name: string) => join(dir, name);

beforeAll(() => {
  dir = testTempDir("statefold-read-");
  writeFileSync(at("dag.json"), JSON.stringify({ nodes: NODES }));
  writeFileSync(at("other-dag.json"), JSON.stringify({ nodes: [NODES[0], { id: "B", deps: [] }] }));
  writeFileSync(at("with-header.jsonl"), `${header(NODES)}\n{"kind":"dispatched","id":"A"}\n`);
  writeFileSync(at("bare.jsonl"), '{"kind":"dispatched","id":"A"}\n');
  writeFileSync(at("bare.log"), '{"kind":"dispatched","id":"A"}\n');
  writeFileSync(at("campaign.lisp-expr"), '(:NODE-DISPATCHED "A")\n');
  mkdirSync(at("a-directory.jsonl"));
});

function failure(read: () => unknown): JournalError {
  try {
    read();
  } catch (error) {
    if (error instanceof JournalError) return error;
    throw error;
  }
  throw new Error("expected a JournalError");
}

describe("readJournalFile", () => {
  it("takes the DAG from the header", () => {
    const journal = readJournalFile(at("with-header.jsonl"));
    expect(journal.file).toBe(at("with-header.jsonl"));
    expect(journal.dag.nodes).toEqual(NODES);
    expect(journal.lines).toEqual([2]);
  });

  it("takes the DAG from --dag, and accepts it beside an identical header", () => {
    expect(readJournalFile(at("bare.jsonl"), { dagPath: at("dag.json") }).dag.nodes).toEqual(NODES);
    expect(
      readJournalFile(at("with-header.jsonl"), { dagPath: at("dag.json") }).events,
    ).toHaveLength(1);
  });

  it("reads any extension but .lisp-expr as JSONL", () => {
    expect(readJournalFile(at("bare.log"), { dagPath: at("dag.json") }).events).toEqual([
      { kind: "dispatched", id: "A" },
    ]);
    expect(readJournalFile(at("campaign.lisp-expr"), { dagPath: at("dag.json") }).events).toEqual([
      { kind: "dispatched", id: "A" },
    ]);
  });

  it("rejects a header DAG that differs from --dag, saying how", () => {
    const error = failure(() =>
      readJournalFile(at("with-header.jsonl"), { dagPath: at("other-dag.json") }),
    );
    expect(error.message).toBe(
      `${at("with-header.jsonl")}: expected the header's DAG to be ${at("other-dag.json")}'s, found node "B" depends on ["A"] in the header, on [] in ${at("other-dag.json")}`,
    );
  });

  it("rejects a journal with no DAG at all, saying what to do", () => {
    expect(failure(() => readJournalFile(at("bare.jsonl"))).message).toMatch(
      /bare\.jsonl: no DAG: line 1 is a record, not a header: add a header line .* or pass --dag FILE$/,
    );
    expect(failure(() => readJournalFile(at("campaign.lisp-expr"))).message).toMatch(
      /campaign\.lisp-expr: no DAG: a \.lisp-expr journal carries none: pass --dag FILE$/,
    );
  });

  it("names the file and the reason when it cannot be read", () => {
    expect(failure(() => readJournalFile(at("missing.jsonl"))).message).toBe(
      `${at("missing.jsonl")}: cannot read: no such file`,
    );
    expect(failure(() => readJournalFile(at("a-directory.jsonl"))).message).toBe(
      `${at("a-directory.jsonl")}: cannot read: it is a directory`,
    );
    expect(
      failure(() => readJournalFile(at("bare.jsonl"), { dagPath: at("nope.json") })).message,
    ).toBe(`${at("nope.json")}: cannot read: no such file`);
  });
});

describe("readDagOf", () => {
  it("reads a DAG file or a journal's header", () => {
    expect(readDagOf(at("dag.json")).nodes).toEqual(NODES);
    expect(readDagOf(at("with-header.jsonl")).nodes).toEqual(NODES);
  });

  it("rejects a .lisp-expr journal, which carries no DAG", () => {
    expect(failure(() => readDagOf(at("campaign.lisp-expr"))).message).toContain("carries no DAG");
  });
});

import { describe, expect, it } from "vitest";
import { dagFromJson, parseDagFile } from "../../src/journal/dag/dag-file.js";
import { JournalError } from "../../src/journal/errors.js";
import { encode } from "../support/bytes.js";
import { errorThrownBy } from "../support/outcome.js";

const dagError = (text: string | Uint8Array): JournalError =>
  errorThrownBy(JournalError, () =>
    parseDagFile(typeof text === "string" ? encode(text) : text, "dag.json"),
  );

/** A pretty-printed DAG file, one node per line from line 3. */
const dagFile = (...nodes: string[]) => `{\n  "nodes": [\n    ${nodes.join(",\n    ")}\n  ]\n}\n`;

describe("parseDagFile", () => {
  it("builds the DAG, keeping node order and ignoring extra fields", () => {
    const dag = parseDagFile(
      encode(dagFile('{"id": "B", "deps": ["A"], "title": "b"}', '{"id": "A", "deps": []}')),
      "dag.json",
    );
    expect(dag.nodes).toEqual([
      { id: "B", deps: ["A"] },
      { id: "A", deps: [] },
    ]);
  });

  it("accepts an empty node list and a leading byte-order mark", () => {
    const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, ...encode('{"nodes":[]}')]);
    expect(parseDagFile(bytes, "dag.json").nodes).toEqual([]);
  });

  it.each([
    ["an empty file", "", "dag.json: expected a DAG"],
    ["a blank file", " \n\t\n", "dag.json: expected a DAG"],
    [
      "a trailing comma",
      dagFile('{"id": "A", "deps": ["B",]}'),
      "dag.json:3:30: expected a value, found ']'",
    ],
    ["a missing colon", '{\n  "nodes" []\n}', "dag.json:2:11: expected ':', found '['"],
    [
      "an unterminated string",
      '{"nodes": [{"id": "A',
      "dag.json:1:21: expected '\"' to close the string, found the end of the text",
    ],
    [
      "text after the value",
      '{"nodes": []}\n{"nodes": []}',
      "dag.json:2:1: expected the end of the text, found '{'",
    ],
    ["a bad escape", '{"nodes": [{"id": "\\x"}]}', "dag.json:1:21: expected an escape"],
  ])("locates a syntax error: %s", (_, text, message) => {
    expect(dagError(text).message).toMatch(new RegExp(`^${escapeRegExp(message)}`));
  });

  it("names the line of invalid UTF-8", () => {
    const bytes = Uint8Array.from([
      ...encode('{\n  "nodes": [\n    {"id": "'),
      0xff,
      ...encode('"}]}'),
    ]);
    expect(dagError(bytes)).toMatchObject({
      line: 3,
      message: "dag.json:3: expected UTF-8 text, found bytes that are not UTF-8",
    });
  });

  it.each([
    [
      "a top-level array",
      "[]",
      'dag.json:1:1: expected a DAG {"nodes": [...]}, found an array of 0 items',
    ],
    [
      "no nodes field",
      '{"node": []}',
      'dag.json:1:1: expected "nodes" to be an array of {"id", "deps"}, found nothing',
    ],
    [
      "nodes not an array",
      '{"nodes": {"A": []}}',
      'dag.json:1:11: nodes: expected "nodes" to be an array of {"id", "deps"}, found an object',
    ],
    [
      "a node that is a string",
      dagFile('"A"'),
      'dag.json:3:5: nodes[0]: expected a node {"id": "...", "deps": [...]}, found "A"',
    ],
    [
      "a node without id",
      dagFile('{"id": "A", "deps": []}', '{"deps": []}'),
      'dag.json:4:5: nodes[1]: expected a field "id" (a string), found none',
    ],
    [
      "a numeric id",
      dagFile('{"id": 7, "deps": []}'),
      'dag.json:3:12: nodes[0].id: expected "id" to be a string, found 7',
    ],
    [
      "a node without deps",
      dagFile('{"id": "A"}'),
      'dag.json:3:5: nodes[0]: expected a field "deps" (an array of node ids), found none',
    ],
    [
      "deps as a string",
      dagFile('{"id": "A", "deps": "B"}'),
      'dag.json:3:25: nodes[0].deps: expected "deps" to be an array of node ids, found "B"',
    ],
    [
      "a dep that is null",
      dagFile('{"id": "A", "deps": []}', '{"id": "B", "deps": ["A", null]}'),
      "dag.json:4:31: nodes[1].deps[1]: expected a node id (a string), found null",
    ],
  ])("rejects a wrong shape with its line and column: %s", (_, text, message) => {
    expect(dagError(text).message).toBe(message);
  });

  it("rejects a duplicate id at its second occurrence", () => {
    const error = dagError(
      dagFile('{"id": "A", "deps": []}', '{"id": "B", "deps": []}', '{"id": "A", "deps": []}'),
    );
    expect(error.message).toBe(
      'dag.json:5:12: nodes[2].id: duplicate-id: expected each node id once, found "A" again (nodes[0] and nodes[2])',
    );
  });

  it("rejects a dangling dependency at the dependency", () => {
    const error = dagError(dagFile('{"id": "A", "deps": []}', '{"id": "B", "deps": ["A", "Z"]}'));
    expect(error.message).toBe(
      'dag.json:4:31: nodes[1].deps[1]: dangling-dependency: node "B" depends on "Z", which is not a node of the DAG',
    );
  });

  it("rejects a cycle, naming every stuck node, at the first of them", () => {
    const error = dagError(
      dagFile(
        '{"id": "ok", "deps": []}',
        '{"id": "B", "deps": ["C"]}',
        '{"id": "C", "deps": ["B"]}',
        '{"id": "D", "deps": ["C"]}',
      ),
    );
    expect(error).toMatchObject({ line: 4, column: 5 });
    expect(error.message).toContain("cycle: expected an acyclic DAG");
    expect(error.message).toMatch(/"B", "C", "D"$/);
  });

  it("rejects a self-dependency as a cycle", () => {
    expect(dagError('{"nodes":[{"id":"A","deps":["A"]}]}').message).toMatch(/cycle: .*"A"$/);
  });

  it("lists at most ten ids of a large cycle and counts the rest", () => {
    const ids = Array.from({ length: 25 }, (_, i) => `n${String(i).padStart(2, "0")}`);
    const nodes = ids.map((id, i) => ({ id, deps: [ids[(i + 1) % ids.length]] }));
    const message = dagError(JSON.stringify({ nodes })).message;
    expect(message).toMatch(/"n09" and 15 more$/);
  });
});

describe("dagFromJson", () => {
  it("locates errors inside a larger text, from the line that text starts on", () => {
    const text = '{"statefold":"journal","dag":{"nodes":[{"id":"A","deps":[1]}]}}';
    const value = JSON.parse(text).dag;
    let error: unknown;
    try {
      dagFromJson(value, { file: "j.jsonl", text, firstLine: 7 }, ["dag"]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({
      message: "j.jsonl:7:58: dag.nodes[0].deps[0]: expected a node id (a string), found 1",
    });
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

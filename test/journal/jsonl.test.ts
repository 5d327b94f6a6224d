import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dagOfHeader } from "../../src/journal/dag/header.js";
import { JournalError } from "../../src/journal/errors.js";
import { readJsonlJournal } from "../../src/journal/jsonl.js";
import { audit, type Dag } from "../../src/models/dag/index.js";
import { UnparseableLine } from "../../src/models/journal-source.js";
import { AWKWARD_NODE_IDS, dagArbitrary, rawLogArbitrary } from "../support/arbitraries.js";
import { encode } from "../support/bytes.js";
import { errorThrownBy } from "../support/outcome.js";

const bytesOf = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === "string" ? [...encode(part)] : part)));
const read = (text: string) => readJsonlJournal(encode(text), "j.jsonl");

const DAG_NODES = [
  { id: "A", deps: [] },
  { id: "B", deps: ["A"] },
];
const HEADER = JSON.stringify({ statefold: "journal", version: 1, dag: { nodes: DAG_NODES } });
const dispatched = (id: string) => JSON.stringify({ kind: "dispatched", id });

const readError = (text: string): JournalError => errorThrownBy(JournalError, () => read(text));

describe("readJsonlJournal", () => {
  describe("lines and blank lines", () => {
    it("numbers lines from 1, skipping blank lines and the header but counting them", () => {
      const text = `${HEADER}\n \t\n${dispatched("A")}\n\r\n\n${dispatched("B")}\n`;
      const journal = read(text);
      expect(dagOfHeader(journal.header)?.nodes.map((node) => node.id)).toEqual(["A", "B"]);
      expect(journal.events).toEqual([
        { kind: "dispatched", id: "A" },
        { kind: "dispatched", id: "B" },
      ]);
      expect(journal.lines).toEqual([3, 6]);
      expect(journal.tornTail).toBeNull();
    });

    it("takes CRLF line ends as line ends", () => {
      const journal = read(`${HEADER}\r\n${dispatched("A")}\r\n\r\n${dispatched("B")}\r\n`);
      expect(journal.events).toHaveLength(2);
      expect(journal.lines).toEqual([2, 4]);
    });

    it("reads an empty file as no header, no events, no torn tail", () => {
      expect(read("")).toEqual({
        header: null,
        events: [],
        lines: [],
        tornTail: null,
        missingHeader: { why: "the journal is empty" },
      });
    });

    it("takes any JSON value as an event and leaves judging it to the fold", () => {
      const journal = read('42\n"text"\nnull\n[1,2]\n{"kind":"landed"}\n');
      expect(journal.events).toEqual([42, "text", null, [1, 2], { kind: "landed" }]);
    });

    it("keeps a field named __proto__ as data", () => {
      const [event] = read('{"kind":"landed","id":"A","__proto__":{"id":"B"}}\n').events;
      expect(Object.hasOwn(event as object, "__proto__")).toBe(true);
      expect((event as { id: string }).id).toBe("A");
    });
  });

  describe("unparseable lines", () => {
    it("turns invalid JSON into UnparseableLine('invalid-json') at its line", () => {
      const journal = read(`${dispatched("A")}\n{"kind":\n${dispatched("B")}\n`);
      expect(journal.events[1]).toEqual(new UnparseableLine("invalid-json"));
      expect(journal.lines).toEqual([1, 2, 3]);
    });

    it("turns invalid UTF-8 into UnparseableLine('invalid-utf8'), even inside a JSON string", () => {
      const cases = [
        [0xff],
        [0xc0, 0xaf], // overlong "/"
        [0xed, 0xa0, 0x80], // a UTF-16 surrogate encoded as UTF-8
        [0xe2, 0x82], // truncated sequence
      ];
      for (const bad of cases) {
        const journal = readJsonlJournal(bytesOf('{"kind":"dispatched","id":"', bad, '"}\n'), "j");
        expect(journal.events).toEqual([new UnparseableLine("invalid-utf8")]);
      }
    });

    it("does not strip a byte-order mark: a BOM-prefixed line is invalid JSON", () => {
      const journal = readJsonlJournal(bytesOf([0xef, 0xbb, 0xbf], `${HEADER}\n`), "j");
      expect(dagOfHeader(journal.header)).toBeNull();
      expect(journal.events).toEqual([new UnparseableLine("invalid-json")]);
    });

    it("survives binary garbage: every line becomes an event or is skipped, none throws", () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
          let journal: ReturnType<typeof readJsonlJournal>;
          try {
            journal = readJsonlJournal(bytes, "garbage.bin");
          } catch (error) {
            // Only a line parsing to an object with a "statefold" property can be rejected.
            expect(error).toBeInstanceOf(JournalError);
            return;
          }
          expect(journal.events).toHaveLength(journal.lines.length);
          const lines = [...journal.lines, ...(journal.tornTail ? [journal.tornTail.line] : [])];
          expect(lines).toEqual([...new Set(lines)].sort((a, b) => a - b));
        }),
      );
    });

    it("reads a 10 MB single line, parseable or not", () => {
      const big = "x".repeat(10 * 1024 * 1024);
      const journal = read(`${JSON.stringify({ kind: "landed", id: "A", note: big })}\n`);
      expect((journal.events[0] as { note: string }).note).toHaveLength(big.length);
      expect(read(`{"note":"${big}\n`).events).toEqual([new UnparseableLine("invalid-json")]);
    });
  });

  describe("header", () => {
    it("is only the first non-blank line: a later statefold line is an event", () => {
      const journal = read(`${dispatched("A")}\n${HEADER}\n`);
      expect(dagOfHeader(journal.header)).toBeNull();
      expect(journal.events).toHaveLength(2);
      const afterHeader = read(`${HEADER}\n${HEADER}\n`);
      expect(afterHeader.events).toHaveLength(1);
      expect(afterHeader.lines).toEqual([2]);
    });

    it("is not a header when the first line does not parse", () => {
      const journal = read(`{oops\n${HEADER}\n`);
      expect(dagOfHeader(journal.header)).toBeNull();
      expect(journal.events).toHaveLength(2);
    });

    it("allows extra fields", () => {
      const header = JSON.stringify({ ...JSON.parse(HEADER), runtime: "librecode 0.9" });
      expect(
        dagOfHeader(
          read(`${header}
`).header,
        )?.nodes,
      ).toHaveLength(2);
    });

    it("reads another model's header without a DAG: its records are that model's to judge", () => {
      const journal = read(
        '{"statefold":"journal","version":1,"model":"operations","dag":7}\n{"kind":"lease","strand":"s","epoch":1}\n',
      );
      expect(journal.header).toEqual({ model: "operations", fields: null });
      expect(dagOfHeader(journal.header)).toBeNull();
      expect(journal.events).toEqual([{ kind: "lease", strand: "s", epoch: 1 }]);
      expect(journal.lines).toEqual([2]);
    });

    it('reads "model":"dag" as the default it names', () => {
      const header = JSON.stringify({ ...JSON.parse(HEADER), model: "dag" });
      expect(
        dagOfHeader(
          read(`${header}
`).header,
        ),
      ).toEqual(
        dagOfHeader(
          read(`${HEADER}
`).header,
        ),
      );
    });

    it.each([
      [
        '{"statefold":"log","version":1,"dag":{"nodes":[]}}',
        1,
        14,
        'header: expected "statefold": "journal", found "log"',
      ],
      [
        '{"statefold":"journal","version":2,"dag":{"nodes":[]}}',
        1,
        34,
        'header: expected "version": 1, found 2',
      ],
      [
        '{"statefold":"journal","dag":{"nodes":[]}}',
        1,
        1,
        'header: expected "version": 1, found none',
      ],
      ['{"statefold":"journal","version":1}', 1, 1, 'header: expected a field "dag"'],
      [
        '{"statefold":"journal","version":1,"model":"workflow","dag":{"nodes":[]}}',
        1,
        44,
        'header: expected "model": one of "dag", "operations", "executive", "temporal", "cadence", "stepfunctions", found "workflow"',
      ],
      [
        '{"statefold":"journal","version":1,"model":null,"dag":{"nodes":[]}}',
        1,
        44,
        'header: expected "model": one of "dag", "operations", "executive", "temporal", "cadence", "stepfunctions", found null',
      ],
      [
        '{"statefold":"journal","version":1,"model":"DAG","dag":{"nodes":[]}}',
        1,
        44,
        'header: expected "model": one of "dag", "operations", "executive", "temporal", "cadence", "stepfunctions", found "DAG"',
      ],
      ['{"statefold":"journal","version":1,"dag":[]}', 1, 42, "dag: expected a DAG"],
      [
        '{"statefold":"journal","version":1,"dag":{"nodes":{}}}',
        1,
        51,
        'dag.nodes: expected "nodes" to be an array',
      ],
      [
        '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":7,"deps":[]}]}}',
        1,
        58,
        'dag.nodes[0].id: expected "id" to be a string, found 7',
      ],
    ])("rejects %s at line %i column %i", (header, line, column, message) => {
      const error = readError(`${header}\n`);
      expect(error).toMatchObject({ file: "j.jsonl", line, column });
      expect(error.message).toContain(`j.jsonl:${line}:${column}: ${message}`);
    });

    it("reads a header's line after blank lines as a record: only line 1 is the header", () => {
      const journal = read('\n\n  {"statefold":"journal","version":"1"}\n');
      expect(journal.header).toBeNull();
      expect(journal.events).toEqual([{ statefold: "journal", version: "1" }]);
      expect(journal.lines).toEqual([3]);
    });

    it("rejects a header DAG with a cycle, naming the reason and the ids", () => {
      const nodes = [
        { id: "A", deps: ["B"] },
        { id: "B", deps: ["A"] },
      ];
      const header = JSON.stringify({ statefold: "journal", version: 1, dag: { nodes } });
      const error = readError(`${header}\n`);
      expect(error.message).toMatch(/^j\.jsonl:1:\d+: dag\.nodes\[0\]: cycle: .*"A", "B"$/);
    });
  });

  describe("torn tail", () => {
    it("is an unterminated final line that does not parse, with its line and byte offset", () => {
      const prefix = `${HEADER}\n${JSON.stringify({ kind: "dispatched", id: "é😀" })}\n\n`;
      const journal = read(`${prefix}{"kind":"lan`);
      expect(journal.tornTail).toEqual({ line: 4, offset: encode(prefix).length });
      expect(journal.events).toHaveLength(1);
    });

    it("counts byte offsets in a CRLF file", () => {
      const prefix = `${HEADER}\r\n${dispatched("A")}\r\n`;
      expect(read(`${prefix}{"kind":"lan`).tornTail).toEqual({
        line: 3,
        offset: encode(prefix).length,
      });
    });

    it("is a torn tail when the write stopped inside a multi-byte character", () => {
      const first = `${dispatched("A")}\n`;
      const bytes = bytesOf(first, '{"kind":"dispatched","id":"', [0xf0, 0x9f]);
      expect(readJsonlJournal(bytes, "j").tornTail).toEqual({
        line: 2,
        offset: encode(first).length,
      });
    });

    it("is no torn tail when the unterminated final line parses: that is an event", () => {
      const journal = read(`${dispatched("A")}\n${dispatched("B")}`);
      expect(journal.tornTail).toBeNull();
      expect(journal.lines).toEqual([1, 2]);
    });

    it("is no torn tail when the final line is terminated: an unparseable line is an event", () => {
      for (const end of ["\n", "\r\n"]) {
        const journal = read(`${dispatched("A")}\n{"kind":"lan${end}`);
        expect(journal.tornTail).toBeNull();
        expect(journal.events[1]).toEqual(new UnparseableLine("invalid-json"));
      }
    });

    it("is no torn tail when the unterminated final line is blank", () => {
      const journal = read(`${dispatched("A")}\n \t\r`);
      expect(journal.tornTail).toBeNull();
      expect(journal.events).toHaveLength(1);
    });

    it("treats a lone CR at the end of an unterminated line as part of the line", () => {
      expect(read(`${dispatched("A")}\r`).events).toEqual([{ kind: "dispatched", id: "A" }]);
      expect(read(`{"kind":"lan\r`).tornTail).toEqual({ line: 1, offset: 0 });
    });
  });

  describe("ids", () => {
    const idDag = (ids: readonly string[]) =>
      JSON.stringify({
        statefold: "journal",
        version: 1,
        dag: { nodes: ids.map((id) => ({ id, deps: [] })) },
      });

    it("round-trip through JSON.stringify, whatever characters they hold", () => {
      const ids = [...new Set([...AWKWARD_NODE_IDS, "a\u0000b", "\u{10FFFF}", "🧪 test"])];
      const text = [idDag(ids), ...ids.map(dispatched)].join("\n");
      const journal = read(text);
      expect(dagOfHeader(journal.header)?.nodes.map((node) => node.id)).toEqual(ids);
      expect(journal.events.map((event) => (event as { id: string }).id)).toEqual(ids);
    });

    it("decode \\uXXXX escapes and surrogate-pair escapes to the same id", () => {
      const id = 'é😀 "q" \\';
      const escaped = '"\\u00e9\\ud83d\\ude00\\u0020\\"q\\" \\\\"';
      const journal = read(`${idDag([id])}\n{"kind":"dispatched","id":${escaped}}\n`);
      expect((journal.events[0] as { id: string }).id).toBe(id);
      expect(audit(dagOfHeader(journal.header) as Dag, journal.events).integrity).toBeNull();
    });
  });

  it("gives the same audit as the events it was written from, line for line", () => {
    const journalArbitrary = dagArbitrary({ maxNodes: 6 }).chain((dag) =>
      fc.record({
        dag: fc.constant(dag),
        events: rawLogArbitrary(dag),
        lineEnds: fc.infiniteStream(fc.constantFrom("\n", "\r\n", "\n\n", "\n \t\n")),
      }),
    );
    fc.assert(
      fc.property(journalArbitrary, ({ dag, events, lineEnds }) => {
        const chunks: (string | number[])[] = [idHeader(dag)];
        const lines: number[] = [];
        let line = 1;
        for (const event of events) {
          const end = lineEnds.next().value as string;
          line += end.split("\n").length - 1;
          lines.push(line);
          chunks.push(end, serialised(event));
        }
        const journal = readJsonlJournal(bytesOf(...chunks, "\n"), "j");
        expect(journal.lines).toEqual(lines);
        expect(audit(dagOfHeader(journal.header) as Dag, journal.events, journal)).toEqual(
          audit(dag, events, { lines }),
        );
      }),
      { numRuns: 60 },
    );
  });
});

function idHeader(dag: Dag): string {
  const nodes = dag.nodes.map(({ id, deps }) => ({ id, deps }));
  return JSON.stringify({ statefold: "journal", version: 1, dag: { nodes } });
}

/** How a runtime could have written the entry: JSON, or bytes that are not JSON at all. */
function serialised(event: unknown): string | number[] {
  if (!(event instanceof UnparseableLine)) return JSON.stringify(event);
  return event.problem === "invalid-json" ? '{"kind":"landed",' : [0x7b, 0xff, 0x7d];
}

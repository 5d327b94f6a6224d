import { describe, expect, it } from "vitest";
import { dagOfHeader } from "../../src/journal/dag/header.js";
import { readJsonlHeader, readJsonlJournal } from "../../src/journal/jsonl.js";

const bytesOf = (text: string) => new TextEncoder().encode(text);
const HEADER = '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":[]}]}}';

function errorOf(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    return (error as Error).message;
  }
  return "no error";
}

describe("readJsonlHeader", () => {
  it("gives the header's DAG as the whole reader does", () => {
    const text = `${HEADER}\n{"kind":"dispatched","id":"A"}\n`;
    expect(readJsonlHeader(bytesOf(text), "j.jsonl")).toEqual(
      readJsonlJournal(bytesOf(text), "j.jsonl").header,
    );
    expect(dagOfHeader(readJsonlHeader(bytesOf(text), "j.jsonl"))?.nodes).toEqual([
      { id: "A", deps: [] },
    ]);
    expect(readJsonlHeader(bytesOf(text), "j.jsonl")?.model).toBeNull();
  });

  it("reads only line 1 as the header: after a blank line 1, a header's line is a record", () => {
    for (const blank of ["", "  ", "\t\r"]) {
      const text = `${blank}\n${HEADER}\n{"kind":"dispatched","id":"A"}\n`;
      expect(readJsonlHeader(bytesOf(text), "j.jsonl"), text).toBeNull();
      const journal = readJsonlJournal(bytesOf(text), "j.jsonl");
      expect(journal.header).toBeNull();
      expect(journal.events).toEqual([JSON.parse(HEADER), { kind: "dispatched", id: "A" }]);
      expect(journal.lines).toEqual([2, 3]);
    }
  });

  it("is null when line 1 is an event, unparseable, blank, or absent", () => {
    for (const text of [
      `{"kind":"dispatched","id":"A"}\n${HEADER}`,
      "not json\n",
      "\n \n",
      `\n${HEADER}`,
      "",
    ]) {
      expect(readJsonlHeader(bytesOf(text), "j.jsonl"), text).toBeNull();
    }
  });

  it("rejects a bad header with the whole reader's error", () => {
    for (const header of [
      '{"statefold":"journal","version":2,"dag":{"nodes":[]}}',
      '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":["B"]}]}}',
    ]) {
      const text = `${header}\n{"kind":"dispatched","id":"A"}\n`;
      const message = errorOf(() => readJsonlHeader(bytesOf(text), "j.jsonl"));
      expect(message).toMatch(/^j\.jsonl:1/);
      expect(message).toBe(errorOf(() => readJsonlJournal(bytesOf(text), "j.jsonl")));
    }
  });
});

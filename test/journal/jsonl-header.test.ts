import { describe, expect, it } from "vitest";
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
  it("gives the header's DAG as the whole reader does, past blank lines", () => {
    const text = `  \r\n\n${HEADER}\n{"kind":"dispatched","id":"A"}\n`;
    expect(readJsonlHeader(bytesOf(text), "j.jsonl")).toEqual(
      readJsonlJournal(bytesOf(text), "j.jsonl").header,
    );
    expect(readJsonlHeader(bytesOf(text), "j.jsonl")?.dag?.nodes).toEqual([{ id: "A", deps: [] }]);
    expect(readJsonlHeader(bytesOf(text), "j.jsonl")?.model).toBeNull();
  });

  it("is null when the first non-blank line is an event, unparseable, or absent", () => {
    for (const text of [`{"kind":"dispatched","id":"A"}\n${HEADER}`, "not json\n", "\n \n", ""]) {
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

import { describe, expect, it } from "vitest";
import { missingHeader, missingHeaderError } from "../../src/journal/missing-header.js";
import { encode } from "../support/bytes.js";

describe("missingHeader", () => {
  it("says what line 1 is instead of a header, reading no further", () => {
    expect(missingHeader(encode(""))).toEqual({ why: "the journal is empty" });
    expect(missingHeader(encode(" \t\r\n{}"))).toEqual({
      why: "line 1 is blank, and a journal header is only read on the first line",
    });
    expect(missingHeader(encode('{"kind":"dispatched","id":"A"}\n'))).toEqual({
      why: "line 1 is a record, not a header",
    });
  });

  it("names the column where line 1 stops being UTF-8 or JSON", () => {
    expect(missingHeader(new Uint8Array([0x7b, 0xc3, 0xa9, 0x80, 0x0a]))).toEqual({
      why: "line 1 is not UTF-8 text, so it is no header",
      column: 3,
    });
    expect(missingHeader(encode('{"statefold":"journal",\n{}'))).toEqual({
      why: "line 1 is not JSON (expected a key (a string in double quotes), found the end of the text), so it is no header",
      column: 24,
    });
  });

  it("knows another model's records by their shape", () => {
    const operations = missingHeader(encode('{"kind":"lease","strand":"s","epoch":1}'));
    expect(operations.lookalike).toBe("operations");
    const executive = missingHeader(encode('{"observation":{},"decision":{}}'));
    expect(executive.lookalike).toBe("executive");
    expect(
      missingHeaderError("j.jsonl", "executive", "no spec", executive, "add one").message,
    ).toBe("j.jsonl: no spec: line 1 is a record, not a header: add one");
  });
});

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeCharacterAt, jsonValueOffset, walkJson } from "../../src/journal/json-walk.js";
import { JSON_TEST_SUITE } from "../support/json-test-suite.js";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function acceptedByJsonParse(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe("walkJson", () => {
  it("accepts exactly what JSON.parse accepts on every JSONTestSuite file", () => {
    const files = readdirSync(JSON_TEST_SUITE);
    expect(files.length).toBeGreaterThan(300);
    const disagreements = files.filter((name) => {
      let text: string;
      try {
        text = strictUtf8.decode(readFileSync(join(JSON_TEST_SUITE, name)));
      } catch {
        return false; // not UTF-8: no text to walk
      }
      return (walkJson(text) === null) !== acceptedByJsonParse(text);
    });
    expect(disagreements).toEqual([]);
  });

  it("agrees with JSON.parse on any JSON value and on any mangling of one", () => {
    const mangled = fc
      .tuple(fc.json(), fc.nat(), fc.constantFrom("", ",", "]", "}", '"', ":", "\\", "-", "."))
      .map(
        ([json, at, insert]) =>
          json.slice(0, at % (json.length + 1)) + insert + json.slice(at % (json.length + 1)),
      );
    fc.assert(
      fc.property(fc.oneof(fc.json(), mangled), (text) => {
        expect(walkJson(text) === null).toBe(acceptedByJsonParse(text));
      }),
    );
  });

  it("visits every value once, with its path and where it starts", () => {
    const text = '{"a": [1, {"b": null}], "c": "x"}';
    const visits: string[] = [];
    walkJson(text, (path, offset) => visits.push(`${JSON.stringify(path)}@${offset}`));
    expect(visits).toEqual([
      "[]@0",
      '["a"]@6',
      '["a",0]@7',
      '["a",1]@10',
      '["a",1,"b"]@16',
      '["c"]@29',
    ]);
  });

  it("walks 100 000 levels of nesting without recursion", () => {
    const depth = 100_000;
    expect(walkJson("[".repeat(depth) + "]".repeat(depth))).toBeNull();
    expect(walkJson("[".repeat(depth))).toMatchObject({
      offset: depth,
      found: "the end of the text",
    });
  });
});

describe("jsonValueOffset", () => {
  it("finds the last of repeated keys, as JSON.parse keeps the last", () => {
    const text = '{"id": 1, "id": 2}';
    expect(jsonValueOffset(text, ["id"])).toBe(text.lastIndexOf("2"));
  });

  it("is null for a path that is not there", () => {
    expect(jsonValueOffset('{"nodes": []}', ["nodes", 0])).toBeNull();
  });
});

describe("describeCharacterAt", () => {
  it("quotes printable characters and spells out the invisible ones", () => {
    expect(describeCharacterAt("a😀", 1)).toBe("'😀'");
    expect(describeCharacterAt("\t", 0)).toBe("U+0009");
    expect(describeCharacterAt("\ufeff", 0)).toBe("U+FEFF");
    expect(describeCharacterAt("", 0)).toBe("the end of the text");
  });
});

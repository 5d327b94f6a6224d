/**
 * Numbers and strings of every length around the kernel's word and vector widths (8 and 16
 * bytes), valid and one byte off, wherever a scalar may stand: an extra field's value, the
 * audited fields' values, a key, an array element, the whole line. The kernel reads digits eight
 * at a time and short strings in one vector, so each length and each position of the offending
 * byte is a boundary of its own; both builds must give the reference's report (JSON.parse's
 * verdict) on every line.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { WasmEngine } from "../../bindings/index.js";
import { referenceEngine } from "../../src/models/dag/engine.js";
import { loadFlavours } from "../support/engines.js";
import { dagOf } from "../support/fixtures.js";

let engines: readonly WasmEngine[];
beforeAll(async () => {
  engines = await loadFlavours();
});

const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max });

/** A JSON number, or something one byte away from one. */
const numberArbitrary: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom("", "-", "+"),
    fc.oneof(digits(1, 24), fc.constant("0")),
    fc.option(fc.tuple(fc.constantFrom(".", ".."), digits(0, 20)).map(([dot, d]) => dot + d)),
    fc.option(
      fc.tuple(fc.constantFrom("e", "E", "e+", "E-", "e-"), digits(0, 12)).map(([e, d]) => e + d),
    ),
    fc.constantFrom("", "", "", "x", ":", "/", "9", " ", "\u00e9"),
  )
  .map((parts) => parts.map((part) => part ?? "").join(""));

/** String content of 0–40 characters, now and then with a quote, escape, control or non-ASCII character. */
const stringContentArbitrary: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 20, arbitrary: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz-0123456789:.") },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '\\"',
          "\\\\",
          "\\n",
          "\\u00e9",
          "\\ud83d\\ude00",
          "\\x",
          "\\u12",
          "\t",
          "\u0001",
          "\u007f",
          "é",
          "😀",
          '"',
          "\\",
        ),
      },
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(""));

const stringArbitrary = fc
  .tuple(stringContentArbitrary, fc.constantFrom('"', '"', '"', ""))
  .map(([content, close]) => `"${content}${close}`);

const scalarArbitrary = fc.oneof(numberArbitrary, stringArbitrary);

/** A line with the scalar in one of the places a scalar can stand. */
const lineArbitrary: fc.Arbitrary<string> = fc
  .tuple(scalarArbitrary, fc.nat({ max: 6 }))
  .map(([scalar, place]) => {
    switch (place) {
      case 0:
        return `{"kind":"dispatched","id":"A","x":${scalar}}`;
      case 1:
        return `{"x":${scalar},"kind":"dispatched","id":"A"}`;
      case 2:
        return `{"kind":"gate-checked","id":"A","result":${scalar}}`;
      case 3:
        return `{"kind":"dispatched","id":${scalar}}`;
      case 4:
        return `{"kind":"dispatched","id":"A",${scalar}:1}`;
      case 5:
        return `{"kind":"dispatched","id":"A","x":[${scalar},${scalar}]}`;
      default:
        return scalar;
    }
  });

const dag = dagOf(["A"]);

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe("scalars at the kernel's word and vector boundaries", () => {
  it("are judged as JSON.parse judges them, on every line and in both builds", async () => {
    const verdicts = { parsed: 0, rejected: 0 };
    await fc.assert(
      fc.asyncProperty(lineArbitrary, async (line) => {
        verdicts[parses(line) ? "parsed" : "rejected"]++;
        const bytes = new TextEncoder().encode(`${line}\n`);
        const reference = await referenceEngine.auditBytes(dag, bytes);
        for (const engine of engines) {
          expect(await engine.auditBytes(dag, bytes), `${engine.flavour}: ${line}`).toEqual(
            reference,
          );
        }
      }),
      { numRuns: 4000 },
    );
    // Both verdicts must be common, or the property says little.
    expect(verdicts.parsed).toBeGreaterThan(800);
    expect(verdicts.rejected).toBeGreaterThan(800);
  });

  it("reads strings of every length up to 40 with one special character at every position", async () => {
    // A control character and a bad escape make the line invalid; an escape and a non-ASCII
    // character are content the scanner must step over.
    for (const special of ["\u0001", "\\x", "\\n", "é"]) {
      for (let length = 1; length <= 40; length++) {
        for (let position = 0; position < length; position++) {
          const content = `${"k".repeat(position)}${special}${"k".repeat(length - position - 1)}`;
          for (const line of [
            `{"kind":"dispatched","id":"A","x":"${content}"}`,
            `{"kind":"dispatched","id":"A","${content}":1}`,
            `{"kind":"dispatched","id":"${content}"}`,
          ]) {
            const bytes = new TextEncoder().encode(`${line}\n`);
            const reference = await referenceEngine.auditBytes(dag, bytes);
            for (const engine of engines) {
              expect(await engine.auditBytes(dag, bytes), `${engine.flavour}: ${line}`).toEqual(
                reference,
              );
            }
          }
        }
      }
    }
  });

  it("reads digit runs of every length up to 40 in every position of a line", async () => {
    for (let length = 1; length <= 40; length++) {
      const run = "123456789".repeat(5).slice(0, length);
      for (const line of [
        `{"kind":"dispatched","id":"A","seq":${run}}`,
        `{"seq":${run},"kind":"dispatched","id":"A"}`,
        `{"kind":"dispatched","id":"A","ms":${run}.${run}e-${run}}`,
        `{"kind":"dispatched","id":"A","seq":${run}x}`,
        run,
      ]) {
        const bytes = new TextEncoder().encode(`${line}\n`);
        const reference = await referenceEngine.auditBytes(dag, bytes);
        for (const engine of engines) {
          expect(await engine.auditBytes(dag, bytes), `${engine.flavour}: ${line}`).toEqual(
            reference,
          );
        }
      }
    }
  });
});

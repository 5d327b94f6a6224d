/**
 * Integer fields (docs/models/operations.md, "Records": "a JSON number whose value is a safe
 * integer, as `JSON.parse` reads it"): the kernel decides them on the exact decimal value, and
 * must agree with `Number.isSafeInteger(JSON.parse(text))` — and read the same value — for
 * numbers that round onto or off the 2^53 boundary, onto an integer from just beside it, onto
 * (−)0 from far below the smallest double, and every other spelling of an integer.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  loadOperationsEngine,
  type WasmOperationsEngine as OperationsEngine,
} from "../../bindings/operations/index.js";
import { audit } from "../../src/models/operations/index.js";
import { FLAVOURS } from "../support/engines.js";
import { readOperationsJournal } from "../support/operations-jsonl.js";

let engines: readonly OperationsEngine[];
beforeAll(async () => {
  engines = await Promise.all(FLAVOURS.map((flavour) => loadOperationsEngine({ flavour })));
});

/** Number texts, with what `Number.isSafeInteger(JSON.parse(text))` says of each. */
const TABLE: readonly (readonly [string, boolean])[] = [
  ["0", true],
  ["-0", true],
  ["3", true],
  ["3.0", true],
  ["1e3", true],
  ["1E+3", true],
  ["30000e-1", true],
  ["0.3e1", true],
  ["-0.0e-7", true],
  ["1.5", false],
  ["1e300", false],
  ["1e-7", false],
  ["9007199254740991", true], // 2^53 − 1
  ["-9007199254740991", true],
  ["9007199254740992", false], // 2^53
  ["9007199254740993", false], // rounds to 2^53
  ["-9007199254740993", false],
  ["9007199254740991.4", true], // rounds to 2^53 − 1
  ["9007199254740991.49999999999999999999", true],
  ["9007199254740991.5", false], // a tie, to the even 2^53
  ["9007199254740990.5", true], // a tie, to the even 2^53 − 2
  ["9007199254740989.5", true], // a tie, to the even 2^53 − 2
  ["90071992547409915e-1", false],
  ["900719925474099.1e1", true],
  ["4503599627370495.5", false], // 2^52 − 1/2 is a double
  ["4503599627370495.75", true], // a tie, to the even 2^52
  ["4503599627370495.25", true], // a tie, to the even 2^52 − 1
  ["4503599627370496.5", true], // a tie, to the even 2^52
  ["4503599627370497.5", true], // a tie, to 2^52 + 2
  ["4503599627370496.25", true],
  ["1.0000000000000001", true], // rounds to 1
  ["1.00000000000000011102230246251565404236316680908203125", true], // 1 + 2^−53: a tie, to 1
  ["1.00000000000000011102230246251565404236316680908203126", false],
  ["1.0000000000000002", false],
  ["0.99999999999999995", true], // rounds to 1
  ["0.999999999999999944488848768742172978818416595458984375", true], // 1 − 2^−54: a tie, to 1
  ["0.999999999999999944488848768742172978818416595458984374", false],
  ["2.9999999999999999", true],
  ["-2.9999999999999999", true],
  ["123456789.00000000001", true],
  ["123456789.0000001", false],
  ["1e-400", true], // rounds to 0
  ["-1e-400", true], // rounds to −0
  ["2e-324", true], // below half the smallest subnormal: 0
  ["2.4703282292062327e-324", true], // just below 2^−1075
  ["2.4703282292062328e-324", false], // just above 2^−1075: the smallest subnormal
  ["5e-324", false],
  ["1e-323", false],
  ["0.1", false],
  ["0.5", false],
  ["0.50000000000000000001", false],
  ["1e16", false],
  ["9.007199254740991e15", true],
  ["9.007199254740993e15", false],
  ["0.9007199254740991e16", true],
  ["100000000000000000000e-5", true],
  ["1e0000000000000000000000003", true],
  ["1e-0000000000000000000000003", false],
  ["1e99999999999999999999999999", false],
  ["0e99999999999999999999999999", true],
  ["123e-99999999999999999999999999", true],
];

function safeValue(text: string): number | null {
  const value = JSON.parse(text) as number;
  return Number.isSafeInteger(value) ? value : null;
}

/**
 * A journal that reads `text` as a lease epoch and then shows its value: a second lease of the
 * same value is `epoch-regressed`, one of the value plus one is not.
 */
function journalOf(text: string, value: number | null): Uint8Array {
  const lines = [`{"kind":"lease","strand":"s","epoch":${text}}`];
  if (value !== null) {
    lines.push(`{"kind":"lease","strand":"s","epoch":${value}}`);
    lines.push(`{"kind":"lease","strand":"s","epoch":${value + 1}}`);
    lines.push(`{"kind":"accepted","op":"o","strand":"t","epoch":${text}}`);
    lines.push(
      `{"kind":"intent","op":"o","key":"k","effect":"e","attempt":${text},"at":${text},"outputLimit":${text}}`,
    );
  }
  return new TextEncoder().encode(`${lines.join("\n")}\n`);
}

async function expectAsReference(text: string): Promise<void> {
  const value = safeValue(text);
  const bytes = journalOf(text, value);
  const journal = readOperationsJournal(bytes);
  const expected = audit(journal.records, { lines: journal.lines, tornTail: null });
  for (const engine of engines) expect(await engine.auditBytes(bytes)).toEqual(expected);
}

describe("integer fields", () => {
  it("are what Number.isSafeInteger(JSON.parse(text)) says, for the table", () => {
    for (const [text, safe] of TABLE)
      expect([text, Number.isSafeInteger(JSON.parse(text))]).toEqual([text, safe]);
  });

  it("are read by the kernel as the reference reads them, value included, for the table", async () => {
    for (const [text] of TABLE) await expectAsReference(text);
  });

  it("are read as the reference reads them for short spellings, plain and not", async () => {
    // Up to eight bytes of digits are read as one word: every length, every digit, and the
    // short numbers that are not plain digits, which must fall back to the exact reading.
    const short = fc.oneof(
      fc.integer({ min: -99_999_999, max: 99_999_999 }).map(String),
      fc
        .tuple(
          fc.integer({ min: -9999, max: 9999 }),
          fc.constantFrom(".0", ".5", "e0", "e1", "E+2", "e-1", ".25e1"),
        )
        .map(([whole, tail]) => `${whole}${tail}`),
    );
    await fc.assert(fc.asyncProperty(short, expectAsReference), { numRuns: 300 });
  });

  it("are read as the reference reads them for random spellings near integers and the boundary", async () => {
    const digits = (n: number) =>
      fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 0, maxLength: n });
    const spelling = fc.oneof(
      // Near an integer: many 9s or 0s after the point.
      fc
        .tuple(
          fc.constantFrom("", "-"),
          fc.bigInt({ min: 0n, max: 2n ** 54n }),
          fc.constantFrom(".", ".0000000000000000", ".9999999999999999"),
          digits(30),
          fc.constantFrom("", "e0", "e-1", "e1", "E+2", "e-3"),
        )
        .map(
          ([sign, whole, point, rest, exponent]) =>
            `${sign}${whole}${point === "." && rest === "" ? "" : point + rest}${exponent}`,
        ),
      // Around 2^53 and 2^52.
      fc
        .tuple(
          fc.constantFrom("", "-"),
          fc.constantFrom(2n ** 53n, 2n ** 52n),
          fc.integer({ min: -3, max: 3 }),
          fc.constantFrom("", ".5", ".49999999999999999", ".50000000000000001", ".25", ".75"),
        )
        .map(([sign, base, offset, fraction]) => `${sign}${base + BigInt(offset)}${fraction}`),
      // Tiny values around 2^−1075.
      fc
        .tuple(
          fc.constantFrom("", "-"),
          fc.constantFrom(
            "2.4703282292062327",
            "2.4703282292062328",
            "1",
            "4.9",
            "2.47032822920623272088284396434110686182529901307162382212792841250337753635104375932649918180817996189898282347722858865463328355177969898199387398005390939063150356595155702263922908583924491051844359318028499365361525003193704576782492193656236698636584807570015857692699037063119282795585513329278343384093519780155312465972635795746227664652728272200563740064854999770965994704540208281662262378573934507363390079677619305775067401763246736009689513405355374585166611342237666786041621596804619144672918403005300575308490487653917113865916462395249126236538818796362393732804238910186723484976682350898633885879256283027559956575244555072551893136908362547791869486679949683240497058210285131854513962138377228261454376934125320985913276672363281255",
          ),
          fc.constantFrom("e-324", "e-325", "e-323"),
        )
        .map(([sign, mantissa, exponent]) => `${sign}${mantissa}${exponent}`),
    );
    await fc.assert(fc.asyncProperty(spelling, expectAsReference), { numRuns: 300 });
  });
});

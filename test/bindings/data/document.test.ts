/**
 * The data kernel's reader of JSON documents (assembly/data/document.ts), worked: each way a
 * document is refused, word for word as the reference's reader words it
 * (src/journal/json-array-source.ts) — the byte, the line and the column in characters — fed whole
 * and byte by byte; and its memory, which holds an element and a chunk, never the document.
 */
import { describe, expect, it } from "vitest";
import { loadDataEngine } from "../../../bindings/data/engine.js";
import type { CompiledModel } from "../../../src/models/data/compiled.js";
import { auditDataBytes } from "../../../src/models/data/engine.js";
import { encode } from "../../support/bytes.js";
import { FLAVOURS } from "../../support/engines.js";
import { chunked } from "../../support/jsonl-encoding.js";
import { path, paymentIntents } from "./models.js";

const MODEL: CompiledModel = {
  ...paymentIntents(),
  source: { arrays: [path("events"), path("history.events"), []] },
};

const FILE = "history.json";

/** What every build of the kernel says of `bytes`, whole and byte by byte; and the reference. */
async function refusals(bytes: Uint8Array): Promise<string[]> {
  const messages: string[] = [];
  const refusal = async (audit: () => unknown) => {
    try {
      await audit();
      messages.push("no refusal");
    } catch (error) {
      messages.push((error as Error).message);
    }
  };
  for (const flavour of FLAVOURS) {
    const engine = await loadDataEngine(MODEL, { flavour });
    await refusal(() => engine.auditBytes(bytes, { file: FILE }));
    const bytewise = chunked(bytes, { sizes: [1], feed: "reused-buffer" });
    await refusal(() => engine.auditBytes(bytewise, { file: FILE }));
  }
  await refusal(() => auditDataBytes(MODEL, bytes, { file: FILE }));
  return messages;
}

const everyEngine = (message: string) => Array(FLAVOURS.length * 2 + 1).fill(message);

describe("the data kernel refuses a broken document as the reference does", () => {
  it("cut short inside the records array", async () => {
    expect(await refusals(encode('{"events": [{"type": "payment_intent.created"}'))).toEqual(
      everyEngine(`${FILE}:1:47: expected ',' or ']', found the end of the text at byte 46`),
    );
  });

  it("a control character in a string outside the records array", async () => {
    expect(await refusals(encode('{"meta": "tab\u0001", "events": []}'))).toEqual(
      everyEngine(
        `${FILE}:1:14: expected a character (control characters must be escaped), found U+0001 at byte 13`,
      ),
    );
  });

  it("bytes that are no UTF-8 inside an element, on its second line", async () => {
    const bytes = Uint8Array.from(
      Buffer.from('{"events": [\n  {"type": "x", "note": "caf\xe9 \xff"}\n]}', "latin1"),
    );
    expect(await refusals(bytes)).toEqual(
      everyEngine(`${FILE}:2:29: expected a UTF-8 continuation byte, found byte 0x20 at byte 42`),
    );
  });

  it("a character out of place is named whole, at its column in characters", async () => {
    expect(await refusals(encode('{"note": "é", "events": [] é}'))).toEqual(
      everyEngine(`${FILE}:1:28: expected ',' or '}', found 'é' at byte 28`),
    );
  });

  it("text after the document", async () => {
    expect(await refusals(encode('{"events": []} x'))).toEqual(
      everyEngine(`${FILE}:1:16: expected the end of the text, found 'x' at byte 15`),
    );
  });

  it("a comma before the records array's end", async () => {
    expect(await refusals(encode('{"events": [{"type": "a"}, ]}'))).toEqual(
      everyEngine(`${FILE}:1:28: expected a value, found ']' at byte 27`),
    );
  });

  it("elements without a comma between them, on the next line", async () => {
    expect(await refusals(encode('{"events": [{"type": "a"}\n  {"type": "b"}]}'))).toEqual(
      everyEngine(`${FILE}:2:3: expected ',' or ']', found '{' at byte 28`),
    );
  });

  it("no path of the source leads to an array", async () => {
    expect(await refusals(encode('{"events": {"not": []}, "history": {"events": 5}}'))).toEqual(
      everyEngine(
        `${FILE}: expected an array of records at one of: events, history.events, the document itself; found none`,
      ),
    );
  });
});

describe("the data kernel's memory for a document", () => {
  /** A `{"events": [...]}` document of `count` records that keep nothing, one a line. */
  function document(count: number): Uint8Array {
    const record = '{"type": "payment_intent.processing", "data": {"object": {"id": "pi"}}}';
    return encode(`{"events": [\n${Array(count).fill(record).join(",\n")}\n]}`);
  }

  it("holds an element and a chunk, not the document", async () => {
    const memory: number[] = [];
    for (const count of [1_000, 100_000]) {
      const engine = await loadDataEngine(MODEL);
      const report = await engine.auditBytes(
        chunked(document(count), { sizes: [65_536], feed: "reused-buffer" }),
      );
      expect(report.events).toBe(count);
      memory.push(engine.memoryBytes());
    }
    expect(memory[1]).toBe(memory[0]);
  });

  it("an element larger than the memory allows is a limit at the line it starts on", async () => {
    const engine = await loadDataEngine(MODEL, { memoryLimitBytes: 8 << 20 });
    const big = `{"type": "x", "note": "${"x".repeat(6 << 20)}"}`;
    const bytes = encode(`{"events": [\n{"type": "x"},\n${big}\n]}`);
    await expect(
      engine.auditBytes(chunked(bytes, { sizes: [65_536], feed: "reused-buffer" }), { file: FILE }),
    ).rejects.toThrow(
      `${FILE}:3: the WebAssembly memory cannot grow any further: the journal's kept instances do not fit`,
    );
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { loadDataEngine, type WasmDataEngine } from "../../../bindings/data/engine.js";
import { intentRecord, jsonl, paymentIntents, tasksModel } from "./models.js";

let engine: WasmDataEngine;

beforeAll(async () => {
  engine = await loadDataEngine(paymentIntents());
});

const holds = { holds: true };
const NOT_AN_INT =
  'field "amount" (data.object.amount) is not an int (a safe integer, or a string of digits within 64 bits)';

describe("loadDataEngine: the payment intents of docs/models/data.md", () => {
  it("a lifecycle that keeps every rule is conformant, its instances counted by state", async () => {
    const report = await engine.auditBytes(
      jsonl(
        intentRecord("payment_intent.created", 1, "pi_1", 500),
        intentRecord("payment_intent.processing", 2, "pi_1"),
        intentRecord("payment_intent.succeeded", 3, "pi_1", 500),
      ),
    );
    expect(report).toEqual({
      model: "payment-intents",
      conformant: true,
      strictlyConformant: true,
      events: 3,
      integrity: null,
      tornTail: null,
      invariants: Object.fromEntries(paymentIntents().rules.map((rule) => [rule.name, holds])),
      legality: { illegal: 0, first: [] },
      final: {
        entities: {
          intent: { requires_payment_method: 0, processing: 0, succeeded: 1, canceled: 0 },
        },
        counters: { open: 0 },
        registers: {},
      },
    });
  });
});

describe("loadDataEngine: findings", () => {
  it("reports each clause that cannot apply under its rule, in record order, then the instances open at the end", async () => {
    const report = await engine.auditBytes(
      jsonl(
        intentRecord("payment_intent.created", 1, "pi_1", 500),
        intentRecord("payment_intent.created", 2, "pi_1", 500),
        intentRecord("payment_intent.succeeded", 3, "pi_1", 500),
        intentRecord("payment_intent.processing", 5, "pi_2"),
        intentRecord("pi.created", 6, "pi_3", 1),
        { type: "refund", seq: 7 },
      ),
    );
    const created = "payment_intent.created";
    const at = (index: number, kind: string) => ({ index, line: index + 1, kind });
    const intent = (key: string) => ({ entity: "intent", key });
    expect(report.legality).toEqual({
      illegal: 9,
      first: [
        { ...at(1, created), rule: "created-once", reason: "duplicate", ...intent("pi_1") },
        { ...at(1, created), rule: "payment_intent.created#2", reason: "no-instance" },
        {
          ...at(2, "payment_intent.succeeded"),
          rule: "lifecycle",
          reason: "wrong-state",
          ...intent("pi_1"),
        },
        { ...at(2, "payment_intent.succeeded"), rule: "amount-kept", reason: "check-failed" },
        { ...at(3, "payment_intent.processing"), rule: "sequence", reason: "out-of-sequence" },
        {
          ...at(3, "payment_intent.processing"),
          rule: "lifecycle",
          reason: "missing",
          ...intent("pi_2"),
        },
        { ...at(5, "refund"), rule: "known-kinds", reason: "unknown-kind" },
        { ...at(5, "refund"), rule: "intent.atEnd", reason: "open-at-end", ...intent("pi_1") },
        { ...at(5, "refund"), rule: "intent.atEnd", reason: "open-at-end", ...intent("pi_3") },
      ],
    });
    expect(report.invariants).toEqual({
      "created-once": { holds: false, ...at(1, created), reason: "duplicate", ...intent("pi_1") },
      "payment_intent.created#2": { holds: false, ...at(1, created), reason: "no-instance" },
      "payment_intent.created#3": holds,
      lifecycle: {
        holds: false,
        ...at(2, "payment_intent.succeeded"),
        reason: "wrong-state",
        ...intent("pi_1"),
      },
      "amount-kept": { holds: false, ...at(2, "payment_intent.succeeded"), reason: "check-failed" },
      "payment_intent.succeeded#3": holds,
      "known-kinds": { holds: false, ...at(5, "refund"), reason: "unknown-kind" },
      sequence: { holds: false, ...at(3, "payment_intent.processing"), reason: "out-of-sequence" },
      "intent.atEnd": {
        holds: false,
        ...at(5, "refund"),
        reason: "open-at-end",
        ...intent("pi_1"),
      },
    });
    expect(report.final).toEqual({
      entities: {
        intent: { requires_payment_method: 2, processing: 0, succeeded: 0, canceled: 0 },
      },
      counters: { open: 2 },
      registers: {},
    });
    expect(report.conformant).toBe(false);
  });

  it("reads an int from a safe-integer number in any spelling or from a string of digits", async () => {
    for (const [created, succeeded] of [
      ['"500"', "500.0"],
      ["5e2", '"500"'],
      ['"-0"', "-0"],
      ['"500"', "50000e-2"],
      ['"500"', "0.0000500e7"],
      ['"\\u0035\\u0030\\u0030"', "500"],
    ]) {
      const report = await engine.auditBytes(
        jsonl(
          `{"type":"payment_intent.created","seq":1,"data":{"object":{"id":"pi_1","amount":${created}}}}`,
          intentRecord("payment_intent.processing", 2, "pi_1"),
          `{"type":"payment_intent.succeeded","seq":"3","data":{"object":{"id":"pi_1","amount":${succeeded}}}}`,
        ),
      );
      expect(report.legality, `${created} then ${succeeded}`).toEqual({ illegal: 0, first: [] });
    }
  });

  it("compares strings after decoding their escapes, and finds a kind by its decoded name", async () => {
    const report = await engine.auditBytes(
      jsonl(
        '{"type":"payment_intent.cre\\u0061ted","seq":1,"data":{"object":{"id":"pi_\\u00e9","amount":1}}}',
        '{"type":"payment_intent.processing","seq":2,"data":{"object":{"id":"pi_é"}}}',
      ),
    );
    expect(report.legality.first.map((finding) => [finding.reason, finding.key])).toEqual([
      ["open-at-end", "pi_é"],
    ]);
    expect(report.final.entities.intent?.processing).toBe(1);
  });

  it("takes a duplicate key's last value, and ignores a null as absent", async () => {
    const report = await engine.auditBytes(
      jsonl(
        '{"type":"payment_intent.created","seq":1,"data":{"object":{"id":"pi_0","id":"pi_1","amount":1}}}',
        '{"type":"payment_intent.processing","seq":null,"data":{"object":{"id":"pi_1"}}}',
      ),
    );
    const processing = { index: 1, line: 2, kind: "payment_intent.processing" };
    expect(report.legality.first).toEqual([
      { ...processing, rule: "sequence", reason: "out-of-sequence" },
      { ...processing, rule: "intent.atEnd", reason: "open-at-end", entity: "intent", key: "pi_1" },
    ]);
    expect(report.final.entities.intent?.processing).toBe(1);
  });
});

describe("loadDataEngine: integrity", () => {
  it("type-checks only the fields the record's kind reads", async () => {
    const report = await engine.auditBytes(
      jsonl(
        intentRecord("payment_intent.created", 1, "pi_1", 5),
        intentRecord("payment_intent.processing", 2, "pi_1", { not: "read here" }),
        intentRecord("payment_intent.succeeded", 3, "pi_1", { read: "here" }),
        intentRecord("payment_intent.processing", 4, "pi_2"),
      ),
    );
    expect(report.integrity).toEqual({
      index: 2,
      line: 3,
      reason: "malformed-event",
      message: NOT_AN_INT,
    });
    expect(report.events).toBe(4);
    expect(report.legality.illegal).toBe(0);
    expect(report.final.entities.intent?.processing).toBe(1);
  });

  it("refuses a number whose exact value is no safe integer, and an int string outside i64", async () => {
    for (const amount of [
      "5.5",
      "9007199254740993",
      "4.0000000000000001",
      "1e-400",
      '"9223372036854775808"',
      '"12a"',
      '""',
      "true",
    ]) {
      const report = await engine.auditBytes(
        jsonl(
          `{"type":"payment_intent.created","seq":1,"data":{"object":{"id":"pi_1","amount":${amount}}}}`,
        ),
      );
      expect(report.integrity?.message, amount).toBe(NOT_AN_INT);
    }
  });

  it("reads the largest and smallest int64 strings exactly", async () => {
    const report = await engine.auditBytes(
      jsonl(
        `{"type":"payment_intent.created","seq":1,"data":{"object":{"id":"pi_1","amount":"-9223372036854775808"}}}`,
        intentRecord("payment_intent.processing", 2, "pi_1"),
        `{"type":"payment_intent.succeeded","seq":3,"data":{"object":{"id":"pi_1","amount":"9223372036854775807"}}}`,
      ),
    );
    expect(report.legality.first.map((finding) => finding.rule)).toEqual(["amount-kept"]);
    expect(report.integrity).toBeNull();
  });

  it("refuses a line that is no JSON object, or has no string at its kind path", async () => {
    for (const [line, message] of [
      ["[1]", "the record is not a JSON object"],
      ['{"type":1}', "the record has no string at its kind's path, type"],
      ['{"seq":1}', "the record has no string at its kind's path, type"],
      ["{", "the line is not valid JSON"],
    ]) {
      const report = await engine.auditBytes(jsonl(line as string, intentRecord("x", 2, "y")));
      expect(report.integrity, line).toEqual({
        index: 0,
        line: 1,
        reason: "malformed-event",
        message,
      });
      expect(report.events).toBe(2);
    }
  });

  it("reports a final line that does not parse as a torn tail", async () => {
    const bytes = new Uint8Array([
      ...jsonl(intentRecord("payment_intent.created", 1, "pi_1", 5)),
      ...new TextEncoder().encode('{"type":'),
    ]);
    const report = await engine.auditBytes(bytes);
    expect(report.tornTail).toEqual({ line: 2, offset: bytes.length - 8 });
    expect(report.events).toBe(1);
  });
});

describe("loadDataEngine: the header", () => {
  it("skips a header naming the model, or naming none", async () => {
    for (const header of [
      { statefold: "journal", version: 1, model: "payment-intents" },
      { statefold: "journal", version: 1, other: true },
    ]) {
      const report = await engine.auditBytes(
        jsonl(header, intentRecord("payment_intent.created", 1, "pi_1", 5)),
      );
      expect(report.events).toBe(1);
      expect(report.legality.first[0]?.line).toBe(3 - 1);
    }
  });

  it("refuses a header naming another model", async () => {
    await expect(
      engine.auditBytes(jsonl({ statefold: "journal", version: 1, model: "operations" }), {
        file: "j.jsonl",
      }),
    ).rejects.toThrow(
      /^j\.jsonl:1:\d+: header: the journal names the model "operations", but it is being audited with the model file's "payment-intents"/,
    );
  });
});

describe("loadDataEngine: streaming", () => {
  it("gives the same report whatever the chunks", async () => {
    const bytes = jsonl(
      { statefold: "journal", version: 1 },
      intentRecord("payment_intent.created", 1, "pi_1", 500),
      intentRecord("payment_intent.succeeded", 2, "pi_1", 400),
      '{"type":"pi.created","seq":3,"data":{"object":{"id":"pi_\\u00e9","amount":"7"}}}',
    );
    const whole = await engine.auditBytes(bytes);
    const auditor = engine.openAuditor();
    for (const byte of bytes) auditor.write(new Uint8Array([byte]));
    expect(auditor.finish()).toEqual(whole);
    expect(whole.legality.illegal).toBe(4);
  });
});

describe("loadDataEngine: memory", () => {
  it("reports a journal whose instances outgrow the memory limit as a limit at its line", async () => {
    const small = await loadDataEngine(paymentIntents(), { memoryLimitBytes: 4 << 20 });
    const records = Array.from({ length: 60_000 }, (_, i) =>
      intentRecord("payment_intent.created", i + 1, `pi_${i}_${"x".repeat(40)}`, i),
    );
    await expect(small.auditBytes(jsonl(...records), { file: "big.jsonl" })).rejects.toThrow(
      /^big\.jsonl:\d+: the WebAssembly memory cannot grow any further: the journal's kept instances do not fit/,
    );
  });
});

describe("loadDataEngine: memory follows the kept instances", () => {
  const cycles = 60_000;
  const journal = () => {
    const lines: string[] = [];
    for (let i = 0; i < cycles; i++) {
      const attributes = `"aAttributes":{"taskId":${i}}`;
      lines.push(
        `{"kind":"scheduled","t":${3 * i},${attributes}}`,
        `{"kind":"started","t":${3 * i + 1},${attributes}}`,
        `{"kind":"completed","t":${3 * i + 2},${attributes}}`,
      );
    }
    return new TextEncoder().encode(`${lines.join("\n")}\n`);
  };
  const limit = { memoryLimitBytes: 4 << 20 };

  it("an entity that reuses its keys forgets each finished instance, so its journal of any length fits", async () => {
    const engine = await loadDataEngine(tasksModel(), limit);
    const report = await engine.auditBytes(journal());
    expect(report.conformant).toBe(true);
    expect(report.final.entities).toEqual({ task: { scheduled: 0, started: 0, done: 0 } });
  });

  it("one that keeps them keeps every key ever seen, and a journal too long is a reported limit", async () => {
    const model = tasksModel();
    const keeping = {
      ...model,
      entities: model.entities.map((entity) => ({ ...entity, reuse: false })),
    };
    const engine = await loadDataEngine(keeping, limit);
    await expect(engine.auditBytes(journal(), { file: "tasks.jsonl" })).rejects.toThrow(
      /^tasks\.jsonl:\d+: the WebAssembly memory cannot grow any further/,
    );
  });
});

describe("loadDataEngine: journals that are JSON documents", () => {
  const model = paymentIntents({ source: { arrays: [[{ member: "events" }]] } });
  const document = new TextEncoder().encode(
    JSON.stringify({ events: [intentRecord("payment_intent.created", 1, "pi_1", 5)] }),
  );

  it("audits the records array's elements, each at the line it starts on", async () => {
    const engine = await loadDataEngine(model);
    const report = await engine.auditBytes(document);
    expect(report.events).toBe(1);
    expect(report.legality.first).toEqual([
      {
        index: 0,
        line: 1,
        kind: "payment_intent.created",
        rule: "intent.atEnd",
        reason: "open-at-end",
        entity: "intent",
        key: "pi_1",
      },
    ]);
  });

  it("takes no snapshot of a document, and resumes from none", async () => {
    const engine = await loadDataEngine(model);
    const auditor = engine.openAuditor({ file: "d.json", snapshots: true });
    auditor.write(document);
    expect(() => auditor.snapshot()).toThrow(
      "d.json: snapshots of a journal that is a JSON document are not taken: a document is audited whole",
    );
    await expect(engine.resume(new Uint8Array(0), document, { file: "d.json" })).rejects.toThrow(
      /^d\.json: snapshots of a journal that is a JSON document are not taken/,
    );
  });
});

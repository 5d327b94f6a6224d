/**
 * The data kernel's clauses and journal settings, each on a small model compiled by hand
 * (docs/models/data.md, "Clauses" and "journal"), with the report worked out from the rules.
 */
import { describe, expect, it } from "vitest";
import { loadDataEngine } from "../../../bindings/data/engine.js";
import { jsonl, orderModel, tasksModel } from "./models.js";

describe("next, last, first and once", () => {
  const model = orderModel();

  it("hold each record to what the records before it said", async () => {
    const engine = await loadDataEngine(model);
    const report = await engine.auditBytes(
      jsonl(...["open", "other", "open", "close", "step", "open"].map((kind) => ({ kind }))),
    );
    const at = (index: number, kind: string) => ({ index, line: index + 1, kind });
    expect(report.legality.first).toEqual([
      { ...at(1, "other"), rule: "open#3", reason: "unexpected-kind" },
      { ...at(2, "open"), rule: "open#1", reason: "not-first" },
      { ...at(2, "open"), rule: "open#2", reason: "repeated" },
      { ...at(4, "step"), rule: "close#1", reason: "after-last" },
      { ...at(5, "open"), rule: "open#1", reason: "not-first" },
      { ...at(5, "open"), rule: "open#2", reason: "repeated" },
    ]);
    expect(report.invariants["known-kinds"]).toEqual({ holds: true });
  });
});

describe("reuse, registers, counters, monotone fields, else: ignore, ignored kinds, suffix paths", () => {
  const model = tasksModel();
  const record = (kind: string, id: number, t: number, attributes = "taskAttributes") => ({
    kind,
    t,
    [attributes]: { taskId: id },
  });

  it("forget an instance that reaches a final state, so its key may be created again", async () => {
    const engine = await loadDataEngine(model);
    const report = await engine.auditBytes(
      jsonl(
        record("scheduled", 1, 1, "scheduledAttributes"),
        record("started", 1, 2),
        record("completed", 1, 3),
        record("scheduled", 1, 3),
        record("scheduled", 2, 4),
        { kind: "mystery", t: 5 },
        record("noise", 9, 6),
      ),
    );
    const at = (index: number, kind: string) => ({ index, line: index + 1, kind });
    const task = (key: number) => ({ entity: "task", key });
    expect(report.legality.first).toEqual([
      { ...at(3, "scheduled"), rule: "monotone", reason: "not-increasing" },
      { ...at(4, "scheduled"), rule: "scheduled#2", reason: "limit" },
      { ...at(6, "noise"), rule: "task.atEnd", reason: "open-at-end", ...task(1) },
      { ...at(6, "noise"), rule: "task.atEnd", reason: "open-at-end", ...task(2) },
    ]);
    expect(report.final).toEqual({
      entities: { task: { scheduled: 2, started: 0, done: 0 } },
      counters: { busy: 1 },
      registers: { last: 1 },
    });
    expect(Object.keys(report.invariants)).toEqual(model.rules.map((rule) => rule.name));
  });

  it("read a suffix step's first matching member, its key's last value", async () => {
    const engine = await loadDataEngine(model);
    const report = await engine.auditBytes(
      jsonl(
        '{"kind":"scheduled","t":1,"xAttributes":{"taskId":1},"yAttributes":{"taskId":2},"xAttributes":{"taskId":3}}',
        '{"kind":"started","t":2,"Attributes":{"taskId":3}}',
      ),
    );
    expect(report.legality.first.map((finding) => [finding.reason, finding.key])).toEqual([
      ["open-at-end", 3],
    ]);
    expect(report.final.registers).toEqual({ last: 3 });
  });

  it("keep a register's initial value until a record puts one", async () => {
    const engine = await loadDataEngine(model);
    const report = await engine.auditBytes(jsonl(record("scheduled", 5, 1)));
    expect(report.final.registers).toEqual({ last: "none" });
    expect(report.final.counters).toEqual({ busy: 1 });
  });
});

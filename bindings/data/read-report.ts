/**
 * A data model's report read from the kernel (the report block drawn in
 * assembly/data/report.ts, the final state from its pointers): the reference's shape
 * (src/models/data/report.ts), the model's indices turned back into its names through the same
 * `CompiledModel` the table was packed from.
 */
import type { CompiledModel } from "../../src/models/data/compiled.js";
import type {
  DataFinal,
  DataFinding,
  DataIntegrity,
  DataJournalsReport,
  DataReason,
  DataReport,
  DataVerdict,
  ReportInt,
  ReportValue,
} from "../../src/models/data/report.js";
import { decodeWtf8 } from "../wtf8.js";
import { integrityMessage, PROBLEMS, type Problem, REASONS } from "./codes.js";
import type { DataKernelExports } from "./kernel.js";
import { ValueTag } from "./layout.js";

/** A finding's words (assembly/data/report.ts, FindingWord). */
export const FINDING_WORDS = {
  INDEX: 0,
  LINE: 8,
  RULE: 16,
  REASON: 20,
  KIND: 24,
  ENTITY: 28,
  KEY: 32,
  SPELLING_POINTER: 48,
  SPELLING_LENGTH: 52,
} as const;

const VALUE_BYTES = 16;
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** An exact int as a report writes it: a number when safe, its digits otherwise. */
export function reportInt(value: bigint): ReportInt {
  return value >= -SAFE && value <= SAFE ? Number(value) : value.toString();
}

/**
 * The report of a model's journal; when the model splits its stream (`journal.key`), a report per
 * journal, in order of first appearance, each with its key (null: no journal began).
 */
export function readDataAudit(
  kernel: DataKernelExports,
  model: CompiledModel,
): DataReport | DataJournalsReport {
  if (model.journal.key === null) return readDataReport(kernel, model);
  const journals: DataReport[] = [];
  for (let journal = 0; journal < kernel.journalCount(); journal++) {
    kernel.useJournal(journal);
    const { model: name, ...report } = readDataReport(kernel, model);
    const journalKey = valueReader(kernel)(kernel.journalKeyPointer());
    journals.push({ model: name, journal: journalKey, ...report });
  }
  return { journals };
}

/** A value cell's value (assembly/data/values.ts) as a report writes it. */
function valueReader(kernel: DataKernelExports): (cell: number) => ReportValue {
  const memory = kernel.memory.buffer;
  const view = new DataView(memory);
  return (cell) => {
    const tag = view.getUint32(cell, true);
    if (tag === ValueTag.INT) return reportInt(view.getBigInt64(cell + 8, true));
    if (tag === ValueTag.STRING) {
      const pointer = view.getUint32(cell + 8, true);
      return decodeWtf8(new Uint8Array(memory, pointer, view.getUint32(cell + 4, true)));
    }
    if (tag === ValueTag.BOOL) return view.getUint32(cell + 8, true) !== 0;
    return null;
  };
}

export function readDataReport(kernel: DataKernelExports, model: CompiledModel): DataReport {
  const memory = kernel.memory.buffer;
  const view = new DataView(memory);
  const base = kernel.reportPointer();
  const offset = (name: keyof DataKernelExports) =>
    base + ((kernel[name] as WebAssembly.Global).value as number);
  const f64 = (name: keyof DataKernelExports) => view.getFloat64(offset(name), true);
  const i32 = (name: keyof DataKernelExports) => view.getInt32(offset(name), true);
  const text = (pointer: number, length: number) =>
    decodeWtf8(new Uint8Array(memory, pointer, length));
  const valueAt = valueReader(kernel);

  const findingAt = (at: number): DataFinding => {
    const kind = view.getInt32(at + FINDING_WORDS.KIND, true);
    const entity = view.getInt32(at + FINDING_WORDS.ENTITY, true);
    const key =
      view.getUint32(at + FINDING_WORDS.KEY, true) === ValueTag.ABSENT
        ? null
        : valueAt(at + FINDING_WORDS.KEY);
    return {
      index: view.getFloat64(at + FINDING_WORDS.INDEX, true),
      line: view.getFloat64(at + FINDING_WORDS.LINE, true),
      kind:
        kind >= 0
          ? (model.kinds[kind]?.name as string)
          : text(
              view.getUint32(at + FINDING_WORDS.SPELLING_POINTER, true),
              view.getUint32(at + FINDING_WORDS.SPELLING_LENGTH, true),
            ),
      rule: model.rules[view.getInt32(at + FINDING_WORDS.RULE, true)]?.name as string,
      reason: REASONS[view.getInt32(at + FINDING_WORDS.REASON, true)] as DataReason,
      ...(entity >= 0 ? { entity: model.entities[entity]?.name as string } : {}),
      ...(key !== null ? { key } : {}),
    };
  };

  const findingBytes = kernel.FINDING_BYTES.value as number;
  const rules = offset("REPORT_RULES");
  const invariants = Object.fromEntries(
    model.rules.map((rule, i): [string, DataVerdict] => {
      const at = rules + i * findingBytes;
      if (view.getFloat64(at, true) < 0) return [rule.name, { holds: true }];
      const { rule: _, ...finding } = findingAt(at);
      return [rule.name, { holds: false, ...finding }];
    }),
  );

  const list = base + kernel.reportListOffset();
  const first: DataFinding[] = [];
  for (let i = 0; i < i32("REPORT_ILLEGAL_LISTED"); i++)
    first.push(findingAt(list + i * findingBytes));

  const integrity = readIntegrity(f64, i32, model);
  const illegal = f64("REPORT_ILLEGAL");
  const conformant = integrity === null && illegal === 0;
  const tornLine = f64("REPORT_TORN_TAIL_LINE");
  return {
    model: model.name,
    conformant,
    strictlyConformant: conformant,
    events: f64("REPORT_EVENTS"),
    integrity,
    tornTail: tornLine === 0 ? null : { line: tornLine, offset: f64("REPORT_TORN_TAIL_OFFSET") },
    invariants,
    legality: { illegal, first },
    final: readFinal(kernel, view, model, valueAt),
  };
}

function readIntegrity(
  f64: (name: keyof DataKernelExports) => number,
  i32: (name: keyof DataKernelExports) => number,
  model: CompiledModel,
): DataIntegrity | null {
  const index = f64("REPORT_INTEGRITY_INDEX");
  if (index < 0) return null;
  const problem = PROBLEMS[i32("REPORT_INTEGRITY_PROBLEM")] as Problem;
  return {
    index,
    line: f64("REPORT_INTEGRITY_LINE"),
    reason: "malformed-event",
    message: integrityMessage(model, problem, i32("REPORT_INTEGRITY_FIELD")),
  };
}

function readFinal(
  kernel: DataKernelExports,
  view: DataView,
  model: CompiledModel,
  valueAt: (cell: number) => ReportValue,
): DataFinal {
  const counts = kernel.stateCountsPointer();
  let state = 0;
  const entities = Object.fromEntries(
    model.entities.map((entity) => [
      entity.name,
      Object.fromEntries(
        entity.states.map((name) => [name, view.getUint32(counts + 4 * state++, true)]),
      ),
    ]),
  );
  const countersAt = kernel.countersPointer();
  const counters = Object.fromEntries(
    model.journal.counters.map((counter, i) => {
      const low = view.getBigUint64(countersAt + 16 * i, true);
      const high = view.getBigInt64(countersAt + 16 * i + 8, true);
      return [counter.name, reportInt((high << 64n) + low)];
    }),
  );
  const registersAt = kernel.registersPointer();
  const registers = Object.fromEntries(
    model.journal.registers.map((register, i) => [
      register.name,
      valueAt(registersAt + VALUE_BYTES * i),
    ]),
  );
  return { entities, counters, registers };
}

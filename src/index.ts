/** The package entry: both engines behind one interface, the reference model, and the readers. */

export type { AuditorOptions, JournalAuditor } from "../bindings/dag/jsonl-session.js";
export {
  type ExecutiveAuditorOptions,
  type ExecutiveJournalAuditor,
  type KernelExecutiveState,
  type LoadEngineOptions,
  type LoadExecutiveEngineOptions,
  type LoadOperationsEngineOptions,
  loadEngine,
  type OperationsJournalAuditor,
  type WasmEngine,
  type WasmExecutiveEngine,
  type WasmOperationsEngine,
} from "../bindings/index.js";
export { type KernelFlavour, type KernelSource, supportsSimd } from "../bindings/kernel.js";
export type { JournalDigests } from "./digest/journal-digests.js";
export type { EngineName, JournalBytes } from "./engine.js";
export { ArgumentError } from "./engine-arguments.js";
export {
  assertConformant,
  type GateRule,
  gateViolation,
  JournalInvariantViolation,
} from "./gate/journal-invariant-violation.js";
export { type JournalFile, readJournalFile } from "./journal/dag/files.js";
export { JournalError } from "./journal/errors.js";
export { readJsonlJournal } from "./journal/jsonl.js";
export { type HashedJournal, readFileHashed, resumableFile } from "./journal/read-descriptor.js";
export type { HashedPrefix, ResumableFile, SkippedPrefix } from "./journal/resumable-file.js";
export { type AuditBytesOptions, type Engine, referenceEngine } from "./models/dag/engine.js";
export * from "./models/dag/index.js";
export * as data from "./models/data/api.js";
export {
  type ExecutiveAuditOptions,
  type ExecutiveEngine,
  referenceExecutiveEngine,
} from "./models/executive/engine.js";
export * as executive from "./models/executive/index.js";
export * from "./models/journal-source.js";
export {
  type OperationsAuditOptions,
  type OperationsEngine,
  referenceOperationsEngine,
} from "./models/operations/engine.js";
export * as operations from "./models/operations/index.js";
export {
  type AuditAnswer,
  type JournalsReport,
  journalReports,
} from "./models/report-frame.js";

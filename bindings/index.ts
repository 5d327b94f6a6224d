export type { AuditBytesOptions, Engine, EngineName, JournalBytes } from "../src/engine.js";
export { type LoadEngineOptions, loadEngine, type WasmEngine } from "./engine.js";
export type { AuditorOptions, JournalAuditor } from "./jsonl-session.js";
export { type KernelFlavour, type KernelSource, supportsSimd } from "./kernel.js";

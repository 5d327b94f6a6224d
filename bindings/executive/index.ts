export {
  type ExecutiveAuditOptions,
  type ExecutiveJournalAuditor,
  type LoadExecutiveEngineOptions,
  loadExecutiveEngine,
  type WasmExecutiveEngine,
} from "./engine.js";
export type { KernelState as KernelExecutiveState } from "./machine.js";

export {
  type ExecutiveAuditOptions,
  type ExecutiveAuditorOptions,
  type ExecutiveJournalAuditor,
  type LoadExecutiveEngineOptions,
  loadExecutiveEngine,
  type WasmExecutiveEngine,
} from "./engine.js";
export type { KernelState as KernelExecutiveState } from "./machine.js";

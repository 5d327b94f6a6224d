export {
  type LoadOperationsEngineOptions,
  loadOperationsEngine,
  type OperationsAuditOptions,
  type OperationsAuditorOptions,
  type OperationsJournalAuditor,
  type WasmOperationsEngine,
} from "./engine.js";

export {
  type LoadOperationsEngineOptions,
  loadOperationsEngine,
  type OperationsAuditOptions,
  type WasmOperationsEngine,
} from "./engine.js";

export * from "./audit.js";
export * from "./dag.js";
export * from "./events.js";
export * from "./fold.js";
export * from "./invariants.js";
export * from "./report.js";
export * from "./state.js";
export * from "./transitions.js";

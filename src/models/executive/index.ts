export * from "./audit.js";
export * from "./machine.js";
export * from "./observation.js";
export * from "./rules.js";
export * from "./snapshot.js";
export * from "./spec.js";
export * from "./state.js";

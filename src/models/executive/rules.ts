/**
 * The `executive` model's rules, as its report names them (docs/models/executive.md, "The journal
 * and its audit"): a module of its own, so that what only words or renders a report does not load
 * the machine.
 */
export const EXECUTIVE_RULE_NAMES = ["decisionsMatch", "terminalRespected"] as const;
export type ExecutiveRuleName = (typeof EXECUTIVE_RULE_NAMES)[number];

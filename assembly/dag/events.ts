/**
 * The event vocabulary as codes (mirrors src/models/dag/events.ts; the bindings map each code to the
 * same string by position). Kinds 0–7 are the model's; the record format adds fault kinds for
 * integrity faults the host already found while encoding objects.
 */

export namespace Kind {
  export const DISPATCHED: u8 = 0;
  export const LANDED: u8 = 1;
  export const GATE_CHECKED: u8 = 2;
  export const QUARANTINED: u8 = 3;
  export const DISCHARGED: u8 = 4;
  export const SKIPPED: u8 = 5;
  export const ESCALATED: u8 = 6;
  export const SURFACE_WIDENED: u8 = 7;
  /** Fault kinds of the record format: the host saw the fault; the fold stops on it. */
  export const FAULT_MALFORMED: u8 = 8;
  export const FAULT_UNKNOWN_NODE: u8 = 9;
  export const FAULT_UNKNOWN_KIND: u8 = 10;
}

/** A result field as the fold and the legality checks need it. */
export namespace Result {
  export const MISSING_OR_OTHER: u8 = 0;
  export const PASS: u8 = 1;
  export const FAIL: u8 = 2;
  export const TIMEOUT: u8 = 3;
}

/** What a surface field holds. */
export namespace SurfaceShape {
  /** Missing or null: the empty list, for the fold, legality and surfaceMonotonic alike. */
  export const ABSENT: u8 = 0;
  export const STRINGS: u8 = 1;
  /** Anything else: the fold stores it verbatim, which is no array of strings. */
  export const OTHER: u8 = 2;
}

/** Integrity reasons, in the order of docs/models/dag.md, "Log integrity" (mirrors IntegrityReason). */
export namespace Integrity {
  export const NONE: i32 = -1;
  export const MALFORMED_EVENT: i32 = 0;
  export const UNKNOWN_NODE: i32 = 1;
  export const UNKNOWN_KIND: i32 = 2;
  export const DISCHARGE_WITHOUT_DEPOSIT: i32 = 3;
}

/** What exactly was malformed (mirrors MalformedProblem). */
export namespace Malformed {
  export const INVALID_UTF8: u8 = 0;
  export const INVALID_JSON: u8 = 1;
  export const NOT_AN_OBJECT: u8 = 2;
  export const KIND_NOT_A_STRING: u8 = 3;
  export const ID_NOT_A_STRING: u8 = 4;
}

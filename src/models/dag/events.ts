/**
 * The event vocabulary shared by every engine and every journal format, and the log-integrity
 * error: the only signal the fold gives (docs/models/dag.md, "Log integrity").
 */

export const EVENT_KINDS = [
  "dispatched",
  "landed",
  "gate-checked",
  "quarantined",
  "discharged",
  "skipped",
  "escalated",
  "surface-widened",
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** A well-formed event: an object with a string kind and id. Other fields are ignored. */
export interface Event {
  readonly kind: string;
  readonly id: string;
  readonly result?: unknown;
  readonly surface?: unknown;
  readonly [extra: string]: unknown;
}

/** An event that passed the integrity checks. */
export type KnownEvent = Event & { readonly kind: EventKind };

export type IntegrityReason =
  | "malformed-event"
  | "unknown-node"
  | "unknown-kind"
  | "discharge-without-deposit";

/** What exactly was malformed; both engines report the same one. */
export type MalformedProblem =
  | "invalid-utf8"
  | "invalid-json"
  | "not-an-object"
  | "kind-not-a-string"
  | "id-not-a-string";

export interface IntegrityFault {
  readonly reason: IntegrityReason;
  /** malformed-event: the problem; unknown-node and discharge-without-deposit: the id; unknown-kind: the kind. */
  readonly subject: string;
}

export class LogIntegrityError extends Error {
  override readonly name = "LogIntegrityError";
  constructor(
    /** 0-based index of the offending event in the log. */
    readonly index: number,
    readonly fault: IntegrityFault,
  ) {
    super(`event ${index}: ${integrityMessage(fault)}`);
  }

  get reason(): IntegrityReason {
    return this.fault.reason;
  }
}

const MALFORMED_MESSAGES: Record<MalformedProblem, string> = {
  "invalid-utf8": "the line is not valid UTF-8",
  "invalid-json": "the line is not valid JSON",
  "not-an-object": "the event is not a JSON object",
  "kind-not-a-string": 'the event has no string "kind"',
  "id-not-a-string": 'the event has no string "id"',
};

export function integrityMessage(fault: IntegrityFault): string {
  switch (fault.reason) {
    case "malformed-event":
      return MALFORMED_MESSAGES[fault.subject as MalformedProblem];
    case "unknown-node":
      return `no node ${JSON.stringify(fault.subject)} in the DAG`;
    case "unknown-kind":
      return `unknown event kind ${JSON.stringify(fault.subject)}`;
    case "discharge-without-deposit":
      return `node ${JSON.stringify(fault.subject)} is discharged but never landed`;
    default: {
      const unreachable: never = fault.reason;
      return unreachable;
    }
  }
}

export function isEventKind(kind: string): kind is EventKind {
  return (EVENT_KINDS as readonly string[]).includes(kind);
}

/** Why the public API refuses a transition (docs/models/dag.md, "Transitions"). */
export type RejectionReason =
  | "unknown-node"
  | "wrong-status"
  | "dependencies-not-proven"
  | "invalid-result"
  | "already-terminal"
  | "invalid-surface";

/** Why the public API refuses a transition on a node it knows. */
export type Refusal = Exclude<RejectionReason, "unknown-node">;

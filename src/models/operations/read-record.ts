/**
 * `readRecord`: one journal entry through the integrity checks (integrity.ts) and, when it
 * passes them, into its typed, frozen record (records.ts). Total: a record or the first fault.
 */

import { fieldOf, type IntegrityFault, integrityFault, type JsonObject } from "./integrity.js";
import {
  type FinishedOutcome,
  NO_RETRY_POLICY,
  type OperationsRecord,
  type Policy,
  type ReadbackFinding,
  type RecordKind,
  type Request,
  type Response,
  type ResponseClass,
  type SettledOutcome,
  type StopReason,
} from "./records.js";

export type ReadResult =
  | { readonly ok: true; readonly record: OperationsRecord }
  | { readonly ok: false; readonly fault: IntegrityFault };

/** The integrity checks of one journal entry, in order; the typed record when it passes them. */
export function readRecord(entry: unknown): ReadResult {
  const fault = integrityFault(entry);
  if (fault !== null) return { ok: false, fault };
  return { ok: true, record: Object.freeze(typedRecord(entry as JsonObject)) };
}

/** Built only from entries that passed the checks, so the casts below are what was checked. */
function typedRecord(entry: JsonObject): OperationsRecord {
  const kind = entry.kind as RecordKind;
  const text = (name: string) => fieldOf(entry, name) as string;
  const integer = (name: string) => fieldOf(entry, name) as number;
  const absentAsNull = <T>(name: string, read: (value: unknown) => T): T | null => {
    const value = fieldOf(entry, name);
    return value === undefined ? null : read(value);
  };
  if (kind === "lease") {
    return {
      kind,
      strand: text("strand"),
      epoch: integer("epoch"),
      owner: absentAsNull("owner", String),
    };
  }
  const fenced = { op: text("op"), epoch: absentAsNull("epoch", Number) };
  switch (kind) {
    case "accepted":
      return {
        kind,
        ...fenced,
        strand: text("strand"),
        policy: absentAsNull("policy", policyOf) ?? NO_RETRY_POLICY,
      };
    case "intent":
      return {
        kind,
        ...fenced,
        key: text("key"),
        effect: text("effect"),
        attempt: integer("attempt"),
        at: integer("at"),
        request: absentAsNull("request", requestOf),
        outputLimit: absentAsNull("outputLimit", Number) ?? 0,
      };
    case "settled":
      return {
        kind,
        ...fenced,
        effect: text("effect"),
        outcome: text("outcome") as SettledOutcome,
        at: integer("at"),
        retryable: fieldOf(entry, "retryable") === true,
        retryAfterMs: fieldOf(entry, "retryAfterMs"),
        notBefore: absentAsNull("notBefore", Number),
        response: absentAsNull("response", responseOf),
        class: absentAsNull("class", (value) => value as ResponseClass),
      };
    case "readback":
      return {
        kind,
        ...fenced,
        effect: text("effect"),
        found: text("found") as ReadbackFinding,
        at: integer("at"),
      };
    case "cancel-requested":
      return { kind, ...fenced, at: integer("at") };
    case "finished":
      return { kind, ...fenced, outcome: text("outcome") as FinishedOutcome, at: integer("at") };
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}

function policyOf(value: unknown): Policy {
  const policy = value as JsonObject;
  return Object.freeze({
    maxAttempts: policy.maxAttempts as number | null,
    baseDelayMs: policy.baseDelayMs as number,
    maxDelayMs: policy.maxDelayMs as number,
  });
}

function requestOf(value: unknown): Request {
  const request = value as JsonObject;
  return Object.freeze({
    provider: request.provider as string,
    model: request.model as string,
    api: request.api as string,
  });
}

function responseOf(value: unknown): Response {
  const response = value as JsonObject;
  const handle = fieldOf(response, "handle") as JsonObject | undefined;
  return Object.freeze({
    stop: response.stop as StopReason,
    errorMessage: (fieldOf(response, "errorMessage") as string | undefined) ?? null,
    outputTokens: (fieldOf(response, "outputTokens") as number | undefined) ?? 0,
    toolCalls: (fieldOf(response, "toolCalls") as number | undefined) ?? 0,
    handle:
      handle === undefined
        ? null
        : Object.freeze({
            id: handle.id as string,
            provider: handle.provider as string,
            model: handle.model as string,
            api: handle.api as string,
          }),
  });
}

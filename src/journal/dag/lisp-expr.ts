/**
 * The librecode runtime journal (`*.lisp-expr`, docs/journals.md) as events. Every top-level form is
 * an entry, at the line where it starts. Four entry kinds are routed to model events, as the
 * runtime's own `apply-journal-entry` routes them through `transition-event`:
 *
 *   (:NODE-DISPATCHED "A")                  → {kind: "dispatched", id: "A"}
 *   (:NODE-LANDED "A")                      → {kind: "landed", id: "A"}
 *   (:NODE-SKIPPED "A")                     → {kind: "skipped", id: "A"}
 *   (:SURFACE-WIDENED "B" ("src/b.lisp"))   → {kind: "surface-widened", id: "B", surface: [...]}
 *
 * `:NODE-ACCEPTED` and `:NODE-REWORK` are runtime bookkeeping the runtime does not route, and
 * any other entry is no transition: both are skipped. A routed entry whose id is missing or not
 * a string still becomes an event carrying that non-string id, so the fold reports it as
 * malformed instead of the reader dropping it; a surface that is not a list of strings is passed
 * on as it is, for the invariants to judge. A form with invalid UTF-8 in it becomes an
 * `UnparseableLine("invalid-utf8")` at its line, as a JSONL line would. The journal carries no
 * DAG: it comes from `--dag`.
 */
import type { EventKind } from "../../models/dag/events.js";
import { UnparseableLine } from "../../models/journal-source.js";
import type { Journal } from "../journal.js";
import { LISP_EXPR_MISSING_HEADER } from "../missing-header.js";
import { readSexprs, type Sexpr } from "./sexpr.js";

const ROUTED_ENTRIES: ReadonlyMap<string, EventKind> = new Map([
  [":NODE-DISPATCHED", "dispatched"],
  [":NODE-LANDED", "landed"],
  [":NODE-SKIPPED", "skipped"],
  [":SURFACE-WIDENED", "surface-widened"],
]);

export function readLispExprJournal(bytes: Uint8Array, file: string): Journal {
  const { forms, tornForm } = readSexprs(bytes, file);
  const events: unknown[] = [];
  const lines: number[] = [];
  for (const { form, line, validUtf8 } of forms) {
    const event = validUtf8 ? entryEvent(form) : new UnparseableLine("invalid-utf8");
    if (event === null) continue;
    events.push(event);
    lines.push(line);
  }
  return {
    header: null,
    events,
    lines,
    tornTail: tornForm,
    missingHeader: LISP_EXPR_MISSING_HEADER,
  };
}

function entryEvent(entry: Sexpr): object | null {
  if (entry.type !== "list") return null;
  const [head, id, surface] = entry.items;
  const kind = head?.type === "symbol" ? ROUTED_ENTRIES.get(head.name) : undefined;
  if (kind === undefined) return null;
  const event = { kind, id: id?.type === "string" ? id.value : (id ?? null) };
  if (kind !== "surface-widened" || surface === undefined) return event;
  return { ...event, surface: surfacePayload(surface) };
}

/** A list's strings become a string array; anything else is passed on for the fold to judge. */
function surfacePayload(surface: Sexpr): unknown {
  switch (surface.type) {
    case "list":
      return surface.items.map((item) => (item.type === "string" ? item.value : item));
    case "string":
      return surface.value;
    case "symbol":
    case "number":
      return surface;
    default: {
      const unreachable: never = surface;
      return unreachable;
    }
  }
}

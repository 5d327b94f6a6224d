/**
 * The fold (docs/models/operations.md, "What a breaking record still changes"; mirrors
 * src/models/operations/fold.ts): the record is judged against the state before it (rules.ts)
 * and then what the runtime demonstrably did is applied — a legal record, and a breaking one
 * whose act the model can still place — while a record that repeats, contradicts or cannot be
 * placed changes nothing. So one fault is one finding, not a cascade.
 */

import { apply } from "./apply";
import { Kind, Path, value, isPresent } from "./records";
import { Reason } from "./report";
import { fencingStrand, judge, recordKind } from "./rules";
import { setStrandEpoch } from "./state";

/** Judges and folds the record in the slots (rules.ts `useRecord` has placed it); its reason. */
export function foldRecord(): i32 {
  const reason = judge();
  if (reason == Reason.NONE) apply();
  else afterBreach(reason);
  return reason;
}

/** What a record that broke a rule for `reason` still changes. */
function afterBreach(reason: i32): void {
  switch (reason) {
    case Reason.UNKNOWN_OPERATION:
    case Reason.OPERATION_FINISHED:
    case Reason.DUPLICATE_OPERATION:
    case Reason.STALE_EPOCH:
    case Reason.EPOCH_REGRESSED:
    case Reason.EFFECT_REUSED:
    case Reason.NO_INTENT:
    case Reason.ALREADY_SETTLED:
    case Reason.AWAITING_READBACK:
    case Reason.NOT_UNKNOWN:
    case Reason.ALREADY_CANCELLED:
      return;
    // Missing, the epoch proves nothing; present, it is higher than the strand's (a lower one
    // is stale-epoch). A lease is never epoch-mismatch.
    case Reason.EPOCH_MISMATCH:
      if (recordKind == Kind.LEASE || !isPresent(Path.EPOCH)) return;
      return asTakeover();
    default:
      apply();
  }
}

/**
 * A record with a higher epoch than its strand's is evidence of a takeover the journal lost:
 * the strand adopts the epoch, and the record is then judged and applied under it (its reported
 * reason stays epoch-mismatch).
 */
function asTakeover(): void {
  setStrandEpoch(fencingStrand(), value(Path.EPOCH));
  const reason = judge();
  if (reason == Reason.NONE) apply();
  else afterBreach(reason);
}

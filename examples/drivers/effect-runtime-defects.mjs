// The effect runtime of effect-runtime.mjs with planted defects, one per copy, each of a kind
// real runtimes have. `statefold explore --model operations --driver` must catch each, by the
// check docs/explore.md names for it.
import { Executor, Store } from "./effect-runtime.mjs";

/** On a timeout it journals the outcome as unknown, then retries at once without a readback. */
class BlindRetry extends Executor {
  unknown() {
    const op = this.op;
    const record = { kind: "settled", op: op.op, effect: op.effect, outcome: "unknown" };
    if (!this.commit({ ...record, at: this.clock })) return;
    op.attempt += 1;
    this.reserve();
  }
}

/** Recovering an effect left in flight, it sends the call again under the same id, unread. */
class ResendAfterCrash extends Executor {
  resume() {
    if (this.op.phase === "calling") this.runtime.call(this, "effect", this.op.effect);
    else super.resume();
  }
}

/** Its store appends whatever it is given: a superseded executor's writes go through. */
class UnfencedStore extends Store {
  append(_strand, _epoch, record) {
    this.lines.push(JSON.stringify(record));
    return true;
  }
}

/** Its retry wait is the ladder's alone: the provider's retryAfterMs is recorded, not waited. */
class HintIgnored extends Executor {
  retryAfter() {
    return super.retryAfter(undefined);
  }
}

/** Recovered from the journal, a step waiting to retry is left waiting for nothing. */
class ForgetsRetryWaits extends Executor {
  resume() {
    if (this.op.phase === "waiting") this.op.phase = "forgotten";
    else super.resume();
  }
}

/** Each defect by name: the parts of the runtime it replaces. */
export const DEFECTS = {
  "blind-retry": { Executor: BlindRetry },
  "resend-after-crash": { Executor: ResendAfterCrash },
  unfenced: { Store: UnfencedStore },
  "hint-ignored": { Executor: HintIgnored },
  "forgets-retry-waits": { Executor: ForgetsRetryWaits },
};

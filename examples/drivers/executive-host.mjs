// A small host of the executive machine (docs/models/executive.md): it keeps the machine's
// state, feeds it each observation, journals the observation with the decision as one JSON
// line, and survives a restart by snapshotting its state before it goes and restoring it after —
// through the package's own `snapshot` and `restore`, so the state it comes back with is the one
// it left. `statefold explore --model executive --driver` drives it through executive-driver.mjs.
import { executive } from "statefold";

const machine = executive.referenceExecutive;

export class ExecutiveHost {
  constructor(spec, budget) {
    const made = machine.initialState(spec, budget);
    if (made.rejected !== undefined) throw new Error(`refused: ${made.rejected}`);
    this.state = made.state;
  }

  observe(observation) {
    const { decision, state } = machine.step(this.state, observation);
    this.state = state;
    this.afterDecision(decision);
    return { journal: [JSON.stringify({ observation, decision })] };
  }

  /** What the host keeps when it stops: here, the state as it is now. */
  afterDecision() {}

  persisted() {
    return machine.snapshot(this.state);
  }

  restart() {
    const bytes = this.persisted();
    this.state = null; // the process is gone
    const restored = machine.restore(bytes);
    if (restored.rejected !== undefined) throw new Error(`restore refused: ${restored.rejected}`);
    this.state = restored.state;
    return { journal: [] };
  }
}

/**
 * The host with one planted defect, of a kind real hosts have: it persists its snapshot only when
 * the machine decides a checkpoint, so a restart brings back the state of the last checkpoint
 * (or the ready state before any) — the run rolled back, and decisions it already handed out
 * decided again.
 */
export class ExecutiveHostWithDefect extends ExecutiveHost {
  constructor(spec, budget) {
    super(spec, budget);
    this.saved = machine.snapshot(this.state);
  }

  afterDecision(decision) {
    if (decision.tag === "checkpoint") this.saved = machine.snapshot(this.state);
  }

  persisted() {
    return this.saved;
  }
}

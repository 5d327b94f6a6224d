// A small campaign runner, the kind of runtime statefold audits: it keeps a DAG of tasks in
// memory, performs the eight public transitions of the dag model on them, refuses what it must
// not do, and journals every transition it makes as one JSON line (with a timestamp of its own,
// which statefold ignores). `statefold explore --driver` drives it through driver.mjs.

const TERMINAL = new Set(["proven", "skipped", "escalated"]);

export class CampaignRunner {
  constructor(nodes) {
    this.tasks = new Map(
      nodes.map((node) => [node.id, { deps: node.deps, status: "queued", surface: [] }]),
    );
    this.journal = [];
    this.clock = 0;
  }

  dispatch(id) {
    const task = this.tasks.get(id);
    if (task.status !== "queued" && task.status !== "rework") return { refused: "wrong-status" };
    if (!this.dependenciesProven(task)) return { refused: "dependencies-not-proven" };
    task.status = "dispatched";
    return this.record({ kind: "dispatched", id });
  }

  land(id) {
    const task = this.tasks.get(id);
    if (task.status !== "dispatched") return { refused: "wrong-status" };
    task.status = "landed";
    return this.record({ kind: "landed", id });
  }

  gateCheck(id, result) {
    const task = this.tasks.get(id);
    if (task.status !== "landed") return { refused: "wrong-status" };
    if (!["pass", "fail", "timeout"].includes(result)) return { refused: "invalid-result" };
    task.status = result === "pass" ? "proven" : "rework";
    return this.record({ kind: "gate-checked", id, result });
  }

  quarantine(id) {
    const task = this.tasks.get(id);
    if (task.status !== "landed") return { refused: "wrong-status" };
    task.status = "quarantined";
    return this.record({ kind: "quarantined", id });
  }

  discharge(id, result) {
    const task = this.tasks.get(id);
    if (task.status !== "quarantined") return { refused: "wrong-status" };
    if (!["pass", "fail"].includes(result)) return { refused: "invalid-result" };
    task.status = result === "pass" ? "proven" : "rework";
    return this.record({ kind: "discharged", id, result });
  }

  skip(id) {
    return this.finish(id, "skipped");
  }

  escalate(id) {
    return this.finish(id, "escalated");
  }

  widenSurface(id, paths) {
    const task = this.tasks.get(id);
    if (TERMINAL.has(task.status)) return { refused: "already-terminal" };
    const given = paths ?? [];
    if (!Array.isArray(given) || !given.every((path) => typeof path === "string")) {
      return { refused: "invalid-surface" };
    }
    task.surface = [...new Set([...task.surface, ...given])];
    return this.record({ kind: "surface-widened", id, surface: task.surface });
  }

  finish(id, status) {
    const task = this.tasks.get(id);
    if (TERMINAL.has(task.status)) return { refused: "already-terminal" };
    task.status = status;
    return this.record({ kind: status, id });
  }

  dependenciesProven(task) {
    return task.deps.every((dep) => this.tasks.get(dep).status === "proven");
  }

  record(event) {
    this.clock += 1;
    const line = JSON.stringify({ ...event, ts: this.clock });
    this.journal.push(line);
    return { journal: [line] };
  }
}

/**
 * Synthetic journals as a runtime writes them: a header with a DAG of `nodes` tasks (each
 * depending on up to `maxDeps` recent ones), then a campaign that works `parallelism` tasks at a
 * time through dispatch, surface widening, landing and gate checks (some failing into rework,
 * some quarantined and discharged) until `events` lines are written or every task is proven.
 * Every event carries the fields real runtimes add (`seq`, `ts`, `run`). Deterministic per seed.
 */
import type { DagNode } from "../model/dag.js";
import { Random } from "./random.js";

export interface CampaignOptions {
  readonly nodes: number;
  /** Events to write; the campaign ends earlier when every task is proven. */
  readonly events: number;
  readonly seed: number;
  readonly maxDeps?: number;
  /** Tasks in flight at once; their events interleave. */
  readonly parallelism?: number;
  /** Chance that a gate check passes; by default chosen so the campaign lasts about `events`. */
  readonly passRate?: number;
}

type TaskStatus = "dispatched" | "widened" | "landed" | "quarantined" | "rework";

const START_MS = Date.UTC(2026, 10, 2, 9, 0, 0);

export function campaignDag(
  options: Pick<CampaignOptions, "nodes" | "seed" | "maxDeps">,
): DagNode[] {
  const random = new Random(options.seed ^ 0x5eed);
  const maxDeps = options.maxDeps ?? 3;
  const window = 64;
  const nodes: DagNode[] = [];
  for (let i = 0; i < options.nodes; i++) {
    const deps = new Set<string>();
    const wanted = i === 0 ? 0 : random.below(maxDeps + 1);
    for (let d = 0; d < wanted; d++)
      deps.add(taskId(Math.max(0, i - 1 - random.below(Math.min(i, window)))));
    nodes.push({ id: taskId(i), deps: [...deps] });
  }
  return nodes;
}

export function taskId(index: number): string {
  return `task-${index.toString().padStart(6, "0")}`;
}

export function headerLine(nodes: readonly DagNode[]): string {
  return JSON.stringify({ statefold: "journal", version: 1, dag: { nodes } });
}

/** The journal's lines, header first, each without its line end. */
export function* campaignLines(options: CampaignOptions): Generator<string> {
  const nodes = campaignDag(options);
  yield headerLine(nodes);
  const random = new Random(options.seed);
  const parallelism = options.parallelism ?? 64;
  const passRate =
    options.passRate ??
    Math.min(
      0.9,
      Math.max(0.02, (3 * options.nodes) / Math.max(1, options.events - options.nodes)),
    );
  const run = `c-${(options.seed >>> 0).toString(16).padStart(8, "0")}`;
  const unmet = nodes.map((node) => node.deps.length);
  const positionById = new Map(nodes.map((node, i) => [node.id, i]));
  const dependents: number[][] = nodes.map(() => []);
  nodes.forEach((node, i) => {
    for (const dep of node.deps) dependents[positionById.get(dep) as number]?.push(i);
  });
  const ready: number[] = unmet.flatMap((count, i) => (count === 0 ? [i] : []));
  let readyAt = 0;
  const active: { task: number; status: TaskStatus; paths: string[] }[] = [];
  let seq = 0;
  const line = (fields: Record<string, unknown>): string => {
    seq += 1;
    const ts = new Date(START_MS + seq * 37).toISOString();
    return JSON.stringify({ seq, ts, run, ...fields });
  };

  while (seq < options.events) {
    if (active.length < parallelism && readyAt < ready.length) {
      const task = ready[readyAt++] as number;
      active.push({ task, status: "dispatched", paths: [] });
      yield line({ kind: "dispatched", id: taskId(task) });
      continue;
    }
    if (active.length === 0) return;
    const slot = random.below(active.length);
    const work = active[slot] as (typeof active)[number];
    const id = taskId(work.task);
    switch (work.status) {
      case "dispatched":
      case "widened":
        if (work.status === "dispatched" && random.chance(0.5)) {
          work.paths.push(`src/${id}/part-${work.paths.length}.ts`);
          work.status = "widened";
          yield line({ kind: "surface-widened", id, surface: work.paths });
        } else {
          work.status = "landed";
          yield line({ kind: "landed", id, agent: `agent-${work.task % 7}` });
        }
        break;
      case "landed":
        if (random.chance(0.1)) {
          work.status = "quarantined";
          yield line({ kind: "quarantined", id });
        } else if (random.chance(passRate)) {
          yield line({
            kind: "gate-checked",
            id,
            result: "pass",
            checker: "nickel",
            ms: 40 + random.below(900),
          });
          finish(slot);
        } else {
          work.status = "rework";
          const result = random.chance(0.8) ? "fail" : "timeout";
          yield line({
            kind: "gate-checked",
            id,
            result,
            checker: "nickel",
            ms: 40 + random.below(900),
          });
        }
        break;
      case "quarantined": {
        const passed = random.chance(passRate);
        yield line({ kind: "discharged", id, result: passed ? "pass" : "fail" });
        if (passed) finish(slot);
        else work.status = "rework";
        break;
      }
      case "rework":
        work.status = "dispatched";
        yield line({ kind: "dispatched", id, attempt: 2 });
        break;
      default: {
        const unreachable: never = work.status;
        return unreachable;
      }
    }
  }

  function finish(slot: number): void {
    const [done] = active.splice(slot, 1);
    for (const dependent of dependents[done?.task ?? 0] ?? []) {
      unmet[dependent] = (unmet[dependent] ?? 0) - 1;
      if (unmet[dependent] === 0) ready.push(dependent);
    }
  }
}

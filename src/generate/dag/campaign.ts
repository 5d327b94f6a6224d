/**
 * Synthetic journals as a runtime writes them: a header with a DAG of `nodes` tasks (each
 * depending on up to `maxDeps` recent ones), then a campaign that works `parallelism` tasks at a
 * time through dispatch, surface widening, landing and gate checks (some failing into rework,
 * some quarantined and discharged) until `events` lines are written or every task is proven.
 * Every event carries the fields real runtimes add (`seq`, `ts`, `run`). Deterministic per seed.
 *
 * With `illegalRate` > 0, a seeded share of the lines are the mistakes runtimes make (see
 * `IllegalInjection`): each is well-formed and names a known node, so the fold goes on past it, and
 * the audit flags it as illegal. The injections draw from their own generator, so a campaign with
 * `illegalRate` 0 (the default) is byte-identical to one written before the option existed.
 */
import type { DagNode } from "../../models/dag/dag.js";
import { Random } from "../random.js";

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
  /** Paths a task's surface grows to at most; unbounded by default. */
  readonly surfacePathsMax?: number;
  /** Share of lines that are illegal events (0 by default: a strictly conformant campaign). */
  readonly illegalRate?: number;
}

/**
 * The illegal events injected, each one a runtime bug seen in the wild:
 * - `re-dispatch`: a dispatch sent again for a task already in flight (a retry after a lost ack):
 *   wrong-status, and the state does not change;
 * - `bogus-result`: a gate check with a result the gate does not give: invalid-result, and the
 *   fold sends the task to rework, as the campaign then does;
 * - `late-widen`: a surface widened after the task was proven: already-terminal;
 * - `shrink`: a surface event that drops the task's first path: surface-shrinks, and it breaks
 *   surfaceMonotonic (the first one is the audit's verdict).
 */
export const ILLEGAL_INJECTIONS = ["re-dispatch", "bogus-result", "late-widen", "shrink"] as const;
export type IllegalInjection = (typeof ILLEGAL_INJECTIONS)[number];

/** How many recently proven tasks a late widen picks from. */
const RECENTLY_PROVEN_MAX = 64;

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
  type Work = { task: number; status: TaskStatus; paths: string[] };
  const active: Work[] = [];
  const surfacePathsMax = options.surfacePathsMax ?? Number.POSITIVE_INFINITY;
  const illegalRate = options.illegalRate ?? 0;
  const injections = new Random(options.seed ^ 0x111e6a1);
  const recentlyProven: Work[] = [];
  let seq = 0;
  const line = (fields: Record<string, unknown>): string => {
    seq += 1;
    const ts = new Date(START_MS + seq * 37).toISOString();
    return JSON.stringify({ seq, ts, run, ...fields });
  };

  while (seq < options.events) {
    if (illegalRate > 0 && injections.chance(illegalRate)) {
      const injected = inject(
        ILLEGAL_INJECTIONS[injections.below(ILLEGAL_INJECTIONS.length)] as IllegalInjection,
      );
      if (injected !== null) {
        yield injected;
        continue;
      }
    }
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
        if (
          work.status === "dispatched" &&
          work.paths.length < surfacePathsMax &&
          random.chance(0.5)
        ) {
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

  /** An illegal event of this kind, or null when no task is in a state to make one. */
  function inject(kind: IllegalInjection): string | null {
    const inStatus = (...statuses: TaskStatus[]) =>
      injections.pick(active.filter((work) => statuses.includes(work.status)));
    switch (kind) {
      case "re-dispatch": {
        const work = inStatus("dispatched", "widened");
        if (work === undefined) return null;
        return line({ kind: "dispatched", id: taskId(work.task), attempt: 1 });
      }
      case "bogus-result": {
        const work = inStatus("landed");
        if (work === undefined) return null;
        work.status = "rework";
        return line({ kind: "gate-checked", id: taskId(work.task), result: "flaky" });
      }
      case "late-widen": {
        const work = injections.pick(recentlyProven);
        if (work === undefined) return null;
        if (work.paths.length < surfacePathsMax) {
          work.paths.push(`src/${taskId(work.task)}/late-${work.paths.length}.ts`);
        }
        return line({ kind: "surface-widened", id: taskId(work.task), surface: work.paths });
      }
      case "shrink": {
        const work = injections.pick(active.filter((candidate) => candidate.paths.length > 1));
        if (work === undefined) return null;
        work.paths.shift();
        return line({ kind: "surface-widened", id: taskId(work.task), surface: work.paths });
      }
      default: {
        const unreachable: never = kind;
        return unreachable;
      }
    }
  }

  function finish(slot: number): void {
    const [done] = active.splice(slot, 1);
    if (done !== undefined && illegalRate > 0) {
      recentlyProven.push(done);
      if (recentlyProven.length > RECENTLY_PROVEN_MAX) recentlyProven.shift();
    }
    for (const dependent of dependents[done?.task ?? 0] ?? []) {
      unmet[dependent] = (unmet[dependent] ?? 0) - 1;
      if (unmet[dependent] === 0) ready.push(dependent);
    }
  }
}

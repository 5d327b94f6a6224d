/**
 * What the fault injector knows about a generated journal as it goes: each node's status and
 * surface, folded from the lines written so far, and — kept up to date line by line — the nodes
 * each kind of fault can be aimed at without disturbing anything else:
 * - `repeatable`: a node whose last event can be logged again without changing its state
 *   (dispatched or landed again: `wrong-status`; a terminal node's surface sent again:
 *   `already-terminal`);
 * - `blocked`: a queued node with a dependency not yet proven (dispatching it breaks
 *   scheduleCorrect);
 * - `shrinkable`: a node not yet terminal with a path in its surface (dropping one breaks
 *   surfaceMonotonic as `surface-shrinks`).
 *
 * It reads the lines of a campaign (src/generate/dag/campaign.ts), which are legal, plus what the
 * injector tells it it did (`dispatchEarly`, `setSurface`); it is not a general fold.
 */
import { IndexedSet } from "./indexed-set.js";

export type NodeStatus = "queued" | "dispatched" | "landed" | "quarantined" | "rework" | "terminal";

interface LoggedEvent {
  readonly kind: string;
  readonly id: string;
  readonly result?: unknown;
  readonly surface?: unknown;
}

export class CampaignState {
  readonly repeatable: IndexedSet;
  readonly blocked: IndexedSet;
  readonly shrinkable: IndexedSet;
  private readonly statuses: NodeStatus[];
  private readonly surfaces: (readonly string[])[];
  private readonly proven: boolean[];
  private readonly unprovenDeps: number[];
  private readonly dependents: number[][];
  /** Nodes the injector dispatched before their dependencies were proven. */
  private readonly early = new Set<number>();

  private constructor(
    readonly ids: readonly string[],
    private readonly positions: ReadonlyMap<string, number>,
    deps: readonly (readonly string[])[],
  ) {
    const count = ids.length;
    this.repeatable = new IndexedSet(count);
    this.blocked = new IndexedSet(count);
    this.shrinkable = new IndexedSet(count);
    this.statuses = new Array<NodeStatus>(count).fill("queued");
    this.surfaces = new Array<readonly string[]>(count).fill([]);
    this.proven = new Array<boolean>(count).fill(false);
    this.unprovenDeps = deps.map((list) => new Set(list).size);
    this.dependents = ids.map(() => []);
    deps.forEach((list, node) => {
      for (const dep of new Set(list)) this.dependents[positions.get(dep) as number]?.push(node);
    });
    for (let node = 0; node < count; node++) this.refresh(node);
  }

  /** The state before any event, from the journal's header line. */
  static fromHeader(headerLine: string): CampaignState {
    const header = JSON.parse(headerLine) as { dag: { nodes: { id: string; deps: string[] }[] } };
    const nodes = header.dag.nodes;
    const ids = nodes.map((node) => node.id);
    return new CampaignState(
      ids,
      new Map(ids.map((id, position) => [id, position])),
      nodes.map((node) => node.deps),
    );
  }

  has(id: string): boolean {
    return this.positions.has(id);
  }

  statusOf(node: number): NodeStatus {
    return this.statuses[node] as NodeStatus;
  }

  surfaceOf(node: number): readonly string[] {
    return this.surfaces[node] as readonly string[];
  }

  /**
   * Folds one event line of the campaign. Returns true when it is the campaign's own dispatch of a
   * node the injector already dispatched early: the journal has logged it, so it is to be left out.
   */
  apply(line: string): boolean {
    const event = JSON.parse(line) as LoggedEvent;
    const node = this.positions.get(event.id);
    if (node === undefined) throw new Error(`the campaign names an unknown node ${event.id}`);
    const repeatsEarlyDispatch = event.kind === "dispatched" && this.early.has(node);
    switch (event.kind) {
      case "dispatched":
        this.early.delete(node);
        this.setStatus(node, "dispatched", false);
        break;
      case "landed":
        this.setStatus(node, "landed", false);
        break;
      case "gate-checked":
      case "discharged":
        this.setStatus(
          node,
          event.result === "pass" ? "terminal" : "rework",
          event.result === "pass",
        );
        break;
      case "quarantined":
        this.setStatus(node, "quarantined", false);
        break;
      case "skipped":
      case "escalated":
        this.setStatus(node, "terminal", false);
        break;
      case "surface-widened":
        this.setSurface(node, event.surface as readonly string[]);
        break;
      default:
        throw new Error(`the campaign logs an unknown kind ${event.kind}`);
    }
    return repeatsEarlyDispatch;
  }

  /** The injector dispatched `node` ahead of its dependencies; the campaign's own dispatch follows. */
  dispatchEarly(node: number): void {
    this.early.add(node);
    this.setStatus(node, "dispatched", false);
  }

  setSurface(node: number, surface: readonly string[]): void {
    this.surfaces[node] = surface;
    this.refresh(node);
  }

  private setStatus(node: number, status: NodeStatus, proven: boolean): void {
    this.statuses[node] = status;
    if (this.proven[node] !== proven) {
      this.proven[node] = proven;
      for (const dependent of this.dependents[node] ?? []) {
        this.unprovenDeps[dependent] = (this.unprovenDeps[dependent] ?? 0) + (proven ? -1 : 1);
        this.refresh(dependent);
      }
    }
    this.refresh(node);
  }

  /** Puts `node` in exactly the candidate sets its state calls for. */
  private refresh(node: number): void {
    const status = this.statusOf(node);
    const early = this.early.has(node);
    toggle(
      this.repeatable,
      node,
      (status === "dispatched" && !early) || status === "landed" || status === "terminal",
    );
    toggle(this.blocked, node, status === "queued" && (this.unprovenDeps[node] ?? 0) > 0);
    toggle(this.shrinkable, node, status !== "terminal" && this.surfaceOf(node).length > 0);
  }
}

function toggle(set: IndexedSet, item: number, member: boolean): void {
  if (member) set.add(item);
  else set.delete(item);
}

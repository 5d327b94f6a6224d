/**
 * `dagView`: the DAG of a journal view — its Kahn layers (docs/models/dag.md, "The DAG") with each node's status in
 * the last state the fold reached, drawn node by node while small, else counted per layer
 * (journal-view.ts has the bounds).
 */
import { dagLayers } from "../../models/dag/dag.js";
import {
  type ModelState,
  type NodeState,
  nodeState,
  STATUSES,
  type Status,
} from "../../models/dag/state.js";
import {
  DAG_NODES_DRAWN_MAX,
  type DagView,
  LAYER_ROWS_MAX,
  type LayerRow,
  type SummarisedDag,
} from "./journal-view.js";

export function dagView(final: ModelState, beforeIntegrityError: boolean): DagView {
  const { dag } = final;
  const statusOf = (id: string): Status => (nodeState(final, id) as NodeState).status;
  const layers = dagLayers(dag);
  if (dag.nodes.length > DAG_NODES_DRAWN_MAX) {
    return summarised(layers, statusOf, dag.nodes.length, beforeIntegrityError);
  }
  const depsOf = (id: string) => [
    ...new Set(dag.nodes[dag.positionById.get(id) as number]?.deps ?? []),
  ];
  return {
    drawn: true,
    layers: layers.map((layer) =>
      layer.map((id) => ({ id, deps: depsOf(id), status: statusOf(id) })),
    ),
    beforeIntegrityError,
  };
}

function summarised(
  layers: readonly (readonly string[])[],
  statusOf: (id: string) => Status,
  nodes: number,
  beforeIntegrityError: boolean,
): SummarisedDag {
  const rows: LayerRow[] = [];
  for (let start = 0; start < layers.length; ) {
    // The last row takes every layer left, so the table never outgrows LAYER_ROWS_MAX.
    const end = rows.length === LAYER_ROWS_MAX - 1 ? layers.length : start + 1;
    const counts = Object.fromEntries(STATUSES.map((status) => [status, 0])) as Record<
      Status,
      number
    >;
    for (const layer of layers.slice(start, end)) {
      for (const id of layer) counts[statusOf(id)] += 1;
    }
    rows.push({ first: start + 1, last: end, counts });
    start = end;
  }
  return { drawn: false, nodes, layers: layers.length, rows, beforeIntegrityError };
}

/**
 * The DAG of a journal view as HTML: its Kahn layers as columns of boxes, left to right, each box
 * coloured by the node's final status, with an edge from every dependency to its dependent and a
 * red ring on the nodes a finding names. A DAG too large to draw (journal-view.ts) becomes a table
 * of layers with their status counts. Inline SVG only: no script, no external resource. Pure.
 */

import { STATUSES, type Status } from "../../models/dag/state.js";
import { plural } from "../../text/format-units.js";
import { escapeHtml, escapeQuotedId, showControls } from "../escape-html.js";
import type { DagNodeView, DagView, DrawnDag, SummarisedDag } from "./journal-view.js";

const NODE_WIDTH = 148;
const NODE_HEIGHT = 46;
const LAYER_GAP = 64;
const ROW_GAP = 14;
const PADDING = 12;
const LAYER_LABEL_HEIGHT = 22;
/** Code points of an id that fit in a box at the label's size; longer ids are cut with "…". */
const LABEL_CODE_POINTS_MAX = 17;

export function renderDag(dag: DagView, flagged: ReadonlySet<string>): string {
  return dag.drawn ? renderDrawnDag(dag, flagged) : renderSummarisedDag(dag);
}

interface Box {
  readonly x: number;
  readonly y: number;
}

function renderDrawnDag(dag: DrawnDag, flagged: ReadonlySet<string>): string {
  if (dag.layers.length === 0) return `<p class="note">The DAG has no nodes.</p>`;
  const rowsMax = Math.max(...dag.layers.map((layer) => layer.length));
  const columnHeight = (rows: number) => rows * (NODE_HEIGHT + ROW_GAP) - ROW_GAP;
  const width = 2 * PADDING + dag.layers.length * (NODE_WIDTH + LAYER_GAP) - LAYER_GAP;
  const height = 2 * PADDING + LAYER_LABEL_HEIGHT + columnHeight(rowsMax);
  const boxes = new Map<string, Box>();
  dag.layers.forEach((layer, column) => {
    // Shorter layers are centred on the tallest, so edges stay short and the shape reads.
    const top =
      PADDING + LAYER_LABEL_HEIGHT + (columnHeight(rowsMax) - columnHeight(layer.length)) / 2;
    layer.forEach((node, row) => {
      boxes.set(node.id, {
        x: PADDING + column * (NODE_WIDTH + LAYER_GAP),
        y: top + row * (NODE_HEIGHT + ROW_GAP),
      });
    });
  });
  const labels = dag.layers.map((_, column) => {
    const x = PADDING + column * (NODE_WIDTH + LAYER_GAP) + NODE_WIDTH / 2;
    return `<text class="layer-label" x="${x}" y="${PADDING + 12}">layer ${column + 1}</text>`;
  });
  const nodes = dag.layers.flat();
  const edges = nodes.flatMap((node) =>
    node.deps.map((dep) => edge(boxes.get(dep), boxes.get(node.id))),
  );
  const drawn = nodes.map((node) => nodeBox(node, boxes.get(node.id) as Box, flagged.has(node.id)));
  const summary = `${plural(nodes.length, "node")} in ${plural(dag.layers.length, "layer")}`;
  return `<div class="dag-scroll"><svg class="dag" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="The DAG: ${summary}, coloured by final status">
${labels.join("")}
<g class="edges">${edges.join("")}</g>
${drawn.join("\n")}
</svg></div>`;
}

function edge(from: Box | undefined, to: Box | undefined): string {
  if (from === undefined || to === undefined) return "";
  const x1 = from.x + NODE_WIDTH;
  const y1 = from.y + NODE_HEIGHT / 2;
  const x2 = to.x;
  const y2 = to.y + NODE_HEIGHT / 2;
  const bend = LAYER_GAP / 2;
  return `<path d="M${x1} ${y1}C${x1 + bend} ${y1} ${x2 - bend} ${y2} ${x2} ${y2}"/>`;
}

function nodeBox(node: DagNodeView, { x, y }: Box, isFlagged: boolean): string {
  const classes = `node s-${node.status}${isFlagged ? " flagged" : ""}`;
  const centre = x + NODE_WIDTH / 2;
  const flag = isFlagged
    ? `<circle class="flag" cx="${x + NODE_WIDTH - 2}" cy="${y + 2}" r="8"/><text class="flag-mark" x="${x + NODE_WIDTH - 2}" y="${y + 6}">!</text>`
    : "";
  const tooltip = `${escapeQuotedId(node.id)} · ${node.status}${isFlagged ? " · named by a finding" : ""}`;
  return `<g class="${classes}"><title>${tooltip}</title><rect x="${x}" y="${y}" width="${NODE_WIDTH}" height="${NODE_HEIGHT}" rx="8"/><text class="node-id" x="${centre}" y="${y + 20}">${escapeHtml(label(node.id))}</text><text class="node-status" x="${centre}" y="${y + 36}">${node.status}</text>${flag}</g>`;
}

/** An id short enough for its box, with control characters made visible. */
function label(id: string): string {
  if (id === "") return '""';
  const codePoints = Array.from(showControls(id));
  return codePoints.length <= LABEL_CODE_POINTS_MAX
    ? codePoints.join("")
    : `${codePoints.slice(0, LABEL_CODE_POINTS_MAX - 1).join("")}…`;
}

function renderSummarisedDag(dag: SummarisedDag): string {
  const rows = dag.rows.map(({ first, last, counts }) => {
    const total = STATUSES.reduce((sum, status) => sum + counts[status], 0);
    const present = STATUSES.filter((status) => counts[status] > 0);
    const bar = present
      .map(
        (status) =>
          `<span class="s-${status}" style="flex:${counts[status]}" title="${counts[status]} ${status}"></span>`,
      )
      .join("");
    const words = present.map((status) => `${counts[status]} ${status}`).join(", ");
    const layers = first === last ? `layer ${first}` : `layers ${first}–${last}`;
    return `<tr><th>${layers}</th><td class="num">${total}</td><td><div class="bar">${bar}</div></td><td class="counts">${words}</td></tr>`;
  });
  return `<p class="note">The DAG has ${plural(dag.nodes, "node")} in ${plural(dag.layers, "layer")}, too many to draw one by one; each layer's nodes by final status:</p>
<table class="layers"><thead><tr><th>layer</th><th class="num">nodes</th><th>final status</th><th></th></tr></thead><tbody>
${rows.join("\n")}
</tbody></table>`;
}

/** The colour key, with how many nodes ended in each status. */
export function renderStatusLegend(
  counts: Readonly<Record<Status, number>>,
  flagged: boolean,
): string {
  const keys = STATUSES.filter((status) => counts[status] > 0).map(
    (status) => `<span class="pill s-${status}">${status} <b>${counts[status]}</b></span>`,
  );
  if (flagged) keys.push(`<span class="pill flag-key">! named by a finding</span>`);
  return `<div class="legend">${keys.join(" ")}</div>`;
}

/**
 * One colour per node status, used by the DAG, its legend and the status pills: the terminal
 * good state green, the terminal bad ones red and violet, work in flight blue, waiting grey,
 * trouble amber and orange. Pure.
 */
import type { Status } from "../../models/dag/state.js";

export interface StatusColour {
  /** Background of a box or pill. */
  readonly fill: string;
  /** Its border, and the text on it. */
  readonly ink: string;
}

export const STATUS_COLOURS: Readonly<Record<Status, StatusColour>> = {
  queued: { fill: "#eef1f5", ink: "#5b6472" },
  dispatched: { fill: "#dbeafe", ink: "#1d4ed8" },
  landed: { fill: "#cffafe", ink: "#0e7490" },
  proven: { fill: "#dcfce7", ink: "#15803d" },
  quarantined: { fill: "#fef3c7", ink: "#b45309" },
  rework: { fill: "#ffedd5", ink: "#c2410c" },
  skipped: { fill: "#ede9fe", ink: "#6d28d9" },
  escalated: { fill: "#fee2e2", ink: "#b91c1c" },
};

/** CSS classes `s-<status>` that set `--fill` and `--ink` for everything coloured by status. */
export function statusColourCss(): string {
  return Object.entries(STATUS_COLOURS)
    .map(([status, { fill, ink }]) => `.s-${status}{--fill:${fill};--ink:${ink}}`)
    .join("\n");
}

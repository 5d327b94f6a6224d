/**
 * A node's state as the HTML report shows it: plain, serialisable, with its surface bounded
 * (journal-view.ts), and how one event changed the surface.
 */
import { isStringArray, type NodeState } from "../../models/dag/state.js";
import {
  MALFORMED_SURFACE_CHARS_MAX,
  type NodeStateView,
  SURFACE_PATHS_LISTED_MAX,
  type SurfaceChange,
  type SurfaceView,
} from "./journal-view.js";

export function viewOfNodeState(state: NodeState): NodeStateView {
  const { status, phase, deposit, surface } = state;
  return {
    status,
    phase,
    deposit: deposit === null ? null : { ...deposit },
    surface: viewOfSurface(surface),
  };
}

function viewOfSurface(surface: unknown): SurfaceView {
  if (isStringArray(surface)) {
    return {
      well: "paths",
      paths: surface.slice(0, SURFACE_PATHS_LISTED_MAX),
      total: surface.length,
    };
  }
  // A raw journal can log any JSON value as a surface; the fold stores it verbatim.
  const json = JSON.stringify(surface) ?? String(surface);
  return {
    well: "malformed",
    json:
      json.length > MALFORMED_SURFACE_CHARS_MAX
        ? `${json.slice(0, MALFORMED_SURFACE_CHARS_MAX)}…`
        : json,
  };
}

/** Paths an event added to and dropped from a surface; null unless both are lists of paths. */
export function surfaceChange(before: unknown, after: unknown): SurfaceChange | null {
  if (!isStringArray(before) || !isStringArray(after)) return null;
  const had = new Set(before);
  const has = new Set(after);
  const added = [...has].filter((path) => !had.has(path));
  const dropped = [...had].filter((path) => !has.has(path));
  return {
    added: added.slice(0, SURFACE_PATHS_LISTED_MAX),
    addedTotal: added.length,
    dropped: dropped.slice(0, SURFACE_PATHS_LISTED_MAX),
    droppedTotal: dropped.length,
  };
}

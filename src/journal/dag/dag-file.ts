/**
 * DAG files (`{"nodes":[{"id":"A","deps":[]}, ...]}`) and the `dag` value of a journal header,
 * which share one validation: the shape first, every error pointing at the offending value's
 * line and column, then `makeDag`, whose rejection (duplicate-id, dangling-dependency, cycle)
 * becomes an error naming the reason, the ids, and the node where it shows.
 */
import { type Dag, type DagNode, type DagRejection, makeDag } from "../../models/dag/dag.js";
import type { JournalError } from "../errors.js";
import { parseJsonFile } from "../json-file.js";
import { describeJsonValue, type JsonOrigin, jsonValueError } from "../json-value-error.js";
import type { JsonPath } from "../json-walk.js";

/** How many ids a rejection message lists before it only counts them. */
const REJECTED_IDS_LISTED_MAX = 10;

/** Reads a DAG file. Unlike a journal line, a DAG file may start with a byte-order mark. */
export function parseDagFile(bytes: Uint8Array, file: string): Dag {
  const { value, origin } = parseJsonFile(bytes, file, 'a DAG {"nodes": [...]}');
  return dagFromJson(value, origin, []);
}

/** Validates a parsed DAG value found at `path` in `origin` and builds the DAG. */
export function dagFromJson(value: unknown, origin: JsonOrigin, path: JsonPath): Dag {
  const nodes = dagNodes(value, origin, path);
  const made = makeDag(nodes);
  if (made.ok) return made.dag;
  throw rejectionError(made.rejection, nodes, origin, path);
}

function dagNodes(value: unknown, origin: JsonOrigin, path: JsonPath): DagNode[] {
  const dag = expectObject(value, origin, path, 'a DAG {"nodes": [...]}');
  const nodes = dag.nodes;
  if (!Array.isArray(nodes)) {
    const at = Object.hasOwn(dag, "nodes") ? [...path, "nodes"] : path;
    const detail = `expected "nodes" to be an array of {"id", "deps"}, found ${describeJsonValue(nodes)}`;
    throw jsonValueError(origin, at, detail);
  }
  return nodes.map((node, i) => dagNode(node, origin, path, i));
}

function dagNode(value: unknown, origin: JsonOrigin, dagPath: JsonPath, index: number): DagNode {
  // Built only for an error: a DAG may hold 10⁵ nodes.
  const path = (): JsonPath => [...dagPath, "nodes", index];
  const node = isJsonObject(value)
    ? value
    : expectObject(value, origin, path(), 'a node {"id": "...", "deps": [...]}');
  if (typeof node.id !== "string") {
    throw fieldError(origin, path(), node, "id", "a string");
  }
  if (!Array.isArray(node.deps)) {
    throw fieldError(origin, path(), node, "deps", "an array of node ids");
  }
  const badDep = node.deps.findIndex((dep) => typeof dep !== "string");
  if (badDep >= 0) {
    const detail = `expected a node id (a string), found ${describeJsonValue(node.deps[badDep])}`;
    throw jsonValueError(origin, [...path(), "deps", badDep], detail);
  }
  return { id: node.id, deps: node.deps as string[] };
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function expectObject(
  value: unknown,
  origin: JsonOrigin,
  path: JsonPath,
  expected: string,
): Record<string, unknown> {
  if (isJsonObject(value)) return value;
  throw jsonValueError(origin, path, `expected ${expected}, found ${describeJsonValue(value)}`);
}

function fieldError(
  origin: JsonOrigin,
  path: JsonPath,
  object: Record<string, unknown>,
  field: string,
  expected: string,
): JournalError {
  if (!Object.hasOwn(object, field)) {
    return jsonValueError(origin, path, `expected a field "${field}" (${expected}), found none`);
  }
  const detail = `expected "${field}" to be ${expected}, found ${describeJsonValue(object[field])}`;
  return jsonValueError(origin, [...path, field], detail);
}

function rejectionError(
  rejection: DagRejection,
  nodes: readonly DagNode[],
  origin: JsonOrigin,
  path: JsonPath,
): JournalError {
  const at = (...steps: (string | number)[]) => [...path, "nodes", ...steps];
  switch (rejection.reason) {
    case "duplicate-id": {
      const [id] = rejection.ids as [string];
      const first = nodes.findIndex((node) => node.id === id);
      const second = nodes.findIndex((node, i) => i > first && node.id === id);
      const detail = `duplicate-id: expected each node id once, found ${JSON.stringify(id)} again (nodes[${first}] and nodes[${second}])`;
      return jsonValueError(origin, at(second, "id"), detail);
    }
    case "dangling-dependency": {
      const [id, dep] = rejection.ids as [string, string];
      const index = nodes.findIndex((node) => node.id === id);
      const depIndex = nodes[index]?.deps.indexOf(dep) ?? 0;
      const detail = `dangling-dependency: node ${JSON.stringify(id)} depends on ${JSON.stringify(dep)}, which is not a node of the DAG`;
      return jsonValueError(origin, at(index, "deps", depIndex), detail);
    }
    case "cycle": {
      const stuck = new Set(rejection.ids);
      const index = nodes.findIndex((node) => stuck.has(node.id));
      const detail = `cycle: expected an acyclic DAG, found nodes on or behind a dependency cycle, which can never be scheduled: ${listIds(rejection.ids)}`;
      return jsonValueError(origin, at(index), detail);
    }
    default: {
      const unreachable: never = rejection.reason;
      return unreachable;
    }
  }
}

function listIds(ids: readonly string[]): string {
  const listed = ids.slice(0, REJECTED_IDS_LISTED_MAX).map((id) => JSON.stringify(id));
  const more = ids.length - listed.length;
  return more > 0 ? `${listed.join(", ")} and ${more} more` : listed.join(", ");
}

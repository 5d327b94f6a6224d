/**
 * `statefold replay` of an operations journal: the state as JSON, one strand or operation per
 * line (docs/models/operations.md, "State"). Maps become lists in the order their entries were
 * first made; a retry's `notBefore` is exact, so it is printed as a number while it is a safe
 * integer and as a string of digits beyond.
 */
import type { Operation, OperationsState } from "../../models/operations/state.js";

export function renderOperationsState(state: OperationsState): string {
  const strands = [...state.strands].map(([id, strand]) => ({ id, ...strand }));
  const operations = [...state.operations].map(([id, op]) => operationRecord(id, op));
  const list = (items: readonly unknown[]) =>
    items.length === 0 ? "[]" : `[\n${items.map((item) => `  ${json(item)}`).join(",\n")}\n]`;
  return `{"strands":${list(strands)},\n"operations":${list(operations)},\n"effects":${state.reserved.size}}\n`;
}

function operationRecord(id: string, op: Operation): object {
  return {
    id,
    strand: op.strand,
    policy: op.policy,
    control: op.control,
    finished: op.finished,
    steps: [...op.steps].map(([key, step]) => ({ key, ...step })),
    effects: [...op.effects].map(([effect, live]) => ({ id: effect, ...live })),
  };
}

function json(value: unknown): string {
  return JSON.stringify(value, (_, item) =>
    typeof item === "bigint"
      ? item <= BigInt(Number.MAX_SAFE_INTEGER) && item >= BigInt(Number.MIN_SAFE_INTEGER)
        ? Number(item)
        : item.toString()
      : item,
  );
}

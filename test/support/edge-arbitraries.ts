/**
 * DAGs and logs for the corners of the kernel: ids that only escaping tells apart, the empty DAG,
 * surfaces with thousands of distinct paths, and long dependency chains whose nodes leave and
 * re-enter proven (which moves every dependent's count of unproven deps).
 */
import fc from "fast-check";
import { type Dag, type DagNode, EVENT_KINDS } from "../../src/models/dag/index.js";
import { mustMakeDag, nodeIdArbitrary, UNKNOWN_EVENT_KINDS } from "./arbitraries.js";

/**
 * Ids a scanner must decode before comparing: quotes, backslashes, spaces, non-ASCII, emoji, lone
 * surrogates (only a `\uXXXX` escape can spell one), a reversed pair, and pairs of ids that differ
 * only in escaping — "A" and the six characters `\u0041`, "/" and `\/`.
 */
export const ESCAPE_SENSITIVE_IDS = [
  "A",
  "\\u0041",
  "/",
  "\\/",
  'q"uote',
  '\\"',
  "back\\slash",
  "with space",
  " ",
  "",
  "é",
  "e\u0301",
  "日本語",
  "😀",
  "\ud83d",
  "\ude00",
  "\ud800",
  "\udfff",
  "\udc00\ud800",
  "\ud800\udc00",
  "a\u0000b",
  "tab\t",
  "\u2028",
  "\uFEFF",
  "\u007f",
];

/** A valid DAG over some of `ids`: each node depends on nodes before it in a hidden order; listed shuffled. */
export function dagOverIdsArbitrary(
  ids: readonly string[],
  { minNodes = 1, maxNodes = ids.length }: { minNodes?: number; maxNodes?: number } = {},
): fc.Arbitrary<Dag> {
  return fc
    .shuffledSubarray([...ids], { minLength: minNodes, maxLength: maxNodes })
    .chain((chosen) =>
      fc
        .tuple(
          fc.tuple(
            ...chosen.map((_, i) => fc.subarray(chosen.slice(0, i), { maxLength: Math.min(3, i) })),
          ),
          fc.shuffledSubarray([...chosen.keys()], {
            minLength: chosen.length,
            maxLength: chosen.length,
          }),
        )
        .map(([deps, order]) =>
          mustMakeDag(order.map((i) => ({ id: chosen[i] as string, deps: deps[i] as string[] }))),
        ),
    );
}

/**
 * Any event, mostly on one of `ids`, now and then on one of `others` or any id at all; any kind
 * (a few unknown), any result (near misses too), surfaces of ids.
 */
export function eventOverIdsArbitrary(
  ids: readonly string[],
  others: readonly string[] = [],
): fc.Arbitrary<unknown> {
  return fc.record(
    {
      kind: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(...EVENT_KINDS) },
        { weight: 1, arbitrary: fc.constantFrom(...UNKNOWN_EVENT_KINDS) },
      ),
      id: fc.oneof(
        ...(ids.length > 0 ? [{ weight: 12, arbitrary: fc.constantFrom(...ids) }] : []),
        ...(others.length > 0 ? [{ weight: 1, arbitrary: fc.constantFrom(...others) }] : []),
        { weight: 1, arbitrary: nodeIdArbitrary },
      ),
      result: fc.constantFrom("pass", "fail", "timeout", "PASS", 1),
      surface: fc.array(fc.constantFrom(...ids, ...others, "src/a.ts"), { maxLength: 4 }),
    },
    { requiredKeys: ["kind", "id"] },
  );
}

/** Paths p0, p1, ... (and a few awkward ones), so that payloads of thousands are all distinct. */
export function manyPaths(count: number): string[] {
  const awkward = ["", "ü/ñ.txt", "😀.md", 'q"uote', "back\\slash", "\ud800", "p\u0030"];
  return [
    ...awkward,
    ...Array.from({ length: count - awkward.length }, (_, i) => `src/dir-${i % 97}/file-${i}.ts`),
  ];
}

/**
 * Surface events on a few nodes with payloads of up to thousands of paths drawn from a large pool:
 * growing, shrinking, with duplicates, now and then malformed; with other events around them.
 */
export function manyPathsLogArbitrary(dag: Dag, pathCount: number): fc.Arbitrary<unknown[]> {
  const paths = manyPaths(pathCount);
  const ids = dag.nodes.map((node) => node.id);
  const surface = fc
    .record({
      start: fc.nat({ max: paths.length - 1 }),
      length: fc.oneof(fc.nat({ max: 20 }), fc.nat({ max: 3000 })),
      duplicates: fc.nat({ max: 5 }),
      intruder: fc.oneof(
        { weight: 9, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constant(42) },
      ),
    })
    .map(({ start, length, duplicates, intruder }) => {
      const chosen: unknown[] = paths.slice(start, start + length);
      for (let i = 0; i < duplicates && chosen.length > 0; i++)
        chosen.push(chosen[(i * 7) % chosen.length]);
      if (intruder !== undefined) chosen.splice(chosen.length >> 1, 0, intruder);
      return chosen;
    });
  const event = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant("surface-widened"),
        id: fc.constantFrom(...ids),
        surface,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constantFrom("dispatched", "landed", "skipped"),
        id: fc.constantFrom(...ids),
      }),
    },
  );
  return fc.array(event, { minLength: 1, maxLength: 25 });
}

/**
 * A chain n0 ← n1 ← … ← n(k-1) (each node depends on the one before, now and then also on earlier
 * ones, a dep sometimes listed twice), the nodes listed in shuffled order.
 */
export function chainDagArbitrary({ minNodes = 10, maxNodes = 60 } = {}): fc.Arbitrary<Dag> {
  return fc.integer({ min: minNodes, max: maxNodes }).chain((count) =>
    fc
      .tuple(
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: count }),
        fc.shuffledSubarray([...Array(count).keys()], { minLength: count, maxLength: count }),
      )
      .map(([extraEdges, order]) => {
        const deps: string[][] = Array.from({ length: count }, (_, i) =>
          i === 0 ? [] : [`n${i - 1}`],
        );
        for (const [node, dep] of extraEdges) {
          const i = 1 + (node % Math.max(1, count - 1));
          if (i < count) deps[i]?.push(`n${dep % i}`);
        }
        const nodes: DagNode[] = order.map((i) => ({ id: `n${i}`, deps: deps[i] as string[] }));
        return mustMakeDag(nodes);
      }),
  );
}

const FLIP_EVENTS: readonly Record<string, unknown>[] = [
  { kind: "gate-checked", result: "fail" },
  { kind: "gate-checked", result: "pass" },
  { kind: "dispatched" },
  { kind: "landed" },
  { kind: "quarantined" },
  { kind: "discharged", result: "fail" },
  { kind: "discharged", result: "pass" },
  { kind: "skipped" },
  { kind: "escalated" },
];

/**
 * A log that proves a chain's nodes in dependency order (gate-checked pass, or quarantined then
 * discharged pass), with events spliced in that take proven nodes out of proven (and sometimes back
 * in, legally or not), and dispatches of nodes whose deps are not proven yet.
 */
export function chainLogArbitrary(dag: Dag): fc.Arbitrary<unknown[]> {
  const count = dag.nodes.length;
  return fc
    .record({
      degraded: fc.array(fc.boolean(), { minLength: count, maxLength: count }),
      flips: maybeNone(
        fc.record({
          node: fc.nat(),
          at: fc.nat(),
          flip: fc.constantFrom(...FLIP_EVENTS),
          reprove: fc.boolean(),
          reproveAfter: fc.nat(),
        }),
        { maxLength: 20 },
      ),
      earlyDispatches: maybeNone(fc.tuple(fc.nat(), fc.nat()), { maxLength: 6 }),
    })
    .map(({ degraded, flips, earlyDispatches }) => {
      const log: Record<string, unknown>[] = [];
      for (let i = 0; i < count; i++) log.push(...proof(`n${i}`, degraded[i] === true));
      for (const { node, at, flip, reprove, reproveAfter } of flips) {
        const id = `n${node % count}`;
        const position = at % (log.length + 1);
        log.splice(position, 0, { ...flip, id });
        if (reprove) {
          const later = position + 1 + (reproveAfter % (log.length - position));
          log.splice(later, 0, ...proof(id, false));
        }
      }
      for (const [node, at] of earlyDispatches) {
        log.splice(at % (log.length + 1), 0, { kind: "dispatched", id: `n${node % count}` });
      }
      return log;
    });
}

/** Often no items at all (so some logs stay legal), else an array of them. */
function maybeNone<T>(item: fc.Arbitrary<T>, constraints: fc.ArrayConstraints): fc.Arbitrary<T[]> {
  return fc.oneof(fc.constant<T[]>([]), fc.array(item, constraints));
}

function proof(id: string, degraded: boolean): Record<string, unknown>[] {
  const landed = [
    { kind: "dispatched", id },
    { kind: "landed", id },
  ];
  return degraded
    ? [...landed, { kind: "quarantined", id }, { kind: "discharged", id, result: "pass" }]
    : [...landed, { kind: "gate-checked", id, result: "pass" }];
}

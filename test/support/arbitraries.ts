/**
 * fast-check arbitraries for the work-DAG model: DAGs, operation sequences and raw logs. They are
 * shared by the reference model's own tests and by the differential tests that hold every other
 * engine to it, so they generate only JSON-representable values (a journal can carry them) except
 * for `UnparseableLine`, which stands for a journal line that is not JSON at all.
 *
 * Two operation generators, because one alone is vacuous (seed 000, "adversarial finding"):
 * - `happyPathOpsArbitrary`: long, no skip/escalate, mostly valid results — drives nodes to proven;
 * - `adversarialOpsArbitrary`: every transition including skip/escalate, any result, any
 *   surface, unknown nodes — explores rejections, but nodes rarely reach proven.
 */
import fc from "fast-check";
import {
  type Dag,
  type DagNode,
  EVENT_KINDS,
  type Event,
  type EventKind,
  loggedEvents,
  makeDag,
} from "../../src/models/dag/index.js";
import { UnparseableLine } from "../../src/models/journal-source.js";
import { type Op, runOps, type TransitionName } from "./run-ops.js";

// ---------------------------------------------------------------------------------------------
// Node ids and DAGs

export const PLAIN_NODE_IDS = ["A", "B", "C", "D", "E", "F", "G", "H", "build", "test", "lint"];

/**
 * Ids that trip up naive scanners, encoders and comparators: JSON escapes, whitespace, the empty
 * string, composed vs decomposed forms (distinct ids: no normalisation), BMP vs astral characters
 * (UTF-16 and code-point order differ), case.
 */
export const AWKWARD_NODE_IDS = [
  'say "hi"',
  "back\\slash",
  "with space",
  "tab\there",
  "new\nline",
  "",
  "é",
  "e\u0301",
  "日本語",
  "😀",
  "\uFFFD",
  "\uE000",
  "a",
  "Ab",
  "ab",
  '{"kind":"dispatched","id":"A"}',
];

export const nodeIdArbitrary: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PLAIN_NODE_IDS) },
  { weight: 3, arbitrary: fc.constantFrom(...AWKWARD_NODE_IDS) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 4 }) },
);

export interface DagShape {
  readonly minNodes?: number;
  readonly maxNodes?: number;
  /** Most deps one node draws (before the occasional duplicate entry). */
  readonly maxDepsPerNode?: number;
}

/**
 * Node lists that make a valid DAG: unique ids, deps drawn from nodes earlier in a hidden
 * topological order, then listed in a shuffled order (so the DAG is not handed over sorted).
 * A deps list sometimes names one dep twice, which docs/models/dag.md allows.
 */
export function dagNodesArbitrary(shape: DagShape = {}): fc.Arbitrary<DagNode[]> {
  const { minNodes = 1, maxNodes = 12, maxDepsPerNode = 3 } = shape;
  return fc
    .uniqueArray(nodeIdArbitrary, { minLength: minNodes, maxLength: maxNodes })
    .chain((ids) => {
      const depsOf = ids.map((_, position) =>
        fc
          .tuple(
            fc.subarray(range(position), { maxLength: Math.min(position, maxDepsPerNode) }),
            fc.nat({ max: 9 }),
          )
          .map(([deps, roll]) => (roll === 0 && deps.length > 0 ? [...deps, deps[0]] : deps)),
      );
      const order = fc.shuffledSubarray(range(ids.length), {
        minLength: ids.length,
        maxLength: ids.length,
      });
      return fc.tuple(fc.tuple(...depsOf), order).map(([deps, shuffled]) =>
        shuffled.map((position) => ({
          id: ids[position] as string,
          deps: (deps[position] as number[]).map((dep) => ids[dep] as string),
        })),
      );
    });
}

export function dagArbitrary(shape: DagShape = {}): fc.Arbitrary<Dag> {
  return dagNodesArbitrary(shape).map(mustMakeDag);
}

export function mustMakeDag(nodes: readonly DagNode[]): Dag {
  const made = makeDag(nodes);
  if (!made.ok) throw new Error(`not a DAG: ${JSON.stringify(made.rejection)}`);
  return made.dag;
}

/** An id that names no node of `dag`, derived from a generated one. */
export function unknownNodeIdArbitrary(dag: Dag): fc.Arbitrary<string> {
  return nodeIdArbitrary.map((id) => {
    let fresh = id;
    while (dag.positionById.has(fresh)) fresh += "·ghost";
    return fresh;
  });
}

function knownNodeIdArbitrary(dag: Dag): fc.Arbitrary<string> {
  return fc.constantFrom(...dag.nodes.map((node) => node.id));
}

function range(length: number): number[] {
  return Array.from({ length }, (_, i) => i);
}

// ---------------------------------------------------------------------------------------------
// Results and surfaces

export const gateResultArbitrary = fc.constantFrom("pass", "fail", "timeout");
export const dischargeResultArbitrary = fc.constantFrom("pass", "fail");

/** Any result a caller or a journal might carry: valid ones, near misses, any JSON value. */
export const anyResultArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: gateResultArbitrary },
  { weight: 1, arbitrary: fc.constantFrom("PASS", "Pass", "ok", "", "pass ", "timeout\u0000") },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

/** A small pool, so that generated surfaces overlap, grow and shrink. */
export const SURFACE_PATHS = [
  "src/a.ts",
  "src/b.ts",
  "docs/read me.md",
  "ü/ñ.txt",
  "😀.md",
  'q"uote',
  "back\\slash",
  "",
];

export const surfacePathArbitrary = fc.constantFrom(...SURFACE_PATHS);

/** A well-formed surface argument: an array of strings, duplicates allowed. */
export const surfaceArbitrary: fc.Arbitrary<string[]> = fc.array(surfacePathArbitrary, {
  maxLength: 4,
});

/** A payload that is not an array of strings: null, a bare string, a number, an object, or an array holding a non-string. */
export const malformedSurfaceArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  surfacePathArbitrary,
  fc.integer(),
  fc.record({ paths: surfaceArbitrary }),
  fc
    .tuple(
      surfaceArbitrary,
      fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.constant(["nested"])),
      fc.nat(),
    )
    .map(([paths, intruder, at]) => {
      const mixed: unknown[] = [...paths];
      mixed.splice(at % (paths.length + 1), 0, intruder);
      return mixed;
    }),
);

export const anySurfaceArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: surfaceArbitrary },
  { weight: 1, arbitrary: malformedSurfaceArbitrary },
);

// ---------------------------------------------------------------------------------------------
// Operation sequences

type OpWeights = Readonly<Record<TransitionName, number>>;

function opArbitrary(
  node: fc.Arbitrary<string>,
  weights: OpWeights,
  args: {
    gate: fc.Arbitrary<unknown>;
    discharge: fc.Arbitrary<unknown>;
    surface: fc.Arbitrary<unknown>;
  },
): fc.Arbitrary<Op> {
  const argOf: Record<TransitionName, fc.Arbitrary<unknown> | null> = {
    dispatch: null,
    land: null,
    gateCheck: args.gate,
    quarantine: null,
    discharge: args.discharge,
    skip: null,
    escalate: null,
    widenSurface: args.surface,
  };
  const transitions = (Object.keys(weights) as TransitionName[]).filter((t) => weights[t] > 0);
  return fc.oneof(
    ...transitions.map((transition) => {
      const arg = argOf[transition];
      return {
        weight: weights[transition],
        arbitrary:
          arg === null
            ? node.map((id): Op => ({ transition, node: id }))
            : fc.tuple(node, arg).map(([id, value]): Op => ({ transition, node: id, arg: value })),
      };
    }),
  );
}

const HAPPY_PATH_WEIGHTS: OpWeights = {
  dispatch: 4,
  land: 4,
  gateCheck: 4,
  quarantine: 1,
  discharge: 2,
  skip: 0,
  escalate: 0,
  widenSurface: 1,
};

const ADVERSARIAL_WEIGHTS: OpWeights = {
  dispatch: 1,
  land: 1,
  gateCheck: 1,
  quarantine: 1,
  discharge: 1,
  skip: 1,
  escalate: 1,
  widenSurface: 1,
};

export interface OpsLength {
  readonly minLength?: number;
  readonly maxLength?: number;
}

/**
 * Long sequences without skip or escalate, valid results biased to pass, valid surfaces, known
 * nodes only: most nodes get through dispatch, land and a passing gate or discharge.
 */
export function happyPathOpsArbitrary(dag: Dag, length: OpsLength = {}): fc.Arbitrary<Op[]> {
  const { minLength = 80, maxLength = 300 } = length;
  const op = opArbitrary(knownNodeIdArbitrary(dag), HAPPY_PATH_WEIGHTS, {
    gate: fc.oneof({ weight: 3, arbitrary: fc.constant("pass") }, gateResultArbitrary),
    discharge: fc.oneof({ weight: 2, arbitrary: fc.constant("pass") }, dischargeResultArbitrary),
    surface: surfaceArbitrary,
  });
  return fc.array(op, { minLength, maxLength, size: "max" });
}

/**
 * Every transition equally likely, skip and escalate included; any result, any surface, and
 * now and then a node the DAG does not have.
 */
export function adversarialOpsArbitrary(dag: Dag, length: OpsLength = {}): fc.Arbitrary<Op[]> {
  const { minLength = 0, maxLength = 40 } = length;
  const node = fc.oneof(
    { weight: 9, arbitrary: knownNodeIdArbitrary(dag) },
    { weight: 1, arbitrary: unknownNodeIdArbitrary(dag) },
  );
  const op = opArbitrary(node, ADVERSARIAL_WEIGHTS, {
    gate: anyResultArbitrary,
    discharge: anyResultArbitrary,
    surface: anySurfaceArbitrary,
  });
  return fc.array(op, { minLength, maxLength, size: "max" });
}

export type OpsGenerator = "happy-path" | "adversarial";

export const OPS_GENERATORS: Readonly<Record<OpsGenerator, (dag: Dag) => fc.Arbitrary<Op[]>>> = {
  "happy-path": (dag) => happyPathOpsArbitrary(dag),
  adversarial: (dag) => adversarialOpsArbitrary(dag),
};

export interface DagWithOps {
  readonly dag: Dag;
  readonly ops: Op[];
}

export function dagWithOpsArbitrary(
  generator: OpsGenerator,
  shape: DagShape = {},
): fc.Arbitrary<DagWithOps> {
  return dagArbitrary(shape).chain((dag) =>
    OPS_GENERATORS[generator](dag).map((ops) => ({ dag, ops })),
  );
}

// ---------------------------------------------------------------------------------------------
// Raw logs

const EVENT_KIND_WEIGHTS: Readonly<Record<EventKind, number>> = {
  dispatched: 3,
  landed: 3,
  "gate-checked": 3,
  quarantined: 1,
  discharged: 2,
  skipped: 1,
  escalated: 1,
  "surface-widened": 2,
};

/** Fields a runtime adds that the model ignores (docs/journals.md). */
export const extraFieldsArbitrary: fc.Arbitrary<Record<string, unknown>> = fc.record(
  { ts: fc.nat(), seq: fc.nat(), note: fc.string({ maxLength: 6 }), result: anyResultArbitrary },
  { requiredKeys: [] },
);

/**
 * A well-formed event on a known node, with no regard for the state it lands in: legal or
 * illegal (wrong status, invalid result, shrinking or malformed surface), sometimes with extra
 * fields. A `discharged` event on a node that never got a deposit is a log-integrity fault.
 */
export function wellFormedEventArbitrary(dag: Dag): fc.Arbitrary<Event> {
  const kind = fc.oneof(
    ...EVENT_KINDS.map((k) => ({ weight: EVENT_KIND_WEIGHTS[k], arbitrary: fc.constant(k) })),
  );
  return fc
    .record({
      kind,
      id: knownNodeIdArbitrary(dag),
      result: anyResultArbitrary,
      surface: anySurfaceArbitrary,
      surfaceMissing: fc.nat({ max: 9 }),
      extras: fc.option(extraFieldsArbitrary, { freq: 4 }),
    })
    .map(({ kind, id, result, surface, surfaceMissing, extras }): Event => {
      const base: Event = { ...(extras ?? {}), kind, id };
      if (kind === "gate-checked" || kind === "discharged") return { ...base, result };
      if (kind === "surface-widened") return surfaceMissing === 0 ? base : { ...base, surface };
      return base;
    });
}

export const UNKNOWN_EVENT_KINDS = [
  "Dispatched",
  "dispatch",
  "gate_checked",
  "node-dispatched",
  "",
  "landed ",
  "constructor",
];

const notAnObjectArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.boolean(),
  fc.string({ maxLength: 8 }),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
);

const notAStringArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
  fc.record({ name: fc.string({ maxLength: 3 }) }),
);

/**
 * A log entry that is a log-integrity fault wherever it stands: not an object, kind or id
 * missing or not a string, an unknown node, an unknown kind, or an unparseable line.
 */
export function malformedEntryArbitrary(dag: Dag): fc.Arbitrary<unknown> {
  const knownId = knownNodeIdArbitrary(dag);
  const knownKind = fc.constantFrom(...EVENT_KINDS);
  return fc.oneof(
    notAnObjectArbitrary,
    knownId.map((id) => ({ id })),
    fc.tuple(notAStringArbitrary, knownId).map(([kind, id]) => ({ kind, id })),
    knownKind.map((kind) => ({ kind })),
    fc.tuple(knownKind, notAStringArbitrary).map(([kind, id]) => ({ kind, id })),
    fc.tuple(knownKind, unknownNodeIdArbitrary(dag)).map(([kind, id]) => ({ kind, id })),
    fc.tuple(fc.constantFrom(...UNKNOWN_EVENT_KINDS), knownId).map(([kind, id]) => ({ kind, id })),
    fc.constantFrom(new UnparseableLine("invalid-json"), new UnparseableLine("invalid-utf8")),
  );
}

/**
 * A run of surface events on one node whose payloads mix arrays of strings with missing, null and
 * malformed ones, so that every kind of payload is followed by further widenings: the stored
 * surface a later event is judged against may then be empty (missing, null), malformed, or not.
 */
export function surfaceBurstArbitrary(dag: Dag): fc.Arbitrary<Event[]> {
  const payload: fc.Arbitrary<{ surface?: unknown }> = fc.oneof(
    { weight: 3, arbitrary: surfaceArbitrary.map((surface) => ({ surface })) },
    { weight: 1, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.constant({ surface: null }) },
    { weight: 2, arbitrary: malformedSurfaceArbitrary.map((surface) => ({ surface })) },
  );
  return fc
    .tuple(knownNodeIdArbitrary(dag), fc.array(payload, { minLength: 2, maxLength: 5 }))
    .map(([id, payloads]) =>
      payloads.map((fields): Event => ({ kind: "surface-widened", id, ...fields })),
    );
}

export interface RawLogShape {
  /** How many raw entries get spliced into the live log. */
  readonly maxInsertions?: number;
  /** How many live events get dropped (which breaks what depended on them). */
  readonly maxDeletions?: number;
}

/**
 * A raw log: the legal log of a happy-path live run, with some events dropped and raw entries
 * spliced in — well-formed events mostly, runs of surface events with every kind of payload, now
 * and then a malformed entry. So the result mixes
 * legal, illegal and malformed entries, and a prefix before the first fault is usually long.
 */
export function rawLogArbitrary(dag: Dag, shape: RawLogShape = {}): fc.Arbitrary<unknown[]> {
  const { maxInsertions = 12, maxDeletions = 4 } = shape;
  const entries: fc.Arbitrary<unknown[]> = fc.oneof(
    { weight: 14, arbitrary: wellFormedEventArbitrary(dag).map((event) => [event]) },
    { weight: 1, arbitrary: malformedEntryArbitrary(dag).map((entry) => [entry]) },
    { weight: 2, arbitrary: surfaceBurstArbitrary(dag) },
  );
  return fc
    .record({
      ops: happyPathOpsArbitrary(dag, { minLength: 0, maxLength: 120 }),
      deletions: fc.array(fc.nat(), { maxLength: maxDeletions }),
      insertions: fc.array(fc.tuple(fc.nat(), entries), { maxLength: maxInsertions }),
    })
    .map(({ ops, deletions, insertions }) => {
      const log: unknown[] = loggedEvents(runOps(dag, ops).final);
      for (const at of deletions) if (log.length > 0) log.splice(at % log.length, 1);
      for (const [at, raw] of insertions) log.splice(at % (log.length + 1), 0, ...raw);
      return log;
    });
}

export interface DagWithRawLog {
  readonly dag: Dag;
  readonly events: unknown[];
}

export function dagWithRawLogArbitrary(
  shape: DagShape = {},
  logShape: RawLogShape = {},
): fc.Arbitrary<DagWithRawLog> {
  return dagArbitrary(shape).chain((dag) =>
    rawLogArbitrary(dag, logShape).map((events) => ({ dag, events })),
  );
}

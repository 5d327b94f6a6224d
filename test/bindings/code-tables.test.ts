/**
 * The kernels' code tables, held against their mirrors. A kernel writes codes (numbers, in
 * assembly/ namespaces of constants); the bindings turn a code back into the reference's string
 * by its position in a list; the reference names the strings in its unions. Nothing generates
 * one side from another, so this test reads the kernel's source and checks, table by table, that
 * the kernel's member for position i names the binding's string i, and that each list holds
 * every member of the reference's union.
 *
 * A kernel member names a string by SCREAMING_CASE: `gate-checked` ↔ GATE_CHECKED,
 * `phaseMonotonic` ↔ PHASE_MONOTONIC, `policy.maxAttempts` ↔ POLICY_MAX_ATTEMPTS, and null (no
 * code) ↔ NONE. A negative member (NONE = -1, ASK_HOST) is a sentinel, not a position; COUNT is
 * the table's length.
 */
import { describe, expect, it } from "vitest";
import * as dagCodes from "../../bindings/dag/codes.js";
import * as executiveCodes from "../../bindings/executive/codes.js";
import * as operationsCodes from "../../bindings/operations/codes.js";
import { GATE_RESULTS } from "../../src/models/dag/transitions.js";
import {
  FINISHED_OUTCOMES,
  READBACK_FINDINGS,
  RESPONSE_CLASSES,
  SETTLED_OUTCOMES,
  STEP_STATUSES,
  STOP_REASONS,
} from "../../src/models/operations/index.js";
import { PROGRAM_MODEL_NAMES } from "../../src/models/registry.js";
import { kernelNamespace } from "../support/kernel-source.js";
import { stringUnionMembers } from "../support/type-members.js";

/** The kernel's name for a code's string (see the header). */
function kernelName(code: string | null): string {
  if (code === null) return "NONE";
  return code
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[-.]/g, "_")
    .toUpperCase();
}

/**
 * A namespace's positions: its members of value 0, 1, 2, … in order (sentinels below 0 aside),
 * checked to leave no gap. A last member COUNT is the table's length, not a position (FieldType's
 * COUNT, the `count` type, is a position).
 */
function kernelPositions(file: string, namespace: string): string[] {
  const positions = [...kernelNamespace(file, namespace)]
    .filter(([, value]) => value >= 0)
    .sort(([, a], [, b]) => a - b);
  const last = positions.at(-1);
  if (last?.[0] === "COUNT") {
    positions.pop();
    expect(last[1], `${file} ${namespace}.COUNT`).toBe(positions.length);
  }
  expect(
    positions.map(([, value]) => value),
    `${file} ${namespace}: codes 0, 1, 2, … without a gap`,
  ).toEqual(positions.map((_, position) => position));
  return positions.map(([name]) => name);
}

interface Mirror {
  /** The list that decodes the kernel's codes, as `file NAME`. */
  readonly table: string;
  readonly codes: readonly (string | null)[];
  /** The kernel's namespace: [file, name]. */
  readonly kernel: readonly [string, string];
  /** Where the kernel's name for a string is not its SCREAMING_CASE: string → member. */
  readonly aliases?: Readonly<Record<string, string>>;
}

const DAG = "bindings/dag/codes.ts";
const OPERATIONS = "bindings/operations/codes.ts";
const EXECUTIVE = "bindings/executive/codes.ts";

/** The dag kernel's event kinds: the reference's, then the faults only the host sees. */
const DAG_KINDS = [
  ...dagCodes.EVENT_KINDS,
  ...Object.entries(dagCodes.Kind)
    .filter(([, code]) => code >= dagCodes.EVENT_KINDS.length)
    .sort(([, a], [, b]) => a - b)
    .map(([name]) => name),
];

/**
 * The `response.handle` members' paths are named from the handle alone (HANDLE_ID), since the
 * handle is only ever read inside a response.
 */
const HANDLE_PATHS = Object.fromEntries(
  ["id", "provider", "model", "api"].map((member) => [
    `response.handle.${member}`,
    `HANDLE_${member.toUpperCase()}`,
  ]),
);

const MIRRORS: readonly Mirror[] = [
  {
    table: `${DAG} EVENT_KINDS, Kind`,
    codes: DAG_KINDS,
    kernel: ["assembly/dag/events.ts", "Kind"],
  },
  {
    table: `${DAG} STATUSES`,
    codes: dagCodes.STATUSES,
    kernel: ["assembly/dag/state.ts", "Status"],
  },
  {
    table: `${DAG} HEADER_MODELS`,
    codes: dagCodes.HEADER_MODELS,
    kernel: ["assembly/header.ts", "HeaderModel"],
  },
  {
    table: `${DAG} INTEGRITY_REASONS`,
    codes: dagCodes.INTEGRITY_REASONS,
    kernel: ["assembly/dag/events.ts", "Integrity"],
  },
  {
    table: `${DAG} MALFORMED_PROBLEMS`,
    codes: dagCodes.MALFORMED_PROBLEMS,
    kernel: ["assembly/dag/events.ts", "Malformed"],
  },
  {
    table: `${DAG} ILLEGALITY_REASONS`,
    codes: dagCodes.ILLEGALITY_REASONS,
    kernel: ["assembly/dag/transitions.ts", "Illegality"],
  },
  {
    table: `${DAG} STEP_INVARIANTS`,
    codes: dagCodes.STEP_INVARIANTS,
    kernel: ["assembly/dag/invariants.ts", "StepInvariant"],
  },
  {
    table: `${DAG} VALIDATIONS`,
    codes: dagCodes.VALIDATIONS,
    kernel: ["assembly/dag/state.ts", "Validation"],
  },
  {
    table: `${DAG} GATE_MODES`,
    codes: dagCodes.GATE_MODES,
    kernel: ["assembly/dag/state.ts", "GateMode"],
  },
  {
    table: "src/models/dag/transitions.ts GATE_RESULTS (after no result)",
    codes: [null, ...(GATE_RESULTS as readonly string[])],
    kernel: ["assembly/dag/events.ts", "Result"],
    aliases: { null: "MISSING_OR_OTHER" },
  },
  {
    table: `${OPERATIONS} RECORD_KINDS`,
    codes: operationsCodes.RECORD_KINDS,
    kernel: ["assembly/operations/records.ts", "Kind"],
  },
  {
    table: `${OPERATIONS} RULE_NAMES`,
    codes: operationsCodes.RULE_NAMES,
    kernel: ["assembly/operations/report.ts", "Rule"],
  },
  {
    table: `${OPERATIONS} REASONS`,
    codes: operationsCodes.REASONS,
    kernel: ["assembly/operations/report.ts", "Reason"],
  },
  {
    table: `${OPERATIONS} INTEGRITY_REASONS`,
    codes: operationsCodes.INTEGRITY_REASONS,
    kernel: ["assembly/operations/integrity.ts", "Integrity"],
  },
  {
    table: `${OPERATIONS} PROBLEMS`,
    codes: operationsCodes.PROBLEMS,
    kernel: ["assembly/operations/integrity.ts", "Problem"],
  },
  {
    table: `${OPERATIONS} FIELD_TYPES`,
    codes: operationsCodes.FIELD_TYPES,
    kernel: ["assembly/operations/records.ts", "FieldType"],
  },
  {
    table: `${OPERATIONS} FIELD_PATHS`,
    codes: operationsCodes.FIELD_PATHS,
    kernel: ["assembly/operations/records.ts", "Path"],
    aliases: HANDLE_PATHS,
  },
  {
    table: "src/models/operations/records.ts SETTLED_OUTCOMES",
    codes: SETTLED_OUTCOMES,
    kernel: ["assembly/operations/records.ts", "SettledOutcome"],
  },
  {
    table: "src/models/operations/records.ts READBACK_FINDINGS",
    codes: READBACK_FINDINGS,
    kernel: ["assembly/operations/records.ts", "Found"],
  },
  {
    table: "src/models/operations/records.ts FINISHED_OUTCOMES",
    codes: FINISHED_OUTCOMES,
    kernel: ["assembly/operations/records.ts", "FinishedOutcome"],
  },
  {
    table: "src/models/operations/records.ts STOP_REASONS",
    codes: STOP_REASONS,
    kernel: ["assembly/operations/records.ts", "Stop"],
  },
  {
    table: "src/models/operations/records.ts RESPONSE_CLASSES",
    codes: RESPONSE_CLASSES,
    kernel: ["assembly/operations/records.ts", "ResponseClass"],
  },
  {
    table: "src/models/operations/state.ts STEP_STATUSES",
    codes: STEP_STATUSES,
    kernel: ["assembly/operations/state.ts", "StepStatus"],
  },
  {
    table: `${EXECUTIVE} STATUSES`,
    codes: executiveCodes.STATUSES,
    kernel: ["assembly/executive/state.ts", "Status"],
  },
  {
    table: `${EXECUTIVE} FAIL_REASONS`,
    codes: executiveCodes.FAIL_REASONS,
    kernel: ["assembly/executive/state.ts", "FailReason"],
  },
  {
    table: `${EXECUTIVE} OBSERVATION_TAGS`,
    codes: executiveCodes.OBSERVATION_TAGS,
    kernel: ["assembly/executive/observation.ts", "ObservationTag"],
  },
  {
    table: `${EXECUTIVE} REJECT_REASONS`,
    codes: executiveCodes.REJECT_REASONS,
    kernel: ["assembly/executive/step.ts", "RejectReason"],
  },
  {
    table: `${EXECUTIVE} DECISION_TAGS`,
    codes: executiveCodes.DECISION_TAGS,
    kernel: ["assembly/executive/step.ts", "DecisionTag"],
  },
  {
    table: `${EXECUTIVE} LIMITS`,
    codes: executiveCodes.LIMITS,
    kernel: ["assembly/executive/spec.ts", "Limit"],
  },
  {
    // A step is an effect or a sub-plan: bindings/executive/pack-spec.ts codes it so.
    table: `${EXECUTIVE} EFFECTS, then a sub-plan`,
    codes: [...executiveCodes.EFFECTS, "sub-plan"],
    kernel: ["assembly/executive/spec.ts", "Kind"],
  },
];

describe("the kernels' code tables", () => {
  const titled = MIRRORS.map(
    (mirror) => [`${mirror.kernel.join(" ")} ↔ ${mirror.table}`, mirror] as const,
  );

  it.each(titled)("%s", (_, { table, codes, kernel, aliases = {} }) => {
    const [file, namespace] = kernel;
    const named = codes.map((code) => aliases[String(code)] ?? kernelName(code));
    expect(
      kernelPositions(file, namespace),
      `${file} ${namespace} and ${table} must list the same codes in the same order`,
    ).toEqual(named);
  });

  // A header naming any other model (one defined by data) is the host's to read: ASK_HOST.
  it("header models follow the registry: assembly/header.ts HeaderModel ↔ HEADER_MODELS ↔ PROGRAM_MODEL_NAMES", () => {
    expect(
      dagCodes.HEADER_MODELS,
      `${DAG} HEADER_MODELS: PROGRAM_MODEL_NAMES in order, then none`,
    ).toEqual([...PROGRAM_MODEL_NAMES, null]);
    expect(kernelNamespace("assembly/header.ts", "HeaderModel").get("ASK_HOST")).toBeLessThan(0);
  });

  it("a budget-exhausted fail's budget: the counters as Limit codes them, then DEPTH", () => {
    const budgets = executiveCodes.EXHAUSTED_BUDGETS;
    const limits = kernelPositions("assembly/executive/spec.ts", "Limit");
    expect(limits.slice(0, budgets.length - 1)).toEqual(budgets.slice(0, -1).map(kernelName));
    expect(budgets.at(-1)).toBe("depth");
    const budget = kernelNamespace("assembly/executive/state.ts", "Budget");
    expect(budget.get("DEPTH"), "assembly/executive/state.ts Budget.DEPTH").toBe(
      budgets.length - 1,
    );
  });

  it("an observation that cannot be read earns its reject reason: Observed ↔ RejectReason", () => {
    const observed = kernelNamespace("assembly/executive/observation.ts", "Observed");
    const reasons = kernelPositions("assembly/executive/step.ts", "RejectReason");
    const readAs = { MALFORMED: "MALFORMED_OBSERVATION" } as Record<string, string>;
    for (const [name, code] of observed) {
      if (code < 0) continue;
      expect(reasons[code], `Observed.${name} is a RejectReason code`).toBe(readAs[name] ?? name);
    }
  });

  it("a malformed executive line's message: assembly/executive/audit.ts Problem ↔ MALFORMED_LINE_MESSAGES", () => {
    // The messages are prose: each problem is known by a phrase of its message.
    const phrase: Record<string, string> = {
      INVALID_UTF8: "not UTF-8",
      INVALID_JSON: "not JSON",
      NOT_AN_OBJECT: "expected an object",
      NO_OBSERVATION: 'field "observation", found none',
      NO_DECISION: 'field "decision", found none',
      DECISION_NOT_AN_OBJECT: '"decision" to be an object',
    };
    const problems = kernelPositions("assembly/executive/audit.ts", "Problem");
    expect(problems.length).toBe(executiveCodes.MALFORMED_LINE_MESSAGES.length);
    for (const [code, problem] of problems.entries()) {
      expect(executiveCodes.MALFORMED_LINE_MESSAGES[code], `Problem.${problem}`).toContain(
        phrase[problem],
      );
    }
  });
});

describe("the kernels' numeric constants the bindings copy", () => {
  const copies = [
    { copy: `${DAG} Kind`, codes: dagCodes.Kind, kernel: ["assembly/dag/events.ts", "Kind"] },
    { copy: `${DAG} Result`, codes: dagCodes.Result, kernel: ["assembly/dag/events.ts", "Result"] },
    {
      copy: `${DAG} SurfaceShape`,
      codes: dagCodes.SurfaceShape,
      kernel: ["assembly/dag/events.ts", "SurfaceShape"],
    },
    { copy: `${DAG} Limit`, codes: dagCodes.Limit, kernel: ["assembly/jsonl.ts", "Limit"] },
    {
      copy: `${OPERATIONS} Limit`,
      codes: operationsCodes.Limit,
      kernel: ["assembly/jsonl.ts", "Limit"],
    },
    {
      copy: `${EXECUTIVE} OUTSTANDING`,
      codes: Object.fromEntries(
        Object.entries(executiveCodes.OUTSTANDING).map(([name, code]) => [kernelName(name), code]),
      ),
      kernel: ["assembly/executive/state.ts", "Outstanding"],
    },
  ] as const;

  const titled = copies.map((copy) => [`${copy.kernel.join(" ")} ↔ ${copy.copy}`, copy] as const);

  it.each(titled)("%s", (_, { copy, codes, kernel }) => {
    const [file, namespace] = kernel;
    const members = Object.fromEntries(kernelNamespace(file, namespace));
    const copied = Object.fromEntries(Object.keys(codes).map((name) => [name, members[name]]));
    expect(codes, `${copy}: each code as ${file} ${namespace} has it`).toEqual(copied);
  });
});

describe("the reference's unions, every member in its table", () => {
  const unions = stringUnionMembers(
    [
      'import type { IntegrityReason as DagIntegrity, MalformedProblem as DagMalformed } from "./src/models/dag/events.js";',
      'import type { InvariantsReport as DagInvariants } from "./src/models/dag/report.js";',
      'import type { GateMode, Validation } from "./src/models/dag/state.js";',
      'import type { IllegalityReason } from "./src/models/dag/transitions.js";',
      'import type { FieldType, IntegrityFault, MalformedProblem } from "./src/models/operations/integrity.js";',
      'import type { InvariantsReport as OperationsInvariants, Reason } from "./src/models/operations/report.js";',
      'import type { Decision, ExhaustedBudget } from "./src/models/executive/observation.js";',
    ].join("\n"),
    {
      DagIntegrityReasons: "DagIntegrity",
      DagMalformedProblems: "DagMalformed",
      IllegalityReasons: "IllegalityReason",
      StepInvariants: 'Exclude<keyof DagInvariants, "tamperEvident">',
      Validations: "Validation",
      GateModes: "GateMode",
      OperationsIntegrityReasons: 'IntegrityFault["reason"]',
      OperationsProblems: 'MalformedProblem["problem"]',
      FieldTypes: "FieldType",
      Reasons: "Reason",
      Rules: "keyof OperationsInvariants",
      DecisionTags: 'Decision["tag"]',
      ExhaustedBudgets: "ExhaustedBudget",
    },
  );
  const tables: readonly [string, string, readonly (string | null)[]][] = [
    [`${DAG} INTEGRITY_REASONS`, "DagIntegrityReasons", dagCodes.INTEGRITY_REASONS],
    [`${DAG} MALFORMED_PROBLEMS`, "DagMalformedProblems", dagCodes.MALFORMED_PROBLEMS],
    [`${DAG} ILLEGALITY_REASONS`, "IllegalityReasons", dagCodes.ILLEGALITY_REASONS],
    [`${DAG} STEP_INVARIANTS`, "StepInvariants", dagCodes.STEP_INVARIANTS],
    [`${DAG} VALIDATIONS`, "Validations", dagCodes.VALIDATIONS],
    [`${DAG} GATE_MODES`, "GateModes", dagCodes.GATE_MODES],
    [
      `${OPERATIONS} INTEGRITY_REASONS`,
      "OperationsIntegrityReasons",
      operationsCodes.INTEGRITY_REASONS,
    ],
    [`${OPERATIONS} PROBLEMS`, "OperationsProblems", operationsCodes.PROBLEMS],
    [`${OPERATIONS} FIELD_TYPES`, "FieldTypes", operationsCodes.FIELD_TYPES],
    [`${OPERATIONS} REASONS`, "Reasons", operationsCodes.REASONS],
    [`${OPERATIONS} RULE_NAMES`, "Rules", operationsCodes.RULE_NAMES],
    [`${EXECUTIVE} DECISION_TAGS`, "DecisionTags", executiveCodes.DECISION_TAGS],
    [`${EXECUTIVE} EXHAUSTED_BUDGETS`, "ExhaustedBudgets", executiveCodes.EXHAUSTED_BUDGETS],
  ];

  it.each(tables)("%s holds %s", (table, union, codes) => {
    const listed = codes.filter((code) => code !== null).sort();
    expect(listed, `${table}: once each, every member of the reference's union`).toEqual(
      unions[union],
    );
  });
});

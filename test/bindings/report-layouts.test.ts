/**
 * The layouts the kernels and the bindings both write down. Where a report block's offset is a
 * kernel export (REPORT_EVENTS, FINDING_BYTES, …) the bindings read it from the kernel and
 * nothing can drift; the offsets inside one entry of a block, and the packed spec's shape, are
 * numbers on both sides. This test reads both sides' source and holds them together: each
 * field a binding reads must be one the kernel writes, at the same offset and width, and where
 * the binding names what it reads (`kind: …`, `const tag = …`), under the same name.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { kernelNamespace, sourceBetween, sourceConstant } from "../support/kernel-source.js";
import { ROOT } from "../support/static-imports.js";

interface Field {
  readonly offset: number;
  readonly width: "f64" | "i32" | "u32";
  /** What the value is called where it is written or read; null where nothing names it. */
  readonly name: string | null;
}

/** The kernel's name for a value, as a binding would call it: `decisionTag` → `tag`. */
function valueName(expression: string): string {
  const name = expression.replace(/<\w+>/g, "").trim();
  return name.replace(/^decision([A-Z])/, (_, first: string) => first.toLowerCase());
}

/**
 * The fields a kernel function stores at `base`: `store<T>(base, value, offset)`, and the
 * pointer and length `keepCopy(base, offset, text(…))` stores for a text it keeps.
 */
function kernelFields(source: string, base: string): Field[] {
  const fields: Field[] = [];
  const store = new RegExp(`store<(f64|i32|u32)>\\(${base}, ([^;]*?)(?:, (\\d+))?\\);`, "g");
  for (const [, width, value, offset] of source.matchAll(store)) {
    fields.push({
      offset: Number(offset ?? 0),
      width: width as Field["width"],
      name: valueName(value as string),
    });
  }
  const kept = new RegExp(`keepCopy\\(${base}, (\\d+), text\\((?:Path\\.)?(\\w+)\\)`, "g");
  for (const [, offset, text] of source.matchAll(kept)) {
    const name = (text as string).toLowerCase();
    fields.push({ offset: Number(offset), width: "u32", name });
    fields.push({ offset: Number(offset) + 4, width: "u32", name });
  }
  return fields.sort((a, b) => a.offset - b.offset);
}

const READ_WIDTHS: Readonly<Record<string, Field["width"]>> = {
  getFloat64: "f64",
  f64: "f64",
  getInt32: "i32",
  i32: "i32",
  getUint32: "u32",
};

/**
 * The fields a binding reads at `base` (`view.getInt32(base + 16, true)`, `i32(base + 16)`),
 * each named by the property or constant its line assigns it to, if any.
 */
function bindingFields(source: string, base: string): Field[] {
  const fields: Field[] = [];
  for (const line of source.split("\n")) {
    const read = new RegExp(
      `(?<!=> )(?:view\\.)?\\b(getFloat64|getInt32|getUint32|f64|i32)\\(${base}(?: \\+ (\\d+))?[,)]`,
      "g",
    );
    for (const match of line.matchAll(read)) {
      const before = line.slice(0, match.index);
      const name = /(\w+)\s*[:=](?!=)[^:=]*$/.exec(before)?.[1] ?? null;
      fields.push({
        offset: Number(match[2] ?? 0),
        width: READ_WIDTHS[match[1] as string] as Field["width"],
        name,
      });
    }
  }
  return fields;
}

interface EntryLayout {
  readonly entry: string;
  readonly kernel: { readonly file: string; readonly from: string; readonly base: string };
  readonly readers: readonly {
    readonly file: string;
    readonly from: string;
    readonly to: string;
    readonly base: string;
  }[];
  /** Where the kernel's name for a value is not the binding's: kernel → binding. */
  readonly aliases?: Readonly<Record<string, string>>;
}

const LAYOUTS: readonly EntryLayout[] = [
  {
    entry: "a dag step invariant's first breach (REPORT_STEP_INVARIANTS)",
    kernel: { file: "assembly/dag/audit.ts", from: "function noteViolation(", base: "at" },
    readers: [
      {
        file: "bindings/dag/read-report.ts",
        from: "of STEP_INVARIANTS.entries()",
        to: "const tampered",
        base: "offset",
      },
    ],
  },
  {
    entry: "a dag listed illegal event (REPORT_ILLEGAL_LIST)",
    kernel: { file: "assembly/dag/audit.ts", from: "function noteIllegal(", base: "at" },
    readers: [
      {
        file: "bindings/dag/read-report.ts",
        from: "const illegal: IllegalEvent[]",
        to: "const illegalCount",
        base: "offset",
      },
    ],
  },
  {
    entry: "an operations finding (REPORT_RULES, REPORT_ILLEGAL_LIST)",
    kernel: {
      file: "assembly/operations/audit.ts",
      from: "function writeFinding(",
      base: "finding",
    },
    readers: [
      {
        file: "bindings/operations/read-report.ts",
        from: "const subjectAt",
        to: "let integrity",
        base: "at",
      },
    ],
  },
  {
    entry: "an executive listed mismatch (REPORT_MISMATCH_LIST)",
    kernel: { file: "assembly/executive/audit.ts", from: "function listMismatch(", base: "at" },
    readers: [
      {
        file: "bindings/executive/read-report.ts",
        from: "for (let i = 0; i < listed; i++)",
        to: "const decisionsMatch",
        base: "entry",
      },
      {
        file: "bindings/executive/read-report.ts",
        from: "function listedDecision(",
        to: "function finalOf(",
        base: "entry",
      },
      {
        file: "bindings/executive/audit-snapshot.ts",
        from: "function mismatchFits(",
        to: "return true;\n}",
        base: "at",
      },
    ],
  },
];

describe("the report entries both sides lay out", () => {
  const titled = LAYOUTS.map((layout) => [layout.entry, layout] as const);

  it.each(titled)("%s", (entry, { kernel, readers, aliases = {} }) => {
    const writer = sourceBetween(kernel.file, kernel.from, "\n}\n");
    const written = kernelFields(writer, kernel.base);
    expect(written.length, `${kernel.file}: the fields "${kernel.from}" writes`).toBeGreaterThan(0);
    for (const reader of readers) {
      const read = bindingFields(sourceBetween(reader.file, reader.from, reader.to), reader.base);
      expect(read.length, `${reader.file}: the fields read after "${reader.from}"`).toBeGreaterThan(
        0,
      );
      for (const field of read) {
        const place = `${reader.file} reads ${field.name ?? "a field"} at ${reader.base} + ${field.offset}`;
        const match = written.filter((kept) => kept.offset === field.offset);
        expect(
          match.map((kept) => kept.width),
          `${place}: ${kernel.file} writes there`,
        ).toContain(field.width);
        if (field.name === null) continue;
        const names = match.map((kept) => aliases[kept.name ?? ""] ?? kept.name);
        expect(names, `${place}: ${kernel.file} writes ${entry} there`).toContain(field.name);
      }
    }
  });
});

describe("the operations report's final block", () => {
  it("counts in the same order: assembly/operations/state.ts OpCount, FinishedOutcome, StepStatus ↔ bindings/operations/read-report.ts", () => {
    const state = "assembly/operations/state.ts";
    const opCount = kernelNamespace(state, "OpCount");
    const outcomes = [
      ...kernelNamespace("assembly/operations/records.ts", "FinishedOutcome").keys(),
    ];
    const steps = [...kernelNamespace(state, "StepStatus").keys()].filter(
      (name) => name !== "COUNT",
    );
    const controls = [...opCount].filter(
      ([name, code]) => name !== "COUNT" && code < (opCount.get("COMPLETED") as number),
    );
    expect(opCount.get("COUNT"), `${state} OpCount: the controls, then the finished outcomes`).toBe(
      controls.length + outcomes.length,
    );
    const writer = sourceBetween(
      "assembly/operations/audit.ts",
      "const at = report + REPORT_FINAL",
      "\n}\n",
    );
    const tail = [...writer.matchAll(/store<f64>\(at \+ (\d+), <f64>(\w+)\(\)\)/g)].map(
      ([, offset, name]) => [Number(offset) / 8, name],
    );
    const kernelOrder = [
      ...controls.map(([name]) => name),
      ...outcomes,
      ...steps,
      ...tail.map(
        ([, name]) =>
          ({ effectsReserved: "EFFECTS", strandsNamed: "STRANDS" })[name as string] ?? name,
      ),
    ];
    expect(tail.map(([slot]) => slot)).toEqual([kernelOrder.length - 2, kernelOrder.length - 1]);

    const reader = sourceBetween(
      "bindings/operations/read-report.ts",
      "const summary: FinalSummary",
      "};",
    );
    const bindingOrder = [...reader.matchAll(/(\w+): count\((\d+)\)/g)]
      .sort(([, , a], [, , b]) => Number(a) - Number(b))
      .map(([, name]) => (name as string).replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase());
    expect(bindingOrder, "the final block's counts, slot by slot").toEqual(kernelOrder);
  });
});

describe("the constants both sides write down", () => {
  const executiveSpec = "assembly/executive/spec.ts";
  const packSpec = "bindings/executive/pack-spec.ts";
  const step = kernelNamespace(executiveSpec, "Step");
  const constants: readonly [string, number, string, number][] = [
    [
      `${packSpec} SUB_PLAN`,
      sourceConstant(packSpec, "SUB_PLAN"),
      `${executiveSpec} Kind.SUB_PLAN`,
      kernelNamespace(executiveSpec, "Kind").get("SUB_PLAN") as number,
    ],
    [
      `${packSpec} STEP_INTS × 4`,
      4 * sourceConstant(packSpec, "STEP_INTS"),
      `${executiveSpec} Step.BYTES`,
      step.get("BYTES") as number,
    ],
    [
      `${packSpec} KIND_INT × 4`,
      4 * sourceConstant(packSpec, "KIND_INT"),
      `${executiveSpec} Step.KIND`,
      step.get("KIND") as number,
    ],
    [
      `${packSpec} ID_START_INT × 4`,
      4 * sourceConstant(packSpec, "ID_START_INT"),
      `${executiveSpec} Step.ID_START`,
      step.get("ID_START") as number,
    ],
    [
      `${packSpec} ID_LENGTH_INT × 4`,
      4 * sourceConstant(packSpec, "ID_LENGTH_INT"),
      `${executiveSpec} Step.ID_LENGTH`,
      step.get("ID_LENGTH") as number,
    ],
    [
      `${packSpec} HEADER_BYTES`,
      sourceConstant(packSpec, "HEADER_BYTES"),
      `${executiveSpec} HEADER_BYTES`,
      sourceConstant(executiveSpec, "HEADER_BYTES"),
    ],
    [
      `${packSpec} SCALARS × 8`,
      8 * sourceConstant(packSpec, "SCALARS"),
      `${executiveSpec} SCALARS_BYTES`,
      sourceConstant(executiveSpec, "SCALARS_BYTES"),
    ],
    [
      `${packSpec} CHILD_BUDGET_F64S × 8`,
      8 * sourceConstant(packSpec, "CHILD_BUDGET_F64S"),
      `${executiveSpec} CHILD_BUDGET_BYTES`,
      sourceConstant(executiveSpec, "CHILD_BUDGET_BYTES"),
    ],
    [
      "bindings/operations/read-report.ts STRAND_SUBJECT",
      sourceConstant("bindings/operations/read-report.ts", "STRAND_SUBJECT"),
      "assembly/operations/audit.ts FindingFlag.STRAND",
      kernelNamespace("assembly/operations/audit.ts", "FindingFlag").get("STRAND") as number,
    ],
    [
      "bindings/operations/read-report.ts HAS_EFFECT",
      sourceConstant("bindings/operations/read-report.ts", "HAS_EFFECT"),
      "assembly/operations/audit.ts FindingFlag.EFFECT",
      kernelNamespace("assembly/operations/audit.ts", "FindingFlag").get("EFFECT") as number,
    ],
    [
      "bindings/dag/jsonl-session.ts NODE_RECORD_BYTES",
      sourceConstant("bindings/dag/jsonl-session.ts", "NODE_RECORD_BYTES"),
      "assembly/dag/state.ts 1 << NODE_BYTES_LOG2",
      1 << sourceConstant("assembly/dag/state.ts", "NODE_BYTES_LOG2"),
    ],
  ];

  it.each(constants)("%s = %s", (binding, value, kernel, kernelValue) => {
    expect(value, `${binding} must equal ${kernel}`).toBe(kernelValue);
  });

  it("bindings/executive/pack-spec.ts: the packed spec's counts, in assembly/executive/header.ts's order", () => {
    const kernel = kernelFields(
      sourceBetween(
        "assembly/executive/header.ts",
        "memory.fill(blob, 0, HEADER_BYTES)",
        "memory.copy(blob + HEADER_BYTES",
      ),
      "blob",
    );
    // The kernel's n is the steps' count, its idByteCount the ids' bytes.
    const named: Record<string, string> = { n: "stepCount", idByteCount: "idBytes" };
    const kernelCounts = kernel.map((field) => named[field.name ?? ""] ?? field.name);
    expect(kernel.map((field) => field.offset)).toEqual(kernelCounts.map((_, i) => 4 * i));
    const source = readFileSync(join(ROOT, packSpec), "utf8");
    const written = /const counts = \[([^\]]+)\];/.exec(source)?.[1] ?? "";
    expect(source).toContain("view.setInt32(4 * i, value, true)");
    expect(
      written.split(",").map((count) => count.trim().replace(/\.length$/, "")),
      `${packSpec} writes the counts`,
    ).toEqual(kernelCounts);
    const read =
      /const \[([^\]]+)\] = \[([\d, ]+)\]\.map\(\(at\) => view\.getInt32\(at, true\)\)/.exec(
        source,
      );
    const names = (read?.[1] ?? "").split(",").map((name) => name.trim());
    const offsets = (read?.[2] ?? "").split(",").map(Number);
    expect(names.length, `${packSpec} reads the counts`).toBeGreaterThan(0);
    for (const [i, name] of names.entries()) {
      expect(
        kernelCounts[(offsets[i] as number) / 4],
        `${packSpec} reads ${name} at ${offsets[i]}`,
      ).toBe(name);
    }
  });

  it("bindings/executive/audit-snapshot.ts RECORDED_POINTER, RECORDED_LENGTH: where a listed mismatch keeps its recorded decision", () => {
    const file = "bindings/executive/audit-snapshot.ts";
    const written = kernelFields(
      sourceBetween("assembly/executive/audit.ts", "function listMismatch(", "\n}\n"),
      "at",
    );
    const at = (name: string) => written.find((field) => field.name === name);
    expect(sourceConstant(file, "RECORDED_POINTER")).toBe(at("recorded")?.offset);
    expect(sourceConstant(file, "RECORDED_LENGTH")).toBe(at("length")?.offset);
    expect(readFileSync(join(ROOT, file), "utf8")).toContain("entry + RECORDED_POINTER");
  });
});

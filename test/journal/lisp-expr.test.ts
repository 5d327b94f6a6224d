import { describe, expect, it } from "vitest";
import { readLispExprJournal } from "../../src/journal/dag/lisp-expr.js";
import { readSexprs } from "../../src/journal/dag/sexpr.js";
import { JournalError } from "../../src/journal/errors.js";
import { LISP_EXPR_MISSING_HEADER } from "../../src/journal/missing-header.js";
import { audit, makeDag } from "../../src/models/dag/index.js";
import { UnparseableLine } from "../../src/models/journal-source.js";
import { encode } from "../support/bytes.js";
import { errorThrownBy } from "../support/outcome.js";

const read = (text: string) => readLispExprJournal(encode(text), "c.lisp-expr");

const readError = (text: string | Uint8Array): JournalError =>
  errorThrownBy(JournalError, () =>
    readLispExprJournal(typeof text === "string" ? encode(text) : text, "c.lisp-expr"),
  );

describe("readLispExprJournal", () => {
  it("routes the four calculus-conformant entries to model events at their lines", () => {
    const journal = read(
      [
        '(:NODE-DISPATCHED "A")',
        '(:SURFACE-WIDENED "A" ("src/a.lisp" "t/a.lisp"))',
        '(:NODE-LANDED "A")',
        '(:NODE-SKIPPED "B")',
        "",
      ].join("\n"),
    );
    expect(journal).toEqual({
      header: null,
      events: [
        { kind: "dispatched", id: "A" },
        { kind: "surface-widened", id: "A", surface: ["src/a.lisp", "t/a.lisp"] },
        { kind: "landed", id: "A" },
        { kind: "skipped", id: "B" },
      ],
      lines: [1, 2, 3, 4],
      tornTail: null,
      missingHeader: LISP_EXPR_MISSING_HEADER,
    });
  });

  it("reads keywords case-insensitively and strings case-sensitively", () => {
    expect(read('(:node-Dispatched "aB")\n').events).toEqual([{ kind: "dispatched", id: "aB" }]);
  });

  it("skips runtime bookkeeping, other entries, atoms and comments", () => {
    const journal = read(
      [
        "; campaign 7, resumed",
        '(:CAMPAIGN-STARTED "c7" :AT 3971482103)',
        '(:NODE-ACCEPTED "A" :PHASE 1)',
        '(:NODE-REWORK "A" :REASON "gate failed")',
        ':STRAY-KEYWORD "a string" 42 ()',
        '(("not a keyword head") "A")',
        '(:NODE-LANDED "A") ; landed after 3 tries',
        "",
      ].join("\n"),
    );
    expect(journal.events).toEqual([{ kind: "landed", id: "A" }]);
    expect(journal.lines).toEqual([7]);
  });

  it("places a form wrapped over several lines at the line it starts on", () => {
    const journal = read(
      '(:NODE-DISPATCHED "A")\n(:SURFACE-WIDENED\n   "A"\n   ("x.lisp"\n    "y.lisp"))\n(:NODE-LANDED "A")\n',
    );
    expect(journal.lines).toEqual([1, 2, 6]);
    expect(journal.events[1]).toEqual({
      kind: "surface-widened",
      id: "A",
      surface: ["x.lisp", "y.lisp"],
    });
  });

  it("decodes string escapes and non-ASCII text", () => {
    const journal = read('(:NODE-DISPATCHED "say \\"hi\\" back\\\\slash é😀")\n');
    expect(journal.events).toEqual([{ kind: "dispatched", id: 'say "hi" back\\slash é😀' }]);
  });

  it("reads a NIL surface as the empty surface", () => {
    expect(read('(:SURFACE-WIDENED "A" NIL)\n(:SURFACE-WIDENED "A" ())\n').events).toEqual([
      { kind: "surface-widened", id: "A", surface: [] },
      { kind: "surface-widened", id: "A", surface: [] },
    ]);
  });

  it("passes a malformed surface on for the invariants to judge", () => {
    const journal = read(
      '(:NODE-DISPATCHED "A")\n(:SURFACE-WIDENED "A" "src/a.lisp")\n(:SURFACE-WIDENED "A" (SRC/A 7))\n(:SURFACE-WIDENED "A")\n',
    );
    expect(journal.events[1]).toEqual({ kind: "surface-widened", id: "A", surface: "src/a.lisp" });
    const surface = (journal.events[2] as { surface: unknown[] }).surface;
    expect(surface.some((path) => typeof path === "string")).toBe(false);
    expect(journal.events[3]).toEqual({ kind: "surface-widened", id: "A" });
    const report = audit(dagOfA(), journal.events, journal);
    expect(report.invariants.surfaceMonotonic).toEqual({
      holds: false,
      index: 1,
      line: 2,
      node: "A",
    });
  });

  it.each([
    ["a missing id", "(:NODE-LANDED)"],
    ["a symbol id", "(:NODE-LANDED A)"],
    ["a number id", "(:NODE-LANDED 42)"],
    ["a list id", '(:NODE-LANDED ("A"))'],
  ])("keeps a routed entry with %s, for the fold to report as malformed", (_, entry) => {
    const journal = read(`(:NODE-DISPATCHED "A")\n${entry}\n`);
    expect(journal.events).toHaveLength(2);
    expect(audit(dagOfA(), journal.events, journal).integrity).toEqual({
      index: 1,
      line: 2,
      reason: "malformed-event",
      message: 'the event has no string "id"',
    });
  });

  it("turns a form with invalid UTF-8 into an unparseable entry at its line", () => {
    const bytes = Uint8Array.from([
      ...encode('(:NODE-LANDED "A")\n(:NODE-LANDED "'),
      0xff,
      ...encode('")\n'),
    ]);
    const journal = readLispExprJournal(bytes, "c.lisp-expr");
    expect(journal.events).toEqual([
      { kind: "landed", id: "A" },
      new UnparseableLine("invalid-utf8"),
    ]);
    expect(journal.lines).toEqual([1, 2]);
  });

  describe("torn and unbalanced forms", () => {
    it("reports an unfinished final form in an unterminated file as a torn tail", () => {
      const prefix = '(:NODE-DISPATCHED "é")\n';
      const journal = read(`${prefix}(:SURFACE-WIDENED "A"\n   ("x.lisp" "y.li`);
      expect(journal.tornTail).toEqual({ line: 2, offset: encode(prefix).length });
      expect(journal.events).toHaveLength(1);
    });

    it("reports a torn string at the top level as a torn tail", () => {
      expect(read('(:NODE-LANDED "A")\n"unfinish').tornTail).toEqual({ line: 2, offset: 19 });
    });

    it("rejects an unfinished form when the file ends with a line feed", () => {
      const error = readError('(:NODE-LANDED "A")\n  (:NODE-LANDED "B"\n');
      expect(error).toMatchObject({ file: "c.lisp-expr", line: 2, column: 3 });
      expect(error.message).toBe(
        "c.lisp-expr:2:3: expected ')' to close the form that starts here, found the end of the file",
      );
    });

    it("rejects an unfinished form that swallowed a later entry, even when unterminated", () => {
      const error = readError('(:NODE-LANDED "A"\n(:NODE-LANDED "B")\n(:NODE-LANDED "C")');
      expect(error.message).toBe(
        "c.lisp-expr:1:1: expected ')' to close the form that starts here, found the end of the file (the entry at line 2 is inside it)",
      );
    });

    it("rejects a ')' that closes no form, at its line and column", () => {
      const error = readError('(:NODE-LANDED "A")\n(:NODE-LANDED "é"))\n');
      expect(error.message).toBe(
        "c.lisp-expr:2:19: expected '(' or an atom, found ')' that closes no form",
      );
    });

    it("rejects an unterminated string at the string", () => {
      const error = readError('(:NODE-LANDED "A")\n(:NODE-LANDED "B)\n');
      expect(error.message).toBe(
        "c.lisp-expr:2:15: expected '\"' to close the string that starts here, found the end of the file",
      );
    });
  });
});

describe("readSexprs", () => {
  it("reads lists, strings, upcased symbols, numbers, NIL as () and T", () => {
    const { forms } = readSexprs(encode('(:Kw sym "Str" 42 -7 3.5 1.0d2 nil t)'), "x");
    expect(forms[0]?.form).toEqual({
      type: "list",
      items: [
        { type: "symbol", name: ":KW" },
        { type: "symbol", name: "SYM" },
        { type: "string", value: "Str" },
        { type: "number", value: 42 },
        { type: "number", value: -7 },
        { type: "number", value: 3.5 },
        { type: "number", value: 100 },
        { type: "list", items: [] },
        { type: "symbol", name: "T" },
      ],
    });
  });

  it("counts lines inside multi-line strings", () => {
    const { forms } = readSexprs(encode('("a\nb")\n(x)'), "x");
    expect(forms.map((form) => form.line)).toEqual([1, 3]);
  });

  it("reads 100 000 levels of nesting without recursion", () => {
    const depth = 100_000;
    const { forms } = readSexprs(encode(`${"(".repeat(depth)}${")".repeat(depth)}\n`), "x");
    expect(forms).toHaveLength(1);
  });
});

function dagOfA() {
  const made = makeDag([{ id: "A", deps: [] }]);
  if (!made.ok) throw new Error("the test DAG is valid");
  return made.dag;
}

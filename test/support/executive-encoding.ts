/**
 * `executive` journals as bytes, for holding the WebAssembly kernel's audit to the reference
 * (test/differential/executive-audit.test.ts): a random run recorded by a faithful host, some
 * of its recorded decisions corrupted the ways a host gets them wrong, and written the many
 * ways test/support/jsonl-encoding.ts knows — escapes, whitespace, key order, earlier duplicate
 * keys the real one overrides, other spellings of numbers, extra fields (ignored at the top,
 * malformed in an observation, a difference in a decision), blank lines, CRLF — with broken
 * lines and an unterminated or torn tail.
 */
import fc from "fast-check";
import {
  type Decision,
  type ExecutiveMachine,
  type ExecutiveState,
  referenceExecutive,
} from "../../src/models/executive/index.js";
import { concatBytes } from "./bytes.js";
import { type Move, moveArbitrary, observationFor, runArbitrary } from "./executive-arbitraries.js";
import {
  type EncodingStyle,
  INVALID_UTF8_SEQUENCES,
  JsonWriter,
  RawJson,
} from "./jsonl-encoding.js";

export type Tail = "terminated" | "unterminated" | "torn";

/** What a faulty host does to a recorded decision, or to the line that holds it. */
export const CORRUPTIONS = [
  "none",
  "seq",
  "attempt",
  "path",
  "tag",
  "reason",
  "extra-key",
  "missing-key",
  "not-an-object",
  "no-decision",
  "not-json",
  "not-utf8",
  "after-terminal",
] as const;
export type Corruption = (typeof CORRUPTIONS)[number];

export interface ExecutiveJournalCase {
  readonly header: { readonly spec: unknown; readonly budget: unknown };
  readonly moves: readonly Move[];
  /** Per line, what is done to it (cycled). */
  readonly corruptions: readonly Corruption[];
  readonly tail: Tail;
}

export const executiveJournalCaseArbitrary: fc.Arbitrary<ExecutiveJournalCase> = fc.record({
  header: runArbitrary.map(({ spec, budget }) => ({ spec, budget })),
  moves: fc.array(moveArbitrary, { maxLength: 40 }),
  corruptions: fc.array(
    fc.oneof(
      { weight: 12, arbitrary: fc.constant<Corruption>("none") },
      fc.constantFrom(...CORRUPTIONS),
    ),
    { minLength: 1, maxLength: 12 },
  ),
  tail: fc.constantFrom<Tail>("terminated", "unterminated", "torn"),
});

const utf8 = new TextEncoder();

/** The run's lines: each observation with the decision a faithful host recorded, then corrupted. */
function recordedLines(
  machine: ExecutiveMachine,
  journal: ExecutiveJournalCase,
): ({ observation: unknown; decision: unknown } | Corruption)[] {
  const made = machine.initialState(journal.header.spec, journal.header.budget);
  if (!("state" in made)) return [];
  let state: ExecutiveState = made.state;
  let last: Decision | null = null;
  let now = 0;
  const lines: ({ observation: unknown; decision: unknown } | Corruption)[] = [];
  for (const [i, move] of journal.moves.entries()) {
    now += move.advance;
    const corruption = journal.corruptions[i % journal.corruptions.length] as Corruption;
    const observation: unknown =
      corruption === "after-terminal" ? { tag: "tick", now } : observationFor(move, last, now);
    const result: { decision: Decision; state: ExecutiveState } = machine.step(state, observation);
    const decision = JSON.parse(JSON.stringify(result.decision)) as Record<string, unknown>;
    if (corruption === "not-json" || corruption === "not-utf8") {
      lines.push(corruption);
      continue;
    }
    lines.push({ observation, decision: corrupted(decision, corruption) });
    if (corruption === "not-an-object" || corruption === "no-decision") continue;
    if (result.decision.tag !== "wait") last = result.decision;
    state = result.state;
  }
  return lines;
}

function corrupted(decision: Record<string, unknown>, corruption: Corruption): unknown {
  switch (corruption) {
    case "seq":
      return { ...decision, seq: (Number(decision.seq) || 0) + 1 };
    case "attempt":
      return decision.tag === "execute"
        ? { ...decision, attempt: Number(decision.attempt) - 1 }
        : decision;
    case "path":
      return decision.tag === "execute"
        ? { ...decision, path: [...(decision.path as string[]).slice(0, -1), "elsewhere"] }
        : { ...decision, path: [] };
    case "tag":
      return { ...decision, tag: decision.tag === "wait" ? "complete" : "wait" };
    case "reason":
      return { ...decision, reason: decision.reason === "terminal" ? "deadline" : "terminal" };
    case "extra-key":
      return { ...decision, note: "host's own" };
    case "missing-key": {
      const { tag: _tag, ...rest } = decision;
      return rest;
    }
    case "not-an-object":
      return [decision];
    case "no-decision":
      return undefined;
    case "after-terminal":
      return { tag: "wait", seq: 0 };
    default:
      return decision;
  }
}

/** Every member name an executive line is read for, at either level. */
const MEMBER_NAMES = [
  "observation",
  "decision",
  "tag",
  "now",
  "seq",
  "outcome",
  "retryable",
  "bytes",
  "detail",
  "path",
  "effect",
  "attempt",
  "reason",
  "budget",
];

/**
 * A key one byte off a member name — one byte changed anywhere in it, or one fewer or one more —
 * which the kernel's word-at-a-time name matching must tell from the name itself.
 */
function nearMissKey(writer: JsonWriter): string {
  const c = writer.choices;
  const name = c.pick(MEMBER_NAMES);
  switch (c.below(3)) {
    case 0: {
      const at = c.below(name.length);
      const changed = String.fromCharCode(name.charCodeAt(at) ^ (1 << c.below(7)));
      return name.slice(0, at) + changed + name.slice(at + 1);
    }
    case 1:
      return name.slice(0, -1);
    default:
      return `${name}${c.pick(["e", "s", "\0", "_"])}`;
  }
}

/** An object's members, dressed: shuffled, earlier decoys, extra fields when `extras` allows. */
function dressed(writer: JsonWriter, value: unknown, extras: boolean, depth = 0): string {
  if (
    value instanceof RawJson ||
    value === null ||
    typeof value !== "object" ||
    Array.isArray(value)
  ) {
    return writer.value(value);
  }
  const c = writer.choices;
  const entries = writer.dressedEntries(
    value as Record<string, unknown>,
    extras
      ? [
          ["host", () => ({ tag: "tick", seq: 1 })],
          ["at", () => c.below(1000)],
          [nearMissKey(writer), () => c.pick<unknown>([1, "x", { tag: "tick" }])],
        ]
      : [],
    () => c.pick<unknown>(["decoy", 7, null, { tag: "start" }, [1, 2], true, new RawJson("1e400")]),
  );
  const members = entries.map(
    ([key, item]) =>
      `${writer.string(key)}${writer.gap()}:${writer.gap()}${depth < 1 ? dressed(writer, item, c.chance(10), depth + 1) : writer.value(item)}`,
  );
  return writer.list("{", members, "}");
}

/** The journal's bytes: the header, one line per recorded entry, then the tail. */
export function encodeExecutiveJournal(
  journal: ExecutiveJournalCase,
  style: EncodingStyle,
): Uint8Array {
  const writer = new JsonWriter(style);
  const c = writer.choices;
  const header = { statefold: "journal", version: 1, model: "executive", ...journal.header };
  const lines: Uint8Array[] = [utf8.encode(JSON.stringify(header))];
  for (const entry of recordedLines(referenceExecutive, journal)) {
    if (entry === "not-json") {
      lines.push(utf8.encode(c.pick(['{"observation":{"tag":"tick"', "nope", '{"decision":1,}'])));
    } else if (entry === "not-utf8") {
      lines.push(
        concatBytes(
          utf8.encode('{"observation":{"tag":"tick","now":1},"decision":"'),
          new Uint8Array(c.pick(INVALID_UTF8_SEQUENCES)),
          utf8.encode('"}'),
        ),
      );
    } else if (typeof entry === "object") {
      // An undefined decision is left out: the line has none.
      lines.push(utf8.encode(`${writer.gap()}${dressed(writer, entry, true)}${writer.gap()}`));
    }
  }
  const parts: Uint8Array[] = [];
  const end = () => utf8.encode(c.chance(style.crlf) ? "\r\n" : "\n");
  for (const [i, line] of lines.entries()) {
    if (i > 0 && c.chance(style.blankLines))
      parts.push(utf8.encode(c.pick(["", " ", "\t \t"])), end());
    parts.push(line);
    if (i < lines.length - 1 || journal.tail !== "unterminated") parts.push(end());
  }
  if (journal.tail === "torn")
    parts.push(utf8.encode(c.pick(['{"observation":{"ta', "{", '{"decision'])));
  return concatBytes(...parts);
}

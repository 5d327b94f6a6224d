/**
 * `buildJournalView`: the HTML report's view of one journal (journal-view.ts), from its report,
 * its events and the journal lines it quotes. Pure — the journal is already read and the quoted
 * lines already picked out (`linesToQuote` says which), so the command line and a browser page
 * build the same view.
 *
 * Node states come from an engine's `replay`. The state of a node just before event k is the
 * replay of the events before k *that name it*, on a DAG of that node alone, because the fold
 * changes only the node an event names and reads only that node's state (docs/models/dag.md, "Events and the fold"; the
 * integrity checks too look only at the event and its node). So one scan of the prefix finds the
 * events of every node the findings need, and each finding costs a replay of one node's events —
 * not a replay of the whole prefix, which takes 2.5 s on a 200 MB journal, nor a state of every
 * node, which is 200 k objects in a large campaign.
 */

import { type Dag, makeDag } from "../../models/dag/dag.js";
import type { Engine } from "../../models/dag/engine.js";
import { INVARIANT_NAMES, type Report } from "../../models/dag/report.js";
import { type ModelState, type NodeState, nodeState } from "../../models/dag/state.js";
import { UnparseableLine } from "../../models/journal-source.js";
import { formatCount, plural } from "../../text/format-units.js";
import {
  CONTEXT_EVENTS_BEFORE,
  QUOTED_LINE_BYTES_MAX,
  type QuotedEvent,
  type QuotedLine,
} from "../quote-lines.js";
import { dagView } from "./dag-view.js";
import {
  type BrokenRule,
  type DagJournalView,
  DEPENDENCIES_LISTED_MAX,
  type EventFinding,
  type Finding,
  type TamperFinding,
  type TornTailFinding,
} from "./journal-view.js";
import { surfaceChange, viewOfNodeState } from "./node-state-view.js";

/** A journal as read for the view: the events its report judged, and the line of each. */
export interface ReadJournal {
  readonly file: string;
  readonly report: Report;
  readonly dag: Dag;
  readonly events: readonly unknown[];
  /** `events[i]` came from the 1-based line `lines[i]`; absent for events not read from a file. */
  readonly lines?: readonly number[];
}

export type Replayer = Pick<Engine, "replay">;

/** The 1-based journal lines the view of this journal quotes, ascending. */
export function linesToQuote(report: Report, lines: readonly number[]): number[] {
  const wanted = new Set<number>();
  const quoteUpTo = (index: number) => {
    for (let i = Math.max(0, index - CONTEXT_EVENTS_BEFORE); i <= index; i++) {
      const line = lines[i];
      if (line !== undefined) wanted.add(line);
    }
  };
  for (const index of brokenRulesByIndex(report).keys()) quoteUpTo(index);
  if (report.tornTail !== null) {
    quoteUpTo(report.events - 1);
    wanted.add(report.tornTail.line);
  }
  return [...wanted].sort((a, b) => a - b);
}

export function buildJournalView(
  journal: ReadJournal,
  quotedLines: ReadonlyMap<number, QuotedLine>,
  engine: Replayer,
): DagJournalView {
  const { file, report, dag, events } = journal;
  if (events.length !== report.events) {
    const why = `The journal now holds ${plural(events.length, "event")}, not the ${formatCount(report.events)} audited: it changed since the audit, so only the verdicts are shown.`;
    return { file, report, context: { gathered: false, why } };
  }
  const quote = (index: number): QuotedEvent =>
    quoteEvent(index, journal.lines?.[index], events[index], quotedLines);
  const findings: Finding[] = [];
  const byIndex = brokenRulesByIndex(report);
  const naming = eventsNamingIndex(journal, byIndex);
  for (const [index, broken] of byIndex) {
    findings.push(eventFinding(journal, index, broken, quote, engine, naming));
  }
  const final = engine.replay(dag, eventsJudged(report, events));
  const tamper = tamperFinding(report, final);
  if (tamper !== null) findings.push(tamper);
  if (report.tornTail !== null) findings.push(tornTailFinding(report, quote, quotedLines));
  const beforeIntegrityError = report.integrity !== null;
  return {
    file,
    report,
    context: { gathered: true, findings, dag: dagView(final, beforeIntegrityError) },
  };
}

/** Every rule broken at each event, by ascending index: integrity, invariants, then legality. */
function brokenRulesByIndex(report: Report): Map<number, BrokenRule[]> {
  const byIndex = new Map<number, BrokenRule[]>();
  const add = (index: number, rule: BrokenRule) => {
    const rules = byIndex.get(index);
    if (rules === undefined) byIndex.set(index, [rule]);
    else rules.push(rule);
  };
  const { integrity } = report;
  if (integrity !== null) {
    add(integrity.index, {
      rule: "integrity",
      reason: integrity.reason,
      message: integrity.message,
    });
  }
  for (const name of INVARIANT_NAMES) {
    if (name === "tamperEvident") continue;
    const verdict = report.invariants[name];
    if (!verdict.holds) add(verdict.index, { rule: "invariant", name });
  }
  for (const illegal of report.legality.first)
    add(illegal.index, { rule: "illegal", reason: illegal.reason });
  return new Map([...byIndex].sort(([a], [b]) => a - b));
}

function eventFinding(
  journal: ReadJournal,
  index: number,
  broken: readonly BrokenRule[],
  quote: (index: number) => QuotedEvent,
  engine: Replayer,
  naming: EventsNaming,
): EventFinding {
  const event = journal.events[index];
  const node = stringField(event, "id");
  const stopsHere = broken.some((rule) => rule.rule === "integrity");
  const states =
    node === null ? null : nodeStatesAround(journal, index, node, stopsHere, engine, naming);
  const quoted: QuotedEvent[] = [];
  for (let i = Math.max(0, index - CONTEXT_EVENTS_BEFORE); i <= index; i++) quoted.push(quote(i));
  return {
    kind: "event",
    index,
    ...(journal.lines?.[index] === undefined ? {} : { line: journal.lines[index] }),
    eventKind: stringField(event, "kind"),
    node,
    broken,
    quoted,
    before: states === null ? null : viewOfNodeState(states.before),
    after: states?.after == null ? null : viewOfNodeState(states.after),
    surfaceChange:
      states?.after == null ? null : surfaceChange(states.before.surface, states.after.surface),
    dependencies:
      node !== null && judgesSchedule(broken)
        ? dependencyStatuses(journal.dag, index, node, engine, naming)
        : null,
  };
}

/** Whether a finding lists the node's dependencies: it broke a rule about the schedule. */
function judgesSchedule(broken: readonly BrokenRule[]): boolean {
  return broken.some(
    (rule) =>
      (rule.rule === "invariant" && rule.name === "scheduleCorrect") ||
      (rule.rule === "illegal" && rule.reason === "dependencies-not-proven"),
  );
}

/**
 * The named node's state before and after event `index` (see the file comment for why replaying
 * the node's own events is exact); null when the DAG has no such node.
 */
function nodeStatesAround(
  { dag, events }: ReadJournal,
  index: number,
  node: string,
  stopsHere: boolean,
  engine: Replayer,
  naming: EventsNaming,
): { before: NodeState; after: NodeState | null } | null {
  if (!dag.positionById.has(node)) return null;
  const own = naming(node, index);
  const before = replayNode(engine, node, own);
  if (stopsHere) return { before, after: null };
  return { before, after: replayNode(engine, node, [...own, events[index]]) };
}

/** The state `own`, the events naming node `id`, fold it to (see the file comment). */
function replayNode(engine: Replayer, id: string, own: readonly unknown[]): NodeState {
  const solo = makeDag([{ id, deps: [] }]);
  if (!solo.ok) throw new Error("a DAG of one node without deps is always valid");
  return engine.replay(solo.dag, own).nodes[0] as NodeState;
}

/**
 * The events before `index` that name node `id`: all that its state just before `index` depends
 * on. Only for the ids `eventsNamingIndex` was asked about.
 */
type EventsNaming = (id: string, index: number) => unknown[];

/**
 * One scan of the events before the last finding, keeping where each node a finding replays is
 * named: a finding's own node and the dependencies it lists.
 */
function eventsNamingIndex(
  { dag, events }: ReadJournal,
  byIndex: ReadonlyMap<number, readonly BrokenRule[]>,
): EventsNaming {
  const indicesById = new Map<string, number[]>();
  let end = 0;
  for (const [index, broken] of byIndex) {
    end = Math.max(end, index);
    const node = stringField(events[index], "id");
    if (node === null) continue;
    indicesById.set(node, []);
    if (judgesSchedule(broken)) {
      for (const id of listedDependencies(dag, node)) indicesById.set(id, []);
    }
  }
  for (let i = 0; i < end; i++) {
    const id = stringField(events[i], "id");
    if (id !== null) indicesById.get(id)?.push(i);
  }
  return (id, index) => {
    const own: unknown[] = [];
    for (const i of indicesById.get(id) ?? []) {
      if (i >= index) break;
      own.push(events[i]);
    }
    return own;
  };
}

/** The dependencies of `node` a finding lists: each once, at most `DEPENDENCIES_LISTED_MAX`. */
function listedDependencies(dag: Dag, node: string): string[] {
  const deps = [...new Set(dag.nodes[dag.positionById.get(node) as number]?.deps ?? [])];
  return deps.slice(0, DEPENDENCIES_LISTED_MAX);
}

function dependencyStatuses(
  dag: Dag,
  index: number,
  node: string,
  engine: Replayer,
  naming: EventsNaming,
): EventFinding["dependencies"] {
  return listedDependencies(dag, node).map((id) => ({
    id,
    status: replayNode(engine, id, naming(id, index)).status,
  }));
}

function tamperFinding(report: Report, final: ModelState): TamperFinding | null {
  const verdict = report.invariants.tamperEvident;
  if (verdict.holds) return null;
  const nodes = verdict.nodes.map((id) => {
    const state = nodeState(final, id);
    return { id, final: state === undefined ? null : viewOfNodeState(state) };
  });
  return { kind: "tamper", nodes };
}

function tornTailFinding(
  report: Report,
  quote: (index: number) => QuotedEvent,
  quotedLines: ReadonlyMap<number, QuotedLine>,
): TornTailFinding {
  const { line, offset } = report.tornTail as NonNullable<Report["tornTail"]>;
  const quoted: QuotedEvent[] = [];
  for (let i = Math.max(0, report.events - CONTEXT_EVENTS_BEFORE); i < report.events; i++) {
    quoted.push(quote(i));
  }
  const tail: QuotedLine = quotedLines.get(line) ?? { text: "", cut: false };
  quoted.push({ index: null, line, ...tail });
  return { kind: "torn-tail", line, offset, quoted };
}

/** The events the report's verdicts judge: all of them, or those before an integrity error. */
function eventsJudged(report: Report, events: readonly unknown[]): readonly unknown[] {
  return report.integrity === null ? events : events.slice(0, report.integrity.index);
}

/** The event's line as written, or — for events not read from a file — the event as JSON. */
function quoteEvent(
  index: number,
  line: number | undefined,
  event: unknown,
  quotedLines: ReadonlyMap<number, QuotedLine>,
): QuotedEvent {
  const written = line === undefined ? undefined : quotedLines.get(line);
  if (written !== undefined) return { index, line: line as number, ...written };
  const json =
    event instanceof UnparseableLine
      ? `(${event.problem.replace("-", " ")})`
      : (JSON.stringify(event) ?? String(event));
  const quoted = quotedJson(json);
  return line === undefined ? { index, ...quoted } : { index, line, ...quoted };
}

/** JSON text quoted as a journal line is: its first `QUOTED_LINE_BYTES_MAX` bytes, whole characters. */
function quotedJson(json: string): QuotedLine {
  const bytes = new TextEncoder().encode(json);
  if (bytes.length <= QUOTED_LINE_BYTES_MAX) return { text: json, cut: false };
  const kept = bytes.subarray(0, QUOTED_LINE_BYTES_MAX);
  const text = new TextDecoder().decode(kept, { stream: true });
  return { text, cut: true, bytes: bytes.length };
}

function stringField(event: unknown, field: "id" | "kind"): string | null {
  if (typeof event !== "object" || event === null) return null;
  const value = (event as Record<string, unknown>)[field];
  return typeof value === "string" ? value : null;
}

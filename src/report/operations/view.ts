/**
 * What the HTML report shows of an audited `operations` journal: each listed finding with the
 * journal lines up to it, its op's steps just before and just after the record, and — where the
 * rule is arithmetic — the numbers behind it: the retry ladder's sum for a retry that came too
 * early or a `notBefore` that is not the ladder's, the classification's inputs and the step that
 * decided it for a misclassified response (docs/models/operations.md). Built in one pass of the
 * reference fold over the records; pure and browser-safe, like journal-view.ts, whose quoting
 * bounds it shares.
 */
import { classification } from "../../models/operations/classify.js";
import { foldRecord } from "../../models/operations/fold.js";
import { readRecord } from "../../models/operations/read-record.js";
import { isCount, type OperationsRecord, type Policy } from "../../models/operations/records.js";
import type { OperationsReport, Reason, RuleName } from "../../models/operations/report.js";
import { RULE_OF_REASON } from "../../models/operations/report.js";
import { retryWait } from "../../models/operations/retry-wait.js";
import {
  initialState,
  type Operation,
  type OperationsState,
  type StepStatus,
} from "../../models/operations/state.js";
import { CONTEXT_EVENTS_BEFORE, type QuotedEvent, type QuotedLine } from "../quote-lines.js";
import type { JournalView } from "../views.js";
import { subjectText } from "./wording.js";

export type OperationsJournalView = JournalView<OperationsReport, OperationsContext>;

export interface OperationsContext {
  readonly gathered: true;
  /** The report's listed findings, in journal order. */
  readonly findings: readonly OperationsFinding[];
}

export interface OperationsFinding {
  readonly index: number;
  readonly line?: number;
  readonly recordKind: string;
  /** Whom it names, in words: `op "run-1" effect "e-2"`. */
  readonly subject: string;
  readonly rule: RuleName;
  readonly reason: Reason;
  /** The records before it, oldest first, then the record itself. */
  readonly quoted: readonly QuotedEvent[];
  /** The op the record names, its steps just before and just after; null for a lease. */
  readonly op: string | null;
  readonly stepsBefore: readonly StepView[] | null;
  readonly stepsAfter: readonly StepView[] | null;
  readonly ladder: LadderView | null;
  readonly classification: ClassificationView | null;
}

export interface StepView {
  readonly key: string;
  readonly attempt: number;
  readonly effect: string;
  readonly status: StepStatus;
  /** Exact, as digits: it may pass 2⁵³. */
  readonly notBefore: string | null;
}

/** The retry ladder's sum: notBefore = failedAt + max(wait, hint). */
export interface LadderView {
  /** The `at` of the record that scheduled the retry (a settlement, or an absent readback). */
  readonly failedAt: number;
  readonly attempt: number;
  readonly effect: string;
  readonly policy: Policy;
  /** The ladder's jittered wait, without the hint. */
  readonly wait: number;
  /** The provider's hint that counted (0 for none). */
  readonly hint: number;
  readonly notBefore: string;
  /** What the record said instead: an intent's `at`, or a settlement's own `notBefore`. */
  readonly recorded: { readonly field: "at" | "notBefore"; readonly value: number };
}

export interface ClassificationView {
  readonly control: string;
  readonly stop: string;
  readonly errorMessage: string | null;
  readonly outputTokens: number;
  readonly toolCalls: number;
  readonly outputLimit: number;
  /** The step of the seven that decided, and its class; the class the record gave. */
  readonly step: number;
  readonly expected: string;
  readonly recorded: string;
}

/** The reasons whose findings have numbers behind them (`ladderOf`, `classificationOf`). */
export const REASONS_WITH_NUMBERS: ReadonlySet<Reason> = new Set<Reason>([
  "retry-too-early",
  "ladder-mismatch",
  "misclassified",
]);

export interface OperationsJournal {
  readonly file: string;
  readonly report: OperationsReport;
  readonly records: readonly unknown[];
  readonly lines: readonly number[];
}

/** The journal lines the findings quote: each listed one and the few before it. */
export function operationsLinesToQuote(
  report: OperationsReport,
  lines: readonly number[],
): number[] {
  const wanted = new Set<number>();
  for (const { index } of report.legality.first) {
    for (let i = Math.max(0, index - CONTEXT_EVENTS_BEFORE); i <= index; i++) {
      const line = lines[i];
      if (line !== undefined) wanted.add(line);
    }
  }
  return [...wanted].sort((a, b) => a - b);
}

export function buildOperationsView(
  journal: OperationsJournal,
  quoted: ReadonlyMap<number, QuotedLine>,
): OperationsJournalView {
  const listed = new Map(journal.report.legality.first.map((entry) => [entry.index, entry]));
  const last = Math.max(-1, ...listed.keys());
  const findings: OperationsFinding[] = [];
  const scheduled = new Map<string, Scheduled>();
  let state = initialState();
  for (let index = 0; index <= last; index++) {
    const read = readRecord(journal.records[index]);
    if (!read.ok) break;
    const record = read.record;
    const after = foldRecord(state, record).state;
    const entry = listed.get(index);
    if (entry !== undefined) {
      findings.push({
        index,
        ...(entry.line === undefined ? {} : { line: entry.line }),
        recordKind: entry.kind,
        subject: subjectText(entry),
        rule: RULE_OF_REASON[entry.reason],
        reason: entry.reason,
        quoted: quotedBefore(index, journal.lines, quoted),
        op: "op" in record ? record.op : null,
        stepsBefore: stepsOf(state, record),
        stepsAfter: stepsOf(after, record),
        ladder: ladderOf(state, record, entry.reason, scheduled),
        classification: classificationOf(state, record, entry.reason),
      });
    }
    noteScheduledRetry(state, after, record, scheduled);
    state = after;
  }
  const { file, report } = journal;
  return { file, report, context: { gathered: true, findings } };
}

/** The record that put a step into retry-wait, by op and key: what its ladder sum is made of. */
interface Scheduled {
  readonly at: number;
  readonly attempt: number;
  readonly effect: string;
  readonly hint: unknown;
}

function noteScheduledRetry(
  before: OperationsState,
  after: OperationsState,
  record: OperationsRecord,
  scheduled: Map<string, Scheduled>,
): void {
  if (record.kind !== "settled" && record.kind !== "readback") return;
  const op = after.operations.get(record.op);
  const key = op?.effects.get(record.effect)?.key;
  if (op === undefined || key === undefined) return;
  const step = op.steps.get(key);
  const was = before.operations.get(record.op)?.steps.get(key);
  if (step?.status !== "retry-wait" || was?.status === "retry-wait") return;
  const hint = record.kind === "settled" ? record.retryAfterMs : undefined;
  scheduled.set(stepKey(record.op, key), {
    at: record.at,
    attempt: step.attempt,
    effect: step.effect,
    hint,
  });
}

function ladderOf(
  state: OperationsState,
  record: OperationsRecord,
  reason: Reason,
  scheduled: ReadonlyMap<string, Scheduled>,
): LadderView | null {
  const op = "op" in record ? state.operations.get(record.op) : undefined;
  if (op === undefined) return null;
  if (reason === "retry-too-early" && record.kind === "intent") {
    const retry = scheduled.get(stepKey(record.op, record.key));
    if (retry === undefined) return null;
    return ladderSum(op.policy, retry, { field: "at", value: record.at });
  }
  if (reason === "ladder-mismatch" && record.kind === "settled" && record.notBefore !== null) {
    const effect = op.effects.get(record.effect);
    if (effect === undefined) return null;
    const retry = {
      at: record.at,
      attempt: effect.attempt,
      effect: record.effect,
      hint: record.retryAfterMs,
    };
    return ladderSum(op.policy, retry, { field: "notBefore", value: record.notBefore });
  }
  return null;
}

function ladderSum(policy: Policy, retry: Scheduled, recorded: LadderView["recorded"]): LadderView {
  const wait = retryWait(policy, retry.attempt, retry.effect, undefined);
  const total = retryWait(policy, retry.attempt, retry.effect, retry.hint);
  return {
    failedAt: retry.at,
    attempt: retry.attempt,
    effect: retry.effect,
    policy,
    wait,
    hint: isCount(retry.hint) ? retry.hint : 0,
    notBefore: (BigInt(retry.at) + BigInt(total)).toString(),
    recorded,
  };
}

function classificationOf(
  state: OperationsState,
  record: OperationsRecord,
  reason: Reason,
): ClassificationView | null {
  if (reason !== "misclassified" || record.kind !== "settled") return null;
  const op = state.operations.get(record.op);
  const effect = op?.effects.get(record.effect);
  const { response } = record;
  if (op === undefined || effect === undefined || response === null || record.class === null)
    return null;
  const decided = classification(op.control, response, effect.request, effect.outputLimit);
  return {
    control: op.control,
    stop: response.stop,
    errorMessage: response.errorMessage,
    outputTokens: response.outputTokens,
    toolCalls: response.toolCalls,
    outputLimit: effect.outputLimit,
    step: decided.step,
    expected: decided.class,
    recorded: record.class,
  };
}

function stepsOf(state: OperationsState, record: OperationsRecord): StepView[] | null {
  if (!("op" in record)) return null;
  const op: Operation | undefined = state.operations.get(record.op);
  if (op === undefined) return null;
  return [...op.steps].map(([key, step]) => ({
    key,
    attempt: step.attempt,
    effect: step.effect,
    status: step.status,
    notBefore: step.notBefore === null ? null : step.notBefore.toString(),
  }));
}

function quotedBefore(
  index: number,
  lines: readonly number[],
  quoted: ReadonlyMap<number, QuotedLine>,
): QuotedEvent[] {
  const events: QuotedEvent[] = [];
  for (let i = Math.max(0, index - CONTEXT_EVENTS_BEFORE); i <= index; i++) {
    const line = lines[i];
    const text = line === undefined ? undefined : quoted.get(line);
    if (line === undefined || text === undefined) continue;
    events.push({ index: i, line, ...text });
  }
  return events;
}

function stepKey(op: string, key: string): string {
  return JSON.stringify([op, key]);
}

/**
 * The shipped models (docs/models/temporal.md, cadence.md, stepfunctions.md) against the histories
 * their systems wrote (test/data/real-histories, its README says where each came from).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CompiledModel } from "../../../src/models/data/compiled.js";
import { auditDataBytes } from "../../../src/models/data/engine.js";
import { parseModelFile } from "../../../src/models/data/load.js";
import type { DataReport } from "../../../src/models/data/report.js";

const SHIPPED = join(import.meta.dirname, "../../../src/models/data/shipped");

function shippedModel(name: string): CompiledModel {
  const file = join(SHIPPED, `${name}.json`);
  return parseModelFile(readFileSync(file), file);
}

const temporal = shippedModel("temporal");
const cadence = shippedModel("cadence");
const stepfunctions = shippedModel("stepfunctions");

describe("the shipped model files", () => {
  it("are named as the command line names them", () => {
    expect([temporal.name, cadence.name, stepfunctions.name]).toEqual([
      "temporal",
      "cadence",
      "stepfunctions",
    ]);
  });

  it("describe every rule, the engine's own included, for a user of that system", () => {
    const undescribed = [temporal, cadence, stepfunctions].flatMap((model) =>
      model.rules
        .filter((rule) => rule.description === null)
        .map((rule) => `${model.name}: ${rule.name}`),
    );
    expect(undescribed).toEqual([]);
  });

  it("read Temporal's event types in both spellings", () => {
    for (const kind of temporal.kinds) {
      const enumName = `EVENT_TYPE_${kind.name.replace(/(?<!^)(?=[A-Z])/g, "_").toUpperCase()}`;
      expect(temporal.kindOf.get(enumName)).toBe(temporal.kindOf.get(kind.name));
    }
  });
});

const HISTORIES = join(import.meta.dirname, "../../data/real-histories");

/** The histories under a folder of test/data/real-histories, as paths from that folder, sorted. */
function historiesUnder(folder: string): string[] {
  return readdirSync(join(HISTORIES, folder), { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".json"))
    .map((path) => `${folder}/${path}`)
    .sort();
}

function audit(model: CompiledModel, history: string): DataReport {
  return auditDataBytes(model, readFileSync(join(HISTORIES, history)), { file: history });
}

/** A finding as the docs list it: the event's 0-based index, the rule, the reason. */
type Found = readonly [index: number, rule: string, reason: string];

/** The findings of every history under the folders that has any (none has more than ten). */
function findingsByHistory(model: CompiledModel, folders: readonly string[]) {
  const found: Record<string, Found[]> = {};
  for (const history of folders.flatMap(historiesUnder)) {
    const report = audit(model, history);
    expect(report.integrity).toBeNull();
    expect(report.legality.illegal).toBe(report.legality.first.length);
    if (!report.conformant)
      found[history] = report.legality.first.map((f) => [f.index, f.rule, f.reason] as const);
  }
  return found;
}

const SERVER_EXPORTS = "temporalio+temporal";
/** The refusal of a document in which none of temporal's source paths leads to an array. */
const NO_HISTORY_ARRAY =
  /migration_back_forth\.json: expected an array of records at one of: events, history\.events, the document itself; found none/;
/** The server's multi-cluster replication test input: event batches per workflow, no history. */
const REPLICATION_BATCHES = `${SERVER_EXPORTS}/tests/ndc/testevents/migration_back_forth.json`;

describe("temporal over the histories Temporal wrote", () => {
  it("finds nothing in any history the Temporal server exported itself", () => {
    const exports = historiesUnder(SERVER_EXPORTS).filter((h) => h !== REPLICATION_BATCHES);
    expect(exports).toHaveLength(177);
    const notConformant = exports.filter((history) => !audit(temporal, history).conformant);
    expect(notConformant).toEqual([]);
  });

  it("refuses the server's replication-test batches: they hold no history array", () => {
    expect(() => audit(temporal, REPLICATION_BATCHES)).toThrow(NO_HISTORY_ARRAY);
  });

  it("finds in the SDKs' fixtures exactly the divergences docs/models/temporal.md explains", () => {
    const goFixtures = "temporalio+sdk-go/test/replaytests";
    const javaResources = "temporalio+sdk-java/temporal-sdk/src/test/resources";
    const references = "workflow-task-references";
    const commands = "commands-follow-their-task";
    const completedWithoutStart = (index: number): Found => [index, references, "check-failed"];
    const commandNamingStart = (index: number): Found => [index, commands, "check-failed"];
    const taskIdBack = (index: number): Found => [index, "monotone", "not-increasing"];
    expect(
      findingsByHistory(temporal, [
        "temporalio+sdk-go",
        "temporalio+sdk-java",
        "temporalio+samples-go",
      ]),
    ).toEqual({
      // Edited by hand: events moved up from later in the run (their taskIds go back), and an
      // ActivityTaskScheduled naming a workflow task that comes after it.
      [`${goFixtures}/child-workflow-cancel-with-update.json`]: [
        [11, commands, "check-failed"],
        taskIdBack(14),
      ],
      // Edited by hand: a TimerFired from another recording placed after the cancel request, and
      // a command naming its task's WorkflowTaskStarted.
      [`${goFixtures}/replay-tests-cancel-order-timer-resolved.json`]: [
        taskIdBack(6),
        [10, commands, "check-failed"],
      ],
      // Edited by hand: the tail repeats taskIds from the start of the run.
      [`${goFixtures}/unhandled_cmd_timer_cancel.json`]: [
        taskIdBack(9),
        taskIdBack(11),
        taskIdBack(13),
      ],
      // Edited by hand: an UnknownEvent inserted with its neighbour's taskId (the unknown type
      // itself is ignored: the model ignores event types it does not name).
      [`${goFixtures}/workflow_with_bad_unknown_event.json`]: [taskIdBack(22)],
      [`${goFixtures}/workflow_with_unknown_event.json`]: [taskIdBack(22)],
      // Written by the Java SDK's test server (no event has a taskId): WorkflowTaskCompleted
      // without startedEventId, and in all but the first, commands naming the task's
      // WorkflowTaskStarted instead of its WorkflowTaskCompleted.
      [`${javaResources}/awaitTimerConditionOldBehavior.json`]: [
        completedWithoutStart(3),
        completedWithoutStart(8),
      ],
      [`${javaResources}/laRetriesAndFails_1_17.json`]: [
        completedWithoutStart(3),
        completedWithoutStart(6),
        commandNamingStart(7),
        commandNamingStart(8),
      ],
      [`${javaResources}/testGetHistoryLength.json`]: [
        completedWithoutStart(3),
        completedWithoutStart(6),
        completedWithoutStart(9),
        commandNamingStart(10),
        commandNamingStart(11),
      ],
      [`${javaResources}/testGetHistorySize.json`]: [
        completedWithoutStart(3),
        completedWithoutStart(6),
        completedWithoutStart(9),
        commandNamingStart(10),
        commandNamingStart(11),
      ],
      [`${javaResources}/testGetVersionInterleavedUpdateReplayWaitForMarkerHistory.json`]: [
        completedWithoutStart(3),
        commandNamingStart(4),
        commandNamingStart(5),
        completedWithoutStart(8),
        completedWithoutStart(11),
        commandNamingStart(13),
      ],
      [`${javaResources}/testUnknownHistoryEventClean.json`]: [
        completedWithoutStart(3),
        commandNamingStart(4),
        commandNamingStart(5),
      ],
      [`${javaResources}/testUnknownHistoryEventMayNotIgnore.json`]: [
        completedWithoutStart(3),
        commandNamingStart(4),
      ],
    });
  });
});

describe("cadence over the Cadence Go client's histories", () => {
  it("finds nothing in any of them, the server's own continue-as-new (no decision task: -23) included", () => {
    expect(historiesUnder("uber-go+cadence-client")).toHaveLength(15);
    expect(findingsByHistory(cadence, ["uber-go+cadence-client"])).toEqual({});
  });
});

describe("stepfunctions over LocalStack's recorded histories", () => {
  it("finds nothing in them but the ids LocalStack's snapshots rewrote, refused as malformed", () => {
    const histories = historiesUnder("stepfunctions");
    expect(histories).toHaveLength(361);
    const malformedAt: Record<string, number> = {};
    const notConformant: string[] = [];
    for (const history of histories) {
      const report = audit(stepfunctions, history);
      if (report.integrity !== null) malformedAt[history] = report.integrity.index;
      else if (!report.conformant) notConformant.push(history);
    }
    expect(notConformant).toEqual([]);
    // Parallel branches' events, whose order LocalStack does not reproduce: its snapshot
    // transformer wrote each one's id as [0] and sorted them.
    expect(malformedAt).toEqual({
      "stepfunctions/4a0c46c5a7fd.json": 3,
      "stepfunctions/58dd367379a5.json": 3,
      "stepfunctions/68d2978a956a.json": 5,
      "stepfunctions/83b08de1caca.json": 5,
      "stepfunctions/89b7fba5fa6c.json": 3,
      "stepfunctions/8c030a0d7f76.json": 3,
      "stepfunctions/92e7cb4232f8.json": 5,
      "stepfunctions/ba78ebdd3d66.json": 3,
      "stepfunctions/cbc0ec9b7546.json": 3,
    });
  });
});

type Event = Record<string, unknown>;

function eventAt(events: Event[], index: number): Event {
  const event = events[index];
  if (event === undefined) throw new Error(`the history has no event at index ${index}`);
  return event;
}

/** The attributes (Temporal, Cadence) or details (Step Functions) object of an event. */
function detailsOf(event: Event): Event {
  const key = Object.keys(event).find((name) => /(Attributes|Details)$/.test(name));
  if (key === undefined) throw new Error(`event ${JSON.stringify(event)} has no attributes`);
  return event[key] as Event;
}

/** An edit that changes members of the event at `index`. */
const changeEvent = (index: number, changes: Event) => (events: Event[]) => {
  Object.assign(eventAt(events, index), changes);
};

/** An edit that changes members of the attributes of the event at `index`. */
const changeDetails = (index: number, changes: Event) => (events: Event[]) => {
  Object.assign(detailsOf(eventAt(events, index)), changes);
};

/** An edit that replaces the event at `index` by one of another type, keeping its eventId and taskId. */
const replaceEvent = (index: number, eventType: string, attributes: Event) => (events: Event[]) => {
  const { eventId, taskId } = eventAt(events, index);
  events[index] = { eventId, taskId, eventType, [attributesKey(eventType)]: attributes };
};

/** `EVENT_TYPE_TIMER_FIRED` → `timerFiredEventAttributes`. */
function attributesKey(eventType: string): string {
  const words = eventType
    .replace(/^EVENT_TYPE_/, "")
    .toLowerCase()
    .split("_");
  const camel = words.map((word, at) =>
    at === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1),
  );
  return `${camel.join("")}EventAttributes`;
}

/** A vendored history with one edit made to its events, audited: its findings. */
function findingsOfEdited(
  model: CompiledModel,
  history: string,
  edit: (events: Event[]) => void,
): Found[] {
  const document = JSON.parse(readFileSync(join(HISTORIES, history), "utf8"));
  edit(Array.isArray(document) ? document : document.events);
  const bytes = new TextEncoder().encode(JSON.stringify(document));
  const report = auditDataBytes(model, bytes, { file: history });
  expect(report.integrity).toBeNull();
  return report.legality.first.map((f) => [f.index, f.rule, f.reason] as const);
}

/** A server export with a timer, activities, an update and an external signal, closed by continue-as-new. */
const DEPLOYMENT_VERSION_RUN = `${SERVER_EXPORTS}/service/worker/workerdeployment/replaytester/testdata/v2/run_1785380013/replay_worker_deployment_version_wf_run_7a256fae-9409-4ed7-85dc-1f0591837483.json`;

describe("temporal on a server export edited as histories get broken", () => {
  it.each<[string, (events: Event[]) => void, Found[]]>([
    [
      "an event appended after the run continued as new",
      (events) =>
        events.push({
          eventId: "41",
          taskId: "1049292",
          eventType: "EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED",
          workflowExecutionSignaledEventAttributes: { signalName: "late" },
        }),
      [[40, "nothing-after-close", "after-last"]],
    ],
    ["an event cut out", (events) => events.splice(35, 1), [[35, "sequence", "out-of-sequence"]]],
    [
      "a taskId going back",
      changeEvent(20, { taskId: "1049100" }),
      [[20, "monotone", "not-increasing"]],
    ],
    [
      "an activity completed twice",
      changeDetails(30, { scheduledEventId: "23" }),
      [
        [30, "activity-lifecycle", "wrong-state"],
        [30, "activity-references", "check-failed"],
      ],
    ],
    [
      "a command naming an earlier workflow task",
      changeDetails(28, { workflowTaskCompletedEventId: "20" }),
      [[28, "commands-follow-their-task", "check-failed"]],
    ],
    [
      "a signal where a started workflow task's completion was",
      replaceEvent(27, "EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED", { signalName: "s" }),
      [
        [27, "workflow-task-closes-next", "unexpected-kind"],
        [28, "commands-follow-their-task", "check-failed"],
        [31, "one-workflow-task-at-a-time", "limit"],
      ],
    ],
    [
      "a timer fired that never started",
      replaceEvent(35, "EVENT_TYPE_TIMER_FIRED", { timerId: "10", startedEventId: "9" }),
      [
        [35, "timer-lifecycle", "missing"],
        [35, "timer-references", "check-failed"],
      ],
    ],
    [
      "a second start",
      replaceEvent(35, "EVENT_TYPE_WORKFLOW_EXECUTION_STARTED", {}),
      [
        [35, "started-first", "not-first"],
        [35, "one-start", "duplicate"],
      ],
    ],
    [
      "a second close after the first",
      (events) =>
        events.push({
          eventId: "41",
          taskId: "1049292",
          eventType: "EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED",
          workflowExecutionCompletedEventAttributes: { workflowTaskCompletedEventId: "39" },
        }),
      [
        [40, "nothing-after-close", "after-last"],
        [40, "one-close", "wrong-state"],
      ],
    ],
    [
      "a cancel requested twice",
      (events) => {
        replaceEvent(16, "EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED", {})(events);
        replaceEvent(35, "EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED", {})(events);
      },
      [[35, "cancel-requested-once", "wrong-state"]],
    ],
    [
      "a completed workflow task started again",
      changeDetails(32, { scheduledEventId: "26" }),
      [
        [32, "workflow-task-lifecycle", "wrong-state"],
        [33, "workflow-task-lifecycle", "wrong-state"],
        [33, "workflow-task-references", "check-failed"],
      ],
    ],
    [
      "a signal delivered for a command that sent none",
      changeDetails(35, { initiatedEventId: "34" }),
      [[35, "external-signal-lifecycle", "missing"]],
    ],
    [
      "an update completed twice",
      replaceEvent(35, "EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED", {
        meta: { updateId: "SyncWorkerDeploymentVersion-3" },
        acceptedEventId: "21",
      }),
      [[35, "update-lifecycle", "wrong-state"]],
    ],
  ])("%s", (_edit, edit, expected) => {
    expect(findingsOfEdited(temporal, DEPLOYMENT_VERSION_RUN, edit)).toEqual(expected);
  });
});

describe("cadence on its histories edited", () => {
  const greetings = "uber-go+cadence-client/test/replaytests/greetings.json";
  const cronContinued = "uber-go+cadence-client/test/replaytests/continue_as_new.json";
  it.each<[string, string, (events: Event[]) => void, Found[]]>([
    [
      "a decision naming an earlier decision task",
      greetings,
      changeDetails(10, { decisionTaskCompletedEventId: 4 }),
      [[10, "decisions-follow-their-task", "wrong-state"]],
    ],
    [
      "a worker's decision naming no decision task (-23)",
      greetings,
      changeDetails(10, { decisionTaskCompletedEventId: -23 }),
      [[10, "decisions-follow-their-task", "wrong-state"]],
    ],
    [
      "the cron continue-as-new naming a decision task that is no completion",
      cronContinued,
      changeDetails(4, { decisionTaskCompletedEventId: 3 }),
      [[4, "decisions-follow-their-task", "missing"]],
    ],
    [
      "an activity canceled though no cancel was requested",
      greetings,
      (events) => {
        const { eventId, timestamp, taskId } = eventAt(events, 6);
        events[6] = {
          eventId,
          timestamp,
          taskId,
          eventType: "ActivityTaskCanceled",
          activityTaskCanceledEventAttributes: { scheduledEventId: 5, startedEventId: 6 },
        };
      },
      [[6, "activity-cancel", "wrong-state"]],
    ],
    [
      "a Temporal event type",
      greetings,
      changeEvent(7, { eventType: "WorkflowTaskScheduled" }),
      [
        [7, "known-kinds", "unknown-kind"],
        [8, "decision-task-lifecycle", "missing"],
        [9, "decision-task-lifecycle", "missing"],
        [9, "decision-task-references", "check-failed"],
        [9, "one-decision-task-at-a-time", "limit"],
      ],
    ],
  ])("%s", (_edit, history, edit, expected) => {
    expect(findingsOfEdited(cadence, history, edit)).toEqual(expected);
  });
});

describe("stepfunctions on a recorded history edited", () => {
  // ExecutionStarted, a Pass state, a Task state (scheduled, started, succeeded), ExecutionSucceeded.
  const passThenTask = "stepfunctions/1172f64fefef.json";
  it.each<[string, (events: Event[]) => void, Found[]]>([
    [
      "a task succeeding straight from scheduled",
      changeEvent(6, { previousEventId: 5 }),
      [[6, "task-lifecycle", "wrong-state"]],
    ],
    [
      "a state exited that was never entered",
      changeDetails(2, { name: "Elsewhere" }),
      [[2, "state-entered-exited", "missing"]],
    ],
    [
      "a state entered after the execution succeeded",
      (events) =>
        events.push({
          id: 10,
          previousEventId: 9,
          type: "PassStateEntered",
          stateEnteredEventDetails: { name: "Late" },
        }),
      [[9, "nothing-after-end", "after-last"]],
    ],
    [
      "a second end",
      (events) =>
        events.push({
          id: 10,
          previousEventId: 9,
          type: "ExecutionFailed",
          executionFailedEventDetails: {},
        }),
      [
        [9, "nothing-after-end", "after-last"],
        [9, "one-end", "wrong-state"],
      ],
    ],
    [
      "a previousEventId naming the event itself",
      changeEvent(3, { previousEventId: 4 }),
      [[3, "previous-event-before", "check-failed"]],
    ],
  ])("%s", (_edit, edit, expected) => {
    expect(findingsOfEdited(stepfunctions, passThenTask, edit)).toEqual(expected);
  });
});

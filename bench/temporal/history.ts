/**
 * Temporal-shaped workflow histories for the benchmarks: one run of a workflow that loops on
 * workflow tasks, each completed task scheduling a few activities and now and then a timer, as a
 * worker's commands do, the activities then started and completed and the timer fired before or
 * while the next workflow task is scheduled. Every reference the shipped `temporal` model checks
 * (docs/models/temporal.md) holds: eventId counts from 1, taskId increases strictly, each command
 * names the latest WorkflowTaskCompleted, each Started and closing event names its scheduling
 * event and its Started event, one workflow task at a time. The fields a real export carries
 * beside them (times, task queues, payloads, identities) are there too, so that a record is as
 * long as a server's: int64 ids are strings as the server's JSON writes them, and the two
 * spellings of event types (`ActivityTaskScheduled`, `EVENT_TYPE_ACTIVITY_TASK_SCHEDULED`) are
 * mixed. The history is conformant: the benchmarks measure the audit of a history that passes,
 * the common case.
 */
import { Random } from "../../src/generate/random.js";

export interface HistoryMix {
  /** Events in the history, the start and the close included; at least 5. */
  readonly events: number;
  readonly seed: number;
  /**
   * Only what the model reads: eventId, eventType, taskId and the references among the
   * attributes — records of ~160 bytes, near the operations journals' 127 (for
   * ./compare-operations.ts).
   */
  readonly lean?: boolean;
}

type Attributes = Readonly<Record<string, unknown>>;

/** The first taskId, of the size a server's shard hands out. */
const FIRST_TASK_ID = 34_603_008;
const FIRST_TIME_MS = Date.UTC(2026, 0, 5, 9, 0, 0);
const TASK_QUEUE = { name: "orders", kind: "TASK_QUEUE_KIND_NORMAL" };
const WORKER = "41873@worker-7f9c-orders";
const ACTIVITY_TYPES = ["ReserveInventory", "ChargePayment", "ShipOrder", "SendReceipt"];
/** What ends a history: a workflow task's three events and the run's close (markers between). */
const CLOSING_EVENTS = 4;
/** The longest round: a workflow task, three activities scheduled, started, completed, a timer. */
const LONGEST_ROUND = 3 + 3 * 3 + 2;

/** The history's events, in order, each a JSON object as a Temporal export holds it. */
export function* temporalHistory(mix: HistoryMix): Generator<Attributes> {
  if (!Number.isInteger(mix.events) || mix.events < 5)
    throw new Error(`a history of ${mix.events} events: it takes at least 5`);
  const history = new HistoryWriter(mix.seed, mix.lean ?? false);
  yield history.event("WorkflowExecutionStarted", {
    workflowType: { name: "OrderWorkflow" },
    taskQueue: TASK_QUEUE,
    input: payloads('{"orderId":"ord-20260105-000001","items":3}'),
    workflowRunTimeout: "0s",
    workflowTaskTimeout: "10s",
    originalExecutionRunId: "7d1f4c3a-9b2e-4e0f-8a61-3c5d9e2b7f10",
    identity: WORKER,
    firstExecutionRunId: "7d1f4c3a-9b2e-4e0f-8a61-3c5d9e2b7f10",
    attempt: 1,
  });
  while (mix.events - history.written > CLOSING_EVENTS + LONGEST_ROUND) yield* history.round();
  yield* history.close(mix.events - history.written - CLOSING_EVENTS);
}

/** An activity or timer scheduled by a workflow task and not yet closed. */
type Pending =
  | { readonly activity: number; readonly type: string }
  | { readonly timer: string; readonly started: number };

class HistoryWriter {
  private readonly random: Random;
  written = 0;
  private taskId = FIRST_TASK_ID;
  private timeMs = FIRST_TIME_MS;
  private timersStarted = 0;

  constructor(
    seed: number,
    private readonly lean: boolean,
  ) {
    this.random = new Random(seed);
  }

  /** A workflow task and the commands its completion writes, then their activities and timer run. */
  *round(): Generator<Attributes> {
    const completed = yield* this.workflowTask();
    const pending: Pending[] = [];
    const activities = 1 + this.random.below(3);
    for (let i = 0; i < activities; i++) {
      const type = this.random.pick(ACTIVITY_TYPES) as string;
      pending.push({ activity: this.written + 1, type });
      yield this.event("ActivityTaskScheduled", {
        activityId: String(this.written + 1),
        activityType: { name: type },
        taskQueue: TASK_QUEUE,
        input: payloads(`{"orderId":"ord-20260105-${String(this.written).padStart(6, "0")}"}`),
        scheduleToCloseTimeout: "0s",
        scheduleToStartTimeout: "0s",
        startToCloseTimeout: "30s",
        heartbeatTimeout: "0s",
        workflowTaskCompletedEventId: String(completed),
        retryPolicy: { initialInterval: "1s", backoffCoefficient: 2, maximumInterval: "100s" },
      });
    }
    if (this.random.chance(0.25)) {
      const timer = String((this.timersStarted++ % 4) + 1);
      pending.push({ timer, started: this.written + 1 });
      yield this.event("TimerStarted", {
        timerId: timer,
        startToFireTimeout: "5s",
        workflowTaskCompletedEventId: String(completed),
      });
    }
    for (const each of pending) yield* this.closePending(each);
  }

  /** The last workflow task, `markers` markers its completion writes, and the run's close. */
  *close(markers: number): Generator<Attributes> {
    const completed = yield* this.workflowTask();
    for (let i = 0; i < markers; i++) {
      yield this.event("MarkerRecorded", {
        markerName: "Version",
        details: { changeId: payloads('"order-v2"') },
        workflowTaskCompletedEventId: String(completed),
      });
    }
    yield this.event("WorkflowExecutionCompleted", {
      result: payloads('{"status":"shipped"}'),
      workflowTaskCompletedEventId: String(completed),
    });
  }

  /** Scheduled, started and completed; the completion's eventId. */
  private *workflowTask(): Generator<Attributes, number> {
    const scheduled = this.written + 1;
    yield this.event("WorkflowTaskScheduled", {
      taskQueue: TASK_QUEUE,
      startToCloseTimeout: "10s",
      attempt: 1,
    });
    const started = this.written + 1;
    yield this.event("WorkflowTaskStarted", {
      scheduledEventId: String(scheduled),
      identity: WORKER,
      requestId: requestId(this.written),
      historySizeBytes: String(this.written * 512),
    });
    yield this.event("WorkflowTaskCompleted", {
      scheduledEventId: String(scheduled),
      startedEventId: String(started),
      identity: WORKER,
      workerVersion: { buildId: "orders-2026.01.05" },
      sdkMetadata: { langUsedFlags: [3] },
    });
    return this.written;
  }

  private *closePending(pending: Pending): Generator<Attributes> {
    if ("timer" in pending) {
      yield this.event("TimerFired", {
        timerId: pending.timer,
        startedEventId: String(pending.started),
      });
      return;
    }
    const started = this.written + 1;
    yield this.event("ActivityTaskStarted", {
      scheduledEventId: String(pending.activity),
      identity: WORKER,
      requestId: requestId(this.written),
      attempt: 1,
    });
    yield this.event("ActivityTaskCompleted", {
      result: payloads(`{"activity":"${pending.type}","ok":true}`),
      scheduledEventId: String(pending.activity),
      startedEventId: String(started),
      identity: WORKER,
    });
  }

  /** The next event, its eventType in either spelling. */
  event(type: string, attributes: Attributes): Attributes {
    this.written += 1;
    this.taskId += 1 + this.random.below(8);
    this.timeMs += this.random.below(40);
    const eventType = this.random.chance(0.5) ? type : screamingType(type);
    const member = `${type[0]?.toLowerCase()}${type.slice(1)}EventAttributes`;
    if (this.lean) {
      const read = Object.entries(attributes).filter(([key]) => REFERENCES.has(key));
      const taskId = String(this.taskId);
      return {
        eventId: String(this.written),
        eventType,
        taskId,
        [member]: Object.fromEntries(read),
      };
    }
    return {
      eventId: String(this.written),
      eventTime: new Date(this.timeMs).toISOString(),
      eventType,
      taskId: String(this.taskId),
      [member]: attributes,
    };
  }
}

/** The attributes the shipped model reads, of those the history writes. */
const REFERENCES = new Set([
  "scheduledEventId",
  "startedEventId",
  "workflowTaskCompletedEventId",
  "timerId",
]);

/** `ActivityTaskScheduled` as the server's enum spells it: `EVENT_TYPE_ACTIVITY_TASK_SCHEDULED`. */
function screamingType(type: string): string {
  return `EVENT_TYPE_${type.replace(/(?<=[a-z])(?=[A-Z])/g, "_").toUpperCase()}`;
}

/** One JSON payload as the SDKs encode it: metadata and data in base64. */
function payloads(json: string) {
  return {
    payloads: [
      { metadata: { encoding: "anNvbi9wbGFpbg==" }, data: Buffer.from(json).toString("base64") },
    ],
  };
}

/** A request id of a UUID's shape, different for every event. */
function requestId(n: number): string {
  const hex = n.toString(16).padStart(12, "0");
  return `5b0e7c2a-91d4-4f3b-a6e8-${hex}`;
}

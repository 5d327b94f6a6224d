/**
 * The Redis keys of a queue (docs/scale-out.md, "Keys"). Every key of a queue — its jobs, each
 * job's state, its results and dead letters, its live journals — carries the queue's hash tag,
 * so a script that touches several of them (commit a snapshot, publish a verdict, acknowledge)
 * runs on one Redis Cluster slot. A cluster spreads the load across queues, not within one.
 */

export const DEFAULT_QUEUE = "statefold";

/** The consumer group of the bulk workers, on the jobs stream. */
export const WORKERS_GROUP = "workers";
/** The consumer group of the live watchers, on the live announcements stream. */
export const WATCHERS_GROUP = "watchers";

export interface QueueKeys {
  /** The jobs stream: one entry per journal (or directory) to audit. */
  readonly jobs: string;
  /** The verdicts, one entry per job, published as its job is acknowledged. */
  readonly results: string;
  /** Jobs delivered more than --max-deliveries times, with their last error. */
  readonly dead: string;
  /** The live announcements stream: one entry per journal being appended. */
  readonly live: string;
  /** Findings and verdicts of live journals, each published once. */
  readonly findings: string;
  /** A job's state (lease epoch, snapshot pointer and offset, last error), by its entry id. */
  job(id: string): string;
  /** A live journal's records, as its runtime appends them. */
  journal(name: string): string;
}

export function queueKeys(queue: string): QueueKeys {
  const tag = `{${queue}}`;
  return {
    jobs: `${tag}:jobs`,
    results: `${tag}:results`,
    dead: `${tag}:dead`,
    live: `${tag}:live`,
    findings: `${tag}:findings`,
    job: (id) => `${tag}:job:${id}`,
    journal: (name) => `${tag}:journal:${name}`,
  };
}

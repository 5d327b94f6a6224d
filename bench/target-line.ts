/** A line of BENCHMARKS.md's targets, and how a target reads the figures of a run. */

export interface TargetLine {
  readonly target: string;
  readonly goal: string;
  readonly before: string;
  /** null: not measured by this run (a partial run). */
  readonly after: string | null;
  readonly met: boolean | null;
}

/** The lowest and highest of the values ("431–663"), one when they show alike; null for none. */
export function rangeOf(values: readonly number[], show: (value: number) => string): string | null {
  if (values.length === 0) return null;
  const [low, high] = [show(Math.min(...values)), show(Math.max(...values))];
  return low === high ? low : `${low}–${high}`;
}

/** Whether every value holds the goal; null when none was measured. */
export function all(values: readonly number[], holds: (value: number) => boolean): boolean | null {
  return values.length === 0 ? null : values.every(holds);
}

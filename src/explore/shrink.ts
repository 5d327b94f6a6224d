/**
 * Shrinking a counterexample (docs/explore.md, "Counterexamples"): records are removed, and
 * where a record allows it replaced by a simpler one, for as long as the failure stays the
 * same one — the caller's `fails` says what "the same" is (the same rule at the same kind of
 * record, say), so a removal that would lose the failure's cause is never kept. The result is
 * 1-minimal: no single record of it can be removed or simplified without losing the failure.
 */
export async function shrink<T>(
  records: readonly T[],
  fails: (records: readonly T[]) => boolean | Promise<boolean>,
  simpler: (record: T) => readonly T[] = () => [],
): Promise<T[]> {
  let best = [...records];
  for (let changed = true; changed; ) {
    changed = false;
    // From the last record back: the failure is usually at the end, its causes before it.
    for (let i = best.length - 1; i >= 0; i--) {
      const candidates = [
        [...best.slice(0, i), ...best.slice(i + 1)],
        ...simpler(best[i] as T).map((record) => [
          ...best.slice(0, i),
          record,
          ...best.slice(i + 1),
        ]),
      ];
      for (const candidate of candidates) {
        if (await fails(candidate)) {
          best = candidate;
          changed = true;
          break;
        }
      }
    }
  }
  return best;
}

/** A failure as shrinking keeps it: the rule a journal breaks first, and the kind of its record. */
export interface FirstFailure {
  readonly rule: string;
  readonly kind: unknown;
}

/**
 * The records shrunk while `failureOf` still finds the same rule broken first at the same kind
 * of record — so a removal that makes another rule break first (the cause removed) is not kept.
 */
export function shrinkKeepingFailure<T>(
  records: readonly T[],
  failureOf: (records: readonly T[]) => FirstFailure | null,
  simpler?: (record: T) => readonly T[],
): Promise<T[]> {
  const target = failureOf(records);
  if (target === null) return Promise.resolve([...records]);
  return shrink(
    records,
    (candidate) => {
      const failure = failureOf(candidate);
      return failure !== null && failure.rule === target.rule && failure.kind === target.kind;
    },
    simpler,
  );
}

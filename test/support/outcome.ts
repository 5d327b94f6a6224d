/**
 * What a call did — returned a value or threw — as one comparable value, so a differential test
 * states "both engines do the same" as one `toEqual`, errors included: the error's class name,
 * message and own fields (a LogIntegrityError's index and fault, a JournalError's file, line and
 * detail). Plain data, so it also crosses a worker boundary.
 */

export type Outcome<T> = { readonly returned: T } | { readonly threw: ThrownError };

export interface ThrownError {
  /** The error's constructor name: `LogIntegrityError`, `JournalError`, `RuntimeError`, ... */
  readonly class: string;
  readonly message: string;
  /** Own enumerable fields (the stack excluded). */
  readonly fields: Readonly<Record<string, unknown>>;
}

export function thrownError(error: unknown): ThrownError {
  if (!(error instanceof Error)) return { class: typeof error, message: String(error), fields: {} };
  return {
    class: error.constructor.name,
    message: error.message,
    fields: JSON.parse(JSON.stringify({ ...error })) as Record<string, unknown>,
  };
}

export function outcomeOf<T>(call: () => T): Outcome<T> {
  try {
    return { returned: call() };
  } catch (error) {
    return { threw: thrownError(error) };
  }
}

export async function asyncOutcomeOf<T>(call: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { returned: await call() };
  } catch (error) {
    return { threw: thrownError(error) };
  }
}

/** A WebAssembly trap (unreachable, out-of-bounds access, ...) is never an acceptable outcome. */
export function isTrap(outcome: Outcome<unknown>): boolean {
  return "threw" in outcome && outcome.threw.class === "RuntimeError";
}

/**
 * The error of class `errorClass` that `run` throws; an error of another class is rethrown, and
 * a `run` that returns fails the test.
 */
export function errorThrownBy<E extends Error>(
  errorClass: new (...args: never[]) => E,
  run: () => unknown,
): E {
  try {
    run();
  } catch (error) {
    if (error instanceof errorClass) return error;
    throw error;
  }
  throw new Error(`expected a ${errorClass.name}`);
}

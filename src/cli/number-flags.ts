/** Flags that take a number: parsed strictly, with a usage error that says what was expected. */
import { UsageError } from "./command.js";

/** A whole number ≥ `min`, written in decimal digits (no sign, exponent or fraction). */
export function integerFlag(command: string, flag: string, value: string, min = 0): number {
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (Number.isSafeInteger(parsed) && parsed >= min) return parsed;
  const expected =
    parsed > Number.MAX_SAFE_INTEGER
      ? `at most ${Number.MAX_SAFE_INTEGER}`
      : `a whole number ≥ ${min}`;
  throw new UsageError(`${flag} must be ${expected}, found '${value}'`, command);
}

/** A probability: a decimal number from 0 to 1. */
export function probabilityFlag(command: string, flag: string, value: string): number {
  const parsed = /^(\d+(\.\d*)?|\.\d+)$/.test(value) ? Number(value) : Number.NaN;
  if (parsed >= 0 && parsed <= 1) return parsed;
  throw new UsageError(`${flag} must be a number from 0 to 1, found '${value}'`, command);
}

/**
 * Reading a caller's value as plain data (docs/models/executive.md, "Reading values"): only own
 * data properties count. An accessor is never called — it reads as a value of no type, so the
 * field it stands for is mistyped — and a value whose reading throws (a Proxy's trap, a revoked
 * Proxy) is unreadable at the place it was read. Nothing here can throw or run caller code
 * beyond the Proxy traps a caller installed, whose throws are caught.
 */

/** What a property that cannot be read as data holds: an accessor, or a read that threw. */
export const UNREADABLE: unique symbol = Symbol("unreadable");
/** What a property that is not there holds. */
export const ABSENT: unique symbol = Symbol("absent");

export type Field = unknown | typeof UNREADABLE | typeof ABSENT;

/** An object with fields: not null, not an array, not a function, not a boxed primitive. */
export function isRecord(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  try {
    if (Array.isArray(value)) return false;
  } catch {
    return false; // a revoked Proxy
  }
  return !isBoxedPrimitive(value);
}

/** An array (a Proxy of one included), when telling so does not throw. */
export function isArray(value: unknown): value is readonly unknown[] {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

const UNBOXERS: readonly ((value: object) => unknown)[] = [
  (value) => Number.prototype.valueOf.call(value),
  (value) => String.prototype.valueOf.call(value),
  (value) => Boolean.prototype.valueOf.call(value),
  (value) => Symbol.prototype.valueOf.call(value),
  (value) => BigInt.prototype.valueOf.call(value),
];

/**
 * `new Number(1)` and its kin: objects to `typeof`, but primitives in all but name. An object
 * literal (its prototype Object.prototype or null) is settled without the unboxing attempts,
 * whose throws cost microseconds each; a box given one of those prototypes has no fields, so it
 * fails as an object all the same.
 */
function isBoxedPrimitive(value: object): boolean {
  let prototype: object | null;
  try {
    prototype = Reflect.getPrototypeOf(value);
  } catch {
    return false; // a Proxy whose trap throws: its fields will not read either
  }
  if (prototype === Object.prototype || prototype === null) return false;
  for (const unbox of UNBOXERS) {
    try {
      unbox(value);
      return true;
    } catch {
      // not this kind of box
    }
  }
  return false;
}

/** The own data property `key` of `object`, ABSENT, or UNREADABLE. */
export function ownField(object: object, key: PropertyKey): Field {
  let descriptor: PropertyDescriptor | undefined;
  try {
    descriptor = Reflect.getOwnPropertyDescriptor(object, key);
  } catch {
    return UNREADABLE;
  }
  if (descriptor === undefined) return ABSENT;
  return "value" in descriptor ? descriptor.value : UNREADABLE;
}

/** The object's own keys, strings and symbols, in own-key order; UNREADABLE when listing throws. */
export function ownKeys(object: object): readonly PropertyKey[] | typeof UNREADABLE {
  try {
    return Reflect.ownKeys(object);
  } catch {
    return UNREADABLE;
  }
}

/** An array's length as its own data property says, or UNREADABLE. */
export function arrayLength(array: readonly unknown[]): number | typeof UNREADABLE {
  const length = ownField(array, "length");
  return typeof length === "number" && Number.isSafeInteger(length) && length >= 0
    ? length
    : UNREADABLE;
}

/** How a reader looks into values: the functions above, or their shortcuts for JSON data. */
export interface ValueReader {
  isRecord(value: unknown): value is object;
  isArray(value: unknown): value is readonly unknown[];
  ownField(object: object, key: string): Field;
  ownKeys(object: object): readonly PropertyKey[] | typeof UNREADABLE;
  arrayLength(array: readonly unknown[]): number | typeof UNREADABLE;
}

/** Any caller's value: nothing is taken for granted. */
export const CALLER_VALUES: ValueReader = { isRecord, isArray, ownField, ownKeys, arrayLength };

/**
 * A value JSON.parse just made, which holds only plain objects, real arrays and own data
 * properties with string keys, so a property can be read directly: the descriptor each read of
 * CALLER_VALUES allocates was half the time a 100 000-step spec took to read. `__proto__` is
 * the one key a direct read would get wrong (the prototype, not JSON.parse's own property).
 */
export const PARSED_JSON: ValueReader = {
  isRecord: (value): value is object =>
    typeof value === "object" && value !== null && !Array.isArray(value),
  isArray: Array.isArray,
  ownField: (object, key) => {
    if (key === "__proto__") return ownField(object, key);
    return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : ABSENT;
  },
  ownKeys: Object.keys,
  arrayLength: (array) => array.length,
};

/** A safe integer, -0 read as 0. */
export function isSafeInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value);
}

export function integerValue(value: number): number {
  return value === 0 ? 0 : value;
}

/** The length of `text` in WTF-8: UTF-8, a lone surrogate counting 3 bytes. */
export function wtf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low < 0xe000) {
        bytes += 4;
        i += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

// What a single-record operation answers: the record's representation as a value, the
// validator of the state it was built from, and its JSON text when that was already made.
// Explicit fields, not hidden properties on the value: a caller sees what it gets, a spread
// or a structured clone loses nothing, and a binding reads the validator and the bytes
// without knowing how they were attached.

/**
 * A single record as an operation answers it (`calendar.events.get`, `venues.update`,
 * `categories.delete`, …):
 *
 *     const { value: event, validator } = await calendar.events.get({ id });
 */
export interface Representation<T> {
  /** The representation (the wire JSON), an object of the caller's own: changing it changes nothing kept. */
  readonly value: T;
  /**
   * The state it was built from (validators.ts): changes when the record, or anything its
   * representation embeds, changes. The HTTP binding makes its ETag from it.
   */
  readonly validator: string;
  /**
   * `value`'s JSON text (UTF-8), when it was already made (an event read, kept or rendered
   * before): exactly `JSON.stringify(value)` of the value as answered, which a binding sends
   * as it is instead of serialising the value again. Absent when it was not made.
   */
  readonly bytes?: Uint8Array;
}

/** A representation of `value`, just made (no JSON text yet), with its validator. */
export function represented<T>(value: T, validator: string): Representation<T> {
  return { value, validator };
}

/**
 * A representation whose value is parsed from `bytes` when first asked for (once per answer):
 * a binding that only sends the bytes never parses them, and each answer's value is its own.
 */
export function parsedLazily<T, R extends object = object>(bytes: Uint8Array, validator: string, rest?: R): Representation<T> & { readonly bytes: Uint8Array } & R {
  let value: T | undefined;
  return {
    ...(rest as R),
    validator,
    bytes,
    get value(): T {
      if (value === undefined) value = JSON.parse(utf8.decode(bytes)) as T;
      return value;
    },
  };
}

const utf8 = new TextDecoder();

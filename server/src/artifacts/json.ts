// Reading JSON values of unknown shape (a row as JSON.parse returns it, before or without validation): the one
// set of helpers the artifact modules share. Each returns undefined for a value of another type, never throws.

/** A JSON object (not an array, not null). */
export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value if it is a string. */
export function asString(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The value if it is a finite number. */
export function asNumber(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** The value if it is a slot or counter: a non-negative safe integer. */
export function asCount(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

/** `o[key]` if it is a string. */
export function stringAt(o: JsonObject, key: string): string | undefined {
  return asString(o[key]);
}

/** `o[key]` if it is a finite number. */
export function numberAt(o: JsonObject, key: string): number | undefined {
  return asNumber(o[key]);
}

/** Whether `o[key]` is there (not undefined; null counts as there). */
export function isPresent(o: JsonObject, key: string): boolean {
  return o[key] !== undefined;
}

/** Whether `o` has `key` as its own property (serde_json's `get(key).is_some()`). */
export function hasOwn(o: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

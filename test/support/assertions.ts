// Assertions shared by the tests that also narrow the asserted value's type (instead of `!`).

import assert from 'node:assert/strict';

/** Asserts that `value` is not undefined and returns it, typed without undefined. */
export function defined<T>(value: T | undefined, what = 'value'): T {
  if (value === undefined) assert.fail(`${what} is undefined`);
  return value;
}

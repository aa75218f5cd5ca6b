// The common case of parseRow without zod: a row that is exactly well-formed (every field of the right type, no
// null for an absent option, no extra keys inside the command) is taken as it is, with no allocation. Anything
// else returns undefined and the schemas decide (and explain). So this only ever accepts what the schemas accept,
// with the same result (fastRows.test in runControlReplay.test.ts checks that on mutated rows).

import { RunControlReceipt, RunControlRequest, RunControlSnapshot } from './schemas';

const OPERATIONS = new Set(['steer', 'interrupt']);
const STATES = new Set(['accepted', 'applied', 'rejected', 'settled']);

const isU64 = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const optionalU64 = (v: unknown): boolean => v === undefined || isU64(v);
const optionalString = (v: unknown): boolean => v === undefined || typeof v === 'string';

function onlyKeys(value: object, count: number): boolean {
  let n = 0;
  for (const key in value) if (Object.hasOwn(value, key)) n++;
  return n === count;
}

/** `value` has only known top-level keys (the caller checked). */
export function fastRequest(value: Record<string, unknown>): RunControlRequest | undefined {
  if (typeof value.schema !== 'string' || typeof value.request_id !== 'string' || typeof value.run_id !== 'string') return undefined;
  if (!optionalString(value.session_id) || !optionalString(value.expected_turn_id)) return undefined;
  if (!optionalU64(value.expected_turn_revision) || !optionalU64(value.deadline_ms)) return undefined;
  const command = value.command;
  if (typeof command !== 'object' || command === null || Array.isArray(command)) return undefined;
  const c = command as Record<string, unknown>;
  if (c.kind === 'steer') {
    if (typeof c.input !== 'string' || !onlyKeys(c, 2)) return undefined;
  } else if (c.kind === 'interrupt') {
    // The wire form: reason (string or null) and force, both present.
    if (!(c.reason === null || typeof c.reason === 'string') || typeof c.force !== 'boolean' || !onlyKeys(c, 3)) return undefined;
  } else return undefined;
  return value as unknown as RunControlRequest;
}

export function fastReceipt(value: Record<string, unknown>): RunControlReceipt | undefined {
  if (typeof value.schema !== 'string' || typeof value.request_id !== 'string' || typeof value.session_id !== 'string' || typeof value.run_id !== 'string')
    return undefined;
  if (!OPERATIONS.has(value.operation as string) || !STATES.has(value.state as string)) return undefined;
  if (!isU64(value.sequence) || !isU64(value.turn_revision) || !isU64(value.accepted_at_ms) || !optionalU64(value.applied_at_ms)) return undefined;
  if (!(value.turn_id === null || typeof value.turn_id === 'string')) return undefined;
  const error = value.error;
  if (error !== undefined) {
    if (typeof error !== 'object' || error === null || Array.isArray(error)) return undefined;
    const e = error as Record<string, unknown>;
    if (typeof e.code !== 'string' || typeof e.message !== 'string' || !onlyKeys(e, 2)) return undefined;
  }
  return value as unknown as RunControlReceipt;
}

export function fastSnapshot(value: Record<string, unknown>): RunControlSnapshot | undefined {
  if (typeof value.session_id !== 'string' || typeof value.run_id !== 'string' || typeof value.active !== 'boolean') return undefined;
  if (!(value.turn_id === null || typeof value.turn_id === 'string') || typeof value.interrupt_requested !== 'boolean') return undefined;
  if (!isU64(value.turn_revision) || !isU64(value.queued_controls) || !isU64(value.last_sequence)) return undefined;
  return value as unknown as RunControlSnapshot;
}

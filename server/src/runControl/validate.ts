// Upstream's `RunControlRequest::validate()` and `RunControlError` (a3s Code `run_control.rs`): the same checks in
// the same order, the same messages (the error's Display) and the same codes (`RunControlError::code()`).

import {
  RUN_CONTROL_MAX_ID_BYTES,
  RUN_CONTROL_MAX_INPUT_BYTES,
  RUN_CONTROL_MAX_REASON_BYTES,
  RUN_CONTROL_REQUEST_SCHEMA_V1,
  RunControlRequest,
} from './schemas';

export type RunControlErrorCode =
  | 'INVALID_REQUEST'
  | 'SESSION_MISMATCH'
  | 'RUN_MISMATCH'
  | 'NO_ACTIVE_RUN'
  | 'STALE_TURN'
  | 'DEADLINE_EXCEEDED'
  | 'QUEUE_FULL'
  | 'CLOSED'
  | 'DUPLICATE_REQUEST'
  | 'HOOK_DENIED'
  | 'HOOK_RETRY';

export type RunControlError =
  | { code: 'INVALID_REQUEST'; detail: string }
  | { code: 'SESSION_MISMATCH' }
  | { code: 'RUN_MISMATCH'; run_id: string }
  | { code: 'NO_ACTIVE_RUN' }
  | { code: 'STALE_TURN'; expected_turn_id?: string; expected_revision?: number; actual_turn_id: string | null; actual_revision: number }
  | { code: 'DEADLINE_EXCEEDED' }
  | { code: 'QUEUE_FULL' }
  | { code: 'CLOSED' }
  | { code: 'DUPLICATE_REQUEST'; request_id: string }
  | { code: 'HOOK_DENIED'; reason: string }
  | { code: 'HOOK_RETRY'; reason: string; retry_after_ms: number };

/** Rust's `{:?}` of an `Option<String>` / `Option<u64>`. */
function debugOption(value: string | number | null | undefined): string {
  if (value === undefined || value === null) return 'None';
  return typeof value === 'number' ? `Some(${value})` : `Some(${debugString(value)})`;
}

/** Rust's `{:?}` of a string: quoted, with `"`, `\` and control characters escaped. */
function debugString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c === 0) out += '\\0';
    else if (c < 0x20 || c === 0x7f) out += `\\u{${c.toString(16)}}`;
    else out += ch;
  }
  return out + '"';
}

/** The error's message: upstream's `Display` (thiserror `#[error(...)]`). */
export function errorMessage(error: RunControlError): string {
  switch (error.code) {
    case 'INVALID_REQUEST':
      return `invalid run-control request: ${error.detail}`;
    case 'SESSION_MISMATCH':
      return 'run-control target session does not match the active session';
    case 'RUN_MISMATCH':
      return `run-control target run \`${error.run_id}\` is not the active run`;
    case 'NO_ACTIVE_RUN':
      return 'there is no active run to control';
    case 'STALE_TURN':
      return `stale run-control request: expected turn=${debugOption(error.expected_turn_id)}, revision=${debugOption(error.expected_revision)}; current turn=${debugOption(error.actual_turn_id)}, revision=${error.actual_revision}`;
    case 'DEADLINE_EXCEEDED':
      return 'run-control request deadline has expired';
    case 'QUEUE_FULL':
      return 'run-control inbox is full';
    case 'CLOSED':
      return 'run-control inbox is closed';
    case 'DUPLICATE_REQUEST':
      return `request id \`${error.request_id}\` was already used for a different command`;
    case 'HOOK_DENIED':
      return `run-control request was denied by a hook: ${error.reason}`;
    case 'HOOK_RETRY':
      return `run-control request must be retried after ${error.retry_after_ms} ms: ${error.reason}`;
  }
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Whether `text` has more than `max` UTF-8 bytes (a UTF-16 unit is at most 3 bytes: short strings need no count). */
function exceeds(text: string, max: number): boolean {
  return text.length * 3 > max && utf8Length(text) > max;
}

/** Rust's `str::trim()`: strips Unicode White_Space at both ends (JavaScript's trim also strips U+FEFF, Rust's does not). */
export function isBlank(text: string): boolean {
  // Most texts start with a visible ASCII character: no regex then.
  const first = text.charCodeAt(0);
  if (first > 0x20 && first < 0x7f) return false;
  return /^[\p{White_Space}]*$/u.test(text);
}

function invalid(detail: string): RunControlError {
  return { code: 'INVALID_REQUEST', detail };
}

function validateId(name: string, value: string): RunControlError | undefined {
  if (isBlank(value)) return invalid(`${name} must not be empty`);
  if (exceeds(value, RUN_CONTROL_MAX_ID_BYTES)) return invalid(`${name} exceeds ${RUN_CONTROL_MAX_ID_BYTES} bytes`);
  if (/[\0\r\n]/.test(value)) return invalid(`${name} contains a control character`);
  return undefined;
}

/** The first problem upstream's `validate()` finds, or undefined when the request is valid. */
export function validateRequest(request: RunControlRequest): RunControlError | undefined {
  if (request.schema !== RUN_CONTROL_REQUEST_SCHEMA_V1) return invalid(`unsupported schema \`${request.schema}\``);
  const idProblem =
    validateId('request_id', request.request_id) ??
    validateId('run_id', request.run_id) ??
    (request.session_id === undefined ? undefined : validateId('session_id', request.session_id)) ??
    (request.expected_turn_id === undefined ? undefined : validateId('expected_turn_id', request.expected_turn_id));
  if (idProblem) return idProblem;
  const command = request.command;
  if (command.kind === 'steer') {
    if (isBlank(command.input)) return invalid('steer input must not be empty');
    if (exceeds(command.input, RUN_CONTROL_MAX_INPUT_BYTES)) return invalid(`steer input exceeds ${RUN_CONTROL_MAX_INPUT_BYTES} bytes`);
  } else if (command.reason != null && exceeds(command.reason, RUN_CONTROL_MAX_REASON_BYTES)) {
    return invalid(`interrupt reason exceeds ${RUN_CONTROL_MAX_REASON_BYTES} bytes`);
  }
  return undefined;
}

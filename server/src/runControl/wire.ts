// The serialized form of a request, field for field as upstream's serde derives write it (declaration order,
// None fields skipped, an interrupt's `reason` written as null), and its fingerprint: `sha256:` of those bytes,
// which is how the inbox tells an idempotent retry from a reused id.

import { createHash } from 'node:crypto';
import { RunControlReceipt, RunControlRequest } from './schemas';

export function requestWire(request: RunControlRequest): Record<string, unknown> {
  const out: Record<string, unknown> = { schema: request.schema, request_id: request.request_id };
  if (request.session_id !== undefined) out.session_id = request.session_id;
  out.run_id = request.run_id;
  if (request.expected_turn_id !== undefined) out.expected_turn_id = request.expected_turn_id;
  if (request.expected_turn_revision !== undefined) out.expected_turn_revision = request.expected_turn_revision;
  const command = request.command;
  out.command =
    command.kind === 'steer' ? { kind: 'steer', input: command.input } : { kind: 'interrupt', reason: command.reason ?? null, force: command.force };
  if (request.deadline_ms !== undefined) out.deadline_ms = request.deadline_ms;
  return out;
}

/** One JSON line (no line terminator). serde_json and JSON.stringify escape strings alike for these types. */
export function requestLine(request: RunControlRequest): string {
  return JSON.stringify(requestWire(request));
}

export function requestFingerprint(request: RunControlRequest): string {
  return `sha256:${createHash('sha256').update(requestLine(request), 'utf8').digest('hex')}`;
}

export function receiptWire(receipt: RunControlReceipt): Record<string, unknown> {
  const out: Record<string, unknown> = {
    schema: receipt.schema,
    request_id: receipt.request_id,
    session_id: receipt.session_id,
    run_id: receipt.run_id,
    operation: receipt.operation,
    state: receipt.state,
    sequence: receipt.sequence,
    turn_id: receipt.turn_id,
    turn_revision: receipt.turn_revision,
    accepted_at_ms: receipt.accepted_at_ms,
  };
  if (receipt.applied_at_ms !== undefined) out.applied_at_ms = receipt.applied_at_ms;
  if (receipt.error !== undefined) out.error = receipt.error;
  return out;
}

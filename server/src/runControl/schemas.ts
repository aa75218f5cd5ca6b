// The a3s run-control wire types (a3s Code `run_control.rs`), as zod schemas. The request and the receipt reject
// unknown top-level fields (upstream's `deny_unknown_fields`); the snapshot, the command's variants and the
// payloads of events and hooks do not (upstream derives no such attribute for them).

import { z } from 'zod';

export const RUN_CONTROL_REQUEST_SCHEMA_V1 = 'a3s.code.run-control-request.v1';
export const RUN_CONTROL_RECEIPT_SCHEMA_V1 = 'a3s.code.run-control-receipt.v1';
export const RUN_CONTROL_MAX_INPUT_BYTES = 128 * 1024;
export const RUN_CONTROL_MAX_REASON_BYTES = 4 * 1024;
export const RUN_CONTROL_MAX_QUEUE = 64;
export const RUN_CONTROL_MAX_SEEN_REQUESTS = 256;
export const RUN_CONTROL_MAX_ID_BYTES = 512;
/** The code a settled receipt carries (not a RunControlError variant upstream). */
export const RUN_ENDED = 'RUN_ENDED';
export const RUN_ENDED_MESSAGE = 'run ended before the control reached a safe point';

/** Upstream's u64 fields; JavaScript numbers hold them exactly up to 2^53 - 1. */
const u64 = z.number({ error: 'must be a number' }).int('must be a whole number').nonnegative('must not be negative').max(Number.MAX_SAFE_INTEGER);
/** serde reads `null` and an absent field as None for `Option` fields. */
const optionalString = z.string().nullish();
const optionalU64 = u64.nullish();

export const RunControlOperationSchema = z.enum(['steer', 'interrupt']);
export type RunControlOperation = z.infer<typeof RunControlOperationSchema>;

export const RunControlReceiptStateSchema = z.enum(['accepted', 'applied', 'rejected', 'settled']);
export type RunControlReceiptState = z.infer<typeof RunControlReceiptStateSchema>;

export const SteerCommandSchema = z.looseObject({ kind: z.literal('steer'), input: z.string() });
export const InterruptCommandSchema = z.looseObject({
  kind: z.literal('interrupt'),
  reason: optionalString,
  force: z.boolean().default(false),
});
/** Internally tagged by `kind` (snake_case). */
export const RunControlCommandSchema = z.discriminatedUnion('kind', [SteerCommandSchema, InterruptCommandSchema], {
  error: 'command must be {"kind":"steer","input":…} or {"kind":"interrupt","reason":…,"force":…}',
});
export type RunControlCommand = { kind: 'steer'; input: string } | { kind: 'interrupt'; reason?: string | null; force: boolean };

export const RunControlRequestSchema = z.strictObject({
  schema: z.string().default(RUN_CONTROL_REQUEST_SCHEMA_V1),
  request_id: z.string(),
  session_id: optionalString,
  run_id: z.string(),
  expected_turn_id: optionalString,
  expected_turn_revision: optionalU64,
  command: RunControlCommandSchema,
  deadline_ms: optionalU64,
});

/** A request as the model takes it (parsed, defaults filled, None as undefined). */
export interface RunControlRequest {
  schema: string;
  request_id: string;
  session_id?: string;
  run_id: string;
  expected_turn_id?: string;
  expected_turn_revision?: number;
  command: RunControlCommand;
  deadline_ms?: number;
}

export const RunControlErrorInfoSchema = z.object({ code: z.string(), message: z.string() });
export type RunControlErrorInfo = z.infer<typeof RunControlErrorInfoSchema>;

export const RunControlReceiptSchema = z.strictObject({
  schema: z.string().default(RUN_CONTROL_RECEIPT_SCHEMA_V1),
  request_id: z.string(),
  session_id: z.string(),
  run_id: z.string(),
  operation: RunControlOperationSchema,
  state: RunControlReceiptStateSchema,
  sequence: u64,
  turn_id: z.string().nullable().default(null),
  turn_revision: u64,
  accepted_at_ms: u64,
  applied_at_ms: optionalU64,
  error: RunControlErrorInfoSchema.nullish(),
});

export interface RunControlReceipt {
  schema: string;
  request_id: string;
  session_id: string;
  run_id: string;
  operation: RunControlOperation;
  state: RunControlReceiptState;
  sequence: number;
  turn_id: string | null;
  turn_revision: number;
  accepted_at_ms: number;
  applied_at_ms?: number;
  error?: RunControlErrorInfo;
}

export const RunControlSnapshotSchema = z.looseObject({
  session_id: z.string(),
  run_id: z.string(),
  active: z.boolean(),
  turn_id: z.string().nullable().default(null),
  turn_revision: u64,
  queued_controls: u64,
  interrupt_requested: z.boolean(),
  last_sequence: u64,
});
export type RunControlSnapshot = Pick<
  z.infer<typeof RunControlSnapshotSchema>,
  'session_id' | 'run_id' | 'active' | 'turn_id' | 'turn_revision' | 'queued_controls' | 'interrupt_requested' | 'last_sequence'
>;

/** `AgentEvent::RunControlApplied` as a canonical v1 event (`core/src/event_protocol.rs`). */
export const RunControlAppliedEventSchema = z.looseObject({
  version: z.literal(1),
  type: z.literal('run_control_applied'),
  payload: z.looseObject({
    request_id: z.string(),
    operation: RunControlOperationSchema,
    turn_id: z.string().nullable().default(null),
    turn_revision: u64,
    input: optionalString,
    reason: optionalString,
  }),
  /** Present on persisted run events (`run_event_envelope_v1`). */
  metadata: z.looseObject({ run_id: z.string(), session_id: z.string(), sequence: u64, timestamp_ms: u64 }).nullish(),
});

export const PreRunControlPayloadSchema = z.looseObject({
  /** Empty when the request named no session. */
  session_id: z.string(),
  run_id: z.string(),
  request_id: z.string(),
  operation: RunControlOperationSchema,
  command: RunControlCommandSchema,
  expected_turn_id: optionalString,
  expected_turn_revision: optionalU64,
  deadline_ms: optionalU64,
});

/** A receipt's fields without its schema, other fields tolerated (hook payloads are not `deny_unknown_fields`). */
export const PostRunControlPayloadSchema = z.looseObject(RunControlReceiptSchema.omit({ schema: true }).shape);

/** Hook events serialize as `{"event_type": <snake_case name>, "payload": {…}}` (`core/src/hooks/events.rs`). */
export const PreRunControlEventSchema = z.looseObject({ event_type: z.literal('pre_run_control'), payload: PreRunControlPayloadSchema });
export const PostRunControlEventSchema = z.looseObject({ event_type: z.literal('post_run_control'), payload: PostRunControlPayloadSchema });

/** The top-level fields a request or a receipt may carry (anything else is an unknown field). */
export const REQUEST_FIELDS: ReadonlySet<string> = new Set(Object.keys(RunControlRequestSchema.shape));
export const RECEIPT_FIELDS: ReadonlySet<string> = new Set(Object.keys(RunControlReceiptSchema.shape));

/** A parsed request without serde's None values (absent fields stay absent). */
export function requestFromParsed(parsed: z.infer<typeof RunControlRequestSchema>): RunControlRequest {
  const command: RunControlCommand =
    parsed.command.kind === 'steer'
      ? { kind: 'steer', input: parsed.command.input }
      : { kind: 'interrupt', reason: parsed.command.reason ?? null, force: parsed.command.force };
  const request: RunControlRequest = { schema: parsed.schema, request_id: parsed.request_id, run_id: parsed.run_id, command };
  if (parsed.session_id != null) request.session_id = parsed.session_id;
  if (parsed.expected_turn_id != null) request.expected_turn_id = parsed.expected_turn_id;
  if (parsed.expected_turn_revision != null) request.expected_turn_revision = parsed.expected_turn_revision;
  if (parsed.deadline_ms != null) request.deadline_ms = parsed.deadline_ms;
  return request;
}

export function receiptFromParsed(parsed: z.infer<typeof RunControlReceiptSchema>): RunControlReceipt {
  const receipt: RunControlReceipt = {
    schema: parsed.schema,
    request_id: parsed.request_id,
    session_id: parsed.session_id,
    run_id: parsed.run_id,
    operation: parsed.operation,
    state: parsed.state,
    sequence: parsed.sequence,
    turn_id: parsed.turn_id,
    turn_revision: parsed.turn_revision,
    accepted_at_ms: parsed.accepted_at_ms,
  };
  if (parsed.applied_at_ms != null) receipt.applied_at_ms = parsed.applied_at_ms;
  if (parsed.error != null) receipt.error = parsed.error;
  return receipt;
}

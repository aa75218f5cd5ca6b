// zod schemas for the rows of the LLM transcript sidecar (spec/harn-artifacts.md §1) and of the agent event
// log (§3). The schemas are the types (`z.infer`).
//
// Rules:
// - Every object is loose: a field the spec does not name never fails a row.
// - A field is required only when the spec says it is always there (and only where a reader needs it:
//   `type`, the identity and pairing fields, the receipts' versioned fields, the event-log envelope).
//   Every other named field is optional but typed, and may be null: Rust writes `None` as null.
// - UNCONFIRMED fields accept every described form (`tool_schemas.hash` number or string, `message.content`
//   string or blocks).
// - Large nested values (schema catalogs, message arrays, snapshots) are checked shallowly with `z.custom`,
//   so validation never copies them: this keeps the per-row cost of a 100 MB transcript close to JSON.parse.

import { z } from 'zod';
import { isObject, type JsonObject } from './json';

// ---------------------------------------------------------------------------------------------------------------
// Building blocks.

/** A JSON object (not an array, not null), checked without copying it. */
const jsonObject = z.custom<JsonObject>(isObject, { error: 'must be an object' });
/** A JSON array, checked without copying it. */
const jsonArray = z.custom<unknown[]>((v) => Array.isArray(v), { error: 'must be an array' });
/** A slot or counter: a non-negative safe integer. */
const count = z.number({ error: 'must be a number' }).int('must be an integer').nonnegative('must not be negative');
/** An i64 (`emitted_at_ms`, `iterations`). */
const integer = z.number({ error: 'must be a number' }).int('must be an integer');
/** A u64 written by Rust: may exceed 2^53, so JSON.parse can return an imprecise (but still integral) number. */
const u64 = z.number({ error: 'must be a number' }).nonnegative('must not be negative');
const number = z.number({ error: 'must be a number' });
const string = z.string({ error: 'must be a string' });
const boolean = z.boolean({ error: 'must be a boolean' });
/** A process hash: a u64 number in practice; UNCONFIRMED, so a string is accepted too. */
const hash = z.union([u64, string], { error: 'must be a number or a string' });
const prefixed = (prefix: string) => string.refine((v) => v.startsWith(prefix), { error: `must start with "${prefix}"` });
/** An array of JSON objects (each checked shallowly). */
const objectArray = z.array(jsonObject, { error: 'must be an array' });
const stringArray = z.array(string, { error: 'must be an array of strings' });

// ---------------------------------------------------------------------------------------------------------------
// §1 LLM transcript rows.

/** Type names with a terminal meaning (§1 "Terminal"); `terminal: true` on any row also marks it terminal. */
export const TERMINAL_ROW_TYPES: ReadonlySet<string> = new Set(['agent_session_finalized', 'agent_session_terminal', 'run_terminal', 'terminal']);

/** `type` (required; rows without it are rejected by Harn), `timestamp` ("<unix_secs>.<ms3>"), `span_id`. */
const transcriptEnvelope = {
  type: string,
  timestamp: string.nullish(),
  span_id: u64.nullish(),
};

const row = <T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) => z.looseObject({ ...transcriptEnvelope, type: z.literal(type), ...shape });

export const SystemPromptRowSchema = row('system_prompt', {
  content: string,
  hash: hash.nullish(),
  content_hash: prefixed('blake3:').nullish(),
});

export const ContextManifestRowSchema = row('context_manifest', {
  hash: hash.nullish(),
  content_hash: string.nullish(),
  manifest: z.unknown().optional(),
});

export const ToolSchemasRowSchema = row('tool_schemas', {
  /** The exact served catalog. */
  schemas: jsonArray,
  /** A number in practice; accept a number or a string. */
  hash: hash.nullish(),
  content_hash: string.nullish(),
});

export const RoutingDecisionRowSchema = row('routing_decision', {
  call_id: string,
  iteration: count,
  policy: z.unknown().optional(),
  requested_quality: z.unknown().optional(),
  selected_provider: string.nullish(),
  selected_model: string.nullish(),
  fallback_chain: jsonArray.nullish(),
  alternatives: jsonArray.nullish(),
});

export const THINKING_MODES = ['disabled', 'enabled', 'adaptive', 'effort'] as const;

export const ThinkingConfigSchema = z.looseObject({
  mode: z.enum(THINKING_MODES, { error: `must be one of ${THINKING_MODES.join(', ')}` }),
  enabled: boolean.nullish(),
  budget_tokens: count.nullish(),
  level: z.unknown().optional(),
});

/** `request_snapshot`, only written with HARN_LLM_TRANSCRIPT_VERBOSE=1. */
export const RequestSnapshotSchema = z.looseObject({
  system: z.unknown().optional(),
  context_manifest: z.unknown().optional(),
  messages: jsonArray.nullish(),
  tool_schemas: z.unknown().optional(),
  native_tools: z.unknown().optional(),
});

export const ProviderCallRequestRowSchema = row('provider_call_request', {
  call_id: string,
  iteration: count,
  model: string.nullish(),
  provider: string.nullish(),
  call_role: string.nullish(),
  actor_chain: jsonArray.nullish(),
  max_tokens: count.nullish(),
  temperature: number.nullish(),
  thinking: ThinkingConfigSchema.nullish(),
  tool_choice: z.unknown().optional(),
  /** "native" | "text" | … */
  tool_format: string.nullish(),
  native_tool_count: count.nullish(),
  message_count: count.nullish(),
  /** harn.llm.served_context.v1 */
  served_context: jsonObject.nullish(),
  context_token_breakdown: z.unknown().optional(),
  structural_experiment: z.unknown().optional(),
  route_policy: z.unknown().optional(),
  fallback_chain: jsonArray.nullish(),
  routing_decision: z.unknown().optional(),
  request_snapshot: RequestSnapshotSchema.nullish(),
});

export const ProviderCallResponseRowSchema = row('provider_call_response', {
  call_id: string,
  iteration: count,
  provider: string.nullish(),
  model: string.nullish(),
  text: string.nullish(),
  /** Native calls; [] on the text channel. */
  tool_calls: jsonArray.nullish(),
  /** Native, else parsed from `<tool_call>` (text ids like `tc_0`). */
  parsed_tool_calls: objectArray.nullish(),
  raw_tool_calls: jsonArray.nullish(),
  loop_state: z.unknown().optional(),
  input_tokens: count.nullish(),
  output_tokens: count.nullish(),
  cost_usd: number.nullish(),
  cache_read_tokens: count.nullish(),
  cache_write_tokens: count.nullish(),
  cache_hit_ratio: number.nullish(),
  cache_savings_usd: number.nullish(),
  cache_hit: boolean.nullish(),
  thinking: z.unknown().optional(),
  thinking_summary: z.unknown().optional(),
  stop_reason: string.nullish(),
  response_ms: number.nullish(),
  provider_telemetry: z.unknown().optional(),
  structural_experiment: z.unknown().optional(),
});

export const InterpretedResponseRowSchema = row('interpreted_response', {
  call_id: string,
  iteration: count,
  tool_format: string.nullish(),
  prose: string.nullish(),
  tool_calls: jsonArray.nullish(),
  tool_parse_errors: jsonArray.nullish(),
});

/** `message.content`: a string or content blocks (UNCONFIRMED which; null tolerated for tool-call-only turns). */
export const MessageContentSchema = z.union([string, objectArray, z.null()], {
  error: 'must be a string or an array of content blocks',
});

export const MessageRowSchema = row('message', {
  session_id: string,
  /** The u64 slot in the session. */
  message_index: count,
  role: string,
  content: MessageContentSchema.optional(),
  /** The full message object: may carry tool_calls / tool_call_id / name. */
  message: jsonObject.nullish(),
});

export const TOOL_CALL_RECEIPT_VERSION = 'harn.llm_tool_call_receipt.v1';
export const TOOL_RESULT_RECEIPT_VERSION = 'harn.llm_tool_result_receipt.v1';

/** The dispatch receipt, written before dispatch in request order. */
export const ToolCallReceiptRowSchema = row('tool_call', {
  schema_version: z.literal(TOOL_CALL_RECEIPT_VERSION, { error: `must be "${TOOL_CALL_RECEIPT_VERSION}"` }),
  session_id: string,
  /** next message index − 1 */
  assistant_message_index: count,
  /** A tool-call id (a separate id space from provider call ids). */
  call_id: string,
  tool_name: string,
  arguments: jsonObject.nullish(),
});

/** The pairing receipt: binds by (session_id, message_index), wherever it sits in the file. */
export const ToolResultReceiptRowSchema = row('tool_result', {
  schema_version: z.literal(TOOL_RESULT_RECEIPT_VERSION, { error: `must be "${TOOL_RESULT_RECEIPT_VERSION}"` }),
  session_id: string,
  message_index: count,
  call_id: string,
  tool_name: string,
  ok: boolean,
  tool_format: string.nullish(),
});

/** The terminal marker. */
export const AgentSessionFinalizedRowSchema = row('agent_session_finalized', {
  session_id: string,
  final_status: string,
  stop_reason: string.nullish(),
  iterations: integer.nullish(),
  terminal: z.literal(true, { error: 'must be true' }).optional(),
});

/** Rows seen upstream but not specified: any object with their `type` passes. */
const looseRow = <T extends string>(type: T) => row(type, {});
export const ResolvedDispatchRowSchema = looseRow('resolved_dispatch');
export const TemplateRenderRowSchema = looseRow('template.render');
/** Only with HARN_LLM_TRANSCRIPT_RAW=1. */
export const ProviderRawCaptureRowSchema = looseRow('provider_raw_capture');
/** Other terminal markers named by the terminal rule (shape unspecified). */
export const AgentSessionTerminalRowSchema = looseRow('agent_session_terminal');
export const RunTerminalRowSchema = looseRow('run_terminal');
export const TerminalRowSchema = looseRow('terminal');
/**
 * A compaction recorded in the transcript: the agent event `transcript_compacted` (spec §3) copied into it, one of
 * the compaction forms that excuse a prefix break (its fields beyond `session_id` are not specified).
 */
export const TranscriptCompactedRowSchema = row('transcript_compacted', { session_id: string.nullish() });

/** Every transcript row type the spec names, by `type`. A type not listed is tolerated (`unknown_row_type`). */
export const TRANSCRIPT_ROW_SCHEMAS: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>([
  ['system_prompt', SystemPromptRowSchema],
  ['context_manifest', ContextManifestRowSchema],
  ['tool_schemas', ToolSchemasRowSchema],
  ['routing_decision', RoutingDecisionRowSchema],
  ['provider_call_request', ProviderCallRequestRowSchema],
  ['provider_call_response', ProviderCallResponseRowSchema],
  ['interpreted_response', InterpretedResponseRowSchema],
  ['message', MessageRowSchema],
  ['tool_call', ToolCallReceiptRowSchema],
  ['tool_result', ToolResultReceiptRowSchema],
  ['agent_session_finalized', AgentSessionFinalizedRowSchema],
  ['resolved_dispatch', ResolvedDispatchRowSchema],
  ['template.render', TemplateRenderRowSchema],
  ['provider_raw_capture', ProviderRawCaptureRowSchema],
  ['agent_session_terminal', AgentSessionTerminalRowSchema],
  ['run_terminal', RunTerminalRowSchema],
  ['terminal', TerminalRowSchema],
  ['transcript_compacted', TranscriptCompactedRowSchema],
]);

export type SystemPromptRow = z.infer<typeof SystemPromptRowSchema>;
export type ContextManifestRow = z.infer<typeof ContextManifestRowSchema>;
export type ToolSchemasRow = z.infer<typeof ToolSchemasRowSchema>;
export type RoutingDecisionRow = z.infer<typeof RoutingDecisionRowSchema>;
export type ThinkingConfig = z.infer<typeof ThinkingConfigSchema>;
export type RequestSnapshot = z.infer<typeof RequestSnapshotSchema>;
export type ProviderCallRequestRow = z.infer<typeof ProviderCallRequestRowSchema>;
export type ProviderCallResponseRow = z.infer<typeof ProviderCallResponseRowSchema>;
export type InterpretedResponseRow = z.infer<typeof InterpretedResponseRowSchema>;
export type MessageContent = z.infer<typeof MessageContentSchema>;
export type MessageRow = z.infer<typeof MessageRowSchema>;
export type ToolCallReceiptRow = z.infer<typeof ToolCallReceiptRowSchema>;
export type ToolResultReceiptRow = z.infer<typeof ToolResultReceiptRowSchema>;
export type AgentSessionFinalizedRow = z.infer<typeof AgentSessionFinalizedRowSchema>;
/** Any transcript row the spec names. */
export type TranscriptRow =
  | SystemPromptRow
  | ContextManifestRow
  | ToolSchemasRow
  | RoutingDecisionRow
  | ProviderCallRequestRow
  | ProviderCallResponseRow
  | InterpretedResponseRow
  | MessageRow
  | ToolCallReceiptRow
  | ToolResultReceiptRow
  | AgentSessionFinalizedRow
  | z.infer<typeof ResolvedDispatchRowSchema>
  | z.infer<typeof TemplateRenderRowSchema>
  | z.infer<typeof ProviderRawCaptureRowSchema>;

// ---------------------------------------------------------------------------------------------------------------
// §3 Agent events, as persisted in event_log.jsonl.

/** The `PersistedAgentEvent` envelope: the event is flattened beside it, so `type` is top level. */
export const eventEnvelope = {
  /** 0-based per session, no gaps. */
  index: count,
  emitted_at_ms: integer,
  frame_depth: count.nullish(),
  execution_id: string.nullish(),
  type: string,
};

/** The envelope alone: what an event of an unknown type is checked against. */
export const EventEnvelopeSchema = z.looseObject({ ...eventEnvelope, session_id: string.optional() });

const event = <T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) =>
  z.looseObject({ ...eventEnvelope, type: z.literal(type), session_id: string, ...shape });

export const TOOL_CALL_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const;
export const MUTATION_STATUSES = ['applied', 'not_applied', 'unknown'] as const;
export const TOOL_ERROR_CATEGORIES = [
  'schema_validation',
  'tool_error',
  'mcp_server_error',
  'host_bridge_error',
  'permission_denied',
  'rejected_loop',
  'parse_aborted',
  'timeout',
  'network',
  'resource_busy',
  'cancelled',
  'abandoned_at_loop_exit',
  'unknown',
] as const;
export const EXECUTOR_KINDS = ['harn_builtin', 'host_bridge', 'provider_native', 'mcp_server'] as const;

const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of ${values.join(', ')}` });

export const ToolCallEventSchema = event('tool_call', {
  tool_call_id: string,
  tool_name: string,
  /** ToolKind (values unspecified) or null. */
  kind: string.nullish(),
  status: oneOf(TOOL_CALL_STATUSES),
  raw_input: z.unknown().optional(),
  parsing: boolean.nullish(),
  audit: z.unknown().optional(),
});

export const ToolExecutorSchema = z.looseObject({ kind: oneOf(EXECUTOR_KINDS) });

export const ToolCallUpdateEventSchema = event('tool_call_update', {
  tool_call_id: string,
  tool_name: string,
  status: oneOf(TOOL_CALL_STATUSES),
  /** Always present; any JSON or null. */
  raw_output: z.unknown(),
  error: string.nullable(),
  mutation_status: oneOf(MUTATION_STATUSES),
  duration_ms: count.nullish(),
  execution_duration_ms: count.nullish(),
  error_category: oneOf(TOOL_ERROR_CATEGORIES).nullish(),
  changed_paths: stringArray.nullish(),
  data: z.unknown().optional(),
  executor: ToolExecutorSchema.nullish(),
  parsing: boolean.nullish(),
  raw_input: z.unknown().optional(),
  raw_input_partial: z.unknown().optional(),
  audit: z.unknown().optional(),
}).superRefine((e, ctx) => {
  // A ParseAborted retraction is `status:"failed", error_category:"parse_aborted", parsing:false`.
  if (e.error_category !== 'parse_aborted') return;
  if (e.status !== 'failed') {
    ctx.addIssue({ code: 'custom', path: ['status'], message: 'must be "failed" when error_category is "parse_aborted"' });
  }
  if (e.parsing === true) {
    ctx.addIssue({ code: 'custom', path: ['parsing'], message: 'must be false when error_category is "parse_aborted"' });
  }
});

/** The boundary ids registered upstream @09227830 (a workspace registry may add more). */
export const KNOWN_BOUNDARY_IDS = [
  'text_tool_parse',
  'response_content_extraction',
  'visible_text_sanitize',
  'host_event_ingest',
  'provider_admission_gate',
  'chat_turn_cap',
] as const;
export const BOUNDARY_KINDS = ['dropped', 'unrecognized', 'truncated', 'killed', 'capped'] as const;
export const BOUNDARY_OWNERS = ['policy', 'harness'] as const;
export type BoundaryKind = (typeof BOUNDARY_KINDS)[number];
export type BoundaryOwner = (typeof BOUNDARY_OWNERS)[number];

/** The owner Harn derives from a boundary kind: "policy" iff capped, else "harness". */
export function ownerForKind(kind: string): BoundaryOwner {
  return kind === 'capped' ? 'policy' : 'harness';
}

/**
 * `boundary_failure`. `boundary` is any snake_case id rather than the six known ones: harness authors add
 * boundaries to their registry, and the registry (not this schema) is the authority on which exist.
 */
export const BoundaryFailureEventSchema = event('boundary_failure', {
  boundary: string.regex(/^[a-z][a-z0-9_]*$/, 'must be a snake_case boundary id'),
  kind: oneOf(BOUNDARY_KINDS),
  owner: oneOf(BOUNDARY_OWNERS),
  detail: string,
  /** Trimmed, ≤ 240 chars. */
  excerpt: string.nullish(),
  /** Omitted if 0 (Rust default 1, `.harn` default 0). */
  dropped_count: count.nullish(),
  /** The untruncated length; omitted if 0. */
  dropped_bytes: count.nullish(),
  /** Omitted if false; true only via the Drop backstop (a harness bug). */
  unreported: boolean.nullish(),
}).superRefine((e, ctx) => {
  const expected = ownerForKind(e.kind);
  if (e.owner !== expected) {
    ctx.addIssue({
      code: 'custom',
      path: ['owner'],
      message: `must be "${expected}" for kind "${e.kind}" (Harn derives the owner from the kind: "policy" iff capped)`,
    });
  }
});

export const BudgetExhaustedEventSchema = event('budget_exhausted', {
  max_iterations: count,
  kind: string.nullish(),
  cost_usd: number.nullish(),
  wall_clock_ms: count.nullish(),
});

/** The warning dict built by stall_observation.harn. */
export const StallWarningSchema = z.looseObject({
  iteration: count.nullish(),
  tool_name: string.nullish(),
  repeat_count: count.nullish(),
  threshold: count.nullish(),
  arguments_digest: prefixed('sha256:').nullish(),
  signature_digest: string.nullish(),
  pattern: string.nullish(),
  signature: string.nullish(),
  count: count.nullish(),
  consecutive_trips: count.nullish(),
  hard_stop: boolean.nullish(),
  arguments: z.unknown().optional(),
});

export const AgentLoopStallWarningEventSchema = event('agent_loop_stall_warning', {
  warning: StallWarningSchema,
});

export const FeedbackInjectedEventSchema = event('feedback_injected', {
  iteration: count.nullish(),
  tool_name: string.nullish(),
  turn_claimed_for_repair: z.unknown().optional(),
});

/** Variants added by newer `from_host.rs`, shapes not documented (UNCONFIRMED). */
export const NEWER_HOST_EVENT_TYPES = [
  'llm_call_log',
  'llm_routing_decision',
  'llm_fallback_attempt',
  'llm_shadow_diff',
  'semantic_cache_hit',
  'semantic_cache_miss',
] as const;

/** Variants the spec names without a shape: the envelope plus `session_id` (every variant has one). */
export const NAMED_EVENT_TYPES = [
  'iteration_start',
  'iteration_end',
  'judge_decision',
  'typed_checkpoint',
  'loop_stuck',
  'loop_checkpoint',
  'transcript_compacted',
  'reminder_emitted',
  'worker_update',
  'subagent_stop',
  'hitl_requested',
  'tool_call_audit',
  'cache_hit',
  ...NEWER_HOST_EVENT_TYPES,
] as const;

/** Any `mcp_*` variant. */
export const McpEventSchema = z.looseObject({
  ...eventEnvelope,
  type: string.refine((t) => t.startsWith('mcp_'), { error: 'must start with "mcp_"' }),
  session_id: string,
});

/** Event variants by `type`; `mcp_*` types use McpEventSchema. A type not listed is tolerated (`unknown_row_type`). */
export const EVENT_ROW_SCHEMAS: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>([
  ['tool_call', ToolCallEventSchema],
  ['tool_call_update', ToolCallUpdateEventSchema],
  ['boundary_failure', BoundaryFailureEventSchema],
  ['budget_exhausted', BudgetExhaustedEventSchema],
  ['agent_loop_stall_warning', AgentLoopStallWarningEventSchema],
  ['feedback_injected', FeedbackInjectedEventSchema],
  ...NAMED_EVENT_TYPES.map((t): [string, z.ZodType] => [t, event(t, {})]),
]);

/** The schema for an event-log row of this type (`mcp_*` share one), or undefined for a type the spec does not name. */
export function eventSchemaFor(type: string): z.ZodType | undefined {
  return EVENT_ROW_SCHEMAS.get(type) ?? (type.startsWith('mcp_') ? McpEventSchema : undefined);
}

export type EventEnvelope = z.infer<typeof EventEnvelopeSchema>;
export type ToolCallEvent = z.infer<typeof ToolCallEventSchema>;
export type ToolCallUpdateEvent = z.infer<typeof ToolCallUpdateEventSchema>;
export type ToolExecutor = z.infer<typeof ToolExecutorSchema>;
export type BoundaryFailureEvent = z.infer<typeof BoundaryFailureEventSchema>;
export type BudgetExhaustedEvent = z.infer<typeof BudgetExhaustedEventSchema>;
export type StallWarning = z.infer<typeof StallWarningSchema>;
export type AgentLoopStallWarningEvent = z.infer<typeof AgentLoopStallWarningEventSchema>;
export type FeedbackInjectedEvent = z.infer<typeof FeedbackInjectedEventSchema>;
export type McpEvent = z.infer<typeof McpEventSchema>;

// The `harn.agent_training_example.v1` contract (spec/harn-artifacts.md §5; upstream
// orchestration/training_example/mod.rs). The field order of each interface is upstream's struct order, which is
// the key order serde writes and so the key order of every example this tool writes.

export const TRAINING_EXAMPLE_SCHEMA_VERSION = 'harn.agent_training_example.v1';

/** One provider-visible turn. Tool results are always `role: "tool"` with `tool_call_id`. */
export interface TrainingMessage {
  role: string;
  /** Byte-exact with what the model saw. */
  content: string;
  /** Absent when empty (upstream skips an empty list). */
  tool_calls?: TrainingToolCall[];
  tool_call_id?: string;
  name?: string;
}

export interface TrainingToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: unknown };
}

export interface TrainingUsage {
  provider_calls: number;
  input_tokens: number;
  output_tokens: number;
}

/** Identity and digest of the exact bytes the example was projected from. */
export interface TrainingSource {
  descriptor_schema_version: string;
  transcript_path: string;
  transcript_sha256: string;
  transcript_byte_len: number;
  event_count: number;
  first_event_index: number;
  last_event_index: number;
  first_event_id: string;
  last_event_id: string;
}

export interface TrainingProvenance {
  run_id: string;
  session_id: string;
  stage_id?: string;
  provider: string;
  model: string;
  route_policy?: string;
  declared_tool_format?: string;
  effective_tool_format: string;
  tool_catalog_hash: string;
  tool_catalog_content_hash?: string;
  terminal_status: string;
  usage: TrainingUsage;
  source: TrainingSource;
}

export interface AgentTrainingExample {
  schema_version: string;
  messages: TrainingMessage[];
  /** The tool catalog exactly as served. */
  tools: unknown[];
  provenance: TrainingProvenance;
}

/** Why a run could not be projected (upstream's TrainingExampleError): `event_index` is the 1-based JSONL row. */
export interface TrainingRefusal {
  kind: string;
  message: string;
  event_index?: number;
}

/** Which run to project: always by explicit identity, never by output length or a `DONE` substring. */
export interface TrainingExampleRequest {
  runRecordPath: string;
  runId?: string;
  sessionId?: string;
}

/** A pairing violation (upstream's TrainingPairingError): `message_index` is the 0-based index into `messages`. */
export interface TrainingPairingError {
  kind: PairingErrorKind;
  message: string;
  message_index: number;
}

export type PairingErrorKind =
  | 'orphaned_tool_result'
  | 'out_of_order_tool_result'
  | 'duplicate_tool_result'
  | 'unpaired_tool_call'
  | 'malformed_tool_call'
  | 'duplicate_tool_call_id'
  | 'missing_terminal_assistant';

// The strict row load of the LLM transcript (upstream's training_example/source.rs): every row parses into a
// typed event or the projection fails. It runs as the row sink of the artifacts domain's transcript scan
// (artifacts/runRecord.ts), so the file is read, hashed and parsed once; the failure it records is only reported
// once the descriptor checks have passed, as upstream loads the rows after verifying them.

import { hasOwn, isObject, type JsonObject } from '../artifacts/json';
import type { TrainingRefusal } from './example';

export const TOOL_RESULT_RECEIPT_VERSION = 'harn.llm_tool_result_receipt.v1';
export const TOOL_CALL_RECEIPT_VERSION = 'harn.llm_tool_call_receipt.v1';

/** The row types the projector reads; any other type is `other` and ignored (the sidecar gains new ones). */
export type SourceEventKind = 'system_prompt' | 'tool_schemas' | 'provider_call_request' | 'provider_call_response' | 'message' | 'tool_call' | 'tool_result';

const READ_KINDS: ReadonlySet<string> = new Set<SourceEventKind>([
  'system_prompt',
  'tool_schemas',
  'provider_call_request',
  'provider_call_response',
  'message',
  'tool_call',
  'tool_result',
]);

/** A row the projector reads: its 1-based row number, its type and its value. */
export interface SourceEvent {
  index: number;
  kind: SourceEventKind;
  value: JsonObject;
}

/**
 * Upstream's row identity: the first of `id`, `event_id`, `call_id` that is present, if it is a string, else
 * `row:N` (serde's `get(a).or_else(get(b))…`, so a present non-string id does not fall through).
 */
export function rowIdentity(value: unknown, index: number): string {
  if (isObject(value)) {
    for (const key of ['id', 'event_id', 'call_id']) {
      if (hasOwn(value, key)) {
        const id = value[key];
        return typeof id === 'string' ? id : `row:${index}`;
      }
    }
  }
  return `row:${index}`;
}

/** The fields the replay reads of each kind; only these are kept (a 50 MB run's prose is not held twice). */
const KEPT_FIELDS: Record<SourceEventKind, readonly string[]> = {
  system_prompt: ['content'],
  tool_schemas: ['schemas', 'hash', 'content_hash'],
  provider_call_request: ['tool_format', 'route_policy'],
  provider_call_response: ['call_id', 'provider', 'model', 'input_tokens', 'output_tokens', 'tool_calls', 'parsed_tool_calls', 'parsed_tool_calls_ref'],
  message: ['session_id', 'message_index', 'message'],
  tool_call: ['schema_version', 'session_id', 'assistant_message_index', 'call_id', 'tool_name', 'arguments'],
  tool_result: ['schema_version', 'session_id', 'message_index', 'call_id', 'tool_name', 'tool_format'],
};

/** The row with only the fields the replay reads, each kept only if present (presence matters, as in serde). */
function kept(kind: SourceEventKind, row: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const key of KEPT_FIELDS[kind]) if (hasOwn(row, key)) out[key] = row[key];
  // A message without `message` is read from its top-level role and content.
  if (kind === 'message' && !hasOwn(row, 'message')) {
    if (hasOwn(row, 'role')) out.role = row.role;
    if (hasOwn(row, 'content')) out.content = row.content;
  }
  return out;
}

function knownVersion(kind: SourceEventKind, version: string): boolean {
  if (kind === 'tool_result') return version === TOOL_RESULT_RECEIPT_VERSION;
  if (kind === 'tool_call') return version === TOOL_CALL_RECEIPT_VERSION;
  return false;
}

/** Collects the events of a transcript row by row, and the first row upstream's strict load refuses. */
export class StrictRowLoad {
  readonly events: SourceEvent[] = [];
  count = 0;
  firstIdentity = '';
  lastIdentity = '';
  lastIndex = 0;
  /** The first refused row: kind, row, and the message after upstream's `{label}: ` prefix. */
  private error: { kind: string; index: number; detail: string } | undefined;

  /** A parsed row (rows arrive in order; rows after the first refusal are only counted). */
  readonly add = (value: unknown, index: number): void => {
    this.count++;
    const identity = rowIdentity(value, index);
    if (this.count === 1) this.firstIdentity = identity;
    this.lastIdentity = identity;
    this.lastIndex = index;
    if (this.error) return;
    const type = isObject(value) ? value.type : undefined;
    if (!isObject(value) || typeof type !== 'string') {
      this.error = { kind: 'malformed_jsonl', index, detail: 'row has no `type` discriminator' };
      return;
    }
    if (!READ_KINDS.has(type)) return;
    const kind = type as SourceEventKind;
    const version = value.schema_version;
    if (typeof version === 'string' && !knownVersion(kind, version)) {
      this.error = { kind: 'unknown_event_version', index, detail: `\`${type}\` declares unsupported schema ${version}` };
      return;
    }
    this.events.push({ index, kind, value: kept(kind, value) });
  };

  /**
   * The strict load's refusal, if any (an empty file is refused by the descriptor scan before this). `label` is
   * the transcript path as upstream prints it.
   */
  refusal(label: string): TrainingRefusal | undefined {
    if (this.error) return { kind: this.error.kind, message: `${label}: ${this.error.detail}`, event_index: this.error.index };
    if (this.count === 0) return { kind: 'empty_transcript', message: `${label} contains no JSONL events` };
    return undefined;
  }
}

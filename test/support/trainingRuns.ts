// Runs to project into training examples: a run.json with a correct llm_jsonl descriptor (as upstream's run
// persistence writes it) and its `run-llm/llm_transcript.jsonl`, written into a temporary folder from a list of
// rows; plus a generator of well-formed conversations (native or text channel, any number of tool calls per
// turn) together with the messages a faithful projection must give.

import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { transcriptFacts } from '../../server/src/artifacts/runRecord';
import type { TrainingMessage, TrainingToolCall } from '../../server/src/training/example';

/** A row: an object (written as JSON) or a line written verbatim (to write malformed rows). */
export type Row = Record<string, unknown> | string;

export interface TrainingRunOptions {
  rows: readonly Row[];
  /** The folder to write into (default: a new temporary folder). */
  dir?: string;
  runId?: string;
  /** The run's stages (default: one stage `st-1`). */
  stages?: readonly Record<string, unknown>[];
  /** Line break between rows (default "\n"; a final one is always written). */
  eol?: string;
  /** Edits the descriptor after it was computed from the transcript (e.g. to make it lie). */
  editDescriptor?: (descriptor: Record<string, unknown>) => void;
  /** Edits the pointer (verification_status, descriptor: null…). */
  editPointer?: (pointer: Record<string, unknown>) => void;
  /** Edits the whole record last. */
  editRecord?: (record: Record<string, unknown>) => void;
}

export interface TrainingRun {
  dir: string;
  runPath: string;
  transcriptPath: string;
  transcript: string;
  record: Record<string, unknown>;
}

export function rowText(row: Row): string {
  return typeof row === 'string' ? row : JSON.stringify(row);
}

/** The transcript text of rows (each followed by `eol`). */
export function transcriptText(rows: readonly Row[], eol = '\n'): string {
  return rows.map((r) => rowText(r) + eol).join('');
}

/** The descriptor upstream's `describe_llm_transcript_sidecar` writes for these bytes. */
export function descriptorFor(runId: string, transcriptPath: string, runDir: string, bytes: Buffer): Record<string, unknown> {
  const facts = transcriptFacts(bytes);
  return {
    schema_version: 'harn.llm_transcript_artifact.v1',
    artifact_kind: 'llm_jsonl',
    run_id: runId,
    session_id: facts.session_id,
    path: transcriptPath,
    relative_path: path.relative(runDir, transcriptPath).split(path.sep).join('/'),
    // Computed here, not taken from the scanner under test.
    sha256: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
    byte_len: bytes.length,
    event_count: facts.event_count,
    first_event_type: facts.first_event_type,
    first_event_id: facts.first_event_id,
    last_event_type: facts.last_event_type,
    last_event_id: facts.last_event_id,
    complete: facts.complete,
    terminal_status: facts.terminal_status,
    effective_tool_format: facts.effective_tool_format,
    tool_schema_hash: facts.tool_schema_hash,
  };
}

/** Writes run.json and run-llm/llm_transcript.jsonl; the descriptor describes the transcript as written. */
export function writeTrainingRun(options: TrainingRunOptions): TrainingRun {
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'harn-training-'));
  const runId = options.runId ?? 'run-1';
  const runPath = path.join(dir, 'run.json');
  const transcriptPath = path.join(dir, 'run-llm', 'llm_transcript.jsonl');
  fs.mkdirSync(path.dirname(transcriptPath), { recursive: true });
  const transcript = transcriptText(options.rows, options.eol);
  const bytes = Buffer.from(transcript, 'utf8');
  fs.writeFileSync(transcriptPath, bytes);
  const descriptor = descriptorFor(runId, transcriptPath, dir, bytes);
  options.editDescriptor?.(descriptor);
  const pointer: Record<string, unknown> = {
    id: 'run:llm_transcript',
    label: 'LLM transcript sidecar',
    kind: 'llm_jsonl',
    location: 'run sidecar',
    path: transcriptPath,
    available: true,
    verification_status: descriptor.complete === true ? 'verified' : 'incomplete',
    verification_error: null,
    descriptor,
  };
  options.editPointer?.(pointer);
  const record: Record<string, unknown> = {
    _type: 'run_record',
    id: runId,
    workflow_id: 'wf-1',
    task: 'label a ticket',
    status: 'completed',
    started_at: '2026-01-01T00:00:00Z',
    stages: options.stages ?? [{ id: 'st-1', node_id: 'label', kind: 'stage', status: 'completed' }],
    observability: { schema_version: 1, transcript_pointers: [pointer] },
  };
  options.editRecord?.(record);
  fs.writeFileSync(runPath, JSON.stringify(record, null, 2) + '\n');
  return { dir, runPath, transcriptPath, transcript, record };
}

// ---------------------------------------------------------------------------------------------------------------
// Well-formed conversations.

export interface ToolUse {
  name: string;
  arguments: Record<string, unknown>;
  /** The result text the model saw. */
  result: string;
}

export interface ConversationTurn {
  /** The assistant's prose (on the text channel the `<tool_call>` blocks are appended to it). */
  text: string;
  calls: ToolUse[];
}

export interface ConversationSpec {
  channel: 'native' | 'text';
  session?: string;
  system?: string;
  user: string;
  /** Turns in order; the last one must make no calls (a run ends on an assistant turn without calls). */
  turns: ConversationTurn[];
  /** The served catalog (default: one schema per tool name used, plus `noop`). */
  tools?: unknown[];
  provider?: string;
  model?: string;
}

export interface Conversation {
  rows: Record<string, unknown>[];
  /** What a faithful projection gives: the system prompt, then every turn in the canonical shape. */
  messages: TrainingMessage[];
  tools: unknown[];
}

const ts = (n: number): string => `${1767225600 + n}.000`;

/** The rows Harn writes for a conversation, and the example's messages. */
export function conversation(spec: ConversationSpec): Conversation {
  const session = spec.session ?? 's-1';
  const system = spec.system ?? 'You are a careful agent.';
  const provider = spec.provider ?? 'ollama';
  const model = spec.model ?? 'm-small';
  const names = [...new Set(spec.turns.flatMap((t) => t.calls.map((c) => c.name)))];
  const tools = spec.tools ?? [...names, 'noop'].map((name) => ({ name, description: `the ${name} tool`, parameters: { type: 'object' } }));
  const rows: Record<string, unknown>[] = [];
  const messages: TrainingMessage[] = [{ role: 'system', content: system }];
  let clock = 0;
  let messageIndex = 0;
  let callCounter = 0;
  const row = (r: Record<string, unknown>): void => {
    rows.push({ timestamp: ts(clock++), span_id: null, ...r });
  };
  row({ type: 'system_prompt', content: system, hash: 77, content_hash: 'blake3:0001' });
  row({ type: 'tool_schemas', schemas: tools, hash: 'cat-1', content_hash: 'blake3:cat1' });
  row({ type: 'message', session_id: session, message_index: messageIndex++, role: 'user', content: spec.user, message: { role: 'user', content: spec.user } });
  messages.push({ role: 'user', content: spec.user });
  spec.turns.forEach((turn, iteration) => {
    const providerCall = `pc-${iteration}`;
    row({ type: 'provider_call_request', call_id: providerCall, iteration, provider, model, tool_format: spec.channel, route_policy: 'cheapest' });
    const ids = turn.calls.map(() => `call_${callCounter++}`);
    const calls: TrainingToolCall[] = turn.calls.map((c, i) => ({ id: ids[i] ?? '', type: 'function', function: { name: c.name, arguments: c.arguments } }));
    let content: string;
    const assistantIndex = messageIndex++;
    if (spec.channel === 'native') {
      const native = turn.calls.map((c, i) => ({ id: ids[i], type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } }));
      content = turn.text;
      row({
        type: 'provider_call_response',
        call_id: providerCall,
        iteration,
        provider,
        model,
        text: content,
        tool_calls: native,
        ...(native.length ? { parsed_tool_calls_ref: 'tool_calls' } : { parsed_tool_calls: [] }),
        input_tokens: 100 + iteration,
        output_tokens: 10 + iteration,
      });
      const body: Record<string, unknown> = { role: 'assistant', content };
      if (native.length) body.tool_calls = native;
      row({ type: 'message', session_id: session, message_index: assistantIndex, role: 'assistant', content, message: body });
    } else {
      content = turn.text + turn.calls.map((c) => `<tool_call>${JSON.stringify({ name: c.name, arguments: c.arguments })}</tool_call>`).join('');
      row({
        type: 'provider_call_response',
        call_id: providerCall,
        iteration,
        provider,
        model,
        text: content,
        tool_calls: [],
        parsed_tool_calls: turn.calls.map((c, i) => ({ id: `tc_${i}`, name: c.name, arguments: c.arguments })),
        input_tokens: 100 + iteration,
        output_tokens: 10 + iteration,
      });
      row({ type: 'message', session_id: session, message_index: assistantIndex, role: 'assistant', content, message: { role: 'assistant', content } });
    }
    messages.push(calls.length ? { role: 'assistant', content, tool_calls: calls } : { role: 'assistant', content });
    turn.calls.forEach((c, i) => {
      row({
        type: 'tool_call',
        schema_version: 'harn.llm_tool_call_receipt.v1',
        session_id: session,
        assistant_message_index: assistantIndex,
        call_id: ids[i],
        tool_name: c.name,
        arguments: c.arguments,
      });
    });
    turn.calls.forEach((c, i) => {
      const id = ids[i] ?? '';
      const index = messageIndex++;
      if (spec.channel === 'native') {
        row({
          type: 'message',
          session_id: session,
          message_index: index,
          role: 'tool',
          content: c.result,
          message: { role: 'tool', content: c.result, tool_call_id: id },
        });
      } else {
        row({ type: 'message', session_id: session, message_index: index, role: 'user', content: c.result, message: { role: 'user', content: c.result } });
      }
      row({
        type: 'tool_result',
        schema_version: 'harn.llm_tool_result_receipt.v1',
        session_id: session,
        message_index: index,
        call_id: id,
        tool_name: c.name,
        ok: true,
        tool_format: spec.channel,
      });
      messages.push({ role: 'tool', content: c.result, tool_call_id: id, name: c.name });
    });
  });
  row({ type: 'agent_session_finalized', session_id: session, final_status: 'done', stop_reason: 'natural', iterations: spec.turns.length, terminal: true });
  return { rows, messages, tools };
}

/** A small healthy text-channel run: one lookup, then the answer. */
export function simpleConversation(channel: 'native' | 'text' = 'text'): Conversation {
  return conversation({
    channel,
    user: 'Title: Charged twice',
    turns: [
      { text: '', calls: [{ name: 'lookup', arguments: { id: 'INV-7' }, result: '{"charges":2}' }] },
      { text: 'billing', calls: [] },
    ],
  });
}

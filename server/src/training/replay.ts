// The replay of a verified transcript into one training example (upstream's training_example/project.rs @63192233):
// `message` rows are the provider-visible conversation in order; `provider_call_response` carries the typed calls
// the model made (also those parsed from a text-channel response); `tool_call` receipts give the ids results answer
// under; `tool_result` receipts name the call each result answers (a text-channel result is a plain `user` echo).
// Every binding is checked against an identity the runtime recorded; one that does not check out is a refusal.
// Kinds, their order and messages are upstream's.

import { hasOwn, isObject, type JsonObject } from '../artifacts/json';
import { rustTrim, serdeNumberText } from '../artifacts/runRecord';
import type { AgentTrainingExample, TrainingExampleRequest, TrainingMessage, TrainingRefusal, TrainingToolCall } from './example';
import { TRAINING_EXAMPLE_SCHEMA_VERSION } from './example';
import { validateTrainingExamplePairing } from './pairing';
import { TOOL_CALL_RECEIPT_VERSION, TOOL_RESULT_RECEIPT_VERSION, type SourceEvent } from './source';

/** A refusal thrown inside the walk (the first one ends it, as upstream's `?`). */
export class Refused extends Error {
  constructor(readonly refusal: TrainingRefusal) {
    super(refusal.message);
  }
}

const at = (kind: string, eventIndex: number, message: string): Refused => new Refused({ kind, message, event_index: eventIndex });
const plain = (kind: string, message: string): Refused => new Refused({ kind, message });

function strField(value: JsonObject, key: string): string | undefined {
  const v = value[key];
  return typeof v === 'string' ? v : undefined;
}

/** serde's `as_u64`: a non-negative integer (JSON.parse cannot tell `1.0` from `1`; upstream would refuse `1.0`). */
function u64Field(value: JsonObject, key: string): number | undefined {
  const v = value[key];
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
}

/** serde's `get(a).or_else(get(b))`: the first key present (even when null). */
function firstPresent(value: JsonObject | undefined, keys: readonly string[]): unknown {
  if (!value) return undefined;
  for (const k of keys) if (hasOwn(value, k)) return value[k];
  return undefined;
}

/** serde_json Value equality: objects compare as maps (key order does not matter), arrays element by element. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a) && isObject(b) && !Array.isArray(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

function callsEqual(a: readonly TrainingToolCall[], b: readonly TrainingToolCall[]): boolean {
  return (
    a.length === b.length &&
    a.every((x, i) => {
      const y = b[i];
      return (
        y !== undefined && x.id === y.id && x.type === y.type && x.function.name === y.function.name && jsonEqual(x.function.arguments, y.function.arguments)
      );
    })
  );
}

/** A receipt and its message agree on one message of one session (`message_index` alone is not unique). */
interface ReceiptKey {
  session: string;
  index: number;
}
const U64_MAX = Number.MAX_VALUE; // stands for u64::MAX (an absent index): sorts after every real one
const keyText = (k: ReceiptKey): string => `${k.session}\u0000${k.index}`;
function receiptKey(event: SourceEvent, indexField = 'message_index'): ReceiptKey {
  return { session: strField(event.value, 'session_id') ?? '', index: u64Field(event.value, indexField) ?? U64_MAX };
}
/** BTreeMap order of (String, u64) keys. */
function compareKeys(a: ReceiptKey, b: ReceiptKey): number {
  if (a.session !== b.session) return Buffer.compare(Buffer.from(a.session), Buffer.from(b.session));
  return a.index - b.index;
}

interface PendingResponse {
  eventIndex: number;
  callId: string;
  nativeCalls: TrainingToolCall[];
  mergedCalls: TrainingToolCall[];
}

interface ToolResultReceipt {
  key: ReceiptKey;
  eventIndex: number;
  callId: string;
  toolName: string;
  toolFormat: string | undefined;
}

interface OpenCall {
  eventIndex: number;
  id: string;
  name: string;
}

/** A fact one example can carry only one value of: the first value is kept, a different later one refused. */
class PinnedFact {
  value: string | undefined;
  constructor(
    private readonly label: string,
    private readonly errorKind: string,
  ) {}

  set(eventIndex: number, incoming: string): void {
    if (this.value === undefined) this.value = incoming;
    else if (this.value !== incoming) {
      throw at(
        this.errorKind,
        eventIndex,
        `${this.label} changed mid-run (${this.value} -> ${incoming}); this artifact holds more than one training context, so name a single eligible run explicitly instead of projecting the whole artifact`,
      );
    }
  }

  require(kind: string): string {
    if (this.value === undefined) throw plain(kind, `run never recorded ${this.label}`);
    return this.value;
  }
}

function decodeArguments(raw: unknown, name: string, eventIndex: number): unknown {
  if (raw === undefined || raw === null) return {};
  if (typeof raw === 'string') {
    if (rustTrim(raw) === '') return {};
    try {
      return JSON.parse(raw) as unknown;
    } catch (e) {
      throw at('malformed_tool_call', eventIndex, `call to \`${name}\` has unparseable JSON arguments: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return raw;
}

/** The provider-shaped and the text-parsed call captures in one canonical shape; an unknown shape is refused. */
function normalizeToolCall(call: unknown, eventIndex: number): TrainingToolCall {
  const object = isObject(call) ? call : undefined;
  const fn = object?.function;
  const fnObject = isObject(fn) ? fn : undefined;
  const nameValue = hasOwn(fnObject ?? {}, 'name') ? fnObject?.name : object?.name;
  // serde: `function.get("name").or_else(|| call.get("name"))` — `function.name` wins when present at all.
  const name = typeof nameValue === 'string' && nameValue !== '' ? nameValue : undefined;
  if (name === undefined) throw at('malformed_tool_call', eventIndex, 'recorded tool call has no name');
  const idValue = firstPresent(object, ['id', 'call_id']);
  const id = typeof idValue === 'string' && idValue !== '' ? idValue : undefined;
  if (id === undefined) throw at('malformed_tool_call', eventIndex, `recorded call to \`${name}\` has no id, so no result can pair with it`);
  const rawArguments = fnObject && hasOwn(fnObject, 'arguments') ? fnObject.arguments : firstPresent(object, ['arguments', 'args']);
  return { id, type: 'function', function: { name, arguments: decodeArguments(rawArguments, name, eventIndex) } };
}

function toolCallsFromValues(calls: readonly unknown[], eventIndex: number): TrainingToolCall[] {
  return calls.map((c) => normalizeToolCall(c, eventIndex));
}

/** upstream's llm/response_tool_calls.rs `resolve`: the parsed-call view, undefined when the row makes no claim. */
function resolveParsedCalls(row: JsonObject): readonly unknown[] | undefined | { error: string } {
  const hasInline = hasOwn(row, 'parsed_tool_calls');
  const hasRef = hasOwn(row, 'parsed_tool_calls_ref');
  if (hasInline && hasRef) return { error: 'provider response carries both `parsed_tool_calls` and `parsed_tool_calls_ref`' };
  if (hasInline) return Array.isArray(row.parsed_tool_calls) ? (row.parsed_tool_calls as unknown[]) : { error: '`parsed_tool_calls` must be an array' };
  if (!hasRef) return undefined;
  const reference = row.parsed_tool_calls_ref;
  if (typeof reference !== 'string') return { error: '`parsed_tool_calls_ref` must be a string' };
  if (reference !== 'tool_calls') return { error: `unsupported \`parsed_tool_calls_ref\` value \`${reference}\`` };
  return Array.isArray(row.tool_calls) ? (row.tool_calls as unknown[]) : { error: '`parsed_tool_calls_ref: tool_calls` requires a `tool_calls` array' };
}

function schemaName(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  const fn = schema.function;
  const name = hasOwn(schema, 'name') ? schema.name : isObject(fn) ? fn.name : undefined;
  return typeof name === 'string' ? name : undefined;
}

/** serde's Value text of a scalar: strings as they are, null as "", others compact. */
function jsonScalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null) return '';
  if (typeof value === 'number') return serdeNumberText(String(value));
  return JSON.stringify(value);
}

const isToolResultRole = (role: string): boolean => role === 'tool' || role === 'tool_result';

/** The text the model saw: a string, or the text of a content-block list (non-text blocks add nothing). */
function messageText(body: unknown): string {
  const content = isObject(body) ? body.content : undefined;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    let text = '';
    for (const block of content as unknown[]) {
      if (typeof block === 'string') text += block;
      else if (isObject(block) && !Array.isArray(block) && typeof block.text === 'string') text += block.text;
    }
    return text;
  }
  return '';
}

/** The descriptor facts the example records (as written in the run record). */
export interface DescriptorFacts {
  schema_version: string;
  session_id: string | null;
  sha256: string;
  byte_len: number;
  terminal_status: string | null;
}

/** What the walk needs besides the events. */
export interface ReplayContext {
  request: TrainingExampleRequest;
  runId: string;
  /** The single stage's id when the run has exactly one stage. */
  stageId: string | undefined;
  descriptor: DescriptorFacts;
  /** The transcript path as upstream records it. */
  transcriptPath: string;
  eventCount: number;
  firstEventIndex: number;
  lastEventIndex: number;
  firstEventId: string;
  lastEventId: string;
}

/** The replay, one event at a time (so that a caller can yield between chunks); `finish` builds the example. */
export class Replay {
  private readonly messages: TrainingMessage[] = [];
  private catalog: { schemas: unknown[]; hash: string | undefined; contentHash: string | undefined; names: Set<string> } | undefined;
  private catalogEventIndex: number | undefined;
  private readonly system = new PinnedFact('the system prompt', 'system_prompt_changed');
  private readonly provider = new PinnedFact('the provider', 'route_changed');
  private readonly model = new PinnedFact('the model', 'route_changed');
  private readonly effectiveToolFormat = new PinnedFact('the effective tool format', 'tool_format_changed');
  private declaredToolFormat: string | undefined;
  private routePolicy: string | undefined;
  private readonly session = new PinnedFact('the session id', 'ambiguous_authority');
  private pendingResponse: PendingResponse | undefined;
  private readonly receipts: Map<string, ToolResultReceipt>;
  private readonly consumed = new Set<string>();
  private readonly dispatched: Map<string, TrainingToolCall[]>;
  private readonly openCalls: OpenCall[] = [];
  private providerCalls = 0;
  private inputTokens = 0;
  private outputTokens = 0;

  /** Indexes the receipts, then the dispatched calls (upstream's order); throws Refused. */
  constructor(
    events: readonly SourceEvent[],
    private readonly context: ReplayContext,
  ) {
    this.receipts = indexReceipts(events);
    this.dispatched = indexDispatchedCalls(events);
  }

  /** Throws Refused. */
  ingest(event: SourceEvent): void {
    switch (event.kind) {
      case 'system_prompt':
        this.system.set(event.index, strField(event.value, 'content') ?? '');
        return;
      case 'tool_schemas':
        return this.ingestToolSchemas(event);
      case 'provider_call_request':
        return this.ingestRequest(event);
      case 'provider_call_response':
        return this.ingestResponse(event);
      case 'message':
        return this.ingestMessage(event);
      case 'tool_call':
      case 'tool_result':
        return;
    }
  }

  private ingestToolSchemas(event: SourceEvent): void {
    const schemas = event.value.schemas;
    if (!Array.isArray(schemas)) throw at('malformed_tool_catalog', event.index, '`tool_schemas` has no `schemas` array');
    if (this.catalog && this.catalogEventIndex !== undefined) {
      if (!jsonEqual(this.catalog.schemas, schemas)) {
        throw at(
          'tool_catalog_changed',
          event.index,
          `the served tool catalog changed after event ${this.catalogEventIndex}; one training example cannot teach two catalogs`,
        );
      }
      return;
    }
    const names = new Set<string>();
    for (const s of schemas as unknown[]) {
      const name = schemaName(s);
      if (name !== undefined) names.add(name);
    }
    const hash = hasOwn(event.value, 'hash') ? jsonScalarText(event.value.hash) : '';
    const contentHash = strField(event.value, 'content_hash');
    this.catalog = { schemas: schemas as unknown[], hash: hash === '' ? undefined : hash, contentHash: contentHash || undefined, names };
    this.catalogEventIndex = event.index;
  }

  private ingestRequest(event: SourceEvent): void {
    const format = strField(event.value, 'tool_format');
    if (format) this.effectiveToolFormat.set(event.index, format);
    if (this.routePolicy === undefined) this.routePolicy = strField(event.value, 'route_policy') || undefined;
  }

  private ingestResponse(event: SourceEvent): void {
    const unbound = this.pendingResponse;
    if (unbound) {
      throw at(
        'unbound_provider_response',
        event.index,
        `provider call ${unbound.callId} (event ${unbound.eventIndex}) produced no assistant message before the next call`,
      );
    }
    this.provider.set(event.index, strField(event.value, 'provider') ?? '');
    this.model.set(event.index, strField(event.value, 'model') ?? '');
    this.providerCalls++;
    this.inputTokens += u64Field(event.value, 'input_tokens') ?? 0;
    this.outputTokens += u64Field(event.value, 'output_tokens') ?? 0;
    const nativeCalls = Array.isArray(event.value.tool_calls) ? toolCallsFromValues(event.value.tool_calls as unknown[], event.index) : [];
    const parsed = resolveParsedCalls(event.value);
    if (parsed !== undefined && !Array.isArray(parsed)) throw at('malformed_tool_call_projection', event.index, (parsed as { error: string }).error);
    const merged = parsed === undefined ? [] : toolCallsFromValues(parsed as readonly unknown[], event.index);
    this.pendingResponse = {
      eventIndex: event.index,
      callId: strField(event.value, 'call_id') ?? '',
      nativeCalls,
      mergedCalls: merged.length ? merged : nativeCalls,
    };
  }

  private ingestMessage(event: SourceEvent): void {
    const sessionId = strField(event.value, 'session_id');
    if (sessionId) this.session.set(event.index, sessionId);
    const body = hasOwn(event.value, 'message') ? event.value.message : { role: event.value.role ?? null, content: event.value.content ?? null };
    const roleValue = isObject(body) ? body.role : undefined;
    const role = typeof roleValue === 'string' ? roleValue : '';
    const content = messageText(body);

    // A receipt claims exactly the message the runtime injected for it, by its recorded index, never by adjacency.
    const key = keyText(receiptKey(event));
    const receipt = this.receipts.get(key);
    if (receipt) {
      if (this.consumed.has(key)) {
        throw at('unbound_tool_result_receipt', event.index, `more than one message claims the receipt for call ${receipt.callId}`);
      }
      this.consumed.add(key);
      return this.bindToolResult(event, receipt, role, content);
    }
    if (isToolResultRole(role)) {
      throw at('orphaned_tool_result', event.index, `\`${role}\` message arrived with no tool_result receipt naming its call`);
    }
    switch (role) {
      case 'assistant':
        return this.bindAssistant(event, content);
      case 'system':
      case 'user':
      case 'developer': {
        const open = this.openCalls[0];
        if (open) {
          throw at(
            'unpaired_tool_call',
            event.index,
            `call ${open.id} (${open.name}) from event ${open.eventIndex} has no tool result before this \`${role}\` turn`,
          );
        }
        this.messages.push({ role, content });
        return;
      }
      default:
        throw at('unsupported_message_role', event.index, `message role \`${role}\` has no canonical training projection`);
    }
  }

  private bindToolResult(event: SourceEvent, receipt: ToolResultReceipt, role: string, content: string): void {
    const native = firstPresent(isObject(event.value.message) ? event.value.message : undefined, ['tool_call_id', 'tool_use_id']);
    if (typeof native === 'string' && native !== '' && native !== receipt.callId) {
      throw at('tool_result_identity_mismatch', event.index, `message names call ${native} but its receipt names ${receipt.callId}`);
    }
    if (this.declaredToolFormat === undefined) this.declaredToolFormat = receipt.toolFormat;
    const position = this.openCalls.findIndex((open) => open.id === receipt.callId);
    if (position < 0) {
      throw at(
        'orphaned_tool_result',
        event.index,
        `\`${role}\` message answers call ${receipt.callId}, which no preceding assistant turn made (or which was already answered)`,
      );
    }
    const expected = this.openCalls[0];
    if (position !== 0 && expected) {
      throw at('out_of_order_tool_result', event.index, `call ${receipt.callId} was answered before ${expected.id}, which the assistant requested first`);
    }
    const open = this.openCalls.shift();
    const name = receipt.toolName !== '' ? receipt.toolName : (open?.name ?? '');
    this.messages.push({ role: 'tool', content, tool_call_id: receipt.callId, name });
  }

  /** The turn's calls: ids from dispatch (what results answer under), names checked against the response. */
  private callsForAssistantTurn(event: SourceEvent, response: PendingResponse): TrainingToolCall[] {
    const dispatched = this.dispatched.get(keyText(receiptKey(event))) ?? [];
    const observed = response.mergedCalls;
    if (dispatched.length === 0) {
      if (observed.length === 0) return [];
      throw at(
        'unpaired_tool_call',
        event.index,
        `the provider returned ${observed.length} tool call(s) for response ${response.callId} but none were dispatched, so no result can pair with them`,
      );
    }
    const dispatchedNames = dispatched.map((c) => c.function.name);
    const observedNames = observed.map((c) => c.function.name);
    if (dispatchedNames.length !== observedNames.length || dispatchedNames.some((n, i) => n !== observedNames[i])) {
      throw at(
        'tool_call_mismatch',
        event.index,
        `dispatch recorded calls to [${dispatchedNames.join(', ')}] but provider response ${response.callId} recorded [${observedNames.join(', ')}]`,
      );
    }
    return dispatched;
  }

  private bindAssistant(event: SourceEvent, content: string): void {
    const open = this.openCalls[0];
    if (open) {
      throw at(
        'unpaired_tool_call',
        event.index,
        `call ${open.id} (${open.name}) from event ${open.eventIndex} has no tool result before the next assistant turn`,
      );
    }
    const response = this.pendingResponse;
    this.pendingResponse = undefined;
    if (!response) {
      throw at(
        'assistant_message_without_response',
        event.index,
        'assistant message has no preceding provider_call_response to source its typed tool calls from',
      );
    }
    const body = event.value.message;
    const rawCalls = isObject(body) && Array.isArray(body.tool_calls) ? (body.tool_calls as unknown[]) : [];
    const messageCalls = toolCallsFromValues(rawCalls, event.index);
    if (messageCalls.length > 0 && !callsEqual(messageCalls, response.nativeCalls)) {
      throw at(
        'tool_call_mismatch',
        event.index,
        `assistant message tool calls disagree with provider response ${response.callId} (event ${response.eventIndex})`,
      );
    }
    const calls = this.callsForAssistantTurn(event, response);
    for (const call of calls) {
      const names = this.catalog?.names;
      if (names && names.size > 0 && !names.has(call.function.name)) {
        throw at('tool_outside_catalog', event.index, `assistant called \`${call.function.name}\`, which the served tool catalog does not declare`);
      }
      this.openCalls.push({ eventIndex: event.index, id: call.id, name: call.function.name });
    }
    const seen = new Set<string>();
    for (const call of calls) {
      if (seen.has(call.id)) throw at('duplicate_tool_call_id', event.index, `assistant turn reuses tool call id ${call.id}`);
      seen.add(call.id);
    }
    this.messages.push(calls.length ? { role: 'assistant', content, tool_calls: calls } : { role: 'assistant', content });
  }

  /** The example, or throws Refused. */
  finish(): AgentTrainingExample {
    const open = this.openCalls[0];
    if (open) throw at('unpaired_tool_call', open.eventIndex, `run ended with call ${open.id} (${open.name}) unanswered`);
    const unclaimed = [...this.receipts.entries()].filter(([k]) => !this.consumed.has(k)).sort(([, a], [, b]) => compareKeys(a.key, b.key))[0];
    if (unclaimed) {
      const [, receipt] = unclaimed;
      throw at(
        'unbound_tool_result_receipt',
        receipt.eventIndex,
        `the tool_result receipt for call ${receipt.callId} names a message that is not in the transcript`,
      );
    }
    const pending = this.pendingResponse;
    if (pending) throw at('unbound_provider_response', pending.eventIndex, `run ended with provider call ${pending.callId} that produced no assistant message`);
    if (!this.catalog) {
      throw plain(
        'missing_tool_catalog',
        'run never recorded a tool_schemas event, so the served catalog is unknown; inferring one from prompt prose or observed arguments would teach a schema the model never saw',
      );
    }
    const { context } = this;
    const sessionId = this.session.require('missing_session_id');
    const expected = context.request.sessionId;
    if (expected !== undefined && sessionId !== expected) {
      throw plain('session_id_mismatch', `transcript belongs to session ${sessionId}, not ${expected}`);
    }
    const recorded = context.descriptor.session_id;
    if (recorded && recorded !== sessionId) {
      throw plain('session_id_mismatch', `descriptor names session ${recorded} but the events belong to ${sessionId}`);
    }
    const system = this.system.require('missing_system_prompt');
    this.messages.unshift({ role: 'system', content: system });
    if (!this.messages.some((m) => m.role === 'assistant')) throw plain('empty_projection', 'run recorded no assistant turn');
    const pairing = validateTrainingExamplePairing(this.messages);
    if (pairing) throw plain(pairing.kind, pairing.message);

    const provider = this.provider.require('missing_route');
    const model = this.model.require('missing_route');
    const effective = this.effectiveToolFormat.require('missing_tool_format');
    return {
      schema_version: TRAINING_EXAMPLE_SCHEMA_VERSION,
      messages: this.messages,
      tools: this.catalog.schemas,
      provenance: {
        run_id: context.runId,
        session_id: sessionId,
        ...(context.stageId !== undefined ? { stage_id: context.stageId } : {}),
        provider,
        model,
        ...(this.routePolicy !== undefined ? { route_policy: this.routePolicy } : {}),
        ...(this.declaredToolFormat !== undefined ? { declared_tool_format: this.declaredToolFormat } : {}),
        effective_tool_format: effective,
        tool_catalog_hash: this.catalog.hash ?? '',
        ...(this.catalog.contentHash !== undefined ? { tool_catalog_content_hash: this.catalog.contentHash } : {}),
        terminal_status: context.descriptor.terminal_status ?? '',
        usage: { provider_calls: this.providerCalls, input_tokens: this.inputTokens, output_tokens: this.outputTokens },
        source: {
          descriptor_schema_version: context.descriptor.schema_version,
          transcript_path: context.transcriptPath,
          transcript_sha256: context.descriptor.sha256,
          transcript_byte_len: context.descriptor.byte_len,
          event_count: context.eventCount,
          first_event_index: context.firstEventIndex,
          last_event_index: context.lastEventIndex,
          first_event_id: context.firstEventId,
          last_event_id: context.lastEventId,
        },
      },
    };
  }
}

/** The calls dispatched for each assistant turn, by the message they were parsed from. */
function indexDispatchedCalls(events: readonly SourceEvent[]): Map<string, TrainingToolCall[]> {
  const dispatched = new Map<string, TrainingToolCall[]>();
  for (const event of events) {
    if (event.kind !== 'tool_call') continue;
    const version = strField(event.value, 'schema_version');
    if (version === undefined) throw at('unknown_event_version', event.index, '`tool_call` receipt declares no schema_version');
    if (version !== TOOL_CALL_RECEIPT_VERSION) throw at('unknown_event_version', event.index, `\`tool_call\` receipt declares unsupported schema ${version}`);
    if (u64Field(event.value, 'assistant_message_index') === undefined) {
      throw at('malformed_tool_call', event.index, '`tool_call` receipt carries no assistant_message_index');
    }
    const key = keyText(receiptKey(event, 'assistant_message_index'));
    const toolName = strField(event.value, 'tool_name') ?? '';
    const callId = strField(event.value, 'call_id') ?? '';
    if (toolName === '' || callId === '') throw at('malformed_tool_call', event.index, '`tool_call` receipt needs both call_id and tool_name');
    const call: TrainingToolCall = {
      id: callId,
      type: 'function',
      function: { name: toolName, arguments: decodeArguments(event.value.arguments, toolName, event.index) },
    };
    const list = dispatched.get(key);
    if (list) list.push(call);
    else dispatched.set(key, [call]);
  }
  return dispatched;
}

/** Every pairing receipt, indexed before the walk so that binding a result never depends on where it landed. */
function indexReceipts(events: readonly SourceEvent[]): Map<string, ToolResultReceipt> {
  const messageKeys = new Map<string, number>();
  for (const event of events) {
    if (event.kind !== 'message') continue;
    const key = keyText(receiptKey(event));
    messageKeys.set(key, (messageKeys.get(key) ?? 0) + 1);
  }
  const receipts = new Map<string, ToolResultReceipt>();
  for (const event of events) {
    if (event.kind !== 'tool_result') continue;
    const version = strField(event.value, 'schema_version');
    if (version === undefined) throw at('unknown_event_version', event.index, '`tool_result` receipt declares no schema_version');
    if (version !== TOOL_RESULT_RECEIPT_VERSION)
      throw at('unknown_event_version', event.index, `\`tool_result\` receipt declares unsupported schema ${version}`);
    const callId = strField(event.value, 'call_id') ?? '';
    if (callId === '') throw at('malformed_tool_result_receipt', event.index, '`tool_result` receipt carries no call_id');
    if (u64Field(event.value, 'message_index') === undefined)
      throw at('malformed_tool_result_receipt', event.index, '`tool_result` receipt carries no message_index');
    const key = receiptKey(event);
    const text = keyText(key);
    const count = messageKeys.get(text) ?? 0;
    if (count === 0) {
      throw at(
        'unbound_tool_result_receipt',
        event.index,
        `the receipt for call ${callId} names message ${key.index} of session \`${key.session}\`, which is not in this transcript`,
      );
    }
    if (count > 1) {
      throw at(
        'unbound_tool_result_receipt',
        event.index,
        `the receipt for call ${callId} names message ${key.index} of session \`${key.session}\`, which ${count} messages claim`,
      );
    }
    const existing = receipts.get(text);
    if (existing)
      throw at('duplicate_tool_result_receipt', event.index, `two receipts (events ${existing.eventIndex} and ${event.index}) claim the same message`);
    const toolFormat = strField(event.value, 'tool_format');
    receipts.set(text, { key, eventIndex: event.index, callId, toolName: strField(event.value, 'tool_name') ?? '', toolFormat: toolFormat || undefined });
  }
  return receipts;
}

// Hover for one row of a run artifact (spec/harn-artifacts.md §1 transcript rows, §3 agent events): a Markdown
// summary per row type, readable at a glance. Pure: the JSON.parse'd row and a few look-ups in, Markdown out.
//
// Layout of every hover: a bold title line naming the row type and its key identity, a compact bullet list of
// the facts, optional code blocks (content previews, excerpts), then a footer with the envelope (line,
// timestamp as ISO UTC, span / event index). Fields the spec marks UNCONFIRMED say so.
//
// Safety: everything taken from the row (and the registry's prose) is untrusted, and reaches Markdown only through
// text/markdown.ts. Row values are rendered only inside code spans or fenced code blocks whose fences are longer
// than any backtick run in the value, with line breaks replaced in spans, so a transcript cannot inject links,
// HTML, headings or list items. Registry prose is backslash-escaped (escapeText). The only links are the partner
// rows', made by link() to the `file:` URI the caller gives. Previews are bounded (~200 characters, with the full length shown), and JSON is
// serialised with a budget, so a 10 MB row hovers as fast as a small one.

import { code, codeBlock, escapeText, link } from '../text/markdown';
import { cutUtf16 } from '../text/surrogates';
import { isObject, isPresent, numberAt, stringAt, type JsonObject } from './json';
import { identityOf, isTerminalRowObject, rowIdOf, terminalStatusOf } from './rows';
import { EVENT_ROW_SCHEMAS, KNOWN_BOUNDARY_IDS, NEWER_HOST_EVENT_TYPES, TERMINAL_ROW_TYPES, TRANSCRIPT_ROW_SCHEMAS } from './schemas';
import type { ArtifactKind } from './types';

/** The line-per-row artifacts: 'transcript' | 'eventLog' | 'jsonl'. */
export type RowArtifactKind = Exclude<ArtifactKind, 'runRecord'>;

export interface RowHoverContext {
  /** 0-based line of the row in the document. */
  line: number;
  /** What the document is; 'jsonl' = unknown, the row's shape decides (an `emitted_at_ms`/`index` envelope = event). */
  kind: RowArtifactKind;
  /** 1-based count of non-blank lines up to this row (the spec's `row:N` identity); defaults to `line + 1`. */
  rowNumber?: number;
  /**
   * The row of the partner receipt: for a transcript `tool_call` receipt its `tool_result`, and back; for a
   * message with `tool_call_id`, both receipts. For an event-log `tool_call_update`, `partner('tool_call', …)` is
   * asked for the `tool_call` event with the same `tool_call_id`. `sessionId` is `''` when the row has none.
   */
  partner(kind: 'tool_call' | 'tool_result', sessionId: string, callId: string): { line: number } | undefined;
  /** A URI for a Markdown link to a row, e.g. `file:///…/llm_transcript.jsonl#L12`. */
  lineLink(line: number): string;
  /**
   * The loud-boundary registry entry for a boundary id. Leave it out when no registry is loaded: a present
   * function that returns `undefined` is reported as "not in the registry".
   */
  registryEntry?(id: string): { title?: string; drops?: string } | undefined;
}

/** Characters of content shown in a preview. */
export const PREVIEW_CHARS = 200;
/** Characters of JSON shown for tool-call arguments and other structured values. */
export const JSON_CHARS = 120;
/** The spec's bound on `boundary_failure.excerpt`. */
const EXCERPT_CHARS = 240;

// ---------------------------------------------------------------------------------------------------------------
// Spec vocabulary

/** §1 "Also seen": known to exist, fields not documented. */
const TRANSCRIPT_SEEN_TYPES: ReadonlySet<string> = new Set(['resolved_dispatch', 'template.render', 'provider_raw_capture']);

/** Transcript row types of §1 with a documented shape. */
const TRANSCRIPT_TYPES: ReadonlySet<string> = new Set(
  [...TRANSCRIPT_ROW_SCHEMAS.keys()].filter((t) => !TRANSCRIPT_SEEN_TYPES.has(t) && (!TERMINAL_ROW_TYPES.has(t) || t === 'agent_session_finalized')),
);

/** A §1 transcript row type (documented or seen). */
export function isTranscriptRowType(type: string): boolean {
  return TRANSCRIPT_ROW_SCHEMAS.has(type);
}

/** §3 AgentEvent variants named by the spec (`mcp_*` is a prefix). */
const EVENT_TYPES: ReadonlySet<string> = new Set(EVENT_ROW_SCHEMAS.keys());

/** §3: added by newer `from_host.rs`; shapes not documented. */
const NEWER_HOST_TYPES: ReadonlySet<string> = new Set(NEWER_HOST_EVENT_TYPES);

/** §3/§6: the six registered boundaries of harn 0.10. */
const KNOWN_BOUNDARIES: ReadonlySet<string> = new Set(KNOWN_BOUNDARY_IDS);

// Vocabularies looked up with strings from rows are Maps: an object literal would answer `constructor`,
// `toString` or `__proto__` with what every object inherits.
const BOUNDARY_KIND_MEANING: ReadonlyMap<string, string> = new Map([
  ['dropped', 'model output was dropped'],
  ['unrecognized', 'model output was not recognised'],
  ['truncated', 'model output was truncated'],
  ['killed', 'the producer was killed mid-output'],
  ['capped', 'a policy cap ended the output'],
]);

const ERROR_CATEGORY_MEANING: ReadonlyMap<string, string> = new Map([
  ['schema_validation', 'arguments failed the tool schema'],
  ['tool_error', 'the tool reported an error'],
  ['mcp_server_error', 'the MCP server failed'],
  ['host_bridge_error', 'the host bridge failed'],
  ['permission_denied', 'permission denied'],
  ['rejected_loop', 'rejected by the loop'],
  ['parse_aborted', 'a streamed call was retracted (ParseAborted)'],
  ['timeout', 'timed out'],
  ['network', 'network failure'],
  ['resource_busy', 'resource busy'],
  ['cancelled', 'cancelled'],
  ['abandoned_at_loop_exit', 'abandoned when the loop exited'],
  ['unknown', 'unknown'],
]);

/** ` — meaning`, or nothing for a value the vocabulary does not know. */
const gloss = (meaning: string | undefined): string => (meaning === undefined ? '' : ` — ${meaning}`);

const RECEIPT_SCHEMA = { tool_call: 'harn.llm_tool_call_receipt.v1', tool_result: 'harn.llm_tool_result_receipt.v1' } as const;

// ---------------------------------------------------------------------------------------------------------------
// Formatting (exported for the outline and for tests); Markdown comes from text/markdown.ts

/** Integer part grouped by thousands (locale independent): 1234567 → "1,234,567". */
export function formatInt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const neg = n < 0;
  const abs = Math.abs(n);
  const [int = '', frac] = String(abs).split('.'); // split always yields at least one part
  if (/e/i.test(int)) return String(n); // 1e21 and beyond: leave as is
  let grouped = '';
  for (let i = int.length; i > 0; i -= 3) grouped = int.slice(Math.max(0, i - 3), i) + (grouped ? ',' + grouped : '');
  return (neg ? '-' : '') + grouped + (frac !== undefined ? '.' + frac : '');
}

/** USD with 4 decimals and grouped thousands: 0.00123 → "$0.0012". */
export function formatUsd(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const fixed = Math.abs(n).toFixed(4);
  const [int = '0', frac = ''] = fixed.split('.'); // toFixed(4) always yields both parts
  return `${n < 0 ? '-' : ''}$${formatInt(Number(int))}.${frac}`;
}

/** Milliseconds as "850 ms" or "1,234 ms (1.23 s)". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  const whole = Math.round(ms);
  if (Math.abs(ms) < 1000) return `${formatInt(Number.isInteger(ms) ? ms : Math.round(ms * 10) / 10)} ms`;
  const secs = ms / 1000;
  return `${formatInt(whole)} ms (${secs.toFixed(Math.abs(secs) < 10 ? 2 : 1)} s)`;
}

function isoFromMs(ms: number): string | undefined {
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return undefined;
  return new Date(ms).toISOString();
}

/** A transcript `timestamp` (`"<unix_secs>.<ms3>"`, or a number of seconds) as ISO UTC. */
export function timestampIso(value: unknown): string | undefined {
  if (typeof value === 'number') return isoFromMs(Math.round(value * 1000));
  if (typeof value !== 'string') return undefined;
  const m = /^\s*(-?)(\d{1,15})(?:\.(\d+))?\s*$/.exec(value);
  if (!m) return undefined;
  const ms = Number(m[2]) * 1000 + Number((m[3] ?? '').padEnd(3, '0').slice(0, 3));
  return isoFromMs(m[1] ? -ms : ms);
}

/** `emitted_at_ms` (unix milliseconds) as ISO UTC. */
export function msIso(value: unknown): string | undefined {
  return typeof value === 'number' ? isoFromMs(value) : undefined;
}

/**
 * Compact JSON of `value`, at most about `max` characters (then `…`). Bounded work: long strings are cut before
 * they are quoted and serialisation stops once the budget is spent, so a huge value costs no more than a small one.
 */
export function shortJson(value: unknown, max = JSON_CHARS): string {
  let out = '';
  let full = true;
  const room = (): number => max - out.length;
  const walk = (v: unknown, depth: number): void => {
    if (room() <= 0) {
      full = false;
      return;
    }
    if (v === null || typeof v === 'boolean' || typeof v === 'number') {
      out += typeof v === 'number' && !Number.isFinite(v) ? 'null' : String(v);
    } else if (typeof v === 'string') {
      const part = cutUtf16(v, room());
      if (part.length < v.length) full = false;
      out += JSON.stringify(part);
    } else if (Array.isArray(v)) {
      if (depth > 20) {
        out += '[…]';
        full = false;
        return;
      }
      out += '[';
      for (let i = 0; i < v.length; i++) {
        if (room() <= 0) {
          full = false;
          break;
        }
        if (i) out += ',';
        walk(v[i], depth + 1);
      }
      out += ']';
    } else if (typeof v === 'object') {
      if (depth > 20) {
        out += '{…}';
        full = false;
        return;
      }
      out += '{';
      let first = true;
      for (const k in v as JsonObject) {
        if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
        const item = (v as JsonObject)[k];
        if (item === undefined) continue;
        if (room() <= 0) {
          full = false;
          break;
        }
        if (!first) out += ',';
        first = false;
        out += JSON.stringify(cutUtf16(k, Math.max(1, room()))) + ':';
        walk(item, depth + 1);
      }
      out += '}';
    } else {
      out += 'null';
    }
  };
  walk(value, 0);
  if (!full || out.length > max) return cutUtf16(out, max) + '…';
  return out;
}

/** A bounded preview of text: `shown` is at most `max` units; `length` is the full length. */
export function preview(text: string, max = PREVIEW_CHARS): { shown: string; length: number; truncated: boolean } {
  const shown = cutUtf16(text, max);
  return { shown, length: text.length, truncated: shown.length < text.length };
}

/** "(1,234 chars, first 200 shown)" or "(12 chars)". */
function lengthNote(p: { shown: string; length: number; truncated: boolean }): string {
  return p.truncated ? `(${formatInt(p.length)} chars, first ${formatInt(p.shown.length)} shown)` : `(${formatInt(p.length)} chars)`;
}

/** Inline preview: a code span of at most `max` chars plus the length note when cut. */
function inlinePreview(text: string, max = PREVIEW_CHARS): string {
  const p = preview(text, max);
  return p.truncated ? `${code(p.shown + '…')} ${lengthNote(p)}` : code(p.shown);
}

/** A block preview: the note line, then a fenced block. */
function blockPreview(label: string, text: string, max = PREVIEW_CHARS): string {
  const p = preview(text, max);
  return `${label} ${lengthNote(p)}:\n\n${codeBlock(p.truncated ? p.shown + '…' : p.shown)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Value helpers

/** Any JSON value, rendered safely: strings in code, numbers grouped, structures as short JSON. */
export function value(v: unknown): string {
  if (v === undefined) return '*(absent)*';
  if (v === null) return '`null`';
  if (typeof v === 'string') return inlinePreview(v, JSON_CHARS);
  if (typeof v === 'number') return Number.isFinite(v) ? formatInt(v) : code(String(v));
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return code(shortJson(v));
}

/** A token count, grouped; other types shown as values. */
function tokens(v: unknown): string {
  return typeof v === 'number' && Number.isFinite(v) ? formatInt(v) : value(v);
}

function usd(v: unknown): string {
  return typeof v === 'number' && Number.isFinite(v) ? formatUsd(v) : value(v);
}

function ms(v: unknown): string {
  return typeof v === 'number' && Number.isFinite(v) ? formatMs(v) : value(v);
}

/** Row identity per §1: the first string among `id`, `event_id`, `call_id`, else `row:N`. */
export function rowIdentity(row: JsonObject, rowNumber: number): string {
  return identityOf(rowIdOf(row), rowNumber);
}

/** The terminal status per §1: `final_status`, else `status`, else `stop_reason`, else the row type. */
export function terminalStatus(row: JsonObject): string {
  return terminalStatusOf(row) ?? 'terminal';
}

export function isTerminalRow(row: JsonObject): boolean {
  return isTerminalRowObject(row);
}

/** Whether a row is an event-log line: an `emitted_at_ms`/`index` envelope, or an event-shaped `tool_call`. */
export function looksLikeEvent(row: JsonObject, kind: RowArtifactKind): boolean {
  if (kind === 'eventLog') return true;
  if (kind === 'transcript') return false;
  if (typeof row.emitted_at_ms === 'number') return true;
  if (typeof row.index === 'number' && !isPresent(row, 'timestamp')) return true;
  return row.type === 'tool_call' && isPresent(row, 'tool_call_id') && !isPresent(row, 'call_id');
}

/** Text of message content: a string, or the text parts of content blocks (bounded). */
export function contentText(content: unknown, budget = 4096): { text: string; length: number; blocks?: Map<string, number> } {
  if (typeof content === 'string') return { text: cutUtf16(content, budget), length: content.length };
  if (!Array.isArray(content)) {
    const text = content === undefined || content === null ? '' : shortJson(content, budget);
    return { text, length: text.length };
  }
  const blocks = new Map<string, number>();
  let text = '';
  let length = 0;
  for (const b of content) {
    const type = isObject(b) ? (stringAt(b, 'type') ?? '?') : typeof b === 'string' ? 'text' : '?';
    blocks.set(type, (blocks.get(type) ?? 0) + 1);
    const t = typeof b === 'string' ? b : isObject(b) ? (stringAt(b, 'text') ?? stringAt(b, 'thinking')) : undefined;
    if (t !== undefined) {
      const sep = length ? '\n' : '';
      length += sep.length + t.length;
      if (text.length < budget) text += cutUtf16(sep + t, budget - text.length);
    }
  }
  return { text, length, blocks };
}

/** A tool call in any of its shapes: native `{id, function{name, arguments:"<json>"}}` or parsed `{id, name, arguments}`. */
function toolCallParts(tc: unknown): { id?: string; name?: string; args: unknown } {
  if (!isObject(tc)) return { args: undefined };
  const fn = isObject(tc.function) ? tc.function : undefined;
  const name = stringAt(tc, 'name') ?? (fn ? stringAt(fn, 'name') : undefined);
  let args: unknown = isPresent(tc, 'arguments') ? tc.arguments : isPresent(tc, 'args') ? tc.args : isPresent(tc, 'input') ? tc.input : fn?.arguments;
  if (typeof args === 'string' && args.length <= 65536) {
    try {
      args = JSON.parse(args);
    } catch {
      // not JSON: shown as the string it is
    }
  }
  return { id: stringAt(tc, 'id') ?? stringAt(tc, 'call_id') ?? stringAt(tc, 'tool_call_id'), name, args };
}

/** Tool calls as a numbered list (at most 10 shown). */
function toolCallList(calls: unknown[]): string {
  const shown = calls.slice(0, 10).map((tc, i) => {
    const p = toolCallParts(tc);
    const name = p.name !== undefined ? code(p.name) : '*(no name)*';
    const id = p.id !== undefined ? ` ${code(p.id)}` : '';
    const args = p.args === undefined ? '' : ` — ${code(shortJson(p.args))}`;
    return `${i + 1}. ${name}${id}${args}`;
  });
  if (calls.length > 10) shown.push(`\n…and ${formatInt(calls.length - 10)} more`);
  return shown.join('\n');
}

function bullets(items: Array<string | undefined | false>): string {
  return items
    .filter((s): s is string => typeof s === 'string' && s !== '')
    .map((s) => `- ${s}`)
    .join('\n');
}

/** "Label: value" when the field is present, else nothing. */
function field(row: JsonObject, key: string, label: string, render: (v: unknown) => string = value): string | undefined {
  return isPresent(row, key) ? `${label}: ${render(row[key])}` : undefined;
}

/** A title line: bold row type (code if not one of ours), then identity parts. */
function title(type: string, known: boolean, parts: Array<string | undefined>): string {
  const head = known ? `**${type}**` : `**${code(type)}**`;
  return [head, ...parts.filter((p): p is string => !!p)].join(' · ');
}

function unconfirmed(what: string): string {
  return `*UNCONFIRMED:* ${what}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Renderers

interface Render {
  row: JsonObject;
  type: string;
  ctx: RowHoverContext;
  event: boolean;
}

type Renderer = (r: Render) => string[];

function sessionPart(row: JsonObject): string | undefined {
  const s = stringAt(row, 'session_id');
  return s !== undefined ? `session ${code(s)}` : undefined;
}

function iterationPart(row: JsonObject): string | undefined {
  return isPresent(row, 'iteration') ? `iteration ${value(row.iteration)}` : undefined;
}

function callPart(row: JsonObject): string | undefined {
  const c = stringAt(row, 'call_id');
  return c !== undefined ? `call ${code(c)}` : undefined;
}

function thinkingText(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (v === null) return 'off';
  if (typeof v === 'boolean') return v ? 'on' : 'off';
  if (typeof v === 'string') return code(v);
  if (!isObject(v)) return value(v);
  const parts: string[] = [];
  const mode = stringAt(v, 'mode');
  if (mode !== undefined) parts.push(code(mode));
  else if (typeof v.enabled === 'boolean') parts.push(v.enabled ? 'enabled' : 'disabled');
  if (mode !== undefined && typeof v.enabled === 'boolean' && (mode === 'disabled') === v.enabled) parts.push(`enabled ${v.enabled ? 'yes' : 'no'}`);
  if (isPresent(v, 'budget_tokens') && v.budget_tokens !== null) parts.push(`budget ${tokens(v.budget_tokens)} tokens`);
  if (isPresent(v, 'level') && v.level !== null) parts.push(`level ${value(v.level)}`);
  return parts.length ? parts.join(' · ') : code(shortJson(v));
}

const providerCallRequest: Renderer = ({ row }) => {
  const snapshot = isObject(row.request_snapshot) ? row.request_snapshot : undefined;
  const snapMessages = snapshot && Array.isArray(snapshot.messages) ? snapshot.messages.length : undefined;
  const model = stringAt(row, 'model');
  const toolFormat = isPresent(row, 'tool_format') ? value(row.tool_format) : undefined;
  const nativeCount = numberAt(row, 'native_tool_count');
  const facts = bullets([
    `Model: ${model !== undefined ? code(model) : '*(absent)*'} · provider ${isPresent(row, 'provider') ? value(row.provider) : '*(absent)*'}`,
    field(row, 'message_count', 'Messages', tokens),
    toolFormat !== undefined || nativeCount !== undefined
      ? `Tool format: ${toolFormat ?? '*(absent)*'}${nativeCount !== undefined ? ` · ${formatInt(nativeCount)} native tool${nativeCount === 1 ? '' : 's'}` : ''}`
      : undefined,
    isPresent(row, 'thinking') ? `Thinking: ${thinkingText(row.thinking)}` : undefined,
    field(row, 'call_role', 'Role'),
    field(row, 'max_tokens', 'Max tokens', tokens),
    field(row, 'temperature', 'Temperature'),
    field(row, 'tool_choice', 'Tool choice'),
    field(row, 'route_policy', 'Route policy'),
    Array.isArray(row.fallback_chain) && row.fallback_chain.length ? `Fallback chain: ${value(row.fallback_chain)}` : undefined,
    snapshot
      ? `Request snapshot: stored (\`HARN_LLM_TRANSCRIPT_VERBOSE=1\`)${snapMessages !== undefined ? `, ${formatInt(snapMessages)} messages` : ''}`
      : 'Request snapshot: not stored (only with `HARN_LLM_TRANSCRIPT_VERBOSE=1`); the messages sent are the `message` rows before this one',
  ]);
  return [title('provider_call_request', true, [callPart(row), iterationPart(row)]), facts];
};

function cacheLine(row: JsonObject): string | undefined {
  const keys = ['cache_hit', 'cache_read_tokens', 'cache_write_tokens', 'cache_hit_ratio', 'cache_savings_usd'];
  if (!keys.some((k) => isPresent(row, k))) return undefined;
  const parts: string[] = [];
  if (typeof row.cache_hit === 'boolean') parts.push(row.cache_hit ? '**hit**' : 'miss');
  else if (isPresent(row, 'cache_hit')) parts.push(`hit ${value(row.cache_hit)}`);
  if (isPresent(row, 'cache_read_tokens')) parts.push(`read ${tokens(row.cache_read_tokens)}`);
  if (isPresent(row, 'cache_write_tokens')) parts.push(`write ${tokens(row.cache_write_tokens)}`);
  const ratio = numberAt(row, 'cache_hit_ratio');
  if (ratio !== undefined) parts.push(`ratio ${(ratio <= 1 ? ratio * 100 : ratio).toFixed(1)}%`);
  else if (isPresent(row, 'cache_hit_ratio')) parts.push(`ratio ${value(row.cache_hit_ratio)}`);
  if (isPresent(row, 'cache_savings_usd')) parts.push(`saved ${usd(row.cache_savings_usd)}`);
  return `Cache: ${parts.join(' · ')}`;
}

const providerCallResponse: Renderer = ({ row }) => {
  const model = stringAt(row, 'model');
  const native = Array.isArray(row.tool_calls) ? row.tool_calls : [];
  const parsed = Array.isArray(row.parsed_tool_calls) ? row.parsed_tool_calls : undefined;
  const calls = parsed && parsed.length ? parsed : native;
  const channel = native.length ? 'native' : parsed && parsed.length ? 'parsed from `<tool_call>` text' : '';
  const text = typeof row.text === 'string' ? row.text : undefined;
  const thinking = typeof row.thinking === 'string' ? row.thinking : undefined;
  const facts = bullets([
    `Model: ${model !== undefined ? code(model) : '*(absent)*'} · provider ${isPresent(row, 'provider') ? value(row.provider) : '*(absent)*'}`,
    `Tokens: ${isPresent(row, 'input_tokens') ? tokens(row.input_tokens) : '—'} in · ${isPresent(row, 'output_tokens') ? tokens(row.output_tokens) : '—'} out`,
    field(row, 'cost_usd', 'Cost', usd),
    cacheLine(row),
    field(row, 'stop_reason', 'Stop reason'),
    field(row, 'response_ms', 'Latency', ms),
    thinking !== undefined
      ? `Thinking: ${formatInt(thinking.length)} chars`
      : isPresent(row, 'thinking') && row.thinking !== null
        ? `Thinking: ${value(row.thinking)}`
        : undefined,
    typeof row.thinking_summary === 'string' && row.thinking_summary ? `Thinking summary: ${inlinePreview(row.thinking_summary, 120)}` : undefined,
    text !== undefined
      ? `Text: ${text ? inlinePreview(text, 120) : '*(empty)*'}${text && text.length <= 120 ? ` (${formatInt(text.length)} chars)` : ''}`
      : undefined,
  ]);
  const out = [title('provider_call_response', true, [callPart(row), iterationPart(row)]), facts];
  if (calls.length) out.push(`**Tool calls** (${formatInt(calls.length)}${channel ? `, ${channel}` : ''}):\n\n${toolCallList(calls)}`);
  else out.push('**Tool calls:** none');
  return out;
};

const routingDecision: Renderer = ({ row }) => {
  const alternatives = Array.isArray(row.alternatives) ? row.alternatives.length : undefined;
  return [
    title('routing_decision', true, [callPart(row), iterationPart(row)]),
    bullets([
      `Selected: ${isPresent(row, 'selected_model') ? value(row.selected_model) : '*(absent)*'} · provider ${isPresent(row, 'selected_provider') ? value(row.selected_provider) : '*(absent)*'}`,
      field(row, 'policy', 'Policy'),
      field(row, 'requested_quality', 'Requested quality'),
      field(row, 'fallback_chain', 'Fallback chain'),
      alternatives !== undefined ? `Alternatives: ${formatInt(alternatives)}` : undefined,
    ]),
  ];
};

const interpretedResponse: Renderer = ({ row }) => {
  const calls = Array.isArray(row.tool_calls) ? row.tool_calls : [];
  const errors = Array.isArray(row.tool_parse_errors) ? row.tool_parse_errors : [];
  const out = [
    title('interpreted_response', true, [callPart(row), iterationPart(row)]),
    bullets([
      field(row, 'tool_format', 'Tool format'),
      typeof row.prose === 'string' ? `Prose: ${row.prose ? inlinePreview(row.prose, 120) : '*(empty)*'}` : undefined,
      `Tool parse errors: ${errors.length ? `**${formatInt(errors.length)}** — first ${value(errors[0])}` : 'none'}`,
    ]),
  ];
  out.push(calls.length ? `**Tool calls** (${formatInt(calls.length)}):\n\n${toolCallList(calls)}` : '**Tool calls:** none');
  return out;
};

const systemPrompt: Renderer = ({ row }) => {
  const out = [
    title('system_prompt', true, []),
    bullets([field(row, 'hash', 'Hash'), field(row, 'content_hash', 'Content hash'), 'Deduped: written only when it changes']),
  ];
  if (typeof row.content === 'string') out.push(blockPreview('Content', row.content));
  return out;
};

const contextManifest: Renderer = ({ row }) => [
  title('context_manifest', true, []),
  bullets([
    field(row, 'hash', 'Hash'),
    field(row, 'content_hash', 'Content hash'),
    field(row, 'manifest', 'Manifest'),
    'Deduped: written only when it changes',
  ]),
];

const toolSchemas: Renderer = ({ row }) => {
  const schemas = Array.isArray(row.schemas) ? row.schemas : undefined;
  const names = schemas
    ? schemas.slice(0, 12).map((s) => {
        const n = isObject(s) ? (stringAt(s, 'name') ?? (isObject(s.function) ? stringAt(s.function, 'name') : undefined)) : undefined;
        return n !== undefined ? code(n) : '?';
      })
    : [];
  return [
    title('tool_schemas', true, [schemas ? `${formatInt(schemas.length)} tool${schemas.length === 1 ? '' : 's'}` : undefined]),
    bullets([
      schemas
        ? `Tools: ${names.join(', ') || '*(none)*'}${schemas.length > 12 ? ` …and ${formatInt(schemas.length - 12)} more` : ''}`
        : 'Tools: *(`schemas` absent)*',
      field(row, 'hash', 'Hash'),
      field(row, 'content_hash', 'Content hash'),
      'The exact served catalog; deduped, written only when it changes',
    ]),
  ];
};

/** Links to the partner receipts, or a note that there is none. */
function partnerLine(
  ctx: RowHoverContext,
  want: 'tool_call' | 'tool_result',
  sessionId: string,
  callId: string,
  missing: string | undefined,
): string | undefined {
  const p = ctx.partner(want, sessionId, callId);
  if (p) return `${want === 'tool_call' ? 'Call' : 'Result'}: ${link(`${want} receipt, line ${formatInt(p.line + 1)}`, ctx.lineLink(p.line))}`;
  return missing;
}

/** At most 256 KiB of `text` to scan: all of it, or its head and tail (an appended envelope sits at the end). */
function scanWindow(text: string): string {
  const half = 128 * 1024;
  return text.length <= 2 * half ? text : `${text.slice(0, half)}\n${text.slice(text.length - half)}`;
}

function directiveNotes(msg: JsonObject | undefined, fullText: string): string[] {
  const notes: string[] = [];
  const text = scanWindow(fullText);
  if (msg && Array.isArray(msg._harn_directive_ids)) {
    notes.push(`Directive ids: ${value(msg._harn_directive_ids)} (${unconfirmed('the key name `_harn_directive_ids`')})`);
  }
  if (msg && msg.harn_bookkeeping_turn === true) notes.push('Bookkeeping turn: placeholder for a withdrawn closing draft (`harn_bookkeeping_turn`)');
  const env = /<context-directives\b([^>]*)>/.exec(text);
  if (env) {
    const [, attributes = ''] = env; // group 1 always takes part in a match
    const speaker = /\bspeaker="([^"]*)"/.exec(attributes)?.[1];
    const count = (text.match(/<directive\b/g) ?? []).length;
    notes.push(
      `Context-directive envelope: ${formatInt(count)} directive${count === 1 ? '' : 's'}${speaker !== undefined ? ` · speaker ${code(speaker)}` : ''}`,
    );
    if (text.includes('<![CDATA[')) notes.push(unconfirmed('whether the renderer emits CDATA directive bodies'));
    if (/\bnonce="/.test(attributes)) notes.push(unconfirmed('where the directive nonce is placed'));
  } else if (/<system-reminder>|^System reminder:/m.test(text)) {
    notes.push('Legacy system reminder (before context directives)');
  }
  return notes;
}

const message: Renderer = ({ row, ctx }) => {
  const msg = isObject(row.message) ? row.message : undefined;
  const role = stringAt(row, 'role') ?? (msg ? stringAt(msg, 'role') : undefined);
  const content = isPresent(row, 'content') ? row.content : msg?.content;
  const ct = contentText(content, PREVIEW_CHARS + 1);
  const toolCallId = stringAt(row, 'tool_call_id') ?? (msg ? (stringAt(msg, 'tool_call_id') ?? stringAt(msg, 'tool_use_id')) : undefined);
  const name = stringAt(row, 'name') ?? (msg ? stringAt(msg, 'name') : undefined);
  const calls = msg && Array.isArray(msg.tool_calls) ? msg.tool_calls : [];
  const sid = stringAt(row, 'session_id') ?? '';
  const index = isPresent(row, 'message_index') ? `#${value(row.message_index)}` : undefined;
  const blocks = ct.blocks ? [...ct.blocks].map(([t, n]) => `${code(t)}${n > 1 ? ` ×${formatInt(n)}` : ''}`).join(', ') : undefined;
  const facts = bullets([
    role === undefined ? 'Role: *(absent)*' : undefined,
    name !== undefined ? `Name: ${code(name)}` : undefined,
    toolCallId !== undefined ? `Tool call id: ${code(toolCallId)}` : undefined,
    toolCallId !== undefined ? partnerLine(ctx, 'tool_call', sid, toolCallId, undefined) : undefined,
    toolCallId !== undefined ? partnerLine(ctx, 'tool_result', sid, toolCallId, undefined) : undefined,
    blocks ? `Content blocks: ${blocks || '*(none)*'}` : undefined,
    ...directiveNotes(msg, typeof content === 'string' ? content : ct.text),
  ]);
  const out = [title('message', true, [role !== undefined ? code(role) : undefined, index, sessionPart(row)]), facts];
  const length = typeof content === 'string' ? content.length : ct.length;
  if (ct.text) {
    const p = { shown: cutUtf16(ct.text, PREVIEW_CHARS), length, truncated: length > PREVIEW_CHARS };
    out.push(`Content ${lengthNote(p)}:\n\n${codeBlock(p.truncated ? p.shown + '…' : p.shown)}`);
  } else out.push(ct.blocks && ct.blocks.size ? 'Content: *(no text blocks)*' : 'Content: *(empty)*');
  if (calls.length) out.push(`**Tool calls** (${formatInt(calls.length)}, native):\n\n${toolCallList(calls)}`);
  return out;
};

function schemaNote(row: JsonObject, kind: 'tool_call' | 'tool_result'): string | undefined {
  const sv = row.schema_version;
  if (sv === RECEIPT_SCHEMA[kind]) return `Schema: ${code(RECEIPT_SCHEMA[kind])}`;
  if (sv === undefined) return `⚠ Schema: \`schema_version\` absent (expected ${code(RECEIPT_SCHEMA[kind])})`;
  return `⚠ Schema: ${value(sv)}, expected ${code(RECEIPT_SCHEMA[kind])}`;
}

const toolCallReceipt: Renderer = ({ row, ctx }) => {
  const tool = stringAt(row, 'tool_name');
  const callId = stringAt(row, 'call_id');
  const sid = stringAt(row, 'session_id') ?? '';
  return [
    title('tool_call', true, ['receipt', tool !== undefined ? code(tool) : undefined, callPart(row)]),
    bullets([
      tool === undefined ? 'Tool: *(absent)*' : undefined,
      callId === undefined ? 'Call id: *(absent)*' : undefined,
      isPresent(row, 'arguments') ? `Arguments: ${code(shortJson(row.arguments))}` : 'Arguments: *(absent)*',
      field(row, 'session_id', 'Session'),
      field(row, 'assistant_message_index', 'Assistant message', (v) => `#${value(v)}`),
      callId !== undefined ? partnerLine(ctx, 'tool_result', sid, callId, 'Result: no `tool_result` receipt for this call in the file') : undefined,
      schemaNote(row, 'tool_call'),
      'Dispatch receipt: written before the tool runs, in request order; `call_id` is a tool-call id, not a provider call',
    ]),
  ];
};

const toolResultReceipt: Renderer = ({ row, ctx }) => {
  const tool = stringAt(row, 'tool_name');
  const callId = stringAt(row, 'call_id');
  const sid = stringAt(row, 'session_id') ?? '';
  const ok = row.ok === true ? '**ok**' : row.ok === false ? '**failed**' : isPresent(row, 'ok') ? value(row.ok) : undefined;
  return [
    title('tool_result', true, ['receipt', tool !== undefined ? code(tool) : undefined, callPart(row), ok]),
    bullets([
      tool === undefined ? 'Tool: *(absent)*' : undefined,
      callId === undefined ? 'Call id: *(absent)*' : undefined,
      ok === undefined ? 'Outcome: *(`ok` absent)*' : undefined,
      field(row, 'tool_format', 'Tool format'),
      field(row, 'session_id', 'Session'),
      field(row, 'message_index', 'Result message', (v) => `#${value(v)} (binds by session and message index)`),
      callId !== undefined ? partnerLine(ctx, 'tool_call', sid, callId, 'Call: no `tool_call` receipt for this call in the file') : undefined,
      schemaNote(row, 'tool_result'),
    ]),
  ];
};

const terminalRow: Renderer = ({ row, type }) => {
  const status = terminalStatus(row);
  return [
    title(type, TRANSCRIPT_TYPES.has(type) || TERMINAL_ROW_TYPES.has(type), [code(status), sessionPart(row)]),
    bullets([
      isPresent(row, 'final_status')
        ? undefined
        : `Status: ${code(status)} ${isPresent(row, 'status') ? '(from `status`)' : isPresent(row, 'stop_reason') ? '(no `final_status`: from `stop_reason`)' : '(no status field: the row type)'}`,
      field(row, 'stop_reason', 'Stop reason'),
      field(row, 'iterations', 'Iterations', tokens),
      'Terminal row: the transcript is complete; rows after it are out of place',
    ]),
  ];
};

const boundaryFailure: Renderer = ({ row, ctx }) => {
  const boundary = stringAt(row, 'boundary');
  const kind = stringAt(row, 'kind');
  const owner = stringAt(row, 'owner');
  const derived = kind === undefined ? undefined : kind === 'capped' ? 'policy' : 'harness';
  const out = [title('boundary_failure', true, [boundary !== undefined ? code(boundary) : '*(no boundary)*', kind !== undefined ? code(kind) : undefined])];

  if (boundary !== undefined) {
    if (ctx.registryEntry) {
      const entry = ctx.registryEntry(boundary);
      if (entry) {
        const lines = [`Registry: **${entry.title ? escapeText(entry.title) : '(no title)'}**`];
        if (entry.drops) lines.push(`Drops: ${escapeText(entry.drops)}`);
        out.push(lines.join('  \n'));
      } else out.push(`⚠ ${code(boundary)} is not in the loud-boundary registry`);
    } else if (!KNOWN_BOUNDARIES.has(boundary)) {
      out.push(`⚠ ${code(boundary)} is not one of the six boundaries of harn 0.10 (no registry loaded)`);
    }
  }

  const counts: string[] = [];
  const count = numberAt(row, 'dropped_count');
  const bytes = numberAt(row, 'dropped_bytes');
  if (isPresent(row, 'dropped_count'))
    counts.push(count !== undefined ? `${formatInt(count)} item${count === 1 ? '' : 's'}` : `count ${value(row.dropped_count)}`);
  if (isPresent(row, 'dropped_bytes'))
    counts.push(bytes !== undefined ? `${formatInt(bytes)} bytes (untruncated length)` : `bytes ${value(row.dropped_bytes)}`);

  const ownerLine =
    owner === undefined
      ? derived !== undefined
        ? `Owner: ${code(derived)} (absent; derived from kind)`
        : 'Owner: *(absent)*'
      : derived !== undefined && owner !== derived
        ? `⚠ Owner: ${code(owner)}, but kind ${code(kind ?? '')} means ${code(derived)} (the runtime derives it from kind)`
        : `Owner: ${code(owner)}`;
  out.push(
    bullets([
      `Kind: ${kind !== undefined ? `${code(kind)} — ${BOUNDARY_KIND_MEANING.get(kind) ?? '⚠ not one of dropped, unrecognized, truncated, killed, capped'}` : '*(absent)*'}`,
      ownerLine,
      `Detail: ${isPresent(row, 'detail') ? value(row.detail) : '*(absent)*'}`,
      `Dropped: ${counts.length ? counts.join(' · ') : 'no counts (`dropped_count` and `dropped_bytes` are omitted when 0)'}`,
      row.unreported === true ? '⚠ **Unreported**: caught by the Drop backstop — a harness bug' : undefined,
      field(row, 'session_id', 'Session'),
    ]),
  );
  if (typeof row.excerpt === 'string') out.push(blockPreview('Excerpt', row.excerpt, EXCERPT_CHARS));
  else if (isPresent(row, 'excerpt') && row.excerpt !== null) out.push(`Excerpt: ${value(row.excerpt)}`);
  return out;
};

const budgetExhausted: Renderer = ({ row }) => [
  title('budget_exhausted', true, [isPresent(row, 'kind') ? value(row.kind) : undefined, sessionPart(row)]),
  bullets([
    field(row, 'max_iterations', 'Max iterations', tokens),
    field(row, 'kind', 'Budget'),
    field(row, 'cost_usd', 'Cost', usd),
    field(row, 'wall_clock_ms', 'Wall clock', ms),
    field(row, 'session_id', 'Session'),
    'The agent loop stopped: a budget ran out',
  ]),
];

const stallWarning: Renderer = ({ row }) => {
  const w = isObject(row.warning) ? row.warning : undefined;
  if (!w) {
    return [
      title('agent_loop_stall_warning', true, [sessionPart(row)]),
      bullets([`Warning: ${isPresent(row, 'warning') ? value(row.warning) : '*(absent)*'}`, field(row, 'session_id', 'Session')]),
    ];
  }
  const repeat = isPresent(w, 'repeat_count')
    ? `${tokens(w.repeat_count)}${isPresent(w, 'threshold') ? ` of threshold ${tokens(w.threshold)}` : ''}`
    : undefined;
  return [
    title('agent_loop_stall_warning', true, [
      isPresent(w, 'tool_name') ? value(w.tool_name) : undefined,
      isPresent(w, 'iteration') ? `iteration ${value(w.iteration)}` : undefined,
      w.hard_stop === true ? '**hard stop**' : undefined,
    ]),
    bullets([
      field(w, 'tool_name', 'Tool'),
      field(w, 'iteration', 'Iteration'),
      repeat !== undefined ? `Repeats: ${repeat}` : field(w, 'threshold', 'Threshold', tokens),
      field(w, 'pattern', 'Pattern'),
      field(w, 'count', 'Count', tokens),
      field(w, 'consecutive_trips', 'Consecutive trips', tokens),
      field(w, 'hard_stop', 'Hard stop'),
      field(w, 'arguments', 'Arguments', (v) => code(shortJson(v))),
      field(w, 'arguments_digest', 'Arguments digest'),
      field(w, 'signature_digest', 'Signature digest'),
      field(w, 'signature', 'Signature'),
      field(row, 'session_id', 'Session'),
    ]),
  ];
};

const toolCallEvent: Renderer = ({ row }) => {
  const tool = stringAt(row, 'tool_name');
  return [
    title('tool_call', true, ['event', tool !== undefined ? code(tool) : undefined, isPresent(row, 'tool_call_id') ? value(row.tool_call_id) : undefined]),
    bullets([
      field(row, 'status', 'Status'),
      field(row, 'kind', 'Kind'),
      field(row, 'raw_input', 'Input', (v) => code(shortJson(v))),
      field(row, 'parsing', 'Parsing'),
      field(row, 'session_id', 'Session'),
    ]),
  ];
};

const toolCallUpdate: Renderer = ({ row, ctx }) => {
  const tool = stringAt(row, 'tool_name');
  const id = stringAt(row, 'tool_call_id');
  const status = stringAt(row, 'status');
  const category = stringAt(row, 'error_category');
  const executor = isObject(row.executor) ? (stringAt(row.executor, 'kind') ?? shortJson(row.executor)) : undefined;
  const paths = Array.isArray(row.changed_paths) ? row.changed_paths : undefined;
  const retraction = status === 'failed' && category === 'parse_aborted' && row.parsing === false;
  const statusText =
    status !== undefined ? (status === 'failed' ? `**${code(status)}**` : code(status)) : isPresent(row, 'status') ? value(row.status) : undefined;
  const facts = bullets([
    statusText !== undefined ? `Status: ${statusText}` : 'Status: *(absent)*',
    category !== undefined ? `Error category: ${code(category)}${gloss(ERROR_CATEGORY_MEANING.get(category))}` : field(row, 'error_category', 'Error category'),
    retraction ? 'Retraction: the streamed candidate was withdrawn, the tool never ran' : undefined,
    row.error !== null && row.error !== undefined ? `Error: ${value(row.error)}` : undefined,
    field(row, 'mutation_status', 'Mutation'),
    isPresent(row, 'duration_ms') || isPresent(row, 'execution_duration_ms')
      ? `Duration: ${isPresent(row, 'duration_ms') ? ms(row.duration_ms) : '—'}${isPresent(row, 'execution_duration_ms') ? ` · execution ${ms(row.execution_duration_ms)}` : ''}`
      : undefined,
    executor !== undefined ? `Executor: ${code(executor)}` : undefined,
    paths
      ? `Changed paths: ${formatInt(paths.length)}${
          paths.length
            ? ` — ${paths
                .slice(0, 3)
                .map((p) => value(p))
                .join(', ')}${paths.length > 3 ? ', …' : ''}`
            : ''
        }`
      : undefined,
    row.raw_output !== null && row.raw_output !== undefined
      ? `Output: ${typeof row.raw_output === 'string' ? inlinePreview(row.raw_output, 120) : code(shortJson(row.raw_output))}`
      : undefined,
    isPresent(row, 'parsing') && !retraction ? field(row, 'parsing', 'Parsing') : undefined,
    id !== undefined ? partnerLine(ctx, 'tool_call', stringAt(row, 'session_id') ?? '', id, undefined) : undefined,
    field(row, 'session_id', 'Session'),
  ]);
  return [title('tool_call_update', true, [tool !== undefined ? code(tool) : undefined, id !== undefined ? code(id) : undefined]), facts];
};

/** Scalar and small fields of an unmodelled row, skipping the envelope. */
const ENVELOPE_KEYS: ReadonlySet<string> = new Set(['type', 'timestamp', 'span_id', 'index', 'emitted_at_ms', 'frame_depth', 'execution_id']);

const generic: Renderer = ({ row, type, event, ctx }) => {
  const newer = NEWER_HOST_TYPES.has(type);
  const known = event ? (EVENT_TYPES.has(type) && !newer) || type.startsWith('mcp_') : TRANSCRIPT_TYPES.has(type);
  const seen = TRANSCRIPT_SEEN_TYPES.has(type);
  const id = rowIdentity(row, ctx.rowNumber ?? ctx.line + 1);
  const out = [title(type, false, [`id ${code(id)}`, sessionPart(row), iterationPart(row)])];
  out.push(
    known
      ? `Known ${event ? 'agent event' : 'row type'}; its fields are listed as they are`
      : seen
        ? `Seen in transcripts; ${unconfirmed('its fields (the full row-type list is not verified)')}`
        : newer
          ? `Newer host event (\`from_host.rs\`); ${unconfirmed('its fields')}`
          : 'Unknown row type: tolerated (readers ignore types they do not know)',
  );
  const keys: string[] = [];
  let total = 0;
  for (const k in row) {
    if (ENVELOPE_KEYS.has(k) || !Object.prototype.hasOwnProperty.call(row, k)) continue;
    total++;
    if (keys.length < 12) keys.push(k);
  }
  if (keys.length) {
    const items = keys.map((k) => `${code(k)}: ${value(row[k])}`);
    if (total > keys.length) items.push(`…and ${formatInt(total - keys.length)} more field${total - keys.length === 1 ? '' : 's'}`);
    out.push(bullets(items));
  }
  if (isTerminalRow(row)) out.push(`Terminal row: status ${code(terminalStatus(row))}`);
  return out;
};

const TRANSCRIPT_RENDERERS: ReadonlyMap<string, Renderer> = new Map(
  Object.entries({
    system_prompt: systemPrompt,
    context_manifest: contextManifest,
    tool_schemas: toolSchemas,
    routing_decision: routingDecision,
    provider_call_request: providerCallRequest,
    provider_call_response: providerCallResponse,
    interpreted_response: interpretedResponse,
    message,
    tool_call: toolCallReceipt,
    tool_result: toolResultReceipt,
    agent_session_finalized: terminalRow,
  }),
);

const EVENT_RENDERERS: ReadonlyMap<string, Renderer> = new Map(
  Object.entries({
    tool_call: toolCallEvent,
    tool_call_update: toolCallUpdate,
    boundary_failure: boundaryFailure,
    budget_exhausted: budgetExhausted,
    agent_loop_stall_warning: stallWarning,
  }),
);

function rendererFor(type: string, event: boolean): Renderer | undefined {
  const own = event ? EVENT_RENDERERS : TRANSCRIPT_RENDERERS;
  const other = event ? TRANSCRIPT_RENDERERS : EVENT_RENDERERS;
  // A transcript row copied into an event log (topic agent.transcript.llm), or an event in a transcript.
  return own.get(type) ?? (type !== 'tool_call' ? other.get(type) : undefined);
}

// ---------------------------------------------------------------------------------------------------------------
// Envelope footer

function footer(row: JsonObject, ctx: RowHoverContext, event: boolean): string {
  const parts = [`Line ${formatInt(ctx.line + 1)}`];
  if (event) {
    if (isPresent(row, 'index')) parts.push(`event #${value(row.index)}`);
    const iso = msIso(row.emitted_at_ms);
    if (iso) parts.push(`emitted ${iso}`);
    else if (isPresent(row, 'emitted_at_ms')) parts.push(`emitted_at_ms ${value(row.emitted_at_ms)}`);
    if (typeof row.execution_id === 'string') parts.push(`execution ${code(row.execution_id)}`);
    if (row.frame_depth !== null && row.frame_depth !== undefined) parts.push(`frame depth ${value(row.frame_depth)}`);
  }
  if (isPresent(row, 'timestamp')) {
    const iso = timestampIso(row.timestamp);
    parts.push(iso ? `${iso} (${value(row.timestamp)})` : `timestamp ${value(row.timestamp)}`);
  }
  if (row.span_id !== null && row.span_id !== undefined) parts.push(`span ${value(row.span_id)}`);
  return `*${parts.join(' · ')}*`;
}

// ---------------------------------------------------------------------------------------------------------------
// Event-log topic records (§7): `{"id", "event": {"kind", "payload", "headers", "occurred_at_ms"}}`

/**
 * For a file-backend topic record (a row without `type` whose `event` has a string `kind`), the row it carries:
 * the payload object with `type` = `kind` (unless it has its own). Otherwise `undefined`.
 */
export function topicRecordRow(row: JsonObject): JsonObject | undefined {
  if (typeof row.type === 'string' || !isObject(row.event)) return undefined;
  const kind = row.event.kind;
  if (typeof kind !== 'string') return undefined;
  const payload = row.event.payload;
  return isObject(payload) ? (typeof payload.type === 'string' ? payload : { ...payload, type: kind }) : { type: kind, payload };
}

function topicHover(record: JsonObject, inner: JsonObject, context: RowHoverContext): string {
  const event = record.event as JsonObject;
  const parts = [`Line ${formatInt(context.line + 1)}`, `topic record ${isPresent(record, 'id') ? `#${value(record.id)}` : '(no id)'}`];
  const iso = msIso(event.occurred_at_ms);
  if (iso) parts.push(`occurred ${iso}`);
  const headers = isObject(event.headers) ? event.headers : {};
  const schema = stringAt(headers, 'harn.provenance.schema');
  if (schema !== undefined) parts.push(`provenance ${code(schema)}`);
  const type = inner.type as string;
  const asEvent = looksLikeEvent(inner, 'jsonl') || (typeof inner.session_id === 'string' && !isTranscriptRowType(type));
  const render = rendererFor(type, asEvent);
  const sections = render ? render({ row: inner, type, ctx: context, event: asEvent }) : generic({ row: inner, type, ctx: context, event: asEvent });
  sections.push(
    `Event-log topic record (file backend): \`kind\` ${code(type)}; the payload is shown. ${unconfirmed('the record shape of `observability.agent_events.<session>` topics')}`,
  );
  sections.push(`*${parts.join(' · ')}*`);
  return sections.filter((s) => s !== '').join('\n\n');
}

// ---------------------------------------------------------------------------------------------------------------
// Entry point

/**
 * The hover Markdown for one parsed row. `undefined` only for `undefined`; a non-object or a row without `type`
 * gets a one-line explanation.
 */
export function rowHover(row: unknown, context: RowHoverContext): string | undefined {
  if (row === undefined) return undefined;
  if (!isObject(row)) {
    const what = row === null ? 'null' : Array.isArray(row) ? 'an array' : `a ${typeof row}`;
    return `**Not a row**: the line is ${what}; rows are JSON objects with a \`type\`.\n\n*Line ${formatInt(context.line + 1)}*`;
  }
  const inner = topicRecordRow(row);
  if (inner) return topicHover(row, inner, context);
  const event = looksLikeEvent(row, context.kind);
  if (typeof row.type !== 'string') {
    const note = isPresent(row, 'type') ? `\`type\` is ${value(row.type)}, not a string` : 'no `type`';
    return [
      `**Row without a type**: ${note}. ${event ? 'Every agent event is tagged by `type`.' : 'Transcript rows without a `type` are rejected.'}`,
      footer(row, context, event),
    ].join('\n\n');
  }
  const type = row.type;
  const render = rendererFor(type, event);
  const sections = render
    ? render({ row, type, ctx: context, event })
    : isTerminalRow(row) && !event
      ? terminalRow({ row, type, ctx: context, event })
      : generic({ row, type, ctx: context, event });
  sections.push(footer(row, context, event));
  return sections.filter((s) => s !== '').join('\n\n');
}

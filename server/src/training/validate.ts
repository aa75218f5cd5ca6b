// Training example FILES (spec/harn-artifacts.md §5; upstream orchestration/training_example/mod.rs and
// validate.rs): a file's text in, its problems with positions and the facts hovers need out. Pure, no I/O.
//
// - `json`: the file is one example (a `*.training.json`, or any JSON whose top-level `schema_version` is v1).
// - `jsonl`: one example per non-blank line (`*.training.jsonl`, as `harn models lora export` reads them), each
//   validated on its own, its problems on its line.
// The schema is what upstream's serde structs accept: only `#[serde(default)]` fields may be absent, an `Option`
// may be null, a `Vec` may not; numbers are u64/usize, written as integers; a known field twice is refused (serde's
// "duplicate field"); unknown fields are ignored by serde, so they are information here, never errors. On a
// schema-valid example the pairing rule runs (pairing.ts, upstream's first violation), as an error on the message
// it concerns. Positions: 0-based lines, UTF-16 characters; a leading BOM is skipped (VS Code hides it) and noted.

import { createScanner, SyntaxKind, type NodeType } from 'jsonc-parser';
import { z } from 'zod';
import { isObject, type JsonObject } from '../artifacts/json';
import { bomProblem, effectiveMaxLineBytes, forEachTextLine, lineTooLongProblem } from '../artifacts/jsonl';
import { JSON_NESTING_LIMIT, jsonNestingLimitAt, nestingLimitMessage } from '../artifacts/jsonNesting';
import { rustTrim } from '../artifacts/runRecord';
import type { ArtifactProblem, ArtifactSeverity, LineSpan } from '../artifacts/types';
import { describeValue, firstJsonError, formatPath, jsonErrorText, nodeAt, valueAt } from '../artifacts/validate';

import { LineIndex } from '../text/lineIndex';
import { TRAINING_EXAMPLE_SCHEMA_VERSION, type TrainingMessage, type TrainingPairingError } from './example';
import { validateTrainingExamplePairing } from './pairing';

export const TRAINING_SOURCE = 'harn.training';

/** A field path in a message about an example (the empty path is the example itself). */
const formatPathOf = (path: readonly (string | number)[]): string => formatPath(path, '(example)');

export type TrainingFileFormat = 'json' | 'jsonl';

/** Schema problems listed per example; the last one says how many more there are. */
const MAX_ISSUES = 20;

// ---------------------------------------------------------------------------------------------------------------
// The schema: upstream's structs, strict only so that unknown keys are found (they become `unknown_field` notes).

const str = z.string({ error: 'a string' });
const optStr = z.string({ error: 'a string or null' }).nullable().optional();
const count = z
  .number({ error: 'a non-negative integer' })
  .int({ error: 'a non-negative integer (at most 2^53 − 1 here)' })
  .nonnegative({ error: 'a non-negative integer' });

const ToolCallSchema = z.strictObject(
  {
    id: str,
    type: z.literal('function', { error: 'the string "function"' }),
    function: z.strictObject(
      {
        name: str,
        // serde_json::Value: any JSON value, null included, but present.
        arguments: z.unknown().refine((v) => v !== undefined, { error: 'any JSON value' }),
      },
      { error: 'an object' },
    ),
  },
  { error: 'an object' },
);

const MessageSchema = z.strictObject(
  {
    role: str,
    content: str,
    // `#[serde(default)] Vec`: may be absent, not null.
    tool_calls: z.array(ToolCallSchema, { error: 'an array of tool calls' }).optional(),
    tool_call_id: optStr,
    name: optStr,
  },
  { error: 'an object' },
);

const ProvenanceSchema = z.strictObject(
  {
    run_id: str,
    session_id: str,
    stage_id: optStr,
    provider: str,
    model: str,
    route_policy: optStr,
    declared_tool_format: optStr,
    effective_tool_format: str,
    tool_catalog_hash: str,
    tool_catalog_content_hash: optStr,
    terminal_status: str,
    usage: z.strictObject({ provider_calls: count, input_tokens: count, output_tokens: count }, { error: 'an object' }),
    source: z.strictObject(
      {
        descriptor_schema_version: str,
        transcript_path: str,
        transcript_sha256: str,
        transcript_byte_len: count,
        event_count: count,
        first_event_index: count,
        last_event_index: count,
        first_event_id: str,
        last_event_id: str,
      },
      { error: 'an object' },
    ),
  },
  { error: 'an object' },
);

export const TrainingExampleSchema = z.strictObject(
  {
    schema_version: str,
    messages: z.array(MessageSchema, { error: 'an array of messages' }),
    tools: z.array(z.unknown(), { error: 'an array' }),
    provenance: ProvenanceSchema,
  },
  { error: 'an object' },
);

/** The known fields of each struct, by where it sits (for serde's duplicate-field refusal). */
const STRUCT_FIELDS = {
  example: ['schema_version', 'messages', 'tools', 'provenance'],
  message: ['role', 'content', 'tool_calls', 'tool_call_id', 'name'],
  toolCall: ['id', 'type', 'function'],
  function: ['name', 'arguments'],
  provenance: Object.keys(ProvenanceSchema.shape),
  usage: ['provider_calls', 'input_tokens', 'output_tokens'],
  source: Object.keys(ProvenanceSchema.shape.source.shape),
} as const;

/** The u64/usize fields, whose JSON must be an integer literal (serde_json reads `1.0` and `1e3` as floats). */
const COUNT_FIELDS: readonly (readonly string[])[] = [
  ...STRUCT_FIELDS.usage.map((k) => ['provenance', 'usage', k]),
  ...['transcript_byte_len', 'event_count', 'first_event_index', 'last_event_index'].map((k) => ['provenance', 'source', k]),
];

// ---------------------------------------------------------------------------------------------------------------
// Results.

/** A tool call of an assistant message, and the message answering it (undefined: unanswered). */
export interface CallFacts {
  id: string;
  name: string;
  answeredBy: number | undefined;
}

/** What a `tool` message answers: the call (and the assistant message making it), or none. */
export interface AnswerFacts {
  callId: string | undefined;
  assistantIndex: number | undefined;
  toolName: string | undefined;
  /** Another tool message already answered that call. */
  duplicateOf?: number;
  /** Why it answers none. */
  reason?: string;
}

export interface MessageFacts {
  index: number;
  role: string | undefined;
  span: LineSpan;
  /** An assistant message's calls. */
  calls: CallFacts[];
  /** A tool message's answer. */
  answer?: AnswerFacts;
  /** A non-tool message carrying a tool_call_id. */
  toolCallId?: string;
}

export interface ProvenanceFacts {
  span: LineSpan;
  runId?: string;
  sessionId?: string;
  provider?: string;
  model?: string;
  transcriptPath?: string;
  transcriptSha256?: string;
}

export interface ExampleFacts {
  /** The example's JSON value (a whole file, or one line). */
  span: LineSpan;
  schemaValid: boolean;
  messages: MessageFacts[];
  toolCount: number | undefined;
  provenance?: ProvenanceFacts;
  /** Upstream's first pairing violation of a schema-valid example. */
  pairingError?: TrainingPairingError;
}

export interface TrainingValidation {
  problems: ArtifactProblem[];
  examples: ExampleFacts[];
}

export interface TrainingValidateOptions {
  /** JSONL lines longer than this (UTF-8 bytes) are not read (harn.artifacts.maxLineBytes). */
  maxLineBytes?: number;
}

/** A node of the example's syntax tree (jsonc-parser's Node shape, built by structureOf). */
interface JsonNode {
  type: NodeType;
  value?: unknown;
  offset: number;
  length: number;
  parent?: JsonNode;
  children?: JsonNode[];
}

/** Converts offsets within one example's text to spans of the file. */
type Placer = (start: number, end: number) => LineSpan;

// ---------------------------------------------------------------------------------------------------------------
// Files.

/** Validates a training example file's text. Never throws. */
export function validateTrainingFile(text: string, format: TrainingFileFormat, options: TrainingValidateOptions = {}): TrainingValidation {
  const out: TrainingValidation = { problems: [], examples: [] };
  if (format === 'jsonl') {
    const validator = new TrainingLineValidator(options);
    const scan = forEachTextLine(text, (line, lineNumber) => validator.line(line, lineNumber, out));
    for (const p of scan.problems) out.problems.unshift(trainingProblem(p));
    return out;
  }
  const bom = text.charCodeAt(0) === 0xfeff;
  const body = bom ? text.slice(1) : text;
  if (bom) out.problems.push(trainingProblem(bomProblem()));
  const index = new LineIndex(body);
  const place: Placer = (start, end) => {
    const s = index.positionAt(start);
    const e = index.positionAt(end);
    return { line: s.line, startCharacter: s.character, endLine: e.line, endCharacter: e.character };
  };
  validateExample(body, place, 'malformed_json', out);
  return out;
}

/** One JSONL line after another (from a text, or streamed from disk by the CLI): each line is one example. */
export class TrainingLineValidator {
  private readonly maxLineBytes: number;

  constructor(options: TrainingValidateOptions = {}) {
    this.maxLineBytes = effectiveMaxLineBytes(options.maxLineBytes);
  }

  line(text: string, line: number, out: TrainingValidation): void {
    if (rustTrim(text) === '') return;
    if (text.length * 3 > this.maxLineBytes) {
      const bytes = Buffer.byteLength(text, 'utf8');
      if (bytes > this.maxLineBytes) {
        out.problems.push(trainingProblem(lineTooLongProblem(line, undefined, bytes, this.maxLineBytes)));
        return;
      }
    }
    const place: Placer = (start, end) => ({ line, startCharacter: start, endLine: line, endCharacter: end });
    validateExample(text, place, 'malformed_jsonl', out);
  }
}

function trainingProblem(p: ArtifactProblem): ArtifactProblem {
  return { ...p, source: TRAINING_SOURCE };
}

function problem(span: LineSpan, code: string, severity: ArtifactSeverity, message: string, data?: Record<string, unknown>): ArtifactProblem {
  const p: ArtifactProblem = { ...span, code, severity, message, source: TRAINING_SOURCE };
  if (data !== undefined) p.data = data;
  return p;
}

// ---------------------------------------------------------------------------------------------------------------
// One example.

function validateExample(text: string, place: Placer, malformedCode: string, out: TrainingValidation): void {
  const tooDeep = jsonNestingLimitAt(text);
  if (tooDeep >= 0) {
    out.problems.push(
      problem(place(tooDeep, tooDeep + 1), 'nesting_too_deep', 'error', nestingLimitMessage('training examples'), { limit: JSON_NESTING_LIMIT }),
    );
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    out.problems.push(malformed(text, place, malformedCode));
    return;
  }
  const lone = loneSurrogateEscape(text);
  if (lone !== undefined) {
    out.problems.push(
      problem(
        place(lone, lone + 6),
        malformedCode,
        'error',
        `Not JSON that Harn can read: ${text.slice(lone, lone + 6)} is half of a UTF-16 surrogate pair, which serde_json refuses ("lone surrogate in hex escape").`,
      ),
    );
    return;
  }
  const root = structureOf(text);
  const valueStart = root?.offset ?? 0;
  const span = place(valueStart, valueStart + (root?.length ?? text.length));
  if (!isObject(value) || root?.type !== 'object') {
    out.problems.push(problem(span, 'invalid_training_example', 'error', `A training example is a JSON object, got ${describeValue(value)}.`));
    return;
  }
  const problems: ArtifactProblem[] = [];
  const parsed = TrainingExampleSchema.safeParse(value);
  let errors = 0;
  const issues = parsed.success ? [] : parsed.error.issues;
  const flagged = new Set<string>();
  for (const issue of issues) {
    const path = issue.path.filter((k): k is string | number => typeof k === 'string' || typeof k === 'number');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const node = nodeAt(root, [...path, key]);
        const at = node?.parent?.type === 'property' ? (node.parent.children?.[0] ?? node) : (node ?? root);
        const field = formatPathOf([...path, key]);
        problems.push(
          problem(
            place(at.offset, at.offset + at.length),
            'unknown_field',
            'information',
            `Unknown field \`${field}\`: upstream's reader (serde) ignores it, so it is not part of the example.`,
            { field },
          ),
        );
      }
      continue;
    }
    errors++;
    flagged.add(formatPathOf(path));
    if (errors > MAX_ISSUES) continue;
    const actual = valueAt(value, path);
    const reason = actual === undefined ? 'is required' : `must be ${issue.message}, got ${describeValue(actual)}`;
    problems.push(
      problem(located(root, path, place), 'invalid_training_example', 'error', `Invalid training example: \`${formatPathOf(path)}\` ${reason}.`, {
        field: formatPathOf(path),
      }),
    );
  }
  for (const p of serdeStrictness(root, text, place, flagged)) {
    errors++;
    problems.push(p);
  }
  if (errors > MAX_ISSUES) {
    const last = problems.filter((p) => p.severity === 'error').at(-1);
    if (last) last.message += ` (and ${errors - MAX_ISSUES} more problems in this example)`;
  }
  const version = value.schema_version;
  if (typeof version === 'string' && version !== TRAINING_EXAMPLE_SCHEMA_VERSION) {
    errors++;
    const node = nodeAt(root, ['schema_version']);
    problems.push(
      problem(
        node ? place(node.offset, node.offset + node.length) : span,
        'schema_mismatch',
        'error',
        `\`schema_version\` is ${JSON.stringify(version.slice(0, 80))}, not ${JSON.stringify(TRAINING_EXAMPLE_SCHEMA_VERSION)}: consumers pin on that exact string.`,
        { expected: TRAINING_EXAMPLE_SCHEMA_VERSION },
      ),
    );
  }
  const facts = exampleFacts(value, root, span, place, errors === 0);
  if (errors === 0) {
    const pairing = validateTrainingExamplePairing(asTrainingMessages(value.messages));
    if (pairing) {
      facts.pairingError = pairing;
      problems.push(
        problem(pairingSpan(root, facts, pairing, place), pairing.kind, 'error', `${pairing.message} (message ${pairing.message_index})`, {
          messageIndex: pairing.message_index,
        }),
      );
    }
  }
  out.examples.push(facts);
  for (const p of problems.sort(byPosition)) out.problems.push(p);
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/g;

/**
 * The offset of the first `\uD800`–`\uDFFF` escape (inside a string of valid JSON) that is not half of a
 * high-low pair: JSON.parse keeps it as a lone surrogate, serde_json refuses the text. Undefined when none.
 */
function loneSurrogateEscape(text: string): number | undefined {
  if (!text.includes('\\u')) return undefined;
  SURROGATE_ESCAPE.lastIndex = 0;
  for (let m = SURROGATE_ESCAPE.exec(text); m !== null; m = SURROGATE_ESCAPE.exec(text)) {
    const at = m.index;
    // An escaped backslash before it (`\\uD800`) makes it plain text, not an escape.
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 1) continue;
    const unit = parseInt(text.slice(at + 2, at + 6), 16);
    if (unit >= 0xdc00) return at; // a low half with no high half before it (that pair was consumed below)
    const next = /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.exec(text.slice(at + 6, at + 12));
    if (next === null) return at;
    SURROGATE_ESCAPE.lastIndex = at + 12;
  }
  return undefined;
}

function byPosition(a: LineSpan, b: LineSpan): number {
  return a.line - b.line || a.startCharacter - b.startCharacter || a.endLine - b.endLine || a.endCharacter - b.endCharacter;
}

/** `malformed_json(l)` at jsonc-parser's first error (JSON.parse's messages carry no usable position). */
function malformed(text: string, place: Placer, code: string): ArtifactProblem {
  const found = firstJsonError(text);
  if (found === undefined) return problem(place(0, text.length), code, 'error', 'Not valid JSON: it cannot be parsed.');
  const start = Math.min(found.offset, text.length);
  const end = Math.min(start + Math.max(found.length, 1), text.length);
  return problem(place(start, end), code, 'error', `Not valid JSON: ${jsonErrorText(found.error)}.`);
}

/**
 * What serde refuses that JSON.parse and zod let through: a known field written twice ("duplicate field"), and a
 * count written as a float (`1.0`, `1e3`: serde_json reads a float, which a u64 refuses). Fields already reported
 * by the schema are skipped.
 */
function serdeStrictness(root: JsonNode, text: string, place: Placer, flagged: ReadonlySet<string>): ArtifactProblem[] {
  const out: ArtifactProblem[] = [];
  const duplicates = (node: JsonNode | undefined, fields: readonly string[], path: readonly (string | number)[]): void => {
    if (node?.type !== 'object') return;
    const seen = new Set<string>();
    for (const property of node.children ?? []) {
      const key = property.children?.[0];
      if (typeof key?.value !== 'string' || !fields.includes(key.value)) continue;
      if (!seen.has(key.value)) {
        seen.add(key.value);
        continue;
      }
      const field = formatPathOf([...path, key.value]);
      out.push(
        problem(
          place(key.offset, key.offset + key.length),
          'invalid_training_example',
          'error',
          `Invalid training example: \`${field}\` is written twice: upstream's reader (serde) refuses a duplicate field.`,
          { field },
        ),
      );
    }
  };
  duplicates(root, STRUCT_FIELDS.example, []);
  const messages = nodeAt(root, ['messages']);
  if (messages?.type === 'array') {
    for (const [i, message] of (messages.children ?? []).entries()) {
      duplicates(message, STRUCT_FIELDS.message, ['messages', i]);
      const calls = nodeAt(message, ['tool_calls']);
      if (calls?.type !== 'array') continue;
      for (const [j, call] of (calls.children ?? []).entries()) {
        duplicates(call, STRUCT_FIELDS.toolCall, ['messages', i, 'tool_calls', j]);
        duplicates(nodeAt(call, ['function']), STRUCT_FIELDS.function, ['messages', i, 'tool_calls', j, 'function']);
      }
    }
  }
  duplicates(nodeAt(root, ['provenance']), STRUCT_FIELDS.provenance, ['provenance']);
  duplicates(nodeAt(root, ['provenance', 'usage']), STRUCT_FIELDS.usage, ['provenance', 'usage']);
  duplicates(nodeAt(root, ['provenance', 'source']), STRUCT_FIELDS.source, ['provenance', 'source']);
  for (const path of COUNT_FIELDS) {
    const field = formatPathOf(path);
    const node = nodeAt(root, path);
    if (node?.type !== 'number' || flagged.has(field)) continue;
    // The raw token, not the parsed number: `1.0` parses to 1.
    const raw = text.slice(node.offset, node.offset + node.length);
    if (/^-?(0|[1-9][0-9]*)$/.test(raw)) continue;
    out.push(
      problem(
        place(node.offset, node.offset + node.length),
        'invalid_training_example',
        'error',
        `Invalid training example: \`${field}\` must be an integer written without a fraction or exponent, got ${raw}: serde_json reads it as a float, which a u64 refuses.`,
        { field },
      ),
    );
  }
  return out;
}

/** The facts hovers and the outline need, read leniently from whatever the value holds. */
function exampleFacts(value: JsonObject, root: JsonNode, span: LineSpan, place: Placer, schemaValid: boolean): ExampleFacts {
  const messageNodes = nodeAt(root, ['messages']);
  const messageValues = Array.isArray(value.messages) ? (value.messages as unknown[]) : [];
  const messages: MessageFacts[] = [];
  if (messageNodes?.type === 'array') {
    for (const [index, node] of (messageNodes.children ?? []).entries()) {
      const m = messageValues[index];
      const role = isObject(m) && typeof m.role === 'string' ? m.role : undefined;
      const facts: MessageFacts = { index, role, span: place(node.offset, node.offset + node.length), calls: [] };
      if (isObject(m) && typeof m.tool_call_id === 'string' && role !== 'tool') facts.toolCallId = m.tool_call_id;
      messages.push(facts);
    }
  }
  tracePairing(messageValues, messages);
  const facts: ExampleFacts = { span, schemaValid, messages, toolCount: Array.isArray(value.tools) ? value.tools.length : undefined };
  const provenanceNode = nodeAt(root, ['provenance']);
  const p = value.provenance;
  if (provenanceNode && isObject(p)) {
    const source = isObject(p.source) ? p.source : {};
    const s = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
    const target = provenanceNode.parent?.type === 'property' ? provenanceNode.parent : provenanceNode;
    facts.provenance = {
      span: place(target.offset, target.offset + target.length),
      runId: s(p.run_id),
      sessionId: s(p.session_id),
      provider: s(p.provider),
      model: s(p.model),
      transcriptPath: s(source.transcript_path),
      transcriptSha256: s(source.transcript_sha256),
    };
  }
  return facts;
}

/**
 * Which call each tool message answers and which message answers each call, read on past any violation (the hover
 * shows what is known): a tool message answers an open call of the last assistant turn with its id, when only tool
 * messages lie between them; a second answer to the same call is a duplicate; anything else answers none.
 */
function tracePairing(values: readonly unknown[], messages: MessageFacts[]): void {
  let open: { assistant: number; calls: Map<string, CallFacts> } | undefined;
  const lastCallOf = new Map<string, { assistant: number; name: string }>();
  for (const facts of messages) {
    const m = values[facts.index];
    if (!isObject(m)) {
      open = undefined;
      continue;
    }
    if (facts.role === 'assistant') {
      const calls = new Map<string, CallFacts>();
      for (const call of Array.isArray(m.tool_calls) ? (m.tool_calls as unknown[]) : []) {
        if (!isObject(call)) continue;
        const id = typeof call.id === 'string' ? call.id : '';
        const fn = isObject(call.function) ? call.function : {};
        const entry: CallFacts = { id, name: typeof fn.name === 'string' ? fn.name : '', answeredBy: undefined };
        facts.calls.push(entry);
        if (id !== '' && !calls.has(id)) calls.set(id, entry);
        if (id !== '') lastCallOf.set(id, { assistant: facts.index, name: entry.name });
      }
      open = { assistant: facts.index, calls };
      continue;
    }
    if (facts.role !== 'tool') {
      open = undefined;
      continue;
    }
    const callId = typeof m.tool_call_id === 'string' && m.tool_call_id !== '' ? m.tool_call_id : undefined;
    const call = callId === undefined ? undefined : open?.calls.get(callId);
    if (call && open) {
      facts.answer = { callId, assistantIndex: open.assistant, toolName: call.name };
      if (call.answeredBy === undefined) call.answeredBy = facts.index;
      else facts.answer.duplicateOf = call.answeredBy;
      continue;
    }
    const earlier = callId === undefined ? undefined : lastCallOf.get(callId);
    facts.answer = {
      callId,
      assistantIndex: undefined,
      toolName: undefined,
      reason:
        callId === undefined
          ? 'it carries no tool_call_id'
          : earlier
            ? `${callId} was called by message ${earlier.assistant}, whose results ended before this message`
            : `no assistant turn before it calls ${callId}`,
    };
  }
}

/** Where a pairing violation is said: on its message; past the end, on the last one; with none, on `messages`. */
function pairingSpan(root: JsonNode, facts: ExampleFacts, error: TrainingPairingError, place: Placer): LineSpan {
  const message = facts.messages[Math.min(error.message_index, facts.messages.length - 1)];
  if (message) return message.span;
  const node = nodeAt(root, ['messages']);
  const key = node?.parent?.children?.[0];
  return key ? place(key.offset, key.offset + key.length) : facts.span;
}

/** The messages of a schema-valid example as the pairing rule reads them (serde: null options are None). */
function asTrainingMessages(messages: unknown): TrainingMessage[] {
  const out: TrainingMessage[] = [];
  for (const m of messages as JsonObject[]) {
    const message: TrainingMessage = { role: m.role as string, content: m.content as string };
    if (Array.isArray(m.tool_calls)) message.tool_calls = m.tool_calls as TrainingMessage['tool_calls'];
    if (typeof m.tool_call_id === 'string') message.tool_call_id = m.tool_call_id;
    if (typeof m.name === 'string') message.name = m.name;
    out.push(message);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Paths and nodes.

/** The containers whose members are located (paths with `#` for an array index); any other value is one node. */
const STRUCTURAL = new Set([
  '',
  'messages',
  'messages.#',
  'messages.#.tool_calls',
  'messages.#.tool_calls.#',
  'messages.#.tool_calls.#.function',
  'provenance',
  'provenance.usage',
  'provenance.source',
]);

/**
 * The syntax tree of a valid JSON text (JSON.parse accepted it), as jsonc-parser's parseTree makes it, but with the
 * members only of the example's own structs (STRUCTURAL): message contents, tool arguments and the tool catalog are
 * single nodes, so a large example costs about one tokenizer pass. Iterative (the nesting was bounded before).
 */
function structureOf(text: string): JsonNode | undefined {
  const scanner = createScanner(text, true);
  interface Frame {
    node: JsonNode;
    pattern: string;
    /** The property whose value comes next (objects). */
    property: JsonNode | undefined;
  }
  const stack: Frame[] = [];
  let root: JsonNode | undefined;
  const finish = (node: JsonNode, end: number): void => {
    node.length = end - node.offset;
    const property = node.parent;
    if (property?.type === 'property') property.length = end - property.offset;
  };
  const attach = (node: JsonNode): string => {
    const frame = stack.at(-1);
    if (frame === undefined) {
      root = node;
      return '';
    }
    const parent = frame.property ?? frame.node;
    node.parent = parent;
    (parent.children ??= []).push(node);
    const name = frame.property?.children?.[0]?.value;
    const key = frame.node.type === 'array' ? '#' : typeof name === 'string' ? name : '';
    frame.property = undefined;
    return frame.pattern === '' ? key : `${frame.pattern}.${key}`;
  };
  for (let token = scanner.scan(); token !== SyntaxKind.EOF; token = scanner.scan()) {
    const offset = scanner.getTokenOffset();
    const frame = stack.at(-1);
    switch (token) {
      case SyntaxKind.OpenBraceToken:
      case SyntaxKind.OpenBracketToken: {
        const node: JsonNode = { type: token === SyntaxKind.OpenBraceToken ? 'object' : 'array', offset, length: 0, children: [] };
        const pattern = attach(node);
        if (STRUCTURAL.has(pattern)) {
          stack.push({ node, pattern, property: undefined });
          continue;
        }
        // Not located inside: skipped to its closing bracket.
        for (let depth = 1; depth > 0;) {
          const t = scanner.scan();
          if (t === SyntaxKind.EOF) return root;
          if (t === SyntaxKind.OpenBraceToken || t === SyntaxKind.OpenBracketToken) depth++;
          else if (t === SyntaxKind.CloseBraceToken || t === SyntaxKind.CloseBracketToken) depth--;
        }
        finish(node, scanner.getTokenOffset() + 1);
        continue;
      }
      case SyntaxKind.CloseBraceToken:
      case SyntaxKind.CloseBracketToken:
        stack.pop();
        if (frame) finish(frame.node, offset + 1);
        continue;
      case SyntaxKind.StringLiteral:
        if (frame?.node.type === 'object' && frame.property === undefined) {
          // A key: its property, completed by the value that follows.
          const property: JsonNode = { type: 'property', offset, length: 0, parent: frame.node, children: [] };
          property.children?.push({ type: 'string', value: scanner.getTokenValue(), offset, length: scanner.getTokenLength(), parent: property });
          frame.node.children?.push(property);
          frame.property = property;
          continue;
        }
        break;
      case SyntaxKind.NumericLiteral:
      case SyntaxKind.TrueKeyword:
      case SyntaxKind.FalseKeyword:
      case SyntaxKind.NullKeyword:
        break;
      default:
        continue; // `:` and `,`
    }
    const type =
      token === SyntaxKind.StringLiteral ? 'string' : token === SyntaxKind.NumericLiteral ? 'number' : token === SyntaxKind.NullKeyword ? 'null' : 'boolean';
    // No value: only keys are compared, and a number's raw text is read from the source.
    const node: JsonNode = { type, offset, length: 0 };
    attach(node);
    finish(node, offset + scanner.getTokenLength());
  }
  return root;
}

/** The span of the property at `path` (key through value), else of its deepest existing ancestor. */
function located(root: JsonNode, path: readonly (string | number)[], place: Placer): LineSpan {
  for (let depth = path.length; depth > 0; depth--) {
    const node = nodeAt(root, path.slice(0, depth));
    if (node === undefined) continue;
    const target = node.parent?.type === 'property' ? node.parent : node;
    return place(target.offset, target.offset + target.length);
  }
  return place(root.offset, root.offset + root.length);
}

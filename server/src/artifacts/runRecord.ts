// Run records (spec/harn-artifacts.md §2): recognising them, reading them with the position of every value the
// verification needs, computing what a transcript descriptor states from the transcript's bytes, and verifying
// each `llm_jsonl` descriptor against the transcript on disk. The error kinds are upstream's
// (`verified_llm_transcript_pointer_path`, orchestration/records/transcript_descriptor.rs) and are used as
// diagnostic codes, plus codes of our own for the descriptor fields upstream does not re-check:
//
//   byte_len_mismatch       byte_len differs from the file's length (upstream folds this into digest_mismatch)
//   event_count_mismatch    event_count differs from the number of non-blank rows
//   completeness_mismatch   complete differs from "the transcript has a terminal row"
//   descriptor_field_mismatch  session_id, first/last_event_type, first/last_event_id, terminal_status,
//                           effective_tool_format or tool_schema_hash differs (`data.field` names it)
//   malformed_json          the run record is not JSON
//   invalid_run_record      the run record's shape differs from upstream's structs (zod)
//
// Upstream stops at the first error; here every independent disagreement is reported, each on the descriptor
// field that disagrees. Upstream reads every struct with `#[serde(default)]`, so an absent field reads as its
// default ("" / 0 / false / null) and is compared as such; the diagnostic then sits on the `descriptor` key.
// Positions are 0-based lines and UTF-16 characters into the text as given (a BOM counts as one character).
// The diagnostics' source (`harn.artifacts`) is added by the caller.

import { isUtf8 } from 'node:buffer';
import { createHash, type Hash } from 'node:crypto';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { parseTree, printParseErrorCode, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import { z } from 'zod';
import { LineIndex } from '../text/lineIndex';
import {
  consumeBytes,
  consumeFile,
  consumeFileSync,
  notRegularReason,
  type ByteConsumer,
  type CancellationLike,
  type Consumed,
  type KindStats,
  type ReadRequest,
  type Refusal,
} from '../workspace/files';
import { effectiveMaxLineBytes, firstInvalidUtf8 } from './jsonl';
import { hasOwn, isObject, type JsonObject } from './json';
import { JSON_NESTING_LIMIT, jsonNestingLimitAt, nestingLimitMessage } from './jsonNesting';
import { TERMINAL_ROW_TYPES } from './schemas';
import type { ArtifactProblem, ArtifactSeverity, LineSpan } from './types';

export const DESCRIPTOR_SCHEMA_VERSION = 'harn.llm_transcript_artifact.v1';
export const LLM_JSONL = 'llm_jsonl';

// ---------------------------------------------------------------------------------------------------------------
// Recognition.

/** The last segment of a path or URI (either separator). */
function baseName(fileName: string): string {
  const cut = Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\'));
  return fileName.slice(cut + 1);
}

/** The text with a leading BOM read as a space, so that every offset stays an offset into `text`. */
function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? ' ' + text.slice(1) : text;
}

/** The top-level `_type` of a JSON object text: a string, `null` when absent or not a string, undefined if no object. */
function topLevelType(text: string): string | null | undefined {
  // Nested past serde_json's limit: only the part before that point is parsed (jsonc-parser recurses per level).
  const tooDeep = jsonNestingLimitAt(text);
  const root = parseTree(withoutBom(tooDeep < 0 ? text : text.slice(0, tooDeep)), [], { disallowComments: true });
  if (!root || root.type !== 'object') return undefined;
  const type = child(root, '_type');
  return type && type.type === 'string' && typeof type.value === 'string' ? type.value : null;
}

/**
 * Whether a file is a run record: `run.json` or `*.run.json` (unless its top-level `_type` names another
 * artifact), or any `.json` file whose top-level `_type` is "run_record". Names compare case-insensitively.
 */
export function isRunRecord(fileName: string, text: string): boolean {
  const name = baseName(fileName).toLowerCase();
  if (name === 'run.json' || name.endsWith('.run.json')) {
    const type = topLevelType(text);
    return type === undefined || type === null || type === 'run_record';
  }
  if (!name.endsWith('.json')) return false;
  // Cheap rejection before parsing.
  if (!/"_type"\s*:\s*"run_record"/.test(text)) return false;
  return topLevelType(text) === 'run_record';
}

// ---------------------------------------------------------------------------------------------------------------
// Schema: upstream's structs (orchestration/records/types.rs). Every field may be absent (`#[serde(default)]`),
// `Option<T>` may be null, plain `String`/`Vec`/numbers may not; unknown fields are accepted.

const str = z.string({ error: 'a string' });
const optStr = z.string({ error: 'a string or null' }).nullable();
const uint = z.number({ error: 'a non-negative integer' }).int({ error: 'a non-negative integer' }).nonnegative({ error: 'a non-negative integer' });
const int = z.number({ error: 'an integer' }).int({ error: 'an integer' });
const num = z.number({ error: 'a number' });
const bool = z.boolean({ error: 'true or false' });
const strings = z.array(str, { error: 'an array of strings' });
const map = z.record(z.string(), z.unknown(), { error: 'an object' });
const anyObjects = z.array(z.looseObject({}, { error: 'an object' }), { error: 'an array' });

/** A loose object whose fields are all optional. */
function struct<T extends z.ZodRawShape>(shape: T) {
  return z.looseObject(shape, { error: 'an object' }).partial();
}

const UsageSchema = struct({
  input_tokens: int,
  output_tokens: int,
  total_duration_ms: int,
  call_count: int,
  total_cost: num,
  models: strings,
});

const StageSchema = struct({
  id: str,
  node_id: str,
  kind: str,
  status: str,
  outcome: str,
  branch: optStr,
  started_at: str,
  finished_at: optStr,
  visible_text: optStr,
  private_reasoning: optStr,
  transcript: z.unknown(),
  verification: z.unknown(),
  usage: UsageSchema.nullable(),
  artifacts: anyObjects,
  consumed_artifact_ids: strings,
  produced_artifact_ids: strings,
  attempts: z.array(
    struct({
      attempt: uint,
      status: str,
      outcome: str,
      branch: optStr,
      error: optStr,
      verification: z.unknown(),
      started_at: str,
      finished_at: optStr,
    }),
    { error: 'an array' },
  ),
  metadata: map,
});

const TransitionSchema = struct({
  id: str,
  from_stage_id: optStr,
  from_node_id: optStr,
  to_node_id: str,
  branch: optStr,
  timestamp: str,
  consumed_artifact_ids: strings,
  produced_artifact_ids: strings,
});

const CheckpointSchema = struct({
  id: str,
  ready_nodes: strings,
  completed_nodes: strings,
  last_stage_id: optStr,
  persisted_at: str,
  reason: str,
});

export const TranscriptDescriptorSchema = struct({
  schema_version: str,
  artifact_kind: str,
  run_id: str,
  session_id: optStr,
  path: str,
  relative_path: optStr,
  sha256: str,
  byte_len: uint,
  event_count: uint,
  first_event_type: optStr,
  first_event_id: optStr,
  last_event_type: optStr,
  last_event_id: optStr,
  complete: bool,
  terminal_status: optStr,
  effective_tool_format: optStr,
  tool_schema_hash: optStr,
});

export const TranscriptPointerSchema = struct({
  id: str,
  label: str,
  kind: str,
  location: str,
  path: optStr,
  available: bool,
  verification_status: str,
  verification_error: optStr,
  descriptor: TranscriptDescriptorSchema.nullable(),
});

export const RunObservabilitySchema = struct({
  schema_version: uint,
  planner_rounds: anyObjects,
  research_fact_count: uint,
  action_graph_nodes: anyObjects,
  action_graph_edges: anyObjects,
  worker_lineage: anyObjects,
  verification_outcomes: anyObjects,
  transcript_pointers: z.array(TranscriptPointerSchema, { error: 'an array' }),
  compaction_events: anyObjects,
  daemon_events: anyObjects,
});

export const RunRecordSchema = struct({
  _type: z.literal('run_record', { error: 'the string "run_record"' }),
  id: str,
  workflow_id: str,
  workflow_name: optStr,
  task: str,
  status: str,
  started_at: str,
  finished_at: optStr,
  parent_run_id: optStr,
  root_run_id: optStr,
  stages: z.array(StageSchema, { error: 'an array' }),
  transitions: z.array(TransitionSchema, { error: 'an array' }),
  checkpoints: z.array(CheckpointSchema, { error: 'an array' }),
  pending_nodes: strings,
  completed_nodes: strings,
  child_runs: anyObjects,
  artifacts: anyObjects,
  handoffs: anyObjects,
  policy: map,
  execution: map.nullable(),
  transcript: z.unknown(),
  usage: UsageSchema.nullable(),
  replay_fixture: map.nullable(),
  observability: RunObservabilitySchema.nullable(),
  trace_spans: anyObjects,
  tool_recordings: anyObjects,
  hitl_questions: anyObjects,
  persona_runtime: anyObjects,
  metadata: map,
  persisted_path: optStr,
});

export type RunRecord = z.infer<typeof RunRecordSchema>;
export type TranscriptDescriptor = z.infer<typeof TranscriptDescriptorSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Parsing with positions.

export const DESCRIPTOR_FIELDS = [
  'schema_version',
  'artifact_kind',
  'run_id',
  'session_id',
  'path',
  'relative_path',
  'sha256',
  'byte_len',
  'event_count',
  'first_event_type',
  'first_event_id',
  'last_event_type',
  'last_event_id',
  'complete',
  'terminal_status',
  'effective_tool_format',
  'tool_schema_hash',
] as const;
export type DescriptorField = (typeof DESCRIPTOR_FIELDS)[number];

export const POINTER_FIELDS = ['id', 'label', 'kind', 'location', 'path', 'available', 'verification_status', 'verification_error', 'descriptor'] as const;
export type PointerField = (typeof POINTER_FIELDS)[number];

/** A JSON value in the text: its value, and the range of its source (strings include their quotes). */
export interface Located {
  value: unknown;
  offset: number;
  length: number;
  span: LineSpan;
}

export interface LocatedDescriptor {
  /** The descriptor object. */
  span: LineSpan;
  /** The `"descriptor"` key: where problems about absent fields go. */
  keySpan: LineSpan;
  fields: Partial<Record<DescriptorField, Located>>;
}

export interface LocatedPointer {
  /** Index in `observability.transcript_pointers`. */
  index: number;
  span: LineSpan;
  fields: Partial<Record<PointerField, Located>>;
  /** Present when `descriptor` is an object. */
  descriptor?: LocatedDescriptor;
}

export interface ParsedRunRecord {
  /** The JSON value (undefined when the text is not JSON). */
  value: unknown;
  /** The value as a RunRecord when its shape is valid. */
  record: RunRecord | undefined;
  /** The top-level `id`. */
  id?: Located;
  /** Every pointer of kind `llm_jsonl`, in order. */
  pointers: LocatedPointer[];
  /** JSON syntax problems (`malformed_json`), else schema problems (`invalid_run_record`). */
  problems: ArtifactProblem[];
}

/** The last property named `key` of an object node (JSON.parse and serde_json keep the last duplicate). */
function property(node: JsonNode | undefined, key: string): JsonNode | undefined {
  if (!node || node.type !== 'object' || !node.children) return undefined;
  for (let i = node.children.length - 1; i >= 0; i--) {
    const p = node.children[i];
    if (p?.children?.[0]?.value === key) return p;
  }
  return undefined;
}

function child(node: JsonNode | undefined, segment: PropertyKey): JsonNode | undefined {
  if (!node) return undefined;
  if (typeof segment === 'number') return node.type === 'array' ? node.children?.[segment] : undefined;
  if (typeof segment === 'string') return property(node, segment)?.children?.[1];
  return undefined;
}

function nodeValue(node: JsonNode): unknown {
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const p of node.children ?? []) {
        const [k, v] = p.children ?? [];
        if (k && v && typeof k.value === 'string') {
          Object.defineProperty(out, k.value, { value: nodeValue(v), enumerable: true, writable: true, configurable: true });
        }
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map(nodeValue);
    default: {
      const v: unknown = node.value;
      return v;
    }
  }
}

const SYNTAX_MESSAGES: Record<string, string> = {
  InvalidSymbol: 'invalid symbol',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'a property name is expected',
  ValueExpected: 'a value is expected',
  ColonExpected: 'a colon is expected',
  CommaExpected: 'a comma is expected',
  CloseBraceExpected: 'a closing brace is expected',
  CloseBracketExpected: 'a closing bracket is expected',
  EndOfFileExpected: 'the end of the file is expected',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in a string',
};

function jsonTypeName(node: JsonNode | undefined): string {
  if (!node) return 'absent';
  switch (node.type) {
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    case 'null':
      return 'null';
    default: {
      const raw = JSON.stringify(node.value) ?? String(node.value);
      return raw.length > 40 ? `${node.type} ${raw.slice(0, 37)}…` : raw;
    }
  }
}

function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const s of path) out += typeof s === 'number' ? `[${s}]` : out ? `.${String(s)}` : String(s);
  return out;
}

class Spans {
  private readonly index: LineIndex;
  constructor(text: string) {
    this.index = new LineIndex(text);
  }
  of(offset: number, length: number): LineSpan {
    const start = this.index.positionAt(offset);
    const end = this.index.positionAt(offset + length);
    return { line: start.line, startCharacter: start.character, endLine: end.line, endCharacter: end.character };
  }
  node(node: JsonNode): LineSpan {
    return this.of(node.offset, node.length);
  }
  located(node: JsonNode): Located {
    return { value: nodeValue(node), offset: node.offset, length: node.length, span: this.node(node) };
  }
}

function problem(span: LineSpan, code: string, message: string, severity: ArtifactSeverity = 'error', data?: Record<string, unknown>): ArtifactProblem {
  const p: ArtifactProblem = { ...span, code, severity, message };
  if (data) p.data = data;
  return p;
}

function byPosition(a: ArtifactProblem, b: ArtifactProblem): number {
  return a.line - b.line || a.startCharacter - b.startCharacter; // stable: ties keep the order of discovery
}

/** Reads a run record: its value, the position of every value verification needs, and syntax or schema problems. */
export function parseRunRecord(text: string): ParsedRunRecord {
  const spans = new Spans(text);
  const tooDeep = jsonNestingLimitAt(text);
  if (tooDeep >= 0) {
    const refused = problem(spans.of(tooDeep, 1), 'nesting_too_deep', nestingLimitMessage('run records'));
    return { value: undefined, record: undefined, pointers: [], problems: [refused] };
  }
  const errors: ParseError[] = [];
  const root = parseTree(withoutBom(text), errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length || !root) {
    const problems: ArtifactProblem[] = [];
    const offsets = new Set<number>();
    for (const e of errors) {
      if (offsets.has(e.offset)) continue; // one error per place (a trailing comma reports two)
      offsets.add(e.offset);
      const name = printParseErrorCode(e.error);
      problems.push(problem(spans.of(e.offset, e.length), 'malformed_json', `The run record is not JSON: ${SYNTAX_MESSAGES[name] ?? name}.`));
    }
    if (!problems.length) problems.push(problem(spans.of(0, 0), 'malformed_json', 'The run record is empty.'));
    return { value: undefined, record: undefined, pointers: [], problems };
  }

  const value = nodeValue(root);
  const problems: ArtifactProblem[] = [];
  const parsed = RunRecordSchema.safeParse(value);
  if (!parsed.success) {
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      // The deepest node that exists on the issue's path.
      let node: JsonNode = root;
      let found = true;
      for (const segment of issue.path) {
        const next = child(node, segment);
        if (!next) {
          found = false;
          break;
        }
        node = next;
      }
      const subject = issue.path.length ? `\`${pathText(issue.path)}\`` : 'The run record';
      const message =
        issue.code === 'invalid_type' || issue.code === 'too_small' || issue.code === 'invalid_value'
          ? `${subject} should be ${issue.message}, not ${jsonTypeName(found ? node : undefined)}.`
          : `${subject}: ${issue.message}.`;
      const key = `${node.offset}:${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push(problem(spans.node(node), 'invalid_run_record', message));
    }
  }

  const idNode = child(root, 'id');
  const pointers: LocatedPointer[] = [];
  const list = child(child(root, 'observability'), 'transcript_pointers');
  if (list && list.type === 'array') {
    (list.children ?? []).forEach((item, index) => {
      if (item.type !== 'object') return;
      const kind = child(item, 'kind');
      if (!kind || kind.value !== LLM_JSONL) return;
      const fields: Partial<Record<PointerField, Located>> = {};
      for (const f of POINTER_FIELDS) {
        const n = child(item, f);
        if (n) fields[f] = spans.located(n);
      }
      const pointer: LocatedPointer = { index, span: spans.node(item), fields };
      const descriptorProperty = property(item, 'descriptor');
      const descriptorKey = descriptorProperty?.children?.[0];
      const descriptorNode = descriptorProperty?.children?.[1];
      if (descriptorKey && descriptorNode && descriptorNode.type === 'object') {
        const dfields: Partial<Record<DescriptorField, Located>> = {};
        for (const f of DESCRIPTOR_FIELDS) {
          const n = child(descriptorNode, f);
          if (n) dfields[f] = spans.located(n);
        }
        pointer.descriptor = { span: spans.node(descriptorNode), keySpan: spans.node(descriptorKey), fields: dfields };
      }
      pointers.push(pointer);
    });
  }

  const result: ParsedRunRecord = { value, record: parsed.success ? parsed.data : undefined, pointers, problems: problems.sort(byPosition) };
  if (idNode) result.id = spans.located(idNode);
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// Transcript facts: what upstream's `describe_llm_transcript_sidecar` computes, streamed by lines.

export type TranscriptScanErrorKind = 'invalid_utf8' | 'malformed_jsonl' | 'empty_transcript' | 'line_too_long';

export interface TranscriptScanError {
  kind: TranscriptScanErrorKind;
  message: string;
  /** 1-based physical line (invalid_utf8, malformed_jsonl, line_too_long). */
  line?: number;
  /** 0-based byte offset of the first invalid byte (invalid_utf8), or of the line (line_too_long). */
  byteOffset?: number;
}

/** What a descriptor states about a transcript, in the descriptor's own field names. */
export interface TranscriptFacts {
  sha256: string;
  byte_len: number;
  event_count: number;
  first_event_type: string | null;
  first_event_id: string | null;
  last_event_type: string | null;
  last_event_id: string | null;
  complete: boolean;
  terminal_status: string | null;
  session_id: string | null;
  effective_tool_format: string | null;
  tool_schema_hash: string | null;
  /**
   * Why upstream's rescan fails, if it does (invalid UTF-8 anywhere wins over a malformed row, as upstream decodes
   * the whole file first), or why the rows could not be read (`line_too_long`: a line over maxLineBytes is never
   * decoded, so neither its UTF-8 nor its JSON is checked, and it stops the rows as a malformed row does). With an
   * error only `sha256` and `byte_len` describe the file (they cover every byte); the other facts stop at the
   * first malformed or unread row.
   */
  error: TranscriptScanError | null;
}

/**
 * serde_json's `get(a).or_else(get(b))…`: the value of the first key present (even if null), not the first string.
 * Upstream's descriptor is computed this way, so the facts checked against it are too (rows.ts has the spec's
 * "first string" identity used everywhere else).
 */
function firstPresent(row: JsonObject, keys: readonly string[]): unknown {
  for (const k of keys) if (hasOwn(row, k)) return row[k];
  return undefined;
}

/** Rust's `char::is_whitespace` (White_Space): unlike JS's trim, U+0085 is whitespace and U+FEFF is not. */
export function isRustWhitespace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x20 ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** Rust's `str::trim`, which upstream applies to each line before parsing it (and skips the line if empty). */
export function rustTrim(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isRustWhitespace(s.charCodeAt(start))) start++;
  while (end > start && isRustWhitespace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

const U64_MAX = 18446744073709551615n;
const I64_MIN_MAGNITUDE = 9223372036854775808n;

/** serde_json's text for a finite f64 (ryu's shortest form: `1.0`, `1e20`, `0.001`, `1.5e-7`). */
function serdeFloatText(n: number): string {
  if (!Number.isFinite(n)) return 'null';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const sign = n < 0 ? '-' : '';
  const [mantissa = '', exponent = ''] = Math.abs(n).toExponential().split('e'); // toExponential always has both
  const digits = mantissa.replace('.', '');
  const length = digits.length;
  const kk = Number(exponent) + 1; // the value is 0.<digits> × 10^kk
  if (kk >= length && kk <= 16) return sign + digits + '0'.repeat(kk - length) + '.0';
  if (kk > 0 && kk <= 16) return sign + digits.slice(0, kk) + '.' + digits.slice(kk);
  if (kk > -5 && kk <= 0) return sign + '0.' + '0'.repeat(-kk) + digits;
  if (length === 1) return sign + digits + 'e' + (kk - 1);
  return sign + digits[0] + '.' + digits.slice(1) + 'e' + (kk - 1);
}

/** serde_json's `Number::to_string` for a JSON number token: integers in u64/i64 range verbatim, else as f64. */
export function serdeNumberText(raw: string): string {
  if (/^-?(0|[1-9][0-9]*)$/.test(raw)) {
    const negative = raw.startsWith('-');
    const magnitude = BigInt(negative ? raw.slice(1) : raw);
    if (!negative && magnitude <= U64_MAX) return raw;
    if (negative && magnitude > 0n && magnitude <= I64_MIN_MAGNITUDE) return raw;
  }
  return serdeFloatText(Number(raw));
}

/** The source text of the last top-level `key` of a JSON object text. */
function rawTopLevelValue(text: string, key: string): string | undefined {
  const node = child(parseTree(text, []), key);
  return node ? text.slice(node.offset, node.offset + node.length) : undefined;
}

/** Upstream's `tool_schemas.hash` as a string: strings as they are, numbers as serde_json prints them. */
function toolSchemaHash(row: JsonObject, line: string): string | null {
  if (!hasOwn(row, 'hash')) return null;
  const v = row.hash;
  let s: string;
  if (typeof v === 'string') s = v;
  else if (typeof v === 'number') s = serdeNumberText(rawTopLevelValue(line, 'hash') ?? String(v));
  else s = JSON.stringify(v); // null, booleans; objects and arrays approximately (serde sorts keys)
  return s === '' ? null : s;
}

/** What the rows of a transcript say, line by line (the bytes are split, hashed and held by transcriptConsumer). */
class FactsBuilder {
  /** Given every parsed row in order with its 1-based row number (a caller that replays the rows keeps them). */
  constructor(private readonly onRow?: RowSink) {}
  private lineNumber = 0;
  private utf8Error: TranscriptScanError | null = null;
  /** The first malformed row (upstream stops there) or unread line. */
  private rowError: TranscriptScanError | null = null;
  private readonly facts: Omit<TranscriptFacts, 'sha256' | 'byte_len' | 'error'> = {
    event_count: 0,
    first_event_type: null,
    first_event_id: null,
    last_event_type: null,
    last_event_id: null,
    complete: false,
    terminal_status: null,
    session_id: null,
    effective_tool_format: null,
    tool_schema_hash: null,
  };

  finish(sha256: string, byteLen: number): TranscriptFacts {
    let error = this.utf8Error ?? this.rowError;
    if (!error && this.facts.event_count === 0) {
      error = { kind: 'empty_transcript', message: 'it contains no JSONL events' };
    }
    return { sha256, byte_len: byteLen, ...this.facts, error };
  }

  /** A line over the limit: never decoded, so the rows stop here (its UTF-8 is not checked either). */
  tooLong(lineStart: number, length: number, maxLineBytes: number): void {
    const lineNumber = ++this.lineNumber;
    if (this.utf8Error || this.rowError) return;
    this.rowError = {
      kind: 'line_too_long',
      message: `line ${lineNumber} is ${length} bytes long, over the limit of ${maxLineBytes} bytes (harn.artifacts.maxLineBytes), so it is not read and the rows are not checked`,
      line: lineNumber,
      byteOffset: lineStart,
    };
  }

  line(bytes: Uint8Array, lineStart: number): void {
    const lineNumber = ++this.lineNumber;
    if (this.utf8Error) return;
    let text: string;
    // isUtf8 + toString (both SIMD in Node) is several times faster than a fatal TextDecoder; a BOM is kept by both.
    if (isUtf8(bytes)) {
      text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    } else {
      const at = lineStart + Math.max(0, firstInvalidUtf8(bytes));
      this.utf8Error = { kind: 'invalid_utf8', message: `byte ${at} (line ${lineNumber}) is not UTF-8`, line: lineNumber, byteOffset: at };
      return;
    }
    if (this.rowError) return; // upstream stops at the first malformed row; only UTF-8 is still checked
    const trimmed = rustTrim(text);
    if (!trimmed) return;
    const tooDeep = jsonNestingLimitAt(trimmed);
    if (tooDeep >= 0) {
      // serde_json's own words, with its 1-based column (of the trimmed line, as upstream parses it).
      const message = `line ${lineNumber} is not JSON: recursion limit exceeded at column ${tooDeep + 1} (serde_json's nesting limit of ${JSON_NESTING_LIMIT})`;
      this.rowError = { kind: 'malformed_jsonl', message, line: lineNumber };
      return;
    }
    let row: unknown;
    try {
      row = JSON.parse(trimmed);
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      this.rowError = { kind: 'malformed_jsonl', message: `line ${lineNumber} is not JSON: ${reason}`, line: lineNumber };
      return;
    }
    this.row(row, trimmed);
  }

  private row(row: unknown, text: string): void {
    const f = this.facts;
    const ordinal = ++f.event_count;
    this.onRow?.(row, ordinal);
    const object = isObject(row) ? row : undefined;
    const type = object && typeof object.type === 'string' ? object.type : '';
    const idValue = object ? firstPresent(object, ['id', 'event_id', 'call_id']) : undefined;
    const id = typeof idValue === 'string' ? idValue : `row:${ordinal}`;
    if (f.first_event_type === null) {
      f.first_event_type = type;
      f.first_event_id = id;
    }
    f.last_event_type = type;
    f.last_event_id = id;
    if (!object) return;
    if (f.session_id === null && typeof object.session_id === 'string') f.session_id = object.session_id;
    if (f.effective_tool_format === null && typeof object.tool_format === 'string' && object.tool_format !== '') {
      f.effective_tool_format = object.tool_format;
    }
    if (type === 'tool_schemas') f.tool_schema_hash = toolSchemaHash(object, text);
    if (TERMINAL_ROW_TYPES.has(type) || object.terminal === true) {
      f.complete = true;
      const status = firstPresent(object, ['final_status', 'status', 'stop_reason']);
      f.terminal_status = typeof status === 'string' ? status : type;
    }
  }
}

/** Bytes of one line held while a file is read; a longer line within the limit is read again by its range. */
const HOLD_BYTES = 16 * 1024 * 1024;
const EMPTY = new Uint8Array(0);

/**
 * Computes a transcript's facts as a byte consumer (workspace/files.ts): every byte hashed as it comes, lines split
 * on LF bytes (a chunk boundary may fall anywhere). A line is held in memory up to `holdBytes`; a longer one is
 * only measured, then read again by its range if it is within `maxLineBytes`, and never read if it is over.
 */
function* transcriptConsumer(maxLineBytes: number, holdBytes: number, onRow?: RowSink): ByteConsumer<TranscriptFacts> {
  const builder = new FactsBuilder(onRow);
  const hash: Hash = createHash('sha256');
  let byteLen = 0;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let held = true;
  let lineStart = 0;
  const digest = (): string => `sha256:${hash.digest('hex')}`;

  // The line ending at chunk[stop] (exclusive); false when its range could not be read again.
  function* endLine(chunk: Uint8Array, start: number, stop: number, terminated: boolean): Generator<ReadRequest, boolean, Uint8Array | undefined> {
    const length = pendingBytes + stop - start;
    const at = lineStart;
    lineStart += length + (terminated ? 1 : 0);
    let bytes: Uint8Array | undefined;
    if (length > maxLineBytes) {
      bytes = undefined;
    } else if (!held) {
      bytes = yield { read: 'range', start: at, length };
      if (bytes === undefined) return false;
    } else if (pendingBytes > 0) {
      pending.push(chunk.subarray(start, stop));
      bytes = Buffer.concat(pending, length);
    } else {
      bytes = chunk.subarray(start, stop);
    }
    pending = [];
    pendingBytes = 0;
    held = true;
    if (bytes === undefined) builder.tooLong(at, length, maxLineBytes);
    else builder.line(bytes, at);
    return true;
  }

  for (let chunk = yield { read: 'next' }; chunk !== undefined; chunk = yield { read: 'next' }) {
    if (!chunk.length) continue;
    hash.update(chunk);
    byteLen += chunk.length;
    let start = 0;
    for (let lf = chunk.indexOf(10, start); lf >= 0; lf = chunk.indexOf(10, start)) {
      if (!(yield* endLine(chunk, start, lf, true))) return builder.finish(digest(), byteLen);
      start = lf + 1;
    }
    if (start < chunk.length) {
      pendingBytes += chunk.length - start;
      if (held && pendingBytes > holdBytes) {
        held = false;
        pending = [];
      }
      // A copy (Buffer#slice would be a view): the caller may reuse the chunk.
      if (held) pending.push(new Uint8Array(chunk.subarray(start)));
    }
  }
  if (pendingBytes > 0) yield* endLine(EMPTY, 0, 0, false);
  return builder.finish(digest(), byteLen);
}

/** Receives each parsed row (JSON value) with its 1-based row number (the count of non-blank lines). */
export type RowSink = (row: unknown, rowNumber: number) => void;

export interface TranscriptScanOptions {
  /** Lines longer than this are not read (`line_too_long`); default DEFAULT_MAX_LINE_BYTES. */
  maxLineBytes?: number;
  /** Every row parsed by the scan, so that a caller that replays them reads and parses the file only once. */
  onRow?: RowSink;
}

/** The transcript scan as a byte consumer (for RunRecordFs.consume / workspace/files.ts consumeFile). */
export function transcriptFactsConsumer(options: TranscriptScanOptions = {}): ByteConsumer<TranscriptFacts> {
  return transcriptConsumer(effectiveMaxLineBytes(options.maxLineBytes), HOLD_BYTES, options.onRow);
}

/**
 * Computes a transcript's facts from chunks of its bytes pushed to it, line by line (split on LF bytes, so a chunk
 * boundary may fall anywhere). Memory holds one chunk plus the longest line within maxLineBytes (a longer line is
 * dropped as it comes). A chunk may be reused by the caller after `update`.
 */
export class TranscriptScanner {
  private readonly consumer: ByteConsumer<TranscriptFacts>;
  private result: TranscriptFacts | undefined;

  constructor(options: TranscriptScanOptions = {}) {
    const limit = effectiveMaxLineBytes(options.maxLineBytes);
    // Lines are held up to the limit itself, so no range is ever asked for: pushed bytes cannot be read again.
    this.consumer = transcriptConsumer(limit, limit);
    this.consumer.next();
  }

  update(chunk: Uint8Array): void {
    if (chunk.length) this.answer(chunk);
  }

  finish(): TranscriptFacts {
    let facts = this.result;
    while (facts === undefined) facts = this.answer(undefined);
    return facts;
  }

  private answer(data: Uint8Array | undefined): TranscriptFacts | undefined {
    if (this.result) return this.result;
    const step = this.consumer.next(data);
    if (step.done) this.result = step.value;
    return this.result;
  }
}

/** A transcript's facts from its bytes (fed to the scanner in slices, so it holds no copy of the whole text). */
export function transcriptFacts(bytes: Uint8Array, chunkSize = 1 << 20, options: TranscriptScanOptions = {}): TranscriptFacts {
  return consumeBytes(bytes, transcriptFactsConsumer(options), chunkSize);
}

/** A file's consumer result, or the reason it could not be read (a FIFO, a folder, a read error) as an Error. */
function consumedOrError<R>(read: Consumed<R> | Refusal): R | Error {
  if (!read.ok) return new Error(read.reason);
  if (read.readError !== undefined) return new Error(read.readError);
  return read.value;
}

/**
 * A transcript's facts, streamed from a file (opened without following a final symbolic link; only a regular
 * file is read). Throws an Error saying why when it cannot be read.
 */
export function transcriptFactsFromFile(path: string, chunkSize = 1 << 20, options: TranscriptScanOptions = {}): TranscriptFacts {
  const facts = consumedOrError(consumeFileSync(path, transcriptFactsConsumer(options), { chunkBytes: chunkSize, noFollow: true }));
  if (facts instanceof Error) throw facts;
  return facts;
}

/**
 * A transcript's facts read asynchronously (the server: chunks of other work in between); an Error saying why it
 * cannot be read; undefined once cancelled.
 */
export async function transcriptFactsAsync(
  path: string,
  options: TranscriptScanOptions & { token?: CancellationLike } = {},
): Promise<TranscriptFacts | Error | undefined> {
  const read = await consumeFile(path, transcriptFactsConsumer(options), { noFollow: true, token: options.token });
  if (!read.ok && 'cancelled' in read) return undefined;
  return consumedOrError(read);
}

// ---------------------------------------------------------------------------------------------------------------
// Verification.

export interface FileStat extends KindStats {
  size: number;
  mtimeMs: number;
}

/** The file system as verification sees it (injected so tests can fake and spy on it). */
export interface RunRecordFs {
  /** The canonical path (symbolic links resolved); throws when a component does not exist. */
  realpath(path: string): string;
  stat(path: string): FileStat;
  /**
   * Runs a byte consumer over the file (workspace/files.ts: opened without following a final symbolic link, and
   * only if it is a regular file); throws an Error saying why when the file cannot be read.
   */
  consume<R>(path: string, consumer: ByteConsumer<R>): R;
}

export const nodeRunRecordFs: RunRecordFs = {
  realpath: (p) => nodeFs.realpathSync.native(p),
  stat: (p) => nodeFs.statSync(p),
  consume: (p, consumer) => {
    const value = consumedOrError(consumeFileSync(p, consumer, { noFollow: true }));
    if (value instanceof Error) throw value;
    return value;
  },
};

/** Facts by canonical transcript path, reused while the file's size and mtime stay the same. */
export type TranscriptFactsCache = Map<string, { size: number; mtimeMs: number; facts: TranscriptFacts }>;

/** What is known of a transcript's content: its facts, why it cannot be read, or 'pending' (not known yet). */
export type TranscriptFactsAnswer = TranscriptFacts | Error | 'pending';

export interface VerifyOptions {
  cache?: TranscriptFactsCache;
  /** Transcript lines longer than this are not read (`line_too_long` on the descriptor); default DEFAULT_MAX_LINE_BYTES. */
  maxLineBytes?: number;
  /**
   * Where a transcript's facts come from (default: read now through `fs`, kept in `cache`). For 'pending', the
   * checks that need the file's content are left out of that descriptor: the caller verifies again once known.
   */
  facts?: (file: string, stat: FileStat) => TranscriptFactsAnswer;
  /**
   * How a path on this machine is named in messages (default: as it is, absolute); the CLI names them relative to
   * its root. `data` keeps the absolute paths.
   */
  showPath?: (absolute: string) => string;
}

/** Parses and verifies a run record: syntax and schema problems, then every `llm_jsonl` descriptor. */
export function verifyRunRecord(runRecordPath: string, text: string, fs: RunRecordFs = nodeRunRecordFs, options: VerifyOptions = {}): ArtifactProblem[] {
  const parsed = parseRunRecord(text);
  return [...parsed.problems, ...verifyParsedRunRecord(parsed, runRecordPath, fs, options)].sort(byPosition);
}

/** Verifies every `llm_jsonl` descriptor of a parsed run record against the transcript on disk. */
export function verifyParsedRunRecord(
  parsed: ParsedRunRecord,
  runRecordPath: string,
  fs: RunRecordFs = nodeRunRecordFs,
  options: VerifyOptions = {},
): ArtifactProblem[] {
  const out: ArtifactProblem[] = [];
  if (parsed.value === undefined) return out;
  const runId = parsed.id === undefined ? '' : parsed.id.value;
  for (const pointer of parsed.pointers) verifyPointer(pointer, typeof runId === 'string' ? runId : undefined, runRecordPath, fs, options, out);
  return out.sort(byPosition);
}

/** A value as JSON text ('absent' when undefined). */
const show = (v: unknown): string => {
  if (v === undefined) return 'absent';
  // Declared to return string, JSON.stringify gives undefined for a function or a symbol (never for parsed JSON).
  const json = JSON.stringify(v) as string | undefined;
  if (json !== undefined) return json;
  return typeof v === 'function' || typeof v === 'symbol' ? String(v) : Object.prototype.toString.call(v);
};

/** A descriptor field as upstream reads it: the value, or its serde default when absent; undefined if ill-typed. */
interface Stated<T> {
  value: T;
  span: LineSpan;
  absent: boolean;
}

/** A descriptor field's type as the schema states it (z.infer): present, maybe null. */
type DescriptorValue<F extends DescriptorField> = Exclude<TranscriptDescriptor[F], undefined>;

function stated<F extends DescriptorField>(
  d: LocatedDescriptor,
  field: F,
  check: (v: unknown) => v is DescriptorValue<F>,
  fallback: DescriptorValue<F>,
): Stated<DescriptorValue<F>> | undefined {
  const located = d.fields[field];
  if (!located) return { value: fallback, span: d.keySpan, absent: true };
  return check(located.value) ? { value: located.value, span: located.span, absent: false } : undefined;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isOptString = (v: unknown): v is string | null => typeof v === 'string' || v === null;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';

function looksAbsolute(p: string): boolean {
  return nodePath.posix.isAbsolute(p) || nodePath.win32.isAbsolute(p) || /^[A-Za-z]:/.test(p);
}

/** Whether `target` lies strictly inside `root` (both absolute). */
function inside(root: string, target: string): boolean {
  const rel = nodePath.relative(root, target);
  return rel !== '' && rel !== '..' && !rel.startsWith('..' + nodePath.sep) && !nodePath.isAbsolute(rel);
}

function errorText(e: unknown): string {
  if (e && typeof e === 'object' && 'code' in e && typeof e.code === 'string') return e.code;
  return e instanceof Error ? e.message : String(e);
}

/**
 * `file` is canonical (what is read); `joined` is the path as upstream forms it (the run's folder joined with
 * relative_path, or the absolute path as given), which upstream prints and records.
 */
type Resolution =
  | { ok: true; file: string; joined: string; field: 'relative_path' | 'path'; span: LineSpan }
  | { ok: false; problem: ArtifactProblem; upstream: UpstreamDescriptorError };

/** One of upstream's `LlmTranscriptDescriptorError`s, in upstream's wording. */
export interface UpstreamDescriptorError {
  kind: string;
  message: string;
}

/** Upstream's `resolve_descriptor_path` plus canonical containment: nothing outside the run's folder is read. */
function resolveTranscript(d: LocatedDescriptor, runRecordPath: string, fs: RunRecordFs, showPath: (absolute: string) => string): Resolution {
  const rel = d.fields.relative_path;
  const useRelative = typeof rel?.value === 'string' && rel.value !== '';
  const field = useRelative ? 'relative_path' : 'path';
  const located = useRelative ? rel : d.fields.path;
  const span = located?.span ?? d.keySpan;
  const fail = (code: string, message: string, data?: Record<string, unknown>, upstreamMessage = message): Resolution => ({
    ok: false,
    problem: problem(span, code, message, 'error', data),
    upstream: { kind: code, message: upstreamMessage },
  });
  const traversal = `descriptor ${field} must stay inside the run directory`;
  const raw = located?.value;
  if (typeof raw !== 'string' || raw === '') {
    return fail(
      'missing_path',
      `The descriptor has no relative_path and its path is ${raw === undefined ? 'absent' : show(raw)}: the transcript cannot be located.`,
      undefined,
      'llm_jsonl descriptor has no path',
    );
  }
  if (!nodePath.isAbsolute(runRecordPath)) {
    return fail('invalid_run_path', `The run record's path ${show(showPath(runRecordPath))} is not absolute, so ${field} cannot be resolved.`);
  }
  const folder = nodePath.dirname(runRecordPath);
  const shownFolder = showPath(folder);
  const parts = raw.split(/[\\/]+/);
  if (parts.includes('..')) {
    return fail(
      'path_traversal',
      `${field} ${show(raw)} climbs out with \`..\`; it must stay inside the run's folder ${shownFolder}, and it is not read.`,
      { field, path: raw },
      traversal,
    );
  }
  if (useRelative && looksAbsolute(raw)) {
    return fail(
      'path_traversal',
      `relative_path ${show(raw)} is absolute; it must be relative to the run's folder ${shownFolder}, and it is not read.`,
      { field, path: raw },
      traversal,
    );
  }
  let realFolder: string;
  try {
    realFolder = fs.realpath(folder);
  } catch (e) {
    return fail('invalid_run_path', `The run record's folder ${shownFolder} cannot be resolved (${errorText(e)}), so ${field} cannot be resolved.`);
  }
  let candidate: string;
  let joined: string;
  if (looksAbsolute(raw)) {
    if (!inside(folder, raw) && !inside(realFolder, raw)) {
      return fail('path_traversal', `path ${show(raw)} is outside the run's folder ${shownFolder}; it is not read.`, { field, path: raw }, traversal);
    }
    candidate = raw;
    joined = raw;
  } else {
    // One joined argument, never a spread: a path can have a million segments.
    candidate = nodePath.join(folder, parts.filter((p) => p !== '' && p !== '.').join(nodePath.sep));
    joined = folder.endsWith(nodePath.sep) ? folder + raw : folder + nodePath.sep + raw; // Rust's Path::join, unnormalised
  }
  let file: string;
  try {
    file = fs.realpath(candidate);
  } catch (e) {
    return fail(
      'unavailable',
      `The transcript ${field} points to, ${showPath(candidate)}, cannot be read (${errorText(e)}).`,
      { field, path: candidate },
      `failed to read ${joined}: ${errorText(e)}`,
    );
  }
  if (!inside(realFolder, file)) {
    // Deliberately stricter than upstream, which reads through the link.
    return fail(
      'path_traversal',
      `${field} ${show(raw)} resolves through a symbolic link to ${showPath(file)}, outside the run's folder ${showPath(realFolder)}; it is not read.`,
      { field, path: raw, resolved: file },
      `${traversal} (it resolves through a symbolic link to ${file})`,
    );
  }
  return { ok: true, file, joined, field, span };
}

function scanTranscript(file: string, fs: RunRecordFs, options: VerifyOptions): TranscriptFactsAnswer {
  try {
    const stat = fs.stat(file);
    const reason = notRegularReason(stat);
    if (reason !== undefined) return new Error(reason);
    if (options.facts) return options.facts(file, stat);
    const cache = options.cache;
    const hit = cache?.get(file);
    if (hit && hit.size === stat.size && hit.mtimeMs === stat.mtimeMs) return hit.facts;
    const facts = fs.consume(file, transcriptFactsConsumer(options));
    cache?.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, facts });
    return facts;
  } catch (e) {
    return new Error(errorText(e));
  }
}

/**
 * verifyRunRecord without blocking the event loop (the server): the transcripts the descriptors point to are read
 * asynchronously first (`factsOf`, default transcriptFactsAsync through `cache`), then everything is verified.
 * Undefined once cancelled.
 */
export async function verifyRunRecordAsync(
  runRecordPath: string,
  text: string,
  fs: RunRecordFs = nodeRunRecordFs,
  options: Omit<VerifyOptions, 'facts'> & {
    token?: CancellationLike;
    factsOf?: (file: string, stat: FileStat) => Promise<TranscriptFacts | Error | undefined>;
  } = {},
): Promise<ArtifactProblem[] | undefined> {
  const parsed = parseRunRecord(text);
  const wanted = new Map<string, FileStat>();
  verifyParsedRunRecord(parsed, runRecordPath, fs, {
    facts: (file, stat) => {
      wanted.set(file, stat);
      return 'pending';
    },
  });
  const cache = options.cache;
  const factsOf =
    options.factsOf ??
    (async (file: string, stat: FileStat): Promise<TranscriptFacts | Error | undefined> => {
      const hit = cache?.get(file);
      if (hit && hit.size === stat.size && hit.mtimeMs === stat.mtimeMs) return hit.facts;
      const facts = await transcriptFactsAsync(file, { maxLineBytes: options.maxLineBytes, token: options.token });
      if (facts !== undefined && !(facts instanceof Error)) cache?.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, facts });
      return facts;
    });
  const known = new Map<string, TranscriptFacts | Error>();
  for (const [file, stat] of wanted) {
    const facts = await factsOf(file, stat);
    if (facts === undefined || options.token?.isCancellationRequested) return undefined;
    known.set(file, facts);
  }
  const verified = verifyParsedRunRecord(parsed, runRecordPath, fs, { ...options, facts: (file) => known.get(file) ?? 'pending' });
  return [...parsed.problems, ...verified].sort(byPosition);
}

function verifyPointer(
  pointer: LocatedPointer,
  runId: string | undefined,
  runRecordPath: string,
  fs: RunRecordFs,
  options: VerifyOptions,
  out: ArtifactProblem[],
  upstream?: UpstreamFindings,
): void {
  // Pointers are only collected when they have a `kind` (llm_jsonl); the pointer's span is a formal fallback.
  const kindSpan = pointer.fields.kind?.span ?? pointer.span;
  // 1. Only descriptors the writer verified (complete or not) are trusted.
  const status = pointer.fields.verification_status;
  const statusValue = status === undefined ? '' : status.value;
  if (typeof statusValue !== 'string') return; // a schema problem already
  if (statusValue !== 'verified' && statusValue !== 'incomplete') {
    const error = pointer.fields.verification_error?.value;
    out.push(
      problem(
        status?.span ?? kindSpan,
        'unverified_descriptor',
        `The llm_jsonl pointer's verification_status is ${show(statusValue)}, not "verified" or "incomplete": the writer could not verify the transcript${typeof error === 'string' && error ? ` (${error})` : ''}.`,
        'warning',
        { verification_status: statusValue },
      ),
    );
    upstream?.add('unverified_descriptor', `llm_jsonl transcript pointer status is ${statusValue}`);
    return;
  }
  const d = pointer.descriptor;
  if (!d) {
    const located = pointer.fields.descriptor;
    if (located && located.value !== null) return; // not an object: a schema problem already
    out.push(
      problem(
        located?.span ?? kindSpan,
        'missing_descriptor',
        `The llm_jsonl pointer is ${show(statusValue)} but has no descriptor, so the transcript cannot be verified.`,
      ),
    );
    upstream?.add('missing_descriptor', 'llm_jsonl pointer has no descriptor');
    return;
  }

  // 2. Identity.
  const schema = stated(d, 'schema_version', isString, '');
  if (schema && schema.value !== DESCRIPTOR_SCHEMA_VERSION) {
    out.push(
      problem(
        schema.span,
        'schema_mismatch',
        `schema_version in the descriptor is ${show(schema.absent ? undefined : schema.value)}, expected ${show(DESCRIPTOR_SCHEMA_VERSION)}.`,
        'error',
        {
          field: 'schema_version',
          descriptor: schema.value,
          expected: DESCRIPTOR_SCHEMA_VERSION,
        },
      ),
    );
    upstream?.add('schema_mismatch', `llm_jsonl descriptor schema is ${schema.value}`);
  }
  const kind = stated(d, 'artifact_kind', isString, '');
  if (kind && kind.value !== LLM_JSONL) {
    out.push(
      problem(
        kind.span,
        'artifact_kind_mismatch',
        `artifact_kind in the descriptor is ${show(kind.absent ? undefined : kind.value)}, expected "llm_jsonl".`,
        'error',
        {
          field: 'artifact_kind',
          descriptor: kind.value,
          expected: LLM_JSONL,
        },
      ),
    );
    upstream?.add('artifact_kind_mismatch', `llm_jsonl descriptor artifact kind is ${kind.value}`);
  }
  const descriptorRun = stated(d, 'run_id', isString, '');
  if (descriptorRun && runId !== undefined && descriptorRun.value !== runId) {
    out.push(
      problem(
        descriptorRun.span,
        'run_id_mismatch',
        `run_id in the descriptor is ${show(descriptorRun.absent ? undefined : descriptorRun.value)}, the run record's id is ${show(runId)}.`,
        'error',
        { field: 'run_id', descriptor: descriptorRun.value, actual: runId },
      ),
    );
    upstream?.add('run_id_mismatch', `llm_jsonl descriptor is for run ${descriptorRun.value}, not ${runId}`);
  }

  // 3. The file.
  const showPath = options.showPath ?? ((absolute: string) => absolute);
  const resolved = resolveTranscript(d, runRecordPath, fs, showPath);
  if (!resolved.ok) {
    out.push(resolved.problem);
    upstream?.add(resolved.upstream.kind, resolved.upstream.message);
    return;
  }
  upstream?.resolved(resolved.file, resolved.joined);
  const facts = scanTranscript(resolved.file, fs, options);
  if (facts === 'pending') return;
  if (facts instanceof Error) {
    out.push(
      problem(
        resolved.span,
        'unavailable',
        `The transcript ${resolved.field} points to, ${showPath(resolved.file)}, cannot be read (${facts.message}).`,
        'error',
        {
          field: resolved.field,
          path: resolved.file,
        },
      ),
    );
    upstream?.add('unavailable', `failed to read ${resolved.joined}: ${facts.message}`);
    return;
  }

  // 4. Digest and length (upstream's digest_mismatch covers both).
  const mismatch = (s: Stated<unknown>, code: string, field: DescriptorField, message: string, actual: unknown): void => {
    out.push(problem(s.span, code, message, 'error', { field, descriptor: s.absent ? null : s.value, actual, transcript: resolved.file }));
  };
  const stateText = (s: Stated<unknown>, field: DescriptorField): string =>
    s.absent
      ? `The descriptor has no ${field}`
      : `${field} in the descriptor is ${typeof s.value === 'string' && field === 'sha256' ? s.value : show(s.value)}`;
  const sha = stated(d, 'sha256', isString, '');
  if (sha && sha.value !== facts.sha256) {
    mismatch(sha, 'digest_mismatch', 'sha256', `${stateText(sha, 'sha256')}, the transcript on disk hashes to ${facts.sha256}.`, facts.sha256);
  }
  const byteLen = stated(d, 'byte_len', isCount, 0);
  if (byteLen && byteLen.value !== facts.byte_len) {
    mismatch(
      byteLen,
      'byte_len_mismatch',
      'byte_len',
      `${stateText(byteLen, 'byte_len')}, the transcript on disk is ${facts.byte_len} bytes long.`,
      facts.byte_len,
    );
  }
  if ((sha && sha.value !== facts.sha256) || (byteLen && byteLen.value !== facts.byte_len)) {
    upstream?.add('digest_mismatch', `${resolved.joined} changed since descriptor was written`);
  }

  // 5. Upstream's rescan.
  if (facts.error) {
    upstream?.add(facts.error.kind, upstreamScanMessage(facts.error, resolved.joined));
    const what = { invalid_utf8: 'is not UTF-8', malformed_jsonl: 'is not JSONL', empty_transcript: 'is empty', line_too_long: 'has a line too long to read' }[
      facts.error.kind
    ];
    out.push(
      problem(
        resolved.span,
        facts.error.kind,
        `The transcript ${resolved.field} points to, ${showPath(resolved.file)}, ${what}: ${facts.error.message}.`,
        'error',
        {
          field: resolved.field,
          path: resolved.file,
          ...(facts.error.line !== undefined ? { line: facts.error.line } : {}),
          ...(facts.error.byteOffset !== undefined ? { byteOffset: facts.error.byteOffset } : {}),
        },
      ),
    );
    return;
  }

  // 6. The facts upstream does not re-check.
  const events = stated(d, 'event_count', isCount, 0);
  if (events && events.value !== facts.event_count) {
    mismatch(
      events,
      'event_count_mismatch',
      'event_count',
      `${stateText(events, 'event_count')}, the transcript on disk has ${facts.event_count} events (non-blank rows).`,
      facts.event_count,
    );
  }
  const complete = stated(d, 'complete', isBool, false);
  if (complete && complete.value !== facts.complete) {
    const actual = facts.complete ? `has a terminal row (status ${show(facts.terminal_status)})` : 'has no terminal row';
    mismatch(complete, 'completeness_mismatch', 'complete', `${stateText(complete, 'complete')}, the transcript on disk ${actual}.`, facts.complete);
  }
  const optional = [
    'session_id',
    'first_event_type',
    'first_event_id',
    'last_event_type',
    'last_event_id',
    'terminal_status',
    'effective_tool_format',
    'tool_schema_hash',
  ] as const satisfies readonly DescriptorField[];
  for (const field of optional) {
    const s = stated(d, field, isOptString, null);
    const actual = facts[field];
    if (s && s.value !== actual) {
      mismatch(s, 'descriptor_field_mismatch', field, `${stateText(s, field)}, the transcript on disk gives ${show(actual)}.`, actual);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Upstream's first error (`verified_llm_transcript_pointer_path`), from the same checks as the diagnostics above.

/** Upstream's order of the checks; the checks above all run, and the earliest kind found is upstream's answer. */
const UPSTREAM_ORDER: readonly string[] = [
  'missing_descriptor',
  'unverified_descriptor',
  'schema_mismatch',
  'artifact_kind_mismatch',
  'run_id_mismatch',
  'missing_path',
  'invalid_run_path',
  'path_traversal',
  'unavailable',
  'invalid_utf8',
  'malformed_jsonl',
  'line_too_long', // ours: a bound upstream does not have; it stops the rows as a malformed row would
  'empty_transcript',
  'digest_mismatch',
];

/** What verifyPointer found, in upstream's kinds and wording. */
class UpstreamFindings {
  readonly errors: UpstreamDescriptorError[] = [];
  file: string | undefined;
  joined: string | undefined;
  add(kind: string, message: string): void {
    this.errors.push({ kind, message });
  }
  resolved(file: string, joined: string): void {
    this.file = file;
    this.joined = joined;
  }
  first(): UpstreamDescriptorError | undefined {
    const rank = (e: UpstreamDescriptorError): number => UPSTREAM_ORDER.indexOf(e.kind);
    return [...this.errors].sort((a, b) => rank(a) - rank(b))[0];
  }
}

function upstreamScanMessage(error: TranscriptScanError, path: string): string {
  switch (error.kind) {
    case 'invalid_utf8':
      return `${path} is not UTF-8 JSONL: invalid utf-8 sequence from index ${error.byteOffset ?? 0}`;
    case 'malformed_jsonl':
      return `${path}:${error.line ?? 0} failed to parse JSONL row: ${error.message.replace(/^line \d+ is not JSON: /, '')}`;
    case 'empty_transcript':
      return `${path} contains no JSONL events`;
    case 'line_too_long':
      return `${path}: ${error.message}`;
  }
}

/**
 * The transcript of a run record's first `llm_jsonl` pointer, verified as upstream's
 * `verified_llm_transcript_pointer_path` does (plus canonical containment), or upstream's first error.
 * `file` is the canonical transcript (what was read), `joined` the path as upstream forms and prints it; both are
 * given whenever the path was resolved. With `options.facts` 'pending', the checks needing the content are left out.
 */
export type TranscriptPointerVerdict =
  | { ok: true; pointer: LocatedPointer; descriptor: LocatedDescriptor; file: string; joined: string }
  | { ok: false; error: UpstreamDescriptorError; file?: string; joined?: string };

export function verifiedTranscriptPointer(
  parsed: ParsedRunRecord,
  runRecordPath: string,
  fs: RunRecordFs = nodeRunRecordFs,
  options: VerifyOptions = {},
): TranscriptPointerVerdict {
  const pointer = parsed.pointers[0];
  if (!pointer) return { ok: false, error: { kind: 'missing_descriptor', message: 'no llm_jsonl transcript pointer' } };
  const runId = parsed.id?.value;
  const findings = new UpstreamFindings();
  verifyPointer(pointer, typeof runId === 'string' ? runId : '', runRecordPath, fs, options, [], findings);
  const where = {
    ...(findings.file !== undefined ? { file: findings.file } : {}),
    ...(findings.joined !== undefined ? { joined: findings.joined } : {}),
  };
  const error = findings.first();
  if (error) return { ok: false, error, ...where };
  if (!pointer.descriptor || findings.file === undefined || findings.joined === undefined) {
    // verifyPointer reports every way to get here (a schema problem aside, which the caller has refused already).
    return { ok: false, error: { kind: 'missing_descriptor', message: 'llm_jsonl pointer has no descriptor' }, ...where };
  }
  return { ok: true, pointer, descriptor: pointer.descriptor, file: findings.file, joined: findings.joined };
}

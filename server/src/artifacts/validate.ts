// Validation of JSONL run artifacts: LLM transcripts (spec/harn-artifacts.md §1), agent event logs (§3) and
// other JSONL (well-formedness only). Pure except validateArtifactFile (and its async twin, for the server),
// which streams through jsonl.ts.
//
// Two layers, so that the language server can cache per line:
// - validateLine(kind, text): one row alone. The result depends only on (kind, text), holds no line number and
//   is never mutated, so it can be cached by text and reused after lines move. Its problems are placed on a line
//   with placeLineProblems. The fast path is one JSON.parse and one zod check (the schema compiled with
//   z.compile, checked with `validate`, which builds no output); only a row that fails is safeParse'd for its
//   issues, and only then are positions inside it computed (jsonc-parser on that one line).
// - crossRowProblems(kind, summaries, options): everything that needs more than one row (terminal rows, receipt
//   binding and pairing, event indexes), plus the boundary_failure findings (they depend on the registry, which
//   is workspace state, not row text). It reads only RowSummary values, never the text. Its problems cover
//   whole rows; `data.property` names the property they are about, and refineProblemRanges narrows them once
//   the line's text is at hand.
//
// Positions: 0-based line, UTF-16 characters within the line. Severities: see PROBLEM_SEVERITY.

import { basename } from 'node:path';
import { createScanner, parseTree, SyntaxKind, visit, ParseErrorCode, type Node as JsonNode } from 'jsonc-parser';
import { z } from 'zod';
import { asCount, asNumber, asString, isObject, type JsonObject } from './json';
import { type CancellationLike } from '../workspace/files';
import {
  effectiveMaxLineBytes,
  forEachLine,
  forEachLineAsync,
  forEachTextLine,
  lineTooLongProblem,
  readLinesAt,
  readLinesAtAsync,
  type ByteLineScan,
  type ByteLineVisitor,
  type LineByteIndex,
  type UnreadLineVisitor,
} from './jsonl';
import { jsonNestingLimitAt, nestingLimitMessage } from './jsonNesting';
import { identityOf, isTerminalRowObject, rowIdOf, terminalStatusOf, toolCallIdOf } from './rows';
import { isRustWhitespace, rustTrim } from './runRecord';
import { eventSchemaFor, EventEnvelopeSchema, ownerForKind, TRANSCRIPT_ROW_SCHEMAS } from './schemas';
import type { ArtifactKind, ArtifactProblem, ArtifactSeverity } from './types';
import { capNoteData, capNoteMessage, CapResult, CapView, DiagnosticCap, sumCounts, TOO_MANY_DIAGNOSTICS, worstSeverity } from '../diagnosticCap';
import { DirectiveChecker, DIRECTIVES_SOURCE, type DirectiveCheckResult, type DirectiveProblem } from '../directives/check';
import type { ExternalCompaction } from '../directives/compactions';
import { directiveRowFacts, type DirectiveRowFacts } from '../directives/facts';
import { rowRange as directiveRowRange } from '../directives/locate';
import { isHighSurrogate, isLowSurrogate } from '../text/surrogates';

/** The line-oriented artifact kinds (a run record is one JSON document, validated elsewhere). */
export type JsonlKind = Exclude<ArtifactKind, 'runRecord'>;

export const ARTIFACTS_SOURCE = 'harn.artifacts';

/** The severity of every code produced here. */
export const PROBLEM_SEVERITY = {
  malformed_jsonl: 'error',
  nesting_too_deep: 'error',
  invalid_utf8: 'error',
  invalid_row: 'error',
  unreadable_file: 'error',
  line_too_long: 'error',
  unbound_tool_result_receipt: 'error',
  duplicate_tool_result_receipt: 'error',
  unreported_boundary_failure: 'error',
  incomplete_source: 'warning',
  empty_transcript: 'warning',
  row_after_terminal: 'warning',
  unpaired_tool_call: 'warning',
  event_index_gap: 'warning',
  event_index_duplicate: 'warning',
  boundary_failure: 'warning',
  unknown_row_type: 'information',
  blank_line: 'information',
  utf8_bom: 'information',
  truncated_last_line: 'information',
} as const satisfies Record<string, ArtifactSeverity>;

export type ProblemCode = keyof typeof PROBLEM_SEVERITY;

// ---------------------------------------------------------------------------------------------------------------
// Row summaries.

/** The fields of a `boundary_failure` event, as written (see boundaryFailureMessage). */
export interface BoundaryFailureInfo {
  boundary: string;
  /** dropped | unrecognized | truncated | killed | capped (as written; undefined if not a string). */
  kind: string | undefined;
  /** As written (undefined if not a string); Harn derives it from the kind. */
  owner: string | undefined;
  detail: string | undefined;
  excerpt: string | undefined;
  /** Omitted by Harn when 0. */
  droppedCount: number | undefined;
  /** The untruncated length in bytes; omitted by Harn when 0. */
  droppedBytes: number | undefined;
  /** True only via the Drop backstop: the harness never reported the failure (a harness bug). */
  unreported: boolean;
}

/**
 * What the rest of the server needs to know about one line without parsing it again: cross-row checks, outline
 * and hover look-ups. Every summary has the same fields (undefined when absent or of the wrong type), so the
 * objects share one shape. A summary never depends on the line's position: see `rowIdentity` for `row:N`.
 */
export interface RowSummary {
  /** 'row' = a JSON value (an object, except in generic JSONL); 'blank' = empty or only spaces/tabs;
   *  'malformed' = not JSON (or nested past serde_json's limit); 'notObject' = JSON but not an object where a row
   *  object is required; 'unread' = longer than maxLineBytes, so never decoded (`line_too_long`). */
  shape: 'row' | 'blank' | 'malformed' | 'notObject' | 'unread';
  /** UTF-16 length of the line (the end of a whole-row range). */
  length: number;
  /** `type` when it is a string. */
  type: string | undefined;
  /** The type is one the spec names for this kind (false for generic JSONL). */
  known: boolean;
  /** The line has no error-severity problem of its own. */
  valid: boolean;
  /** The first string among `id`, `event_id`, `call_id` (§1 Identity); see rowIdentity. */
  id: string | undefined;
  sessionId: string | undefined;
  /** `call_id`: a provider call id on routing/request/response/interpreted rows, a tool-call id on receipts. */
  callId: string | undefined;
  /** `tool_call_id` (event-log tool_call / tool_call_update). */
  toolCallId: string | undefined;
  toolName: string | undefined;
  /** `message_index` (message rows, tool_result receipts). */
  messageIndex: number | undefined;
  /** `assistant_message_index` (tool_call receipts). */
  assistantMessageIndex: number | undefined;
  iteration: number | undefined;
  /** `role` of a message row. */
  role: string | undefined;
  /** `type` is terminal, or `terminal: true` (§1 Terminal). */
  terminal: boolean;
  /** For a terminal row: `final_status`, else `status`, else `stop_reason`, else the type. */
  terminalStatus: string | undefined;
  /** A non-empty `tool_format`. */
  toolFormat: string | undefined;
  /** `tool_schemas.hash` as a string (exact digits even beyond 2^53). */
  toolSchemaHash: string | undefined;
  /** Event-log `index` (a non-negative integer). */
  eventIndex: number | undefined;
  /** Event-log `boundary_failure` fields. */
  boundary: BoundaryFailureInfo | undefined;
}

/** A problem inside one line, before it is placed on a line number. */
export interface LineProblem {
  startCharacter: number;
  endCharacter: number;
  code: ProblemCode;
  severity: ArtifactSeverity;
  message: string;
  data?: Record<string, unknown>;
}

/** The result of validating one line. Depends only on (kind, text); never mutate it (it may be cached). */
export interface LineResult {
  problems: readonly LineProblem[];
  summary: RowSummary;
  /** Transcript rows: what the row tells the directive checks (directives/facts.ts), when anything (every result has the key: one shape). */
  directives: DirectiveRowFacts | undefined;
}

/** The §1 row identity: the first string among id/event_id/call_id, else `row:N` (N = 1-based non-blank line count). */
export function rowIdentity(summary: RowSummary, rowNumber: number): string {
  return identityOf(summary.id, rowNumber);
}

/** Places a line's problems on `line`. */
export function placeLineProblems(problems: readonly LineProblem[], line: number): ArtifactProblem[] {
  return problems.map((p) => placeProblem(p, line));
}

function placeProblem(p: LineProblem, line: number): ArtifactProblem {
  const placed: ArtifactProblem = {
    line,
    startCharacter: p.startCharacter,
    endLine: line,
    endCharacter: p.endCharacter,
    code: p.code,
    severity: p.severity,
    message: p.message,
  };
  if (p.data !== undefined) placed.data = p.data;
  return placed;
}

function summary(shape: RowSummary['shape'], length: number, type: string | undefined, known: boolean, valid: boolean): RowSummary {
  return {
    shape,
    length,
    type,
    known,
    valid,
    id: undefined,
    sessionId: undefined,
    callId: undefined,
    toolCallId: undefined,
    toolName: undefined,
    messageIndex: undefined,
    assistantMessageIndex: undefined,
    iteration: undefined,
    role: undefined,
    terminal: false,
    terminalStatus: undefined,
    toolFormat: undefined,
    toolSchemaHash: undefined,
    eventIndex: undefined,
    boundary: undefined,
  };
}

/** A value taken from a row, shortened for a message (a row can hold a 10 MB string anywhere). */
function clip(value: string, max = 80): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

/**
 * Fills the summary fields from a parsed row object. The row may have failed its schema (a summary describes
 * every row: a receipt with a bad `ok` still binds), so it is read as a plain JSON object, field by field.
 */
function fillSummary(s: RowSummary, kind: JsonlKind, o: JsonObject, text: string): void {
  const type = s.type;
  s.id = rowIdOf(o);
  s.sessionId = asString(o.session_id);
  s.callId = asString(o.call_id);
  s.iteration = asCount(o.iteration);
  if (kind === 'jsonl') return;
  s.toolName = asString(o.tool_name);
  if (kind === 'eventLog') {
    s.eventIndex = asCount(o.index);
    s.toolCallId = asString(o.tool_call_id);
    if (type === 'boundary_failure' && typeof o.boundary === 'string') s.boundary = boundaryInfo(o, o.boundary);
  } else {
    if (type === 'message') {
      s.messageIndex = asCount(o.message_index);
      s.role = asString(o.role);
    } else if (type === 'tool_result') {
      s.messageIndex = asCount(o.message_index);
    } else if (type === 'tool_call') {
      s.assistantMessageIndex = asCount(o.assistant_message_index);
    } else if (type === 'tool_schemas') {
      s.toolSchemaHash = hashText(o.hash, text);
    }
  }
  const format = o.tool_format;
  if (typeof format === 'string' && format !== '') s.toolFormat = format;
  if (isTerminalRowObject(o)) {
    s.terminal = true;
    s.terminalStatus = terminalStatusOf(o);
  }
}

function boundaryInfo(o: JsonObject, boundary: string): BoundaryFailureInfo {
  return {
    boundary,
    kind: asString(o.kind),
    owner: asString(o.owner),
    detail: asString(o.detail),
    excerpt: asString(o.excerpt),
    droppedCount: asNumber(o.dropped_count),
    droppedBytes: asNumber(o.dropped_bytes),
    unreported: o.unreported === true,
  };
}

/** `tool_schemas.hash` as a string; a number beyond 2^53 is read from the row's text to keep every digit. */
function hashText(hash: unknown, text: string): string | undefined {
  if (typeof hash === 'string') return hash;
  if (typeof hash !== 'number' || !Number.isFinite(hash)) return undefined;
  if (Number.isSafeInteger(hash)) return String(hash);
  const range = topLevelProperty(text, 'hash');
  if (range !== undefined) {
    const raw = text.slice(range.valueStart, range.end);
    if (/^-?\d+$/.test(raw)) return raw;
  }
  return String(hash);
}

// ---------------------------------------------------------------------------------------------------------------
// One line.

const NO_PROBLEMS: readonly LineProblem[] = Object.freeze([]);

function problem(code: ProblemCode, startCharacter: number, endCharacter: number, message: string, data?: Record<string, unknown>): LineProblem {
  const p: LineProblem = { startCharacter, endCharacter, code, severity: PROBLEM_SEVERITY[code], message };
  if (data !== undefined) p.data = data;
  return p;
}

/** Empty or only whitespace as Rust's `str::trim` sees it (what Harn skips as a blank line; a BOM is not). */
function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isRustWhitespace(c)) return false;
  }
  return true;
}

/**
 * The JSON value of a row as Harn reads it: the line trimmed (Rust's `str::trim`, so a no-break space or U+0085
 * around the row is allowed, though JSON.parse refuses it), then parsed; a leading BOM is skipped (the line's
 * `utf8_bom` note says so). Throws when it is not JSON.
 */
export function parseRow(text: string): unknown {
  // A line that starts with a BOM is read without it, as validateLine reads it (and reports it).
  if (text.charCodeAt(0) === 0xfeff) return parseTrimmed(text.slice(1));
  return parseTrimmed(text);
}

function parseTrimmed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const trimmed = rustTrim(text);
    if (trimmed === text || trimmed === '') throw error;
    return JSON.parse(trimmed);
  }
}

const KIND_NOUN: Record<JsonlKind, string> = { transcript: 'transcript row', eventLog: 'event', jsonl: 'line' };

/**
 * Validates one line of a `kind` artifact. Pure and deterministic: the same (kind, text) gives an equal result,
 * so callers may cache it by text. Never throws.
 */
export function validateLine(kind: JsonlKind, text: string): LineResult {
  return validateLineText(kind, text, true);
}

/** validateLine; after a skipped BOM (`bomAllowed` false), a second one is no BOM but a character JSON refuses. */
function validateLineText(kind: JsonlKind, text: string, bomAllowed: boolean): LineResult {
  const length = text.length;
  const first = text.charCodeAt(0);
  if (first !== 123 /* { */) {
    if (isBlank(text)) {
      return {
        problems: [problem('blank_line', 0, length, 'Blank line: Harn skips it (it is not a row and is not counted in row:N).')],
        summary: summary('blank', length, undefined, false, true),
        directives: undefined,
      };
    }
    if (first === 0xfeff) {
      if (bomAllowed) return withLeadingBom(kind, text);
      return { problems: [malformedProblem(text)], summary: summary('malformed', length, undefined, false, false), directives: undefined };
    }
  }
  // Before any parser: jsonc-parser (error positions, property ranges) recurses once per level.
  const tooDeep = jsonNestingLimitAt(text);
  if (tooDeep >= 0) {
    const message = nestingLimitMessage(`each ${KIND_NOUN[kind]}`);
    return {
      problems: [problem('nesting_too_deep', tooDeep, tooDeep + 1, message)],
      summary: summary('malformed', length, undefined, false, false),
      directives: undefined,
    };
  }
  let value: unknown;
  try {
    value = parseRow(text);
  } catch {
    return { problems: [malformedProblem(text)], summary: summary('malformed', length, undefined, false, false), directives: undefined };
  }
  if (!isObject(value)) {
    if (kind === 'jsonl') return { problems: NO_PROBLEMS, summary: summary('row', length, undefined, false, true), directives: undefined };
    const what = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return {
      problems: [problem('invalid_row', 0, length, `Each ${KIND_NOUN[kind]} must be a JSON object; this line is ${what}.`)],
      summary: summary('notObject', length, undefined, false, false),
      directives: undefined,
    };
  }
  const o = value;
  const typeValue = o.type;
  const type = typeof typeValue === 'string' ? typeValue : undefined;
  if (kind === 'jsonl') {
    const s = summary('row', length, type, false, true);
    fillSummary(s, kind, o, text);
    return { problems: NO_PROBLEMS, summary: s, directives: undefined };
  }

  const schema = type === undefined ? undefined : compiledSchema(kind, type);
  const known = schema !== undefined;
  let problems: LineProblem[] | undefined;
  if (type === undefined) {
    problems = [missingOrBadType(kind, text, typeValue)];
    // An event without a type still has an envelope worth checking.
    if (kind === 'eventLog') problems.push(...schemaProblems(kind, compiledEnvelope(), o, text, undefined, true));
  } else if (schema !== undefined) {
    // zod's compiled validator answers without building an output; only a failing row is parsed for its issues.
    if (!schema.validate(o)) {
      const parsed = schema.safeParse(o);
      if (!parsed.success) problems = issueProblems(kind, type, parsed.error.issues, o, text);
    }
  } else {
    problems = [unknownTypeProblem(kind, type, text)];
    if (kind === 'eventLog') problems.push(...schemaProblems(kind, compiledEnvelope(), o, text, type, false));
  }
  const valid = problems === undefined || !problems.some((p) => p.severity === 'error');
  const s = summary('row', length, type, known, valid);
  fillSummary(s, kind, o, text);
  const directives = kind === 'transcript' ? directiveRowFacts(o, type) : undefined;
  return { problems: problems ?? NO_PROBLEMS, summary: s, directives };
}

// zod schemas compiled on first use (z.compile: a generated fast path, falling back to the runtime parser for
// the issues of a failing row). Compiling lazily keeps start-up cost to the types actually seen.
const compiledTranscript = new Map<string, z.ZodType>();
const compiledEvents = new Map<string, z.ZodType>();
let envelope: z.ZodType | undefined;

function compiledSchema(kind: 'transcript' | 'eventLog', type: string): z.ZodType | undefined {
  const cache = kind === 'transcript' ? compiledTranscript : compiledEvents;
  let schema = cache.get(type);
  if (schema !== undefined) return schema;
  const source = kind === 'transcript' ? TRANSCRIPT_ROW_SCHEMAS.get(type) : eventSchemaFor(type);
  if (source === undefined) return undefined;
  schema = z.compile(source);
  // Unknown `mcp_*` types share one schema but are cached per type; bound the cache against hostile input.
  if (cache.size < 1000 && type.length <= 100) cache.set(type, schema);
  return schema;
}

function compiledEnvelope(): z.ZodType {
  envelope ??= z.compile(EventEnvelopeSchema);
  return envelope;
}

/** A line starting with a BOM (a file's first line seen raw, or files concatenated): note it, check the rest. */
function withLeadingBom(kind: JsonlKind, text: string): LineResult {
  const rest = validateLineText(kind, text.slice(1), false);
  // A malformed rest is located again in the whole line, so that its message counts characters as the editor does.
  const shifted =
    rest.summary.shape === 'malformed'
      ? [malformedProblem(text, 1)]
      : rest.problems.map((p) => ({ ...p, startCharacter: p.startCharacter + 1, endCharacter: p.endCharacter + 1 }));
  return {
    problems: [problem('utf8_bom', 0, 1, 'A UTF-8 byte order mark starts this line; Harn never writes one. It is skipped.'), ...shifted],
    summary: { ...rest.summary, length: text.length },
    directives: rest.directives,
  };
}

function missingOrBadType(kind: JsonlKind, text: string, typeValue: unknown): LineProblem {
  const noun = KIND_NOUN[kind];
  if (typeValue === undefined) {
    const range = rowRange(text);
    return problem('invalid_row', range.start, range.end, `This ${noun} has no \`type\`: it is required (Harn rejects rows without it).`, {
      property: 'type',
    });
  }
  const at = topLevelProperty(text, 'type');
  const range = at ? { start: at.start, end: at.end } : rowRange(text);
  return problem('invalid_row', range.start, range.end, `\`type\` must be a string, got ${describeValue(typeValue)}.`, {
    property: 'type',
  });
}

/** Message and data of unknown_row_type, shared per (kind, type): a log can hold many rows of a type. */
const unknownTypeNotes = new Map<string, { message: string; data: Readonly<Record<string, unknown>> }>();

function unknownTypeProblem(kind: JsonlKind, type: string, text: string): LineProblem {
  const at = topLevelProperty(text, 'type');
  const range = at ?? rowRange(text);
  const shown = clip(type);
  const cacheKey = `${kind}\u0000${shown}`;
  let note = unknownTypeNotes.get(cacheKey);
  if (note === undefined) {
    const message =
      kind === 'transcript'
        ? `Unknown transcript row type "${shown}": tolerated (Harn ignores row types it does not know); not validated.`
        : `Unknown event type "${shown}": tolerated (the spec details only some of about 75 variants); only the envelope is checked.`;
    note = { message, data: Object.freeze({ type: shown }) };
    if (unknownTypeNotes.size < 1000) unknownTypeNotes.set(cacheKey, note);
  }
  return problem('unknown_row_type', range.start, range.end, note.message, note.data);
}

/** The row's JSON value without surrounding whitespace. */
function rowRange(text: string): { start: number; end: number } {
  let start = 0;
  let end = text.length;
  while (start < end && isJsonSpace(text.charCodeAt(start))) start++;
  while (end > start && isJsonSpace(text.charCodeAt(end - 1))) end--;
  return { start, end };
}

const isJsonSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff;

// ---------------------------------------------------------------------------------------------------------------
// Malformed JSON.

const JSON_ERROR_TEXT: Partial<Record<ParseErrorCode, string>> = {
  [ParseErrorCode.InvalidSymbol]: 'unexpected character',
  [ParseErrorCode.InvalidNumberFormat]: 'invalid number',
  [ParseErrorCode.PropertyNameExpected]: 'a property name (a double-quoted string) is expected',
  [ParseErrorCode.ValueExpected]: 'a value is expected',
  [ParseErrorCode.ColonExpected]: '":" is expected',
  [ParseErrorCode.CommaExpected]: '"," is expected',
  [ParseErrorCode.CloseBraceExpected]: '"}" is expected',
  [ParseErrorCode.CloseBracketExpected]: '"]" is expected',
  [ParseErrorCode.EndOfFileExpected]: 'unexpected text after the JSON value',
  [ParseErrorCode.InvalidCommentToken]: 'comments are not allowed in JSON',
  [ParseErrorCode.UnexpectedEndOfComment]: 'unterminated comment',
  [ParseErrorCode.UnexpectedEndOfString]: 'unterminated string',
  [ParseErrorCode.UnexpectedEndOfNumber]: 'unterminated number',
  [ParseErrorCode.InvalidUnicode]: 'invalid \\u escape',
  [ParseErrorCode.InvalidEscapeCharacter]: 'invalid escape character',
  [ParseErrorCode.InvalidCharacter]: 'a control character must be escaped inside a string',
};

/** A JSON syntax error: where jsonc-parser found it, and what it is. */
export interface JsonSyntaxError {
  error: ParseErrorCode;
  offset: number;
  length: number;
}

/** The first JSON syntax error of `text` (strict JSON: no comments, no trailing commas), or undefined. */
export function firstJsonError(text: string): JsonSyntaxError | undefined {
  let found: JsonSyntaxError | undefined;
  try {
    visit(
      text,
      {
        onError(error, offset, length) {
          if (found === undefined) found = { error, offset, length };
        },
      },
      { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
    );
  } catch {
    found = undefined;
  }
  return found;
}

/** What a JSON syntax error is, in words. */
export function jsonErrorText(error: ParseErrorCode): string {
  return JSON_ERROR_TEXT[error] ?? 'syntax error';
}

/**
 * `malformed_jsonl` at the first JSON error (found with jsonc-parser; JSON.parse's own messages lack positions), in
 * the line as Harn parses it: trimmed of whitespace (Rust's `str::trim`), so a no-break space before the row is not
 * mistaken for the error. Characters before `from` (a leading BOM, reported on its own) are not part of the row.
 */
function malformedProblem(text: string, from = 0): LineProblem {
  const row = rustTrim(text.slice(from));
  let shift = from;
  while (shift < text.length && isRustWhitespace(text.charCodeAt(shift))) shift++;
  const found = firstJsonError(row);
  const length = text.length;
  if (found === undefined) {
    // jsonc-parser accepted what JSON.parse refused (e.g. a no-break space between tokens).
    const range = rowRange(text);
    return problem('malformed_jsonl', range.start, range.end, 'Not valid JSON: the line cannot be parsed.');
  }
  const start = Math.min(found.offset + shift, length);
  let end = Math.min(start + Math.max(found.length, 1), length);
  // Never split a surrogate pair.
  if (end < length && end > start && isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) end++;
  const rowEnd = rowRange(row).end;
  const cutOff =
    found.offset >= rowEnd ||
    ((found.error === ParseErrorCode.UnexpectedEndOfString || found.error === ParseErrorCode.UnexpectedEndOfNumber) && found.offset + found.length >= rowEnd);
  const reason = jsonErrorText(found.error);
  const message = cutOff
    ? `Not valid JSON at character ${start}: ${reason}, and the line ends there: the row is cut off.`
    : `Not valid JSON at character ${start}: ${reason}.`;
  return problem('malformed_jsonl', start, end, message);
}

// ---------------------------------------------------------------------------------------------------------------
// Schema problems: located only for a failing row.

/** Issues reported per row; the last one says how many more there are. */
const MAX_ISSUES = 8;

type Issue = z.core.$ZodIssue;

function schemaProblems(kind: JsonlKind, schema: z.ZodType, o: JsonObject, text: string, type: string | undefined, skipType: boolean): LineProblem[] {
  if (schema.validate(o)) return [];
  const parsed = schema.safeParse(o);
  if (parsed.success) return [];
  const issues = skipType ? parsed.error.issues.filter((i) => !(i.path.length === 1 && i.path[0] === 'type')) : parsed.error.issues;
  return issueProblems(kind, type, issues, o, text);
}

function issueProblems(kind: JsonlKind, type: string | undefined, issues: readonly Issue[], o: JsonObject, text: string): LineProblem[] {
  if (issues.length === 0) return [];
  let root: JsonNode | undefined;
  try {
    root = parseTree(text);
  } catch {
    root = undefined;
  }
  const what = type === undefined ? KIND_NOUN[kind] : kind === 'transcript' ? `${clip(type)} row` : `${clip(type)} event`;
  const out: LineProblem[] = [];
  const shown = issues.length > MAX_ISSUES ? issues.slice(0, MAX_ISSUES) : issues;
  for (const issue of shown) {
    const path = issue.path.filter((k): k is string | number => typeof k === 'string' || typeof k === 'number');
    const range = locate(root, path, text);
    const actual = valueAt(o, path);
    const name = `\`${formatPath(path)}\``;
    const reason = actual === undefined ? 'is required' : `${issueReason(issue)}, got ${describeValue(actual)}`;
    out.push(problem('invalid_row', range.start, range.end, `Invalid ${what}: ${name} ${reason}.`, { property: formatPath(path) }));
  }
  const last = out.at(-1);
  if (last !== undefined && shown.length < issues.length) {
    last.message += ` (and ${issues.length - shown.length} more problems in this row)`;
  }
  // By position, so the result does not depend on the schema's field order.
  return out.sort((a, b) => a.startCharacter - b.startCharacter || a.endCharacter - b.endCharacter);
}

function issueReason(issue: Issue): string {
  if (issue.code === 'invalid_type') {
    const expected = String(issue.expected);
    if (expected === 'int') return 'must be an integer';
    if (expected === 'nonoptional') return 'is required';
    if (!issue.message.startsWith('Invalid input')) return issue.message;
    return `must be ${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}`;
  }
  return issue.message;
}

/** A JSON path as a message shows it (`a.b[0]`); `whole` names the empty path. */
export function formatPath(path: readonly (string | number)[], whole = '(row)'): string {
  let out = '';
  for (const k of path) out += typeof k === 'number' ? `[${k}]` : out === '' ? k : `.${k}`;
  return out === '' ? whole : out;
}

/** The value at `path` in a parsed JSON value, following own properties only. */
export function valueAt(o: unknown, path: readonly (string | number)[]): unknown {
  let v: unknown = o;
  for (const k of path) {
    // Own properties only: a path segment named `constructor` is not the object's constructor.
    if (typeof v !== 'object' || v === null || !Object.hasOwn(v, k)) return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

/** A short description of a JSON value for a message. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'string') {
    const shown = v.length > 40 ? `${v.slice(0, 39)}…` : v;
    return `the string ${JSON.stringify(shown)}`;
  }
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v === 'number' ? 'the number ' : ''}${String(v)}`;
  if (Array.isArray(v)) return 'an array';
  return 'an object';
}

/**
 * The range of the node at `path` (a property: its key through its value; an array element: the element). A
 * missing node falls back to its deepest existing ancestor, and the row itself to the row's JSON value.
 */
function locate(root: JsonNode | undefined, path: readonly (string | number)[], text: string): { start: number; end: number } {
  if (root !== undefined) {
    for (let depth = path.length; depth > 0; depth--) {
      const node = nodeAt(root, path.slice(0, depth));
      if (node === undefined) continue;
      const target = node.parent !== undefined && node.parent.type === 'property' ? node.parent : node;
      return { start: target.offset, end: target.offset + target.length };
    }
    return { start: root.offset, end: root.offset + root.length };
  }
  return rowRange(text);
}

/** The part of a syntax-tree node (jsonc-parser's Node, or a tree of the same shape) that nodeAt reads. */
export interface PathNode<N> {
  type: string;
  value?: unknown;
  children?: N[];
}

/**
 * The node at `path`, as JSON.parse reads the text: of duplicate keys, the last one (jsonc-parser's
 * findNodeAtLocation takes the first, whose value JSON.parse has thrown away).
 */
export function nodeAt<N extends PathNode<N>>(root: N | undefined, path: readonly (string | number)[]): N | undefined {
  let node: N | undefined = root;
  for (const segment of path) {
    const children: N[] = node?.children ?? [];
    if (typeof segment === 'number') {
      node = node?.type === 'array' ? children[segment] : undefined;
      continue;
    }
    let value: N | undefined;
    if (node?.type === 'object') {
      for (let i = children.length - 1; i >= 0 && value === undefined; i--) {
        const [key, v] = children[i]?.children ?? [];
        if (key?.value === segment) value = v;
      }
    }
    node = value;
  }
  return node;
}

/**
 * The range of a top-level property of a one-line JSON object: `start` at its key's opening quote, `valueStart`
 * at its value, `end` after its value. Of duplicate keys, the last one: the one JSON.parse keeps. Scans only up
 * to the property when the rest of the row cannot name it again, so it is cheap for early keys.
 */
export function topLevelProperty(text: string, key: string): { start: number; valueStart: number; end: number } | undefined {
  return quickTopLevelProperty(text, key) ?? scanTopLevelProperty(text, key);
}

/**
 * The common compact form (`{"a":1,"key":"value",…}` as serde writes it), without a tokenizer: the first
 * `"key":` is top level when no `{` or `[` precedes it (a JSON string cannot hold an unescaped `"key":`, so the
 * match is a real key). Scalar values only; anything else is left to the tokenizer.
 */
const needles = new Map<string, string>();

function quickTopLevelProperty(text: string, key: string): { start: number; valueStart: number; end: number } | undefined {
  let needle = needles.get(key);
  if (needle === undefined) {
    needle = `"${key}":`;
    if (needles.size < 100) needles.set(key, needle);
  }
  const start = text.indexOf(needle);
  if (start <= 0) return undefined;
  // Left to the tokenizer: a quote that may be escaped (`{"x\"key":…}`), and a row that may name the key again
  // (JSON.parse keeps the last of duplicate keys; a key may be spelled with \u escapes).
  if (text.charCodeAt(start - 1) === 92 /* \ */) return undefined;
  const after = start + needle.length;
  if (text.indexOf(`"${key}"`, after) !== -1 || text.indexOf('\\u', after) !== -1) return undefined;
  const brace = text.indexOf('{', 1);
  if (brace !== -1 && brace < start) return undefined;
  const bracket = text.indexOf('[');
  if (bracket !== -1 && bracket < start) return undefined;
  const valueStart = start + needle.length;
  const first = text.charCodeAt(valueStart);
  if (first === 34 /* " */) {
    for (let i = valueStart + 1; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 92 /* \ */) i++;
      else if (c === 34) return { start, valueStart, end: i + 1 };
    }
    return undefined;
  }
  if (first === 123 || first === 91 || first !== first /* NaN: end of text */) return undefined;
  let end = valueStart;
  while (end < text.length) {
    const c = text.charCodeAt(end);
    if (c === 44 /* , */ || c === 125 /* } */ || c === 32 || c === 9) break;
    end++;
  }
  return end > valueStart ? { start, valueStart, end } : undefined;
}

function scanTopLevelProperty(text: string, key: string): { start: number; valueStart: number; end: number } | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  let expectKey = false;
  let found: { start: number; valueStart: number; end: number } | undefined;
  for (let token = scanner.scan(); token !== SyntaxKind.EOF; token = scanner.scan()) {
    switch (token) {
      case SyntaxKind.OpenBraceToken:
        depth++;
        expectKey = depth === 1;
        continue;
      case SyntaxKind.OpenBracketToken:
        depth++;
        continue;
      case SyntaxKind.CloseBraceToken:
      case SyntaxKind.CloseBracketToken:
        depth--;
        if (depth <= 0) return found;
        continue;
      case SyntaxKind.CommaToken:
        expectKey = depth === 1;
        continue;
      case SyntaxKind.StringLiteral: {
        if (!(expectKey && depth === 1)) continue;
        expectKey = false;
        if (scanner.getTokenValue() !== key) continue;
        const start = scanner.getTokenOffset();
        if (scanner.scan() !== SyntaxKind.ColonToken) return found;
        const valueToken = scanner.scan();
        const valueStart = scanner.getTokenOffset();
        if (valueToken !== SyntaxKind.OpenBraceToken && valueToken !== SyntaxKind.OpenBracketToken) {
          found = { start, valueStart, end: valueStart + scanner.getTokenLength() };
          continue;
        }
        // Past the nested value; a later duplicate (the one JSON.parse keeps) replaces this one.
        let nested = 1;
        while (nested > 0) {
          const t = scanner.scan();
          if (t === SyntaxKind.EOF) return found;
          if (t === SyntaxKind.OpenBraceToken || t === SyntaxKind.OpenBracketToken) nested++;
          else if (t === SyntaxKind.CloseBraceToken || t === SyntaxKind.CloseBracketToken) nested--;
        }
        found = { start, valueStart, end: scanner.getTokenOffset() + 1 };
        continue;
      }
      default:
        continue;
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------------------------
// Boundary failures.

/**
 * The one-line text of a boundary_failure finding (the diagnostic's message; hover reuses it), e.g.
 * "text_tool_parse lost model output: unrecognized (owner harness), 1 dropped, 31 bytes". With a registry, the
 * boundary's title follows its id: "text_tool_parse (Text tool-call parse) lost model output: …".
 */
export function boundaryFailureMessage(info: BoundaryFailureInfo, registryTitle?: (id: string) => string | undefined): string {
  const title = registryTitle?.(info.boundary);
  const id = clip(info.boundary);
  const name = title ? `${id} (${clip(title)})` : id;
  const kind = info.kind === undefined ? 'unknown kind' : clip(info.kind);
  const owner = info.owner !== undefined ? clip(info.owner) : info.kind !== undefined ? ownerForKind(info.kind) : 'unknown';
  let message = `${name} lost model output: ${kind} (owner ${owner})`;
  if (info.droppedCount !== undefined) message += `, ${info.droppedCount} dropped`;
  if (info.droppedBytes !== undefined) message += `, ${info.droppedBytes} ${info.droppedBytes === 1 ? 'byte' : 'bytes'}`;
  return message;
}

/** The text of an unreported_boundary_failure finding (`unreported: true`). */
export function unreportedBoundaryMessage(info: BoundaryFailureInfo, registryTitle?: (id: string) => string | undefined): string {
  return (
    `${boundaryFailureMessage(info, registryTitle)}. Unreported: the failure reached the log only through the ` +
    "harness's Drop backstop (unreported: true), so the code that lost the output never reported it — a harness bug."
  );
}

function boundaryData(info: BoundaryFailureInfo): Record<string, unknown> {
  // As written, shortened only when absurdly long (the excerpt is ≤ 240 characters by spec).
  const id = clip(info.boundary, 200);
  const data: Record<string, unknown> = { id, boundary: id };
  if (info.kind !== undefined) data.kind = clip(info.kind, 200);
  if (info.owner !== undefined) data.owner = clip(info.owner, 200);
  if (info.droppedCount !== undefined) data.droppedCount = info.droppedCount;
  if (info.droppedBytes !== undefined) data.droppedBytes = info.droppedBytes;
  if (info.detail !== undefined) data.detail = clip(info.detail, 1000);
  if (info.excerpt !== undefined) data.excerpt = clip(info.excerpt, 1000);
  return data;
}

// ---------------------------------------------------------------------------------------------------------------
// Across rows.

export interface CrossRowOptions {
  /** Whether the last line ended with a line break (default true). */
  endsWithNewline?: boolean;
  /**
   * An event-log segment that continues a rotated log (`event_log-NNNNNN.jsonl`): sessions may start at any
   * index. Default false: every session starts at 0.
   */
  continuation?: boolean;
  /** The loud-boundary registry's title for a boundary id, when a registry is loaded. */
  registryTitle?: (id: string) => string | undefined;
}

function rowProblem(code: ProblemCode, line: number, s: RowSummary, message: string, data?: Record<string, unknown>): ArtifactProblem {
  const p: ArtifactProblem = {
    line,
    startCharacter: 0,
    endLine: line,
    endCharacter: s.length,
    code,
    severity: PROBLEM_SEVERITY[code],
    message,
  };
  if (data !== undefined) p.data = data;
  return p;
}

/**
 * The problems that need more than one row, from the summaries of every line in order (`summaries[i]` is line
 * i, blank lines included). Whole-row ranges; `data.property` names the property to narrow to (see
 * refineProblemRanges). Also the boundary_failure findings (registry-dependent, so not in validateLine).
 */
export function crossRowProblems(kind: JsonlKind, summaries: readonly RowSummary[], options: CrossRowOptions = {}): ArtifactProblem[] {
  const out: ArtifactProblem[] = [];
  crossRowProblemsInto(kind, summaries, options, out);
  return out;
}

/** Where problems go as they are found: an array, or a cap that keeps only some. */
interface ProblemSink {
  push(problem: ArtifactProblem): unknown;
}

/** crossRowProblems into a sink. */
function crossRowProblemsInto(kind: JsonlKind, summaries: readonly RowSummary[], options: CrossRowOptions, out: ProblemSink): void {
  if (kind === 'transcript') transcriptProblems(summaries, out);
  else if (kind === 'eventLog') eventLogProblems(summaries, options, out);
  const last = summaries.at(-1);
  if (options.endsWithNewline === false && last?.shape === 'malformed') {
    out.push(
      rowProblem(
        'truncated_last_line',
        summaries.length - 1,
        last,
        'The last line has no final line break and is not valid JSON: the file was cut off mid-row (a run still writing, or one that stopped abruptly).',
      ),
    );
  }
}

interface SessionCalls {
  /** Lines of tool_call receipts by call_id, in file order. */
  calls: Map<string, number[]>;
  /** tool_result receipts seen by call_id. */
  results: Map<string, number>;
  ended: boolean;
}

function transcriptProblems(summaries: readonly RowSummary[], out: ProblemSink): void {
  // Per session: the message indexes that have a message row, and the line of each index's first receipt.
  const messageIndexes = new Map<string, Set<number>>();
  const receiptLines = new Map<string, Map<number, number>>();
  const receipts: number[] = [];
  const sessions = new Map<string, SessionCalls>();
  let terminalLine = -1;
  let lastTerminal = -1;
  /** The terminal row that ended each session; a terminal row without a session id ends them all. */
  const endedAt = new Map<string, number>();
  let allEndedAt = -1;
  /** Sessions seen and not ended yet. */
  const live = new Set<string>();
  let lastRow = -1;
  // A line too long to read may be the terminal row: the transcript is then not called incomplete.
  let sawUnread = false;
  const session = (id: string): SessionCalls => {
    let s = sessions.get(id);
    if (s === undefined) {
      s = { calls: new Map(), results: new Map(), ended: false };
      sessions.set(id, s);
    }
    return s;
  };
  const closeSession = (s: SessionCalls, endLine: number): void => {
    if (s.ended) return;
    s.ended = true;
    for (const [callId, lines] of s.calls) {
      const answered = s.results.get(callId) ?? 0;
      for (let k = answered; k < lines.length; k++) {
        const line = lines[k];
        const row = line === undefined ? undefined : summaries[line];
        if (line === undefined || row === undefined) continue; // k < length, and every recorded line is a row's
        out.push(
          rowProblem(
            'unpaired_tool_call',
            line,
            row,
            `Tool call "${clip(callId)}" was dispatched (tool_call receipt) but no tool_result receipt with that call_id answers it before the session ends (line ${endLine + 1}).`,
            { property: 'call_id', callId },
          ),
        );
      }
    }
  };

  for (let line = 0; line < summaries.length; line++) {
    const s = summaries[line];
    if (s === undefined || s.shape === 'blank') continue; // line < length: always a summary
    lastRow = line;
    if (s.shape === 'unread') sawUnread = true;
    if (s.shape !== 'row') continue;
    const sessionId = s.sessionId;
    // A row is late when its own session has ended, or (without a session id) when every session seen
    // has: several sessions (sub-agents) may share one sidecar, each ending with its own terminal row.
    const endedOn = sessionId !== undefined ? (endedAt.get(sessionId) ?? (allEndedAt >= 0 ? allEndedAt : -1)) : live.size === 0 ? lastTerminal : -1;
    if (endedOn >= 0) {
      out.push(
        rowProblem(
          'row_after_terminal',
          line,
          s,
          `Row after the terminal row on line ${endedOn + 1}${sessionId !== undefined ? ` of session "${clip(sessionId)}"` : ''}: a finished session ends with its terminal row.`,
          { terminalLine: endedOn },
        ),
      );
    }
    if (sessionId !== undefined && !endedAt.has(sessionId)) live.add(sessionId);
    if (s.type === 'message' && sessionId !== undefined && s.messageIndex !== undefined) {
      let indexes = messageIndexes.get(sessionId);
      if (indexes === undefined) messageIndexes.set(sessionId, (indexes = new Set()));
      indexes.add(s.messageIndex);
    } else if (s.type === 'tool_result' && sessionId !== undefined) {
      if (s.messageIndex !== undefined) {
        let lines = receiptLines.get(sessionId);
        if (lines === undefined) receiptLines.set(sessionId, (lines = new Map<number, number>()));
        const firstLine = lines.get(s.messageIndex);
        if (firstLine !== undefined) {
          out.push(
            rowProblem(
              'duplicate_tool_result_receipt',
              line,
              s,
              `Duplicate tool_result receipt: message ${s.messageIndex} of session "${clip(sessionId)}" already has one (line ${firstLine + 1}).`,
              { property: 'message_index', firstLine },
            ),
          );
        } else {
          lines.set(s.messageIndex, line);
          receipts.push(line);
        }
      }
      const callId = toolCallIdOf(s);
      if (callId !== undefined) {
        const calls = session(sessionId);
        if (!calls.ended) calls.results.set(callId, (calls.results.get(callId) ?? 0) + 1);
      }
    } else if (s.type === 'tool_call' && sessionId !== undefined) {
      const callId = toolCallIdOf(s);
      if (callId !== undefined) {
        const calls = session(sessionId);
        if (!calls.ended) {
          const lines = calls.calls.get(callId);
          if (lines === undefined) calls.calls.set(callId, [line]);
          else lines.push(line);
        }
      }
    }
    if (s.terminal) {
      if (terminalLine < 0) terminalLine = line;
      lastTerminal = line;
      if (sessionId !== undefined) {
        closeSession(session(sessionId), line);
        if (!endedAt.has(sessionId)) endedAt.set(sessionId, line);
        live.delete(sessionId);
      } else {
        for (const calls of sessions.values()) closeSession(calls, line);
        allEndedAt = line;
        for (const id of live) endedAt.set(id, line);
        live.clear();
      }
    }
  }

  for (const line of receipts) {
    const s = summaries[line];
    // Receipts are recorded only for rows with both a session id and a message index.
    if (s?.sessionId === undefined || s.messageIndex === undefined) continue;
    if (messageIndexes.get(s.sessionId)?.has(s.messageIndex)) continue;
    out.push(
      rowProblem(
        'unbound_tool_result_receipt',
        line,
        s,
        `tool_result receipt binds no message: session "${clip(s.sessionId)}" has no message row with message_index ${s.messageIndex} (receipts bind by session_id and message_index, anywhere in the file).`,
        { property: 'message_index' },
      ),
    );
  }

  // lastRow is -1 (no summary there) when every line is blank.
  const lastRowSummary = summaries[lastRow];
  if (lastRowSummary === undefined) {
    out.push({
      line: 0,
      startCharacter: 0,
      endLine: 0,
      endCharacter: 0,
      code: 'empty_transcript',
      severity: PROBLEM_SEVERITY.empty_transcript,
      message: 'The transcript has no rows (Harn reports empty_transcript).',
    });
  } else if (terminalLine < 0 && !sawUnread) {
    out.push(
      rowProblem(
        'incomplete_source',
        lastRow,
        lastRowSummary,
        'The transcript has no terminal row (agent_session_finalized, agent_session_terminal, run_terminal, terminal, or terminal: true): the run is still writing it or stopped before finalizing. Harn marks it incomplete and the training projector fails with incomplete_source.',
      ),
    );
  }
}

interface SessionIndexes {
  next: number;
  /** Missing index ranges [from, to] and the line where the jump was seen. */
  missing: { from: number; to: number; line: number; first: boolean }[];
}

function eventLogProblems(summaries: readonly RowSummary[], options: CrossRowOptions, out: ProblemSink): void {
  const sessions = new Map<string, SessionIndexes>();
  const duplicates: { line: number; session: string; index: number }[] = [];
  for (let line = 0; line < summaries.length; line++) {
    const s = summaries[line];
    if (s?.shape !== 'row') continue; // line < length: always a summary
    if (s.boundary !== undefined) {
      const info = s.boundary;
      if (info.unreported) {
        out.push(
          rowProblem('unreported_boundary_failure', line, s, unreportedBoundaryMessage(info, options.registryTitle), {
            ...boundaryData(info),
            property: 'unreported',
          }),
        );
      } else {
        out.push(rowProblem('boundary_failure', line, s, boundaryFailureMessage(info, options.registryTitle), boundaryData(info)));
      }
    }
    const index = s.eventIndex;
    if (index === undefined) continue;
    const key = s.sessionId ?? '';
    let state = sessions.get(key);
    if (state === undefined) {
      state = { next: index + 1, missing: [] };
      sessions.set(key, state);
      if (!options.continuation && index > 0) state.missing.push({ from: 0, to: index - 1, line, first: true });
      continue;
    }
    if (index === state.next) {
      state.next++;
    } else if (index > state.next) {
      state.missing.push({ from: state.next, to: index - 1, line, first: false });
      state.next = index + 1;
    } else if (!fillMissing(state, index)) {
      duplicates.push({ line, session: key, index });
    }
  }
  for (const [key, state] of sessions) {
    for (const gap of state.missing) {
      const row = summaries[gap.line];
      if (row === undefined) continue; // a gap is seen on a row's line
      const count = gap.to - gap.from + 1;
      const which = count === 1 ? `index ${gap.from} is` : `indexes ${gap.from}–${gap.to} are`;
      const where = key === '' ? 'events without a session_id' : `session "${clip(key)}"`;
      const message = gap.first
        ? `Event indexes of ${where} start at ${gap.to + 1}, not 0: ${which} missing (${count} event${count === 1 ? '' : 's'} lost). A rotated segment (event_log-NNNNNN.jsonl) may start later.`
        : `Event index gap in ${where}: ${which} missing (${count} event${count === 1 ? '' : 's'} lost before this one).`;
      out.push(rowProblem('event_index_gap', gap.line, row, message, { property: 'index', from: gap.from, to: gap.to }));
    }
  }
  // The first line of each duplicated index, in one pass (duplicates are rare, but a log concatenated twice is
  // all duplicates).
  const firstLines = new Map<string, number>();
  for (const d of duplicates) firstLines.set(`${d.session}\u0000${d.index}`, -1);
  if (duplicates.length > 0) {
    for (let line = 0; line < summaries.length; line++) {
      const s = summaries[line];
      if (s?.shape !== 'row' || s.eventIndex === undefined) continue;
      const key = `${s.sessionId ?? ''}\u0000${s.eventIndex}`;
      if (firstLines.get(key) === -1) firstLines.set(key, line);
    }
  }
  for (const d of duplicates) {
    const row = summaries[d.line];
    if (row === undefined) continue; // a duplicate is seen on a row's line
    const firstLine = firstLines.get(`${d.session}\u0000${d.index}`) ?? -1;
    const where = d.session === '' ? 'events without a session_id' : `session "${clip(d.session)}"`;
    out.push(
      rowProblem('event_index_duplicate', d.line, row, `Duplicate event index ${d.index} in ${where} (first on line ${firstLine + 1}).`, {
        property: 'index',
        firstLine,
      }),
    );
  }
}

/** Removes `index` from a missing range (an event that arrived late); false if it was not missing. */
function fillMissing(state: SessionIndexes, index: number): boolean {
  for (let i = 0; i < state.missing.length; i++) {
    const gap = state.missing[i];
    if (gap === undefined || index < gap.from || index > gap.to) continue; // i < length: always a gap
    const pieces: SessionIndexes['missing'] = [];
    if (gap.from < index) pieces.push({ ...gap, to: index - 1 });
    if (index < gap.to) pieces.push({ ...gap, from: index + 1 });
    state.missing.splice(i, 1, ...pieces);
    return true;
  }
  return false;
}

/**
 * Narrows whole-row problems that name a top-level `data.property` to that property's range, given a way to get
 * a line's text (the open document, or readLineAt on disk). Other problems are returned unchanged.
 */
export function refineProblemRanges(problems: readonly ArtifactProblem[], lineText: (line: number) => string | undefined): ArtifactProblem[] {
  return problems.map((p) => {
    const property = p.data?.property;
    if (typeof property !== 'string' || p.startCharacter !== 0 || p.line !== p.endLine) return p;
    const text = lineText(p.line);
    if (text === undefined || text.length !== p.endCharacter) return p;
    const range = topLevelProperty(text, property);
    return range === undefined ? p : { ...p, startCharacter: range.start, endCharacter: range.end };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Kind detection.

const TRANSCRIPT_NAME = /^llm_transcript.*\.jsonl$/i;
const EVENT_LOG_NAME = /^event_log.*\.jsonl$/i;
const EVENT_LOG_SEGMENT_NAME = /^event_log-\d+\.jsonl$/i;

/** `event_log-NNNNNN.jsonl`: a rotated event-log segment, whose sessions may start at any index. */
export function isEventLogSegment(fileName: string): boolean {
  return EVENT_LOG_SEGMENT_NAME.test(basename(fileName));
}

/**
 * What a file is, from its name and then its first lines (a few non-blank lines are enough):
 * `llm_transcript*.jsonl` → transcript; `event_log*.jsonl` → eventLog; another `.jsonl`/`.ndjson` → eventLog
 * if a row has numeric `index` + `emitted_at_ms` and a string `type`, transcript if a row's `type` is a §1 row
 * type, else generic 'jsonl'; `run.json`, or a `.json` whose first lines hold `"_type": "run_record"` →
 * runRecord. Undefined for anything else (not an artifact).
 */
export function detectArtifactKind(fileName: string, firstLines: readonly string[]): ArtifactKind | undefined {
  const name = basename(fileName.replace(/\\/g, '/'));
  if (TRANSCRIPT_NAME.test(name)) return 'transcript';
  if (EVENT_LOG_NAME.test(name)) return 'eventLog';
  const lower = name.toLowerCase();
  if (lower.endsWith('.json')) {
    if (lower === 'run.json') return 'runRecord';
    return firstLines.some((l) => /"_type"\s*:\s*"run_record"/.test(l)) ? 'runRecord' : undefined;
  }
  if (!lower.endsWith('.jsonl') && !lower.endsWith('.ndjson')) return undefined;
  for (const raw of firstLines) {
    const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    if (isBlank(text)) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    if (!isObject(value)) continue;
    const o = value;
    if (typeof o.type !== 'string') continue;
    if (typeof o.index === 'number' && typeof o.emitted_at_ms === 'number') return 'eventLog';
    if (TRANSCRIPT_ROW_SCHEMAS.has(o.type)) return 'transcript';
  }
  return 'jsonl';
}

// ---------------------------------------------------------------------------------------------------------------
// Whole artifacts.

export interface ValidateOptions {
  /** The file's name or path: a rotated event-log segment name sets `continuation`. */
  fileName?: string;
  /** See CrossRowOptions.continuation (overrides the file name). */
  continuation?: boolean;
  registryTitle?: (id: string) => string | undefined;
  /** Lines longer than this many bytes are not read: one `line_too_long` each (default DEFAULT_MAX_LINE_BYTES). */
  maxLineBytes?: number;
  /**
   * Results of the previous validation of the same document, by line text: an edit then re-validates only
   * the lines it touched. validateArtifact returns the cache to pass next time (holding this version's lines).
   */
  lineCache?: ReadonlyMap<string, LineResult>;
  /** Keep the directive checks' per-request records (the editor's tree and hover); the CLI needs none. */
  directiveRecords?: boolean;
  /** Transcripts: compactions recorded beside it (run record, event log), which excuse prefix breaks too. */
  compactions?: readonly ExternalCompaction[];
}

export interface ArtifactValidation {
  /** Every problem (line, cross-row and reading), sorted by position. */
  problems: ArtifactProblem[];
  /** One summary per line (`summaries[i]` is line i; blank lines included). */
  summaries: RowSummary[];
  endsWithNewline: boolean;
  /** This version's line results by text, for ValidateOptions.lineCache (validateArtifact only). */
  lineCache?: Map<string, LineResult>;
  /** Transcripts: the directive checks' records (their problems are in `problems`). */
  directives?: DirectiveCheckResult;
}

export interface ArtifactFileValidation extends ArtifactValidation {
  /** The byte offset of every line, to read lines back from disk (readLineAt). */
  lineIndex: LineByteIndex;
  /** Why the file was not read at all (not a regular file, or no such file); an `unreadable_file` problem too. */
  refused?: string;
}

function crossOptions(options: ValidateOptions, endsWithNewline: boolean): CrossRowOptions {
  return {
    endsWithNewline,
    continuation: options.continuation ?? (options.fileName !== undefined && isEventLogSegment(options.fileName)),
    registryTitle: options.registryTitle,
  };
}

const byPosition = (a: ArtifactProblem, b: ArtifactProblem): number =>
  a.line - b.line || a.startCharacter - b.startCharacter || a.endCharacter - b.endCharacter;

/** Validates a whole artifact held as text (an open document). Problems are capped per file (diagnosticCap.ts). */
export function validateArtifact(kind: JsonlKind, text: string, options: ValidateOptions = {}): ArtifactValidation {
  const summaries: RowSummary[] = [];
  const lineProblems = new DiagnosticCap(problemCapView);
  const previous = options.lineCache;
  const lineCache = new Map<string, LineResult>();
  const maxLineBytes = effectiveMaxLineBytes(options.maxLineBytes);
  const directives = kind === 'transcript' ? new DirectiveRun(summaries, lineProblems, options) : undefined;
  const scan = forEachTextLine(text, (lineText, line) => {
    // As from disk: a line over the limit is not validated (UTF-8 takes 1 to 3 bytes per UTF-16 unit).
    const bytes = lineText.length * 3 > maxLineBytes ? Buffer.byteLength(lineText) : 0;
    if (bytes > maxLineBytes) {
      summaries.push({ ...UNREAD_SUMMARY, length: lineText.length });
      lineProblems.add(lineTooLongProblem(line, undefined, bytes, maxLineBytes));
      return;
    }
    const result = lineCache.get(lineText) ?? previous?.get(lineText) ?? validateLine(kind, lineText);
    lineCache.set(lineText, result);
    summaries.push(result.summary);
    for (const p of result.problems) lineProblems.add(placeProblem(p, line));
    if (result.summary.shape !== 'blank') directives?.row(result, line);
  });
  lineProblems.addAll(scan.problems);
  const textsOf = (wanted: ReadonlySet<number>): Map<number, string> => {
    const texts = new Map<number, string>();
    if (wanted.size === 0) return texts;
    forEachTextLine(text, (lineText, line) => {
      if (wanted.has(line)) texts.set(line, lineText);
    });
    return texts;
  };
  const directiveResult = directives?.finish(textsOf);
  const cross = cappedCrossRowProblems(kind, summaries, crossOptions(options, scan.endsWithNewline));
  let refined = cross.kept;
  if (needsText(cross.kept)) {
    const wanted = linesWanted(cross.kept);
    const texts = new Map<number, string>();
    forEachTextLine(text, (lineText, line) => {
      if (wanted.has(line)) texts.set(line, lineText);
    });
    refined = refineProblemRanges(cross.kept, (line) => texts.get(line));
  }
  const problems = cappedProblems(lineProblems.finish(), { ...cross, kept: refined });
  const out: ArtifactValidation = { problems, summaries, endsWithNewline: scan.endsWithNewline, lineCache };
  if (directiveResult) out.directives = directiveResult;
  return out;
}

/**
 * The directive checks of one validation, fed each row's facts in order; their problems join the file's capped
 * problems, on the whole row first and then on the tag or attribute they are about once the row's text is read.
 */
const MAX_PLACED = 4000;

class DirectiveRun {
  private readonly checker: DirectiveChecker;
  private readonly placed: { problem: ArtifactProblem; at: NonNullable<DirectiveProblem['at']> }[] = [];
  private rowNumber = 0;
  private result: DirectiveCheckResult | undefined;

  constructor(
    private readonly summaries: readonly RowSummary[],
    private readonly sink: DiagnosticCap<ArtifactProblem>,
    options: ValidateOptions,
  ) {
    this.checker = new DirectiveChecker({
      record: options.directiveRecords === true,
      emit: (p) => this.emit(p),
      ...(options.compactions ? { compactions: options.compactions } : {}),
    });
  }

  row(result: LineResult, line: number): void {
    this.rowNumber++;
    if (result.directives) this.checker.row(result.directives, line, this.rowNumber);
  }

  private emit(p: DirectiveProblem): void {
    const problem: ArtifactProblem = {
      line: p.line,
      startCharacter: 0,
      endLine: p.line,
      endCharacter: this.summaries[p.line]?.length ?? 0,
      code: p.code,
      severity: p.severity,
      message: p.message,
      source: DIRECTIVES_SOURCE,
    };
    if (p.data) problem.data = p.data;
    this.sink.add(problem);
    // Placed once the rows are read; past a bound (the cap keeps a thousand) the rest stay on their whole row.
    if (p.at && this.placed.length < MAX_PLACED) this.placed.push({ problem, at: p.at });
  }

  /** Lines to read for the checks, then for the places of the problems. */
  finish(read: (lines: ReadonlySet<number>) => ReadonlyMap<number, string>): DirectiveCheckResult {
    const first = read(this.wantedLines());
    return this.finishWith(first, read(this.placeLinesAfter(first)));
  }

  wantedLines(): Set<number> {
    return this.checker.wantedLines();
  }

  /** Runs the checks' last step on the rows they wanted; then the lines of the problems to place. */
  placeLinesAfter(texts: ReadonlyMap<number, string>): Set<number> {
    this.result = this.checker.finish(texts);
    return new Set(this.placed.map((p) => p.problem.line));
  }

  finishWith(first: ReadonlyMap<number, string>, texts: ReadonlyMap<number, string>): DirectiveCheckResult {
    const result = this.result ?? this.checker.finish(first);
    for (const { problem, at } of this.placed) {
      const text = texts.get(problem.line);
      const range = text === undefined ? undefined : directiveRowRange(text, at.path, at.start, at.end);
      if (!range) continue;
      problem.startCharacter = range.start;
      problem.endCharacter = range.end;
    }
    return result;
  }
}

/** The visitors of a file validated line by line: one summary per line (an unread one too), problems placed. */
function fileVisitors(
  kind: JsonlKind,
  summaries: RowSummary[],
  problems: DiagnosticCap<ArtifactProblem>,
  directives: DirectiveRun | undefined,
): { visit: ByteLineVisitor; unread: UnreadLineVisitor } {
  return {
    visit: (lineText, line) => {
      const result = validateLine(kind, lineText);
      summaries.push(result.summary);
      for (const p of result.problems) problems.add(placeProblem(p, line));
      if (result.summary.shape !== 'blank') directives?.row(result, line);
    },
    unread: () => {
      summaries.push(UNREAD_SUMMARY);
    },
  };
}

/** A line over maxLineBytes: not read, so nothing is known of it (its length in characters included). */
const UNREAD_SUMMARY: RowSummary = summary('unread', 0, undefined, false, false);

function fileValidation(
  kind: JsonlKind,
  path: string,
  options: ValidateOptions,
  scan: ByteLineScan,
  summaries: RowSummary[],
  lineProblems: DiagnosticCap<ArtifactProblem>,
): { wanted: Set<number> | undefined; done: (texts: ReadonlyMap<number, string>) => ArtifactFileValidation } {
  lineProblems.addAll(scan.problems);
  // A file that was not read has no rows to check across: its one problem says why.
  const cross =
    scan.refused !== undefined
      ? new DiagnosticCap(problemCapView).finish()
      : cappedCrossRowProblems(kind, summaries, crossOptions({ ...options, fileName: options.fileName ?? path }, scan.endsWithNewline));
  return {
    wanted: needsText(cross.kept) ? linesWanted(cross.kept) : undefined,
    done: (texts) => {
      const refined = needsText(cross.kept) ? refineProblemRanges(cross.kept, (line) => texts.get(line)) : cross.kept;
      const problems = cappedProblems(lineProblems.finish(), { ...cross, kept: refined });
      const validation: ArtifactFileValidation = { problems, summaries, endsWithNewline: scan.endsWithNewline, lineIndex: scan.index };
      if (scan.refused !== undefined) validation.refused = scan.refused;
      return validation;
    },
  };
}

/**
 * Validates an artifact streamed from disk, holding one line at a time (plus a summary and a byte offset per
 * line, and at most a capped number of problems). Never throws: an unreadable file (or one that is not a regular
 * file) is an `unreadable_file` problem.
 */
export function validateArtifactFile(kind: JsonlKind, path: string, options: ValidateOptions = {}): ArtifactFileValidation {
  const summaries: RowSummary[] = [];
  const problems = new DiagnosticCap(problemCapView);
  const directives = kind === 'transcript' ? new DirectiveRun(summaries, problems, options) : undefined;
  const { visit, unread } = fileVisitors(kind, summaries, problems, directives);
  const scan = forEachLine(path, visit, { maxLineBytes: options.maxLineBytes, unread });
  const read = (lines: ReadonlySet<number>): Map<number, string> =>
    lines.size === 0 || scan.refused !== undefined ? new Map<number, string>() : readLinesAt(path, scan.index, lines, options.maxLineBytes);
  const directiveResult = directives?.finish(read);
  const result = fileValidation(kind, path, options, scan, summaries, problems);
  const validation = result.done(result.wanted ? read(result.wanted) : new Map<number, string>());
  if (directiveResult) validation.directives = directiveResult;
  return validation;
}

/**
 * validateArtifactFile without blocking the event loop (the server): the file is read asynchronously in chunks,
 * other work runs between them, and cancellation stops it (undefined).
 */
export async function validateArtifactFileAsync(
  kind: JsonlKind,
  path: string,
  options: ValidateOptions & { token?: CancellationLike } = {},
): Promise<ArtifactFileValidation | undefined> {
  const summaries: RowSummary[] = [];
  const problems = new DiagnosticCap(problemCapView);
  const directives = kind === 'transcript' ? new DirectiveRun(summaries, problems, options) : undefined;
  const { visit, unread } = fileVisitors(kind, summaries, problems, directives);
  const scan = await forEachLineAsync(path, visit, { maxLineBytes: options.maxLineBytes, unread, token: options.token });
  if (scan === undefined) return undefined;
  let directiveResult: DirectiveCheckResult | undefined;
  if (directives) {
    // The few rows the checks re-read (rewritten replay slots, problem places), read before finishing.
    const wanted = directives.wantedLines();
    const first = await readLinesAtAsync(path, scan.index, wanted, { maxLineBytes: options.maxLineBytes, token: options.token });
    if (first === undefined) return undefined;
    const placeLines = directives.placeLinesAfter(first);
    const second = await readLinesAtAsync(path, scan.index, placeLines, { maxLineBytes: options.maxLineBytes, token: options.token });
    if (second === undefined) return undefined;
    directiveResult = directives.finishWith(first, second);
  }
  const result = fileValidation(kind, path, options, scan, summaries, problems);
  const texts = result.wanted
    ? await readLinesAtAsync(path, scan.index, result.wanted, { maxLineBytes: options.maxLineBytes, token: options.token })
    : new Map<number, string>();
  if (texts === undefined) return undefined;
  const validation = result.done(texts);
  if (directiveResult) validation.directives = directiveResult;
  return validation;
}

const problemCapView = (p: ArtifactProblem): CapView => ({ severity: p.severity, line: p.line, character: p.startCharacter, code: p.code, data: p.data });

/** The cross-row problems, capped as they are found (a log of a million boundary failures holds a thousand). */
function cappedCrossRowProblems(kind: JsonlKind, summaries: readonly RowSummary[], options: CrossRowOptions): CapResult<ArtifactProblem> {
  const cap = new DiagnosticCap(problemCapView);
  crossRowProblemsInto(kind, summaries, options, { push: (p) => cap.add(p) });
  return cap.finish();
}

/** One file's problems sorted by position: the line and cross-row ones capped together, and the note when some were left out. */
function cappedProblems(line: CapResult<ArtifactProblem>, cross: CapResult<ArtifactProblem>): ArtifactProblem[] {
  const cap = new DiagnosticCap(problemCapView);
  cap.addAll(line.kept);
  cap.addAll(cross.kept);
  for (const part of [line, cross]) if (part.firstOmitted !== undefined) cap.leftOut(part.omitted, part.firstOmitted);
  const result = cap.finish();
  const problems = result.kept.sort(byPosition);
  const at = result.firstOmitted;
  if (at !== undefined && sumCounts(result.omitted) > 0) {
    problems.push({
      line: at.line,
      startCharacter: at.character,
      endLine: at.line,
      endCharacter: at.character,
      code: TOO_MANY_DIAGNOSTICS,
      severity: worstSeverity(result.omitted),
      message: capNoteMessage(result.omitted),
      data: capNoteData(result.omitted),
    });
  }
  return problems;
}

const needsText = (problems: readonly ArtifactProblem[]): boolean => problems.some((p) => typeof p.data?.property === 'string');

function linesWanted(problems: readonly ArtifactProblem[]): Set<number> {
  const lines = new Set<number>();
  for (const p of problems) if (typeof p.data?.property === 'string') lines.add(p.line);
  return lines;
}

// Run-artifact validation (spec/harn-artifacts.md §1 transcripts, §3 event logs): line splitting and streaming
// (jsonl.ts), the zod row schemas (schemas.ts), per-line and cross-row validation and kind detection
// (validate.ts). Every position is asserted exactly: 0-based line, UTF-16 characters within the line, also
// with emoji / CJK earlier in the line and with CRLF line breaks. Fixtures are synthetic and written inline
// (the spec's own example rows are synthetic too); files go to a temporary folder.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { firstInvalidUtf8, forEachLine, forEachTextLine, readFirstLines, readLineAt, splitLines } from '../../server/src/artifacts/jsonl';
import {
  BoundaryFailureEventSchema,
  EVENT_ROW_SCHEMAS,
  MessageRowSchema,
  ToolSchemasRowSchema,
  TRANSCRIPT_ROW_SCHEMAS,
} from '../../server/src/artifacts/schemas';
import { transcriptFacts } from '../../server/src/artifacts/runRecord';
import type { ArtifactProblem } from '../../server/src/artifacts/types';
import {
  boundaryFailureMessage,
  crossRowProblems,
  detectArtifactKind,
  placeLineProblems,
  PROBLEM_SEVERITY,
  refineProblemRanges,
  rowIdentity,
  topLevelProperty,
  validateArtifact,
  validateArtifactFile,
  validateLine,
  type JsonlKind,
  type LineProblem,
  type RowSummary,
} from '../../server/src/artifacts/validate';
import { defined } from '../support/assertions';

// ---------------------------------------------------------------------------------------------------------------
// Helpers.

const dir = mkdtempSync(path.join(tmpdir(), 'harn-artifacts-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let fileCounter = 0;
function tmpFile(name: string, content: string | Buffer): string {
  const sub = path.join(dir, String(fileCounter++));
  mkdirSync(sub);
  const file = path.join(sub, name);
  writeFileSync(file, content);
  return file;
}

/** The UTF-16 range of the `occurrence`-th `needle` in `text`. */
function span(text: string, needle: string, occurrence = 0): { start: number; end: number } {
  let start = -1;
  for (let i = 0; i <= occurrence; i++) {
    start = text.indexOf(needle, start + 1);
    assert.ok(start >= 0, `${JSON.stringify(needle)} #${occurrence} not in ${JSON.stringify(text.slice(0, 200))}`);
  }
  return { start, end: start + needle.length };
}

/** A problem as `line:start-end code`, for compact exact comparisons. */
const where = (p: ArtifactProblem): string => `${p.line}:${p.startCharacter}-${p.endLine}:${p.endCharacter} ${p.code}`;
const whereLine = (p: LineProblem): string => `${p.startCharacter}-${p.endCharacter} ${p.code}`;

function problemsOf(kind: JsonlKind, text: string, options = {}): ArtifactProblem[] {
  return validateArtifact(kind, text, options).problems;
}

function only(problems: readonly ArtifactProblem[], code: string): ArtifactProblem[] {
  return problems.filter((p) => p.code === code);
}

const row = (o: Record<string, unknown>): string => JSON.stringify(o);

// The spec's example rows, verbatim (§1 and §3; synthetic by the spec's own statement).
const SPEC_TRANSCRIPT: readonly [string, string, string, string] = [
  '{"type":"message","timestamp":"1767225600.003","span_id":null,"session_id":"s-42","message_index":0,"role":"user","content":"fix a.ts","message":{"role":"user","content":"fix a.ts"}}',
  '{"type":"provider_call_response","timestamp":"1767225601.200","span_id":7,"iteration":0,"call_id":"c-01","provider":"ollama","model":"m-small","text":"<tool_call>{\\"name\\":\\"open_doc\\",\\"arguments\\":{\\"uri\\":\\"a.ts\\"}}</tool_call>","tool_calls":[],"parsed_tool_calls":[{"id":"tc_0","name":"open_doc","arguments":{"uri":"a.ts"}}],"input_tokens":50,"output_tokens":12}',
  '{"type":"tool_result","timestamp":"1767225601.400","span_id":null,"schema_version":"harn.llm_tool_result_receipt.v1","session_id":"s-42","message_index":2,"call_id":"tc_0","tool_name":"open_doc","ok":true,"tool_format":"text"}',
  '{"type":"agent_session_finalized","timestamp":"1767225603.000","span_id":null,"session_id":"s-42","final_status":"done","stop_reason":"natural","iterations":2,"terminal":true}',
];
const SPEC_EVENTS: readonly [string, string] = [
  '{"index":4,"emitted_at_ms":1767225601500,"frame_depth":null,"execution_id":"x-1","type":"boundary_failure","session_id":"s-42","boundary":"text_tool_parse","kind":"unrecognized","owner":"harness","detail":"<invoke> dialect salvaged as prose","excerpt":"<invoke>open_doc(a.ts)</invoke>","dropped_count":1,"dropped_bytes":31}',
  '{"index":5,"emitted_at_ms":1767225601510,"frame_depth":null,"execution_id":"x-1","type":"tool_call_update","session_id":"s-42","tool_call_id":"cand-3","tool_name":"open_doc","status":"failed","raw_output":null,"error":"stream ended mid-call","error_category":"parse_aborted","mutation_status":"unknown","parsing":false}',
];

/** Fixture rows by name: the names are known to the compiler (no look-up can miss), the rows stay plain records. */
function byName<K extends string>(rows: Record<K, Record<string, unknown>>): Record<K, Record<string, unknown>> {
  return rows;
}

// Synthetic rows of every other §1 type and §3 variant.
const ts = { timestamp: '1767225600.000', span_id: null };
const TRANSCRIPT_ROWS = byName({
  system_prompt: { type: 'system_prompt', ...ts, content: 'You are terse. 漢字 😀', hash: 1234567, content_hash: 'blake3:ab12' },
  context_manifest: { type: 'context_manifest', ...ts, hash: 42, content_hash: 'blake3:cd', manifest: { files: ['a.ts'] } },
  tool_schemas: { type: 'tool_schemas', ...ts, schemas: [{ name: 'open_doc', parameters: { type: 'object' } }], hash: 99, content_hash: 'blake3:ef' },
  routing_decision: {
    type: 'routing_decision',
    ...ts,
    call_id: 'c-01',
    iteration: 0,
    policy: 'cheap',
    requested_quality: 'high',
    selected_provider: 'ollama',
    selected_model: 'm-small',
    fallback_chain: [],
    alternatives: [{ provider: 'x' }],
  },
  provider_call_request: {
    type: 'provider_call_request',
    ...ts,
    call_id: 'c-01',
    iteration: 0,
    model: 'm-small',
    provider: 'ollama',
    call_role: 'agent',
    actor_chain: ['root'],
    max_tokens: 4096,
    temperature: 0.2,
    thinking: { mode: 'adaptive', enabled: true, budget_tokens: 1024, level: 'medium' },
    tool_choice: 'auto',
    tool_format: 'text',
    native_tool_count: 0,
    message_count: 3,
    served_context: { schema_version: 'harn.llm.served_context.v1' },
    context_token_breakdown: { system: 10 },
    structural_experiment: null,
    route_policy: 'default',
    fallback_chain: [],
    routing_decision: null,
    request_snapshot: { system: 'sys', context_manifest: null, messages: [{ role: 'user', content: 'hi' }], tool_schemas: [], native_tools: [] },
  },
  provider_call_response: JSON.parse(SPEC_TRANSCRIPT[1]) as Record<string, unknown>,
  interpreted_response: {
    type: 'interpreted_response',
    ...ts,
    call_id: 'c-01',
    iteration: 0,
    tool_format: 'text',
    prose: '',
    tool_calls: [{ id: 'tc_0', name: 'open_doc' }],
    tool_parse_errors: [],
  },
  message: JSON.parse(SPEC_TRANSCRIPT[0]) as Record<string, unknown>,
  tool_call: {
    type: 'tool_call',
    ...ts,
    schema_version: 'harn.llm_tool_call_receipt.v1',
    session_id: 's-42',
    assistant_message_index: 1,
    call_id: 'tc_0',
    tool_name: 'open_doc',
    arguments: { uri: 'a.ts' },
  },
  tool_result: JSON.parse(SPEC_TRANSCRIPT[2]) as Record<string, unknown>,
  agent_session_finalized: JSON.parse(SPEC_TRANSCRIPT[3]) as Record<string, unknown>,
  resolved_dispatch: { type: 'resolved_dispatch', ...ts, anything: [1, 2] },
  'template.render': { type: 'template.render', ...ts, template: 'x' },
  provider_raw_capture: { type: 'provider_raw_capture', ...ts, raw: {} },
  transcript_compacted: { type: 'transcript_compacted', ...ts, session_id: 's-42', archived_messages: 9 },
});

const env = (index: number) => ({ index, emitted_at_ms: 1767225601500 + index, frame_depth: null, execution_id: 'x-1' });
const EVENT_ROWS = byName({
  boundary_failure: JSON.parse(SPEC_EVENTS[0]) as Record<string, unknown>,
  tool_call_update: JSON.parse(SPEC_EVENTS[1]) as Record<string, unknown>,
  tool_call: {
    ...env(0),
    type: 'tool_call',
    session_id: 's-42',
    tool_call_id: 'cand-3',
    tool_name: 'open_doc',
    kind: 'read',
    status: 'in_progress',
    raw_input: { uri: 'a.ts' },
    parsing: true,
  },
  budget_exhausted: { ...env(0), type: 'budget_exhausted', session_id: 's-42', max_iterations: 40, kind: 'iterations', cost_usd: 0.5, wall_clock_ms: 1000 },
  agent_loop_stall_warning: {
    ...env(0),
    type: 'agent_loop_stall_warning',
    session_id: 's-42',
    warning: {
      iteration: 7,
      tool_name: 'open_doc',
      repeat_count: 3,
      threshold: 3,
      arguments_digest: 'sha256:00ff',
      signature_digest: 'sha256:11',
      pattern: 'repeat',
      signature: 'open_doc(a.ts)',
      count: 3,
      consecutive_trips: 1,
      hard_stop: false,
      arguments: { uri: 'a.ts' },
    },
  },
  feedback_injected: { ...env(0), type: 'feedback_injected', session_id: 's-42', iteration: 2, tool_name: 'x', turn_claimed_for_repair: true },
  iteration_start: { ...env(0), type: 'iteration_start', session_id: 's-42', iteration: 0 },
  mcp_tool_listed: { ...env(0), type: 'mcp_tool_listed', session_id: 's-42' },
});

// ---------------------------------------------------------------------------------------------------------------
// jsonl.ts

describe('jsonl: splitting text into lines', () => {
  test('\\n, \\r\\n and a lone \\r break lines; the segment after a final break is not a line', () => {
    assert.deepEqual(splitLines('a\nb\r\nc\rd'), ['a', 'b', 'c', 'd']);
    assert.deepEqual(splitLines('a\n'), ['a']);
    assert.deepEqual(splitLines('a\r\n\r\nb\n'), ['a', '', 'b']);
    assert.deepEqual(splitLines(''), []);
    assert.deepEqual(splitLines('\n'), ['']);
  });

  test('offsets, the final break and a BOM (reported as information, skipped)', () => {
    const seen: [string, number, number][] = [];
    const scan = forEachTextLine('\ufeff{"a":1}\r\n{"b":2}', (text, line, offset) => {
      seen.push([text, line, offset]);
    });
    assert.deepEqual(seen, [
      ['{"a":1}', 0, 1],
      ['{"b":2}', 1, 10],
    ]);
    assert.equal(scan.lineCount, 2);
    assert.equal(scan.endsWithNewline, false);
    assert.equal(scan.bom, true);
    assert.deepEqual(scan.problems.map(where), ['0:0-0:0 utf8_bom']);
    assert.equal(defined(scan.problems[0]).severity, 'information');
  });

  test('a visitor can stop early', () => {
    const lines: string[] = [];
    const scan = forEachTextLine('a\nb\nc\n', (text) => {
      lines.push(text);
      return lines.length < 2;
    });
    assert.deepEqual(lines, ['a', 'b']);
    assert.equal(scan.complete, false);
  });
});

describe('jsonl: streaming lines from bytes', () => {
  test('byte offsets of every line start, with multi-byte characters and CRLF', () => {
    const text = '{"a":"é"}\r\n{"b":"😀"}\n\n{"c":"漢"}';
    const seen: [string, number, number][] = [];
    const scan = forEachLine(Buffer.from(text, 'utf8'), (line, n, byteOffset) => {
      seen.push([line, n, byteOffset]);
    });
    // é = 2 bytes, 😀 = 4 bytes, 漢 = 3 bytes.
    assert.deepEqual(seen, [
      ['{"a":"é"}', 0, 0],
      ['{"b":"😀"}', 1, 12],
      ['', 2, 25],
      ['{"c":"漢"}', 3, 26],
    ]);
    assert.deepEqual(scan.index.lineStarts, [0, 12, 25, 26]);
    assert.equal(scan.index.byteLength, Buffer.byteLength(text));
    assert.equal(scan.endsWithNewline, false);
    assert.deepEqual(scan.problems, []);
  });

  test('a file read in chunks: a line and a \\r\\n split across the 1 MB chunk boundary', () => {
    const CHUNK = 1 << 20;
    // Line 0 ends with \r as the chunk's last byte and \n as the next chunk's first byte.
    const first = '{"x":"' + 'a'.repeat(CHUNK - 9) + '"}';
    assert.equal(Buffer.byteLength(first) + 1, CHUNK);
    const second = '{"y":"' + '漢'.repeat(400000) + '"}';
    const third = '{"z":1}';
    const content = `${first}\r\n${second}\r${third}\n`;
    const file = tmpFile('chunks.jsonl', content);
    const seen: [number, number, number][] = [];
    const scan = forEachLine(file, (line, n, byteOffset) => {
      seen.push([n, line.length, byteOffset]);
    });
    const secondStart = Buffer.byteLength(first) + 2;
    const thirdStart = secondStart + Buffer.byteLength(second) + 1;
    assert.deepEqual(seen, [
      [0, first.length, 0],
      [1, second.length, secondStart],
      [2, third.length, thirdStart],
    ]);
    assert.equal(scan.endsWithNewline, true);
    assert.equal(scan.index.byteLength, Buffer.byteLength(content));
    assert.equal(readLineAt(file, scan.index, 0), first);
    assert.equal(readLineAt(file, scan.index, 1), second);
    assert.equal(readLineAt(file, scan.index, 2), third);
    assert.equal(readLineAt(file, scan.index, 3), undefined);
  });

  test('a BOM is skipped and reported; line 0 starts after it', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\n{"b":2}\n')]);
    const lines: string[] = [];
    const scan = forEachLine(bytes, (line) => {
      lines.push(line);
    });
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}']);
    assert.deepEqual(scan.index.lineStarts, [3, 11]);
    assert.equal(scan.bom, true);
    assert.deepEqual(scan.problems.map(where), ['0:0-0:0 utf8_bom']);
  });

  test('invalid UTF-8: reported at the first bad byte in UTF-16 characters, then read with U+FFFD', () => {
    // "😀" (2 UTF-16 units) and "é" precede the bad byte 0xff.
    const bytes = Buffer.concat([Buffer.from('{"ok":1}\n{"a":"😀é'), Buffer.from([0xff]), Buffer.from('x"}\n')]);
    const lines: string[] = [];
    const scan = forEachLine(bytes, (line) => {
      lines.push(line);
    });
    assert.deepEqual(lines, ['{"ok":1}', '{"a":"😀é\ufffdx"}']);
    assert.deepEqual(scan.problems.map(where), ['1:9-1:10 invalid_utf8']);
    const problem = defined(scan.problems[0], 'the invalid_utf8 problem');
    assert.equal(problem.severity, 'error');
    // Byte 9 (line 1 starts at byte 9) + 6 (`{"a":"`) + 4 (😀) + 2 (é) = 21.
    assert.deepEqual(problem.data, { byteOffset: 21 });
    assert.match(problem.message, /Invalid UTF-8 at byte 12 of the line/);
  });

  test('firstInvalidUtf8: overlong, surrogate, out-of-range and truncated sequences', () => {
    const at = (...bytes: number[]): number => firstInvalidUtf8(Uint8Array.from(bytes));
    assert.equal(at(0x41, 0xc3, 0xa9), -1); // é
    assert.equal(at(0xf0, 0x9f, 0x98, 0x80), -1); // 😀
    assert.equal(at(0x41, 0xc0, 0xaf), 1); // overlong /
    assert.equal(at(0xed, 0xa0, 0x80), 0); // UTF-16 surrogate
    assert.equal(at(0xf4, 0x90, 0x80, 0x80), 0); // > U+10FFFF
    assert.equal(at(0x41, 0x42, 0xe6, 0xbc), 2); // truncated 漢
    assert.equal(at(0x80), 0); // lone continuation byte
  });

  test('a truncated last line (no final newline) is still visited', () => {
    const lines: string[] = [];
    const scan = forEachLine(Buffer.from('{"a":1}\n{"b":'), (line) => {
      lines.push(line);
    });
    assert.deepEqual(lines, ['{"a":1}', '{"b":']);
    assert.equal(scan.endsWithNewline, false);
    assert.deepEqual(scan.index.lineStarts, [0, 8]);
  });

  test('an unreadable file is a problem, never a throw', () => {
    const scan = forEachLine(path.join(dir, 'missing.jsonl'), () => undefined);
    assert.equal(scan.complete, false);
    assert.deepEqual(
      scan.problems.map((p) => p.code),
      ['unreadable_file'],
    );
    const dirScan = forEachLine(dir, () => undefined);
    assert.deepEqual(
      dirScan.problems.map((p) => p.code),
      ['unreadable_file'],
    );
  });

  test('readFirstLines reads only what it needs', () => {
    const file = tmpFile('first.jsonl', '{"a":1}\n{"b":2}\n{"c":3}\n');
    assert.deepEqual(readFirstLines(file, 2), ['{"a":1}', '{"b":2}']);
    assert.deepEqual(readFirstLines(Buffer.from('x'), 5), ['x']);
    assert.deepEqual(readFirstLines(path.join(dir, 'nope.jsonl'), 5), []);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// schemas.ts

describe('schemas: every named row type and event variant', () => {
  test('the spec example rows (§1, §3) are accepted', () => {
    for (const text of SPEC_TRANSCRIPT) {
      const o = JSON.parse(text) as { type: string };
      const result = TRANSCRIPT_ROW_SCHEMAS.get(o.type)?.safeParse(o);
      assert.ok(result?.success, `${o.type}: ${JSON.stringify(result?.error?.issues)}`);
    }
    for (const text of SPEC_EVENTS) {
      const o = JSON.parse(text) as { type: string };
      const result = EVENT_ROW_SCHEMAS.get(o.type)?.safeParse(o);
      assert.ok(result?.success, `${o.type}: ${JSON.stringify(result?.error?.issues)}`);
    }
  });

  test('a synthetic row of every transcript type validates cleanly, extra fields included', () => {
    for (const [type, o] of Object.entries(TRANSCRIPT_ROWS)) {
      const text = row({ ...o, some_future_field: { x: 1 } });
      const result = validateLine('transcript', text);
      assert.deepEqual(result.problems, [], type);
      assert.equal(result.summary.known, true, type);
    }
    assert.deepEqual(
      [...TRANSCRIPT_ROW_SCHEMAS.keys()].filter((t) => !(t in TRANSCRIPT_ROWS) && !t.includes('terminal')),
      [],
    );
  });

  test('a synthetic row of every detailed event variant validates cleanly', () => {
    for (const [type, o] of Object.entries(EVENT_ROWS)) {
      const result = validateLine('eventLog', row({ ...o, newer_field: true }));
      assert.deepEqual(result.problems, [], type);
      assert.equal(result.summary.known, true, type);
    }
  });

  test('UNCONFIRMED fields accept every described form', () => {
    assert.ok(ToolSchemasRowSchema.safeParse({ ...TRANSCRIPT_ROWS.tool_schemas, hash: 'cat-7' }).success);
    assert.ok(ToolSchemasRowSchema.safeParse({ ...TRANSCRIPT_ROWS.tool_schemas, hash: Number('18446744073709551615') }).success); // u64::MAX as JSON.parse reads it (2^64)
    const blocks = [
      { type: 'text', text: 'hi' },
      { type: 'tool_result', tool_use_id: 'x', content: 'y' },
    ];
    assert.ok(MessageRowSchema.safeParse({ ...TRANSCRIPT_ROWS.message, content: blocks }).success);
    assert.ok(MessageRowSchema.safeParse({ ...TRANSCRIPT_ROWS.message, content: 'plain' }).success);
    assert.ok(!MessageRowSchema.safeParse({ ...TRANSCRIPT_ROWS.message, content: 5 }).success);
  });

  test('the boundary_failure owner rule: "policy" iff capped', () => {
    const base = JSON.parse(SPEC_EVENTS[0]) as Record<string, unknown>;
    assert.ok(BoundaryFailureEventSchema.safeParse({ ...base, kind: 'capped', owner: 'policy' }).success);
    assert.ok(!BoundaryFailureEventSchema.safeParse({ ...base, kind: 'capped', owner: 'harness' }).success);
    assert.ok(!BoundaryFailureEventSchema.safeParse({ ...base, kind: 'dropped', owner: 'policy' }).success);
    // A boundary id the upstream registry does not list is still well formed (harness authors add boundaries).
    assert.ok(BoundaryFailureEventSchema.safeParse({ ...base, boundary: 'my_new_boundary' }).success);
  });
});

/** Breaks `property` (a top-level key, or `a.b` nested) of a row and expects one invalid_row on its exact range. */
function assertRejected(kind: JsonlKind, o: Record<string, unknown>, property: string, bad: unknown, needle: string, reason: RegExp): void {
  const copy = JSON.parse(JSON.stringify(o)) as Record<string, unknown>;
  const keys = property.split('.');
  let target = copy;
  for (const k of keys.slice(0, -1)) target = target[k] as Record<string, unknown>;
  target[defined(keys.at(-1), 'the last key')] = bad;
  // Emoji and CJK before the property: positions count UTF-16 units.
  const text = row({ note: '😀漢字🎉', ...copy });
  const result = validateLine(kind, text);
  const invalid = result.problems.filter((p) => p.code === 'invalid_row');
  const label = `${String(o.type)}.${property}`;
  assert.equal(invalid.length, 1, `${label}: ${JSON.stringify(result.problems)}`);
  const problem = defined(invalid[0], 'the invalid_row problem');
  const range = span(text, needle);
  assert.deepEqual([problem.startCharacter, problem.endCharacter], [range.start, range.end], label);
  assert.match(problem.message, reason, label);
  assert.match(problem.message, new RegExp('`' + property.replace(/\./g, '\\.') + '[`\\[]'));
  assert.equal(problem.severity, 'error');
  assert.equal(result.summary.valid, false);
}

describe("schemas: a wrong type is rejected on the property's exact range", () => {
  const cases: [keyof typeof TRANSCRIPT_ROWS, string, unknown, string, RegExp][] = [
    ['system_prompt', 'content', 5, '"content":5', /must be a string, got the number 5/],
    ['system_prompt', 'content_hash', 'sha1:x', '"content_hash":"sha1:x"', /must start with "blake3:"/],
    ['context_manifest', 'hash', true, '"hash":true', /must be a number or a string, got true/],
    ['tool_schemas', 'schemas', {}, '"schemas":{}', /must be an array, got an object/],
    ['tool_schemas', 'hash', [1], '"hash":[1]', /must be a number or a string/],
    ['routing_decision', 'iteration', -1, '"iteration":-1', /must not be negative/],
    ['provider_call_request', 'thinking.mode', 'sometimes', '"mode":"sometimes"', /must be one of disabled, enabled, adaptive, effort/],
    ['provider_call_request', 'max_tokens', 1.5, '"max_tokens":1.5', /must be an integer/],
    ['provider_call_response', 'input_tokens', '50', '"input_tokens":"50"', /must be a number, got the string "50"/],
    ['provider_call_response', 'parsed_tool_calls', ['tc_0'], '"tc_0"', /must be an object/],
    ['interpreted_response', 'call_id', 7, '"call_id":7', /must be a string/],
    ['message', 'message_index', '0', '"message_index":"0"', /must be a number, got the string "0"/],
    ['message', 'content', 5, '"content":5', /must be a string or an array of content blocks/],
    ['tool_call', 'schema_version', 'v2', '"schema_version":"v2"', /must be "harn.llm_tool_call_receipt.v1"/],
    ['tool_call', 'assistant_message_index', null, '"assistant_message_index":null', /got null/],
    ['tool_result', 'ok', 'yes', '"ok":"yes"', /must be a boolean/],
    ['agent_session_finalized', 'terminal', false, '"terminal":false', /must be true/],
  ];
  for (const [type, property, bad, needle, reason] of cases) {
    test(`${type}.${property}`, () => {
      const o = TRANSCRIPT_ROWS[type];
      // Nested `thinking.mode`: the property inside the nested object.
      assertRejected('transcript', o, property, bad, needle, reason);
    });
  }

  const eventCases: [keyof typeof EVENT_ROWS, string, unknown, string, RegExp][] = [
    ['boundary_failure', 'kind', 'lost', '"kind":"lost"', /must be one of dropped, unrecognized, truncated, killed, capped/],
    ['boundary_failure', 'owner', 'policy', '"owner":"policy"', /must be "harness" for kind "unrecognized"/],
    ['boundary_failure', 'dropped_bytes', -3, '"dropped_bytes":-3', /must not be negative/],
    ['tool_call_update', 'mutation_status', 'maybe', '"mutation_status":"maybe"', /must be one of applied, not_applied, unknown/],
    ['tool_call_update', 'error_category', 'oops', '"error_category":"oops"', /parse_aborted/],
    ['tool_call_update', 'status', 'completed', '"status":"completed"', /must be "failed" when error_category is "parse_aborted"/],
    ['tool_call', 'status', 'done', '"status":"done"', /must be one of pending, in_progress, completed, failed/],
    ['budget_exhausted', 'max_iterations', 'forty', '"max_iterations":"forty"', /must be a number/],
    ['agent_loop_stall_warning', 'warning.arguments_digest', 'md5:1', '"arguments_digest":"md5:1"', /must start with "sha256:"/],
    ['iteration_start', 'session_id', 42, '"session_id":42', /must be a string/],
    ['tool_call', 'index', '0', '"index":"0"', /must be a number/],
    ['tool_call', 'execution_id', 3, '"execution_id":3', /must be a string/],
  ];
  for (const [type, property, bad, needle, reason] of eventCases) {
    test(`event ${type}.${property}`, () => {
      assertRejected('eventLog', EVENT_ROWS[type], property, bad, needle, reason);
    });
  }

  test('a missing required field is reported on the whole row, saying it is required', () => {
    const o = { ...TRANSCRIPT_ROWS.tool_result };
    delete o.session_id;
    const text = `  ${row(o)} `;
    const result = validateLine('transcript', text);
    assert.deepEqual(result.problems.map(whereLine), [`2-${text.length - 1} invalid_row`]);
    assert.equal(defined(result.problems[0]).message, 'Invalid tool_result row: `session_id` is required.');
    const event = { ...EVENT_ROWS.budget_exhausted };
    delete event.max_iterations;
    const eventText = row(event);
    assert.deepEqual(
      validateLine('eventLog', eventText).problems.map((p) => p.message),
      ['Invalid budget_exhausted event: `max_iterations` is required.'],
    );
  });

  test('a missing nested field points at its parent property', () => {
    const o = JSON.parse(JSON.stringify(TRANSCRIPT_ROWS.provider_call_request)) as { thinking: Record<string, unknown> };
    delete o.thinking.mode;
    const text = row(o);
    const result = validateLine('transcript', text);
    const range = span(text, `"thinking":${JSON.stringify(o.thinking)}`);
    assert.deepEqual(result.problems.map(whereLine), [`${range.start}-${range.end} invalid_row`]);
    assert.match(defined(result.problems[0]).message, /`thinking\.mode` is required/);
  });

  test('many problems in one row are capped, the last saying how many more', () => {
    const text = row({
      type: 'provider_call_response',
      call_id: 1,
      iteration: 'x',
      provider: 1,
      model: 1,
      text: 1,
      tool_calls: 1,
      input_tokens: 'a',
      output_tokens: 'b',
      cost_usd: 'c',
      cache_hit: 1,
    });
    const problems = validateLine('transcript', text).problems;
    assert.equal(problems.length, 8);
    assert.equal(problems.filter((p) => /\(and 2 more problems in this row\)\.?$/.test(p.message)).length, 1);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// validate.ts: one line.

describe('validateLine', () => {
  test("malformed_jsonl at the JSON error's position, counting UTF-16 units after emoji and CJK", () => {
    // 😀 is two UTF-16 units, 漢字 two: the `}` after the stray comma is at character 18.
    const text = '{"a":"😀漢字","b":1,}';
    const result = validateLine('transcript', text);
    assert.equal(text.indexOf(',}') + 1, 18);
    assert.deepEqual(result.problems.map(whereLine), ['18-19 malformed_jsonl']);
    assert.equal(defined(result.problems[0]).message, 'Not valid JSON at character 18: a property name (a double-quoted string) is expected.');
    assert.equal(result.summary.shape, 'malformed');
    assert.equal(result.summary.valid, false);
    assert.deepEqual(validateLine('jsonl', '{"a":1} x').problems.map(whereLine), ['8-9 malformed_jsonl']);
    assert.deepEqual(validateLine('jsonl', 'nul').problems.map(whereLine), ['0-3 malformed_jsonl']);
  });

  test('a row cut off mid-string says so', () => {
    const text = '{"type":"message","content":"😀 half';
    const result = validateLine('transcript', text);
    const range = span(text, '"😀 half');
    assert.deepEqual(result.problems.map(whereLine), [`${range.start}-${range.end} malformed_jsonl`]);
    assert.match(defined(result.problems[0]).message, /unterminated string, and the line ends there: the row is cut off/);
    const open = '{"type":"message","a":1';
    assert.deepEqual(validateLine('transcript', open).problems.map(whereLine), [`${open.length}-${open.length} malformed_jsonl`]);
  });

  test('unknown row types and events are tolerated: information on the `type` property', () => {
    const text = row({ type: 'shiny_new_row', note: 'x' });
    const result = validateLine('transcript', text);
    const range = span(text, '"type":"shiny_new_row"');
    assert.deepEqual(result.problems.map(whereLine), [`${range.start}-${range.end} unknown_row_type`]);
    assert.equal(defined(result.problems[0]).severity, 'information');
    assert.equal(result.summary.valid, true);
    assert.equal(result.summary.known, false);
    const eventText = row({ ...env(3), note: '漢', type: 'agent_thought_chunk', session_id: 's' });
    const eventResult = validateLine('eventLog', eventText);
    const eventRange = span(eventText, '"type":"agent_thought_chunk"');
    assert.deepEqual(eventResult.problems.map(whereLine), [`${eventRange.start}-${eventRange.end} unknown_row_type`]);
    // …but the envelope of an unknown event is still checked.
    const badEnvelope = row({ index: -1, emitted_at_ms: 1, type: 'agent_thought_chunk' });
    assert.deepEqual(
      validateLine('eventLog', badEnvelope)
        .problems.map((p) => p.code)
        .sort(),
      ['invalid_row', 'unknown_row_type'],
    );
  });

  test('a row without `type`, a non-string type, a row that is not an object', () => {
    assert.deepEqual(validateLine('transcript', '{"a":1}').problems.map(whereLine), ['0-7 invalid_row']);
    assert.match(defined(validateLine('transcript', '{"a":1}').problems[0]).message, /no `type`: it is required/);
    const numeric = '{"a":"😀","type":3}';
    assert.deepEqual(validateLine('transcript', numeric).problems.map(whereLine), ['10-18 invalid_row']);
    assert.deepEqual(validateLine('eventLog', '[1,2]').problems.map(whereLine), ['0-5 invalid_row']);
    assert.equal(validateLine('eventLog', '[1,2]').summary.shape, 'notObject');
    // Generic JSONL accepts any JSON value.
    assert.deepEqual(validateLine('jsonl', '[1,2]').problems, []);
  });

  test('blank lines are information, never errors', () => {
    for (const text of ['', '   ', '\t']) {
      const result = validateLine('transcript', text);
      assert.deepEqual(result.problems.map(whereLine), [`0-${text.length} blank_line`]);
      assert.equal(defined(result.problems[0]).severity, 'information');
      assert.equal(result.summary.shape, 'blank');
    }
  });

  test('whitespace as Harn trims it (Rust str::trim): a U+0085 or no-break-space line is blank, a padded row is a row', () => {
    for (const text of ['\u0085', '\u00a0 \u3000', '\f\v']) {
      const result = validateLine('transcript', text);
      assert.deepEqual(result.problems.map(whereLine), [`0-${text.length} blank_line`], JSON.stringify(text));
      assert.equal(result.summary.shape, 'blank');
    }
    const padded = '\u00a0{"type":"message","session_id":"s","message_index":"0","role":"user"}\u2003';
    const result = validateLine('transcript', padded);
    assert.equal(result.summary.shape, 'row');
    const range = span(padded, '"message_index":"0"');
    assert.deepEqual(result.problems.map(whereLine), [`${range.start}-${range.end} invalid_row`]);
    // The descriptor scan (upstream's rules) counts the same rows.
    const text =
      [
        '{"type":"system_prompt","content":"x"}',
        '\u0085',
        padded.replace('"0"', '0'),
        '{"type":"agent_session_finalized","session_id":"s","final_status":"done"}',
      ].join('\n') + '\n';
    assert.deepEqual(problemsOf('transcript', text).map(where), ['1:0-1:1 blank_line']);
    const facts = transcriptFacts(Buffer.from(text));
    assert.equal(facts.error, null);
    assert.equal(facts.event_count, 3);
    // A malformed padded row is reported at its real error, not at the padding.
    const cut = '\u00a0{"type":"message","content":"ab';
    assert.deepEqual(validateLine('transcript', cut).problems.map(whereLine), [`${cut.indexOf('"ab')}-${cut.length} malformed_jsonl`]);
  });

  test('a BOM at the start of a line is noted and skipped; later positions include it', () => {
    const text = '\ufeff{"type":"message","message_index":"0"}';
    const result = validateLine('transcript', text);
    const range = span(text, '"message_index":"0"');
    // Sorted by position: the two missing fields (session_id, role) on the whole row, then message_index.
    assert.deepEqual(result.problems.map(whereLine), [
      '0-1 utf8_bom',
      `1-${text.length} invalid_row`,
      `1-${text.length} invalid_row`,
      `${range.start}-${range.end} invalid_row`,
    ]);
    assert.equal(result.summary.type, 'message');
    assert.equal(result.summary.length, text.length);
  });

  test('a BOM line that is not JSON: its message counts the BOM; only the first BOM is one (20,000 of them do not recurse)', () => {
    const cut = '\ufeff{"type":';
    assert.deepEqual(
      validateLine('transcript', cut).problems.map((p) => [p.code, p.startCharacter, p.endCharacter, p.message]),
      [
        ['utf8_bom', 0, 1, 'A UTF-8 byte order mark starts this line; Harn never writes one. It is skipped.'],
        ['malformed_jsonl', 9, 9, 'Not valid JSON at character 9: a value is expected, and the line ends there: the row is cut off.'],
      ],
    );
    const boms = '\ufeff'.repeat(20_000) + '{}';
    const result = validateLine('transcript', boms);
    assert.deepEqual(
      result.problems.map((p) => [p.code, p.startCharacter, p.endCharacter, p.message]),
      [
        ['utf8_bom', 0, 1, 'A UTF-8 byte order mark starts this line; Harn never writes one. It is skipped.'],
        ['malformed_jsonl', 1, 20_000, 'Not valid JSON at character 1: unexpected character.'],
      ],
    );
    assert.equal(result.summary.shape, 'malformed');
  });

  test('a 10 MB line: valid, and cut off', () => {
    const big = 'x😀'.repeat(3_500_000);
    const text = row({ ...TRANSCRIPT_ROWS.message, content: big });
    assert.ok(text.length > 10_000_000);
    const result = validateLine('transcript', text);
    assert.deepEqual(result.problems, []);
    assert.equal(result.summary.length, text.length);
    assert.equal(result.summary.messageIndex, 0);
    const cut = text.slice(0, 9_000_001);
    const broken = validateLine('transcript', cut);
    assert.equal(broken.problems.length, 1);
    const problem = defined(broken.problems[0], 'the malformed_jsonl problem');
    assert.equal(problem.code, 'malformed_jsonl');
    assert.equal(problem.endCharacter, cut.length);
    assert.ok(problem.message.length < 200, 'the message never echoes the line');
    // Values quoted in messages are shortened: a 1 MB `type` or session id never lands in a diagnostic.
    const hugeType = validateLine('eventLog', row({ ...env(0), type: 'x'.repeat(1_000_000), session_id: 's' }));
    assert.ok(hugeType.problems.every((p) => p.message.length < 300));
    const hugeSession = 'S'.repeat(1_000_000);
    const lines = [row({ ...env(0), type: 'iteration_start', session_id: hugeSession }), row({ ...env(0), type: 'iteration_start', session_id: hugeSession })];
    const cross = problemsOf('eventLog', lines.join('\n'));
    assert.deepEqual(
      cross.map((p) => p.code),
      ['event_index_duplicate'],
    );
    assert.ok(defined(cross[0]).message.length < 300);
  });

  test('results are reusable: line-independent, the same shape for every row, equal for equal input', () => {
    const lines = [...SPEC_TRANSCRIPT, '', '{bad', '[1]', row({ type: 'zzz' }), row({ type: 'message' })];
    const shapes = new Set<string>();
    for (const text of lines) {
      const a = validateLine('transcript', text);
      const b = validateLine('transcript', text);
      assert.deepEqual(a, b);
      assert.deepEqual(Object.keys(a), ['problems', 'summary', 'directives']);
      shapes.add(Object.keys(a.summary).join(','));
      for (const p of a.problems) assert.ok(!('line' in p), 'no line number in a line result');
    }
    assert.equal(shapes.size, 1, 'one summary shape');
    // Placing the same result on two lines.
    const result = validateLine('transcript', '{bad');
    assert.deepEqual(placeLineProblems(result.problems, 3).map(where), ['3:1-3:4 malformed_jsonl']);
    assert.deepEqual(placeLineProblems(result.problems, 9).map(where), ['9:1-9:4 malformed_jsonl']);
    assert.ok(Object.isFrozen(validateLine('transcript', SPEC_TRANSCRIPT[0]).problems));
  });

  test('the summary holds what cross-row checks, hovers and outline need', () => {
    const s = (kind: JsonlKind, text: string): RowSummary => validateLine(kind, text).summary;
    const message = s('transcript', SPEC_TRANSCRIPT[0]);
    assert.equal(message.type, 'message');
    assert.equal(message.sessionId, 's-42');
    assert.equal(message.messageIndex, 0);
    assert.equal(message.role, 'user');
    assert.equal(rowIdentity(message, 1), 'row:1');
    const response = s('transcript', SPEC_TRANSCRIPT[1]);
    assert.equal(response.callId, 'c-01');
    assert.equal(response.iteration, 0);
    assert.equal(rowIdentity(response, 2), 'c-01');
    const receipt = s('transcript', SPEC_TRANSCRIPT[2]);
    assert.deepEqual([receipt.callId, receipt.messageIndex, receipt.toolFormat, receipt.toolName], ['tc_0', 2, 'text', 'open_doc']);
    const done = s('transcript', SPEC_TRANSCRIPT[3]);
    assert.deepEqual([done.terminal, done.terminalStatus], [true, 'done']);
    const other = s('transcript', row({ type: 'whatever', terminal: true, stop_reason: 'crash' }));
    assert.deepEqual([other.terminal, other.terminalStatus], [true, 'crash']);
    const call = s('transcript', row(TRANSCRIPT_ROWS.tool_call));
    assert.equal(call.assistantMessageIndex, 1);
    // A u64 hash beyond 2^53 keeps every digit.
    const schemas = s('transcript', '{"type":"tool_schemas","schemas":[],"hash":18446744073709551615}');
    assert.equal(schemas.toolSchemaHash, '18446744073709551615');
    assert.equal(s('transcript', row({ ...TRANSCRIPT_ROWS.tool_schemas, hash: 'cat-7' })).toolSchemaHash, 'cat-7');
    const update = s('eventLog', SPEC_EVENTS[1]);
    assert.deepEqual([update.eventIndex, update.toolCallId, update.sessionId], [5, 'cand-3', 's-42']);
    const boundary = s('eventLog', SPEC_EVENTS[0]).boundary;
    assert.deepEqual(boundary, {
      boundary: 'text_tool_parse',
      kind: 'unrecognized',
      owner: 'harness',
      detail: '<invoke> dialect salvaged as prose',
      excerpt: '<invoke>open_doc(a.ts)</invoke>',
      droppedCount: 1,
      droppedBytes: 31,
      unreported: false,
    });
  });

  test('topLevelProperty ignores nested keys and strings that look like keys', () => {
    const text = '{"a":{"type":"inner"},"s":"\\"type\\":1","type":"outer","z":[{"type":2}]}';
    const r = topLevelProperty(text, 'type');
    assert.ok(r);
    assert.equal(text.slice(r.start, r.end), '"type":"outer"');
    assert.equal(text.slice(r.valueStart, r.end), '"outer"');
    const nested = topLevelProperty(text, 'a');
    assert.ok(nested);
    assert.equal(text.slice(nested.start, nested.end), '"a":{"type":"inner"}');
    assert.equal(topLevelProperty(text, 'missing'), undefined);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// validate.ts: across rows.

type Row = Record<string, unknown>;
/** A small well-formed transcript: a text-channel tool call answered by its receipt, then finalized (9 rows). */
function transcript(session = 's-42'): [Row, Row, Row, Row, Row, Row, Row, Row, Row] {
  return [
    { type: 'system_prompt', ...ts, content: 'sys', hash: 1, content_hash: 'blake3:1' },
    { type: 'message', ...ts, session_id: session, message_index: 0, role: 'user', content: 'fix a.ts', message: { role: 'user', content: 'fix a.ts' } },
    { type: 'provider_call_request', ...ts, call_id: 'c-01', iteration: 0, model: 'm', provider: 'p', tool_format: 'text' },
    { type: 'provider_call_response', ...ts, call_id: 'c-01', iteration: 0, text: '<tool_call>…</tool_call>', tool_calls: [] },
    { type: 'message', ...ts, session_id: session, message_index: 1, role: 'assistant', content: '<tool_call>…</tool_call>' },
    {
      type: 'tool_call',
      ...ts,
      schema_version: 'harn.llm_tool_call_receipt.v1',
      session_id: session,
      assistant_message_index: 1,
      call_id: 'tc_0',
      tool_name: 'open_doc',
      arguments: {},
    },
    { type: 'message', ...ts, session_id: session, message_index: 2, role: 'user', content: 'let x = 1' },
    {
      type: 'tool_result',
      ...ts,
      schema_version: 'harn.llm_tool_result_receipt.v1',
      session_id: session,
      message_index: 2,
      call_id: 'tc_0',
      tool_name: 'open_doc',
      ok: true,
      tool_format: 'text',
    },
    { type: 'agent_session_finalized', ...ts, session_id: session, final_status: 'done', stop_reason: 'natural', iterations: 1, terminal: true },
  ];
}
const jsonl = (rows: Record<string, unknown>[], eol = '\n'): string => rows.map(row).join(eol) + eol;

describe('cross-row checks', () => {
  test('a well-formed transcript has no problems (LF and CRLF)', () => {
    assert.deepEqual(problemsOf('transcript', jsonl(transcript())), []);
    assert.deepEqual(problemsOf('transcript', jsonl(transcript(), '\r\n')), []);
  });

  test('incomplete_source: no terminal row → a warning on the last row', () => {
    const rows = transcript().slice(0, -1);
    const text = jsonl(rows);
    const problems = problemsOf('transcript', text);
    assert.deepEqual(problems.map(where), [`7:0-7:${row(defined(rows[7], 'row 7')).length} incomplete_source`]);
    assert.equal(defined(problems[0]).severity, 'warning');
    // `terminal: true` on any row also terminates.
    assert.deepEqual(
      problemsOf('transcript', jsonl([...rows, { type: 'run_terminal', status: 'ok' }])).map((p) => p.code),
      [],
    );
    assert.deepEqual(
      problemsOf('transcript', jsonl([...rows, { type: 'custom_end', terminal: true }])).map((p) => p.code),
      ['unknown_row_type'],
    );
  });

  test('empty_transcript: no rows at all', () => {
    assert.deepEqual(problemsOf('transcript', '').map(where), ['0:0-0:0 empty_transcript']);
    assert.deepEqual(problemsOf('transcript', '\n  \n').map(where), ['0:0-0:0 blank_line', '0:0-0:0 empty_transcript', '1:0-1:2 blank_line']);
  });

  test('row_after_terminal on every row after the terminal row', () => {
    const rows = [...transcript(), { type: 'message', ...ts, session_id: 's-42', message_index: 3, role: 'user', content: '😀 late' }];
    const problems = problemsOf('transcript', jsonl(rows));
    assert.deepEqual(problems.map(where), [`9:0-9:${row(defined(rows[9], 'the late row')).length} row_after_terminal`]);
    assert.match(defined(problems[0]).message, /terminal row on line 9/);
  });

  test('unbound_tool_result_receipt: binds by (session_id, message_index), wherever the receipt sits', () => {
    // The receipt moved before its message row still binds.
    const rows = transcript();
    const moved = [rows[0], rows[7], ...rows.slice(1, 7), rows[8]];
    assert.deepEqual(problemsOf('transcript', jsonl(moved)), []);
    // Index 5 has no message row; a message 2 in another session does not bind either.
    const unbound = transcript();
    unbound[7] = { ...unbound[7], note: '漢字😀', message_index: 5 };
    const otherSession = transcript();
    otherSession[6] = { ...otherSession[6], session_id: 's-other' };
    for (const [rowsUnderTest, index] of [
      [unbound, 5],
      [otherSession, 2],
    ] as const) {
      const text = jsonl(rowsUnderTest, '\r\n');
      const problems = problemsOf('transcript', text);
      const line = row(rowsUnderTest[7]);
      const range = span(line, `"message_index":${index}`);
      assert.deepEqual(problems.map(where), [`7:${range.start}-7:${range.end} unbound_tool_result_receipt`]);
      assert.equal(defined(problems[0]).severity, 'error');
    }
  });

  test('duplicate_tool_result_receipt: a second receipt for the same message', () => {
    const rows = transcript();
    const again = { ...rows[7], call_id: 'tc_9' };
    const withDuplicate = [...rows.slice(0, 8), again, rows[8]];
    const problems = problemsOf('transcript', jsonl(withDuplicate));
    const range = span(row(again), '"message_index":2');
    assert.deepEqual(problems.map(where), [`8:${range.start}-8:${range.end} duplicate_tool_result_receipt`]);
    assert.match(defined(problems[0]).message, /already has one \(line 8\)/);
  });

  test('unpaired_tool_call: a tool_call receipt never answered before the session ends', () => {
    const rows = transcript();
    const second = { ...rows[5], note: '😀', call_id: 'tc_1', tool_name: 'run' };
    const withUnanswered = [...rows.slice(0, 6), second, ...rows.slice(6)];
    const problems = problemsOf('transcript', jsonl(withUnanswered));
    const range = span(row(second), '"call_id":"tc_1"');
    assert.deepEqual(problems.map(where), [`6:${range.start}-6:${range.end} unpaired_tool_call`]);
    assert.equal(defined(problems[0]).severity, 'warning');
    // A session without a terminal row has not ended: its open calls are not reported (only incomplete_source).
    assert.deepEqual(
      problemsOf('transcript', jsonl(withUnanswered.slice(0, -1))).map((p) => p.code),
      ['incomplete_source'],
    );
    // A result after the terminal row does not answer it.
    const late = [...withUnanswered, { ...rows[7], call_id: 'tc_1', message_index: 2 }];
    assert.deepEqual(
      problemsOf('transcript', jsonl(late))
        .map((p) => p.code)
        .sort(),
      ['duplicate_tool_result_receipt', 'row_after_terminal', 'unpaired_tool_call'],
    );
  });

  test('text-channel ids repeat across iterations (tc_0 each time): paired by count', () => {
    const rows = transcript();
    const secondRound = [
      { ...rows[4], message_index: 3 },
      { ...rows[5], assistant_message_index: 3 },
      { ...rows[6], message_index: 4 },
      { ...rows[7], message_index: 4 },
    ];
    const twice = [...rows.slice(0, 8), ...secondRound, rows[8]];
    assert.deepEqual(problemsOf('transcript', jsonl(twice)), []);
    const unanswered = [...rows.slice(0, 8), ...secondRound.slice(0, 3), rows[8]];
    const problems = problemsOf('transcript', jsonl(unanswered));
    assert.deepEqual(
      problems.map((p) => `${p.line} ${p.code}`),
      ['9 unpaired_tool_call'],
    );
  });

  test('event_index_gap and event_index_duplicate, per session, on the `index` property', () => {
    const ev = (index: number, session = 's-1', extra: Record<string, unknown> = {}) =>
      row({ ...env(index), type: 'iteration_start', session_id: session, ...extra });
    const lines = [ev(0), ev(1), ev(0, 's-2'), ev(4, 's-1', { note: '😀漢' }), ev(4), ev(1, 's-2'), ev(5)] as const;
    const text = lines.join('\r\n') + '\r\n';
    const problems = problemsOf('eventLog', text);
    const gap = span(lines[3], '"index":4');
    const dup = span(lines[4], '"index":4');
    assert.deepEqual(problems.map(where), [`3:${gap.start}-3:${gap.end} event_index_gap`, `4:${dup.start}-4:${dup.end} event_index_duplicate`]);
    assert.match(defined(problems[0]).message, /indexes 2–3 are missing \(2 events lost before this one\)/);
    assert.match(defined(problems[1]).message, /Duplicate event index 4 in session "s-1" \(first on line 4\)/);
    assert.ok(problems.every((p) => p.severity === 'warning'));
  });

  test('a session must start at index 0, except in a rotated segment; late events fill a gap', () => {
    const ev = (index: number) => row({ ...env(index), type: 'iteration_end', session_id: 's' });
    const text = [ev(3), ev(4)].join('\n') + '\n';
    assert.deepEqual(
      problemsOf('eventLog', text).map((p) => `${p.line} ${p.code}`),
      ['0 event_index_gap'],
    );
    assert.match(defined(problemsOf('eventLog', text)[0]).message, /start at 3, not 0/);
    assert.deepEqual(problemsOf('eventLog', text, { fileName: '/runs/event_log-000002.jsonl' }), []);
    assert.deepEqual(problemsOf('eventLog', text, { continuation: true }), []);
    const outOfOrder = [ev(0), ev(2), ev(1), ev(3)].join('\n') + '\n';
    assert.deepEqual(problemsOf('eventLog', outOfOrder), []);
  });

  test('boundary_failure: a warning naming boundary, kind, owner and counts', () => {
    const problems = problemsOf('eventLog', SPEC_EVENTS.join('\n') + '\n', { continuation: true });
    assert.deepEqual(problems.map(where), [`0:0-0:${SPEC_EVENTS[0].length} boundary_failure`]);
    const problem = defined(problems[0], 'the boundary_failure problem');
    assert.equal(problem.severity, 'warning');
    assert.equal(problem.message, 'text_tool_parse lost model output: unrecognized (owner harness), 1 dropped, 31 bytes');
    assert.deepEqual(problem.data, {
      id: 'text_tool_parse',
      boundary: 'text_tool_parse',
      kind: 'unrecognized',
      owner: 'harness',
      droppedCount: 1,
      droppedBytes: 31,
      detail: '<invoke> dialect salvaged as prose',
      excerpt: '<invoke>open_doc(a.ts)</invoke>',
    });
    const titled = problemsOf('eventLog', SPEC_EVENTS[0] + '\n', {
      continuation: true,
      registryTitle: (id: string) => (id === 'text_tool_parse' ? 'Text tool-call parse' : undefined),
    });
    assert.equal(defined(titled[0]).message, 'text_tool_parse (Text tool-call parse) lost model output: unrecognized (owner harness), 1 dropped, 31 bytes');
    const capped = row({
      ...env(0),
      type: 'boundary_failure',
      session_id: 's',
      boundary: 'chat_turn_cap',
      kind: 'capped',
      owner: 'policy',
      detail: 'cap',
      dropped_bytes: 1,
    });
    assert.deepEqual(
      problemsOf('eventLog', capped).map((p) => p.message),
      ['chat_turn_cap lost model output: capped (owner policy), 1 byte'],
    );
  });

  test('unreported_boundary_failure: an error on `unreported: true`', () => {
    const o = { ...(JSON.parse(SPEC_EVENTS[0]) as Record<string, unknown>), index: 0, excerpt: '😀漢字', unreported: true };
    const text = row(o);
    const problems = problemsOf('eventLog', text + '\n');
    const range = span(text, '"unreported":true');
    assert.deepEqual(problems.map(where), [`0:${range.start}-0:${range.end} unreported_boundary_failure`]);
    const problem = defined(problems[0], 'the unreported_boundary_failure problem');
    assert.equal(problem.severity, 'error');
    assert.match(
      problem.message,
      /^text_tool_parse lost model output: unrecognized \(owner harness\), 1 dropped, 31 bytes\. Unreported: .*Drop backstop.*harness bug/,
    );
  });

  test('boundaryFailureMessage (shared with hover) without counts', () => {
    assert.equal(
      boundaryFailureMessage({
        boundary: 'visible_text_sanitize',
        kind: 'truncated',
        owner: undefined,
        detail: undefined,
        excerpt: undefined,
        droppedCount: undefined,
        droppedBytes: undefined,
        unreported: false,
      }),
      'visible_text_sanitize lost model output: truncated (owner harness)',
    );
  });

  test('a truncated last line: malformed_jsonl plus truncated_last_line, and nothing else lost', () => {
    const rows = transcript();
    const last = row(rows[8]);
    const text = jsonl(rows.slice(0, 8)) + last.slice(0, 40);
    const problems = problemsOf('transcript', text);
    const cut = span(last.slice(0, 40), '"times');
    assert.deepEqual(problems.map(where).sort(), [`8:${cut.start}-8:40 malformed_jsonl`, '8:0-8:40 truncated_last_line', '8:0-8:40 incomplete_source'].sort());
    assert.equal(defined(only(problems, 'truncated_last_line')[0]).severity, 'information');
    // The same text with a final newline is only malformed.
    assert.deepEqual(
      problemsOf('transcript', text + '\n')
        .map((p) => p.code)
        .sort(),
      ['incomplete_source', 'malformed_jsonl'],
    );
  });

  test('crossRowProblems reads only summaries; refineProblemRanges narrows with the line text', () => {
    const text = row({ ...env(1), type: 'iteration_start', session_id: 's' });
    const lines = [text];
    const summaries = lines.map((l) => validateLine('eventLog', l).summary);
    const raw = crossRowProblems('eventLog', summaries);
    assert.deepEqual(raw.map(where), [`0:0-0:${text.length} event_index_gap`]);
    assert.deepEqual(refineProblemRanges(raw, (line) => lines[line]).map(where), ['0:1-0:10 event_index_gap']);
    // Stale text (a different length) leaves the range alone.
    assert.deepEqual(refineProblemRanges(raw, () => '{}').map(where), raw.map(where));
  });

  test('every code has a severity, and only the documented ones are errors', () => {
    const errors = Object.entries(PROBLEM_SEVERITY)
      .filter(([, s]) => s === 'error')
      .map(([c]) => c)
      .sort();
    assert.deepEqual(errors, [
      'duplicate_tool_result_receipt',
      'invalid_row',
      'invalid_utf8',
      'line_too_long',
      'malformed_jsonl',
      'nesting_too_deep',
      'unbound_tool_result_receipt',
      'unreadable_file',
      'unreported_boundary_failure',
    ]);
    assert.equal(PROBLEM_SEVERITY.unknown_row_type, 'information');
    assert.equal(PROBLEM_SEVERITY.boundary_failure, 'warning');
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Kind detection and whole files.

describe('detectArtifactKind', () => {
  test('by file name first', () => {
    assert.equal(detectArtifactKind('/w/run-llm/llm_transcript.jsonl', []), 'transcript');
    assert.equal(detectArtifactKind('llm_transcript-2.jsonl', ['{"index":0,"emitted_at_ms":1,"type":"x"}']), 'transcript');
    assert.equal(detectArtifactKind('C:\\runs\\event_log.jsonl', []), 'eventLog');
    assert.equal(detectArtifactKind('event_log-000001.jsonl', []), 'eventLog');
    assert.equal(detectArtifactKind('/w/run.json', []), 'runRecord');
  });

  test('then by the first rows', () => {
    assert.equal(detectArtifactKind('copy.jsonl', ['', '{broken', SPEC_EVENTS[1]]), 'eventLog');
    assert.equal(detectArtifactKind('copy.jsonl', ['\ufeff' + SPEC_TRANSCRIPT[0]]), 'transcript');
    // A transcript `tool_call` row and an event `tool_call` share the type: the envelope decides.
    assert.equal(detectArtifactKind('a.jsonl', [row(TRANSCRIPT_ROWS.tool_call)]), 'transcript');
    assert.equal(detectArtifactKind('a.jsonl', [row(EVENT_ROWS.tool_call)]), 'eventLog');
    assert.equal(detectArtifactKind('fixture.llm-mock.jsonl', ['{"text":"done","model":"m","provider":"mock"}']), 'jsonl');
    assert.equal(detectArtifactKind('x.ndjson', ['{"event_type":"stdout","payload":"x"}']), 'jsonl');
    assert.equal(detectArtifactKind('r9.json', ['{', '  "_type": "run_record",']), 'runRecord');
    assert.equal(detectArtifactKind('package.json', ['{', '  "name": "x"']), undefined);
    assert.equal(detectArtifactKind('notes.txt', [SPEC_TRANSCRIPT[0]]), undefined);
  });
});

describe('validateArtifact and validateArtifactFile', () => {
  const mixed = [
    row({ ...transcript()[1], content: '😀 漢字' }),
    '',
    '{"type":"message","session_id":"s-42","message_index":"1","role":"user"}',
    '{not json',
    row({ type: 'mystery' }),
    row(transcript()[7]),
  ] as const;

  test('the streamed file gives the same problems and summaries as the text, LF and CRLF, with a line index', () => {
    for (const eol of ['\n', '\r\n']) {
      const text = mixed.join(eol) + eol;
      const fromText = validateArtifact('transcript', text);
      const file = tmpFile('llm_transcript.jsonl', text);
      const fromFile = validateArtifactFile('transcript', file);
      assert.deepEqual(fromFile.problems, fromText.problems);
      assert.deepEqual(fromFile.summaries, fromText.summaries);
      assert.equal(fromFile.summaries.length, mixed.length);
      assert.deepEqual(fromText.problems.map(where), [
        '1:0-1:0 blank_line',
        `2:${span(mixed[2], '"message_index":"1"').start}-2:${span(mixed[2], '"message_index":"1"').end} invalid_row`,
        '3:1-3:4 malformed_jsonl',
        `4:1-4:${1 + '"type":"mystery"'.length} unknown_row_type`,
        `5:0-5:${mixed[5].length} incomplete_source`,
        `5:${span(mixed[5], '"message_index":2').start}-5:${span(mixed[5], '"message_index":2').end} unbound_tool_result_receipt`,
      ]);
      for (let line = 0; line < mixed.length; line++) {
        assert.equal(readLineAt(file, fromFile.lineIndex, line), mixed[line]);
      }
      assert.equal(fromFile.lineIndex.lineStarts[1], Buffer.byteLength(mixed[0] + eol));
    }
  });

  test('a BOM and invalid UTF-8 in a file', () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(`${SPEC_TRANSCRIPT[0]}\n{"type":"message","session_id":"s-42","message_index":1,"role":"user","content":"漢`),
      Buffer.from([0xc3, 0x28]),
      Buffer.from(`"}\n${SPEC_TRANSCRIPT[3]}\n`),
    ]);
    const result = validateArtifactFile('transcript', tmpFile('llm_transcript.jsonl', bytes));
    const contentAt = '{"type":"message","session_id":"s-42","message_index":1,"role":"user","content":"漢'.length;
    assert.deepEqual(result.problems.map(where), ['0:0-0:0 utf8_bom', `1:${contentAt}-1:${contentAt + 1} invalid_utf8`]);
    assert.equal(defined(result.summaries[1]).type, 'message');
    assert.deepEqual(result.lineIndex.lineStarts.slice(0, 2), [3, 3 + Buffer.byteLength(SPEC_TRANSCRIPT[0]) + 1]);
  });

  test('an unreadable file is a problem, not a throw', () => {
    const result = validateArtifactFile('eventLog', path.join(dir, 'gone', 'event_log.jsonl'));
    assert.deepEqual(
      result.problems.map((p) => p.code),
      ['unreadable_file'],
    );
    assert.deepEqual(result.summaries, []);
  });

  test('a 10 MB line and invalid bytes in a streamed file never throw', () => {
    const big = row({ ...TRANSCRIPT_ROWS.message, content: '漢'.repeat(3_500_000) });
    const bytes = Buffer.concat([Buffer.from(big + '\n'), Buffer.from([0xff, 0xfe, 0x00, 0x0a]), Buffer.from(SPEC_TRANSCRIPT[3])]);
    const result = validateArtifactFile('transcript', tmpFile('llm_transcript.jsonl', bytes));
    assert.deepEqual(
      result.problems.map((p) => `${p.line} ${p.code}`),
      ['1 invalid_utf8', '1 malformed_jsonl'],
    );
    assert.equal(defined(result.summaries[0]).length, big.length);
    assert.equal(result.endsWithNewline, false);
  });
});

describe('row_after_terminal with several sessions in one sidecar', () => {
  const msg = (session: string, index: number): string =>
    row({
      type: 'message',
      timestamp: '1.000',
      span_id: null,
      session_id: session,
      message_index: index,
      role: 'user',
      content: 'x',
      message: { role: 'user', content: 'x' },
    });
  const fin = (session: string): string =>
    row({
      type: 'agent_session_finalized',
      timestamp: '2.000',
      span_id: null,
      session_id: session,
      final_status: 'done',
      stop_reason: 'natural',
      iterations: 1,
      terminal: true,
    });
  const sessionless = row({ type: 'system_prompt', timestamp: '3.000', span_id: null, content: 'p', hash: 1, content_hash: 'blake3:0' });

  test('a sub-agent finishing first does not make the parent session late', () => {
    const text = [msg('parent', 0), msg('child', 0), fin('child'), msg('parent', 1), fin('parent')].join('\n') + '\n';
    assert.deepEqual(only(problemsOf('transcript', text), 'row_after_terminal'), []);
  });

  test('a row of an ended session, or a sessionless row once every session ended, is late', () => {
    const text = [msg('parent', 0), msg('child', 0), fin('child'), msg('child', 1), msg('parent', 1), fin('parent'), sessionless].join('\n') + '\n';
    assert.deepEqual(
      only(problemsOf('transcript', text), 'row_after_terminal').map((p) => [p.line, p.data?.terminalLine]),
      [
        [3, 2],
        [6, 5],
      ],
    );
  });
});

// What examples/demo/runs/broken must produce (see its README.md), computed from the files themselves so that
// the CLI and language-server tests check the same ranges: each code at its line, on the property it is about
// where there is one, in 0-based lines and UTF-16 characters.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { findNodeAtLocation, parseTree, type Node as JsonNode } from 'jsonc-parser';
import type { Range } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { defined } from './assertions';
import { REPO_ROOT } from './lspClient';

export const DEMO = path.join(REPO_ROOT, 'examples', 'demo');
export const BROKEN = path.join(DEMO, 'runs', 'broken');
export const HEALTHY = path.join(DEMO, 'runs', 'healthy');

/** Paths relative to DEMO (the CLI's --root in the tests). */
export const TRANSCRIPT = 'runs/broken/run-llm/llm_transcript.jsonl';
export const UNFINISHED = 'runs/broken/run-llm/llm_transcript-unfinished.jsonl';
export const LATIN1 = 'runs/broken/run-llm/llm_transcript-latin1.jsonl';
export const EMPTY = 'runs/broken/run-llm/llm_transcript-empty.jsonl';
export const EVENT_LOG = 'runs/broken/event_log.jsonl';
export const RUN_RECORD = 'runs/broken/run.json';

export interface Expected {
  path: string;
  code: string;
  severity: 'error' | 'warning' | 'information';
  range: Range;
}

/** The lines of a demo file (LF line breaks; the files are kept byte-exact), decoded with U+FFFD replacements. */
export function demoLines(rel: string): string[] {
  return fs.readFileSync(path.join(DEMO, rel)).toString('utf8').split('\n');
}

/** The range of the only occurrence of `needle` on 0-based `line` (UTF-16 characters, as indexOf counts). */
export function onLine(lines: string[], line: number, needle: string): Range {
  const text = defined(lines[line], `line ${line}`);
  const at = text.indexOf(needle);
  if (at < 0 || text.indexOf(needle, at + 1) >= 0) throw new Error(`${JSON.stringify(needle)} is not on line ${line} exactly once: ${text}`);
  return { start: { line, character: at }, end: { line, character: at + needle.length } };
}

/** The whole of 0-based `line`. */
export function wholeLine(lines: string[], line: number): Range {
  return { start: { line, character: 0 }, end: { line, character: defined(lines[line], `line ${line}`).length } };
}

/** The run-record pointers, in file order: the one code each must produce and the value it sits on. */
export const POINTERS: ReadonlyArray<{ code: string; at: (string | number)[] }> = [
  { code: 'unverified_descriptor', at: ['verification_status'] },
  { code: 'missing_descriptor', at: ['descriptor'] },
  { code: 'schema_mismatch', at: ['descriptor', 'schema_version'] },
  { code: 'artifact_kind_mismatch', at: ['descriptor', 'artifact_kind'] },
  { code: 'run_id_mismatch', at: ['descriptor', 'run_id'] },
  { code: 'path_traversal', at: ['descriptor', 'relative_path'] },
  { code: 'missing_path', at: ['descriptor', 'path'] },
  { code: 'unavailable', at: ['descriptor', 'relative_path'] },
  { code: 'invalid_utf8', at: ['descriptor', 'relative_path'] },
  { code: 'malformed_jsonl', at: ['descriptor', 'relative_path'] },
  { code: 'empty_transcript', at: ['descriptor', 'relative_path'] },
  { code: 'digest_mismatch', at: ['descriptor', 'sha256'] },
  { code: 'byte_len_mismatch', at: ['descriptor', 'byte_len'] },
  { code: 'event_count_mismatch', at: ['descriptor', 'event_count'] },
  { code: 'completeness_mismatch', at: ['descriptor', 'complete'] },
];

/** The range of the JSON value at `jsonPath` in `text`. */
export function jsonValueRange(text: string, jsonPath: (string | number)[]): Range {
  const root = parseTree(text);
  const node: JsonNode | undefined = root && findNodeAtLocation(root, jsonPath);
  if (!node) throw new Error(`no JSON value at ${jsonPath.join('.')}`);
  const doc = TextDocument.create('file:///run.json', 'json', 0, text);
  return { start: doc.positionAt(node.offset), end: doc.positionAt(node.offset + node.length) };
}

export function expectedTranscript(): Expected[] {
  const t = demoLines(TRANSCRIPT);
  return [
    { path: TRANSCRIPT, code: 'unpaired_tool_call', severity: 'warning', range: onLine(t, 7, '"call_id":"tc_1"') },
    { path: TRANSCRIPT, code: 'duplicate_tool_result_receipt', severity: 'error', range: onLine(t, 10, '"message_index":2') },
    { path: TRANSCRIPT, code: 'unbound_tool_result_receipt', severity: 'error', range: onLine(t, 11, '"message_index":7') },
    // The row is cut off inside the string "bil…: the range runs from its opening quote to the end of the line.
    { path: TRANSCRIPT, code: 'malformed_jsonl', severity: 'error', range: onLine(t, 13, '"bil') },
    { path: TRANSCRIPT, code: 'unknown_row_type', severity: 'information', range: onLine(t, 14, '"type":"provider_call_retry"') },
    { path: TRANSCRIPT, code: 'invalid_row', severity: 'error', range: onLine(t, 15, '"iteration":"1"') },
    { path: TRANSCRIPT, code: 'row_after_terminal', severity: 'warning', range: wholeLine(t, 18) },
  ];
}

export function expectedEventLog(): Expected[] {
  const e = demoLines(EVENT_LOG);
  return [
    { path: EVENT_LOG, code: 'boundary_failure', severity: 'warning', range: wholeLine(e, 6) },
    { path: EVENT_LOG, code: 'event_index_gap', severity: 'warning', range: onLine(e, 7, '"index":8') },
    { path: EVENT_LOG, code: 'event_index_duplicate', severity: 'warning', range: onLine(e, 8, '"index":8') },
    // After an emoji in the excerpt: UTF-16 characters, not bytes or code points.
    { path: EVENT_LOG, code: 'unreported_boundary_failure', severity: 'error', range: onLine(e, 9, '"unreported":true') },
  ];
}

export function expectedRunRecord(): Expected[] {
  const text = fs.readFileSync(path.join(DEMO, RUN_RECORD), 'utf8');
  return POINTERS.map((p, i) => ({
    path: RUN_RECORD,
    code: p.code,
    severity: p.code === 'unverified_descriptor' ? ('warning' as const) : ('error' as const),
    range: jsonValueRange(text, ['observability', 'transcript_pointers', i, ...p.at]),
  }));
}

/** Everything `check runs/broken --root examples/demo` must report (and nothing else). */
export function expectedBrokenRun(): Expected[] {
  const latin1 = demoLines(LATIN1);
  const bad = defined(latin1[1], `line 1 of ${LATIN1}`).indexOf('\ufffd');
  const unfinished = demoLines(UNFINISHED);
  return [
    ...expectedEventLog(),
    { path: EMPTY, code: 'empty_transcript', severity: 'warning', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } },
    { path: LATIN1, code: 'invalid_utf8', severity: 'error', range: { start: { line: 1, character: bad }, end: { line: 1, character: bad + 1 } } },
    { path: UNFINISHED, code: 'incomplete_source', severity: 'warning', range: wholeLine(unfinished, 5) },
    ...expectedTranscript(),
    ...expectedRunRecord(),
  ];
}

/** Every code the task names, each of which the broken run produces at least once. */
export const BROKEN_RUN_CODES = [
  'malformed_jsonl',
  'invalid_row',
  'unknown_row_type',
  'incomplete_source',
  'row_after_terminal',
  'unbound_tool_result_receipt',
  'duplicate_tool_result_receipt',
  'unpaired_tool_call',
  'event_index_gap',
  'event_index_duplicate',
  'boundary_failure',
  'unreported_boundary_failure',
  'missing_descriptor',
  'unverified_descriptor',
  'schema_mismatch',
  'artifact_kind_mismatch',
  'run_id_mismatch',
  'path_traversal',
  'missing_path',
  'unavailable',
  'invalid_utf8',
  'empty_transcript',
  'digest_mismatch',
  'byte_len_mismatch',
  'event_count_mismatch',
  'completeness_mismatch',
] as const;

// Row identity, tool-call pairing and row numbers (server/src/artifacts/rows.ts; spec/harn-artifacts.md §1
// Identity and Tools): toolPartners and rowNumberAt over the summaries validateArtifact produces for synthetic
// transcripts and event logs (blank, malformed and session-less lines included), with exact expectations; and
// the one row identity shared by validation and hovers.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rowIdentity as hoverRowIdentity, terminalStatus } from '../../server/src/artifacts/hover';
import { identityOf, isTerminalRowObject, rowIdOf, rowNumberAt, terminalStatusOf, toolCallIdOf, toolPartners } from '../../server/src/artifacts/rows';
import { transcriptFacts } from '../../server/src/artifacts/runRecord';
import { rowIdentity, validateArtifact, validateLine, type RowSummary } from '../../server/src/artifacts/validate';

const CALL = (session: string, callId: string, index = 1): string =>
  JSON.stringify({
    type: 'tool_call',
    schema_version: 'harn.llm_tool_call_receipt.v1',
    session_id: session,
    assistant_message_index: index,
    call_id: callId,
    tool_name: 't',
    arguments: {},
  });
const RESULT = (session: string | undefined, callId: string, index = 2): string =>
  JSON.stringify({
    type: 'tool_result',
    schema_version: 'harn.llm_tool_result_receipt.v1',
    session_id: session,
    message_index: index,
    call_id: callId,
    tool_name: 't',
    ok: true,
  });

const TRANSCRIPT_LINES = [
  '{"type":"message","session_id":"s1","message_index":0,"role":"user","content":"x"}', // 0: row 1
  '', // 1: blank
  CALL('s1', 'tc_0'), // 2: row 2
  '   \t', // 3: blank (spaces and a tab)
  CALL('s2', 'tc_0'), // 4: row 3, same call id in another session
  RESULT('s1', 'tc_0'), // 5: row 4
  CALL('s1', 'tc_0', 3), // 6: row 5, a second call receipt with the same id: the first one is the partner
  RESULT(undefined, 'tc_9'), // 7: row 6, no session id: pairs among session-less rows
  '{oops', // 8: row 7 (malformed, still a row)
  '{"type":"agent_session_finalized","session_id":"s1","final_status":"done","terminal":true}', // 9: row 8
];

function summariesOf(kind: 'transcript' | 'eventLog', lines: string[]): RowSummary[] {
  const v = validateArtifact(kind, lines.join('\n') + '\n');
  assert.equal(v.summaries.length, lines.length);
  return v.summaries;
}

describe('toolPartners', () => {
  test('transcript receipts: the first tool_call / tool_result line per (session, call id)', () => {
    const partner = toolPartners(summariesOf('transcript', TRANSCRIPT_LINES));
    assert.equal(partner('tool_call', 's1', 'tc_0'), 2);
    assert.equal(partner('tool_call', 's2', 'tc_0'), 4);
    assert.equal(partner('tool_result', 's1', 'tc_0'), 5);
    assert.equal(partner('tool_result', 's2', 'tc_0'), undefined);
    assert.equal(partner('tool_result', '', 'tc_9'), 7);
    assert.equal(partner('tool_result', 's1', 'tc_9'), undefined);
    assert.equal(partner('tool_call', 's1', 'nope'), undefined);
    assert.equal(partner('tool_call', '', 'tc_0'), undefined);
  });

  test('event-log tool_call events pair on tool_call_id; tool_call_update rows are not partners', () => {
    const lines = [
      '{"index":0,"emitted_at_ms":1,"type":"tool_call","session_id":"s","tool_call_id":"k1","tool_name":"x","status":"pending"}',
      '{"index":1,"emitted_at_ms":2,"type":"tool_call_update","session_id":"s","tool_call_id":"k1","tool_name":"x","status":"completed","raw_output":null,"error":null,"mutation_status":"applied"}',
      '{"index":2,"emitted_at_ms":3,"type":"tool_call","tool_call_id":"k2","tool_name":"x","status":"pending"}',
    ];
    const partner = toolPartners(summariesOf('eventLog', lines));
    assert.equal(partner('tool_call', 's', 'k1'), 0);
    assert.equal(partner('tool_result', 's', 'k1'), undefined);
    assert.equal(partner('tool_call', '', 'k2'), 2);
    assert.equal(partner('tool_call', 's', 'k2'), undefined);
  });

  test('the index is built once, on the first look-up, and kept by the returned function', () => {
    const summaries = summariesOf('transcript', TRANSCRIPT_LINES);
    let reads = 0;
    const counted = new Proxy(summaries, {
      get(target, key, receiver): unknown {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const partner = toolPartners(counted);
    assert.equal(reads, 0, 'nothing read before the first look-up');
    assert.equal(partner('tool_call', 's1', 'tc_0'), 2);
    assert.equal(reads, TRANSCRIPT_LINES.length, 'one pass over the lines');
    assert.equal(partner('tool_result', 's1', 'tc_0'), 5);
    assert.equal(partner('tool_call', 's2', 'tc_0'), 4);
    assert.equal(reads, TRANSCRIPT_LINES.length, 'later look-ups read nothing');
  });

  test('the pairing id: a receipt call_id, else an event tool_call_id', () => {
    assert.equal(toolCallIdOf({ callId: 'c', toolCallId: 'k' }), 'c');
    assert.equal(toolCallIdOf({ callId: undefined, toolCallId: 'k' }), 'k');
    assert.equal(toolCallIdOf({ callId: undefined, toolCallId: undefined }), undefined);
  });
});

describe('rowNumberAt', () => {
  const summaries = summariesOf('transcript', TRANSCRIPT_LINES);

  test('the 1-based count of non-blank lines up to the line; a blank line has the number of the row before it', () => {
    assert.deepEqual(
      TRANSCRIPT_LINES.map((_, line) => rowNumberAt(summaries, line)),
      [1, 1, 2, 2, 3, 4, 5, 6, 7, 8],
    );
  });

  test('leading blank lines are row 0; lines past the end and before the start are clamped', () => {
    const withLeadingBlanks = summariesOf('transcript', ['', ' ', '{"type":"message"}']);
    assert.deepEqual(
      [0, 1, 2].map((line) => rowNumberAt(withLeadingBlanks, line)),
      [0, 0, 1],
    );
    assert.equal(rowNumberAt(summaries, 100), 8);
    assert.equal(rowNumberAt(summaries, -1), 0);
    assert.equal(rowNumberAt([], 0), 0);
  });

  test('with rowIdentity: `row:N` where a row has no id, its id otherwise', () => {
    assert.deepEqual(
      summaries.map((summary, line) => (summary.shape === 'blank' ? '-' : rowIdentity(summary, rowNumberAt(summaries, line)))),
      ['row:1', '-', 'tc_0', '-', 'tc_0', 'tc_0', 'tc_0', 'tc_9', 'row:7', 'row:8'],
    );
  });
});

describe('one row identity', () => {
  const rows: Record<string, unknown>[] = [
    { type: 'a', id: 'i-1', event_id: 'e-1', call_id: 'c-1' },
    { type: 'b', event_id: 'e-2', call_id: 'c-2' },
    { type: 'c', call_id: 'c-3' },
    { type: 'd', id: null, call_id: 'c-4' },
    { type: 'e', id: 7 },
  ];

  test('§1: the first string among id, event_id, call_id, else row:N — the same in validation and hovers', () => {
    assert.deepEqual(
      rows.map((r) => rowIdOf(r)),
      ['i-1', 'e-2', 'c-3', 'c-4', undefined],
    );
    rows.forEach((row, i) => {
      const summary = validateLine('jsonl', JSON.stringify(row)).summary;
      assert.equal(rowIdentity(summary, i + 1), hoverRowIdentity(row, i + 1));
      assert.equal(rowIdentity(summary, i + 1), identityOf(rowIdOf(row), i + 1));
    });
    assert.equal(identityOf(undefined, 5), 'row:5');
  });

  test("run.json descriptors keep upstream's rule instead: the first key present, then only if a string", () => {
    const facts = transcriptFacts(
      Buffer.from(
        rows
          .map((r) => JSON.stringify(r))
          .slice(0, 4)
          .join('\n'),
      ),
    );
    assert.equal(facts.last_event_id, 'row:4');
  });

  test('terminal rows and their status, shared by validation, hovers and the outline', () => {
    assert.equal(isTerminalRowObject({ type: 'run_terminal' }), true);
    assert.equal(isTerminalRowObject({ type: 'custom', terminal: true }), true);
    assert.equal(isTerminalRowObject({ type: 'custom', terminal: 'true' }), false);
    assert.equal(terminalStatusOf({ type: 'agent_session_finalized', final_status: null, status: 'failed', stop_reason: 'x' }), 'failed');
    assert.equal(terminalStatusOf({ type: 'terminal' }), 'terminal');
    assert.equal(terminalStatusOf({}), undefined);
    assert.equal(terminalStatus({}), 'terminal');
    const summary = validateLine('transcript', '{"type":"agent_session_finalized","session_id":"s","stop_reason":"natural"}').summary;
    assert.deepEqual([summary.terminal, summary.terminalStatus], [true, 'natural']);
  });
});

// Duplicate JSON keys: JSON.parse (and serde_json) keep the last of them, so every problem about a property sits on
// the last occurrence, whose value was checked — in a row validated from text, in one validated from disk (whose
// ranges are narrowed afterwards), and in a run record.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { parseRunRecord } from '../../server/src/artifacts/runRecord';
import { topLevelProperty, validateArtifact, validateArtifactFile, validateLine, type JsonlKind } from '../../server/src/artifacts/validate';

/** [start, end) of the `occurrence`-th `needle`. */
function span(text: string, needle: string, occurrence = 0): [number, number] {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) at = text.indexOf(needle, at + 1);
  assert.ok(at >= 0, `${needle} in ${text}`);
  return [at, at + needle.length];
}

const problemsOf = (kind: JsonlKind, line: string): [string, number, number, string][] =>
  validateLine(kind, line).problems.map((p) => [p.code, p.startCharacter, p.endCharacter, p.message]);

describe('duplicate keys in a row', () => {
  test('`type` twice: the unknown type is reported on the second `type`, the one read', () => {
    for (const row of [
      '{"type":"message","type":"bogus_type"}',
      '{"type":"message","x":{"a":[1]},"type":"bogus_type"}',
      '{"type":"message", "type" : "bogus_type"}',
    ]) {
      const second = span(row, '"type"', 1)[0];
      assert.deepEqual(problemsOf('transcript', row), [
        [
          'unknown_row_type',
          second,
          row.lastIndexOf('"bogus_type"') + '"bogus_type"'.length,
          'Unknown transcript row type "bogus_type": tolerated (Harn ignores row types it does not know); not validated.',
        ],
      ]);
    }
  });

  test('`type` twice, the last not a string: invalid_row on the last', () => {
    const row = '{"type":1,"x":[1],"type":2}';
    assert.deepEqual(problemsOf('transcript', row), [['invalid_row', ...span(row, '"type":2'), '`type` must be a string, got the number 2.']]);
  });

  test('a schema field twice: the issue sits on the occurrence whose value failed', () => {
    const row = '{"index":0,"emitted_at_ms":0,"type":"tool_call","session_id":"s","tool_call_id":"t","tool_name":"x","status":"running","status":7}';
    assert.deepEqual(
      problemsOf('eventLog', row).filter(([code]) => code === 'invalid_row'),
      [
        [
          'invalid_row',
          ...span(row, '"status":7'),
          'Invalid tool_call event: `status` must be one of pending, in_progress, completed, failed, got the number 7.',
        ],
      ],
    );
    // A nested object given twice: the path is looked up in the last one.
    const nested =
      '{"index":0,"emitted_at_ms":0,"type":"agent_loop_stall_warning","session_id":"s","warning":{"repeat_count":"x"},"warning":{"repeat_count":"y"}}';
    assert.deepEqual(
      problemsOf('eventLog', nested).map(([code, start, end]) => [code, start, end]),
      [['invalid_row', ...span(nested, '"repeat_count":"y"')]],
    );
  });

  test('topLevelProperty gives the last top-level occurrence, however the keys are spelled', () => {
    const cases: [string, string, string | undefined][] = [
      ['{"a":1,"b":2,"a":3}', 'a', '"a":3'],
      ['{"a":{"b":1},"c":2,"a":[4]}', 'a', '"a":[4]'],
      ['{"a":[1,{"a":2}],"z":1}', 'a', '"a":[1,{"a":2}]'],
      ['{"x\\"a":1,"a":2}', 'a', '"a":2'],
      ['{"a":1,"\\u0061":3}', 'a', '"\\u0061":3'],
      ['{"x":{"a":1}}', 'a', undefined],
    ];
    for (const [text, key, expected] of cases) {
      const found = topLevelProperty(text, key);
      assert.equal(found && text.slice(found.start, found.end), expected, text);
    }
  });

  const dir = mkdtempSync(path.join(tmpdir(), 'harn-duplicates-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('validated from disk: the same ranges as from text', () => {
    const text = [
      '{"index":0,"emitted_at_ms":0,"type":"agent_turn","type":"tool_call","session_id":"s","tool_call_id":"t","tool_name":"x","status":9}',
      '{"index":1,"emitted_at_ms":0,"type":"x","type":7}',
      '',
    ].join('\n');
    const file = path.join(dir, 'event_log.jsonl');
    writeFileSync(file, text);
    const shape = (p: { code: string; line: number; startCharacter: number; endCharacter: number }): [string, number, number, number] => [
      p.code,
      p.line,
      p.startCharacter,
      p.endCharacter,
    ];
    const fromText = validateArtifact('eventLog', text).problems.map(shape);
    assert.deepEqual(validateArtifactFile('eventLog', file).problems.map(shape), fromText);
    const [first = '', second = ''] = text.split('\n');
    assert.deepEqual(
      fromText.filter(([code]) => code === 'invalid_row'),
      [
        ['invalid_row', 0, ...span(first, '"status":9')],
        ['invalid_row', 1, ...span(second, '"type":7')],
      ],
    );
  });
});

describe('duplicate keys in a run record', () => {
  test('the problem sits on the last of duplicate keys, top level and nested', () => {
    const text = '{"_type":"run_record","id":"r","id":5,"usage":{"input_tokens":1},"usage":{"input_tokens":"many"}}';
    assert.deepEqual(
      parseRunRecord(text).problems.map((p) => [p.code, p.startCharacter, p.endCharacter, p.message]),
      [
        ['invalid_run_record', ...span(text, '5'), '`id` should be a string, not 5.'],
        ['invalid_run_record', ...span(text, '"many"'), '`usage.input_tokens` should be an integer, not "many".'],
      ],
    );
  });
});

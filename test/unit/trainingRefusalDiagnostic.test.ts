// training/refusalDiagnostic.ts: where a projection refusal is shown in a run record, and what it says.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { projectionRefusalDiagnostic, refusalSpan } from '../../server/src/training/refusalDiagnostic';

const HEALTHY = fs.readFileSync(path.join(__dirname, '..', '..', 'examples', 'demo', 'runs', 'healthy', 'run.json'), 'utf8');

describe('projectionRefusalDiagnostic', () => {
  test('on the llm_jsonl pointer’s "descriptor" key, information, code = kind, the row in the message and data', () => {
    const line = HEALTHY.split('\n').findIndex((l) => l.includes('"descriptor": {'));
    const character = HEALTHY.split('\n')[line]?.indexOf('"descriptor"') ?? -1;
    const d = projectionRefusalDiagnostic(HEALTHY, { kind: 'tool_outside_catalog', message: 'tool `x` was not served', event_index: 5 });
    assert.deepEqual(d, {
      range: { start: { line, character }, end: { line, character: character + '"descriptor"'.length } },
      severity: 'information',
      source: 'harn.training',
      code: 'tool_outside_catalog',
      message: 'This run cannot be exported as a training example: tool `x` was not served (transcript row 5)',
      data: { event_index: 5 },
    });
  });

  test('without an event index: no row, no data', () => {
    const d = projectionRefusalDiagnostic(HEALTHY, { kind: 'digest_mismatch', message: 'digest differs' });
    assert.equal(d.message, 'This run cannot be exported as a training example: digest differs');
    assert.equal(d.data, undefined);
  });

  test('CRLF and a BOM: the key is still found on its line, in UTF-16 characters', () => {
    const text = '\uFEFF' + HEALTHY.replace(/\n/g, '\r\n');
    const line = HEALTHY.split('\n').findIndex((l) => l.includes('"descriptor": {'));
    assert.equal(refusalSpan(text).line, line);
  });

  test('a pointer without a descriptor: the pointer; no pointer, or not JSON: the top of the file', () => {
    const record = JSON.parse(HEALTHY) as { observability: { transcript_pointers: Record<string, unknown>[] } };
    const pointer = record.observability.transcript_pointers[0];
    assert.ok(pointer);
    pointer.descriptor = null;
    const without = JSON.stringify(record, null, 2);
    const pointerLine = without.split('\n').findIndex((l) => l.includes('"id": "run:llm_transcript"')) - 1;
    assert.equal(refusalSpan(without).line, pointerLine);
    record.observability.transcript_pointers = [];
    assert.deepEqual(refusalSpan(JSON.stringify(record)), { line: 0, startCharacter: 0, endLine: 0, endCharacter: 0 });
    assert.deepEqual(refusalSpan('{ not json'), { line: 0, startCharacter: 0, endLine: 0, endCharacter: 0 });
  });
});

// The run-control log view (tree), composing and retrying requests, and the code actions' row edits, byte for byte.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { composeRequest, retryRequest } from '../../server/src/runControl/compose';
import { removeField, truncateUtf8, withExpectedTurn, withRequestId, withSchema, withTrimmedReason } from '../../server/src/runControl/fixes';
import { readRunControlLog } from '../../server/src/runControl/logView';
import { healthyLog, LogWriter } from '../support/runControlLog';

const T = 1_767_000_000_000;

function activeLog(): LogWriter {
  const log = new LogWriter();
  log.turn(1);
  log.submit(log.request({ kind: 'steer', input: 'first line\nsecond line' }), T);
  log.applyAll(T + 1);
  log.turn(2);
  return log;
}

describe('log view', () => {
  test('the tree: session → run (from its latest snapshot) → controls → receipts, with ranges and problems', () => {
    const view = readRunControlLog(healthyLog().text('\r\n'));
    assert.deepEqual(view.findings, []);
    assert.equal(view.sessions.length, 1);
    const run = view.sessions[0]?.runs[0];
    assert.deepEqual(
      {
        id: run?.runId,
        active: run?.active,
        turn: run?.turnId,
        rev: run?.turnRevision,
        seq: run?.lastSequence,
        interrupt: run?.interruptRequested,
        line: run?.range.start.line,
      },
      { id: 'run-42', active: false, turn: 'turn-2', rev: 2, seq: 3, interrupt: true, line: 11 },
    );
    assert.deepEqual(
      run?.controls.map((c) => [c.requestId, c.operation, c.state, c.summary, c.receipts.map((r) => r.state).join('>'), c.range.start.line]),
      [
        ['rc-1', 'steer', 'applied', 'Only fix the failing parser test.', 'accepted>applied', 1],
        ['rc-2', 'steer', 'applied', 'Also run the lexer tests.', 'accepted>applied', 5],
        ['rc-3', 'interrupt', 'settled', 'operator stop', 'accepted>settled', 8],
      ],
    );
    const settled = run?.controls[2]?.receipts[1];
    assert.deepEqual({ code: settled?.errorCode, at: settled?.atMs }, { code: 'RUN_ENDED', at: 1_767_000_000_600 });
    assert.deepEqual(run?.controls[0]?.range.end, { line: 1, character: healthyLog().lines[1]?.length });
  });

  test('a BOM shifts the first row by one character; problems reach the control', () => {
    const log = healthyLog();
    const lines = [...log.lines];
    lines[1] = lines[1]?.replace('"command"', '"extra":1,"command"') ?? '';
    const view = readRunControlLog('\ufeff' + lines.join('\n'));
    assert.deepEqual(view.rangeOf(0).start, { line: 0, character: 1 });
    assert.deepEqual(view.sessions[0]?.runs[0]?.controls[0]?.problems, ['UNKNOWN_FIELD']);
  });
});

describe('compose', () => {
  test('a steer bound to the latest snapshot, pre-checked, with the id given', () => {
    const view = readRunControlLog(activeLog().text());
    const result = composeRequest(view, 'run-42', { kind: 'steer', input: 'Only the parser.' }, 'id-1', T);
    assert.deepEqual(result, {
      ok: true,
      request: {
        schema: 'a3s.code.run-control-request.v1',
        request_id: 'id-1',
        session_id: 'sess-alpha',
        run_id: 'run-42',
        expected_turn_id: 'turn-2',
        expected_turn_revision: 2,
        command: { kind: 'steer', input: 'Only the parser.' },
      },
      line: '{"schema":"a3s.code.run-control-request.v1","request_id":"id-1","session_id":"sess-alpha","run_id":"run-42","expected_turn_id":"turn-2","expected_turn_revision":2,"command":{"kind":"steer","input":"Only the parser."}}',
    });
    const stop = composeRequest(view, 'run-42', { kind: 'interrupt', force: true }, 'id-2', T);
    assert.equal(stop.ok && stop.line.endsWith('"command":{"kind":"interrupt","reason":null,"force":true}}'), true);
  });

  test('refusals as upstream says them: invalid, closed, interrupted, queue full, no snapshot', () => {
    const view = readRunControlLog(activeLog().text());
    assert.deepEqual(composeRequest(view, 'run-42', { kind: 'steer', input: '  ' }, 'id', T), {
      ok: false,
      code: 'INVALID_REQUEST',
      message: 'invalid run-control request: steer input must not be empty',
    });
    assert.deepEqual(composeRequest(view, 'run-42', { kind: 'interrupt', reason: 'x'.repeat(4097), force: false }, 'id', T), {
      ok: false,
      code: 'INVALID_REQUEST',
      message: 'invalid run-control request: interrupt reason exceeds 4096 bytes',
    });
    assert.deepEqual(composeRequest(readRunControlLog(healthyLog().text()), 'run-42', { kind: 'steer', input: 'x' }, 'id', T), {
      ok: false,
      code: 'CLOSED',
      message: 'run-control inbox is closed',
    });
    const interrupted = activeLog();
    interrupted.submit(interrupted.request({ kind: 'interrupt', reason: null, force: false }), T + 5);
    interrupted.snapshot();
    assert.equal(
      (composeRequest(readRunControlLog(interrupted.text()), 'run-42', { kind: 'steer', input: 'x' }, 'id', T) as { code?: string }).code,
      'NO_ACTIVE_RUN',
    );
    const full = activeLog();
    full.lines.push(JSON.stringify({ ...full.inbox.snapshot(), queued_controls: 64 }));
    assert.deepEqual(composeRequest(readRunControlLog(full.text()), 'run-42', { kind: 'steer', input: 'x' }, 'id', T), {
      ok: false,
      code: 'QUEUE_FULL',
      message: 'run-control inbox is full',
    });
    assert.equal((composeRequest(view, 'run-7', { kind: 'steer', input: 'x' }, 'id', T) as { code?: string }).code, 'NO_SNAPSHOT');
  });

  test('retry re-sends the exact bytes of the earlier request, from the log or the inbox', () => {
    const log = activeLog();
    log.lines[1] = log.lines[1]?.replace('{"schema"', '{ "schema"') ?? '';
    const view = readRunControlLog(log.text());
    const retry = retryRequest(view, 'rc-1', []);
    assert.equal(retry.ok && retry.line, log.lines[1]);
    const inboxLine = '{"schema":"a3s.code.run-control-request.v1","request_id":"mine","run_id":"run-42","command":{"kind":"steer","input":"é"}}';
    const fromInbox = retryRequest(view, 'mine', ['', inboxLine]);
    assert.equal(fromInbox.ok && fromInbox.line, inboxLine);
    assert.equal((retryRequest(view, 'nope', []) as { code?: string }).code, 'UNKNOWN_REQUEST');
  });
});

describe('row edits (code actions)', () => {
  const request =
    '{"schema":"a3s.code.run-control-request.v0","request_id":"a","extra":[1],"run_id":"r","expected_turn_id":"turn-1","expected_turn_revision":1,"command":{"kind":"steer","input":"x"}}';
  test('remove an unknown field', () => {
    assert.equal(removeField(request, 'extra'), request.replace('"extra":[1],', ''));
    assert.equal(removeField(request, 'missing'), undefined);
  });
  test('a new request id', () => {
    assert.equal(withRequestId(request, 'fresh'), request.replace('"request_id":"a"', '"request_id":"fresh"'));
  });
  test('expected turn and revision from a snapshot, in the wire order', () => {
    assert.equal(withExpectedTurn(request, 'turn-3', 3), request.replace('"turn-1","expected_turn_revision":1', '"turn-3","expected_turn_revision":3'));
    const unguarded = '{"request_id":"a","run_id":"r","command":{"kind":"steer","input":"x"},"deadline_ms":5}';
    assert.equal(
      withExpectedTurn(unguarded, 'turn-2', 2),
      '{"request_id":"a","run_id":"r","expected_turn_id":"turn-2","expected_turn_revision":2,"command":{"kind":"steer","input":"x"},"deadline_ms":5}',
    );
    assert.equal(withExpectedTurn(request, null, 0), request.replace('"expected_turn_id":"turn-1","expected_turn_revision":1', '"expected_turn_revision":0'));
  });
  test('the schema string', () => {
    assert.equal(withSchema(request, 'request'), request.replace('v0', 'v1'));
    assert.equal(withSchema('{"schema":"x","request_id":"a"}', 'receipt'), '{"schema":"a3s.code.run-control-receipt.v1","request_id":"a"}');
  });
  test('an oversize reason trimmed to 4 KiB at a UTF-8 character boundary', () => {
    assert.equal(truncateUtf8('aé€😀', 1), 'a');
    assert.equal(truncateUtf8('aé€😀', 2), 'a');
    assert.equal(truncateUtf8('aé€😀', 3), 'aé');
    assert.equal(truncateUtf8('aé€😀', 9), 'aé€');
    assert.equal(truncateUtf8('aé€😀', 10), 'aé€😀');
    const reason = 'x' + '€'.repeat(1400);
    const row = `{"request_id":"a","run_id":"r","command":{"kind":"interrupt","reason":"${reason}","force":false}}`;
    const trimmed = withTrimmedReason(row);
    const expected = 'x' + '€'.repeat(1365);
    assert.equal(Buffer.byteLength(expected), 4096);
    assert.equal(trimmed, row.replace(reason, expected));
    assert.equal(withTrimmedReason(trimmed ?? ''), undefined, 'nothing to trim');
  });
});

/** Each receipt row of the log followed (or, with `first`, preceded) by its PostRunControl hook event. */
function withHookEvents(lines: readonly string[], first = false): string[] {
  return lines.flatMap((line) => {
    const row = JSON.parse(line) as Record<string, unknown>;
    if (row.state === undefined) return [line];
    delete row.schema;
    const hook = JSON.stringify({ event_type: 'post_run_control', payload: row });
    return first ? [hook, line] : [line, hook];
  });
}

describe('tree states', () => {
  test("a PostRunControl hook event and its transition's receipt are one receipt node, on the receipt's row", () => {
    const plain = readRunControlLog(healthyLog().lines.join('\n'));
    const shape = (view: typeof plain): string[][] => (view.sessions[0]?.runs[0]?.controls ?? []).map((c) => c.receipts.map((r) => `${r.state}@${r.sequence}`));
    for (const first of [false, true]) {
      const lines = withHookEvents(healthyLog().lines, first);
      const view = readRunControlLog(lines.join('\n'));
      assert.deepEqual(shape(view), shape(plain), first ? 'hook before its receipt' : 'hook after its receipt');
      for (const control of view.sessions[0]?.runs[0]?.controls ?? []) {
        for (const receipt of control.receipts)
          assert.equal((JSON.parse(lines[receipt.range.start.line] ?? '{}') as { event_type?: string }).event_type, undefined, 'on the receipt row');
      }
    }
    // Hook events alone still list the transitions.
    const hooksOnly = withHookEvents(healthyLog().lines).filter((line) => !line.includes('run-control-receipt'));
    assert.deepEqual(shape(readRunControlLog(hooksOnly.join('\n'))), shape(plain));
  });

  test('an accepted receipt after the applied one leaves the control applied', () => {
    const log = healthyLog();
    const lines = [...log.lines];
    [lines[2], lines[3]] = [lines[3] ?? '', lines[2] ?? ''];
    const view = readRunControlLog(lines.join('\n'));
    const control = view.sessions[0]?.runs[0]?.controls[0];
    assert.deepEqual(
      [control?.state, control?.receipts.map((r) => r.state), control?.problems],
      ['applied', ['applied', 'accepted'], ['APPLIED_BEFORE_ACCEPTED']],
    );
  });
});

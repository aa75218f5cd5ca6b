// The replay of run-control logs (server/src/runControl/replay.ts): a log written by the real inbox model is
// clean, and each disagreement the protocol forbids is reported on its row with its code and rule.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RunControlReceipt } from '../../server/src/runControl/schemas';
import { looksLikeRunControlLog } from '../../server/src/runControl/rows';
import { Finding, replayText } from '../../server/src/runControl/replay';
import { healthyLog, LogWriter, receiptLine } from '../support/runControlLog';

const T = 1_767_000_000_000;

function codes(findings: readonly Finding[]): [number, string][] {
  return findings.map((f) => [f.line, f.code]);
}
function edit(lines: string[], index: number, change: (row: Record<string, unknown>) => void): void {
  const row = JSON.parse(lines[index] ?? 'null') as Record<string, unknown>;
  change(row);
  lines[index] = JSON.stringify(row);
}
function lineOf(lines: readonly string[], predicate: (row: Record<string, unknown>) => boolean): number {
  const index = lines.findIndex((l) => predicate(JSON.parse(l) as Record<string, unknown>));
  assert.ok(index >= 0, 'row not found');
  return index;
}
const receiptOf = (id: string, state: string) => (r: Record<string, unknown>) => r.request_id === id && r.state === state;

describe('replay', () => {
  test('a healthy log, as the model writes it, with LF, CRLF or CR breaks and a BOM, has no findings', () => {
    const log = healthyLog();
    for (const eol of ['\n', '\r\n', '\r']) assert.deepEqual(replayText(log.text(eol)), []);
    assert.deepEqual(replayText('\ufeff' + log.text()), []);
  });

  test('rows on their own: not JSON, not an object, unknown rows, schema errors, unknown fields, validate()', () => {
    const log = healthyLog();
    const lines = [...log.lines];
    lines.push('{not json', '[1]', '{"hello":1}', '');
    edit(lines, 1, (r) => (r.priority = 'high'));
    edit(lines, 2, (r) => (r.note = 1));
    edit(lines, 5, (r) => ((r.command as Record<string, unknown>).input = '   '));
    edit(lines, 11, (r) => (r.turn_revision = 'two'));
    const findings = replayText(lines.join('\n'));
    assert.deepEqual(codes(findings), [
      [1, 'UNKNOWN_FIELD'],
      [2, 'UNKNOWN_FIELD'],
      [5, 'INVALID_REQUEST'],
      [11, 'SCHEMA'],
      [12, 'INVALID_JSON'],
      [13, 'UNKNOWN_ROW'],
      [14, 'UNKNOWN_ROW'],
    ]);
    assert.equal(findings[3]?.message, 'Not a valid run-control snapshot: turn_revision: must be a number.');
    assert.match(findings[0]?.message ?? '', /Unknown field `priority`.*deny_unknown_fields/);
    assert.equal(findings[0]?.data?.field, 'priority');
    assert.equal(findings[2]?.message, 'invalid run-control request: steer input must not be empty.');
  });

  test('a wrong schema string: INVALID_REQUEST on a request, RECEIPT_SCHEMA on a receipt', () => {
    const lines = [...healthyLog().lines];
    edit(lines, 1, (r) => (r.schema = 'a3s.code.run-control-request.v0'));
    edit(lines, 2, (r) => (r.schema = 'a3s.code.run-control-request.v1'));
    const findings = replayText(lines.join('\n'));
    assert.deepEqual(codes(findings), [
      [1, 'INVALID_REQUEST'],
      [2, 'RECEIPT_SCHEMA'],
    ]);
    assert.equal(findings[0]?.message, 'invalid run-control request: unsupported schema `a3s.code.run-control-request.v0`.');
    assert.deepEqual(findings[0]?.data, { schema: 'request' });
  });

  test('an admission whose sequence is not greater than the previous one', () => {
    const lines = [...healthyLog().lines];
    const second = lineOf(lines, receiptOf('rc-2', 'accepted'));
    edit(lines, second, (r) => (r.sequence = 1));
    edit(lines, lineOf(lines, receiptOf('rc-2', 'applied')), (r) => (r.sequence = 1));
    const findings = replayText(lines.join('\n'));
    assert.deepEqual(codes(findings), [[second, 'SEQUENCE_NOT_INCREASING']]);
    assert.match(findings[0]?.message ?? '', /sequence 1 is not greater than the run's previous one, 1 \(line 3\)/);
  });

  test('applied and settled keep the sequence of their acceptance', () => {
    const lines = [...healthyLog().lines];
    const applied = lineOf(lines, receiptOf('rc-1', 'applied'));
    edit(lines, applied, (r) => (r.sequence = 7));
    assert.deepEqual(codes(replayText(lines.join('\n'))), [[applied, 'SEQUENCE_CHANGED']]);
  });

  test('a transition after settled (and after applied)', () => {
    const log = healthyLog();
    const lines = [...log.lines];
    const settled = lineOf(lines, receiptOf('rc-3', 'settled'));
    const late = JSON.parse(lines[settled] ?? '') as Record<string, unknown>;
    lines.push(JSON.stringify({ ...late, state: 'applied', error: undefined }));
    const appliedAgain = JSON.parse(lines[lineOf(lines, receiptOf('rc-1', 'applied'))] ?? '') as Record<string, unknown>;
    lines.push(JSON.stringify({ ...appliedAgain, state: 'settled', error: { code: 'RUN_ENDED', message: 'm' } }));
    const findings = replayText(lines.join('\n'));
    assert.deepEqual(codes(findings), [
      [lines.length - 2, 'TRANSITION_AFTER_TERMINAL'],
      [lines.length - 1, 'TRANSITION_AFTER_TERMINAL'],
    ]);
    assert.match(findings[0]?.message ?? '', /after the control was settled: settled is final/);
  });

  test('the same receipt stored twice (an idempotent retry) is not a transition', () => {
    const lines = [...healthyLog().lines];
    lines.push(lines[lineOf(lines, receiptOf('rc-1', 'applied'))] ?? '');
    assert.deepEqual(replayText(lines.join('\n')), []);
  });

  test('applied before accepted, and applied_at_ms before accepted_at_ms', () => {
    const lines = [...healthyLog().lines];
    const accepted = lineOf(lines, receiptOf('rc-1', 'accepted'));
    const applied = lineOf(lines, receiptOf('rc-1', 'applied'));
    const swapped = [...lines];
    [swapped[accepted], swapped[applied]] = [lines[applied] ?? '', lines[accepted] ?? ''];
    const findings = replayText(swapped.join('\n'));
    // Reported once: the accepted receipt that comes late is not another transition.
    assert.deepEqual(codes(findings), [[accepted, 'APPLIED_BEFORE_ACCEPTED']]);
    assert.match(findings[0]?.message ?? '', /no accepted receipt before it/);
    const early = [...lines];
    edit(early, applied, (r) => (r.applied_at_ms = T));
    const time = replayText(early.join('\n'));
    assert.deepEqual(codes(time), [[applied, 'APPLIED_BEFORE_ACCEPTED']]);
    assert.match(time[0]?.message ?? '', /applied_at_ms 1767000000000 is before accepted_at_ms 1767000000100/);
  });

  test('a settled receipt carries RUN_ENDED; a rejected one has sequence 0', () => {
    const lines = [...healthyLog().lines];
    const settled = lineOf(lines, receiptOf('rc-3', 'settled'));
    edit(lines, settled, (r) => (r.error = { code: 'CLOSED', message: 'x' }));
    lines.push(
      receiptLine({
        ...(JSON.parse(lines[2] ?? '') as RunControlReceipt),
        request_id: 'rc-9',
        state: 'rejected',
        sequence: 4,
        error: { code: 'HOOK_DENIED', message: 'no' },
      }),
    );
    assert.deepEqual(codes(replayText(lines.join('\n'))), [
      [settled, 'SETTLED_WITHOUT_RUN_ENDED'],
      [lines.length - 1, 'REJECTED_SEQUENCE'],
    ]);
  });

  test('a request id reused for a different command: fine when rejected DUPLICATE_REQUEST, reported otherwise', () => {
    const log = new LogWriter();
    log.turn(1);
    const first = log.request({ kind: 'steer', input: 'first' });
    log.submit(first, T + 1);
    const conflicting = { ...first, command: { kind: 'steer' as const, input: 'different' } };
    log.submit(conflicting, T + 2);
    const conflictLine = log.lines.length - 1;
    // Not rejected in the log (the end comes first).
    const open = replayText(log.text());
    assert.deepEqual(codes(open), [[conflictLine, 'DUPLICATE_REQUEST']]);
    assert.match(open[0]?.message ?? '', /`rc-1` \(first on line 2\) is reused here for a different command, and the log shows no rejection of it/);
    assert.deepEqual(open[0]?.data, { requestLine: conflictLine });
    // Rejected as upstream says.
    const rejected = [
      ...log.lines,
      receiptLine({
        ...(JSON.parse(log.lines[2] ?? '') as RunControlReceipt),
        state: 'rejected',
        sequence: 0,
        error: { code: 'DUPLICATE_REQUEST', message: 'm' },
      }),
    ];
    assert.deepEqual(replayText(rejected.join('\n')), []);
    // Accepted instead.
    // Accepted instead: on that receipt; the original control is not moved by it (its applied receipt is fine).
    const original = JSON.parse(log.lines[2] ?? '') as RunControlReceipt;
    const accepted = [
      ...log.lines,
      receiptLine({ ...original, sequence: 2, accepted_at_ms: T + 2 }),
      receiptLine({ ...original, state: 'applied', applied_at_ms: T + 3 }),
    ];
    const wrong = replayText(accepted.join('\n'));
    assert.deepEqual(codes(wrong), [[conflictLine + 1, 'DUPLICATE_REQUEST']]);
    assert.match(wrong[0]?.message ?? '', /is reused on line 4 for a different command, and this receipt is not its rejection/);
    // The same request again is an idempotent retry.
    const retry = [...log.lines.slice(0, conflictLine), log.lines[1] ?? ''];
    assert.deepEqual(replayText(retry.join('\n')), []);
  });

  test('an accepted receipt for a request stale against the last snapshot', () => {
    const log = new LogWriter();
    log.turn(1);
    const request = log.request({ kind: 'steer', input: 'late' });
    log.turn(2);
    log.lines.push(JSON.stringify({ ...(request as object) }));
    const requestRow = log.lines.length - 1;
    // A host that accepted it anyway (the model would refuse it STALE_TURN).
    log.lines.push(
      receiptLine({
        schema: 'a3s.code.run-control-receipt.v1',
        request_id: request.request_id,
        session_id: 'sess-alpha',
        run_id: 'run-42',
        operation: 'steer',
        state: 'accepted',
        sequence: 1,
        turn_id: 'turn-2',
        turn_revision: 2,
        accepted_at_ms: T,
      }),
    );
    const findings = replayText(log.text());
    assert.deepEqual(codes(findings), [[requestRow + 1, 'STALE_TURN']]);
    assert.deepEqual(findings[0]?.data, { requestLine: requestRow, runId: 'run-42' });
    assert.match(findings[0]?.message ?? '', /expects turn turn-1 revision 1 while the last snapshot \(line 2\) shows turn turn-2 revision 2/);
  });

  test('a run that closed with a control still accepted', () => {
    const log = new LogWriter();
    log.turn(1);
    log.submit(log.request({ kind: 'steer', input: 'never applied' }), T);
    log.lines.push(JSON.stringify({ ...log.inbox.snapshot(), active: false }));
    const findings = replayText(log.text());
    assert.deepEqual(codes(findings), [[2, 'RUN_CLOSED_WITH_ACCEPTED']]);
    assert.match(findings[0]?.message ?? '', /closed \(line 4\) with this control still accepted/);
  });

  test('hook events and applied events are read as receipts and requests', () => {
    const log = healthyLog();
    const post = log.lines.map((line) => {
      const row = JSON.parse(line) as Record<string, unknown>;
      if (row.state === undefined) return line;
      delete row.schema;
      return JSON.stringify({ event_type: 'post_run_control', payload: row });
    });
    post.push(
      JSON.stringify({
        version: 1,
        type: 'run_control_applied',
        payload: { request_id: 'rc-1', operation: 'steer', turn_id: 'turn-1', turn_revision: 1, input: 'x', reason: null },
        metadata: { run_id: 'run-42', session_id: 'sess-alpha', sequence: 9, timestamp_ms: T },
      }),
    );
    assert.deepEqual(replayText(post.join('\n')), []);
    const broken = [...post];
    edit(
      broken,
      lineOf(broken, (r) => (r.payload as Record<string, unknown> | undefined)?.state === 'applied'),
      (r) => ((r.payload as Record<string, unknown>).sequence = 5),
    );
    assert.deepEqual(
      codes(replayText(broken.join('\n'))).map(([, c]) => c),
      ['SEQUENCE_CHANGED'],
    );
  });

  test('memory: the replay forgets finished controls beyond the window of 256 ids', () => {
    const log = new LogWriter();
    log.turn(1);
    for (let i = 0; i < 600; i++) {
      log.submit(log.request({ kind: 'steer', input: `n${i}` }), T + i);
      log.applyAll(T + i);
    }
    log.close(T + 1000);
    assert.deepEqual(replayText(log.text()), []);
  });

  test('content recognition: rows carrying the schemas, hook events or applied events', () => {
    assert.equal(looksLikeRunControlLog(healthyLog().lines.slice(0, 3)), true);
    assert.equal(looksLikeRunControlLog(['{"event_type":"post_run_control","payload":{}}']), true);
    assert.equal(looksLikeRunControlLog(['{"type":"message","index":1}', '{"request_id":"a","command":{}}']), false);
  });
});

describe('the fast path agrees with the schemas', () => {
  test('on every row of a healthy log and on mutations of each field, fast and zod parse alike or fast steps aside', async () => {
    const { fastReceipt, fastRequest, fastSnapshot } = await import('../../server/src/runControl/fastRows');
    const schemas = await import('../../server/src/runControl/schemas');
    const values: unknown[] = [null, 0, -1, 1.5, 2 ** 60, '', 'x', true, [], {}, { code: 'C', message: 'm' }, { kind: 'steer', input: 'x' }, undefined];
    for (const line of healthyLog().lines) {
      const row = JSON.parse(line) as Record<string, unknown>;
      for (const key of Object.keys(row))
        for (const v of values) {
          const mutated: Record<string, unknown> = { ...row, [key]: v };
          if (v === undefined) delete mutated[key];
          const [fast, schema, normalise] =
            'command' in row
              ? [fastRequest(mutated), schemas.RunControlRequestSchema, (d: never) => schemas.requestFromParsed(d)]
              : 'state' in row
                ? [fastReceipt(mutated), schemas.RunControlReceiptSchema, (d: never) => schemas.receiptFromParsed(d)]
                : [fastSnapshot(mutated), schemas.RunControlSnapshotSchema, (d: never) => d];
          if (fast === undefined) continue;
          const parsed = schema.safeParse(mutated);
          assert.ok(parsed.success, `fast accepted what the schema refuses: ${JSON.stringify(mutated)}`);
          assert.deepEqual(fast, normalise(parsed.data as never), JSON.stringify(mutated));
        }
    }
  });
});

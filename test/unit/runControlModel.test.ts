// The run-control domain's schemas, upstream's validate() and the pure inbox model (server/src/runControl/):
// every admission check in upstream's order, every transition, and upstream's own tests of `run_control.rs`
// and `core/tests/run_control_runtime.rs` transcribed onto the model.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HookOutcome, RunControlHooks, RunControlInbox } from '../../server/src/runControl/inbox';
import {
  requestFromParsed,
  RUN_CONTROL_REQUEST_SCHEMA_V1,
  RunControlAppliedEventSchema,
  RunControlReceipt,
  RunControlReceiptSchema,
  RunControlRequest,
  RunControlRequestSchema,
  RunControlSnapshotSchema,
  PostRunControlEventSchema,
  PreRunControlEventSchema,
} from '../../server/src/runControl/schemas';
import { errorMessage, validateRequest } from '../../server/src/runControl/validate';
import { requestFingerprint, requestLine } from '../../server/src/runControl/wire';

let counter = 0;
function steer(runId: string, input: string, extra: Partial<RunControlRequest> = {}): RunControlRequest {
  counter++;
  return { schema: RUN_CONTROL_REQUEST_SCHEMA_V1, request_id: `req-${counter}`, run_id: runId, command: { kind: 'steer', input }, ...extra };
}
function interrupt(runId: string, extra: Partial<RunControlRequest> = {}): RunControlRequest {
  counter++;
  return {
    schema: RUN_CONTROL_REQUEST_SCHEMA_V1,
    request_id: `req-${counter}`,
    run_id: runId,
    command: { kind: 'interrupt', reason: null, force: false },
    ...extra,
  };
}
function present<T>(value: T | undefined): T {
  assert.ok(value !== undefined);
  return value;
}
function inbox(hooks?: RunControlHooks): RunControlInbox {
  return new RunControlInbox('session-1', 'run-1', hooks);
}
function accepted(admission: ReturnType<RunControlInbox['submit']>): RunControlReceipt {
  if (!admission.ok) throw new Error(`expected acceptance, got ${admission.error.code}: ${errorMessage(admission.error)}`);
  return admission.receipt;
}
function errorOf(admission: ReturnType<RunControlInbox['submit']>): { code: string; message: string } {
  if (admission.ok) throw new Error(`expected an error, got a ${admission.receipt.state} receipt`);
  return { code: admission.error.code, message: errorMessage(admission.error) };
}

describe('run-control schemas', () => {
  test('a request rejects unknown top-level fields, defaults its schema and reads null options as absent', () => {
    const unknown = RunControlRequestSchema.safeParse({ request_id: 'a', run_id: 'r', command: { kind: 'steer', input: 'x' }, extra: 1 });
    assert.equal(unknown.success, false);
    assert.match(JSON.stringify(unknown.error?.issues), /extra/);
    const parsed = RunControlRequestSchema.parse({ request_id: 'a', run_id: 'r', session_id: null, command: { kind: 'interrupt' } });
    assert.deepEqual(requestFromParsed(parsed), {
      schema: RUN_CONTROL_REQUEST_SCHEMA_V1,
      request_id: 'a',
      run_id: 'r',
      command: { kind: 'interrupt', reason: null, force: false },
    });
  });

  test('the command is tagged by kind; unknown keys inside it are tolerated (no deny_unknown_fields there)', () => {
    assert.equal(RunControlRequestSchema.safeParse({ request_id: 'a', run_id: 'r', command: { kind: 'pause' } }).success, false);
    assert.equal(RunControlRequestSchema.safeParse({ request_id: 'a', run_id: 'r', command: { kind: 'steer' } }).success, false);
    assert.equal(RunControlRequestSchema.safeParse({ request_id: 'a', run_id: 'r', command: { kind: 'steer', input: 'x', note: 1 } }).success, true);
    assert.equal(RunControlRequestSchema.safeParse({ request_id: 'a', run_id: 'r', command: { kind: 'interrupt', force: 'yes' } }).success, false);
  });

  test('a receipt rejects unknown fields and bad states; turn_id may be null', () => {
    const receipt = {
      request_id: 'a',
      session_id: 's',
      run_id: 'r',
      operation: 'steer',
      state: 'accepted',
      sequence: 1,
      turn_id: null,
      turn_revision: 0,
      accepted_at_ms: 5,
    };
    assert.equal(RunControlReceiptSchema.safeParse(receipt).success, true);
    assert.equal(RunControlReceiptSchema.safeParse({ ...receipt, note: 'x' }).success, false);
    assert.equal(RunControlReceiptSchema.safeParse({ ...receipt, state: 'done' }).success, false);
    assert.equal(RunControlReceiptSchema.safeParse({ ...receipt, sequence: -1 }).success, false);
    assert.equal(RunControlReceiptSchema.safeParse({ ...receipt, sequence: 1.5 }).success, false);
  });

  test('snapshot, applied event and hook payloads', () => {
    const snapshot = {
      session_id: 's',
      run_id: 'r',
      active: true,
      turn_id: 'turn-1',
      turn_revision: 1,
      queued_controls: 0,
      interrupt_requested: false,
      last_sequence: 0,
    };
    assert.equal(RunControlSnapshotSchema.safeParse({ ...snapshot, extra: true }).success, true);
    assert.equal(RunControlSnapshotSchema.safeParse({ ...snapshot, active: 'yes' }).success, false);
    const applied = {
      version: 1,
      type: 'run_control_applied',
      payload: { request_id: 'a', operation: 'steer', turn_id: 'turn-1', turn_revision: 1, input: 'x', reason: null },
      metadata: { run_id: 'r', session_id: 's', sequence: 3, timestamp_ms: 9 },
    };
    assert.equal(RunControlAppliedEventSchema.safeParse(applied).success, true);
    assert.equal(RunControlAppliedEventSchema.safeParse({ ...applied, version: 2 }).success, false);
    const pre = {
      event_type: 'pre_run_control',
      payload: { session_id: '', run_id: 'r', request_id: 'a', operation: 'interrupt', command: { kind: 'interrupt', reason: null, force: true } },
    };
    assert.equal(PreRunControlEventSchema.safeParse(pre).success, true);
    const post = {
      event_type: 'post_run_control',
      payload: {
        session_id: 's',
        run_id: 'r',
        request_id: 'a',
        operation: 'steer',
        state: 'rejected',
        sequence: 0,
        turn_id: null,
        turn_revision: 0,
        accepted_at_ms: 1,
        applied_at_ms: 1,
        error: { code: 'HOOK_DENIED', message: 'm' },
      },
    };
    assert.equal(PostRunControlEventSchema.safeParse(post).success, true);
    assert.equal(PostRunControlEventSchema.safeParse({ ...post, payload: { ...post.payload, state: 'x' } }).success, false);
  });
});

describe("upstream's validate()", () => {
  const cases: [string, Partial<RunControlRequest>, string | undefined][] = [
    ['valid', {}, undefined],
    ['schema', { schema: 'a3s.code.run-control-request.v2' }, 'invalid run-control request: unsupported schema `a3s.code.run-control-request.v2`'],
    ['blank request id', { request_id: ' \t ' }, 'invalid run-control request: request_id must not be empty'],
    ['long request id', { request_id: 'é'.repeat(257) }, 'invalid run-control request: request_id exceeds 512 bytes'],
    ['512-byte request id', { request_id: 'é'.repeat(256) }, undefined],
    ['NUL', { request_id: 'a\0b' }, 'invalid run-control request: request_id contains a control character'],
    ['CR', { run_id: 'a\rb' }, 'invalid run-control request: run_id contains a control character'],
    ['LF in session', { session_id: 'a\nb' }, 'invalid run-control request: session_id contains a control character'],
    ['blank turn', { expected_turn_id: '' }, 'invalid run-control request: expected_turn_id must not be empty'],
    ['tab is allowed in ids', { request_id: 'a\tb' }, undefined],
    ['blank input', { command: { kind: 'steer', input: '\u3000\n' } }, 'invalid run-control request: steer input must not be empty'],
    ['input over 128 KiB', { command: { kind: 'steer', input: 'x'.repeat(128 * 1024 + 1) } }, 'invalid run-control request: steer input exceeds 131072 bytes'],
    ['input of 128 KiB', { command: { kind: 'steer', input: 'x'.repeat(128 * 1024) } }, undefined],
    [
      'reason over 4 KiB',
      { command: { kind: 'interrupt', reason: '€'.repeat(1366), force: false } },
      'invalid run-control request: interrupt reason exceeds 4096 bytes',
    ],
    ['blank reason is fine', { command: { kind: 'interrupt', reason: '', force: true } }, undefined],
  ];
  for (const [name, change, message] of cases) {
    test(name, () => {
      const problem = validateRequest(steer('run-1', 'x', change));
      assert.equal(problem === undefined ? undefined : errorMessage(problem), message);
      if (problem) assert.equal(problem.code, 'INVALID_REQUEST');
    });
  }
  test('the order: schema before ids, request_id before run_id', () => {
    const problem = validateRequest(steer('', '', { schema: 'x', request_id: '' }));
    assert.equal(problem && errorMessage(problem), 'invalid run-control request: unsupported schema `x`');
    const ids = validateRequest(steer('', '', { request_id: '' }));
    assert.equal(ids && errorMessage(ids), 'invalid run-control request: request_id must not be empty');
  });
});

describe('the wire form and fingerprint', () => {
  test('fields in declaration order, None skipped, reason written as null', () => {
    const request = interrupt('run-1', { request_id: 'x', session_id: 's', deadline_ms: 9 });
    assert.equal(
      requestLine(request),
      '{"schema":"a3s.code.run-control-request.v1","request_id":"x","session_id":"s","run_id":"run-1","command":{"kind":"interrupt","reason":null,"force":false},"deadline_ms":9}',
    );
    assert.match(requestFingerprint(request), /^sha256:[0-9a-f]{64}$/);
    assert.notEqual(requestFingerprint(request), requestFingerprint({ ...request, deadline_ms: 10 }));
  });
});

describe('admission order and transitions', () => {
  test('a seen id answers before the session check; a different command with it is DUPLICATE_REQUEST', () => {
    const box = inbox();
    const request = steer('run-1', 'a', { request_id: 'same' });
    const first = accepted(box.submit(request, 1));
    box.close(2);
    // Seen requests answer from memory even after close (the stored, now settled, receipt).
    assert.equal(accepted(box.submit(request, 3)).state, 'settled');
    assert.equal(first.state, 'accepted');
    assert.deepEqual(errorOf(box.submit({ ...request, session_id: 'other' }, 4)), {
      code: 'DUPLICATE_REQUEST',
      message: 'request id `same` was already used for a different command',
    });
  });

  test('session, then run, then closed/active, then deadline, then stale turn, then queue', () => {
    const box = inbox();
    box.updateTurn(1);
    // Every check fails at once: the first in upstream's order wins.
    const all = steer('run-2', 'x', { session_id: 'session-2', deadline_ms: 0, expected_turn_id: 'turn-9' });
    assert.equal(errorOf(box.submit(all, 5)).code, 'SESSION_MISMATCH');
    assert.deepEqual(errorOf(box.submit({ ...all, session_id: 'session-1' }, 5)), {
      code: 'RUN_MISMATCH',
      message: 'run-control target run `run-2` is not the active run',
    });
    assert.deepEqual(errorOf(box.submit({ ...all, session_id: undefined, run_id: 'run-1' }, 5)), {
      code: 'DEADLINE_EXCEEDED',
      message: 'run-control request deadline has expired',
    });
    assert.equal(accepted(box.submit(steer('run-1', 'x', { deadline_ms: 5 }), 5)).state, 'accepted', 'now == deadline is still in time');
    assert.deepEqual(errorOf(box.submit(steer('run-1', 'x', { expected_turn_id: 'turn-9' }), 5)), {
      code: 'STALE_TURN',
      message: 'stale run-control request: expected turn=Some("turn-9"), revision=None; current turn=Some("turn-1"), revision=1',
    });
    assert.deepEqual(errorOf(box.submit(steer('run-1', 'x', { expected_turn_revision: 4 }), 5)), {
      code: 'STALE_TURN',
      message: 'stale run-control request: expected turn=None, revision=Some(4); current turn=Some("turn-1"), revision=1',
    });
    for (let i = 1; i < 64; i++) accepted(box.submit(steer('run-1', `n${i}`), 6));
    assert.equal(box.snapshot().queued_controls, 64);
    assert.deepEqual(errorOf(box.submit(steer('run-1', 'one more', { expected_turn_id: 'turn-1' }), 7)), {
      code: 'QUEUE_FULL',
      message: 'run-control inbox is full',
    });
    box.drain();
    assert.equal(accepted(box.submit(steer('run-1', 'room again'), 8)).sequence, 65);
  });

  test('closed says CLOSED; a cancelled run says NO_ACTIVE_RUN', () => {
    const closed = inbox();
    closed.close(1);
    assert.deepEqual(errorOf(closed.submit(steer('run-1', 'x'), 2)), { code: 'CLOSED', message: 'run-control inbox is closed' });
    const cancelled = inbox();
    cancelled.cancel();
    assert.deepEqual(errorOf(cancelled.submit(steer('run-1', 'x'), 2)), { code: 'NO_ACTIVE_RUN', message: 'there is no active run to control' });
  });

  test('validation comes first: an invalid request is INVALID_REQUEST even on a closed inbox', () => {
    const box = inbox();
    box.close(1);
    assert.equal(errorOf(box.submit(steer('run-1', ' '), 2)).code, 'INVALID_REQUEST');
  });

  test('sequences rise by one per admission; applied and settled keep theirs; turn revisions follow turn ids', () => {
    const box = inbox();
    assert.equal(box.updateTurn(1).turn_revision, 1);
    assert.equal(box.updateTurn(1).turn_revision, 1, 'the same turn id again does not bump the revision');
    const a = accepted(box.submit(steer('run-1', 'a'), 10));
    const b = accepted(box.submit(steer('run-1', 'b'), 11));
    assert.deepEqual([a.sequence, b.sequence], [1, 2]);
    const [first] = box.drain();
    assert.ok(first);
    box.updateTurn(2);
    const applied = box.markApplied(first, 'turn-2', 2, 12);
    assert.deepEqual(
      { state: applied.state, sequence: applied.sequence, turn: applied.turn_id, rev: applied.turn_revision, at: applied.applied_at_ms },
      { state: 'applied', sequence: 1, turn: 'turn-2', rev: 2, at: 12 },
    );
    const settled = box.close(13);
    assert.equal(settled.length, 1);
    assert.deepEqual(
      { state: settled[0]?.state, sequence: settled[0]?.sequence, error: settled[0]?.error },
      {
        state: 'settled',
        sequence: 2,
        error: { code: 'RUN_ENDED', message: 'run ended before the control reached a safe point' },
      },
    );
    assert.equal(box.snapshot().last_sequence, 2);
  });

  test('the seen window holds 256 ids: the oldest is forgotten, so its id may be used again', () => {
    const box = inbox();
    const first = steer('run-1', 'first', { request_id: 'oldest' });
    accepted(box.submit(first, 1));
    for (let i = 0; i < 255; i++) {
      accepted(box.submit(steer('run-1', `n${i}`), 1));
      if (box.snapshot().queued_controls === 64) box.drain();
    }
    assert.equal(errorOf(box.submit({ ...first, command: { kind: 'steer', input: 'changed' } }, 2)).code, 'DUPLICATE_REQUEST', '256 remembered');
    accepted(box.submit(steer('run-1', 'one more'), 2));
    const reused = accepted(box.submit({ ...first, command: { kind: 'steer', input: 'changed' } }, 3));
    assert.equal(reused.sequence, 258);
  });
});

class RecordingHooks implements RunControlHooks {
  pre = 0;
  post: RunControlReceipt[] = [];
  constructor(private readonly outcome: HookOutcome = { kind: 'continue' }) {}
  beforeRunControl(): HookOutcome {
    this.pre++;
    return this.outcome;
  }
  recordRunControl(_request: RunControlRequest, receipt: RunControlReceipt): void {
    this.post.push(receipt);
  }
}

describe("upstream's tests (run_control.rs)", () => {
  test('steer_is_idempotent_and_applies_at_safe_point', () => {
    const box = inbox();
    const turn = box.updateTurn(1);
    const request = steer('run-1', 'focus on tests', {
      request_id: 'req-1',
      session_id: 'session-1',
      expected_turn_id: 'turn-1',
      expected_turn_revision: turn.turn_revision,
    });
    const receipt = accepted(box.submit(request, 10));
    assert.equal(receipt.state, 'accepted');
    assert.deepEqual(accepted(box.submit(request, 11)), receipt);
    const pending = box.drain();
    assert.equal(pending.length, 1);
    const applied = box.markApplied(present(pending[0]), 'turn-1', turn.turn_revision, 12);
    assert.equal(applied.state, 'applied');
    assert.equal(box.snapshot().queued_controls, 0);
  });

  test('stale_turn_and_duplicate_conflict_are_rejected', () => {
    const box = inbox();
    const turn = box.updateTurn(1);
    const request = steer('run-1', 'first', { request_id: 'same-id', expected_turn_id: 'turn-1', expected_turn_revision: turn.turn_revision });
    accepted(box.submit(request, 1));
    assert.equal(errorOf(box.submit({ ...request, command: { kind: 'steer', input: 'different' } }, 2)).code, 'DUPLICATE_REQUEST');
    box.updateTurn(2);
    const stale = steer('run-1', 'late', { expected_turn_id: 'turn-1', expected_turn_revision: turn.turn_revision });
    assert.equal(errorOf(box.submit(stale, 3)).code, 'STALE_TURN');
  });

  test('interrupt_is_accepted_before_cancellation_fires', () => {
    const box = inbox();
    assert.equal(box.isCancelled, false);
    const receipt = accepted(box.submit(interrupt('run-1'), 1));
    assert.equal(receipt.state, 'accepted');
    assert.equal(box.isCancelled, true);
    assert.equal(box.snapshot().interrupt_requested, true);
  });

  test('close_settles_pending_requests', () => {
    const box = inbox();
    const request = steer('run-1', 'not applied');
    const receipt = accepted(box.submit(request, 1));
    box.close(2);
    assert.equal(box.snapshot().active, false);
    const settled = accepted(box.submit({ ...steer('run-1', 'not applied'), request_id: receipt.request_id }, 3));
    assert.equal(settled.state, 'settled');
    assert.equal(settled.error?.code, 'RUN_ENDED');
  });

  test('close_settles_a_control_already_drained_by_the_loop', () => {
    const box = inbox();
    const receipt = accepted(box.submit(steer('run-1', 'close race'), 1));
    const pending = box.drain();
    assert.equal(pending.length, 1);
    box.close(2);
    const settled = accepted(box.submit({ ...steer('run-1', 'close race'), request_id: receipt.request_id }, 3));
    assert.equal(settled.state, 'settled');
    const late = box.markApplied(present(pending[0]), 'turn-1', 1, 4);
    assert.equal(late.state, 'settled');
  });

  test('governance_hooks_observe_each_receipt_transition_once', () => {
    const hooks = new RecordingHooks();
    const box = inbox(hooks);
    const receipt = accepted(box.submitWithHooks(steer('run-1', 'keep the answer concise', { session_id: 'session-1' }), 10));
    const pending = box.drain();
    box.markApplied(present(pending[0]), 'turn-1', 1, 11);
    box.close(12);
    assert.equal(hooks.pre, 1);
    assert.deepEqual(
      hooks.post.map((r) => r.state),
      ['accepted', 'applied'],
      'accepted and applied receipts must both be observable',
    );
    assert.equal(receipt.state, 'accepted');
  });

  test('concurrent_duplicate_submission_runs_governance_once', () => {
    const hooks = new RecordingHooks();
    const box = inbox(hooks);
    const request = steer('run-1', 'one admission', { request_id: 'concurrent-request' });
    const receipts = Array.from({ length: 16 }, () => box.submitWithHooks(request, 10));
    const first = accepted(present(receipts[0]));
    for (const r of receipts) assert.deepEqual(accepted(r), first);
    assert.equal(hooks.pre, 1, 'a concurrent idempotent retry must not re-run the policy hook');
    assert.equal(hooks.post.length, 1, 'only the first admission emits an accepted observation');
  });

  test('denied_control_never_enters_the_inbox', () => {
    const hooks = new RecordingHooks({ kind: 'block', reason: 'host policy denied control' });
    const box = inbox(hooks);
    const error = errorOf(box.submitWithHooks(interrupt('run-1'), 10));
    assert.deepEqual(error, { code: 'HOOK_DENIED', message: 'run-control request was denied by a hook: host policy denied control' });
    assert.equal(box.snapshot().queued_controls, 0);
    assert.equal(box.isCancelled, false);
    const rejected = hooks.post.find((r) => r.state === 'rejected');
    assert.ok(rejected);
    assert.equal(rejected.sequence, 0);
    assert.equal(rejected.error?.code, 'HOOK_DENIED');
  });

  test('retry and escalate outcomes', () => {
    const retry = errorOf(inbox(new RecordingHooks({ kind: 'retry', reason: 'busy', retry_after_ms: 250 })).submitWithHooks(steer('run-1', 'x'), 1));
    assert.deepEqual(retry, { code: 'HOOK_RETRY', message: 'run-control request must be retried after 250 ms: busy' });
    const escalate = errorOf(
      inbox(new RecordingHooks({ kind: 'escalate', reason: 'needs approval', target: 'oncall' })).submitWithHooks(steer('run-1', 'x'), 1),
    );
    assert.deepEqual(escalate, { code: 'HOOK_DENIED', message: 'run-control request was denied by a hook: needs approval (escalate to oncall)' });
  });
});

describe("upstream's runtime tests (core/tests/run_control_runtime.rs), on the model", () => {
  test('steer_crosses_the_public_session_boundary_at_the_next_safe_point', () => {
    const box = new RunControlInbox('steer-runtime', 'run-1');
    const snapshot = box.updateTurn(1);
    const request = steer(snapshot.run_id, 'Replace the final answer with exactly: STEER_APPLIED', {
      request_id: 'steer-runtime-request',
      session_id: 'steer-runtime',
      expected_turn_id: snapshot.turn_id ?? '',
      expected_turn_revision: snapshot.turn_revision,
    });
    const receipt = accepted(box.submit(request, 1));
    assert.equal(receipt.state, 'accepted');
    assert.deepEqual(accepted(box.submit(request, 2)), receipt);
    const [pending] = box.drain();
    assert.equal(pending?.request.command.kind, 'steer');
    const applied = box.markApplied(present(pending), 'turn-2', 2, 3);
    assert.equal(applied.state, 'applied');
    assert.equal(applied.request_id, 'steer-runtime-request');
    box.close(4);
    assert.equal(box.snapshot().active, false);
  });

  test('interrupt_crosses_the_public_session_boundary_and_settles_the_run', () => {
    const box = new RunControlInbox('interrupt-runtime', 'run-1');
    const snapshot = box.updateTurn(1);
    const receipt = accepted(
      box.submit(
        interrupt(snapshot.run_id, {
          command: { kind: 'interrupt', reason: 'host requested stop', force: false },
          expected_turn_id: 'turn-1',
          expected_turn_revision: snapshot.turn_revision,
        }),
        1,
      ),
    );
    assert.equal(receipt.state, 'accepted');
    assert.equal(box.isCancelled, true);
    const [pending] = box.drain();
    assert.equal(box.markApplied(present(pending), 'turn-1', 1, 2).state, 'applied');
    assert.deepEqual(box.close(3), [], 'nothing left to settle');
    assert.equal(errorOf(box.submit(steer('run-1', 'too late'), 4)).code, 'CLOSED');
  });
});

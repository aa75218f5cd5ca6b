// A pure model of upstream's per-run inbox (`RunControlInbox` in a3s Code `run_control.rs`): admission in
// upstream's order, the receipt transitions accepted → applied | settled, rejected receipts (sequence 0) only for
// a hook's denial, and the window of 256 remembered request ids. No I/O and no clock: every time is an argument.
// Upstream serializes admission with a lock; here every call is already atomic.

import {
  RUN_CONTROL_MAX_QUEUE,
  RUN_CONTROL_MAX_SEEN_REQUESTS,
  RUN_CONTROL_RECEIPT_SCHEMA_V1,
  RUN_ENDED,
  RUN_ENDED_MESSAGE,
  RunControlReceipt,
  RunControlRequest,
  RunControlSnapshot,
} from './schemas';
import { errorMessage, RunControlError, validateRequest } from './validate';
import { requestFingerprint } from './wire';

export type Admission = { ok: true; receipt: RunControlReceipt } | { ok: false; error: RunControlError };

/** What a PreRunControl hook decides (upstream's `HookOutcome`, as far as run control reads it). */
export type HookOutcome =
  | { kind: 'continue' }
  | { kind: 'skip' }
  | { kind: 'block'; reason: string }
  | { kind: 'retry'; reason: string; retry_after_ms: number }
  | { kind: 'escalate'; reason: string; target?: string };

/** The run-frozen governance boundary: the pre hook decides, the post hook observes each receipt once. */
export interface RunControlHooks {
  beforeRunControl(request: RunControlRequest): HookOutcome;
  recordRunControl(request: RunControlRequest, receipt: RunControlReceipt): void;
}

export interface PendingRunControl {
  request: RunControlRequest;
  receipt: RunControlReceipt;
}

interface SeenRequest {
  fingerprint: string;
  request: RunControlRequest;
  receipt: RunControlReceipt;
}

function hookError(outcome: HookOutcome): RunControlError {
  switch (outcome.kind) {
    case 'block':
      return { code: 'HOOK_DENIED', reason: outcome.reason };
    case 'retry':
      return { code: 'HOOK_RETRY', reason: outcome.reason, retry_after_ms: outcome.retry_after_ms };
    case 'escalate':
      return { code: 'HOOK_DENIED', reason: outcome.target === undefined ? outcome.reason : `${outcome.reason} (escalate to ${outcome.target})` };
    default:
      return { code: 'INVALID_REQUEST', detail: 'unexpected non-terminal run-control hook outcome' };
  }
}

export class RunControlInbox {
  private active = true;
  private closed = false;
  private cancelled = false;
  private turnId: string | null = null;
  private turnRevision = 0;
  private lastSequence = 0;
  private interruptRequested = false;
  private readonly queue: PendingRunControl[] = [];
  /** Controls a restored snapshot says are queued (their requests are not known here). */
  private restoredQueued = 0;
  private readonly inFlight = new Map<string, PendingRunControl>();
  /** Insertion order is the eviction order (upstream's `seen_order`). */
  private readonly seen = new Map<string, SeenRequest>();

  constructor(
    readonly sessionId: string,
    readonly runId: string,
    private readonly hooks?: RunControlHooks,
  ) {}

  /**
   * An inbox in the state a snapshot shows, to pre-check a request before it is sent: inactive is closed, and an
   * interrupt already requested has fired the run's cancellation (upstream fires it on acceptance).
   */
  static restore(snapshot: RunControlSnapshot): RunControlInbox {
    const inbox = new RunControlInbox(snapshot.session_id, snapshot.run_id);
    inbox.active = snapshot.active;
    inbox.closed = !snapshot.active;
    inbox.cancelled = snapshot.interrupt_requested;
    inbox.interruptRequested = snapshot.interrupt_requested;
    inbox.turnId = snapshot.turn_id;
    inbox.turnRevision = snapshot.turn_revision;
    inbox.lastSequence = snapshot.last_sequence;
    inbox.restoredQueued = snapshot.queued_controls;
    return inbox;
  }

  /** The run's cancellation token fired (an accepted interrupt fires it; the host may too). */
  get isCancelled(): boolean {
    return this.cancelled;
  }

  cancel(): void {
    this.cancelled = true;
  }

  updateTurn(turn: number): RunControlSnapshot {
    return this.updateTurnId(`turn-${turn}`);
  }

  /** A new turn id bumps the revision; the same id again does not. */
  updateTurnId(turnId: string): RunControlSnapshot {
    if (this.turnId !== turnId) {
      this.turnId = turnId;
      this.turnRevision += 1;
    }
    return this.snapshot();
  }

  snapshot(): RunControlSnapshot {
    return {
      session_id: this.sessionId,
      run_id: this.runId,
      active: this.active && !this.closed,
      turn_id: this.turnId,
      turn_revision: this.turnRevision,
      queued_controls: this.queue.length + this.restoredQueued,
      interrupt_requested: this.interruptRequested,
      last_sequence: this.lastSequence,
    };
  }

  /** Upstream's `submit`: validate, then admit (no hooks). */
  submit(request: RunControlRequest, nowMs: number): Admission {
    const invalid = validateRequest(request);
    if (invalid) return { ok: false, error: invalid };
    return this.admit(request, nowMs);
  }

  /**
   * Upstream's `submit_with_hooks`: validate; a known id answers from memory (the hook does not run again); the
   * pre hook may deny (a rejected receipt, sequence 0, goes to the post hook and the caller gets the error); then
   * admission, and the accepted receipt goes to the post hook.
   */
  submitWithHooks(request: RunControlRequest, nowMs: number): Admission {
    const invalid = validateRequest(request);
    if (invalid) return { ok: false, error: invalid };
    const known = this.known(request);
    if (known) return known;
    if (this.hooks) {
      const outcome = this.hooks.beforeRunControl(request);
      if (outcome.kind !== 'continue' && outcome.kind !== 'skip') {
        const error = hookError(outcome);
        this.hooks.recordRunControl(request, this.rejectedReceipt(request, nowMs, error));
        return { ok: false, error };
      }
    }
    const admission = this.admit(request, nowMs);
    if (admission.ok) this.hooks?.recordRunControl(request, admission.receipt);
    return admission;
  }

  /** The loop takes every queued control at a safe point; they stay in flight until applied or settled. */
  drain(): PendingRunControl[] {
    this.restoredQueued = 0;
    const pending = this.queue.splice(0, this.queue.length);
    for (const item of pending) this.inFlight.set(item.receipt.request_id, item);
    return pending;
  }

  /** Applied at the loop's turn; a control that close already settled keeps its terminal receipt. */
  markApplied(pending: PendingRunControl, turnId: string | null, turnRevision: number, nowMs: number): RunControlReceipt {
    const seen = this.seen.get(pending.receipt.request_id);
    if (!seen) return pending.receipt;
    if (seen.receipt.state !== 'accepted') return seen.receipt;
    const receipt: RunControlReceipt = { ...seen.receipt, state: 'applied', turn_id: turnId, turn_revision: turnRevision, applied_at_ms: nowMs };
    seen.receipt = receipt;
    this.inFlight.delete(receipt.request_id);
    this.hooks?.recordRunControl(pending.request, receipt);
    return receipt;
  }

  /** The run ends: every remembered control still accepted (queued or drained) is settled with RUN_ENDED. */
  close(nowMs: number): RunControlReceipt[] {
    this.active = false;
    this.closed = true;
    this.queue.length = 0;
    this.restoredQueued = 0;
    this.inFlight.clear();
    const settled: PendingRunControl[] = [];
    for (const seen of this.seen.values()) {
      if (seen.receipt.state !== 'accepted') continue;
      seen.receipt = { ...seen.receipt, state: 'settled', applied_at_ms: nowMs, error: { code: RUN_ENDED, message: RUN_ENDED_MESSAGE } };
      settled.push({ request: seen.request, receipt: seen.receipt });
    }
    for (const item of settled) this.hooks?.recordRunControl(item.request, item.receipt);
    return settled.map((item) => item.receipt);
  }

  private known(request: RunControlRequest): Admission | undefined {
    const previous = this.seen.get(request.request_id);
    if (!previous) return undefined;
    if (previous.fingerprint === requestFingerprint(request)) return { ok: true, receipt: previous.receipt };
    return { ok: false, error: { code: 'DUPLICATE_REQUEST', request_id: request.request_id } };
  }

  /** Upstream's `submit_locked`: the checks after validation, in its order. */
  private admit(request: RunControlRequest, nowMs: number): Admission {
    const known = this.known(request);
    if (known) return known;
    const fail = (error: RunControlError): Admission => ({ ok: false, error });
    if (request.session_id !== undefined && request.session_id !== this.sessionId) return fail({ code: 'SESSION_MISMATCH' });
    if (request.run_id !== this.runId) return fail({ code: 'RUN_MISMATCH', run_id: request.run_id });
    if (this.closed || !this.active || this.cancelled) return fail({ code: this.closed ? 'CLOSED' : 'NO_ACTIVE_RUN' });
    if (request.deadline_ms !== undefined && nowMs > request.deadline_ms) return fail({ code: 'DEADLINE_EXCEEDED' });
    if (
      (request.expected_turn_id !== undefined && request.expected_turn_id !== this.turnId) ||
      (request.expected_turn_revision !== undefined && request.expected_turn_revision !== this.turnRevision)
    ) {
      return fail({
        code: 'STALE_TURN',
        ...(request.expected_turn_id === undefined ? {} : { expected_turn_id: request.expected_turn_id }),
        ...(request.expected_turn_revision === undefined ? {} : { expected_revision: request.expected_turn_revision }),
        actual_turn_id: this.turnId,
        actual_revision: this.turnRevision,
      });
    }
    if (this.queue.length + this.restoredQueued >= RUN_CONTROL_MAX_QUEUE) return fail({ code: 'QUEUE_FULL' });

    this.lastSequence += 1;
    const receipt: RunControlReceipt = {
      schema: RUN_CONTROL_RECEIPT_SCHEMA_V1,
      request_id: request.request_id,
      session_id: this.sessionId,
      run_id: this.runId,
      operation: request.command.kind,
      state: 'accepted',
      sequence: this.lastSequence,
      turn_id: this.turnId,
      turn_revision: this.turnRevision,
      accepted_at_ms: nowMs,
    };
    if (request.command.kind === 'interrupt') this.interruptRequested = true;
    this.queue.push({ request, receipt });
    this.seen.set(request.request_id, { fingerprint: requestFingerprint(request), request, receipt });
    while (this.seen.size > RUN_CONTROL_MAX_SEEN_REQUESTS) {
      const oldest = this.seen.keys().next();
      if (oldest.done) break;
      this.seen.delete(oldest.value);
    }
    // Cancellation fires only once the interrupt is accepted, so a caller can retry by id.
    if (request.command.kind === 'interrupt') this.cancelled = true;
    return { ok: true, receipt };
  }

  private rejectedReceipt(request: RunControlRequest, nowMs: number, error: RunControlError): RunControlReceipt {
    return {
      schema: RUN_CONTROL_RECEIPT_SCHEMA_V1,
      request_id: request.request_id,
      session_id: this.sessionId,
      run_id: request.run_id,
      operation: request.command.kind,
      state: 'rejected',
      sequence: 0,
      turn_id: this.turnId,
      turn_revision: this.turnRevision,
      accepted_at_ms: nowMs,
      applied_at_ms: nowMs,
      error: { code: error.code, message: errorMessage(error) },
    };
  }
}
